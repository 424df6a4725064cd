"""Firebase senders from PyPI, unpatched and called as their own users call them (Google's names built in, the
console's service-account file, no URL, CA or transport set), reach the mock inside `with fcm_mock.intercept():`:
firebase-admin (`send` and `send_each` over requests, HTTP/1.1; `send_each_async` over httpx, HTTP/2; `dry_run`;
topics and conditions; each error class it raises), pyfcm and async-firebase. Each test checks what the mock
recorded: the FCM record, the APNs push it became (`aps.alert`, `gcm.message_id`) and the virtual iPhone's screen.

Trust comes from `intercept()` alone: the CA variables (REQUESTS_CA_BUNDLE, SSL_CERT_FILE…) are unset here, so
requests/urllib3 trusts certifi's roots and httpx certifi's, each plus the mock's CA that the block adds."""

import asyncio

import pytest
import requests

from fcm_senders import (BUNDLE, apns_tokens, async_firebase_send, async_firebase_subscribe_iid, firebase_app,
                         notification_message, pyfcm_notify, stale_token_like, unique_topic)
from test_intercept import system_resolver  # noqa: F401 - the fixture, shared

PROJECT = "mockapns-test"
FCM_SEND = "https://fcm.googleapis.com/v1/projects/%s/messages:send" % PROJECT


@pytest.fixture(autouse=True)
def no_ca_variables(monkeypatch):
    """Nothing but intercept() makes the senders trust the mock."""
    for name in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def firebase(fcm_mock):
    """firebase-admin's `messaging`, its default app made from the mock's service-account file."""
    from firebase_admin import messaging

    with firebase_app(fcm_mock.fcm_service_account):
        yield messaging


@pytest.fixture
def iphone(fcm_mock):
    """`iphone()`: a new iOS registration of com.example.app, backed by a virtual iPhone."""
    return lambda **options: fcm_mock.register_fcm("ios", BUNDLE, **options)


def assert_delivered(mock, name, phone, *, title, body="Order 42", transport=None):
    """The message `name` was accepted once, became one APNs push to `phone`'s APNs token with FCM's keys, and the
    iPhone shows its banner. Returns (FCM record, APNs record)."""
    [record] = mock.expect_fcm(count=1, name=name, status=200)
    assert (record.token, record.project, record.validate_only) == (phone.token, PROJECT, False)
    assert (record.title, record.body) == (title, body)
    if transport is not None:
        assert record.transport == transport
    [push] = mock.apns_pushes_of(record)
    assert (push.token.lower(), push.status, push.topic) == (phone.apns_token.lower(), 200, BUNDLE)
    alert = push.payload["aps"]["alert"]
    assert (alert["title"], alert["body"]) == (title, body)
    assert push.payload.get("gcm.message_id"), push.payload
    shown = mock.expect_shown(phone.apns_token, title=title, body=body)
    assert shown.apns_id == push.apns_id
    return record, push


# firebase-admin: what reaches the iPhone


def test_send_reaches_the_iphone_over_http1(fcm_mock, firebase, iphone, system_resolver):  # noqa: F811
    phone = iphone()
    with fcm_mock.intercept():
        name = firebase.send(notification_message(phone.token, title="Your order shipped", data={"orderId": "42"}))
    assert name.startswith("projects/%s/messages/" % PROJECT) and not name.endswith("/fake_message_id")
    _, push = assert_delivered(fcm_mock, name, phone, title="Your order shipped", transport="http/1.1")
    assert push.payload["orderId"] == "42"               # data keys at the top level, beside aps
    assert system_resolver == []                         # no name was asked of the machine's resolver


def test_outside_the_block_the_sdk_asks_the_system_for_googles_names(fcm_mock, firebase, iphone,
                                                                   system_resolver):  # noqa: F811
    phone = iphone()
    with pytest.raises(Exception) as failure:       # google-auth's TransportError: the name is unknown here
        firebase.send(notification_message(phone.token, title="Outside"))
    assert "oauth2.googleapis.com" in str(failure.value), repr(failure.value)
    assert ("oauth2.googleapis.com", 443) in system_resolver
    fcm_mock.expect_fcm(count=0)
    fcm_mock.expect(count=0)


