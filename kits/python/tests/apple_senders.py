"""Senders as their own users write them: pointed at Apple's hosts, nothing configured for a mock (no URL, no CA, no
subclass, no patch on the library). Only the credentials come from the mock (its test key). Under
`mock.intercept()` they reach the mock; anywhere else they try Apple.

Each returns what the library returns and raises what it raises."""

from __future__ import annotations

import asyncio
import json
import socket
import ssl
import uuid
from typing import Any, Dict, List, Optional, Tuple

TOPIC = "com.example.app"


def aioapns_send(mock: Any, token: str, *, title: str, use_sandbox: bool):
    """aioapns 4.0: `APNs(key=…, key_id=…, team_id=…, topic=…, use_sandbox=…)`, one alert; its NotificationResult."""
    from aioapns import APNs, NotificationRequest, PushType

    async def run():
        with open(mock.key_file) as f:
            key = f.read()
        # One connection attempt: aioapns waits a second between attempts, and one is what these tests look at.
        client = APNs(key=key, key_id=mock.key_id, team_id=mock.team_id, topic=TOPIC, use_sandbox=use_sandbox,
                      max_connection_attempts=1)
        try:
            request = NotificationRequest(device_token=token, message={"aps": {"alert": {"title": title}}},
                                          notification_id=str(uuid.uuid4()), push_type=PushType.ALERT)
            return await asyncio.wait_for(client.send_notification(request), timeout=30)
        finally:
            client.pool.close()

    return asyncio.run(run())


def kalyke_send(mock: Any, token: str, *, title: str, use_sandbox: bool = True) -> str:
    """kalyke-apns 1.5.0: `ApnsClient(use_sandbox=…, team_id=…, auth_key_id=…, auth_key_filepath=…)`; the apns-id
    the server answered, or kalyke's exception for the reason."""
    from kalyke import ApnsClient, ApnsConfig, Payload, PayloadAlert

    client = ApnsClient(use_sandbox=use_sandbox, team_id=mock.team_id, auth_key_id=mock.key_id,
                        auth_key_filepath=mock.key_file)
    payload = Payload(alert=PayloadAlert(title=title, body="from kalyke"))
    return asyncio.run(asyncio.wait_for(
        client.send_message(device_token=token, payload=payload, apns_config=ApnsConfig(topic=TOPIC)), timeout=30))


def pyapns_client(mock: Any, *, mode: str = "dev"):
    """pyapns-client 2.0.6: `APNSClient(mode=…, root_cert_path=None, …)` (httpx trusting certifi's roots)."""
    from pyapns_client import APNSClient

    return APNSClient(mode=APNSClient.MODE_DEV if mode == "dev" else APNSClient.MODE_PROD, root_cert_path=None,
                      auth_key_path=mock.key_file, auth_key_id=mock.key_id, team_id=mock.team_id)


def pyapns_send(client: Any, token: str, *, title: str) -> None:
    """One alert through a pyapns-client APNSClient; raises its exception for the reason."""
    from pyapns_client import IOSNotification, IOSPayload, IOSPayloadAlert

    notification = IOSNotification(payload=IOSPayload(alert=IOSPayloadAlert(title=title, body="from pyapns")),
                                   topic=TOPIC)
    client.push(notification=notification, device_token=token)


def h2_request(host: str, port: int, method: str, path: str, headers: List[Tuple[str, str]],
               body: Optional[bytes] = None, context: Optional[ssl.SSLContext] = None) -> Tuple[int, Dict[str, str], bytes]:
    """One HTTP/2 request with the h2 library over `socket.create_connection` and `context.wrap_socket` (default:
    certifi's roots, as requests and httpx trust), as an h2 user writes it; (status, headers, body)."""
    import certifi
    import h2.config
    import h2.connection
    import h2.events

    if context is None:
        context = ssl.create_default_context(cafile=certifi.where())
    context.set_alpn_protocols(["h2"])
    with socket.create_connection((host, port), timeout=10) as raw, \
            context.wrap_socket(raw, server_hostname=host) as tls:
        assert tls.selected_alpn_protocol() == "h2", tls.selected_alpn_protocol()
        connection = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        connection.initiate_connection()
        stream = connection.get_next_available_stream_id()
        authority = host if port == 443 else "%s:%d" % (host, port)
        request_headers = [(":method", method), (":scheme", "https"), (":authority", authority), (":path", path),
                           *headers]
        connection.send_headers(stream, request_headers, end_stream=body is None)
        if body is not None:
            connection.send_data(stream, body, end_stream=True)
        tls.sendall(connection.data_to_send())
        status, answer, data, done = 0, {}, b"", False
        while not done:
            chunk = tls.recv(65536)
            if not chunk:
                raise ConnectionError("%s:%d closed the connection before answering" % (host, port))
            for event in connection.receive_data(chunk):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream:
                    answer = {k.decode() if isinstance(k, bytes) else k: v.decode() if isinstance(v, bytes) else v
                              for k, v in event.headers}
                    status = int(answer[":status"])
                elif isinstance(event, h2.events.DataReceived) and event.stream_id == stream:
                    data += event.data
                    connection.acknowledge_received_data(event.flow_controlled_length, stream)
                elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)) and event.stream_id == stream:
                    done = True
            tls.sendall(connection.data_to_send())
        return status, answer, data


def h2_push(mock: Any, host: str, port: int, token: str, *, title: str,
            context: Optional[ssl.SSLContext] = None) -> Tuple[int, Dict[str, str], bytes]:
    """One alert to https://host:port/3/device/token with h2, a bearer token from the mock's test key."""
    body = json.dumps({"aps": {"alert": {"title": title}}}).encode()
    return h2_request(host, port, "POST", "/3/device/" + token,
                      [("authorization", "bearer " + mock.token()), ("apns-topic", TOPIC),
                       ("apns-push-type", "alert")], body, context)
