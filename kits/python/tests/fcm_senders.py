"""Firebase senders as their own users write them: firebase-admin, pyfcm and async-firebase with Google's names built
in and the service-account file Google's console hands out; nothing configured for a mock (no URL, no CA, no
transport, no patch on the library). Only the service-account file comes from the mock. Under `mock.intercept()`
they reach the mock; anywhere else they try Google.

Each returns what the library returns and raises what it raises."""

from __future__ import annotations

import asyncio
import secrets
from contextlib import contextmanager
from typing import Any, Dict, Iterator, List, Optional

#: The app the registrations are for: the APNs topic of the pushes FCM makes of their messages.
BUNDLE = "com.example.app"


@contextmanager
def firebase_app(service_account: str, name: Optional[str] = None) -> Iterator[Any]:
    """firebase-admin 7: `firebase_admin.initialize_app(credentials.Certificate(path))` (the default app, or one
    named `name`), deleted again after the block."""
    import firebase_admin
    from firebase_admin import credentials

    app = (firebase_admin.initialize_app(credentials.Certificate(service_account)) if name is None else
           firebase_admin.initialize_app(credentials.Certificate(service_account), name=name))
    try:
        yield app
    finally:
        try:
            firebase_admin.delete_app(app)
        except RuntimeError as error:
            # firebase-admin 7.7's messaging service closes its httpx client with a new asyncio.run(…aclose()); after
            # a sender's own asyncio.run(messaging.send_each_async(…)) that client's HTTP/2 connections belong to the
            # loop that run closed, so closing them raises "Event loop is closed". The SDK's wart, not the mock's: the
            # app is deleted already (delete_app unregisters it before cleaning up).
            if "Event loop is closed" not in str(error):
                raise


def notification_message(token: Optional[str] = None, *, title: str, body: str = "Order 42",
                         data: Optional[Dict[str, Any]] = None, topic: Optional[str] = None,
                         condition: Optional[str] = None):
    """A firebase-admin `messaging.Message` with a notification, to one token, a topic or a condition."""
    from firebase_admin import messaging

    return messaging.Message(token=token, topic=topic, condition=condition, data=data,
                             notification=messaging.Notification(title=title, body=body))


def pyfcm_notify(service_account: str, project: str, token: str, *, title: str, body: str = "Order 42",
                 dry_run: bool = False) -> Dict[str, Any]:
    """pyfcm 2: `FCMNotification(service_account_file=…, project_id=…).notify(fcm_token=…, …)` (requests); the
    answer ({"name": …}) or pyfcm's exception."""
    from pyfcm import FCMNotification

    fcm = FCMNotification(service_account_file=service_account, project_id=project)
    return fcm.notify(fcm_token=token, notification_title=title, notification_body=body, dry_run=dry_run)


def async_firebase_send(service_account: str, token: str, *, title: str, body: str = "Order 42",
                        dry_run: bool = False):
    """async-firebase 6: `AsyncFirebaseClient()` with `creds_from_service_account_file(…)`, `await client.send(…)`
    (httpx); its FCMResponse (`success`, `message_id`, `exception`)."""
    from async_firebase import AsyncFirebaseClient
    from async_firebase.messages import Message, Notification

    async def run():
        async with AsyncFirebaseClient() as client:
            client.creds_from_service_account_file(service_account)
            return await asyncio.wait_for(
                client.send(Message(token=token, notification=Notification(title=title, body=body)), dry_run=dry_run),
                timeout=30)

    return asyncio.run(run())


def async_firebase_subscribe_iid(service_account: str, tokens: List[str], topic: str):
    """async-firebase 6: `await client.subscribe_devices_to_topic(tokens, topic)`, the legacy Instance ID call
    (`POST https://iid.googleapis.com/iid/v1:batchAdd`) that firebase-admin made before 7.7; its
    TopicManagementResponse. (Its `subscribe_to_topic`, like firebase-admin 7.7's, calls FCM's v1 topic API.)"""
    import warnings

    from async_firebase import AsyncFirebaseClient

    async def run():
        async with AsyncFirebaseClient() as client:
            client.creds_from_service_account_file(service_account)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)     # "use subscribe_to_topic instead"
                return await asyncio.wait_for(client.subscribe_devices_to_topic(tokens, topic), timeout=30)

    return asyncio.run(run())


def unique_topic(prefix: str = "news") -> str:
    """A topic name of this test's own (subscriptions outlive `clear()`)."""
    return "%s-%s" % (prefix, secrets.token_hex(4))


def stale_token_like(token: str) -> str:
    """A registration token shaped as `token` is (`<fid>:APA91b…`, the same length), which the mock never issued."""
    fid, rest = token.split(":", 1)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    new_fid = "".join(secrets.choice(alphabet) for _ in fid)
    tail = "".join(secrets.choice(alphabet) for _ in rest[len("APA91b"):])
    return "%s:APA91b%s" % (new_fid, tail)


def apns_tokens(pushes: List[Any]) -> List[str]:
    """The device tokens of recorded APNs pushes, lowercase."""
    return [(push.token or "").lower() for push in pushes]