def test_send_to_a_fid_the_target_firebase_admin_7_7_recommends(fcm_mock, firebase, iphone):
    phone = iphone()
    with fcm_mock.intercept():
        name = firebase.send(firebase.Message(fid=phone.fid, notification=firebase.Notification(title="By FID",
                                                                                                body="Order 42")))
    [record] = fcm_mock.expect_fcm(count=1, name=name, status=200)
    assert record.target == ("fid", phone.fid)
    [push] = fcm_mock.apns_pushes_of(record)
    assert (push.token.lower(), push.alert_title) == (phone.apns_token.lower(), "By FID")
    assert push.payload.get("gcm.message_id") and push.payload.get("google.c.fid") == phone.fid
    fcm_mock.expect_shown(phone.apns_token, title="By FID")


def test_send_each_sends_one_http1_request_per_message(fcm_mock, firebase, iphone):
    phones = [iphone(), iphone(), iphone()]
    with fcm_mock.intercept():
        batch = firebase.send_each([notification_message(phone.token, title="Parcel %d" % i)
                                    for i, phone in enumerate(phones)])
    assert (batch.success_count, batch.failure_count) == (3, 0)
    for i, (phone, answer) in enumerate(zip(phones, batch.responses)):
        assert_delivered(fcm_mock, answer.message_id, phone, title="Parcel %d" % i, transport="http/1.1")
    assert len(fcm_mock.expect_fcm(count=3, status=200)) == 3


def test_send_each_async_speaks_http2_through_httpx(fcm_mock, firebase, iphone):
    phones = [iphone(), iphone()]
    with fcm_mock.intercept():
        batch = asyncio.run(firebase.send_each_async([notification_message(phone.token, title="Async %d" % i)
                                                      for i, phone in enumerate(phones)]))
    assert (batch.success_count, batch.failure_count) == (2, 0), [r.exception for r in batch.responses]
    for i, (phone, answer) in enumerate(zip(phones, batch.responses)):
        assert_delivered(fcm_mock, answer.message_id, phone, title="Async %d" % i, transport="h2")


def test_dry_run_checks_and_delivers_nothing(fcm_mock, firebase, iphone):
    phone = iphone()
    with fcm_mock.intercept():
        name = firebase.send(notification_message(phone.token, title="Only a check"), dry_run=True)
    assert name == "projects/%s/messages/fake_message_id" % PROJECT
    [record] = fcm_mock.expect_fcm(count=1, validate_only=True, status=200)
    assert (record.token, record.apns_ids) == (phone.token, [])
    fcm_mock.expect(count=0)                              # no APNs push
    assert fcm_mock.device(phone.apns_token).notifications == []


def test_subscribe_to_topic_then_a_topic_send_reaches_every_subscriber(fcm_mock, firebase, iphone):
    """firebase-admin 7.7's subscribe_to_topic: one `POST https://fcm.googleapis.com/v1/projects/P/registrations/
    TOKEN/topicSubscriptions?topic_name=T` per token (FCM's v1 topic API; before 7.7 it was IID's batchAdd)."""
    subscribers, other = [iphone(), iphone()], iphone()
    topic = unique_topic()
    with fcm_mock.intercept():
        subscribed = firebase.subscribe_to_topic([phone.token for phone in subscribers], topic)
        name = firebase.send(notification_message(topic=topic, title="Breaking news"))
    assert (subscribed.success_count, subscribed.failure_count) == (2, 0), [e.reason for e in subscribed.errors]
    [record] = fcm_mock.expect_fcm(count=1, topic=topic, status=200)
    assert record.name == name and record.token is None
    pushes = fcm_mock.apns_pushes_of(record)
    assert sorted(apns_tokens(pushes)) == sorted(phone.apns_token.lower() for phone in subscribers)
    for phone, push in zip(sorted(subscribers, key=lambda p: p.apns_token.lower()),
                           sorted(pushes, key=lambda p: p.token.lower())):
        assert push.status == 200 and push.alert_title == "Breaking news" and push.payload.get("gcm.message_id")
        fcm_mock.expect_shown(phone.apns_token, title="Breaking news")
    assert fcm_mock.device(other.apns_token).notifications == []


