"""Virtual devices over time, as a test reads them: what a device shows (GET /api/v1/devices/{token}/screen), what
happened to each of its pushes (…/timeline), and the failure message of `MockAPNs.expect_shown`."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

#: An instant: milliseconds since 1970 (the control API's unit), or a timezone-aware datetime.
Instant = Union[int, datetime.datetime]


def millis(instant: Instant, name: str) -> int:
    """`instant` in milliseconds since 1970; a naive datetime or anything else is a TypeError saying what to pass."""
    if isinstance(instant, datetime.datetime):
        if instant.tzinfo is None:
            raise TypeError("%s: pass a timezone-aware datetime (e.g. datetime.now(timezone.utc)) or milliseconds "
                            "since 1970; a naive datetime has no instant" % name)
        return int(instant.timestamp() * 1000)
    if isinstance(instant, bool) or not isinstance(instant, int):
        raise TypeError("%s is milliseconds since 1970 (int) or a timezone-aware datetime, not %r" % (name, instant))
    return instant


@dataclass(frozen=True)
class ShownNotification:
    """One notification in the device's Notification Center."""

    apns_id: str
    title: Optional[str]
    body: Optional[str]
    thread_id: Optional[str]
    collapse_id: Optional[str]
    time: int                     #: when it was delivered, milliseconds since 1970
    topic: Optional[str]

    @classmethod
    def from_json(cls, item: Dict[str, Any]) -> "ShownNotification":
        return cls(apns_id=item["apns_id"], title=item.get("title"), body=item.get("body"),
                   thread_id=item.get("thread_id"), collapse_id=item.get("collapse_id"), time=item["time"],
                   topic=item.get("topic"))

    @property
    def summary(self) -> str:
        """One line for a failure message: `title "Shipped", body "Order 42" (apns-id …, collapse-id order-42)`."""
        words = ["title " + _quoted(self.title), "body " + _quoted(self.body)]
        ids = ["apns-id " + self.apns_id]
        if self.thread_id:
            ids.append("thread-id " + self.thread_id)
        if self.collapse_id:
            ids.append("collapse-id " + self.collapse_id)
        return "%s (%s)" % (", ".join(words), ", ".join(ids))


@dataclass(frozen=True)
class DeviceScreen:
    """What a virtual device shows at one instant (`at`, milliseconds since 1970). `notifications` is Notification
    Center, newest first; `stored` what APNs holds while the device is offline; `raw` the whole JSON (groups, sounds,
    background budget, model numbers)."""

    at: int
    token: str
    online: bool
    app_state: str
    badge: int
    notifications: List[ShownNotification]
    stored: List[Dict[str, Any]]
    live_activities: List[Dict[str, Any]]
    sounds: List[Dict[str, Any]]
    raw: Dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, screen: Dict[str, Any]) -> "DeviceScreen":
        return cls(at=screen["at"], token=screen["token"], online=screen["online"], app_state=screen["app_state"],
                   badge=screen.get("badge") or 0,
                   notifications=[ShownNotification.from_json(n) for n in screen.get("notifications") or []],
                   stored=list(screen.get("stored") or []), live_activities=list(screen.get("live_activities") or []),
                   sounds=list(screen.get("sounds") or []), raw=screen)

    @property
    def titles(self) -> List[Optional[str]]:
        """The shown notifications' titles, newest first."""
        return [n.title for n in self.notifications]

    @property
    def state_line(self) -> str:
        """`Device: offline, app foreground, badge 0; APNs holds 1 stored push for it (apns-id …).`"""
        line = "Device: %s, app %s, badge %d" % ("online" if self.online else "offline", self.app_state, self.badge)
        if self.stored:
            line += "; APNs holds %d stored push%s for it (%s)" % (
                len(self.stored), "" if len(self.stored) == 1 else "es",
                ", ".join("apns-id %s" % s.get("apns_id") for s in self.stored))
        return line + "."


@dataclass(frozen=True)
class TimelineEntry:
    """One thing that happened to a push on the device: `outcome` (`delivered`, `stored`, `replaced`, `dropped`,
    `throttled` or `tapped`), the `rule` that decided it (e.g. `11-store-and-forward`) and why, in words. `raw` also
    has the delivery's `simulation` or the tap's `tap`."""

    apns_id: str
    time: int
    outcome: str
    rule: str
    explanation: str
    raw: Dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, entry: Dict[str, Any]) -> "TimelineEntry":
        return cls(apns_id=entry["apns_id"], time=entry["time"], outcome=entry["outcome"], rule=entry["rule"],
                   explanation=entry.get("explanation", ""), raw=entry)


def shown_failure(screen: DeviceScreen, wanted: Dict[str, Optional[str]]) -> str:
    """`Expected device 01010101…010101 to show a notification with title "X", but …`: every notification the
    screen shows, newest first, then the device's state."""
    what = "a notification" + (" with " + ", ".join("%s %s" % (k, _quoted(v)) for k, v in wanted.items())
                               if wanted else "")
    short = screen.token if len(screen.token) <= 16 else screen.token[:8] + "…" + screen.token[-6:]
    header = "Expected device %s to show %s" % (short, what)
    if not screen.notifications:
        return "%s, but it shows no notifications.\n%s" % (header, screen.state_line)
    count = len(screen.notifications)
    lines = ["%s, but %s:" % (header, "the only one it shows did not match" if count == 1
                               else "none of the %d it shows matched (newest first)" % count)]
    lines += ["  " + n.summary for n in screen.notifications]
    return "\n".join(lines + [screen.state_line])


def _quoted(text: Optional[str]) -> str:
    return "none" if text is None else json.dumps(text, ensure_ascii=False)
