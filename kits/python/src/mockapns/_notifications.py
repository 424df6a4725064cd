"""Recorded pushes as a test reads them, and the query of `MockAPNs.expect` / `wait_for` (GET /api/v1/expect, whose
answer carries the failure message: the mock words a miss, not the kit)."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

#: The control API's record filters (GET /api/v1/notifications); `since` and `limit` narrow the list.
FILTERS = ("token", "topic", "push_type", "status", "reason", "since", "limit")
#: The filters `expect` and `wait_for` pass to GET /api/v1/expect (besides `since`).
PROPERTY_FILTERS = ("token", "topic", "push_type", "status", "reason")


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
        """One line, e.g. `#3 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title
        "Shipped", body "Order 42"`."""
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


def check_filters(filters: Dict[str, Any], allowed: Tuple[str, ...] = FILTERS) -> Dict[str, Any]:
    """The filters with None values dropped; a name the control API does not know is a TypeError naming the known."""
    unknown = sorted(set(filters) - set(allowed))
    if unknown:
        raise TypeError("unknown notification filter(s) %s; use %s" % (", ".join(unknown), ", ".join(allowed)))
    return {name: value for name, value in filters.items() if value is not None}


#: What `where=` takes: {"aps.alert.title": "Shipped", "aps.badge": 3}, or ["aps.alert.title=Shipped", …].
Where = Union[Mapping[str, Any], Sequence[str], None]


def expect_query(filters: Dict[str, Any], quantity: Tuple[str, int], where: Where) -> List[Tuple[str, str]]:
    """The query of GET /api/v1/expect: `filters` (checked), `quantity` (("at_least", n) or ("count", n)) and one
    `where=PATH=VALUE` per payload condition. The token goes lowercase: the mock records tokens as hex, and its
    expectation compares them exactly (its list filter does not)."""
    query: List[Tuple[str, str]] = []
    for name, value in filters.items():
        text = str(value)
        query.append((name, text.lower() if name == "token" else text))
    if quantity != ("at_least", 1):
        query.append((quantity[0], str(quantity[1])))
    if isinstance(where, str):
        raise TypeError("where= is a dict {PATH: VALUE} or a list of \"PATH=VALUE\" strings, not the string %r" % where)
    if isinstance(where, Mapping):
        query += [("where", "%s=%s" % (path, _condition_text(value))) for path, value in where.items()]
    elif where is not None:
        query += [("where", str(condition)) for condition in where]
    return query


def _condition_text(value: Any) -> str:
    """A condition's VALUE as the mock reads it: a string as is, true/false, null, a number, else compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
