"""The kit against kits/spec: the arguments it starts the mock with in both modes (launch.json), the ready file, the
provider-token reuse, the expectation cases run through expect() (expectations/*.json), and every control-API request
it sends checked against the server's openapi.json."""

from __future__ import annotations

import inspect
import json
import os
import stat
import subprocess
import urllib.parse
from pathlib import Path
from typing import Any, Dict, List

import pytest

from mockapns import MockAPNs, MockAPNsError
from mockapns._api import ControlAPI
from mockapns._control import ControlClient

import spec_cases
from conftest import device_token, push_http1

LAUNCH = spec_cases.load("launch.json")


def fake_executable(folder: Path, name: str, script: str) -> Path:
    """An executable shell script that writes its arguments (one a line) to folder/NAME.args and its control token
    to folder/NAME.token, then runs `script`."""
    path = folder / name
    path.write_text('#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/%s.args"\nprintf "%%s" "${MOCKAPNS_CONTROL_TOKEN:-}" > '
                    '"%s/%s.token"\n%s\n' % (folder, name, folder, name, script))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def recorded(folder: Path, name: str) -> List[str]:
    return (folder / (name + ".args")).read_text().splitlines()


@pytest.mark.parametrize("case", LAUNCH["binary"]["cases"], ids=lambda case: json.dumps(case["options"]))
def test_binary_mode_runs_launch_json_arguments(case, tmp_path, monkeypatch):
    monkeypatch.delenv("MOCKAPNS_CONTROL_TOKEN", raising=False)
    binary = fake_executable(tmp_path, "mockapns", "exit 3")
    mock = MockAPNs(str(binary), args=["--log-level", "debug"], **case["options"])
    with pytest.raises(MockAPNsError, match="exited with code 3 before it was ready"):
        mock.start()
    args = recorded(tmp_path, "mockapns")
    ready_file = args[args.index("--ready-file") + 1]
    workdir = os.path.dirname(ready_file)
    assert args == spec_cases.substitute(case["arguments"], ready_file=workdir + "/ready.json", workdir=workdir) + [
        "--log-level", "debug"]
    assert (tmp_path / "mockapns.token").read_text() == ""      # no token of another mock


@pytest.mark.parametrize("case", LAUNCH["container"]["cases"], ids=lambda case: json.dumps(case["options"]))
def test_container_mode_runs_launch_json_arguments(case, tmp_path):
    engine = fake_executable(tmp_path, "engine", '[ "$1" = image ] && exit 0\necho "no engine here" >&2\nexit 1')
    mock = MockAPNs.container(image="mockapns:spec", engine=str(engine), control_token="the-token", **case["options"])
    with pytest.raises(MockAPNsError, match="no engine here"):
        mock.start()
    args = recorded(tmp_path, "engine")
    name = args[args.index("--name") + 1]
    assert name.startswith("mockapns-python-")
    assert args == spec_cases.substitute(case["arguments"], name=name, kit="python", pid=os.getpid(),
                                         image="mockapns:spec")
    assert (tmp_path / "engine.token").read_text() == "the-token"   # by the engine's environment, not argv


def test_the_ready_file_has_launch_json_fields_and_the_kit_reads_them(tmp_path):
    spec = LAUNCH["ready_file"]
    with MockAPNs(apple_hosts=True, fcm=True) as mock:
        ready = json.loads(Path(mock._backend.workdir / "ready.json").read_text())
        assert set(spec["always"]) <= set(ready) <= set(spec["fields"]), sorted(ready)
        # Every listener of the kit's flags is on, so every field but the ones of other flags is there.
        assert set(ready) == set(spec["fields"]), sorted(set(spec["fields"]) - set(ready))
        assert (mock.url, mock.http1_url, mock.control_url) == (ready["apns_url"], ready["http1_url"],
                                                                ready["control_url"])


def test_provider_tokens_come_from_the_binary_reused_for_launch_json_time(apns_mock, monkeypatch):
    spec = LAUNCH["provider_token"]
    assert MockAPNs.TOKEN_REUSE_SECONDS == spec["reuse_seconds"]
    calls: List[List[str]] = []
    real = subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda command, **kw: calls.append(list(command)) or real(command, **kw))
    start = apns_mock._clock()
    monkeypatch.setattr(apns_mock, "_clock", lambda: start + spec["reuse_seconds"] + 1e9)
    apns_mock.token()
    monkeypatch.setattr(apns_mock, "_clock", lambda: start + 2 * spec["reuse_seconds"] + 1e9 - 1)
    apns_mock.token()                                       # reused: no second call
    assert [command[1:] for command in calls] == [spec_cases.substitute(
        spec["binary"], team_id=apns_mock.team_id, key_id=apns_mock.key_id, key_file=apns_mock.key_file)]


@pytest.mark.parametrize("name, case", spec_cases.expectation_cases(), ids=lambda value: value
                         if isinstance(value, str) else "")
def test_expectation_case(name, case, apns_mock):
    spec_cases.run_case(apns_mock, case)


# openapi.json

