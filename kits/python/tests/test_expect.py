"""expect / wait_for / notifications / clear on the session mock: what passes, and what a failure says."""

import re
import threading

import pytest

from conftest import TOPIC, device_token


def test_expect_on_an_empty_mock_says_nothing_arrived(apns_mock):
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect(topic=TOPIC)
    assert str(failure.value) == ("expect: FAILED — wanted at least 1 record with topic=com.example.app; 0 matched "
                                  "(of 0 records in the mock's recording).\nNo records arrived at all.")


def lines_of(failure) -> list:
    """The failure's lines with each clock time (12:00:01.250) as {time}."""
    return [re.sub(r"\b\d{2}:\d{2}:\d{2}\.\d{3}\b", "{time}", line) for line in str(failure.value).splitlines()]


def test_expect_fails_with_the_mocks_report_closest_first(apns_mock, push):
    apns_mock.set_device(device_token(1), "unregistered")
    apns_mock.set_device(device_token(2), "unregistered")
    assert push(device_token(1), topic="com.example.other", title="Elsewhere") == 410   # meets neither filter
    assert push(device_token(2), title="Gone") == 410                                  # meets the topic
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect(topic=TOPIC, status=200)
    first, second = apns_mock.notifications()
    assert lines_of(failure) == [
        "expect: FAILED — wanted at least 1 record with topic=com.example.app, status=200; 0 matched (of 2 records "
        "in the mock's recording).",
        "Closest records:",
        "  #%d  {time}  410 Unregistered  meets 1 of 2; missed: status=200 (found 410)" % second.seq,
        '  #%d  {time}  410 Unregistered  meets 0 of 2; missed: topic=com.example.app (found "com.example.other"); '
        "status=200 (found 410)" % first.seq,
    ]


def test_expect_with_a_count_names_what_matched_too_often(apns_mock, push):
    for title in ("One", "Two"):
        push(device_token(3), title=title)
    assert len(apns_mock.expect(count=2, token=device_token(3))) == 2
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect(count=1, token=device_token(3))
    one, two = apns_mock.notifications()
    assert lines_of(failure) == [
        "expect: FAILED — wanted exactly 1 record with token=%s; 2 matched (of 2 records in the mock's recording)."
        % device_token(3),
        "Matching records:",
        "  #%d  {time}  200 OK  One — body of One" % one.seq,
        "  #%d  {time}  200 OK  Two — body of Two" % two.seq,
    ]


def test_expect_count_zero_passes_when_nothing_matches_and_fails_naming_the_match(apns_mock, push):
    push(device_token(4))
    assert apns_mock.expect(count=0, status=410) == []
    with pytest.raises(AssertionError, match=r"wanted no records with status=200; 1 matched \(of 1 record in"):
        apns_mock.expect(count=0, status=200)


def test_expect_lists_the_matches_and_the_three_closest_others(apns_mock, push):
    push(device_token(5), title="Wanted")
    for n in range(7):
        push(device_token(10 + n), title="Other %d" % n)
    wanted = apns_mock.notifications(token=device_token(5))[0]
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect(count=2, topic=TOPIC, token=device_token(5))
    lines = lines_of(failure)
    assert lines[0].endswith("; 1 matched (of 8 records in the mock's recording).")
    assert lines[1:3] == ["Matching records:", "  #%d  {time}  200 OK  Wanted — body of Wanted" % wanted.seq]
    assert lines[3] == "Closest records:"
    assert len(lines) == 7 and all(" meets 1 of 2; missed: token=" in line for line in lines[4:])


def test_expect_checks_payload_conditions(apns_mock, push):
    push(device_token(15), title="Shipped", extra={"order": {"id": 42, "gift": True}})
    push(device_token(15), title="Delayed", extra={"order": {"id": 43, "gift": False}})
    [shipped] = apns_mock.expect(count=1, where={"aps.alert.title": "Shipped", "order.id": 42, "order.gift": True})
    assert shipped.alert_title == "Shipped"
    [delayed] = apns_mock.expect(where=["order.id=43.0", "order.gift=false"], token=device_token(15))
    assert delayed.alert_title == "Delayed"
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect(where={"order.id": 44})
    assert lines_of(failure)[2].endswith("meets 0 of 1; missed: order.id=44 (found 43)")
    with pytest.raises(TypeError, match="where= is a dict"):
        apns_mock.expect(where="order.id=42")


