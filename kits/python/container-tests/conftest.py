"""Container mode: the mockapns image under podman, through its command line (MockAPNs.container) and through its
Docker-compatible API (the Testcontainers module). Run by run-container-tests.sh; the image is $MOCKAPNS_IMAGE."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

sys.path.append(str(Path(__file__).resolve().parent.parent / "tests"))   # apple_senders, from the binary-mode suite

IMAGE = os.environ.get("MOCKAPNS_IMAGE", "mockapns:latest")


@pytest.fixture(scope="session")
def image() -> str:
    if shutil.which("podman") is None or subprocess.run(["podman", "image", "exists", IMAGE]).returncode != 0:
        pytest.fail("container-tests need podman and the image %s (make image builds it; run-container-tests.sh "
                    "checks both)" % IMAGE, pytrace=False)
    return IMAGE


class PodmanService:
    """`podman system service --time=0 unix://…/podman.sock`: podman's Docker-compatible API, for docker-py."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="mockapns-podman-"))
        self.socket = self.folder / "podman.sock"
        self.log = self.folder / "service.log"
        self.process: subprocess.Popen = None  # type: ignore[assignment]

    @property
    def docker_host(self) -> str:
        return "unix://" + str(self.socket)

    def start(self) -> "PodmanService":
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(["podman", "system", "service", "--time=0", self.docker_host],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("podman system service did not answer on %s: %s"
                                   % (self.socket, self.log.read_text(errors="replace")[-2000:]))
            time.sleep(0.1)
        return self

    def _answers(self) -> bool:
        try:
            with socket.socket(socket.AF_UNIX) as client:
                client.settimeout(2)
                client.connect(str(self.socket))
                client.sendall(b"GET /_ping HTTP/1.0\r\n\r\n")
                return client.recv(64).startswith(b"HTTP/1.")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def docker_api(image: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[PodmanService]:
    """podman's Docker API on a socket of its own, and testcontainers pointed at it: DOCKER_HOST; no Ryuk reaper
    (its image cannot be pulled here, and each test removes its own container); the docker_host connection mode,
    since testcontainers takes a machine with /.dockerenv (as CI's sandbox has) for Docker-in-Docker and would look
    for a gateway or bridge address, while this engine publishes its ports on this machine's localhost."""
    from testcontainers.core.config import ConnectionMode, testcontainers_config

    service = PodmanService().start()
    monkeypatch.setenv("DOCKER_HOST", service.docker_host)
    monkeypatch.setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
    monkeypatch.setenv("TESTCONTAINERS_CONNECTION_MODE", "docker_host")
    # testcontainers reads these once, at import; set them on its configuration too.
    monkeypatch.setattr(testcontainers_config, "ryuk_disabled", True)
    monkeypatch.setattr(testcontainers_config, "connection_mode_override", ConnectionMode.docker_host)
    try:
        yield service
    finally:
        service.stop()