@pytest.fixture
def sent(monkeypatch) -> List[Dict[str, Any]]:
    """Every control-API request the kit sends during the test: method, path, query parameter names, body."""
    requests: List[Dict[str, Any]] = []
    real = ControlClient.request_bytes

    def recording(self, method, path, body=None, query=None, timeout=None):
        names = [name for name, _ in urllib.parse.parse_qsl(urllib.parse.urlencode(query or {}))]
        requests.append({"method": method, "path": path, "query": names, "body": body})
        return real(self, method, path, body, query, timeout)

    monkeypatch.setattr(ControlClient, "request_bytes", recording)
    return requests


def test_every_control_request_is_declared_in_openapi(fcm_mock, sent):
    """Each public method of ControlAPI, every option given: each request it sends must be one openapi.json
    declares (path, method, each query parameter, each body key)."""
    mock, phone = fcm_mock, device_token(30)
    called = set()

    def call(method, *args, **kwargs):
        called.add(method)
        try:
            return getattr(mock, method)(*args, **kwargs)
        except AssertionError:
            return None                                     # a miss says so; its request was sent all the same

    push_http1(mock, phone, title="Shipped")
    apple = call("notifications", token=phone, topic="com.example.app", push_type="alert", status=200,
                 reason="Unregistered", since=0, limit=5)
    call("notifications")
    call("expect", 1, token=phone, topic="com.example.app", push_type="alert", status=200, since=0,
         where={"aps.alert.title": "Shipped"})
    call("expect", 0, reason="Unregistered")
    call("wait_for", 2, timeout=0, token=phone, where=["aps.badge=1"])
    call("set_device", phone, "rateLimited", max=5, window_seconds=60, at=1_700_000_000_000)
    call("set_device", device_token(31), "topics", topics=["com.example.app"])
    call("set_device", device_token(32), "unregistered", timestamp=1_700_000_000_000)
    call("set_device", phone, online=False, offline_until=1_900_000_000_000, app_state="background",
         settings={"background_budget_per_hour": 2}, push_to_start_tokens=["ab" * 32])
    apns_id = mock.notifications(token=phone)[0].apns_id
    call("change_device", phone, "tap", apns_id=apns_id, at=1_700_000_000_000)
    call("change_device", phone, "app_state", state="foreground")
    call("device", phone, at=1_700_000_000_000)
    call("timeline", phone, until=1_700_000_000_000)
    call("expect_shown", phone, title="Shipped", body="body of Shipped", at=1_700_000_000_000)
    call("add_fault", 500, "InternalServerError", 1, {"token": phone}, name="down", probability=1.0)
    call("add_fault", action={"type": "delay", "ms": 1}, match={"topic": "com.example.app"})
    account = call("new_fcm_service_account", "other-project")
    ios = call("register_fcm", "ios", "com.example.app", project="mockapns-test", apns_token=device_token(33))
    android = call("register_fcm", "android", "com.example.app")
    call("android_device", android.token)
    call("set_android_device", android.token, app_state="background", online=True)
    call("fcm_messages", project="mockapns-test", name="x", token=ios.token, topic="news", status=200, limit=3)
    call("expect_fcm", 1, project="mockapns-test", name="x", token=ios.token, topic="news", condition="'a' in topics",
         status=200, validate_only=False, timeout=0)
    call("expect_fcm", token=ios.token)
    call("apns_pushes_of", "projects/mockapns-test/messages/none")
    call("clear")
    assert apple is not None and account
    public = {name for name, member in inspect.getmembers(ControlAPI, inspect.isfunction) if not name.startswith("_")}
    assert called == public, "methods not exercised: %s" % sorted(public - called)

    openapi = spec_cases.OpenAPI()
    assert sent, "no control request was recorded"
    problems = [p for r in sent for p in openapi.problems(r["method"], r["path"], r["query"], r["body"])]
    assert problems == []
    sent_expect = [r for r in sent if r["path"] == "/api/v1/expect"]
    assert {name for r in sent_expect for name in r["query"]} >= {"token", "topic", "push_type", "status", "since",
                                                                  "where", "count", "at_least", "reason"}
    sent_fcm_expect = [r for r in sent if r["path"] == "/api/v1/fcm/expect"]
    assert {name for r in sent_fcm_expect for name in r["query"]} >= {
        "project", "name", "token", "topic", "condition", "status", "validate_only", "count", "at_least"}


def test_the_openapi_check_finds_what_openapi_does_not_declare():
    openapi = spec_cases.OpenAPI()
    assert openapi.problems("GET", "/api/v1/expect", ["token", "where", "title"], None) == [
        "GET /api/v1/expect: query parameter 'title' is not declared"]
    assert openapi.problems("PATCH", "/api/v1/faults", [], None) == [
        "PATCH /api/v1/faults: openapi.json's /api/v1/faults has no PATCH"]
    assert openapi.problems("PUT", "/api/v1/devices/abcd", [], {"state": "expired", "colour": "red"}) == [
        "PUT /api/v1/devices/{token}: body key 'colour' is not declared"]
    with pytest.raises(AssertionError, match="no path of openapi.json"):
        openapi.problems("GET", "/api/v1/nowhere", [], None)
