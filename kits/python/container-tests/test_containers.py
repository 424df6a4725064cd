"""The mockapns image in podman: the Testcontainers module over podman's Docker API, and MockAPNs.container over
podman's command line; with Apple's host names, a sender that knows nothing of the mock reaches it, and with
Google's FCM names, firebase-admin as shipped does."""

import json
import ssl
import subprocess

import pytest

from apple_senders import aioapns_send, h2_push
from fcm_senders import BUNDLE, firebase_app, notification_message

TOKEN = "ab" * 32
FCM_PROJECT = "mockapns-test"


@pytest.fixture
def no_ca_variables(monkeypatch):
    """Nothing but the module's own files (intercept(), fcm_ca_file) makes a Firebase sender trust the container."""
    for name in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"):
        monkeypatch.delenv(name, raising=False)


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
        with pytest.raises(MockAPNsError, match=r"fcm_url: this container serves no FCM; make it with "
                                                r"MockAPNsContainer\(\)\.with_fcm\(\)"):
            apns.fcm_url
        assert apns.fcm_ports == {}
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


def test_mockapns_container_with_fcm_takes_an_unchanged_firebase_admin(image, monkeypatch, no_ca_variables):
    """MockAPNs.container(fcm=True): the image's FCM port published, its private CA copied out, a service account
    made for this machine, and intercept() leading Google's names there."""
    from firebase_admin import messaging
    from mockapns import MockAPNs

    monkeypatch.setenv("MOCKAPNS_CONTAINER_ENGINE", "podman")
    with MockAPNs.container(image=image, fcm=True) as mock:
        assert mock.fcm_ports == {443: int(mock.fcm_url.rsplit(":", 1)[1])}
        with open(mock.fcm_ca_file) as f:
            assert f.read().startswith("-----BEGIN CERTIFICATE-----")
        with open(mock.fcm_service_account) as f:
            assert json.load(f)["project_id"] == FCM_PROJECT
        phone = mock.register_fcm("ios", BUNDLE)
        with firebase_app(mock.fcm_service_account):
            with mock.intercept():
                name = messaging.send(notification_message(phone.token, title="From MockAPNs.container"))
        assert_fcm_delivered(mock, name, phone, title="From MockAPNs.container")
        container_id = mock._backend.container_id
    assert gone(container_id)


def assert_fcm_delivered(apns, name, phone, *, title, body="Order 42"):
    """The message `name` was accepted once and became one APNs push to `phone`'s APNs token, with aps.alert and
    FCM's gcm.message_id. Returns the APNs record."""
    [record] = apns.expect_fcm(count=1, name=name, status=200)
    assert (record.token, record.project, record.title) == (phone.token, FCM_PROJECT, title)
    [push] = apns.apns_pushes_of(record)
    assert (push.token.lower(), push.status, push.topic) == (phone.apns_token.lower(), 200, BUNDLE)
    assert push.payload["aps"]["alert"] == {"title": title, "body": body}
    assert push.payload.get("gcm.message_id"), push.payload
    return push


