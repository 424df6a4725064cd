"""The mockapns image in podman: the Testcontainers module over podman's Docker API, and MockAPNs.container over
podman's command line; with Apple's host names, a sender that knows nothing of the mock reaches it."""

import ssl
import subprocess

import pytest

from apple_senders import aioapns_send, h2_push

TOKEN = "ab" * 32


def gone(container_id: str) -> bool:
    """Whether podman no longer has the container, running or stopped."""
    listed = subprocess.run(["podman", "ps", "-a", "-q", "--no-trunc", "--filter", "id=" + container_id],
                            capture_output=True, text=True, check=True)
    return listed.stdout.strip() == ""


def test_the_testcontainers_module_serves_records_and_devices(docker_api, image):
    from mockapns.testcontainers import MockAPNsContainer

    with MockAPNsContainer(image) as apns:
        container_id = apns.get_container_id()
        assert apns.url.startswith("https://") and apns.control_url.startswith("http://")
        assert (apns.team_id, apns.key_id) == ("TESTTEAM01", "TESTKEY001")
        context = ssl.create_default_context(cafile=apns.ca_file)
        host, port = apns.get_container_host_ip(), int(apns.get_exposed_port(2197))
        status, headers, _ = h2_push(apns, host, port, TOKEN, title="From a container", context=context)
        assert status == 200
        [push] = apns.expect(count=1, token=TOKEN, topic="com.example.app", status=200)
        assert (push.alert_title, push.apns_id) == ("From a container", headers["apns-id"])

        apns.set_device(TOKEN, "unregistered")
        assert h2_push(apns, host, port, TOKEN, title="Too late", context=context)[0] == 410
        apns.expect(count=1, token=TOKEN, status=410, reason="Unregistered")
        apns.clear()
        assert apns.notifications() == []
    assert gone(container_id)


def test_the_testcontainers_module_with_apple_hosts_takes_an_unchanged_sender(docker_api, image):
    from mockapns.testcontainers import MockAPNsContainer

    with MockAPNsContainer(image).with_apple_hosts() as apns:
        container_id = apns.get_container_id()
        assert set(apns.apple_ports) == {443, 2197, 2195, 2196}
        with apns.intercept():
            sandbox = aioapns_send(apns, TOKEN, title="Sandbox", use_sandbox=True)
            production = aioapns_send(apns, TOKEN, title="Production", use_sandbox=False)
        assert sandbox.is_successful and production.is_successful, (sandbox.description, production.description)
        titles = [n.alert_title for n in apns.expect(count=2, token=TOKEN, status=200)]
        assert titles == ["Sandbox", "Production"]
    assert gone(container_id)


def test_the_testcontainers_module_refuses_intercept_without_apple_hosts(docker_api, image):
    from mockapns import MockAPNsError
    from mockapns.testcontainers import MockAPNsContainer

    with MockAPNsContainer(image) as apns:
        container_id = apns.get_container_id()
        with pytest.raises(MockAPNsError, match=r"make it with MockAPNsContainer\(\)\.with_apple_hosts\(\)"):
            apns.intercept()
        assert apns.apple_ports == {}
    assert gone(container_id)
    with pytest.raises(MockAPNsError, match=r"needs a started container"):
        apns.intercept()
    with pytest.raises(MockAPNsError, match=r"not started: use `with MockAPNsContainer\(\) as apns:`"):
        apns.notifications()


def test_mockapns_container_with_apple_hosts_intercepts_through_the_published_ports(image, monkeypatch):
    from mockapns import MockAPNs

    monkeypatch.setenv("MOCKAPNS_CONTAINER_ENGINE", "podman")
    with MockAPNs.container(image=image, apple_hosts=True) as mock:
        assert set(mock.apple_ports) == {443, 2197, 2195, 2196}
        assert mock.apple_ports[2197] == mock.port
        with mock.intercept():
            result = aioapns_send(mock, TOKEN, title="Through 443", use_sandbox=False)
            status, _, _ = h2_push(mock, "api.sandbox.push.apple.com", 2197, TOKEN, title="Through 2197",
                                   context=ssl.create_default_context())
        assert result.is_successful, result.description
        assert status == 200
        assert [n.alert_title for n in mock.expect(count=2, token=TOKEN)] == ["Through 443", "Through 2197"]
        container_id = mock._backend.container_id
    assert gone(container_id)
