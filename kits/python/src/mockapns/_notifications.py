"""Recorded pushes as a test reads them, and the failure messages of `MockAPNs.expect` / `wait_for`."""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Tuple

#: The control API's record filters (GET /api/v1/notifications); `since` and `limit` narrow the list.
FILTERS = ("token", "topic", "push_type", "status", "reason", "since", "limit")
#: The filters `expect` and `wait_for` check one by one (and rank near misses by).
PROPERTY_FILTERS = ("token", "topic", "push_type", "status", "reason")
#: How many non-matching pushes a failure message lists before summing up the rest (as the Swift kit does).
LIST_LIMIT = 5


class Notification:
    """One request the mock answered, accepted or rejected: a record of the control API, read the way a
    sender's test thinks about it. `record` is the whole JSON record (headers, payload, auth, lint, faults…)."""

    def __init__(self, record: Dict[str, Any]):
        self.record = record

    @property
    def seq(self) -> int:
        """Position in the recording, from 1 (numbering goes on after `clear()`)."""
        return int(self.record["seq"])

    @property
    def token(self) -> Optional[str]:
        """The device token from the path."""
        return self.record.get("device_token")

    def header(self, name: str) -> Optional[str]:
        """The first value of a request header, by lowercase name (e.g. `apns-collapse-id`)."""
        for pair in self.record.get("headers") or []:
            if pair[0] == name:
                return pair[1]
        return None

    @property
    def topic(self) -> Optional[str]:
        """`apns-topic`."""
        return self.header("apns-topic")

    @property
    def push_type(self) -> Optional[str]:
        """`apns-push-type`."""
        return self.header("apns-push-type")

    @property
    def status(self) -> int:
        """The status the mock answered (0 when a fault stalled, reset or dropped the request)."""
        return int(self.record["response"]["status"])

    @property
    def reason(self) -> Optional[str]:
        """The APNs reason of a rejection (`Unregistered`, `BadDeviceToken`, …); None for a 200."""
        return self.record["response"].get("reason")

    @property
    def apns_id(self) -> Optional[str]:
        """The `apns-id` the mock answered with."""
        return self.record["response"].get("apns_id")

    @property
    def environment(self) -> Optional[str]:
        """`development` or `production`: the APNs environment the request's host implied (api.push.apple.com is
        production, api.sandbox… and api.development… development; channel management by its port); None when it was
        sent to the mock by another name (its url)."""
        return self.record.get("environment")

    @property
    def payload(self) -> Any:
        """The body as parsed JSON; None when it was not JSON."""
        return self.record.get("payload")

    @property
    def alert_title(self) -> Optional[str]:
        """`aps.alert.title`."""
        alert = self._alert()
        return alert.get("title") if isinstance(alert, dict) else None

    @property
    def alert_body(self) -> Optional[str]:
        """`aps.alert.body`, or `aps.alert` when the alert is a plain string."""
        alert = self._alert()
        return alert if isinstance(alert, str) else alert.get("body") if isinstance(alert, dict) else None

    def _alert(self) -> Any:
        payload = self.payload
        aps = payload.get("aps") if isinstance(payload, dict) else None
        return aps.get("alert") if isinstance(aps, dict) else None

    @property
    def response_text(self) -> str:
        """`accepted (200)`, `rejected 410 Unregistered`, or `not answered (stall)`."""
        if self.status == 200:
            return "accepted (200)"
        if self.status == 0:
            return "not answered (%s)" % ", ".join(self.record.get("faults") or ["fault"])
        return "rejected %d%s" % (self.status, " " + self.reason if self.reason else "")

    @property
    def summary(self) -> str:
        """One line for a failure message, e.g. `#3 alert push to 00fc13ad…1de8f0, topic com.example.shop:
        accepted (200); title "Shipped", body "Order 42"` (the Swift kit's wording)."""
        text = "#%d %s to %s" % (self.seq, self.push_type + " push" if self.push_type else "push", _short(self.token))
        if self.topic is not None:
            text += ", topic " + self.topic
        text += ": " + self.response_text
        details = []
        if self.alert_title is not None:
            details.append("title " + json.dumps(self.alert_title, ensure_ascii=False))
        if self.alert_body is not None:
            details.append("body " + json.dumps(self.alert_body, ensure_ascii=False))
        if "payload" not in self.record:
            details.append("body is not JSON")
        return text + ("; " + ", ".join(details) if details else "")

    def __repr__(self) -> str:
        return "<Notification %s>" % self.summary


def _short(token: Optional[str]) -> str:
    if token is None:
        return "(no device token)"
    return token if len(token) <= 16 else token[:8] + "…" + token[-6:]


