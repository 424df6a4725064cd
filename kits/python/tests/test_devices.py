"""Virtual devices over time through the kit: device(), timeline(), set_device()'s changes, change_device() and
expect_shown(), with real senders (aioapns, kalyke-apns) pushing to the session mock."""

from datetime import datetime, timedelta, timezone

import pytest

from conftest import device_token, send_aioapns, send_kalyke
from mockapns import DeviceScreen, MockAPNsError


def outcomes(entries, apns_id):
    return [entry.outcome for entry in entries if entry.apns_id == apns_id]


def test_offline_device_keeps_one_of_two_collapsed_pushes_and_shows_the_later_once_online(apns_mock):
    token = device_token(20)
    apns_mock.set_device(token, online=False)
    packed = send_aioapns(apns_mock, token, title="Packed", body="Order 42", badge=1, collapse_id="order-42")
    shipped = send_aioapns(apns_mock, token, title="Shipped", body="Order 42", badge=2, collapse_id="order-42")
    assert packed.is_successful and shipped.is_successful, (packed.description, shipped.description)
    packed_id, shipped_id = packed.notification_id.lower(), shipped.notification_id.lower()

    offline = apns_mock.device(token)
    assert isinstance(offline, DeviceScreen)
    assert (offline.online, offline.notifications, offline.badge) == (False, [], 0)
    assert [stored["apns_id"] for stored in offline.stored] == [shipped_id]

    apns_mock.set_device(token, online=True)
    screen = apns_mock.device(token.upper())
    assert screen.online and screen.stored == [] and screen.token == token
    assert [(n.title, n.body, n.collapse_id, n.apns_id) for n in screen.notifications] == [
        ("Shipped", "Order 42", "order-42", shipped_id)]
    assert screen.badge == 2
    assert apns_mock.expect_shown(token, title="Shipped", body="Order 42").apns_id == shipped_id

    timeline = apns_mock.timeline(token)
    assert timeline[0].apns_id == packed_id
    assert (timeline[0].outcome, timeline[0].rule) == ("stored", "11-store-and-forward")
    assert outcomes(timeline, packed_id)[-1] == "replaced"
    assert outcomes(timeline, shipped_id)[-1] == "delivered"
    assert [entry.time for entry in timeline] == sorted(entry.time for entry in timeline)


def test_expect_shown_failure_lists_every_notification_the_screen_shows(apns_mock):
    token = device_token(21)
    packed = send_kalyke(apns_mock, token, title="Packed", body="Order 42", thread_id="order-42")
    shipped = send_kalyke(apns_mock, token, title="Shipped", body="Order 42", thread_id="order-42", badge=1)
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect_shown(token, title="Cancelled")
    assert str(failure.value).splitlines() == [
        'Expected device 15151515…151515 to show a notification with title "Cancelled", '
        'but none of the 2 it shows matched (newest first):',
        '  title "Shipped", body "Order 42" (apns-id %s, thread-id order-42)' % shipped.lower(),
        '  title "Packed", body "Order 42" (apns-id %s, thread-id order-42)' % packed.lower(),
        "Device: online, app foreground, badge 1.",
    ]


def test_expect_shown_on_an_offline_device_names_the_push_apns_holds(apns_mock):
    token = device_token(22)
    apns_mock.set_device(token, online=False)
    held = send_kalyke(apns_mock, token, title="Shipped", body="Order 42", collapse_id="order-42")
    with pytest.raises(AssertionError) as failure:
        apns_mock.expect_shown(token, title="Shipped")
    assert str(failure.value) == (
        'Expected device 16161616…161616 to show a notification with title "Shipped", but it shows no notifications.\n'
        "Device: offline, app foreground, badge 0; APNs holds 1 stored push for it (apns-id %s)." % held.lower())


def test_offline_until_comes_back_on_its_own_and_at_reads_any_instant(apns_mock):
    token = device_token(23)
    back = datetime.now(timezone.utc) + timedelta(hours=1)
    apns_mock.set_device(token, offline_until=back)
    result = send_aioapns(apns_mock, token, title="While away")
    assert result.is_successful, result.description

    assert not apns_mock.device(token).online
    later = apns_mock.device(token, at=back)
    assert later.online and later.titles == ["While away"]
    apns_id = result.notification_id.lower()
    assert outcomes(apns_mock.timeline(token), apns_id) == ["stored"]
    assert outcomes(apns_mock.timeline(token, until=back), apns_id) == ["stored", "delivered"]
    assert apns_mock.expect_shown(token, title="While away", at=back).apns_id == apns_id


def test_a_tap_at_an_instant_opens_the_app_and_clears_the_notification(apns_mock):
    token = device_token(24)
    apns_mock.set_device(token, app_state="background")
    send_kalyke(apns_mock, token, title="Your table is ready")
    shown = apns_mock.expect_shown(token, title="Your table is ready")
    assert apns_mock.device(token).app_state == "background"

    tap_at = shown.time + 1
    change = apns_mock.change_device(token, "tap", apns_id=shown.apns_id, at=tap_at)
    assert (change["at"], change["change"], change["apns_id"]) == (tap_at, "tap", shown.apns_id)
    after = apns_mock.device(token, at=tap_at)
    assert (after.notifications, after.app_state) == ([], "foreground")
    tap = apns_mock.timeline(token, until=tap_at)[-1]
    assert (tap.apns_id, tap.outcome, tap.rule) == (shown.apns_id, "tapped", "5-tap")


def test_set_device_keeps_states_and_changes_apart_and_clear_forgets_changes(apns_mock):
    token = device_token(25)
    answer = apns_mock.set_device(token, online=False, app_state="notRunning",
                                  settings={"background_budget_per_hour": 1})
    assert [change["change"] for change in answer["changes"]] == ["settings", "app_state", "offline"]
    assert "device" not in answer
    screen = apns_mock.device(token)
    assert (screen.online, screen.app_state, screen.raw["background_budget"]["limit"]) == (False, "notRunning", 1)

    with pytest.raises(TypeError, match="set_device needs a state and/or a change"):
        apns_mock.set_device(token)
    with pytest.raises(TypeError, match=r"topics belongs to a state; pass state= too"):
        apns_mock.set_device(token, topics=["com.example.app"])
    with pytest.raises(TypeError, match="naive datetime"):
        apns_mock.device(token, at=datetime(2030, 1, 1))
    with pytest.raises(MockAPNsError, match=r'answered 400: .*"app_state" is one of foreground, background'):
        apns_mock.set_device(token, app_state="asleep")
    with pytest.raises(MockAPNsError, match=r"answered 400: .*not a device change"):
        apns_mock.change_device(token, "reboot")

    apns_mock.clear()
    assert apns_mock.device(token).online
