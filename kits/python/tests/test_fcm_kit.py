"""The kit's FCM side: MockAPNs(fcm=True), the fcm_mock fixture, register_fcm, new_fcm_service_account,
fcm_messages / expect_fcm / apns_pushes_of, clear(), and intercept() leading Google's names to the mock only when it
serves them (and only on 443)."""

import errno
import json
import socket
import ssl
import threading

import pytest

from fcm_senders import BUNDLE, firebase_app, notification_message
from mockapns import FCMMessage, FCMRegistration, MockAPNs, MockAPNsError
from mockapns._intercept import STAND_IN
from test_intercept import system_resolver  # noqa: F401 - the fixture, shared

GOOGLE = ("fcm.googleapis.com", "oauth2.googleapis.com", "iid.googleapis.com")


def test_the_ready_file_names_the_fcm_ports_and_a_trusted_service_account(fcm_mock):
    assert fcm_mock.fcm and set(fcm_mock.fcm_ports) == {443}
    assert fcm_mock.fcm_url.startswith("https://127.0.0.1:")
    with open(fcm_mock.fcm_service_account) as f:
        account = json.load(f)
    assert (account["type"], account["project_id"], account["token_uri"]) == (
        "service_account", MockAPNs.FCM_PROJECT, "https://oauth2.googleapis.com/token")
    assert account["private_key"].startswith("-----BEGIN") and account["client_email"] and account["private_key_id"]
    # The CA is the mock's own, not the bundled test CA: the same file intercept() trusts for Apple's names.
    assert fcm_mock.fcm_ca_file == fcm_mock.ca_file


@pytest.mark.parametrize("name", GOOGLE)
def test_each_google_name_is_served_on_443_with_a_certificate_from_the_mocks_ca(fcm_mock, name,
                                                                               system_resolver):  # noqa: F811
    with fcm_mock.intercept():
        [(_, _, _, _, address)] = socket.getaddrinfo(name, 443, socket.AF_INET, socket.SOCK_STREAM)
        assert address == (STAND_IN[name], 443)
        with socket.create_connection((name, 443), timeout=10) as raw:
            context = ssl.create_default_context()
            context.set_alpn_protocols(["h2", "http/1.1"])
            with context.wrap_socket(raw, server_hostname=name) as tls:
                assert tls.getpeername()[1] == fcm_mock.fcm_ports[443]
                assert tls.selected_alpn_protocol() == "h2"
    assert system_resolver == []


def test_the_mocks_own_fcm_port_offers_http1_too(fcm_mock):
    host, port = fcm_mock.fcm_url[len("https://"):].rsplit(":", 1)
    context = ssl.create_default_context(cafile=fcm_mock.fcm_ca_file)
    context.set_alpn_protocols(["http/1.1"])
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.selected_alpn_protocol() == "http/1.1"


def test_another_port_of_a_google_name_is_refused(fcm_mock):
    with fcm_mock.intercept():
        with pytest.raises(ConnectionRefusedError,
                           match="serves fcm.googleapis.com on port 443 only, not 8443") as refused:
            socket.create_connection(("fcm.googleapis.com", 8443), timeout=10)
        assert refused.value.errno == errno.ECONNREFUSED


def test_a_mock_without_fcm_leaves_googles_names_alone(system_resolver):  # noqa: F811
    with MockAPNs(apple_hosts=True) as mock:
        assert not mock.fcm and mock.fcm_ports == {}
        with mock.intercept():
            with pytest.raises(socket.gaierror):
                socket.getaddrinfo("fcm.googleapis.com", 443)
            assert socket.getaddrinfo("api.push.apple.com", 443)[0][4][0] == STAND_IN["api.push.apple.com"]
    assert system_resolver == [("fcm.googleapis.com", 443)]


def test_a_mock_with_fcm_alone_intercepts_googles_names_and_leaves_apples_alone(system_resolver):  # noqa: F811
    with MockAPNs(fcm=True) as mock:
        assert not mock.apple_hosts and mock.apple_ports == {}
        phone = mock.register_fcm("ios", BUNDLE)
        with firebase_app(mock.fcm_service_account, name="fcm-alone") as app:
            from firebase_admin import messaging

            with mock.intercept():
                with pytest.raises(socket.gaierror):
                    socket.getaddrinfo("api.push.apple.com", 443)
                name = messaging.send(notification_message(phone.token, title="FCM alone"), app=app)
        [push] = mock.apns_pushes_of(name)
        assert push.alert_title == "FCM alone"
        mock.expect_shown(phone.apns_token, title="FCM alone")
    assert system_resolver == [("api.push.apple.com", 443)]


