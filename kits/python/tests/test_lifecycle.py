"""Starting and stopping MockAPNs: binaries that will not start, a server that died, and what stop() leaves."""

import os
import re
import signal
import socket
import time
import urllib.parse
from pathlib import Path

import pytest

from conftest import device_token, push_http1
from mockapns import MockAPNs, MockAPNsError


def script(tmp_path: Path, body: str) -> str:
    """An executable shell script standing in for a mockapns that misbehaves."""
    path = tmp_path / "mockapns"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def test_a_binary_that_exits_at_once_is_reported_with_its_exit_code_and_output(tmp_path, monkeypatch):
    monkeypatch.setenv("MOCKAPNS_BIN", script(tmp_path, 'echo "mockapns: cannot read certs/server.pem" >&2; exit 3'))
    with pytest.raises(MockAPNsError) as failure:
        MockAPNs().start()
    message = str(failure.value)
    assert "exited with code 3 before it was ready" in message
    assert "mockapns: cannot read certs/server.pem" in message


def test_a_real_binary_refusing_its_options_is_reported_with_its_usage_error():
    with pytest.raises(MockAPNsError) as failure:
        MockAPNs(args=["--log-level", "chatty"]).start()
    assert re.search(r"exited with code 2 before it was ready\. Its output:\n    Error: .*--log-level", str(failure.value))


def test_a_binary_that_never_gets_ready_is_stopped_after_the_startup_timeout(tmp_path, monkeypatch):
    pid_file = tmp_path / "pid"
    monkeypatch.setenv("MOCKAPNS_BIN", script(tmp_path, 'echo $$ > "%s"; echo "starting"; exec sleep 60' % pid_file))
    with pytest.raises(MockAPNsError, match=r"did not write its ready file within 0\.5 s\. Its output:\n    starting"):
        MockAPNs(startup_timeout=0.5).start()
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_mockapns_bin_naming_a_missing_or_non_executable_file_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("MOCKAPNS_BIN", str(tmp_path / "nowhere" / "mockapns"))
    with pytest.raises(MockAPNsError, match=r"MOCKAPNS_BIN is .*nowhere/mockapns, which is not a file"):
        MockAPNs().start()
    plain = tmp_path / "plain"
    plain.write_text("not a program")
    monkeypatch.setenv("MOCKAPNS_BIN", str(plain))
    with pytest.raises(MockAPNsError, match=r"which is not executable; run `chmod \+x"):
        MockAPNs().start()


def test_a_server_that_died_is_reported_by_the_next_call():
    with MockAPNs() as mock:
        assert push_http1(mock, device_token(1)) == 200
        os.kill(mock.pid, signal.SIGKILL)
        for _ in range(1000):          # until the kernel has ended it (bounded: 10 s)
            if not mock.running:
                break
            time.sleep(0.01)
        with pytest.raises(MockAPNsError) as failure:
            mock.notifications()
        message = str(failure.value)
        assert "The mockapns server (pid %d) has stopped: it exited with signal SIGKILL." % mock.pid in message
        assert "Start a new MockAPNs" in message
        assert not mock.running and mock.stopped_reason == message


def test_stop_ends_the_process_frees_the_ports_and_deletes_the_temporary_files():
    mock = MockAPNs().start()
    pid, control = mock.pid, urllib.parse.urlsplit(mock.control_url)
    workdir = mock._workdir
    assert workdir.is_dir()
    mock.stop()
    mock.stop()      # a second stop is harmless
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((control.hostname, control.port), timeout=5)
    assert not workdir.exists()
    with pytest.raises(MockAPNsError, match=r"not running: use `with MockAPNs\(\) as mock:`"):
        mock.url


def test_a_started_mock_refuses_a_second_start():
    with MockAPNs() as mock:
        with pytest.raises(MockAPNsError, match="already started"):
            mock.start()
        assert mock.running


def test_the_certificates_and_keys_it_hands_out_exist():
    with MockAPNs() as mock:
        assert Path(mock.ca_file).read_text().startswith("-----BEGIN CERTIFICATE-----")
        assert Path(mock.key_file).read_text().startswith("-----BEGIN PRIVATE KEY-----")
        assert (mock.team_id, mock.key_id) == ("TESTTEAM01", "TESTKEY001")
        assert mock.url.startswith("https://127.0.0.1:") and mock.port > 0
        assert mock.http1_url.startswith("http://127.0.0.1:")


