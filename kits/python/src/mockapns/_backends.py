"""Where a MockAPNs runs: a `mockapns serve` child process, or a container (docker or podman)."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import secrets
import signal
import socket
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ._control import MockAPNsError

#: The binary and test certificates the platform wheel carries (absent in a source checkout).
BUNDLED_DIR = Path(__file__).resolve().parent / "_bin"


def find_binary(explicit: Optional[str] = None) -> str:
    """The `mockapns` to run: `explicit`, else $MOCKAPNS_BIN, else the one in the wheel, else the one on PATH."""
    if explicit is not None:
        return _executable(explicit, "the binary given to MockAPNs")
    if os.environ.get("MOCKAPNS_BIN"):
        return _executable(os.environ["MOCKAPNS_BIN"], "MOCKAPNS_BIN")
    if (BUNDLED_DIR / "mockapns").is_file():
        return _executable(str(BUNDLED_DIR / "mockapns"), "the binary bundled in the mockapns wheel")
    on_path = shutil.which("mockapns")
    if on_path:
        return on_path
    raise MockAPNsError(
        "No mockapns binary: set MOCKAPNS_BIN to one (`make dist` or `swift build --product mockapns` builds it), "
        "install the platform wheel (`make wheel`), which bundles it, or put mockapns on PATH.")


def _executable(path: str, source: str) -> str:
    if not os.path.isfile(path):
        raise MockAPNsError("%s is %s, which is not a file; point it at a built mockapns binary." % (source, path))
    if not os.access(path, os.X_OK):
        raise MockAPNsError("%s is %s, which is not executable; run `chmod +x %s`." % (source, path, path))
    return os.path.abspath(path)


def find_certs(candidates: Sequence[Optional[str]]) -> Path:
    """The first folder holding the test keys (keys.json): $MOCKAPNS_CERTS_DIR, else `candidates` in order."""
    tried: List[str] = []
    for folder in [os.environ.get("MOCKAPNS_CERTS_DIR"), *candidates]:
        if folder and folder not in tried:
            tried.append(folder)
            if (Path(folder) / "keys.json").is_file():
                return Path(folder).resolve()
    raise MockAPNsError(
        "Cannot find the test signing keys (keys.json) in %s; set MOCKAPNS_CERTS_DIR to the repository's certs/ "
        "folder or the one beside the mockapns binary." % (", ".join(tried) or "any known folder"))


#: swift-argument-parser's answer to an option the binary does not have, for one of those apple_hosts passes.
_UNKNOWN_APPLE_OPTION = re.compile(r"unknown option '--(apple-hosts|apple-https-port|manage-(sandbox|production)-port)'",
                                   re.IGNORECASE)


#: The same for fcm=True (`--fcm` and its port options).
_UNKNOWN_FCM_OPTION = re.compile(r"unknown option '--(fcm|fcm-port|fcm-https-port)'", re.IGNORECASE)


#: Apple's ports besides 2197 that a container with apple_hosts publishes: 443 (pushes) and 2195/2196 (channels).
APPLE_CONTAINER_PORTS = (443, 2195, 2196)
#: The image's ports: APNs (TLS), the control plane, FCM (`MOCKAPNS_FCM=1`), and HTTP/1.1, which the kit turns on
#: beside them (kits/spec/launch.json).
APNS_CONTAINER_PORT = 2197
CONTROL_CONTAINER_PORT = 2198
FCM_CONTAINER_PORT = 2199
HTTP1_CONTAINER_PORT = 2200
#: Every container the kit starts carries these labels (kit, test process), so `podman rm -f $(podman ps -aq
#: --filter label=io.mockapns.kit)` removes any a killed test process left.
CONTAINER_LABEL = "io.mockapns.kit"
OWNER_LABEL = "io.mockapns.pid"


def _tail(text: str, lines: int = 20) -> str:
    kept = text.strip().splitlines()[-lines:]
    return "\n".join("    " + line for line in kept) if kept else "    (no output)"


class ProcessBackend:
    """`mockapns serve` on free loopback ports, as a child process; its output goes to a log file in `workdir`."""

    def __init__(self, binary: Optional[str], args: Sequence[str], control_token: Optional[str], workdir: Path,
                 startup_timeout: float, apple_hosts: bool = False, fcm: bool = False):
        self.binary = find_binary(binary)
        self.args = list(args)
        self.apple_hosts = apple_hosts
        self.fcm = fcm
        self.control_token = control_token
        self.workdir = workdir
        self.startup_timeout = startup_timeout
        self.process: Optional[subprocess.Popen] = None
        self.log_path = workdir / "serve.log"

    def start(self) -> Dict[str, Any]:
        """Starts the server and returns its ready file (apns_url, control_url, http1_url, ca_file, pid, version;
        with fcm, fcm_url, fcm_ports, fcm_service_account)."""
        ready_path = self.workdir / "ready.json"
        command = [self.binary, *self.serve_arguments(ready_path)]
        env = dict(os.environ)
        if self.fcm:
            # The default project's service account is "made once in the data folder": this mock's own folder, so
            # its private key dies with the mock and two mocks starting at once do not share (or race for) one.
            env["XDG_DATA_HOME"] = str(self.workdir / "data")
        env.pop("MOCKAPNS_CONTROL_TOKEN", None)      # one set for another mock would lock the kit out
        if self.control_token:
            env["MOCKAPNS_CONTROL_TOKEN"] = self.control_token   # kept out of `ps`, unlike --control-token
        with open(self.log_path, "wb") as log:
            try:
                self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                                env=env)
            except OSError as error:
                raise MockAPNsError("Cannot run %s: %s. Point MOCKAPNS_BIN at a mockapns built for this machine."
                                    % (self.binary, error)) from None
        deadline = time.monotonic() + self.startup_timeout
        while True:
            if self.process.poll() is not None:
                output = self._log()
                hint = ""
                if self.apple_hosts and _UNKNOWN_APPLE_OPTION.search(output):
                    hint = ("\nThis mockapns does not know --apple-hosts (apple_hosts=True, which intercept() and the "
                            "apns_mock fixture use): point MOCKAPNS_BIN at a newer build, or turn it off "
                            "(MockAPNs(apple_hosts=False); for the fixture, the ini option mockapns_apple_hosts = false).")
                if self.fcm and _UNKNOWN_FCM_OPTION.search(output):
                    hint = ("\nThis mockapns does not know --fcm (fcm=True, which the fcm_mock fixture and the ini "
                            "option mockapns_fcm use): point MOCKAPNS_BIN at a build with the FCM front door.")
                raise MockAPNsError("`%s` exited with %s before it was ready. Its output:\n%s%s"
                                    % (" ".join(command), self._exit_text(), _tail(output), hint))
            try:
                ready = json.loads(ready_path.read_text())
                if ready.get("apns_url") and ready.get("control_url"):
                    if self.fcm and not ready.get("fcm_url"):
                        self.stop()
                        raise MockAPNsError("`%s` started, but its ready file names no fcm_url: this mockapns (%s) "
                                            "does not serve FCM as the kit expects; use a newer binary."
                                            % (" ".join(command), ready.get("version", "unknown version")))
                    return ready
            except (OSError, ValueError):
                pass  # not written yet (the server writes it atomically once every listener is up)
            if time.monotonic() > deadline:
                self.stop()
                raise MockAPNsError("`%s` did not write its ready file within %g s. Its output:\n%s"
                                    % (" ".join(command), self.startup_timeout, _tail(self._log())))
            time.sleep(0.02)

    def serve_arguments(self, ready_path: Path) -> List[str]:
        """`mockapns …` as kits/spec/launch.json's binary cases have it, then the test's own `args`."""
        command = ["serve", "--port", "0", "--control-port", "0", "--http1-port", "0", "--ready-file", str(ready_path),
                   "--quiet"]
        if self.apple_hosts:
            # A CA of this mock's own, in its temporary folder: its key dies with the mock, so the trust intercept()
            # adds to a client's TLS context vouches for nothing else.
            command += ["--apple-hosts", "--ca-dir", str(self.workdir / "ca"), "--apple-https-port", "0",
                        "--manage-sandbox-port", "0", "--manage-production-port", "0"]
        if self.fcm:
            # Google's names: the same CA of this mock's own (one CA for Apple's names and Google's), the mock's FCM
            # port and Google's 443 on free ports.
            if not self.apple_hosts:
                command += ["--ca-dir", str(self.workdir / "ca")]
            command += ["--fcm", "--fcm-port", "0", "--fcm-https-port", "0"]
        return command + self.args

    @property
    def pid(self) -> Optional[int]:
        return self.process.pid if self.process else None

    def death(self) -> Optional[str]:
        """None while the server runs; otherwise a sentence saying how it ended, with its last output."""
        if self.process is None or self.process.poll() is None:
            return None
        return ("The mockapns server (pid %d) has stopped: it exited with %s. Its last output:\n%s\n"
                "Start a new MockAPNs (the apns_mock fixture starts one for the next test)."
                % (self.process.pid, self._exit_text(), _tail(self._log())))

    def _exit_text(self) -> str:
        code = self.process.returncode if self.process else None
        if code is not None and code < 0:
            try:
                return "signal %s" % signal.Signals(-code).name
            except ValueError:
                return "signal %d" % -code
        return "code %s" % code

    def _log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        """SIGTERM (the server flushes and exits), then SIGKILL after 10 s."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class ContainerBackend:
    """The mockapns image under docker or podman, started as kits/spec/launch.json says: ports 2197 (APNs, TLS), 2198
    (control, needing MOCKAPNS_CONTROL_TOKEN) and 2200 (HTTP/1.1, which the kit turns on) published on free loopback
    ports; the CA in use read from GET /api/v1/ca.pem. With
    `apple_hosts`, MOCKAPNS_APPLE_HOSTS=1 and Apple's ports 443, 2195 and 2196 published too. With `fcm`,
    MOCKAPNS_FCM=1 and the FCM port 2199 published (it answers Google's three names too, so Google's 443 stays
    inside the container, on a free port that cannot clash with Apple's); its CA, the container's private one, is
    copied out from the path its ready file names."""

    def __init__(self, image: str, engine: Optional[str], control_token: str, workdir: Path, startup_timeout: float,
                 apple_hosts: bool = False, fcm: bool = False):
        self.image = image
        self.apple_hosts = apple_hosts
        self.fcm = fcm
        wanted = engine or os.environ.get("MOCKAPNS_CONTAINER_ENGINE")
        found = shutil.which(wanted) if wanted else shutil.which("docker") or shutil.which("podman")
        if not found:
            raise MockAPNsError(
                ("MockAPNs.container: the container engine %r is not an executable found on PATH; " % wanted
                 if wanted else "MockAPNs.container needs docker or podman on PATH (or MOCKAPNS_CONTAINER_ENGINE); ")
                + "install one, or use MockAPNs() to run the mockapns binary instead.")
        self.engine = found
        self.control_token = control_token
        self.workdir = workdir
        self.startup_timeout = startup_timeout
        self.container_id: Optional[str] = None
        self.name = "mockapns-python-" + secrets.token_hex(6)

    def _run(self, *args: str, check: bool = True, env: Optional[Dict[str, str]] = None) -> str:
        result = subprocess.run([self.engine, *args], capture_output=True, text=True, env=env)
        if check and result.returncode != 0:
            raise MockAPNsError("`%s %s` failed (exit %d): %s"
                                % (self.engine, " ".join(args), result.returncode, result.stderr.strip()))
        return result.stdout.strip()

    def start(self) -> Dict[str, Any]:
        inspect = subprocess.run([self.engine, "image", "inspect", self.image], capture_output=True, text=True)
        if inspect.returncode != 0:
            raise MockAPNsError("%s cannot find the image %r (%s). Build or pull it first (and start the engine's "
                                "daemon if it is down), or use MockAPNs() to run the mockapns binary."
                                % (self.engine, self.image, (inspect.stderr.strip().splitlines() or ["no output"])[-1]))
        env = dict(os.environ, MOCKAPNS_CONTROL_TOKEN=self.control_token)
        self.container_id = self._run(*self.run_arguments(), env=env)
        apns_port, control_port = self._published(APNS_CONTAINER_PORT), self._published(CONTROL_CONTAINER_PORT)
        control_url = "http://127.0.0.1:%d" % control_port
        http1_url = "http://127.0.0.1:%d" % self._published(HTTP1_CONTAINER_PORT)
        # Each TLS listener to check, with the name to ask for: with apple_hosts, Apple's push host on 443 too.
        listeners = [(apns_port, "127.0.0.1")]
        if self.apple_hosts:
            listeners.append((self._published(443), "api.push.apple.com"))
        deadline = time.monotonic() + self.startup_timeout
        ca_path = self.workdir / "ca.pem"
        # The HTTP/1.1 endpoint starts after the control plane, and a request to it would be recorded: the
        # container's ready file, written once every listener is up, says it listens.
        while (not self._serves(control_url, listeners, ca_path) or "http1_url" not in self._inside_ready()
               or (self.fcm and not self._serves_fcm())):
            why = self.death()
            if why:
                raise MockAPNsError(why)
            if time.monotonic() > deadline:
                logs = self._logs()
                self.stop()
                where = " and ".join("127.0.0.1:%d (TLS as %s)" % listener for listener in listeners)
                hint = (" An image whose mockapns predates --apple-hosts ignores MOCKAPNS_APPLE_HOSTS and never serves "
                        "Apple's names: rebuild it, or drop apple_hosts=True." if self.apple_hosts else "")
                if self.fcm:
                    hint += (" An image whose mockapns predates the FCM front door ignores MOCKAPNS_FCM and never "
                             "serves %d: rebuild it (make image), or drop fcm=True." % FCM_CONTAINER_PORT)
                raise MockAPNsError("The %s container did not answer on %s, %s and %s (HTTP/1.1) within %g s.%s Its "
                                    "output:\n%s" % (self.image, where, control_url, http1_url, self.startup_timeout,
                                                     hint, _tail(logs)))
            time.sleep(0.2)
        ready: Dict[str, Any] = {"apns_url": "https://127.0.0.1:%d" % apns_port, "control_url": control_url,
                                 "http1_url": http1_url, "ca_file": str(ca_path)}
        if self.apple_hosts:
            ready["apple_ports"] = {str(APNS_CONTAINER_PORT): apns_port,
                                    **{str(port): self._published(port) for port in APPLE_CONTAINER_PORTS}}
        if self.fcm:
            fcm_port = self._published(FCM_CONTAINER_PORT)
            # No fcm_service_account: the container's path means nothing here; the mock makes one on request.
            ready.update(fcm_url="https://127.0.0.1:%d" % fcm_port, fcm_ports={"443": fcm_port},
                         fcm_ca_file=str(self.workdir / "fcm-ca.pem"))
        return ready

    def run_arguments(self) -> List[str]:
        """`<engine> run …` as kits/spec/launch.json's container cases have it: the image with HTTP/1.1 on, Apple's
        names (with apple_hosts) and the FCM port (with fcm), every port published on a free loopback port, the
        control token passed by name from the engine's environment."""
        options = ["run", "-d", "--pull=never", "--name", self.name, "--label", CONTAINER_LABEL + "=python",
                   "--label", "%s=%d" % (OWNER_LABEL, os.getpid()), "-e", "MOCKAPNS_CONTROL_TOKEN",
                   "-e", "MOCKAPNS_HTTP1_HOST=0.0.0.0", "-e", "MOCKAPNS_HTTP1_PORT=%d" % HTTP1_CONTAINER_PORT]
        ports = [APNS_CONTAINER_PORT, CONTROL_CONTAINER_PORT, HTTP1_CONTAINER_PORT]
        if self.apple_hosts:
            # Apple's ports inside the container, whatever the image's defaults, so the published ones are known.
            options += ["-e", "MOCKAPNS_APPLE_HOSTS=1", "-e", "MOCKAPNS_APPLE_HTTPS_PORT=443",
                        "-e", "MOCKAPNS_MANAGE_SANDBOX_PORT=2195", "-e", "MOCKAPNS_MANAGE_PRODUCTION_PORT=2196"]
            ports += APPLE_CONTAINER_PORTS
        if self.fcm:
            options += ["-e", "MOCKAPNS_FCM=1", "-e", "MOCKAPNS_FCM_PORT=%d" % FCM_CONTAINER_PORT,
                        "-e", "MOCKAPNS_FCM_HTTPS_PORT=0"]
            ports.append(FCM_CONTAINER_PORT)
        for port in ports:
            options += ["-p", "127.0.0.1::%d" % port]
        return options + [self.image, "serve"]

    def _inside_ready(self) -> Dict[str, Any]:
        """The container's ready file ($MOCKAPNS_READY_FILE, written once every listener is up); {} until then."""
        text = self._run("exec", self.name, "sh", "-c", 'cat "$MOCKAPNS_READY_FILE"', check=False)
        try:
            ready = json.loads(text) if text else {}
        except ValueError:
            return {}
        return ready if isinstance(ready, dict) else {}

    def _serves_fcm(self) -> bool:
        """Whether the container's ready file names its FCM listener, its CA is copied out, and a TLS handshake as
        fcm.googleapis.com verifies with it on the published port."""
        inside = self._inside_ready().get("fcm_ca_file")
        if not inside:
            return False
        ca = self._run("exec", self.name, "cat", inside, check=False)
        if "BEGIN CERTIFICATE" not in ca:
            return False
        ca_path = self.workdir / "fcm-ca.pem"
        ca_path.write_text(ca + "\n")
        try:
            context = ssl.create_default_context(cafile=str(ca_path))
            with socket.create_connection(("127.0.0.1", self._published(FCM_CONTAINER_PORT)), timeout=2) as raw:
                with context.wrap_socket(raw, server_hostname="fcm.googleapis.com"):
                    return True
        except (OSError, ssl.SSLError):
            return False

    def exec(self, *command: str) -> str:
        """The output of `command` run in the container."""
        return self._run("exec", self.name, *command)

    def _logs(self) -> str:
        """The container's output (its stdout and stderr together)."""
        result = subprocess.run([self.engine, "logs", self.container_id or ""], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        return result.stdout

    def _published(self, port: int) -> int:
        answer = self._run("port", self.container_id or "", "%d/tcp" % port)
        return int(answer.splitlines()[0].rsplit(":", 1)[1])

    def _serves(self, control_url: str, listeners: Sequence[Tuple[int, str]], ca_path: Path) -> bool:
        """Whether the CA can be read from the control plane and a TLS handshake with it succeeds on each listener
        (port, name) (the engine's port forwarder accepts connections before the server listens, so a bare connect
        proves nothing)."""
        request = urllib.request.Request(control_url + "/api/v1/ca.pem",
                                         headers={"authorization": "Bearer " + self.control_token})
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                ca_path.write_bytes(response.read())
            context = ssl.create_default_context(cafile=str(ca_path))
            for port, name in listeners:
                with socket.create_connection(("127.0.0.1", port), timeout=2) as raw:
                    with context.wrap_socket(raw, server_hostname=name):
                        pass
            return True
        except (OSError, ssl.SSLError, http.client.HTTPException):
            return False

    @property
    def pid(self) -> Optional[int]:
        return None

    def death(self) -> Optional[str]:
        if self.container_id is None:
            return None
        state = self._run("inspect", "-f", "{{.State.Running}} {{.State.ExitCode}}", self.container_id, check=False)
        if state.startswith("true"):
            return None
        logs = self._logs()
        return ("The mockapns container %s (%s) has stopped (%s). Its last output:\n%s"
                % (self.container_id[:12], self.image, "exit code " + state.split()[-1] if state else "gone",
                   _tail(logs)))

    def stop(self) -> None:
        if self.container_id:
            self._run("rm", "-f", "-v", self.name, check=False)
            self.container_id = None