def test_register_fcm_answers_a_token_backed_by_an_iphone(fcm_mock):
    phone = fcm_mock.register_fcm("ios", BUNDLE)
    assert isinstance(phone, FCMRegistration)
    assert (phone.platform, phone.project, phone.bundle_id) == ("ios", MockAPNs.FCM_PROJECT, BUNDLE)
    fid, rest = phone.token.split(":", 1)
    assert fid == phone.fid and rest.startswith("APA91b")
    assert phone.apns_token and all(c in "0123456789abcdefABCDEF" for c in phone.apns_token)
    screen = fcm_mock.device(phone.apns_token)
    assert screen.notifications == [] and screen.token.lower() == phone.apns_token.lower()

    given = fcm_mock.register_fcm("ios", BUNDLE, apns_token="5a" * 32)
    assert given.apns_token.lower() == "5a" * 32 and given.token != phone.token
    android = fcm_mock.register_fcm("android", "com.example.app")
    assert (android.platform, android.apns_token) == ("android", None)


def test_register_fcm_refuses_what_it_cannot_send(fcm_mock):
    with pytest.raises(ValueError, match="platform is one of ios, android, web"):
        fcm_mock.register_fcm("windows", BUNDLE)
    with pytest.raises(ValueError, match="apns_token= is for an iOS registration"):
        fcm_mock.register_fcm("android", BUNDLE, apns_token="ab" * 32)


def test_a_new_service_account_makes_a_project_its_sender_can_send_to(fcm_mock):
    path = fcm_mock.new_fcm_service_account("mockapns-kit")
    with open(path) as f:
        account = json.load(f)
    assert account["project_id"] == "mockapns-kit" and account["token_uri"] == "https://oauth2.googleapis.com/token"
    phone = fcm_mock.register_fcm("ios", BUNDLE, project="mockapns-kit")
    with firebase_app(path, name="mockapns-kit") as app:
        from firebase_admin import messaging

        with fcm_mock.intercept():
            name = messaging.send(notification_message(phone.token, title="Other project"), app=app)
    assert name.startswith("projects/mockapns-kit/messages/")
    [record] = fcm_mock.fcm_messages(project="mockapns-kit")
    assert isinstance(record, FCMMessage) and record.name == name
    assert fcm_mock.fcm_messages(project=MockAPNs.FCM_PROJECT) == []
    assert [m.name for m in fcm_mock.fcm_messages(name=name.rsplit("/", 1)[1])] == [name]
    assert fcm_mock.fcm_messages(project="mockapns-kit", validate_only=True) == []
    assert [m.name for m in fcm_mock.fcm_messages(project="mockapns-kit", validate_only=False)] == [name]
    [push] = fcm_mock.apns_pushes_of(record)
    assert push.alert_title == "Other project"


def test_expect_fcm_fails_with_the_mocks_report(fcm_mock):
    from firebase_admin import messaging

    phone = fcm_mock.register_fcm("ios", BUNDLE)
    with firebase_app(fcm_mock.fcm_service_account, name="expect") as app:
        with fcm_mock.intercept():
            messaging.send(notification_message(phone.token, title="Shipped"), app=app)
    [sent] = fcm_mock.fcm_messages()
    with pytest.raises(AssertionError) as failure:
        fcm_mock.expect_fcm(count=1, token=phone.token, status=404)
    report = str(failure.value)
    lines = report.splitlines()
    # The mock's own words (GET /api/v1/fcm/expect), unchanged: what was wanted, then the closest records.
    assert lines[0].startswith("expect: FAILED — wanted exactly 1 FCM record with token=%s, status=404; 0 matched"
                               % phone.token), report
    assert "Closest FCM records:" in lines
    closest = lines[lines.index("Closest FCM records:") + 1]
    assert closest.lstrip().startswith("#%d " % sent.seq) and "missed: status=404" in closest, report
    assert fcm_mock.expect_fcm(count=1, name=sent.name) == fcm_mock.expect_fcm(token=phone.token) == [sent]
    assert fcm_mock.expect_fcm(count=1, name=sent.name.rsplit("/", 1)[1], project=MockAPNs.FCM_PROJECT,
                               validate_only=False) == [sent]
    assert fcm_mock.expect_fcm(count=0, status=404) == []
    with pytest.raises(AssertionError, match="^expect: FAILED — wanted no FCM records? with token="):
        fcm_mock.expect_fcm(count=0, token=phone.token)
    with pytest.raises(AssertionError, match="^expect: FAILED — wanted exactly 2 FCM records with validate_only=false"):
        fcm_mock.expect_fcm(count=2, validate_only=False)
    with pytest.raises(TypeError, match="unknown FCM filter colour"):
        fcm_mock.expect_fcm(colour="red")


