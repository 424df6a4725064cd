"""The pytest plugin, run on test files of its own through pytester: the apns_mock fixture is found through the
pytest11 entry point (no conftest), shared by the session, cleared before each test, restarted when it died."""

import json

import pytest

# What the inner test files send with: the standard library only, over the mock's HTTP/1.1 endpoint.
SENDER = '''
import json, os, signal, time, urllib.error, urllib.request

def push(mock, token, topic="com.example.app", title="Hello"):
    body = json.dumps({"aps": {"alert": {"title": title}}}).encode()
    request = urllib.request.Request(mock.http1_url + "/3/device/" + token, data=body, method="POST",
                                     headers={"apns-topic": topic, "authorization": "bearer " + mock.token()})
    try:
        return urllib.request.urlopen(request, timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code

TOKEN = "ab" * 32
'''


@pytest.fixture
def inner(pytester):
    """Runs a test file (SENDER prepended) in a pytest of its own, in this process; returns its result."""
    def run(source: str, *args: str):
        pytester.makepyfile(test_inner=SENDER + source)
        return pytester.runpytest("-p", "no:cacheprovider", *args)
    return run


def test_one_server_serves_the_session_and_is_cleared_before_each_test(inner):
    result = inner('''
seen = {}

def test_first_leaves_records_a_device_state_and_a_fault(apns_mock):
    seen["url"] = apns_mock.url
    apns_mock.set_device(TOKEN, "unregistered")
    apns_mock.add_fault(status=500, match={"topic": "com.example.flaky"})
    assert push(apns_mock, TOKEN) == 410
    assert push(apns_mock, "cd" * 32, topic="com.example.flaky") == 500
    assert len(apns_mock.notifications()) == 2

def test_second_starts_clean_on_the_same_server(apns_mock):
    assert apns_mock.url == seen["url"]
    assert apns_mock.notifications() == []
    assert push(apns_mock, TOKEN) == 200
    assert push(apns_mock, "cd" * 32, topic="com.example.flaky") == 200
''')
    result.assert_outcomes(passed=2)


def test_a_failed_expect_shows_the_nearest_pushes_in_the_report(inner):
    result = inner('''
def test_expects_a_title_never_sent(apns_mock):
    push(apns_mock, TOKEN, title="Your order shipped")
    apns_mock.expect(topic="com.example.other")
''')
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "E * AssertionError: expect: FAILED — wanted at least 1 record with topic=com.example.other; 0 matched "
        "(of 1 record in the mock's recording).",
        "E * Closest records:",
        'E * #*  200 OK  meets 0 of 1; missed: topic=com.example.other (found "com.example.app")',
    ])


def test_a_binary_that_will_not_start_errors_the_test_that_asked_for_it(inner, monkeypatch, tmp_path):
    monkeypatch.setenv("MOCKAPNS_BIN", str(tmp_path / "missing-mockapns"))
    result = inner('''
def test_needs_the_mock(apns_mock):
    pass

def test_does_not():
    pass

def test_needs_it_too(apns_mock):
    pass
''')
    result.assert_outcomes(passed=1, errors=2)
    result.stdout.fnmatch_lines(["apns_mock: the mock APNs server could not start. MOCKAPNS_BIN is *missing-mockapns, "
                                 "which is not a file; point it at a built mockapns binary."] * 2)


def test_a_server_that_died_is_replaced_for_the_next_test_with_a_warning(inner):
    result = inner('''
seen = {}

def test_kills_the_server(apns_mock):
    seen["pid"] = apns_mock.pid
    os.kill(apns_mock.pid, signal.SIGKILL)
    for _ in range(1000):
        if not apns_mock.running:
            break
        time.sleep(0.01)
    assert not apns_mock.running

def test_gets_a_new_one(apns_mock):
    assert apns_mock.pid != seen["pid"]
    assert push(apns_mock, TOKEN) == 200
    apns_mock.expect(count=1, token=TOKEN)
''')
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines(["*MockAPNsWarning: Started a new mock APNs server for this test: "
                                 "The mockapns server (pid *) has stopped: it exited with signal SIGKILL*"])


def test_the_session_server_is_stopped_when_the_session_ends(inner, pytester):
    result = inner('''
def test_writes_its_pid(apns_mock):
    with open("server.pid", "w") as f:
        f.write(str(apns_mock.pid))
''')
    result.assert_outcomes(passed=1)
    pid = int((pytester.path / "server.pid").read_text())
    with pytest.raises(ProcessLookupError):
        import os
        os.kill(pid, 0)


def test_serve_arguments_come_from_the_ini_option_and_the_command_line_together(inner, pytester):
    records = pytester.path / "records.jsonl"
    pytester.makeini("[pytest]\nmockapns_args = --record '%s'\n" % records)
    result = inner('''
def test_keeps_one_record_in_memory(apns_mock):
    assert push(apns_mock, TOKEN, title="First") == 200
    assert push(apns_mock, TOKEN, title="Second") == 200
    assert [n.alert_title for n in apns_mock.notifications()] == ["Second"]
''', "--mockapns-arg=--memory-limit", "--mockapns-arg=1")
    result.assert_outcomes(passed=1)
    # The session's mock is stopped (its recording flushed) when the inner session ends.
    titles = [json.loads(line)["payload"]["aps"]["alert"]["title"] for line in records.read_text().splitlines()]
    assert titles == ["First", "Second"]


def test_serve_arguments_the_binary_refuses_are_named_in_the_error(inner):
    result = inner('''
def test_needs_the_mock(apns_mock):
    pass
''', "--mockapns-arg=--log-level=chatty")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*apns_mock: the mock APNs server could not start (with the arguments of "
                                 "mockapns_args / --mockapns-arg: --log-level=chatty). *exited with code 2*"])


def test_the_session_mock_serves_apples_names_so_intercept_just_works(inner):
    result = inner('''
import ssl, socket

def test_reaches_the_mock_as_api_push_apple_com(apns_mock):
    assert apns_mock.apple_hosts and set(apns_mock.apple_ports) == {443, 2197, 2195, 2196}
    with apns_mock.intercept():
        with socket.create_connection(("api.push.apple.com", 443), timeout=10) as raw:
            with ssl.create_default_context().wrap_socket(raw, server_hostname="api.push.apple.com") as tls:
                assert tls.getpeername()[1] == apns_mock.apple_ports[443]
''')
    result.assert_outcomes(passed=1)


def test_the_ini_option_turns_apples_names_off(inner, pytester):
    pytester.makeini("[pytest]\nmockapns_apple_hosts = false\n")
    result = inner('''
import json

import pytest
from mockapns import MockAPNsError

def test_has_no_apple_names(apns_mock):
    assert not apns_mock.apple_hosts and apns_mock.apple_ports == {}
    with pytest.raises(MockAPNsError, match="the apns_mock fixture does unless the ini option mockapns_apple_hosts "
                                            "is false"):
        apns_mock.intercept()
    assert push(apns_mock, TOKEN) == 200
''')
    result.assert_outcomes(passed=1)


def test_an_intercept_block_left_open_fails_its_test_and_is_ended(inner):
    result = inner('''
import socket

def test_enters_and_never_leaves(apns_mock):
    apns_mock.intercept().__enter__()

def test_next_resolves_as_before(apns_mock):
    assert socket.getaddrinfo.__module__ == "socket"
    assert push(apns_mock, TOKEN) == 200
''')
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*apns_mock: this test left apns_mock.intercept() in force (entered, never left); "
                                 "it is ended now. Use `with apns_mock.intercept():`."])
