"""MockAPNs: a running mock APNs server for a test, and what a test asks of it."""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import tempfile
import time
import urllib.parse
import weakref
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from ._backends import BUNDLED_DIR, ContainerBackend, ProcessBackend, find_binary, find_certs
from ._control import ControlClient, MockAPNsError
from ._devices import DeviceScreen, Instant, ShownNotification, TimelineEntry, millis, shown_failure
from ._notifications import PROPERTY_FILTERS, Notification, check_filters, failure_message, matches


class MockAPNs:
    """A mock APNs server for tests: `mockapns serve` on free loopback ports, stopped when the `with` block ends.

    ```python
    with MockAPNs() as mock:
        send_with_your_client(url=mock.url, ca=mock.ca_file, key=mock.key_file, key_id=mock.key_id,
                              team_id=mock.team_id)
        mock.expect(topic="com.example.app", status=200)
    ```

    The binary is `binary`, else $MOCKAPNS_BIN, else the one bundled in the wheel, else `mockapns` on PATH; `args`
    are more `mockapns serve` options. `MockAPNs.container(image=…)` runs the image with docker or podman instead.
    """

    #: How long a provider token from `token()` is reused: APNs refuses tokens refreshed more often than every
    #: 20 minutes and older than an hour.
    TOKEN_REUSE_SECONDS = 20 * 60

    def __init__(self, binary: Optional[str] = None, *, args: Sequence[str] = (), control_token: Optional[str] = None,
                 startup_timeout: float = 30.0):
        self._binary = binary
        self._args = list(args)
        self._control_token = control_token
        self._startup_timeout = startup_timeout
        self._container: Optional[Dict[str, Any]] = None
        self._backend: Any = None
        self._ready: Dict[str, Any] = {}
        self._certs: Optional[Path] = None
        self._key: Dict[str, str] = {}
        self._token: Optional[str] = None
        self._token_minted = 0.0
        self._clock = time.monotonic
        self._control: Optional[ControlClient] = None
        self._workdir: Optional[Path] = None
        self._finalizer: Optional[weakref.finalize] = None

    @classmethod
    def container(cls, image: str = "mockapns", *, engine: Optional[str] = None, control_token: Optional[str] = None,
                  startup_timeout: float = 60.0) -> "MockAPNs":
        """A MockAPNs that runs `image` with docker or podman (`engine`, else $MOCKAPNS_CONTAINER_ENGINE, else
        whichever is on PATH) instead of a local binary. The control plane gets a random token unless
        `control_token` is given; `http1_url` is None. `key_file` and `token()` use the test keys of the wheel (or
        $MOCKAPNS_CERTS_DIR), which the image trusts too."""
        mock = cls(control_token=control_token or secrets.token_hex(16), startup_timeout=startup_timeout)
        mock._container = {"image": image, "engine": engine}
        return mock

    # Lifecycle

    def start(self) -> "MockAPNs":
        """Starts the server and waits until it listens; a MockAPNsError says why it could not."""
        if self._backend is not None:
            raise MockAPNsError("This MockAPNs is already started; stop() it first or make another.")
        self._workdir = Path(tempfile.mkdtemp(prefix="mockapns-"))
        try:
            if self._container:
                backend: Any = ContainerBackend(self._container["image"], self._container["engine"],
                                                self._control_token, self._workdir, self._startup_timeout)
            else:
                backend = ProcessBackend(self._binary, self._args, self._control_token, self._workdir,
                                         self._startup_timeout)
            self._backend = backend
            self._finalizer = weakref.finalize(self, _cleanup, backend, self._workdir)
            self._ready = backend.start()
            # The test keys: beside the CA in use, else beside the binary, else the wheel's.
            candidates = [str(Path(self._ready["ca_file"]).parent) if self._ready.get("ca_file") else None,
                          str(Path(backend.binary).parent / "certs") if isinstance(backend, ProcessBackend) else None,
                          str(BUNDLED_DIR / "certs")]
            self._certs = find_certs(candidates)
            self._key = _default_key(self._certs)
        except BaseException:
            if self._finalizer is None:
                shutil.rmtree(self._workdir, ignore_errors=True)
            self.stop()
            raise
        self._control = ControlClient(self._ready["control_url"], self._control_token, backend.death)
        return self

    def stop(self) -> None:
        """Stops the server (SIGTERM; the container is removed) and deletes its temporary files. Safe to repeat."""
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self._backend = None
        self._control = None

    def __enter__(self) -> "MockAPNs":
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        """Whether the server was started and has not stopped or died."""
        return self.stopped_reason is None

    @property
    def stopped_reason(self) -> Optional[str]:
        """None while the server runs; otherwise why not (how it ended, with its last output)."""
        if self._backend is None:
            return "This MockAPNs is not running: use `with MockAPNs() as mock:` or call start()."
        return self._backend.death()

    @property
    def pid(self) -> Optional[int]:
        """The server process's id (None for a container)."""
        return self._backend.pid if self._backend else None

    # Where to connect

    @property
    def url(self) -> str:
        """Where HTTP/2 senders connect, e.g. `https://127.0.0.1:40123` (TLS; trust `ca_file`)."""
        return self._started()["apns_url"]

    @property
    def host(self) -> str:
        """The host of `url` (`127.0.0.1`); the certificate also names `localhost`."""
        return urllib.parse.urlsplit(self.url).hostname or "127.0.0.1"

    @property
    def port(self) -> int:
        """The port of `url`, for clients configured by host and port."""
        return int(urllib.parse.urlsplit(self.url).port or 443)

    @property
    def http1_url(self) -> Optional[str]:
        """Plain HTTP/1.1 APNs endpoint (no TLS), e.g. `http://127.0.0.1:40124`; None for a container."""
        return self._started().get("http1_url")

    @property
    def control_url(self) -> str:
        """The control API and dashboard, e.g. `http://127.0.0.1:40125`."""
        return self._started()["control_url"]

    @property
    def ca_file(self) -> str:
        """Path of the CA (PEM) that signed the server's certificate: the sender's trusted root."""
        ca = self._started().get("ca_file")
        return ca if ca else str(self._certs_dir() / "ca.pem")

    @property
    def team_id(self) -> str:
        """Team id of the test signing key the mock trusts (`TESTTEAM01`)."""
        return self._started_key()["team_id"]

    @property
    def key_id(self) -> str:
        """Key id of the test signing key (`TESTKEY001`)."""
        return self._started_key()["key_id"]

    @property
    def key_file(self) -> str:
        """Path of the test signing key (.p8) the mock trusts, for clients that sign their own tokens."""
        return str(self._certs_dir() / self._started_key()["file"])

    def token(self) -> str:
        """A provider token (ES256 JWT) signed with the test key, for `authorization: bearer …`; the same one is
        returned for 20 minutes, as APNs wants. Minted by the mockapns binary (the standard library has no ECDSA)."""
        now = self._clock()
        if self._token is None or now - self._token_minted >= self.TOKEN_REUSE_SECONDS:
            binary = self._backend.binary if isinstance(self._backend, ProcessBackend) else find_binary()
            key = "%s:%s:%s" % (self.team_id, self.key_id, self.key_file)
            result = subprocess.run([binary, "token", "--key-file", key, "--json"], capture_output=True, text=True)
            if result.returncode != 0:
                raise MockAPNsError("`%s token --key-file %s` failed (exit %d): %s"
                                    % (binary, key, result.returncode, result.stderr.strip()))
            self._token, self._token_minted = json.loads(result.stdout)["token"], now
        return self._token

    # What the mock received

    def notifications(self, **filters: Any) -> List[Notification]:
        """The recorded pushes, oldest first, narrowed by the control API's filters: `token` (case-insensitive),
        `topic`, `push_type`, `status`, `reason`, `since` (records numbered above it), `limit` (the newest n)."""
        query = check_filters(filters)
        answer = self._client().request("GET", "/api/v1/notifications", query=query)
        return [Notification(record) for record in answer["notifications"]]

    def expect(self, count: Optional[int] = None, **filters: Any) -> List[Notification]:
        """Returns the recorded pushes matching `filters` (`token`, `topic`, `push_type`, `status`, `reason`;
        `since` narrows what is looked at). Raises AssertionError unless there are `count` of them (at least one
        when `count` is None; `count=0`: none), listing what was received, closest match first."""
        wanted = check_filters(filters, PROPERTY_FILTERS + ("since",))
        since = wanted.pop("since", None)
        received = self.notifications(since=since)
        message = failure_message(count, wanted, received)
        if message:
            raise AssertionError(message)
        return [n for n in received if matches(n, wanted)]

    def wait_for(self, count: int = 1, timeout: float = 10.0, **filters: Any) -> List[Notification]:
        """Waits until at least `count` recorded pushes match `filters` (as in `expect`) and returns them. After
        `timeout` seconds, raises AssertionError listing what did arrive, closest match first."""
        wanted = check_filters(filters, PROPERTY_FILTERS + ("since",))
        since = wanted.pop("since", None)
        deadline = time.monotonic() + timeout
        while True:
            received = self.notifications(since=since)
            matching = [n for n in received if matches(n, wanted)]
            if len(matching) >= count:
                return matching
            if time.monotonic() >= deadline:
                message = failure_message(count, wanted, received, at_least=True) or ""
                if not received:
                    message += " Is the sender pointed at url (or http1_url) and trusting ca_file?"
                raise AssertionError("Waited %g s. %s" % (timeout, message))
            time.sleep(0.05)

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
        wanted = {name: value for name, value in (("title", title), ("body", body)) if value is not None}
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
        `{"type": "stall"}`, `{"type": "drop"}`, `{"type": "goaway", "reason": "Shutdown"}`."""
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
        """Forgets the recorded pushes, device states, virtual-device changes and fault rules: the mock behaves as if
        just started (record numbering goes on)."""
        client = self._client()
        for path in ("/api/v1/notifications", "/api/v1/devices", "/api/v1/faults"):
            client.request("DELETE", path)

    # Internals

    def _started(self) -> Dict[str, Any]:
        if self._backend is None:
            raise MockAPNsError(self.stopped_reason)
        return self._ready

    def _started_key(self) -> Dict[str, str]:
        self._started()
        return self._key

    def _certs_dir(self) -> Path:
        self._started()
        assert self._certs is not None
        return self._certs

    @staticmethod
    def _device_path(token: str) -> str:
        return "/api/v1/devices/" + urllib.parse.quote(token, safe="")

    def _client(self) -> ControlClient:
        self._started()
        assert self._control is not None
        return self._control

    def __repr__(self) -> str:
        return "<MockAPNs %s>" % (self._ready.get("apns_url") if self._backend else "stopped")


def _default_key(certs: Path) -> Dict[str, str]:
    """The key `mockapns token` and `send` sign with by default: TESTKEY001, valid in both environments."""
    keys = json.loads((certs / "keys.json").read_text())
    for key in keys:
        if key.get("key_id") == "TESTKEY001":
            return key
    for key in keys:
        if key.get("environment") == "both" and not key.get("topics"):
            return key
    raise MockAPNsError("%s names no signing key valid in both environments; regenerate it (certs/generate.sh)."
                        % (certs / "keys.json"))


def _cleanup(backend: Any, workdir: Path) -> None:
    """Stops the backend and deletes the temporary folder (also when a MockAPNs is garbage collected unstopped)."""
    try:
        backend.stop()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