def test_expect_fcm_with_a_timeout_waits_for_the_send(fcm_mock):
    from firebase_admin import messaging

    phone = fcm_mock.register_fcm("ios", BUNDLE)
    with pytest.raises(AssertionError) as failure:
        fcm_mock.expect_fcm(token=phone.token, timeout=0.2)
    lines = str(failure.value).splitlines()
    assert lines[0].startswith("Waited 0.2 s. No FCM request reached the mock: is the sender inside")
    assert lines[1].startswith("expect: FAILED — wanted at least 1 FCM record with token=%s" % phone.token)
    with firebase_app(fcm_mock.fcm_service_account, name="expect-later") as app:
        sender = threading.Timer(0.3, lambda: messaging.send(notification_message(phone.token, title="Later"),
                                                             app=app))
        with fcm_mock.intercept():
            sender.start()
            try:
                [record] = fcm_mock.expect_fcm(count=1, token=phone.token, status=200, timeout=10)
            finally:
                sender.join()
    assert record.title == "Later"


def test_clear_forgets_fcm_records_and_keeps_registrations(fcm_mock):
    from firebase_admin import messaging

    phone = fcm_mock.register_fcm("ios", BUNDLE)
    with firebase_app(fcm_mock.fcm_service_account, name="clear") as app:
        with fcm_mock.intercept():
            messaging.send(notification_message(phone.token, title="Before"), app=app)
            assert len(fcm_mock.fcm_messages()) == 1
            fcm_mock.clear()
            assert fcm_mock.fcm_messages() == [] and fcm_mock.notifications() == []
            messaging.send(notification_message(phone.token, title="After"), app=app)   # still registered
    [after] = fcm_mock.expect_fcm(count=1, status=200)
    assert after.title == "After"


def test_fcm_without_fcm_says_how_to_get_it():
    with MockAPNs() as mock:
        assert not mock.fcm and mock.fcm_ports == {}
        with pytest.raises(MockAPNsError, match=r"serves no FCM: make it with MockAPNs\(fcm=True\)"):
            mock.fcm_service_account
        with pytest.raises(MockAPNsError, match=r"For Google's FCM names: MockAPNs\(fcm=True\)"):
            mock.intercept()
        with pytest.raises(MockAPNsError, match="404"):
            mock.register_fcm("ios", BUNDLE)
        with pytest.raises(MockAPNsError, match=r"/api/v1/fcm/expect\?count=1 answered 404: .*serve --fcm"):
            mock.expect_fcm(count=1)


def test_the_fcm_mock_fixture_is_the_session_mock_serving_fcm(pytester):
    pytester.makepyfile(test_inner='''
from firebase_admin import credentials

seen = {}

def test_plain_first(apns_mock):
    seen["plain"] = apns_mock.url
    assert not apns_mock.fcm

def test_fcm_next(fcm_mock, apns_mock):
    assert fcm_mock is apns_mock and fcm_mock.fcm
    seen["fcm"] = fcm_mock.url
    phone = fcm_mock.register_fcm("ios", "com.example.app")
    assert phone.token and phone.apns_token
    assert credentials.Certificate(fcm_mock.fcm_service_account).project_id == "mockapns-test"

def test_plain_again_keeps_the_fcm_mock(apns_mock):
    assert apns_mock.fcm and apns_mock.url == seen["fcm"]
''')
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=3)


def test_the_ini_option_serves_fcm_from_the_start(pytester):
    pytester.makeini("[pytest]\nmockapns_fcm = true\n")
    pytester.makepyfile(test_inner='''
def test_plain(apns_mock):
    assert apns_mock.fcm and 443 in apns_mock.fcm_ports
''')
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