def test_iid_batch_add_subscribes_for_a_topic_send(fcm_mock, firebase, iphone):
    """The legacy Instance ID call (`iid.googleapis.com/iid/v1:batchAdd`), made by async-firebase's
    subscribe_devices_to_topic (and firebase-admin before 7.7)."""
    subscribers, other = [iphone(), iphone()], iphone()
    topic = unique_topic("iid")
    with fcm_mock.intercept():
        subscribed = async_firebase_subscribe_iid(fcm_mock.fcm_service_account,
                                                  [phone.token for phone in subscribers], topic)
        name = firebase.send(notification_message(topic=topic, title="Subscribed through IID"))
    assert (subscribed.success_count, subscribed.failure_count) == (2, 0), subscribed.errors
    [record] = fcm_mock.expect_fcm(count=1, name=name, topic=topic, status=200)
    pushes = fcm_mock.apns_pushes_of(record)
    assert sorted(apns_tokens(pushes)) == sorted(phone.apns_token.lower() for phone in subscribers)
    for phone in subscribers:
        fcm_mock.expect_shown(phone.apns_token, title="Subscribed through IID")
    assert fcm_mock.device(other.apns_token).notifications == []


def test_a_condition_send_reaches_the_devices_in_both_topics(fcm_mock, firebase, iphone):
    both, sports_only = iphone(), iphone()
    sports, weather = unique_topic("sports"), unique_topic("weather")
    condition = "'%s' in topics && '%s' in topics" % (sports, weather)
    with fcm_mock.intercept():
        # Subscribed through IID, so this test is about the condition alone (test_subscribe_to_topic_… covers
        # firebase-admin's own subscribe_to_topic).
        for tokens, topic in (([both.token, sports_only.token], sports), ([both.token], weather)):
            subscribed = async_firebase_subscribe_iid(fcm_mock.fcm_service_account, tokens, topic)
            assert subscribed.failure_count == 0, subscribed.errors
        name = firebase.send(notification_message(condition=condition, title="Rain stops play"))
    [record] = fcm_mock.expect_fcm(count=1, condition=condition, status=200)
    assert record.name == name
    [push] = fcm_mock.apns_pushes_of(record)
    assert (push.token.lower(), push.alert_title) == (both.apns_token.lower(), "Rain stops play")
    fcm_mock.expect_shown(both.apns_token, title="Rain stops play")
    assert fcm_mock.device(sports_only.apns_token).notifications == []


# firebase-admin: each error class, as FCM answers it


def test_a_malformed_token_raises_invalid_argument(fcm_mock, firebase):
    from firebase_admin import exceptions

    with fcm_mock.intercept():
        with pytest.raises(exceptions.InvalidArgumentError):
            firebase.send(notification_message("not-a-token", title="Nowhere"))
    [record] = fcm_mock.expect_fcm(count=1, status=400)
    assert (record.message.get("token"), record.error_status, record.apns_ids) == ("not-a-token", "INVALID_ARGUMENT",
                                                                                   [])
    fcm_mock.expect(count=0)


def test_an_apns_token_marked_unregistered_raises_unregistered(fcm_mock, firebase, iphone):
    phone = iphone()
    fcm_mock.set_device(phone.apns_token, "unregistered")
    with fcm_mock.intercept():
        with pytest.raises(firebase.UnregisteredError):
            firebase.send(notification_message(phone.token, title="Too late"))
    [record] = fcm_mock.expect_fcm(count=1, token=phone.token, status=404)
    assert (record.error_status, record.error_code) == ("NOT_FOUND", "UNREGISTERED")
    fcm_mock.expect(count=1, token=phone.apns_token, status=410, reason="Unregistered")   # what APNs answered FCM
    assert fcm_mock.device(phone.apns_token).notifications == []


