"""intercept(): real senders, as their users write them (Apple's hosts, the system's trust store, no patch on the
library), reach the session mock inside `with apns_mock.intercept():` and Apple outside it."""

import socket
import ssl

import pytest

from apple_senders import TOPIC, aioapns_send, h2_push, h2_request, kalyke_send, pyapns_client, pyapns_send
from conftest import device_token

#: 64 characters, but not hex: APNs answers BadDeviceToken.
BAD_TOKEN = "zz" * 32


def host_of(notification):
    """The host the sender addressed (:authority, or the host header aioapns sends), as the mock recorded it."""
    return notification.header(":authority") or notification.header("host")


@pytest.fixture
def system_resolver(monkeypatch):
    """Stands in for the machine's resolver, so no test asks a DNS server: localhost and numeric addresses resolve
    as before, every other name is unknown (a machine without network). Installed before intercept(), so a block
    must pass other names through to it and put it back when it ends. Returns the names it was asked for."""
    asked = []
    real = socket.getaddrinfo

    def resolve(host, port, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else host
        if name is None or name == "localhost" or name.replace(".", "").isdigit() or ":" in name:
            return real(host, port, *args, **kwargs)
        asked.append((name, port))
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    return asked


def test_aioapns_reaches_the_mock_for_sandbox_and_production(apns_mock, system_resolver):
    with apns_mock.intercept():
        sandbox = aioapns_send(apns_mock, device_token(1), title="To sandbox", use_sandbox=True)
        production = aioapns_send(apns_mock, device_token(2), title="To production", use_sandbox=False)
    assert sandbox.is_successful, sandbox.description
    assert production.is_successful, production.description
    [to_sandbox] = apns_mock.expect(count=1, token=device_token(1), topic=TOPIC, push_type="alert", status=200)
    [to_production] = apns_mock.expect(count=1, token=device_token(2), status=200)
    assert (to_sandbox.alert_title, host_of(to_sandbox)) == ("To sandbox", "api.development.push.apple.com")
    assert (to_production.alert_title, host_of(to_production)) == ("To production", "api.push.apple.com")
    assert (to_sandbox.environment, to_production.environment) == ("development", "production")
    assert to_sandbox.apns_id == sandbox.notification_id.lower()
    assert system_resolver == []


def test_aioapns_gets_bad_device_token(apns_mock):
    with apns_mock.intercept():
        result = aioapns_send(apns_mock, BAD_TOKEN, title="Nowhere", use_sandbox=True)
    assert (result.status, result.description) == ("400", "BadDeviceToken")
    apns_mock.expect(count=1, token=BAD_TOKEN, status=400, reason="BadDeviceToken")


def test_kalyke_reaches_the_mock_for_sandbox_and_production(apns_mock, system_resolver):
    with apns_mock.intercept():
        sandbox_id = kalyke_send(apns_mock, device_token(3), title="Kalyke sandbox", use_sandbox=True)
        production_id = kalyke_send(apns_mock, device_token(4), title="Kalyke production", use_sandbox=False)
    [to_sandbox] = apns_mock.expect(count=1, token=device_token(3), status=200)
    [to_production] = apns_mock.expect(count=1, token=device_token(4), status=200)
    assert (to_sandbox.apns_id, to_production.apns_id) == (sandbox_id, production_id)
    assert (to_sandbox.environment, to_production.environment) == ("development", "production")
    assert to_sandbox.alert_body == "from kalyke"
    assert system_resolver == []


def test_kalyke_gets_bad_device_token(apns_mock):
    from kalyke import exceptions as kalyke_errors

    with apns_mock.intercept():
        with pytest.raises(kalyke_errors.BadDeviceToken):
            kalyke_send(apns_mock, BAD_TOKEN, title="Nowhere")
    apns_mock.expect(count=1, token=BAD_TOKEN, status=400, reason="BadDeviceToken")


def test_pyapns_client_with_certifi_roots_reaches_the_mock(apns_mock, system_resolver):
    development, production = pyapns_client(apns_mock, mode="dev"), pyapns_client(apns_mock, mode="prod")
    try:
        with apns_mock.intercept():
            pyapns_send(development, device_token(5), title="pyapns development")
            pyapns_send(production, device_token(6), title="pyapns production")
    finally:
        development.close()
        production.close()
    [to_development] = apns_mock.expect(count=1, token=device_token(5), status=200)
    [to_production] = apns_mock.expect(count=1, token=device_token(6), status=200)
    assert (to_development.alert_title, to_production.alert_title) == ("pyapns development", "pyapns production")
    assert (to_development.environment, to_production.environment) == ("development", "production")
    assert system_resolver == []


def test_pyapns_client_gets_bad_device_token(apns_mock):
    from pyapns_client import BadDeviceTokenException

    client = pyapns_client(apns_mock)
    try:
        with apns_mock.intercept():
            with pytest.raises(BadDeviceTokenException):
                pyapns_send(client, BAD_TOKEN, title="Nowhere")
    finally:
        client.close()
    apns_mock.expect(count=1, token=BAD_TOKEN, status=400, reason="BadDeviceToken")


@pytest.mark.parametrize("host,environment", [("api.push.apple.com", "production"),
                                              ("api.sandbox.push.apple.com", "development"),
                                              ("API.Development.Push.Apple.COM", "development")])
@pytest.mark.parametrize("port", [443, 2197])
def test_h2_over_a_plain_socket_reaches_every_push_host_and_port(apns_mock, host, environment, port):
    with apns_mock.intercept():
        status, headers, _ = h2_push(apns_mock, host, port, device_token(7), title="h2 to %s:%d" % (host, port))
    assert status == 200
    [push] = apns_mock.expect(count=1, token=device_token(7), status=200)
    assert (push.apns_id, push.environment) == (headers["apns-id"], environment)


@pytest.mark.parametrize("host,port,environment", [("api-manage-broadcast.sandbox.push.apple.com", 2195, "development"),
                                                    ("api-manage-broadcast.push.apple.com", 2196, "production")])
def test_channel_management_hosts_reach_the_mocks_channel_listeners(apns_mock, host, port, environment):
    body = b'{"message-storage-policy": 0, "push-type": "LiveActivity"}'
    with apns_mock.intercept():
        status, headers, answer = h2_request(host, port, "POST", "/1/apps/%s/channels" % TOPIC,
                                             [("authorization", "bearer " + apns_mock.token())], body)
    assert status == 201, answer
    [created] = apns_mock.notifications()
    assert (created.record["path"], created.status, created.environment) == ("/1/apps/%s/channels" % TOPIC, 201,
                                                                              environment)
    assert created.apns_id == headers["apns-request-id"] and headers["apns-channel-id"]


def test_outside_the_block_the_same_senders_ask_the_system_and_do_not_reach_the_mock(apns_mock, system_resolver):
    from kalyke import exceptions as kalyke_errors   # noqa: F401 - kalyke raises httpx2's error, not its own
    from pyapns_client import APNSConnectionException

    client = pyapns_client(apns_mock)
    try:
        with apns_mock.intercept():
            pyapns_send(client, device_token(8), title="Inside")
            kalyke_send(apns_mock, device_token(8), title="Inside")
            assert aioapns_send(apns_mock, device_token(8), title="Inside", use_sandbox=True).is_successful
        assert system_resolver == []
        apns_mock.expect(count=3, token=device_token(8), status=200)

        with pytest.raises(APNSConnectionException):
            pyapns_send(client, device_token(9), title="Outside")
        with pytest.raises(Exception) as kalyke_failure:
            kalyke_send(apns_mock, device_token(9), title="Outside")
        assert type(kalyke_failure.value).__name__ == "ConnectError", repr(kalyke_failure.value)
        with pytest.raises(Exception) as aioapns_failure:
            aioapns_send(apns_mock, device_token(9), title="Outside", use_sandbox=False)
        assert type(aioapns_failure.value).__name__ == "MaxAttemptsExceeded", repr(aioapns_failure.value)
    finally:
        client.close()
    assert {name for name, _ in system_resolver} == {"api.development.push.apple.com", "api.sandbox.push.apple.com",
                                                     "api.push.apple.com"}
    apns_mock.expect(count=0, token=device_token(9))
    assert len(apns_mock.notifications()) == 3


def test_the_block_puts_the_socket_and_ssl_functions_back(apns_mock):
    before = (socket.getaddrinfo, socket.socket.connect, socket.socket.connect_ex, ssl.SSLContext.wrap_socket,
              ssl.SSLContext.wrap_bio)
    before_dicts = ("connect" in vars(socket.socket), "connect_ex" in vars(socket.socket))
    with apns_mock.intercept() as block:
        assert block.active
        assert socket.getaddrinfo is not before[0] and socket.socket.connect is not before[1]
    assert not block.active
    assert (socket.getaddrinfo, socket.socket.connect, socket.socket.connect_ex, ssl.SSLContext.wrap_socket,
            ssl.SSLContext.wrap_bio) == before
    assert ("connect" in vars(socket.socket), "connect_ex" in vars(socket.socket)) == before_dicts