def test_container_names_an_engine_it_cannot_run(monkeypatch):
    monkeypatch.setenv("MOCKAPNS_CONTAINER_ENGINE", "/nonexistent/podman")
    with pytest.raises(MockAPNsError, match=r"container engine '/nonexistent/podman' is not an executable"):
        MockAPNs.container(image="mockapns").start()


def test_container_names_an_image_the_engine_does_not_have(tmp_path, monkeypatch):
    # An engine whose `image inspect` answers as docker's does for an unknown image (or when its daemon is down).
    engine = script(tmp_path, 'echo "Error: No such image: $3" >&2; exit 1')
    with pytest.raises(MockAPNsError) as failure:
        MockAPNs.container(image="example/no-such-image:1", engine=engine).start()
    assert str(failure.value) == (
        "%s cannot find the image 'example/no-such-image:1' (Error: No such image: example/no-such-image:1). Build or "
        "pull it first (and start the engine's daemon if it is down), or use MockAPNs() to run the mockapns binary."
        % engine)


def test_a_binary_without_apple_hosts_says_to_use_a_newer_one_or_turn_them_off(tmp_path, monkeypatch):
    # What swift-argument-parser prints for an option the binary does not have.
    monkeypatch.setenv("MOCKAPNS_BIN", script(tmp_path, "echo \"Error: Unknown option '--apple-hosts'\" >&2; "
                                                        "echo 'Usage: mockapns serve [<options>]' >&2; exit 64"))
    with pytest.raises(MockAPNsError) as failure:
        MockAPNs(apple_hosts=True).start()
    message = str(failure.value)
    assert "exited with code 64 before it was ready" in message
    assert message.endswith("This mockapns does not know --apple-hosts (apple_hosts=True, which intercept() and the "
                            "apns_mock fixture use): point MOCKAPNS_BIN at a newer build, or turn it off "
                            "(MockAPNs(apple_hosts=False); for the fixture, the ini option mockapns_apple_hosts = "
                            "false).")


def test_a_binary_without_fcm_says_to_use_one_with_the_front_door(tmp_path, monkeypatch):
    monkeypatch.setenv("MOCKAPNS_BIN", script(tmp_path, "echo \"Error: Unknown option '--fcm'\" >&2; exit 64"))
    with pytest.raises(MockAPNsError) as failure:
        MockAPNs(fcm=True).start()
    message = str(failure.value)
    assert " --ca-dir " in message and " --fcm --fcm-port 0 --fcm-https-port 0" in message
    assert message.endswith("This mockapns does not know --fcm (fcm=True, which the fcm_mock fixture and the ini "
                            "option mockapns_fcm use): point MOCKAPNS_BIN at a build with the FCM front door.")


def test_args_given_as_one_string_are_refused():
    with pytest.raises(TypeError, match=r"MockAPNs\(args=…\) is a list of `mockapns serve` arguments"):
        MockAPNs(args="--log-level debug")


def test_container_with_apple_hosts_publishes_apples_ports_and_asks_for_them(tmp_path, monkeypatch):
    # An engine that has the image and logs what it is asked to run, then fails the run.
    calls = tmp_path / "calls"
    engine = script(tmp_path, 'echo "$@" >> "%s"; [ "$1" = image ] && exit 0; echo "no runtime here" >&2; exit 125'
                    % calls)
    with pytest.raises(MockAPNsError, match=r"`.* run -d .*` failed \(exit 125\): no runtime here"):
        MockAPNs.container(image="mockapns:test", engine=engine, apple_hosts=True).start()
    run = calls.read_text().splitlines()[1].split()
    assert run[:2] == ["run", "-d"] and run[-2:] == ["mockapns:test", "serve"]
    published = [run[i + 1] for i, arg in enumerate(run) if arg == "-p"]
    assert published == ["127.0.0.1::2197", "127.0.0.1::2198", "127.0.0.1::2200", "127.0.0.1::443",
                         "127.0.0.1::2195", "127.0.0.1::2196"]
    variables = [run[i + 1] for i, arg in enumerate(run) if arg == "-e"]
    assert variables == ["MOCKAPNS_CONTROL_TOKEN", "MOCKAPNS_HTTP1_HOST=0.0.0.0", "MOCKAPNS_HTTP1_PORT=2200",
                         "MOCKAPNS_APPLE_HOSTS=1", "MOCKAPNS_APPLE_HTTPS_PORT=443",
                         "MOCKAPNS_MANAGE_SANDBOX_PORT=2195", "MOCKAPNS_MANAGE_PRODUCTION_PORT=2196"]
