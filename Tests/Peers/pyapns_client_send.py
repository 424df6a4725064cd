"""Sends notifications with pyapns_client, a real client nobody here wrote.

pyapns_client runs on httpx (HTTP/2 through httpcore and h2, ALPN h2) and signs its provider token with
`"iat": time.time()`, a JSON number with a fraction, as many Python senders do. Its client is built for one
thread (it keeps no idle connection, so one thread's request closes the connection under another's), so each
worker thread gets its own client: `--concurrency` clients send at once.

It is called as its own users call it, nothing patched: its Apple host names resolve to the mock and
SSL_CERT_FILE names the mock's CA (AppleHostsTestServer.runRouted).

Usage: pyapns_client_send.py --key P8 --key-id K --team-id T --topic TOPIC --token HEX [--production]
                             [--count N] [--concurrency C]
Prints one JSON object: {"sent": N, "iat": <the iat claim sent>, "results": {"200": n, "410 Unregistered": n, ...},
"samples": [...]}.
"""
import argparse
import base64
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from pyapns_client import APNSClient, IOSNotification, IOSPayload, IOSPayloadAlert
from pyapns_client import exceptions


def claims_of(token: str) -> dict:
    segment = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))


def main() -> int:
    parser = argparse.ArgumentParser()
    for name in ("--key", "--key-id", "--team-id", "--topic", "--token"):
        parser.add_argument(name, required=True)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--production", action="store_true")
    args = parser.parse_args()
    mode = APNSClient.MODE_PROD if args.production else APNSClient.MODE_DEV
    results: dict[str, int] = {}
    samples: list[dict] = []
    lock = threading.Lock()
    local = threading.local()
    clients: list[APNSClient] = []

    def client() -> APNSClient:
        if not hasattr(local, "client"):
            # root_cert_path=None: the system's trust (httpx reads SSL_CERT_FILE), as a user who pins nothing has it.
            local.client = APNSClient(mode=mode, root_cert_path=None, auth_key_path=args.key,
                                      auth_key_id=args.key_id, team_id=args.team_id)
            with lock:
                clients.append(local.client)
        return local.client

    def count(key: str, sample: dict | None = None) -> None:
        with lock:
            results[key] = results.get(key, 0) + 1
            if sample is not None and len(samples) < 3:
                samples.append(sample)

    def send(i: int) -> None:
        payload = IOSPayload(alert=IOSPayloadAlert(title="Order shipped", body=f"Parcel {i}"), custom={"orderId": i})
        notification = IOSNotification(payload=payload, topic=args.topic)
        try:
            client().push(notification=notification, device_token=args.token)
            count("200")
        except exceptions.UnregisteredException as error:
            count(f"{error.status_code} Unregistered", {"status": error.status_code, "timestamp": error.timestamp})
        except exceptions.APNSException as error:
            count(f"{getattr(error, 'status_code', '?')} {type(error).__name__}")
        except Exception as error:  # a library failure is a finding, not a crash of this script
            count(f"error {type(error).__name__}: {error}")

    with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        list(pool.map(send, range(args.count)))
    tokens = [c._auth_token_storage for c in clients if c._auth_token_storage]
    iat = claims_of(tokens[0])["iat"] if tokens else None
    for c in clients:
        c.close()
    print(json.dumps({"sent": args.count, "iat": iat, "results": results, "samples": samples}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