def test_the_testcontainers_module_with_fcm_takes_an_unchanged_firebase_admin(docker_api, image, no_ca_variables):
    from firebase_admin import messaging

    from mockapns.testcontainers import MockAPNsContainer

    with MockAPNsContainer(image).with_fcm() as apns:
        container_id = apns.get_container_id()
        assert apns.fcm_url == "https://%s:%d" % (apns.get_container_host_ip(), int(apns.get_exposed_port(2199)))
        assert apns.fcm_ports == {443: int(apns.get_exposed_port(2199))}
        with open(apns.fcm_service_account) as f:
            account = json.load(f)
        assert (account["type"], account["project_id"], account["token_uri"]) == (
            "service_account", FCM_PROJECT, "https://oauth2.googleapis.com/token")
        with open(apns.fcm_ca_file) as f:
            assert f.read().startswith("-----BEGIN CERTIFICATE-----")
        phone = apns.register_fcm("ios", BUNDLE)
        with firebase_app(apns.fcm_service_account):
            with apns.intercept():           # fcm.googleapis.com and oauth2.googleapis.com lead to the container
                name = messaging.send(notification_message(phone.token, title="From a container",
                                                           data={"orderId": "42"}))
            assert name.startswith("projects/%s/messages/" % FCM_PROJECT)
            push = assert_fcm_delivered(apns, name, phone, title="From a container")
            assert push.payload["orderId"] == "42"

            apns.set_device(phone.apns_token, "unregistered")
            with apns.intercept():
                with pytest.raises(messaging.UnregisteredError):
                    messaging.send(notification_message(phone.token, title="Too late"))
        [refused] = apns.expect_fcm(count=1, token=phone.token, status=404)
        assert (refused.error_status, refused.error_code) == ("NOT_FOUND", "UNREGISTERED")
        apns.expect(count=1, token=phone.apns_token, status=410, reason="Unregistered")

        apns.clear()
        assert apns.fcm_messages() == [] and apns.notifications() == []
    assert gone(container_id)


def test_the_testcontainers_module_with_fcm_answers_google_auth_and_requests_at_fcm_url(docker_api, image,
                                                                                       no_ca_variables):
    """Where firebase-admin cannot be pointed: google-auth's own grant, its token_uri set to the container's URL,
    and requests sending to fcm_url, trusting fcm_ca_file."""
    import google.auth.transport.requests
    import requests
    from google.oauth2 import service_account

    from mockapns.testcontainers import MockAPNsContainer

    with MockAPNsContainer(image).with_fcm() as apns:
        container_id = apns.get_container_id()
        phone = apns.register_fcm("ios", BUNDLE)
        with open(apns.fcm_service_account) as f:
            info = dict(json.load(f), token_uri=apns.fcm_url + "/token")
        credentials = service_account.Credentials.from_service_account_info(
            info, scopes=["https://www.googleapis.com/auth/firebase.messaging"])
        with requests.Session() as session:
            session.verify = apns.fcm_ca_file
            credentials.refresh(google.auth.transport.requests.Request(session))
            assert credentials.token and credentials.valid
            send = "%s/v1/projects/%s/messages:send" % (apns.fcm_url, FCM_PROJECT)
            message = {"message": {"token": phone.token, "notification": {"title": "Over requests", "body": "Order 42"}}}
            answer = session.post(send, json=message, headers={"authorization": "Bearer " + credentials.token},
                                  timeout=30)
            assert answer.status_code == 200, answer.text
            assert_fcm_delivered(apns, answer.json()["name"], phone, title="Over requests")

            unauthenticated = session.post(send, json=message, timeout=30)
            assert unauthenticated.status_code == 401
            assert unauthenticated.json()["error"]["status"] == "UNAUTHENTICATED"
        # The CA is the container's own: a client trusting only the public roots is refused.
        with pytest.raises(requests.exceptions.SSLError):
            requests.post(send, json=message, timeout=30)
    assert gone(container_id)


def test_the_testcontainers_module_with_apple_hosts_and_fcm_intercepts_both(docker_api, image, no_ca_variables):
    from firebase_admin import messaging

    from mockapns.testcontainers import MockAPNsContainer

    with MockAPNsContainer(image).with_apple_hosts().with_fcm() as apns:
        container_id = apns.get_container_id()
        assert set(apns.apple_ports) == {443, 2197, 2195, 2196} and set(apns.fcm_ports) == {443}
        phone = apns.register_fcm("ios", BUNDLE)
        with firebase_app(apns.fcm_service_account):
            with apns.intercept():
                direct = aioapns_send(apns, TOKEN, title="Straight to APNs", use_sandbox=False)
                name = messaging.send(notification_message(phone.token, title="Through FCM"))
        assert direct.is_successful, direct.description
        apns.expect(count=1, token=TOKEN, status=200)
        assert_fcm_delivered(apns, name, phone, title="Through FCM")
    assert gone(container_id)
