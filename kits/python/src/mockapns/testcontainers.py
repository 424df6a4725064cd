"""A Testcontainers module for MockAPNs: the `mockapns` image as a `DockerContainer`, with the kit's API.

Needs testcontainers-python (`pip install mockapns[testcontainers]`); the rest of the kit does not.

    >>> from mockapns.testcontainers import MockAPNsContainer
    >>> with MockAPNsContainer() as apns:                       # doctest: +SKIP
    ...     send(url=apns.url, ca=apns.ca_file, key=apns.key_file, key_id=apns.key_id, team_id=apns.team_id)
    ...     apns.expect(count=1, topic="com.example.app", status=200)

`with_fcm()` serves Google's FCM names too (`MOCKAPNS_FCM=1`): `fcm_url`, `fcm_service_account` and `fcm_ca_file`
are what a Firebase sender needs, and `intercept()` leads firebase-admin to the container unchanged.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Optional

try:
    from testcontainers.core.container import DockerContainer
    from testcontainers.core.wait_strategies import HttpWaitStrategy
    from typing_extensions import Self
except ImportError as error:
    raise ImportError("mockapns.testcontainers needs testcontainers-python: pip install 'mockapns[testcontainers]' "
                      "(or pip install testcontainers)") from error

from ._api import ControlAPI
from ._backends import CONTAINER_LABEL, OWNER_LABEL
from ._control import ControlClient, MockAPNsError
from ._fcm import DEFAULT_PROJECT
from ._intercept import APPLE_PORTS, GOOGLE_HOSTS, GOOGLE_PORT, Interception, apple_routes, google_routes

#: The ports the image serves: APNs (HTTP/2 over TLS), the control plane (HTTP) and plain HTTP/1.1 APNs, which the
#: module turns on (kits/spec/launch.json).
APNS_PORT = 2197
CONTROL_PORT = 2198
HTTP1_PORT = 2200
#: The image's own FCM port (`MOCKAPNS_FCM=1`): FCM HTTP v1, the OAuth token exchange and IID, told apart by path.
FCM_PORT = 2199
#: A shell command printing a file of the test keys the image's mockapns signs with: certs/ beside the binary.
_CAT_CERT = 'cat "$(dirname "$(readlink -f "$(command -v mockapns)")")/certs/%s"'


class MockAPNsContainer(DockerContainer, ControlAPI):
    """The MockAPNs image (default `mockapns:latest`) with APNs (2197) and the control plane (2198) exposed; ready
    once `GET /healthz` answers. The control plane gets a random token unless `control_token` is given.

    `url`, `control_url`, `ca_file`, `key_file`, `key_id`, `team_id` and `token()` are what a sender needs;
    `notifications()`, `expect()`, `wait_for()`, `set_device()`, `device()`, `add_fault()`, `clear()`… are the kit's.
    `with_apple_hosts()` serves Apple's own host names too, and `intercept()` then leads them here. `with_fcm()` serves
    Google's FCM names (`fcm_url`, `fcm_service_account`, `fcm_ca_file`; `register_fcm()`, `fcm_messages()`,
    `expect_fcm()`, `apns_pushes_of()`), which `intercept()` then leads here too.

    Example:

        .. doctest::

            >>> from mockapns.testcontainers import MockAPNsContainer
            >>> with MockAPNsContainer().with_apple_hosts() as apns:          # doctest: +SKIP
            ...     with apns.intercept():
            ...         your_sender.send(token="ab" * 32)     # to api.push.apple.com, unchanged
            ...     apns.expect(count=1, token="ab" * 32, status=200)
    """

    #: How long `token()` hands out the same token (kits/spec/launch.json).
    TOKEN_REUSE_SECONDS = 30 * 60
    #: The project of `fcm_service_account`, the one the mock makes at start.
    FCM_PROJECT = DEFAULT_PROJECT
    #: How long `start()` waits, after GET /healthz answers, for the ready file to name the HTTP/1.1 (and FCM) listener.
    FCM_STARTUP_TIMEOUT = 30.0

    def __init__(self, image: str = "mockapns:latest", *, control_token: Optional[str] = None,
                 **kwargs: Any) -> None:
        # launch.json's labels, beside Testcontainers' own: `podman ps --filter label=io.mockapns.kit` finds it.
        kwargs["labels"] = {CONTAINER_LABEL: "python", OWNER_LABEL: str(os.getpid()), **(kwargs.get("labels") or {})}
        super().__init__(image, _wait_strategy=HttpWaitStrategy(CONTROL_PORT, "/healthz"), **kwargs)
        self.control_token = control_token or secrets.token_hex(16)
        self.apple_hosts = False
        self.fcm = False
        self.with_exposed_ports(APNS_PORT, CONTROL_PORT, HTTP1_PORT)
        self.with_env("MOCKAPNS_CONTROL_TOKEN", self.control_token)
        self.with_envs(MOCKAPNS_HTTP1_HOST="0.0.0.0", MOCKAPNS_HTTP1_PORT=str(HTTP1_PORT))
        self._workdir: Optional[Path] = None
        self._ca_file: Optional[str] = None
        self._ready: Dict[str, Any] = {}
        self._fcm_files: Dict[str, str] = {}
        self._keys: Optional[Dict[str, str]] = None
        self._token: Optional[str] = None
        self._token_minted = 0.0

    def with_apple_hosts(self) -> Self:
        """Serves Apple's host names as well (MOCKAPNS_APPLE_HOSTS=1, a CA of the container's own) on Apple's ports
        443 and 2197 (pushes), 2195 and 2196 (channel management), all exposed, for `intercept()`."""
        self.apple_hosts = True
        self.with_env("MOCKAPNS_APPLE_HOSTS", "1")
        self.with_envs(MOCKAPNS_APPLE_HTTPS_PORT="443", MOCKAPNS_MANAGE_SANDBOX_PORT="2195",
                       MOCKAPNS_MANAGE_PRODUCTION_PORT="2196")
        self.with_exposed_ports(*(port for port in APPLE_PORTS if port != APNS_PORT))
        return self

    def with_fcm(self) -> Self:
        """Serves Google's FCM names as well (MOCKAPNS_FCM=1, `mockapns serve --fcm`): FCM HTTP v1
        (`messages:send`), the service account's OAuth token exchange (`/token`) and IID topic management on the
        image's FCM port 2199, exposed, with a certificate for fcm.googleapis.com, oauth2.googleapis.com,
        iid.googleapis.com and the loopback names from the container's CA. `fcm_url`, `fcm_service_account` and
        `fcm_ca_file` are the sender's; `intercept()` leads Google's three names to that port."""
        self.fcm = True
        # intercept() leads Google's names to 2199, which serves the same three APIs, so Google's 443 moves to a free
        # port inside the container that nothing publishes, and the container's 443 stays Apple's alone.
        self.with_envs(MOCKAPNS_FCM="1", MOCKAPNS_FCM_PORT=str(FCM_PORT), MOCKAPNS_FCM_HTTPS_PORT="0")
        self.with_exposed_ports(FCM_PORT)
        return self

    def start(self) -> Self:
        super().start()
        self._workdir = Path(tempfile.mkdtemp(prefix="mockapns-tc-"))
        try:
            self._ready = self._wait_for_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, force: bool = True, delete_volume: bool = True) -> None:
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None
        self._ca_file = self._keys = self._token = None
        self._ready, self._fcm_files = {}, {}
        super().stop(force=force, delete_volume=delete_volume)

    # Where to connect

    @property
    def url(self) -> str:
        """Where HTTP/2 senders connect, e.g. `https://localhost:32768` (TLS; trust `ca_file`)."""
        return "https://%s:%d" % (self.get_container_host_ip(), int(self.get_exposed_port(APNS_PORT)))

    @property
    def http1_url(self) -> str:
        """The plain HTTP/1.1 APNs endpoint (no TLS), e.g. `http://localhost:32770`."""
        return "http://%s:%d" % (self.get_container_host_ip(), int(self.get_exposed_port(HTTP1_PORT)))

    @property
    def control_url(self) -> str:
        """The control API and dashboard, e.g. `http://localhost:32769`."""
        return "http://%s:%d" % (self.get_container_host_ip(), int(self.get_exposed_port(CONTROL_PORT)))

    @property
    def ca_file(self) -> str:
        """Path of the CA (PEM) the container's certificate is signed by, read from `GET /api/v1/ca.pem`."""
        if self._ca_file is None:
            path = self._work() / "ca.pem"
            path.write_bytes(self._client().request_bytes("GET", "/api/v1/ca.pem"))
            self._ca_file = str(path)
        return self._ca_file

    @property
    def key_id(self) -> str:
        """Key id of the image's test signing key (`TESTKEY001`)."""
        return self._key()["key_id"]

    @property
    def team_id(self) -> str:
        """Team id of that key (`TESTTEAM01`)."""
        return self._key()["team_id"]

    @property
    def key_file(self) -> str:
        """A local copy of the image's test signing key (.p8), for clients that sign their own tokens."""
        key = self._key()
        path = self._work() / key["file"]
        if not path.exists():
            path.write_bytes(self._exec(_CAT_CERT % key["file"]))
        return str(path)

    def token(self) -> str:
        """A provider token (ES256 JWT) signed with the test key by the container's `mockapns token`; the same one
        for 30 minutes, as APNs wants."""
        now = time.monotonic()
        if self._token is None or now - self._token_minted >= self.TOKEN_REUSE_SECONDS:
            self._token = json.loads(self._exec("mockapns token --json"))["token"]
            self._token_minted = now
        return self._token

    # Apple's host names

    @property
    def apple_ports(self) -> Dict[int, int]:
        """Apple's ports → the host ports they are published on; empty without `with_apple_hosts()`."""
        if not self.apple_hosts:
            return {}
        return {port: int(self.get_exposed_port(port)) for port in APPLE_PORTS}

    # Google's FCM names (`with_fcm()`)

    @property
    def fcm_url(self) -> str:
        """The container's FCM port as published, e.g. `https://localhost:32771` (TLS; trust `fcm_ca_file`): FCM HTTP
        v1 at `/v1/projects/P/messages:send`, the OAuth token exchange at `/token`, IID at `/iid/v1:batchAdd`."""
        self._need_fcm("fcm_url")
        return "https://%s:%d" % (self.get_container_host_ip(), int(self.get_exposed_port(FCM_PORT)))

    @property
    def fcm_ports(self) -> Dict[int, int]:
        """Google's port (443) → the host port that serves Google's names (the published FCM port); empty without
        `with_fcm()`."""
        if not self.fcm:
            return {}
        return {GOOGLE_PORT: int(self.get_exposed_port(FCM_PORT))}

    @property
    def fcm_service_account(self) -> str:
        """A local copy of the service-account key file of project `mockapns-test` (`FCM_PROJECT`) that the container
        made at start and trusts (the ready file's `fcm_service_account`), as Google's console hands one out:
        `credentials.Certificate(apns.fcm_service_account)`. Another project's: `new_fcm_service_account(project)`."""
        self._need_fcm("fcm_service_account")
        return self._fcm_file("fcm_service_account", "service-account-%s.json" % self.FCM_PROJECT, private=True)

    @property
    def fcm_ca_file(self) -> str:
        """A local copy of the CA (PEM) the FCM port's certificate chains to (the ready file's `fcm_ca_file`)."""
        self._need_fcm("fcm_ca_file")
        return self._fcm_file("fcm_ca_file", "fcm-ca.pem")

    def intercept(self) -> Interception:
        """As `MockAPNs.intercept()`: inside the block this process reaches Apple's APNs hosts (with
        `with_apple_hosts()`) and Google's fcm.googleapis.com, oauth2.googleapis.com and iid.googleapis.com on 443
        (with `with_fcm()`) at this container, and trusts its CA for them."""
        self._check_interceptable()
        host = self.get_container_host_ip()
        routes = apple_routes(host, self.apple_ports) if self.apple_hosts else {}
        ca_files = {}
        if self.fcm:
            routes.update(google_routes(host, self.fcm_ports))
            ca_files = {name: self.fcm_ca_file for name in GOOGLE_HOSTS}
        return Interception(self, host, routes, self.ca_file, self._check_interceptable, ca_files=ca_files)

    def _check_interceptable(self) -> None:
        if self._container is None or self._workdir is None:
            raise MockAPNsError("intercept() needs a started container: `with MockAPNsContainer().with_apple_hosts() "
                                "as apns:` (or start() it) before `with apns.intercept():`.")
        if not self.apple_hosts and not self.fcm:
            raise MockAPNsError("intercept() needs a container that serves Apple's host names: make it with "
                                "MockAPNsContainer().with_apple_hosts(); for Google's FCM names, "
                                "MockAPNsContainer().with_fcm().")
        self._container.reload()
        if self._container.status != "running":
            raise MockAPNsError("intercept() needs a running container; %s is %s. Its output:\n%s"
                                % (self._container.short_id, self._container.status,
                                   self._container.logs().decode("utf-8", "replace")[-2000:]))

    # Internals

    def _client(self) -> ControlClient:
        if self._container is None or self._workdir is None:
            raise MockAPNsError("This MockAPNsContainer is not started: use `with MockAPNsContainer() as apns:` or "
                                "call start().")
        return ControlClient(self.control_url, self.control_token)

    def _files(self) -> Path:
        return self._work()

    def _serves_fcm(self) -> bool:
        return self.fcm

    def _need_fcm(self, what: str) -> None:
        if not self.fcm:
            raise MockAPNsError("%s: this container serves no FCM; make it with MockAPNsContainer().with_fcm()." % what)
        self._work()

    def _wait_for_ready(self) -> Dict[str, Any]:
        """The container's ready file once it names the HTTP/1.1 listener (and, with FCM, the FCM one). GET /healthz
        answers before every listener is up, and a request to the HTTP/1.1 port would be recorded; the ready file is
        written (atomically) only once they all are."""
        deadline = time.monotonic() + self.FCM_STARTUP_TIMEOUT
        while True:
            result = self.exec(["sh", "-c", 'cat "$MOCKAPNS_READY_FILE"'])
            if result.exit_code == 0:
                try:
                    ready = json.loads(result.output)
                except ValueError:
                    ready = {}
                if ready.get("apns_url"):      # written: every listener is up
                    if ready.get("http1_url") and (ready.get("fcm_url") or not self.fcm):
                        return ready
                    what = ("FCM though it was given MOCKAPNS_FCM=1", "the FCM front door") if ready.get("http1_url") \
                        else ("HTTP/1.1 though it was given MOCKAPNS_HTTP1_PORT", "the HTTP/1.1 endpoint")
                    raise MockAPNsError("The %s container serves no %s: its mockapns (%s) predates %s; rebuild the "
                                        "image (make image)." % (self.image, what[0],
                                                                 ready.get("version", "unknown version"), what[1]))
            if time.monotonic() > deadline:
                raise MockAPNsError("The %s container's ready file ($MOCKAPNS_READY_FILE) named no http1_url%s within "
                                    "%g s. Its output:\n%s" % (self.image, " or fcm_url" if self.fcm else "",
                                                              self.FCM_STARTUP_TIMEOUT,
                                                              self._container.logs().decode("utf-8", "replace")[-2000:]
                                                              if self._container else ""))
            time.sleep(0.2)

    def _fcm_file(self, field: str, name: str, private: bool = False) -> str:
        """A local copy of the container's file that its ready file names in `field`."""
        if field not in self._fcm_files:
            inside = self._ready.get(field)
            if not isinstance(inside, str) or not inside:
                raise MockAPNsError("The %s container's ready file names no %s (it has %s); rebuild the image "
                                    "(make image)." % (self.image, field, ", ".join(sorted(self._ready)) or "nothing"))
            path = self._work() / name
            path.write_bytes(self._exec("cat " + shlex.quote(inside)))
            if private:
                os.chmod(path, 0o600)
            self._fcm_files[field] = str(path)
        return self._fcm_files[field]

    def _work(self) -> Path:
        if self._workdir is None:
            raise MockAPNsError("This MockAPNsContainer is not started: use `with MockAPNsContainer() as apns:` or "
                                "call start().")
        return self._workdir

    def _exec(self, command: str) -> bytes:
        self._work()
        result = self.exec(["sh", "-c", command])
        if result.exit_code != 0:
            raise MockAPNsError("`%s` in the %s container failed (exit %s): %s"
                                % (command, self.image, result.exit_code,
                                   result.output.decode("utf-8", "replace").strip()))
        return result.output

    def _key(self) -> Dict[str, str]:
        """The key `mockapns token` signs with by default (TESTKEY001), from the image's keys.json."""
        if self._keys is None:
            keys = json.loads(self._exec(_CAT_CERT % "keys.json"))
            chosen = next((key for key in keys if key.get("key_id") == "TESTKEY001"), None)
            if chosen is None or not re.fullmatch(r"[A-Za-z0-9._-]+", str(chosen.get("file", ""))):
                raise MockAPNsError("The %s image's keys.json has no TESTKEY001 with a plain file name, the key "
                                    "`mockapns token` signs with; rebuild the image (make image)." % self.image)
            self._keys = chosen
        return self._keys

    def __repr__(self) -> str:
        return "<MockAPNsContainer %s%s>" % (self.image, " " + self._container.short_id if self._container else "")


__all__ = ["MockAPNsContainer"]
