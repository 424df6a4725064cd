"""intercept() given bad input: a mock that is not running or does not serve Apple's names, names and ports it does
not cover, two blocks at once, a port already taken. Each is a clear error, and what the mock recorded stays."""

import errno
import os
import signal
import socket
import ssl
import time

import pytest

from apple_senders import aioapns_send, h2_push
from conftest import device_token
from mockapns import MockAPNs, MockAPNsError
from test_intercept import system_resolver  # noqa: F401 - the fixture, shared


def wait_until_dead(mock):
    for _ in range(1000):          # until the kernel has ended it (bounded: 10 s)
        if not mock.running:
            return
        time.sleep(0.01)
    raise AssertionError("the mock did not die")


def test_a_mock_never_started_or_stopped_says_to_start_it():
    mock = MockAPNs(apple_hosts=True)
    message = r"intercept\(\) needs a running mock: use `with MockAPNs\(apple_hosts=True\) as mock:`"
    with pytest.raises(MockAPNsError, match=message):
        mock.intercept()
    mock.start().stop()
    with pytest.raises(MockAPNsError, match=message):
        mock.intercept()


def test_a_mock_that_died_says_how_it_ended_before_and_after_the_block_was_made():
    with MockAPNs(apple_hosts=True) as mock:
        block = mock.intercept()
        os.kill(mock.pid, signal.SIGKILL)
        wait_until_dead(mock)
        with pytest.raises(MockAPNsError, match=r"needs a running mock\. The mockapns server \(pid \d+\) has stopped: "
                                                r"it exited with signal SIGKILL"):
            block.__enter__()
        assert not block.active and socket.getaddrinfo.__module__ == "socket"
        with pytest.raises(MockAPNsError, match="has stopped"):
            mock.intercept()


def test_a_mock_without_apple_hosts_says_how_to_get_them():
    with MockAPNs() as mock:
        assert not mock.apple_hosts and mock.apple_ports == {}
        with pytest.raises(MockAPNsError, match=r"needs a mock that serves Apple's host names: make it with "
                                                r"MockAPNs\(apple_hosts=True\)"):
            mock.intercept()


def test_other_names_and_contexts_are_untouched(apns_mock, system_resolver):  # noqa: F811
    localhost = socket.getaddrinfo("localhost", apns_mock.port, type=socket.SOCK_STREAM)
    with apns_mock.intercept():
        assert socket.getaddrinfo("localhost", apns_mock.port, type=socket.SOCK_STREAM) == localhost
        lookalikes = ["push.apple.com", "api.push.apple.com.example.org", "xapi.push.apple.com"]
        for name in lookalikes:
            with pytest.raises(socket.gaierror):
                socket.getaddrinfo(name, 443)
        # The mock by its own name, with the system's roots: its CA is not trusted for names other than Apple's.
        with socket.create_connection((apns_mock.host, apns_mock.port), timeout=10) as raw:
            with pytest.raises(ssl.SSLCertVerificationError, match="unable to get local issuer certificate"):
                ssl.create_default_context().wrap_socket(raw, server_hostname="localhost")
    assert system_resolver == [(name, 443) for name in lookalikes]     # the system's resolver was asked, as before
    apns_mock.expect(count=0)


def test_a_port_apple_does_not_serve_is_refused(apns_mock):
    with apns_mock.intercept():
        with pytest.raises(ConnectionRefusedError) as refused:
            socket.create_connection(("api.push.apple.com", 8443), timeout=10)
        assert refused.value.errno == errno.ECONNREFUSED
        assert str(refused.value).endswith("mockapns intercept() serves api.push.apple.com on port 443 and 2197 "
                                           "only, not 8443")
        with pytest.raises(ConnectionRefusedError, match="serves api-manage-broadcast.push.apple.com on port 2196 "
                                                         "only, not 443"):
            socket.create_connection(("api-manage-broadcast.push.apple.com", 443), timeout=10)
        [(family, kind, proto, _, address)] = socket.getaddrinfo("api.sandbox.push.apple.com", 2195,
                                                                 type=socket.SOCK_STREAM)
        with socket.socket(family, kind, proto) as raw:
            assert raw.connect_ex(address) == errno.ECONNREFUSED


def test_a_second_mock_cannot_intercept_while_one_does_and_nothing_recorded_is_lost(apns_mock):
    with MockAPNs(apple_hosts=True) as other:
        with apns_mock.intercept():
            assert h2_push(apns_mock, "api.push.apple.com", 443, device_token(1), title="First")[0] == 200
            with pytest.raises(MockAPNsError) as refused:
                with other.intercept():
                    pass
            assert str(refused.value) == (
                "%r.intercept(): %r already intercepts Apple's host names in this process (two mocks cannot both be "
                "api.push.apple.com), and there is one resolver per process. Leave that `with ….intercept():` block "
                "first, or send to this mock by its url and ca_file instead." % (other, apns_mock))
            # The first block goes on.
            assert h2_push(apns_mock, "api.push.apple.com", 443, device_token(2), title="Second")[0] == 200
        with other.intercept():
            assert h2_push(other, "api.push.apple.com", 443, device_token(3), title="Third")[0] == 200
        assert [n.alert_title for n in apns_mock.notifications()] == ["First", "Second"]
        assert [n.alert_title for n in other.notifications()] == ["Third"]


def test_blocks_do_not_nest_and_one_block_is_entered_once(apns_mock):
    block = apns_mock.intercept()
    with block:
        with pytest.raises(MockAPNsError, match=r"already intercepts Apple's host names in this process \(blocks do "
                                                r"not nest\)"):
            with apns_mock.intercept():
                pass
        assert block.active
        assert aioapns_send(apns_mock, device_token(4), title="Still", use_sandbox=True).is_successful
    with pytest.raises(MockAPNsError, match=r"already entered; call .*\.intercept\(\) again"):
        block.__enter__()
    apns_mock.expect(count=1, token=device_token(4), status=200)


def test_an_apple_port_already_taken_fails_the_start_with_the_servers_reason(apns_mock):
    assert h2_push(apns_mock, apns_mock.host, apns_mock.port, device_token(5), title="Kept",
                   context=ssl.create_default_context(cafile=apns_mock.ca_file))[0] == 200
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(MockAPNsError) as failure:
            MockAPNs(apple_hosts=True, args=["--host", "127.0.0.1", "--apple-https-port", str(port)]).start()
    message = str(failure.value)
    assert "exited with code" in message and "before it was ready" in message
    assert str(port) in message and "in use" in message.lower(), message
    [kept] = apns_mock.expect(count=1, token=device_token(5))
    assert kept.alert_title == "Kept"
