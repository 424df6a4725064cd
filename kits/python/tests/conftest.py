"""Shared helpers of the kit's tests: real APNs clients (aioapns, kalyke-apns) and a standard-library HTTP/1.1
sender, all pointed at a MockAPNs. The `apns_mock` fixture itself comes from the installed plugin (pytest11)."""

from __future__ import annotations

import asyncio
import json
import ssl
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from typing import Any, Dict, Optional

import pytest

pytest_plugins = ["pytester"]

TOPIC = "com.example.app"


def device_token(n: int) -> str:
    """A distinct 64-hex-digit device token per n."""
    return ("%02x" % n) * 32


def push_http1(mock, token: str, *, topic: str = TOPIC, title: str = "Hello", push_type: str = "alert",
               bearer: Optional[str] = None, extra: Optional[Dict[str, Any]] = None) -> int:
    """POSTs one alert to the mock's HTTP/1.1 endpoint with urllib and returns the status it answered."""
    payload = {"aps": {"alert": {"title": title, "body": "body of " + title}}, **(extra or {})}
    request = urllib.request.Request(
        mock.http1_url + "/3/device/" + token, data=json.dumps(payload).encode(), method="POST",
        headers={"apns-topic": topic, "apns-push-type": push_type,
                 "authorization": "bearer " + (bearer or mock.token())})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def send_aioapns(mock, token: str, *, title: str, topic: str = TOPIC, body: Optional[str] = None,
                 badge: Optional[int] = None, collapse_id: Optional[str] = None):
    """Sends one alert with aioapns (its own HTTP/2 stack and JWT signing) and returns its NotificationResult."""
    from aioapns import APNs, NotificationRequest, PushType
    from aioapns.connection import APNsDevelopmentClientProtocol

    class ToMock(APNsDevelopmentClientProtocol):
        APNS_SERVER = "localhost"      # a name the mock's certificate holds
        APNS_PORT = mock.port

    async def run():
        with open(mock.key_file) as f:
            key = f.read()
        client = APNs(key=key, key_id=mock.key_id, team_id=mock.team_id, topic=topic, use_sandbox=True,
                      ssl_context=ssl.create_default_context(cafile=mock.ca_file), max_connections=1)
        client.pool.protocol_class = ToMock
        try:
            alert = {"title": title, **({"body": body} if body is not None else {})}
            aps = {"alert": alert, **({"badge": badge} if badge is not None else {})}
            request = NotificationRequest(device_token=token, message={"aps": aps}, collapse_key=collapse_id,
                                          notification_id=str(uuid.uuid4()), push_type=PushType.ALERT)
            return await asyncio.wait_for(client.send_notification(request), timeout=30)
        finally:
            client.pool.close()

    return asyncio.run(run())


def send_kalyke(mock, token: str, *, title: str, topic: str = TOPIC, custom: Optional[Dict[str, Any]] = None,
                body: str = "from kalyke", badge: Optional[int] = None, thread_id: Optional[str] = None,
                collapse_id: Optional[str] = None) -> str:
    """Sends one alert with kalyke-apns (httpx2, a new token per push) and returns the apns-id the mock answered;
    raises kalyke's exception on a rejection."""
    from httpx2 import AsyncClient
    from kalyke import ApnsClient, ApnsConfig, Payload, PayloadAlert

    context = ssl.create_default_context(cafile=mock.ca_file)

    # kalyke has no endpoint or trust option: a subclass points it at the mock and trusts the test CA.
    @dataclass(frozen=True)
    class ToMock(ApnsClient):
        @property
        def _base_url(self) -> str:
            return "https://localhost:%d" % mock.port

        def _init_client(self, apns_config: ApnsConfig) -> AsyncClient:
            client = super()._init_client(apns_config)
            return AsyncClient(headers=dict(client.headers), http2=True, verify=context)

    client = ToMock(use_sandbox=True, team_id=mock.team_id, auth_key_id=mock.key_id, auth_key_filepath=mock.key_file)
    payload = Payload(alert=PayloadAlert(title=title, body=body), badge=badge, thread_id=thread_id, custom=custom)
    config = ApnsConfig(topic=topic, collapse_id=collapse_id)
    return asyncio.run(asyncio.wait_for(
        client.send_message(device_token=token, payload=payload, apns_config=config), timeout=30))


@pytest.fixture
def push(apns_mock):
    """`push(token, topic=…, title=…)`: one alert to the session mock over HTTP/1.1; returns the status."""
    return lambda token, **options: push_http1(apns_mock, token, **options)
