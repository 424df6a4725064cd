"""Sends notifications with kalyke-apns, a real client nobody here wrote.

kalyke runs on httpx2 (a separate HTTP/2 stack from httpx's), opens a new client - a new TLS connection - and
mints a new provider token for every push, and writes `iat` as a numeric string.

kalyke has Apple's host names built in and no host or trust option; it is called here as its own users call it,
nothing patched, where those names resolve to the mock and SSL_CERT_FILE names the mock's CA
(AppleHostsTestServer.runRouted).

Usage: kalyke_send.py --key P8 --key-id K --team-id T --topic TOPIC --token HEX [--production]
                      [--count N] [--concurrency C]
Prints one JSON object: {"sent": N, "results": {"200": n, "410 Unregistered": n, ...}, "samples": [...]}.
"""
import argparse
import asyncio
import json
import sys

from kalyke import ApnsClient, ApnsConfig, Payload, PayloadAlert
from kalyke import exceptions


def main() -> int:
    parser = argparse.ArgumentParser()
    for name in ("--key", "--key-id", "--team-id", "--topic", "--token"):
        parser.add_argument(name, required=True)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--production", action="store_true")
    args = parser.parse_args()

    client = ApnsClient(use_sandbox=not args.production, team_id=args.team_id, auth_key_id=args.key_id,
                        auth_key_filepath=args.key)
    results: dict[str, int] = {}
    samples: list[dict] = []

    async def run() -> None:
        semaphore = asyncio.Semaphore(args.concurrency)

        async def send(i: int) -> None:
            async with semaphore:
                payload = Payload(alert=PayloadAlert(title="Order shipped", body=f"Parcel {i}"), custom={"orderId": i})
                try:
                    await asyncio.wait_for(client.send_message(
                        device_token=args.token, payload=payload, apns_config=ApnsConfig(topic=args.topic)), timeout=30)
                    key = "200"
                except exceptions.Unregistered as error:
                    key = "410 Unregistered"
                    if len(samples) < 3:
                        samples.append({"reason": "Unregistered", "timestamp": error.error.get("timestamp")})
                except exceptions.ApnsProviderException as error:
                    key = type(error).__name__
                except Exception as error:  # a library failure is a finding, not a crash of this script
                    key = f"error {type(error).__name__}: {error}"
                results[key] = results.get(key, 0) + 1

        await asyncio.gather(*(send(i) for i in range(args.count)))

    asyncio.run(run())
    print(json.dumps({"sent": args.count, "results": results, "samples": samples}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
