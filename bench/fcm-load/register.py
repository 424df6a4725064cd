"""Registers app instances with a running `serve --fcm` through its control API, as the Firebase SDK in an app gets
its registration token, and prints one line a registration, "PLATFORM TOKEN", for bench/fcm-load.

    python3 bench/fcm-load/register.py CONTROL_URL COUNT > tokens

Every other registration is iOS (from the first), the rest Android, all of the app com.example.app in the project
mockapns-test; one keep-alive HTTP/1.1 connection, so 10 000 take a few seconds.
"""

import http.client
import json
import sys
import urllib.parse

PROJECT = "mockapns-test"
APP = "com.example.app"


def main() -> None:
    control, count = sys.argv[1], int(sys.argv[2])
    url = urllib.parse.urlsplit(control)
    connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=30)
    headers = {"content-type": "application/json"}
    out = []
    for i in range(count):
        platform = "ios" if i % 2 == 0 else "android"
        body = json.dumps({"project": PROJECT, "platform": platform, "bundle_id": APP})
        connection.request("POST", "/api/v1/fcm/registrations", body, headers)
        response = connection.getresponse()
        answer = response.read()
        if response.status not in (200, 201):
            sys.exit("register.py: registration %d (%s) answered %d: %s" % (i + 1, platform, response.status,
                                                                            answer.decode(errors="replace")))
        out.append("%s %s\n" % (platform, json.loads(answer)["token"]))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