def test_a_well_formed_token_the_mock_never_issued_raises_unregistered(fcm_mock, firebase, iphone):
    stale = stale_token_like(iphone().token)
    with fcm_mock.intercept():
        with pytest.raises(firebase.UnregisteredError):
            firebase.send(notification_message(stale, title="Stale"))
    [record] = fcm_mock.expect_fcm(count=1, token=stale, status=404)
    assert record.error_code == "UNREGISTERED"
    fcm_mock.expect(count=0)


def test_a_token_of_another_project_raises_sender_id_mismatch(fcm_mock, firebase):
    fcm_mock.new_fcm_service_account("mockapns-other")
    foreign = fcm_mock.register_fcm("ios", BUNDLE, project="mockapns-other")
    with fcm_mock.intercept():
        with pytest.raises(firebase.SenderIdMismatchError):
            firebase.send(notification_message(foreign.token, title="Wrong project"))
    [record] = fcm_mock.expect_fcm(count=1, token=foreign.token, status=403)
    assert (record.project, record.error_code) == (PROJECT, "SENDER_ID_MISMATCH")
    fcm_mock.expect(count=0)


def test_apns_429_raises_quota_exceeded(fcm_mock, firebase, iphone):
    phone = iphone()
    fcm_mock.add_fault(status=429, reason="TooManyRequests", match={"token": phone.apns_token})
    with fcm_mock.intercept():
        with pytest.raises(firebase.QuotaExceededError):
            firebase.send(notification_message(phone.token, title="Slow down"))
    records = fcm_mock.expect_fcm(token=phone.token, status=429)
    assert {record.error_code for record in records} == {"QUOTA_EXCEEDED"}
    assert fcm_mock.expect(token=phone.apns_token, status=429, reason="TooManyRequests")


def test_apns_invalid_provider_token_raises_third_party_auth_error(fcm_mock, firebase, iphone):
    phone = iphone()
    fcm_mock.add_fault(status=403, reason="InvalidProviderToken", match={"token": phone.apns_token})
    with fcm_mock.intercept():
        with pytest.raises(firebase.ThirdPartyAuthError):
            firebase.send(notification_message(phone.token, title="Bad key"))
    # A 401 makes google-auth refresh its access token and try again (twice): each try reached the mock.
    records = fcm_mock.expect_fcm(token=phone.token, status=401)
    assert {record.error_code for record in records} == {"THIRD_PARTY_AUTH_ERROR"}
    pushes = fcm_mock.expect(token=phone.apns_token, status=403, reason="InvalidProviderToken")
    assert len(pushes) == len(records)


def test_apns_503_and_500_raise_unavailable_and_internal_after_the_sdks_retries(fcm_mock, firebase, iphone):
    from firebase_admin import exceptions

    down, broken = iphone(), iphone()
    fcm_mock.add_fault(status=503, reason="ServiceUnavailable", match={"token": down.apns_token})
    fcm_mock.add_fault(status=500, reason="InternalServerError", match={"token": broken.apns_token})
    with fcm_mock.intercept():
        batch = firebase.send_each([notification_message(down.token, title="Down"),
                                    notification_message(broken.token, title="Broken")])
    unavailable, internal = (answer.exception for answer in batch.responses)
    assert isinstance(unavailable, exceptions.UnavailableError), repr(unavailable)
    assert isinstance(internal, exceptions.InternalError), repr(internal)
    # firebase-admin retries 500 and 503 four times (urllib3 Retry(status=4)): five requests each, all recorded.
    assert len(fcm_mock.expect_fcm(count=5, token=down.token, status=503)) == 5
    assert len(fcm_mock.expect_fcm(count=5, token=broken.token, status=500)) == 5
    fcm_mock.expect(count=5, token=down.apns_token, status=503)
    fcm_mock.expect(count=5, token=broken.apns_token, status=500)