def test_expect_since_looks_only_at_later_pushes(apns_mock, push):
    push(device_token(6), title="Before")
    mark = apns_mock.notifications()[-1].seq
    push(device_token(6), title="After")
    [after] = apns_mock.expect(count=1, since=mark, token=device_token(6))
    assert after.alert_title == "After"


def test_unknown_filters_are_refused_naming_the_known_ones(apns_mock):
    with pytest.raises(TypeError, match=r"unknown notification filter\(s\) title; use token, topic, push_type"):
        apns_mock.expect(title="Hello")
    with pytest.raises(TypeError, match="unknown notification filter"):
        apns_mock.notifications(alert="Hello")


def test_expect_matches_exactly_what_the_control_api_filters(apns_mock, push):
    """expect asks GET /api/v1/expect and returns the records it names; they must be the ones the list filters."""
    apns_mock.set_device(device_token(8), "unregistered")
    push(device_token(7), topic="com.example.a", push_type="alert")
    push(device_token(8), topic="com.example.b", push_type="background")
    push(device_token(7), topic="com.example.b", push_type="alert")
    cases = [{"token": device_token(7).upper()}, {"topic": "com.example.b"}, {"push_type": "background"},
             {"status": 410}, {"reason": "Unregistered"}, {"status": 200, "topic": "com.example.b"}]
    for filters in cases:
        from_server = [n.seq for n in apns_mock.notifications(**filters)]
        assert from_server, filters
        assert [n.seq for n in apns_mock.expect(count=len(from_server), **filters)] == from_server, filters


def test_wait_for_returns_pushes_sent_while_it_waits(apns_mock, push):
    sender = threading.Timer(0.2, lambda: [push(device_token(9), title="Late %d" % n) for n in range(2)])
    sender.start()
    try:
        arrived = apns_mock.wait_for(2, timeout=30, token=device_token(9))
    finally:
        sender.join()
    assert [n.alert_title for n in arrived] == ["Late 0", "Late 1"]


def test_wait_for_gives_up_saying_what_arrived(apns_mock, push):
    push(device_token(10), topic="com.example.other", title="Near miss")
    with pytest.raises(AssertionError) as failure:
        apns_mock.wait_for(1, timeout=0.2, topic=TOPIC)
    [near] = apns_mock.notifications()
    assert lines_of(failure) == [
        "Waited 0.2 s.",
        "expect: FAILED — wanted at least 1 record with topic=com.example.app; 0 matched (of 1 record in the mock's "
        "recording).",
        "Closest records:",
        '  #%d  {time}  200 OK  meets 0 of 1; missed: topic=com.example.app (found "com.example.other")' % near.seq,
    ]


def test_wait_for_on_an_empty_mock_asks_whether_the_sender_points_at_it(apns_mock):
    with pytest.raises(AssertionError, match=r"^Waited 0\.1 s\. No push reached the mock: is the sender pointed at"):
        apns_mock.wait_for(1, timeout=0.1)


def test_clear_forgets_records_device_states_and_faults(apns_mock, push):
    apns_mock.set_device(device_token(11), "unregistered")
    apns_mock.add_fault(status=500, match={"token": device_token(12)})
    assert push(device_token(11)) == 410
    assert push(device_token(12)) == 500
    apns_mock.clear()
    assert apns_mock.notifications() == []
    assert push(device_token(11)) == 200
    assert push(device_token(12)) == 200
    assert [n.status for n in apns_mock.notifications()] == [200, 200]


def test_add_fault_takes_other_actions_and_refuses_an_ambiguous_call(apns_mock, push):
    apns_mock.add_fault(action={"type": "status", "status": 429, "reason": "TooManyRequests"}, count=1,
                        name="throttle")
    assert push(device_token(13)) == 429
    assert apns_mock.expect(count=1, status=429)[0].record["faults"] == ["throttle"]
    with pytest.raises(TypeError, match="either status= .* or action="):
        apns_mock.add_fault()


def test_control_api_refusals_carry_the_servers_sentence(apns_mock):
    from mockapns import MockAPNsError
    with pytest.raises(MockAPNsError, match=r"answered 400: A device token is hexadecimal"):
        apns_mock.set_device("not-hex", "expired")
    with pytest.raises(MockAPNsError, match=r'answered 400: .*unknown device state "asleep"'):
        apns_mock.set_device(device_token(14), "asleep")
