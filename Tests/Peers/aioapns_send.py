"""Sends notifications with aioapns, a real client nobody here wrote, called as its own users call it: nothing is
patched. aioapns has Apple's host names built in (api.development.push.apple.com for the sandbox,
api.push.apple.com for production, port 443); the test runs this script where those names resolve to the mock
and SSL_CERT_FILE names the mock's CA (AppleHostsTestServer.runRouted).

aioapns connects without ALPN, matches responses by apns-id and fails on a DATA frame after a 200,
so a clean run says the mock's wire behaviour matches what it expects from APNs.

Usage: aioapns_send.py --key P8 --key-id K --team-id T --topic TOPIC --token HEX [--production]
                       [--count N] [--concurrency C]
Prints one JSON object: {"sent": N, "results": {"200": n, "410 Unregistered": n, ...}, "samples": [...]}.
"""
import argparse
import asyncio
import json
import sys
import uuid

from aioapns import APNs, NotificationRequest, PushType


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--key", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--team-id", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--production", action="store_true")
    args = parser.parse_args()

    with open(args.key) as f:
        key = f.read()
    client = APNs(key=key, key_id=args.key_id, team_id=args.team_id, topic=args.topic,
                  use_sandbox=not args.production, max_connections=4)

    results: dict[str, int] = {}
    samples: list[dict] = []
    semaphore = asyncio.Semaphore(args.concurrency)

    async def send(i: int) -> None:
        async with semaphore:
            request = NotificationRequest(
                device_token=args.token,
                message={"aps": {"alert": {"title": "Order shipped", "body": f"Parcel {i}"}}, "orderId": i},
                notification_id=str(uuid.uuid4()),
                push_type=PushType.ALERT,
            )
            try:
                result = await asyncio.wait_for(client.send_notification(request), timeout=30)
            except Exception as error:  # an aioapns failure is a finding, not a crash of this script
                key_ = f"error {type(error).__name__}"
                results[key_] = results.get(key_, 0) + 1
                return
            key_ = str(result.status) if result.is_successful else f"{result.status} {result.description}"
            results[key_] = results.get(key_, 0) + 1
            if len(samples) < 3:
                samples.append({"status": str(result.status), "reason": result.description,
                                "timestamp": result.timestamp, "apns_id": result.notification_id,
                                "sent_id": request.notification_id})

    await asyncio.gather(*(send(i) for i in range(args.count)))
    print(json.dumps({"sent": args.count, "results": results, "samples": samples}))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
