"""Real APNs clients (aioapns, kalyke-apns) against the apns_mock fixture: what the kit hands them (url, ca_file,
key_file, key_id, team_id) is enough to connect, and what they sent is what the kit reads back."""

import pytest
from kalyke import exceptions as kalyke_errors

from conftest import TOPIC, device_token, push_http1, send_aioapns, send_kalyke
from mockapns import MockAPNs


def test_aioapns_push_is_accepted_and_recorded(apns_mock):
    token = device_token(1)
    result = send_aioapns(apns_mock, token, title="Order shipped")
    assert result.is_successful, result.description
    [notification] = apns_mock.expect(count=1, token=token.upper(), topic=TOPIC, push_type="alert", status=200)
    assert notification.alert_title == "Order shipped"
    assert notification.apns_id == result.notification_id.lower()


def test_aioapns_sees_an_unregistered_device(apns_mock):
    token = device_token(2)
    apns_mock.set_device(token, "unregistered")
    result = send_aioapns(apns_mock, token, title="Too late")
    assert (result.status, result.description) == ("410", "Unregistered")
    apns_mock.expect(count=1, token=token, status=410, reason="Unregistered")


def test_kalyke_push_is_accepted_and_recorded(apns_mock):
    token = device_token(3)
    send_kalyke(apns_mock, token, title="Parcel delivered", custom={"orderId": 42})
    [notification] = apns_mock.expect(count=1, token=token, status=200)
    assert notification.alert_body == "from kalyke"
    assert notification.payload["orderId"] == 42


def test_kalyke_hits_a_fault_once_then_gets_through(apns_mock):
    token = device_token(4)
    fault = apns_mock.add_fault(status=503, reason="ServiceUnavailable", count=1, match={"token": token})
    with pytest.raises(kalyke_errors.ServiceUnavailable):
        send_kalyke(apns_mock, token, title="First try")
    send_kalyke(apns_mock, token, title="Second try")
    [failed] = apns_mock.expect(count=1, status=503, reason="ServiceUnavailable")
    assert failed.alert_title == "First try" and failed.record["faults"]
    assert apns_mock.expect(count=1, status=200)[0].alert_title == "Second try"
    assert fault.startswith("f")


def test_topics_device_state_rejects_other_topics_for_kalyke(apns_mock):
    token = device_token(5)
    apns_mock.set_device(token, "topics", topics=["com.example.other"])
    with pytest.raises(kalyke_errors.DeviceTokenNotForTopic):
        send_kalyke(apns_mock, token, title="Wrong app")
    apns_mock.expect(count=1, token=token, status=400, reason="DeviceTokenNotForTopic")


def test_token_signs_with_the_trusted_key_and_is_reused_for_20_minutes(apns_mock):
    first = apns_mock.token()
    assert apns_mock.token() == first
    assert push_http1(apns_mock, device_token(6), bearer=first) == 200
    apns_mock._clock = lambda: MockAPNs.TOKEN_REUSE_SECONDS + 1e9    # 20 minutes later, as the kit sees it
    second = apns_mock.token()
    assert second != first
    assert push_http1(apns_mock, device_token(6), bearer=second) == 200
    assert push_http1(apns_mock, device_token(6), bearer=first[:-4] + "AAAA") == 403
    apns_mock.expect(count=2, status=200)
    apns_mock.expect(count=1, status=403, reason="InvalidProviderToken")


def test_a_control_token_is_sent_with_every_control_request():
    with MockAPNs(control_token="s3cret-token") as mock:
        assert push_http1(mock, device_token(7)) == 200
        mock.set_device(device_token(8), "expired")
        assert push_http1(mock, device_token(8)) == 410
        mock.expect(count=1, status=410, reason="ExpiredToken")
        mock.clear()
        assert mock.notifications() == []