def test_one_apns_503_is_retried_by_the_sdk_and_the_retry_is_delivered(fcm_mock, firebase, iphone):
    phone = iphone()
    fcm_mock.add_fault(status=503, reason="ServiceUnavailable", count=1, match={"token": phone.apns_token})
    with fcm_mock.intercept():
        name = firebase.send(notification_message(phone.token, title="Second time lucky"))
    fcm_mock.expect_fcm(count=1, token=phone.token, status=503)
    assert_delivered(fcm_mock, name, phone, title="Second time lucky")
    assert [push.status for push in fcm_mock.notifications(token=phone.apns_token)] == [503, 200]


def test_fcm_error_rules_fail_sends_at_the_front_door_as_firebase_does(fcm_mock, firebase, iphone):
    """An `fcm_error` rule answers before anything is delivered: QUOTA_EXCEEDED is raised at once, one UNAVAILABLE
    is retried by the SDK (urllib3's Retry on 503) and the retry is delivered."""
    limited, flaky = iphone(), iphone()
    fcm_mock.add_fault(action={"type": "fcm_error", "status": "QUOTA_EXCEEDED"}, name="over quota",
                       match={"registration_token": limited.token})
    fcm_mock.add_fault(action={"type": "fcm_error", "status": "UNAVAILABLE"}, name="blip", count=1,
                       match={"project": PROJECT, "registration_token": flaky.token})
    with fcm_mock.intercept():
        with pytest.raises(firebase.QuotaExceededError):
            firebase.send(notification_message(limited.token, title="Too many"))
        name = firebase.send(notification_message(flaky.token, title="After a blip"))
    [refused] = fcm_mock.expect_fcm(count=1, token=limited.token, status=429)
    assert refused.faults == ["over quota"] and refused.error_code == "QUOTA_EXCEEDED"
    assert fcm_mock.apns_pushes_of(refused) == [] and fcm_mock.notifications(token=limited.apns_token) == []
    [blip] = fcm_mock.expect_fcm(count=1, token=flaky.token, status=503)
    assert blip.faults == ["blip"]
    assert_delivered(fcm_mock, name, flaky, title="After a blip")


def test_a_raw_request_with_a_number_in_data_gets_a_field_violation(fcm_mock, firebase, iphone):
    """The SDK refuses a non-string data value itself; a hand-written request with the SDK's credential gets FCM's
    400 with a field violation naming message.data."""
    from firebase_admin import credentials

    phone = iphone()
    with pytest.raises(ValueError):
        firebase.send(notification_message(phone.token, title="Refused at home", data={"orderId": 42}))
    credential = credentials.Certificate(fcm_mock.fcm_service_account)
    with fcm_mock.intercept():
        access_token = credential.get_access_token().access_token
        answer = requests.post(FCM_SEND, json={"message": {"token": phone.token, "data": {"orderId": 42}}},
                               headers={"Authorization": "Bearer " + access_token}, timeout=30)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert (error["code"], error["status"]) == (400, "INVALID_ARGUMENT")
    violations = [violation for detail in error["details"] for violation in detail.get("fieldViolations", [])]
    assert any(violation["field"].startswith("message.data") for violation in violations), error
    [record] = fcm_mock.expect_fcm(count=1, status=400)
    assert record.field_violations == violations
    fcm_mock.expect(count=0)


# pyfcm and async-firebase


def test_pyfcm_notify_reaches_the_iphone(fcm_mock, iphone, system_resolver):  # noqa: F811
    phone = iphone()
    with fcm_mock.intercept():
        answer = pyfcm_notify(fcm_mock.fcm_service_account, PROJECT, phone.token, title="From pyfcm")
    assert_delivered(fcm_mock, answer["name"], phone, title="From pyfcm", transport="http/1.1")
    assert system_resolver == []


def test_pyfcm_gets_not_registered_for_an_unregistered_apns_token(fcm_mock, iphone):
    from pyfcm.errors import FCMNotRegisteredError

    phone = iphone()
    fcm_mock.set_device(phone.apns_token, "unregistered")
    with fcm_mock.intercept():
        with pytest.raises(FCMNotRegisteredError):
            pyfcm_notify(fcm_mock.fcm_service_account, PROJECT, phone.token, title="Gone")
    [record] = fcm_mock.expect_fcm(count=1, token=phone.token, status=404)
    assert record.error_code == "UNREGISTERED"
    fcm_mock.expect(count=1, token=phone.apns_token, status=410, reason="Unregistered")


