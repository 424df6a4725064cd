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
from typing import Any, Dict, Optional, Sequence

from ._api import ControlAPI
from ._backends import BUNDLED_DIR, ContainerBackend, ProcessBackend, find_binary, find_certs
from ._control import ControlClient, MockAPNsError
from ._fcm import DEFAULT_PROJECT
from ._intercept import GOOGLE_HOSTS, GOOGLE_PORT, Interception, apple_routes, google_routes


class MockAPNs(ControlAPI):
    """A mock APNs server for tests: `mockapns serve` on free loopback ports, stopped when the `with` block ends.

    ```python
    with MockAPNs() as mock:
        send_with_your_client(url=mock.url, ca=mock.ca_file, key=mock.key_file, key_id=mock.key_id,
                              team_id=mock.team_id)
        mock.expect(topic="com.example.app", status=200)
    ```

    The binary is `binary`, else $MOCKAPNS_BIN, else the one bundled in the wheel, else `mockapns` on PATH; `args`
    are more `mockapns serve` options. `apple_hosts=True` serves Apple's own host names too (`mockapns serve
    --apple-hosts`, with a CA of its own), which `intercept()` needs. `fcm=True` serves Google's FCM names as well
    (`mockapns serve --fcm`): `intercept()` then leads firebase-admin, pyfcm or async-firebase to the mock too, with
    the service account `fcm_service_account`. `MockAPNs.container(image=…)` runs the image with docker or podman
    instead.
    """

    #: The project of `fcm_service_account`, the one the mock makes at start.
    FCM_PROJECT = DEFAULT_PROJECT

    #: How long a provider token from `token()` is reused (kits/spec/launch.json): APNs refuses tokens refreshed more
    #: often than every 20 minutes and older than an hour.
    TOKEN_REUSE_SECONDS = 30 * 60

    def __init__(self, binary: Optional[str] = None, *, args: Sequence[str] = (), control_token: Optional[str] = None,
                 startup_timeout: float = 30.0, apple_hosts: bool = False, fcm: bool = False):
        if isinstance(args, (str, bytes)):
            raise TypeError("MockAPNs(args=…) is a list of `mockapns serve` arguments, e.g. [\"--log-level\", "
                            "\"debug\"], not the string %r" % (args,))
        self._binary = binary
        self._args = list(args)
        self._apple_hosts = apple_hosts
        self._fcm = fcm
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
                  startup_timeout: float = 60.0, apple_hosts: bool = False, fcm: bool = False) -> "MockAPNs":
        """A MockAPNs that runs `image` with docker or podman (`engine`, else $MOCKAPNS_CONTAINER_ENGINE, else
        whichever is on PATH) instead of a local binary. The control plane gets a random token unless
        `control_token` is given; HTTP/1.1 is served on the image's port 2200, published. `key_file` is the test key
        of the wheel (or $MOCKAPNS_CERTS_DIR), which the image trusts too; `token()` is minted in the container.
        `apple_hosts=True` sets MOCKAPNS_APPLE_HOSTS=1 and publishes Apple's ports 443, 2195 and 2196 as well, for
        `intercept()`; `fcm=True` sets MOCKAPNS_FCM=1 and publishes the FCM port 2199, which answers Google's names
        in `intercept()` (`fcm_service_account` is then a file the mock makes for this machine on first use)."""
        mock = cls(control_token=control_token or secrets.token_hex(16), startup_timeout=startup_timeout,
                   apple_hosts=apple_hosts, fcm=fcm)
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
                                                self._control_token or "", self._workdir,
                                                self._startup_timeout, apple_hosts=self._apple_hosts, fcm=self._fcm)
            else:
                backend = ProcessBackend(self._binary, self._args, self._control_token, self._workdir,
                                         self._startup_timeout, apple_hosts=self._apple_hosts, fcm=self._fcm)
            self._backend = backend
            self._finalizer = weakref.finalize(self, _cleanup, backend, self._workdir)
            self._ready = backend.start()
            # The test keys: the folder the mock says it trusts them from, beside the CA in use, beside the binary, or the
            # wheel's.
            candidates = [self._ready.get("certs_dir"),
                          str(Path(self._ready["ca_file"]).parent) if self._ready.get("ca_file") else None,
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
        """Plain HTTP/1.1 APNs endpoint (no TLS), e.g. `http://127.0.0.1:40124`, in either mode."""
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
        returned for 30 minutes (`TOKEN_REUSE_SECONDS`), as APNs wants. Minted by the mockapns binary (the standard
        library has no ECDSA): the container's own for a container (its bundled TESTKEY001), so no local binary is
        needed."""
        now = self._clock()
        if self._token is None or now - self._token_minted >= self.TOKEN_REUSE_SECONDS:
            if isinstance(self._backend, ContainerBackend):
                self._started_key()
                minted = json.loads(self._backend.exec("mockapns", "token", "--json"))
                self._token, self._token_minted = minted["token"], now
                return self._token
            binary = self._backend.binary if isinstance(self._backend, ProcessBackend) else find_binary()
            key = "%s:%s:%s" % (self.team_id, self.key_id, self.key_file)
            result = subprocess.run([binary, "token", "--key-file", key, "--json"], capture_output=True, text=True)
            if result.returncode != 0:
                raise MockAPNsError("`%s token --key-file %s` failed (exit %d): %s"
                                    % (binary, key, result.returncode, result.stderr.strip()))
            self._token, self._token_minted = json.loads(result.stdout)["token"], now
        return self._token

    # Apple's host names

    @property
    def apple_hosts(self) -> bool:
        """Whether this mock serves Apple's host names (started with `apple_hosts=True`)."""
        return self._apple_hosts

    @property
    def apple_ports(self) -> Dict[int, int]:
        """Apple's ports (443, 2197: pushes; 2195: sandbox channel management; 2196: production) → the local port
        that serves each; empty unless started with `apple_hosts=True`."""
        ports = self._started().get("apple_ports") or {}
        return {int(apple): int(local) for apple, local in ports.items()}

    # Google's FCM names (`serve --fcm`)

    @property
    def fcm(self) -> bool:
        """Whether this mock serves Google's FCM names (started with `fcm=True`)."""
        return self._fcm

    @property
    def fcm_url(self) -> str:
        """The mock's own FCM port, e.g. `https://127.0.0.1:40127` (TLS; trust `fcm_ca_file`), for senders given a
        URL; Google's names reach it inside `intercept()`."""
        url = self._started().get("fcm_url")
        if not url:
            raise MockAPNsError("This mock serves no FCM: make it with MockAPNs(fcm=True) (the fcm_mock fixture "
                                "does).")
        return url

    @property
    def fcm_ports(self) -> Dict[int, int]:
        """Google's port (443) → the local port that serves fcm.googleapis.com, oauth2.googleapis.com and
        iid.googleapis.com; empty unless started with `fcm=True`."""
        ports = self._started().get("fcm_ports") or {}
        return {int(google): int(local) for google, local in ports.items()}

    @property
    def fcm_ca_file(self) -> str:
        """The CA (PEM) the FCM ports' certificate chains to: this mock's own, the same as `ca_file`."""
        return self._started().get("fcm_ca_file") or self.ca_file

    @property
    def fcm_service_account(self) -> str:
        """Path of a service-account key file of project `mockapns-test` (`FCM_PROJECT`) that the mock trusts, as
        Google's console hands one out (`token_uri` https://oauth2.googleapis.com/token): give it to the sender,
        e.g. `firebase_admin.initialize_app(credentials.Certificate(mock.fcm_service_account))`. Another project's:
        `new_fcm_service_account(project)`."""
        path = self._started().get("fcm_service_account")
        if not self._fcm:
            raise MockAPNsError("This mock serves no FCM: make it with MockAPNs(fcm=True) (the fcm_mock fixture "
                                "does).")
        if not path:
            path = self._ready["fcm_service_account"] = self.new_fcm_service_account(self.FCM_PROJECT)
        return path

    def intercept(self) -> Interception:
        """A `with` block inside which this process reaches Apple's APNs hosts (api.push.apple.com,
        api.sandbox.push.apple.com, api.development.push.apple.com on 443 and 2197; the channel-management hosts
        api-manage-broadcast.sandbox.push.apple.com:2195 and api-manage-broadcast.push.apple.com:2196) at this mock,
        and, for a mock with `fcm=True`, Google's fcm.googleapis.com, oauth2.googleapis.com and iid.googleapis.com
        on 443; TLS to those names trusts its CA, so a sender runs as in production, unchanged. No root, nothing
        outside this process; other names (Apple's or Google's too, for a mock that does not serve them) are
        untouched, and everything is as before once the block ends. Process-wide: one `intercept()` block at a
        time."""
        self._check_interceptable()
        host = urllib.parse.urlsplit(self.url).hostname or "127.0.0.1"
        routes = apple_routes(host, self.apple_ports) if self._apple_hosts else {}
        ca_files = {}
        if self._fcm:
            routes.update(google_routes(host, self.fcm_ports))
            ca_files = {name: self.fcm_ca_file for name in GOOGLE_HOSTS}
        return Interception(self, host, routes, self.ca_file, self._check_interceptable, ca_files=ca_files)

    def _check_interceptable(self) -> None:
        if self._backend is None:
            raise MockAPNsError("intercept() needs a running mock: use `with MockAPNs(apple_hosts=True) as mock:` "
                                "(or start() it) before `with mock.intercept():`.")
        why = self._backend.death()
        if why is not None:
            raise MockAPNsError("intercept() needs a running mock. " + why)
        if not self._apple_hosts and not self._fcm:
            raise MockAPNsError("intercept() needs a mock that serves Apple's host names: make it with "
                                "MockAPNs(apple_hosts=True) (or MockAPNs.container(…, apple_hosts=True)); the "
                                "apns_mock fixture does unless the ini option mockapns_apple_hosts is false. For "
                                "Google's FCM names: MockAPNs(fcm=True), or the fcm_mock fixture.")
        if self._fcm and GOOGLE_PORT not in self.fcm_ports:
            raise MockAPNsError("intercept(): the mock's ready file names no listener for Google's port 443 "
                                "(fcm_ports: %r); this mockapns (%s) does not serve Google's names as the kit "
                                "expects: use a newer binary." % (self._ready.get("fcm_ports"),
                                                                  self._ready.get("version", "unknown version")))
        if not self._apple_hosts:
            return
        missing = [port for port in (443, 2197, 2195, 2196) if port not in self.apple_ports]
        if missing:
            raise MockAPNsError("intercept(): the mock's ready file names no listener for Apple's port%s %s "
                                "(apple_ports: %r); this mockapns (%s) does not serve Apple's host names as the kit "
                                "expects: use a newer binary." % ("s" if len(missing) > 1 else "",
                                                                  ", ".join(map(str, missing)),
                                                                  self._ready.get("apple_ports"),
                                                                  self._ready.get("version", "unknown version")))

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

    def _client(self) -> ControlClient:
        self._started()
        assert self._control is not None
        return self._control

    def _files(self) -> Path:
        self._started()
        assert self._workdir is not None
        return self._workdir

    def _serves_fcm(self) -> bool:
        return self._fcm

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