# name in messages, how the expected value reads, what a record has, whether it matches (the server's semantics:
# RecordFilter.matches — the token case-insensitive, everything else exact).
_CHECKS: Dict[str, Tuple[str, Callable[[Notification], Any], Callable[[Any, Any], bool]]] = {
    "token": ("device token", lambda n: n.token, lambda want, got: got is not None and got.lower() == str(want).lower()),
    "topic": ("topic", lambda n: n.topic, lambda want, got: got == want),
    "push_type": ("push type", lambda n: n.push_type, lambda want, got: got == want),
    "status": ("response status", lambda n: n.status, lambda want, got: got == int(want)),
    "reason": ("reason", lambda n: n.reason, lambda want, got: got == want),
}


def check_filters(filters: Dict[str, Any], allowed: Tuple[str, ...] = FILTERS) -> Dict[str, Any]:
    """The filters with None values dropped; a name the control API does not know is a TypeError naming the known."""
    unknown = sorted(set(filters) - set(allowed))
    if unknown:
        raise TypeError("unknown notification filter(s) %s; use %s" % (", ".join(unknown), ", ".join(allowed)))
    return {name: value for name, value in filters.items() if value is not None}


def matches(notification: Notification, filters: Dict[str, Any]) -> bool:
    """Whether `notification` passes every filter in `filters` (PROPERTY_FILTERS only)."""
    return all(_CHECKS[name][2](want, _CHECKS[name][1](notification)) for name, want in filters.items())


def describe(count: Optional[int], filters: Dict[str, Any], at_least: bool = False) -> str:
    """`a notification with topic com.example.app, response status 200`, `exactly 2 notifications`, …"""
    if count is None or (at_least and count == 1):
        what = "a notification"
    elif at_least:
        what = "at least %d notifications" % count
    elif count == 0:
        what = "no notification"
    else:
        what = "exactly %d notification%s" % (count, "" if count == 1 else "s")
    if filters:
        what += " with " + ", ".join("%s %s" % (_CHECKS[name][0], want) for name, want in filters.items())
    return what


def failure_message(count: Optional[int], filters: Dict[str, Any], received: List[Notification],
                    at_least: bool = False) -> Optional[str]:
    """None when `received` holds `count` pushes matching `filters` (at least one when `count` is None, at least
    `count` with `at_least`); otherwise what was expected, then what was received, closest match first, each
    mismatch spelled out."""
    matching = [n for n in received if matches(n, filters)]
    if count is None or at_least:
        if len(matching) >= (1 if count is None else count):
            return None
    elif len(matching) == count:
        return None
    header = "Expected " + describe(count, filters, at_least)
    if not received:
        return header + ", but the mock received no notifications."
    if count is not None and not at_least and len(matching) > count:
        lines = [header + ", but %d matched:" % len(matching)]
        lines += ["  " + n.summary for n in matching[:LIST_LIMIT]]
        if len(matching) > LIST_LIMIT:
            lines.append("  … and %d more" % (len(matching) - LIST_LIMIT))
        return "\n".join(lines)
    if not matching:
        verdict = ("the mock received only %d" % len(received) if not filters
                   else "the only notification received did not match" if len(received) == 1
                   else "none of the %d received matched" % len(received))
        lines = [header + ", but %s." % verdict]
    else:
        lines = [header + ", but only %d matched (%s)." % (len(matching), ", ".join("#%d" % n.seq for n in matching))]
    others = [n for n in received if not matches(n, filters)]
    # Most filters met first; ties in the order received.
    others.sort(key=lambda n: -sum(1 for name, want in filters.items() if _CHECKS[name][2](want, _CHECKS[name][1](n))))
    if others:
        lines.append("Received, closest match first:" if not matching else "Other notifications, closest match first:")
        for n in others[:LIST_LIMIT]:
            lines += _ranked_lines(n, filters)
        if len(others) > LIST_LIMIT:
            lines.append("  … and %d more" % (len(others) - LIST_LIMIT))
    return "\n".join(lines)


def _ranked_lines(notification: Notification, filters: Dict[str, Any]) -> List[str]:
    met = [name for name, want in filters.items() if _CHECKS[name][2](want, _CHECKS[name][1](notification))]
    line = "  " + notification.summary
    if len(filters) > 1:
        line += " — has %d of %d" % (len(met), len(filters))
    lines = [line]
    for name, want in filters.items():
        if name not in met:
            label, actual, _ = _CHECKS[name]
            got = actual(notification)
            shown = notification.response_text if name == "status" else "absent" if got is None else got
            lines.append("      %s: expected %s, got %s" % (label, want, shown))
    return lines
