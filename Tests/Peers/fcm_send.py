"""Sends FCM messages with a real Firebase sender nobody here wrote, called as its own users call it: nothing is
patched, no URL or CA is configured. firebase-admin, pyfcm and async-firebase have Google's names built in
(fcm.googleapis.com for messages:send, iid.googleapis.com for topic subscriptions; the token exchange goes to the
service account's token_uri, oauth2.googleapis.com, or async-firebase's own constant of that name), port 443. The test
runs this script where those names resolve to the mock (a hosts file in a mount namespace) and the CA variables name
the mock's CA: requests (firebase-admin's send/send_each/subscribe_to_topic, pyfcm, google-auth's token request)
reads REQUESTS_CA_BUNDLE only, never SSL_CERT_FILE; httpx (firebase-admin's send_each_async, async-firebase) reads
SSL_CERT_FILE. So both must be set.

Usage: fcm_send.py --service-account FILE --token T [--token T2 …] [--library firebase-admin|pyfcm|async-firebase]
                   [--mode send|send_each|send_each_async|dry_run|subscribe|topic|condition] [--project P]
                   [--topic NAME] [--condition EXPR] [--title S] [--body S] [--count N] [--data K=V …]
- send: one message to the first token; dry_run: the same with dry_run/validate_only;
- send_each / send_each_async: --count messages (default: one per token), round-robin over the tokens;
- subscribe: the tokens to --topic; topic: one message to --topic; condition: one message to --condition.
pyfcm has send, dry_run, topic and condition; async-firebase all but send_each_async (its send_each is async).

Prints one JSON line: {"ok": bool, "name": first name or null, "error_class": first error's class or null,
"error": its text, "names": [...], "errors": [class or null per message], "success_count", "failure_count",
"library", "mode", "seconds"}. Exit status 0 whatever FCM answered (an SDK error is a finding, printed); 2 for a
usage error or an SDK that is not installed.
"""
import argparse
import asyncio
import json
import sys
import time
import warnings

# firebase-admin 7.7 and async-firebase 6.4 deprecate Message(token=…) for fid=; this script sends to tokens.
warnings.filterwarnings("ignore", "Message.token is deprecated", DeprecationWarning)


def firebase_admin_run(args, messages_to, topic):
    import firebase_admin
    from firebase_admin import credentials, messaging

    options = {"projectId": args.project} if args.project else None
    app = firebase_admin.initialize_app(credentials.Certificate(args.service_account), options)
    try:
        def message(token=None, topic=None, condition=None, title=args.title):
            return messaging.Message(token=token, topic=topic, condition=condition, data=args.data or None,
                                     notification=messaging.Notification(title=title, body=args.body))

        if args.mode in ("send", "dry_run"):
            return [single(lambda: messaging.send(message(args.token[0]), dry_run=args.mode == "dry_run"))]
        if args.mode == "topic":
            return [single(lambda: messaging.send(message(topic=topic)))]
        if args.mode == "condition":
            return [single(lambda: messaging.send(message(condition=args.condition)))]
        if args.mode == "subscribe":
            answer = messaging.subscribe_to_topic(args.token, topic)
            failed = {error.index: error.reason for error in answer.errors}
            return [(None, None if i not in failed else ("SubscribeError", failed[i])) for i in range(len(args.token))]
        batch = [message(token, title="%s %d" % (args.title, i)) for i, token in messages_to]
        if args.mode == "send_each":
            answer = messaging.send_each(batch)
        else:
            answer = asyncio.run(messaging.send_each_async(batch))
        return [(r.message_id, None if r.success else (type(r.exception).__name__, str(r.exception)))
                for r in answer.responses]
    finally:
        try:
            firebase_admin.delete_app(app)
        except RuntimeError as error:
            # firebase-admin 7.7 closes its httpx client with a new asyncio.run(); after send_each_async's own
            # asyncio.run its connections belong to a closed loop. The app is deleted already; the sends stand.
            if "Event loop is closed" not in str(error):
                raise


def pyfcm_run(args, messages_to, topic):
    from pyfcm import FCMNotification

    project = args.project or json.load(open(args.service_account))["project_id"]
    fcm = FCMNotification(service_account_file=args.service_account, project_id=project)
    common = {"notification_title": args.title, "notification_body": args.body, "data_payload": args.data or None}
    if args.mode in ("send", "dry_run"):
        return [single(lambda: fcm.notify(fcm_token=args.token[0], dry_run=args.mode == "dry_run", **common)["name"])]
    if args.mode == "topic":
        return [single(lambda: fcm.notify(topic_name=topic, **common)["name"])]
    if args.mode == "condition":
        return [single(lambda: fcm.notify(topic_condition=args.condition, **common)["name"])]
    raise UsageError("pyfcm has no %s (it has send, dry_run, topic and condition)" % args.mode)


