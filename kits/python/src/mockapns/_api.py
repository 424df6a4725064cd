"""What a test asks of a running mock through its control API: recorded pushes and expectations, device states,
virtual devices over time, fault rules and, with `serve --fcm`, FCM registrations and records. Shared by `MockAPNs`
and the Testcontainers module's `MockAPNsContainer`."""

from __future__ import annotations

import json
import os
import time
import urllib.parse
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from ._control import ControlClient, MockAPNsError
from ._devices import DeviceScreen, Instant, ShownNotification, TimelineEntry, millis, shown_failure
from ._fcm import (DEFAULT_PROJECT, EXPECT_FILTERS as FCM_EXPECT_FILTERS, PLATFORMS, SERVER_FILTERS, FCMMessage,
                   FCMRegistration, check_fcm_filters, fcm_expect_query)
from ._notifications import PROPERTY_FILTERS, Notification, Where, check_filters, expect_query


class ControlAPI:
    """The control-API methods of a mock; a subclass gives `_client()`, a ControlClient of the running mock."""

    def _client(self) -> ControlClient:
        raise NotImplementedError

    def _files(self) -> Path:
        """A folder of this mock's own for files the kit writes (service-account files), deleted with it."""
        raise NotImplementedError

    def _serves_fcm(self) -> bool:
        """Whether this mock was started with its FCM front door (so `clear()` clears FCM records too)."""
        return False

    # What the mock received

    def notifications(self, **filters: Any) -> List[Notification]:
        """The recorded pushes, oldest first, narrowed by the control API's filters: `token` (case-insensitive),
        `topic`, `push_type`, `status`, `reason`, `since` (records numbered above it), `limit` (the newest n)."""
        query = check_filters(filters)
        answer = self._client().request("GET", "/api/v1/notifications", query=query)
        return [Notification(record) for record in answer["notifications"]]

    def expect(self, count: Optional[int] = None, *, where: Where = None, **filters: Any) -> List[Notification]:
        """Returns the recorded pushes matching `filters` (`token`, `topic`, `push_type`, `status`, `reason`;
        `since` narrows what is looked at) and the payload conditions `where` (`{"aps.alert.title": "Shipped"}` or
        `["aps.badge=3"]`). Raises AssertionError unless there are `count` of them (at least one when `count` is None;
        `count=0`: none), with the mock's own report (GET /api/v1/expect): what was wanted, the matching records and
        the closest others, each miss spelled out."""
        quantity = ("at_least", 1) if count is None else ("count", count)
        answer = self._expectation(quantity, where, filters, timeout=0)
        if not answer["met"]:
            raise AssertionError(answer["message"].rstrip("\n"))
        return self._matched(answer, filters)

    def wait_for(self, count: int = 1, timeout: float = 10.0, *, where: Where = None,
                 **filters: Any) -> List[Notification]:
        """Waits until at least `count` recorded pushes match `filters` and `where` (as in `expect`) and returns
        them. After `timeout` seconds, raises AssertionError with the mock's report, after a line saying how long it
        waited."""
        answer = self._expectation(("at_least", count), where, filters, timeout=timeout)
        if not answer["met"]:
            waited = "Waited %g s." % timeout
            if answer.get("considered") == 0:
                waited += " No push reached the mock: is the sender pointed at url (or http1_url) and trusting ca_file?"
            raise AssertionError(waited + "\n" + answer["message"].rstrip("\n"))
        return self._matched(answer, filters)

    def _expectation(self, quantity: Tuple[str, int], where: Where, filters: Dict[str, Any],
                     timeout: float) -> Dict[str, Any]:
        """GET /api/v1/expect, until met or `timeout` seconds have passed."""
        query = expect_query(check_filters(filters, PROPERTY_FILTERS + ("since",)), quantity, where)
        return self._poll("/api/v1/expect", query, timeout)

    def _poll(self, path: str, query: List[Tuple[str, str]], timeout: float) -> Dict[str, Any]:
        """GET `path` (an expectation: /api/v1/expect, /api/v1/fcm/expect), asked again every 50 ms until its answer
        is `met` or `timeout` seconds have passed."""
        deadline = time.monotonic() + timeout
        while True:
            answer = self._client().request("GET", path, query=query)
            if answer["met"] or time.monotonic() >= deadline:
                return answer
            time.sleep(0.05)

    def _matched(self, answer: Dict[str, Any], filters: Dict[str, Any]) -> List[Notification]:
        """The records the answer names (`matched_seqs`), oldest first."""
        seqs = set(answer["matched_seqs"])
        if not seqs:
            return []
        narrowed = {name: value for name, value in filters.items() if value is not None}
        return [n for n in self.notifications(**narrowed) if n.seq in seqs]

    # What the mock does

    def set_device(self, token: str, state: Optional[str] = None, *, online: Optional[bool] = None,
                   offline_until: Optional[Instant] = None, app_state: Optional[str] = None,
                   settings: Optional[Dict[str, Any]] = None, push_to_start_tokens: Optional[Sequence[str]] = None,
                   at: Optional[Instant] = None, **fields: Any) -> Dict[str, Any]:
        """Tells the mock about device `token`; returns the control API's answer.

        `state` is how APNs answers pushes to it: `unregistered` (410; `timestamp=` ms), `expired`, `topics`
        (`topics=[…]`), `otherEnvironment` or `rateLimited` (`max=`, `window_seconds=`).

        The rest change the virtual device at `at` (default: now on the mock's clock): `online=False` takes it
        offline (APNs stores pushes), `online=True` brings it back; `offline_until=` takes it offline until then;
        `app_state=` `foreground`, `background`, `notRunning` or `forceQuit`; `settings=` replaces its settings
        (e.g. `{"background_budget_per_hour": 2, "profile": {"authorization": "denied"}}`);
        `push_to_start_tokens=` the tokens its Live Activities are started through. Instants are milliseconds since
        1970 or timezone-aware datetimes."""
        if fields and state is None:
            raise TypeError("set_device: %s belong%s to a state; pass state= too (e.g. set_device(token, \"topics\", "
                            "topics=[…]))" % (", ".join(sorted(fields)), "s" if len(fields) == 1 else ""))
        body: Dict[str, Any] = {} if state is None else {"state": state, **fields}
        for key, value in (("online", online), ("app_state", app_state), ("settings", settings)):
            if value is not None:
                body[key] = value
        if push_to_start_tokens is not None:
            body["push_to_start_tokens"] = list(push_to_start_tokens)
        if offline_until is not None:
            body["offline_until"] = millis(offline_until, "offline_until")
        if not body:
            raise TypeError("set_device needs a state and/or a change: online=, offline_until=, app_state=, "
                            "settings= or push_to_start_tokens=")
        if at is not None:
            body["at"] = millis(at, "at")
        return self._client().request("PUT", self._device_path(token), body=body)

    def change_device(self, token: str, change: str, *, at: Optional[Instant] = None,
                      **fields: Any) -> Dict[str, Any]:
        """Records one change of the virtual device at `at` (default: now on the mock's clock), e.g.
        `change_device(token, "tap", apns_id=…)` (the user taps that notification; `action=` an action button),
        `"offline"`, `"online"`, `"app_state"` (`state=`), `"live_activity_token"` (`started_by=`, `token=`).
        Returns the change as the mock recorded it."""
        body: Dict[str, Any] = {"change": change, **fields}
        if at is not None:
            body["at"] = millis(at, "at")
        return self._client().request("POST", self._device_path(token) + "/changes", body=body)["change"]

    def device(self, token: str, at: Optional[Instant] = None) -> DeviceScreen:
        """What device `token` shows at `at` (default: now on the mock's clock), computed from its changes and the
        pushes the mock accepted for it: Notification Center (newest first), badge, what APNs stores while it is
        offline, Live Activities, sounds (`raw` has everything)."""
        query = None if at is None else {"at": millis(at, "at")}
        return DeviceScreen.from_json(self._client().request("GET", self._device_path(token) + "/screen", query=query))

    def timeline(self, token: str, until: Optional[Instant] = None) -> List[TimelineEntry]:
        """What happened to each push of device `token` up to `until` (default: now), oldest first: one entry per
        outcome (stored, replaced, delivered, dropped, throttled, tapped), with the rule and why."""
        query = None if until is None else {"until": millis(until, "until")}
        answer = self._client().request("GET", self._device_path(token) + "/timeline", query=query)
        return [TimelineEntry.from_json(entry) for entry in answer["entries"]]

    def expect_shown(self, token: str, title: Optional[str] = None, body: Optional[str] = None, *,
                     at: Optional[Instant] = None) -> ShownNotification:
        """Returns the newest notification device `token` shows (at `at`, default now) with this `title` and `body`
        (either may be left out; neither: any notification). Raises AssertionError listing every notification the
        screen does show and the device's state (offline, stored pushes, badge)."""
        screen = self.device(token, at=at)
        wanted: Dict[str, Optional[str]] = {name: value for name, value in (("title", title), ("body", body))
                                            if value is not None}
        for shown in screen.notifications:
            if all(getattr(shown, name) == value for name, value in wanted.items()):
                return shown
        raise AssertionError(shown_failure(screen, wanted))

    def add_fault(self, status: Optional[int] = None, reason: Optional[str] = None, count: Optional[int] = None,
                  match: Optional[Dict[str, str]] = None, *, action: Optional[Dict[str, Any]] = None,
                  name: Optional[str] = None, probability: Optional[float] = None) -> str:
        """Adds a fault rule and returns its id: the next `count` pushes (every one when None) matching `match`
        (`token`, `topic`, `push_type`, `path` prefix) are answered `status` with `reason` (APNs's reason for that
        status when None). `action` instead gives any other action, e.g. `{"type": "delay", "ms": 500}`,
        `{"type": "stall"}`, `{"type": "drop"}`, `{"type": "goaway", "reason": "Shutdown"}`; and, for a mock serving
        FCM, `{"type": "fcm_error", "status": "UNAVAILABLE"}` (or `INTERNAL`, `QUOTA_EXCEEDED`) with `match` on
        `project` and `registration_token`: the front door answers the send with that error before delivering."""
        if (status is None) == (action is None):
            raise TypeError("add_fault needs either status= (with reason=) or action=, not both or neither")
        rule: Dict[str, Any] = {"match": dict(match or {}), "action": action or {"type": "status", "status": status}}
        if reason is not None:
            rule["action"]["reason"] = reason
        for key, value in (("count", count), ("name", name), ("probability", probability)):
            if value is not None:
                rule[key] = value
        return self._client().request("POST", "/api/v1/faults", body=rule)["id"]

    def clear(self) -> None:
        """Forgets the recorded pushes, device states, virtual-device changes and fault rules, and the FCM records of
        a mock serving FCM: the mock behaves as if just started (record numbering goes on). FCM registrations,
        their topic subscriptions and trusted service accounts stay, as trusted keys do."""
        client = self._client()
        paths = ["/api/v1/notifications", "/api/v1/devices", "/api/v1/faults"]
        if self._serves_fcm():
            paths.append("/api/v1/fcm/messages")
        for path in paths:
            client.request("DELETE", path)

    # FCM (`serve --fcm`)

    def new_fcm_service_account(self, project: str = DEFAULT_PROJECT, path: Union[str, "os.PathLike[str]", None] = None
                                ) -> str:
        """A new service-account key file for `project`, which the mock trusts from then on (the project exists once
        it does): written to `path`, else to a file of this mock's own; returns its path. Give it to the sender as
        Google's file: `credentials.Certificate(path)`, `FCMNotification(service_account_file=path, …)`."""
        account = self._client().request("POST", "/api/v1/fcm/projects/%s/service-account"
                                         % urllib.parse.quote(project, safe=""))
        if not isinstance(account, dict) or account.get("type") != "service_account":
            raise MockAPNsError("POST /api/v1/fcm/projects/%s/service-account answered no service-account JSON: %r"
                                % (project, account))
        key_id = _file_safe(str(account.get("private_key_id", "")))[:12]
        target = Path(path) if path is not None else (
            self._files() / ("service-account-%s-%s.json" % (_file_safe(project), key_id)))
        target.write_text(json.dumps(account, indent=2))
        os.chmod(target, 0o600)
        return str(target)

    def register_fcm(self, platform: str = "ios", bundle_id: str = "com.example.app", *,
                     project: str = DEFAULT_PROJECT, apns_token: Optional[str] = None) -> FCMRegistration:
        """Registers an app instance with the mock's FCM, as the Firebase SDK in an app does, and returns its
        registration `token` (what the sender sends to). `platform` is `ios`, `android` or `web`; `bundle_id` the
        app's bundle id or package name. An iOS registration is backed by the APNs device token `apns_token` (the mock
        makes one when None), whose virtual iPhone shows what FCM delivers: `device(registration.apns_token)`."""
        if platform not in PLATFORMS:
            raise ValueError("register_fcm: platform is one of %s, not %r" % (", ".join(PLATFORMS), platform))
        body: Dict[str, Any] = {"project": project, "platform": platform, "bundle_id": bundle_id}
        if apns_token is not None:
            if platform != "ios":
                raise ValueError("register_fcm: apns_token= is for an iOS registration, not %s" % platform)
            body["apns_token"] = apns_token
        answer = self._client().request("POST", "/api/v1/fcm/registrations", body=body)
        return FCMRegistration.from_json(answer, project, bundle_id)

    def android_device(self, token: str) -> Dict[str, Any]:
        """The virtual Android device behind the Android registration `token`: `{"app_state", "online", "received":
        [{"name", "handled_by", "data_in_intent", "title", "body", "data", "received_at_ms", "from_storage"}…],
        "stored": [name…]}` (`handled_by` is `system_tray`, `on_message_received` or `on_deleted_messages`)."""
        return self._client().request("GET", "/api/v1/fcm/registrations/%s/device" % urllib.parse.quote(token, safe=""))

    def set_android_device(self, token: str, *, app_state: Optional[str] = None, online: Optional[bool] = None
                           ) -> List[Dict[str, Any]]:
        """Puts the Android device of `token`'s app in the `foreground` or `background`, and takes it offline or back
        online; returns what coming back delivered (FCM's stored messages, or one `on_deleted_messages`)."""
        body: Dict[str, Any] = {}
        if app_state is not None:
            body["app_state"] = app_state
        if online is not None:
            body["online"] = online
        if not body:
            raise TypeError("set_android_device needs app_state=, online= or both")
        answer = self._client().request("PUT", "/api/v1/fcm/registrations/%s/device" % urllib.parse.quote(token, safe=""), body=body)
        return list(answer.get("delivered") or [])

    def fcm_messages(self, *, project: Optional[str] = None, name: Optional[str] = None, **filters: Any
                     ) -> List[FCMMessage]:
        """The recorded FCM requests (`messages:send`), oldest first, narrowed by `project`, `name` (the whole
        `projects/P/messages/ID` or its last part) and the control API's other filters: `token`, `topic`,
        `condition`, `status`, `validate_only` (True: only dry runs), `limit` (the newest n)."""
        query = {key: ("true" if value else "false") if isinstance(value, bool) else value
                 for key, value in check_fcm_filters(dict(filters, project=project, name=name), SERVER_FILTERS).items()}
        answer = self._client().request("GET", "/api/v1/fcm/messages", query=query)
        return [FCMMessage(record) for record in answer["messages"]]

    def expect_fcm(self, count: Optional[int] = None, *, timeout: float = 0, **filters: Any) -> List[FCMMessage]:
        """Returns the recorded FCM requests matching `filters` (`project`, `name`, `token`, `topic`, `condition`,
        `status`, `validate_only`), oldest first. Raises AssertionError unless there are `count` of them (at least one
        when `count` is None; `count=0`: none), with the mock's own report (GET /api/v1/fcm/expect): what was wanted,
        the closest FCM records, each miss spelled out. With `timeout` seconds, asks again until met; a miss then says
        first how long it waited."""
        query = fcm_expect_query(check_fcm_filters(filters, FCM_EXPECT_FILTERS), count)
        answer = self._poll("/api/v1/fcm/expect", query, timeout)
        if not answer["met"]:
            report = answer["message"].rstrip("\n")
            if timeout > 0:
                waited = "Waited %g s." % timeout
                if answer.get("considered") == 0:
                    waited += (" No FCM request reached the mock: is the sender inside `with mock.intercept():` (or"
                               " pointed at fcm_url), with a service account of this mock (fcm_service_account)?")
                report = waited + "\n" + report
            raise AssertionError(report)
        seqs = set(answer["matched_seqs"])
        return [m for m in self.fcm_messages() if m.seq in seqs] if seqs else []

    def apns_pushes_of(self, message: Union[FCMMessage, str]) -> List[Notification]:
        """The APNs pushes an FCM message became (its `apns_ids`), as ordinary recorded pushes (`Notification`:
        `payload` with `aps` and FCM's `gcm.message_id`, `google.c.fid`…), in the order of `apns_ids`. `message` is
        an FCMMessage or a message name."""
        if isinstance(message, str):
            found = self.fcm_messages(name=message)
            if not found:
                raise AssertionError("No FCM message is named %s; the mock recorded %d FCM messages."
                                     % (message, len(self.fcm_messages())))
            message = found[-1]
        by_id = {n.apns_id: n for n in self.notifications() if n.apns_id}
        missing = [apns_id for apns_id in message.apns_ids if apns_id not in by_id]
        if missing:
            raise AssertionError("%s names APNs pushes the mock has no record of: %s (cleared since?)"
                                 % (message.summary, ", ".join(missing)))
        return [by_id[apns_id] for apns_id in message.apns_ids]

    @staticmethod
    def _device_path(token: str) -> str:
        return "/api/v1/devices/" + urllib.parse.quote(token, safe="")


def _file_safe(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text) or "x"
