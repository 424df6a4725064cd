"""expect / wait_for / notifications / clear on the session mock: what passes, and what a failure says."""

import threading

import pytest

from conftest import TOPIC, device_token


def test_expect_on_an_empty_mock_says_nothing_arrived(apns_mock):
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect(topic=TOPIC)
    assert str(failure.value) == ("Expected a notification with topic com.example.app, "
                                  "but the mock received no notifications.")


def test_expect_lists_the_nearest_pushes_first_with_status_topic_token_and_title(apns_mock, push):
    apns_mock.set_device(device_token(1), "unregistered")
    apns_mock.set_device(device_token(2), "unregistered")
    assert push(device_token(1), topic="com.example.other", title="Elsewhere") == 410   # meets neither filter
    assert push(device_token(2), title="Gone") == 410                                  # meets the topic
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect(topic=TOPIC, status=200)
    lines = str(failure.value).splitlines()
    first, second = apns_mock.notifications()
    assert lines == [
        "Expected a notification with topic com.example.app, response status 200, but none of the 2 received matched.",
        "Received, closest match first:",
        '  #%d alert push to 02020202…020202, topic com.example.app: rejected 410 Unregistered; title "Gone", '
        'body "body of Gone" — has 1 of 2' % second.seq,
        "      response status: expected 200, got rejected 410 Unregistered",
        '  #%d alert push to 01010101…010101, topic com.example.other: rejected 410 Unregistered; '
        'title "Elsewhere", body "body of Elsewhere" — has 0 of 2' % first.seq,
        "      topic: expected com.example.app, got com.example.other",
        "      response status: expected 200, got rejected 410 Unregistered",
    ]


def test_expect_with_a_count_names_what_matched_too_often(apns_mock, push):
    for title in ("One", "Two"):
        push(device_token(3), title=title)
    assert len(apns_mock.expect(count=2, token=device_token(3))) == 2
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect(count=1, token=device_token(3))
    message = str(failure.value)
    assert message.startswith("Expected exactly 1 notification with device token %s, but 2 matched:\n" % device_token(3))
    assert 'title "One"' in message and 'title "Two"' in message


def test_expect_count_zero_passes_when_nothing_matches_and_fails_naming_the_match(apns_mock, push):
    push(device_token(4))
    assert apns_mock.expect(count=0, status=410) == []
    with pytest.raises(AssertionError, match=r"Expected no notification with response status 200, but 1 matched"):
        apns_mock.expect(count=0, status=200)


def test_expect_sums_up_past_five_non_matching_pushes_and_says_which_matched(apns_mock, push):
    push(device_token(5), title="Wanted")
    for n in range(7):
        push(device_token(10 + n), title="Other %d" % n)
    wanted = apns_mock.notifications(token=device_token(5))[0]
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect(count=2, topic=TOPIC, token=device_token(5))
    message = str(failure.value)
    assert "but only 1 matched (#%d)." % wanted.seq in message
    assert "Other notifications, closest match first:" in message
    assert message.count(" — has 1 of 2") == 5
    assert message.endswith("  … and 2 more")


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
    """expect checks filters itself (to rank near misses); it must agree with the server's own filtering."""
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
    message = str(failure.value)
    assert message.startswith("Waited 0.2 s. Expected a notification with topic com.example.app, "
                              "but the only notification received did not match.")
    assert 'topic com.example.other: accepted (200); title "Near miss"' in message


def test_wait_for_on_an_empty_mock_asks_whether_the_sender_points_at_it(apns_mock):
    with pytest.raises(AssertionError, match=r"received no notifications\. Is the sender pointed at url"):
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
