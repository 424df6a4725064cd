"""The FCM front door as a test reads it (`mockapns serve --fcm`, docs/fcm.md): registrations (the tokens an app
instance would get from FCM), the records of FCM requests, and the query of `expect_fcm` (GET /api/v1/fcm/expect,
whose answer carries the failure message: the mock words a miss, not the kit)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

#: The project the mock makes a service account for at start (`fcm_service_account` in its ready file).
DEFAULT_PROJECT = "mockapns-test"
#: The platforms a registration can be for.
PLATFORMS = ("ios", "android", "web")
#: What `GET /api/v1/fcm/messages` filters by on the server.
SERVER_FILTERS = ("project", "name", "token", "topic", "condition", "status", "validate_only", "limit")
#: What `expect_fcm` passes to GET /api/v1/fcm/expect.
EXPECT_FILTERS = ("project", "name", "token", "topic", "condition", "status", "validate_only")


@dataclass(frozen=True)
class FCMRegistration:
    """An app instance registered with the mock's FCM, as an app gets one from the Firebase SDK: `token` is what the
    sender sends to. An iOS registration is backed by the APNs device token `apns_token`, so by a virtual iPhone:
    `device(apns_token)`, `set_device(apns_token, "unregistered")` and faults matching that token are the APNs ones."""

    token: str
    fid: str
    platform: str
    project: str
    bundle_id: str
    apns_token: Optional[str]
    raw: Dict[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, answer: Dict[str, Any], project: str, bundle_id: str) -> "FCMRegistration":
        return cls(token=answer["token"], fid=answer.get("fid") or answer["token"].split(":", 1)[0],
                   platform=answer.get("platform", "ios"), project=answer.get("project") or project,
                   bundle_id=answer.get("bundle_id") or bundle_id, apns_token=answer.get("apns_token"), raw=answer)


class FCMMessage:
    """One FCM request the mock answered (`messages:send`): the message as sent, the answer, and the APNs pushes it
    became (`apns_ids`; `MockAPNs.apns_pushes_of(message)` reads them). `record` is the whole JSON record."""

    def __init__(self, record: Dict[str, Any]):
        self.record = record

    @property
    def seq(self) -> Optional[int]:
        """Position in the FCM recording, from 1."""
        seq = self.record.get("seq")
        return int(seq) if seq is not None else None

    @property
    def name(self) -> Optional[str]:
        """`projects/P/messages/ID` as answered; None when the request was refused."""
        return self.record.get("name")

    @property
    def project(self) -> Optional[str]:
        """The project of the request's path."""
        return self.record.get("project")

    @property
    def status(self) -> int:
        """The HTTP status answered."""
        return int(self.record["status"])

    @property
    def faults(self) -> List[str]:
        """The fault plan's `fcm_error` rules that fired for it, by name."""
        return list(self.record.get("faults") or [])

    @property
    def validate_only(self) -> bool:
        """`validate_only` (the SDKs' `dry_run`): checked, not delivered."""
        return bool(self.record.get("validate_only"))

    @property
    def message(self) -> Dict[str, Any]:
        """The `message` member as the sender wrote it ({} when the body had none)."""
        message = self.record.get("message")
        return message if isinstance(message, dict) else {}

    @property
    def token(self) -> Optional[str]:
        """The registration token sent to, for a message to one device."""
        return self.record.get("token")

    @property
    def topic(self) -> Optional[str]:
        """The topic sent to."""
        return self.record.get("topic")

    @property
    def condition(self) -> Optional[str]:
        """The condition sent to."""
        return self.record.get("condition")

    @property
    def target(self) -> Tuple[Optional[str], Optional[str]]:
        """(`token`, `topic`, `condition` or `fid`; its value), or (None, None) when the message named none."""
        for kind in ("token", "topic", "condition", "fid"):
            if self.record.get(kind) is not None:
                return kind, self.record[kind]
        return None, None

    @property
    def apns_ids(self) -> List[str]:
        """The `apns-id`s of the APNs pushes the message became, one per iOS device reached."""
        return list(self.record.get("apns_ids") or [])

    @property
    def transport(self) -> Optional[str]:
        """`h2` or `http/1.1`: how the sender spoke."""
        return self.record.get("transport")

    @property
    def answer(self) -> Any:
        """The answer's body as the sender got it."""
        return self.record.get("answer")

    @property
    def error_status(self) -> Optional[str]:
        """The google.rpc status of a refusal (`INVALID_ARGUMENT`, `NOT_FOUND`…); None for a 200."""
        error = self.answer.get("error") if isinstance(self.answer, dict) else None
        return error.get("status") if isinstance(error, dict) else None

    @property
    def error_code(self) -> Optional[str]:
        """FCM's `errorCode` of a refusal (`UNREGISTERED`, `SENDER_ID_MISMATCH`, `QUOTA_EXCEEDED`…)."""
        for detail in self._details():
            if str(detail.get("@type", "")).endswith("google.firebase.fcm.v1.FcmError"):
                return detail.get("errorCode")
        return None

    @property
    def field_violations(self) -> List[Dict[str, Any]]:
        """The BadRequest detail's `fieldViolations` of a 400 (`field`, `description`)."""
        return [violation for detail in self._details()
                if str(detail.get("@type", "")).endswith("google.rpc.BadRequest")
                for violation in detail.get("fieldViolations") or []]

    @property
    def title(self) -> Optional[str]:
        """`notification.title` as sent."""
        notification = self.message.get("notification")
        return notification.get("title") if isinstance(notification, dict) else None

    @property
    def body(self) -> Optional[str]:
        """`notification.body` as sent."""
        notification = self.message.get("notification")
        return notification.get("body") if isinstance(notification, dict) else None

    def _details(self) -> List[Dict[str, Any]]:
        error = self.answer.get("error") if isinstance(self.answer, dict) else None
        details = error.get("details") if isinstance(error, dict) else None
        return [d for d in details if isinstance(d, dict)] if isinstance(details, list) else []

    @property
    def response_text(self) -> str:
        """`accepted (200), 1 APNs push` or `refused 404 NOT_FOUND/UNREGISTERED`."""
        if self.status == 200:
            pushes = len(self.apns_ids)
            return "accepted (200)%s%s" % (", dry run" if self.validate_only else "",
                                          ", %d APNs push%s" % (pushes, "" if pushes == 1 else "es") if pushes else "")
        words = "/".join(word for word in (self.error_status, self.error_code) if word)
        return "refused %d%s" % (self.status, " " + words if words else "")

    @property
    def summary(self) -> str:
        """One line for a failure message, e.g. `#3 FCM message to token cJ3…APA91b, project mockapns-test:
        accepted (200), 1 APNs push; title "Shipped"`."""
        kind, value = self.target
        to = "%s %s" % (kind, _short(value)) if kind else "no target"
        text = "#%s FCM message to %s, project %s: %s" % (self.seq if self.seq is not None else "?", to,
                                                          self.project, self.response_text)
        if self.title is not None:
            text += "; title " + json.dumps(self.title, ensure_ascii=False)
        return text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FCMMessage) and other.record == self.record

    __hash__ = None  # type: ignore[assignment]   # a record is a dict

    def __repr__(self) -> str:
        return "<FCMMessage %s>" % self.summary


def check_fcm_filters(filters: Dict[str, Any], allowed: Tuple[str, ...]) -> Dict[str, Any]:
    unknown = sorted(set(filters) - set(allowed))
    if unknown:
        raise TypeError("unknown FCM filter%s %s; the filters are %s" % ("s" if len(unknown) > 1 else "",
                                                                        ", ".join(unknown), ", ".join(allowed)))
    return {key: value for key, value in filters.items() if value is not None}


def fcm_expect_query(filters: Dict[str, Any], count: Optional[int]) -> List[Tuple[str, str]]:
    """The query of GET /api/v1/fcm/expect: `filters` (checked; `validate_only` as true/false) and the quantity,
    `count=N` (exactly N; 0: none) or, when `count` is None, `at_least=1`."""
    query = [(key, ("true" if value else "false") if isinstance(value, bool) else str(value))
             for key, value in filters.items()]
    query.append(("at_least", "1") if count is None else ("count", str(count)))
    return query


def _short(value: Optional[str]) -> str:
    if value is None:
        return "none"
    return value if len(value) <= 20 else value[:8] + "…" + value[-6:]
