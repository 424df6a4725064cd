"""A Testcontainers module for MockAPNs: the `mockapns` image as a `DockerContainer`, with the kit's API.

Needs testcontainers-python (`pip install mockapns[testcontainers]`); the rest of the kit does not.

    >>> from mockapns.testcontainers import MockAPNsContainer
    >>> with MockAPNsContainer() as apns:                       # doctest: +SKIP
    ...     send(url=apns.url, ca=apns.ca_file, key=apns.key_file, key_id=apns.key_id, team_id=apns.team_id)
    ...     apns.expect(count=1, topic="com.example.app", status=200)
"""

from __future__ import annotations

import json
import re
import secrets
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
from ._control import ControlClient, MockAPNsError
from ._intercept import APPLE_PORTS, Interception, apple_routes

#: The ports the image serves: APNs (HTTP/2 over TLS) and the control plane (HTTP).
APNS_PORT = 2197
CONTROL_PORT = 2198
#: A shell command printing a file of the test keys the image's mockapns signs with: certs/ beside the binary.
_CAT_CERT = 'cat "$(dirname "$(readlink -f "$(command -v mockapns)")")/certs/%s"'


class MockAPNsContainer(DockerContainer, ControlAPI):
    """The MockAPNs image (default `mockapns:latest`) with APNs (2197) and the control plane (2198) exposed; ready
    once `GET /healthz` answers. The control plane gets a random token unless `control_token` is given.

    `url`, `control_url`, `ca_file`, `key_file`, `key_id`, `team_id` and `token()` are what a sender needs;
    `notifications()`, `expect()`, `wait_for()`, `set_device()`, `device()`, `add_fault()`, `clear()`… are the kit's.
    `with_apple_hosts()` serves Apple's own host names too, and `intercept()` then leads them here.

    Example:

        .. doctest::

            >>> from mockapns.testcontainers import MockAPNsContainer
            >>> with MockAPNsContainer().with_apple_hosts() as apns:          # doctest: +SKIP
            ...     with apns.intercept():
            ...         your_sender.send(token="ab" * 32)     # to api.push.apple.com, unchanged
            ...     apns.expect(count=1, token="ab" * 32, status=200)
    """

    TOKEN_REUSE_SECONDS = 20 * 60

    def __init__(self, image: str = "mockapns:latest", *, control_token: Optional[str] = None,
                 **kwargs: Any) -> None:
        super().__init__(image, _wait_strategy=HttpWaitStrategy(CONTROL_PORT, "/healthz"), **kwargs)
        self.control_token = control_token or secrets.token_hex(16)
        self.apple_hosts = False
        self.with_exposed_ports(APNS_PORT, CONTROL_PORT)
        self.with_env("MOCKAPNS_CONTROL_TOKEN", self.control_token)
        self._workdir: Optional[Path] = None
        self._ca_file: Optional[str] = None
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

    def start(self) -> Self:
        super().start()
        self._workdir = Path(tempfile.mkdtemp(prefix="mockapns-tc-"))
        return self

    def stop(self, force: bool = True, delete_volume: bool = True) -> None:
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None
        self._ca_file = self._keys = self._token = None
        super().stop(force=force, delete_volume=delete_volume)

    # Where to connect

    @property
    def url(self) -> str:
        """Where HTTP/2 senders connect, e.g. `https://localhost:32768` (TLS; trust `ca_file`)."""
        return "https://%s:%d" % (self.get_container_host_ip(), int(self.get_exposed_port(APNS_PORT)))

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
        for 20 minutes, as APNs wants."""
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

    def intercept(self) -> Interception:
        """As `MockAPNs.intercept()`: inside the block this process reaches Apple's APNs hosts at this container and
        trusts its CA for them. Needs `with_apple_hosts()`."""
        self._check_interceptable()
        host = self.get_container_host_ip()
        return Interception(self, host, apple_routes(host, self.apple_ports), self.ca_file,
                            self._check_interceptable)

    def _check_interceptable(self) -> None:
        if self._container is None or self._workdir is None:
            raise MockAPNsError("intercept() needs a started container: `with MockAPNsContainer().with_apple_hosts() "
                                "as apns:` (or start() it) before `with apns.intercept():`.")
        if not self.apple_hosts:
            raise MockAPNsError("intercept() needs a container that serves Apple's host names: make it with "
                                "MockAPNsContainer().with_apple_hosts().")
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