def test_async_firebase_send_reaches_the_iphone(fcm_mock, iphone, system_resolver):  # noqa: F811
    phone = iphone()
    with fcm_mock.intercept():
        response = async_firebase_send(fcm_mock.fcm_service_account, phone.token, title="From async-firebase")
    assert response.success, repr(response.exception)
    assert_delivered(fcm_mock, response.message_id, phone, title="From async-firebase")
    assert system_resolver == []


def test_async_firebase_gets_quota_exceeded_for_apns_429(fcm_mock, iphone):
    from async_firebase.errors import QuotaExceededError

    phone = iphone()
    fcm_mock.add_fault(status=429, reason="TooManyRequests", match={"token": phone.apns_token})
    with fcm_mock.intercept():
        response = async_firebase_send(fcm_mock.fcm_service_account, phone.token, title="Slow down")
    assert not response.success
    assert isinstance(response.exception, QuotaExceededError), repr(response.exception)
    [record] = fcm_mock.expect_fcm(count=1, token=phone.token, status=429)
    assert record.error_code == "QUOTA_EXCEEDED"
    fcm_mock.expect(count=1, token=phone.apns_token, status=429)


def test_an_android_device_handles_what_firebase_admin_sends_as_its_app_state_says(fcm_mock, firebase):
    """An Android registration's virtual device (fcm-rules §6): the tray in the background, onMessageReceived in the
    foreground; offline, ttl 0 is dropped, a collapse key keeps its latest, and coming back delivers the rest."""
    phone = fcm_mock.register_fcm("android", "com.example.android")

    def android(ttl=None, collapse_key=None, **data):
        return firebase.AndroidConfig(ttl=ttl, collapse_key=collapse_key, data=data or None)

    with fcm_mock.intercept():
        tray = firebase.send(notification_message(phone.token, title="In the tray"))
        fcm_mock.set_android_device(phone.token, app_state="foreground")
        handler = firebase.send(notification_message(phone.token, title="In the app"))
        fcm_mock.set_android_device(phone.token, online=False)
        firebase.send(firebase.Message(token=phone.token, data={"n": "now"}, android=android(ttl=0)))
        for n in ("1", "2", "3"):
            firebase.send(firebase.Message(token=phone.token, android=android(collapse_key="score", n=n)))
        plain = firebase.send(firebase.Message(token=phone.token, data={"n": "plain"}))
    handled = [record.record["deliveries"][0]["android"] for record in fcm_mock.fcm_messages(token=phone.token)]
    assert handled == ["system_tray", "on_message_received", "dropped", "stored", "stored", "stored", "stored"]
    device = fcm_mock.android_device(phone.token)
    assert [(r["name"], r["handled_by"], r.get("title")) for r in device["received"]] == [
        (tray, "system_tray", "In the tray"), (handler, "on_message_received", "In the app")]
    assert len(device["stored"]) == 4 and device["online"] is False
    back = fcm_mock.set_android_device(phone.token, online=True)
    assert [(r["data"].get("n"), r["from_storage"]) for r in back] == [("3", True), ("plain", True)]
    assert back[-1]["name"] == plain and fcm_mock.android_device(phone.token)["stored"] == []
    assert fcm_mock.notifications() == [], "nothing went through APNs"


def test_an_ios_registration_has_no_android_device_and_says_where_its_device_is(fcm_mock, iphone):
    from mockapns import MockAPNsError

    phone = iphone()
    with pytest.raises(MockAPNsError, match="/api/v1/devices/" + phone.apns_token):
        fcm_mock.android_device(phone.token)
    android = fcm_mock.register_fcm("android", "com.example.android")
    with pytest.raises(MockAPNsError, match='"app_state" is "foreground" or "background"'):
        fcm_mock.set_android_device(android.token, app_state="asleep")