def async_firebase_run(args, messages_to, topic):
    from async_firebase import AsyncFirebaseClient
    from async_firebase.messages import Message, Notification

    if args.mode == "send_each_async":
        raise UsageError("async-firebase's send_each is async already: use --mode send_each")

    def message(token=None, topic=None, condition=None, title=args.title):
        return Message(token=token, topic=topic, condition=condition, data=args.data or {},
                       notification=Notification(title=title, body=args.body))

    def outcome(response):
        return (response.message_id, None if response.success else
                (type(response.exception).__name__, str(response.exception)))

    async def run():
        async with AsyncFirebaseClient() as client:
            client.creds_from_service_account_file(args.service_account)
            if args.mode in ("send", "dry_run"):
                return [outcome(await client.send(message(args.token[0]), dry_run=args.mode == "dry_run"))]
            if args.mode == "topic":
                return [outcome(await client.send(message(topic=topic)))]
            if args.mode == "condition":
                return [outcome(await client.send(message(condition=args.condition)))]
            if args.mode == "subscribe":
                answer = await client.subscribe_devices_to_topic(args.token, topic)
                failed = {error.index: error.reason for error in answer.errors}
                return [(None, None if i not in failed else ("SubscribeError", failed[i]))
                        for i in range(len(args.token))]
            batch = [message(token, title="%s %d" % (args.title, i)) for i, token in messages_to]
            return [outcome(r) for r in (await client.send_each(batch)).responses]

    return asyncio.run(run())


class UsageError(Exception):
    pass


def single(call):
    """(name, None), or (None, (error class, text)) for what the SDK raised."""
    try:
        return call(), None
    except Exception as error:  # the SDK's error is the finding
        return None, (type(error).__name__, str(error))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--service-account", required=True)
    parser.add_argument("--token", action="append", default=[])
    parser.add_argument("--library", default="firebase-admin", choices=["firebase-admin", "pyfcm", "async-firebase"])
    parser.add_argument("--mode", default="send",
                        choices=["send", "send_each", "send_each_async", "dry_run", "subscribe", "topic", "condition"])
    parser.add_argument("--project", help="the project to send as (default: the service account's)")
    parser.add_argument("--topic", default="news")
    parser.add_argument("--condition")
    parser.add_argument("--title", default="Order shipped")
    parser.add_argument("--body", default="Parcel 42")
    parser.add_argument("--count", type=int)
    parser.add_argument("--data", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    args.data = dict(item.split("=", 1) for item in args.data)
    needs_token = args.mode in ("send", "dry_run", "send_each", "send_each_async", "subscribe")
    if needs_token and not args.token:
        parser.error("--mode %s needs --token" % args.mode)
    if args.mode == "condition" and not args.condition:
        parser.error("--mode condition needs --condition")
    count = args.count if args.count is not None else len(args.token)
    messages_to = [(i, args.token[i % len(args.token)]) for i in range(count)] if args.token else []

    run = {"firebase-admin": firebase_admin_run, "pyfcm": pyfcm_run, "async-firebase": async_firebase_run}
    started = time.monotonic()
    try:
        outcomes = run[args.library](args, messages_to, args.topic)
    except UsageError as error:
        print(json.dumps({"ok": False, "error_class": "UsageError", "error": str(error)}))
        return 2
    except ImportError as error:
        print(json.dumps({"ok": False, "error_class": "ImportError", "error": str(error)}))
        return 2
    except Exception as error:  # set-up failed (credentials, the token exchange of subscribe…): still a finding
        outcomes = [(None, (type(error).__name__, str(error)))]
    names = [name for name, _ in outcomes]
    errors = [error for _, error in outcomes]
    first = next((error for error in errors if error), None)
    print(json.dumps({
        "ok": first is None, "name": next((name for name in names if name), None),
        "error_class": first[0] if first else None, "error": first[1] if first else None,
        "names": names, "errors": [error[0] if error else None for error in errors],
        "success_count": sum(1 for error in errors if error is None),
        "failure_count": sum(1 for error in errors if error is not None),
        "library": args.library, "mode": args.mode, "seconds": round(time.monotonic() - started, 3),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
