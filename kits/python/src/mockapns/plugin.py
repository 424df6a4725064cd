"""The pytest plugin (entry point `pytest11`): the `apns_mock` and `fcm_mock` fixtures.

One mock server serves the whole test session and is cleared (records, device states, faults) before each test.
A server that died is started again for the next test, with a warning carrying its last output. It serves Apple's
host names too, so `with apns_mock.intercept():` works, unless the ini option `mockapns_apple_hosts` is false; more
`mockapns serve` arguments come from the ini option `mockapns_args` and the command line's `--mockapns-arg`.
`fcm_mock` is the same mock serving Google's FCM names as well (`serve --fcm`): from the first test that asks for it
on (the session's mock is started again with them then, once), or from the start with the ini option `mockapns_fcm`.
"""

from __future__ import annotations

import warnings
import shlex
from typing import Iterator, List, Optional

import pytest

from ._control import MockAPNsError
from ._intercept import active_interception
from ._server import MockAPNs


class MockAPNsWarning(UserWarning):
    """The session's mock server had stopped and a new one was started."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mockapns", "the apns_mock fixture (mockapns)")
    group.addoption("--mockapns-arg", action="append", dest="mockapns_args", default=[], metavar="ARG",
                    help="one more `mockapns serve` argument for the session's mock, after those of the ini option "
                         "mockapns_args; repeat it for each (write --mockapns-arg=--log-level --mockapns-arg=debug, "
                         "with the =, for arguments that start with -)")
    parser.addini("mockapns_args", type="args", default=[],
                  help="`mockapns serve` arguments for the apns_mock fixture's session mock (shell-quoted)")
    parser.addini("mockapns_apple_hosts", type="bool", default=True,
                  help="whether the session mock serves Apple's host names, for apns_mock.intercept() (default true)")
    parser.addini("mockapns_fcm", type="bool", default=False,
                  help="whether the session mock serves Google's FCM names from the start (serve --fcm; default "
                       "false: from the first test asking for fcm_mock on)")


def _serve_args(config: pytest.Config) -> List[str]:
    return [*config.getini("mockapns_args"), *(config.getoption("mockapns_args") or [])]


class _SessionMock:
    """The session's MockAPNs, started on first use and again if it died. A server that cannot start fails every
    test that asks for it with the same message, without trying again."""

    def __init__(self, args: Optional[List[str]] = None, apple_hosts: bool = True, fcm: bool = False) -> None:
        self.args = list(args or [])
        self.apple_hosts = apple_hosts
        self.fcm = fcm      # once a test asked for FCM, the session's mock keeps serving it (no restart per test)
        self.mock: Optional[MockAPNs] = None
        self.start_failure: Optional[str] = None
        self.fcm_start_failure: Optional[str] = None

    def get(self, fcm: bool = False) -> MockAPNs:
        why = self.mock.stopped_reason if self.mock is not None else None
        if self.mock is not None and why is not None:
            warnings.warn(MockAPNsWarning("Started a new mock APNs server for this test: %s" % why), stacklevel=2)
            self.mock.stop()
            self.mock = None
        if fcm and not self.fcm:
            if self.fcm_start_failure is not None:
                pytest.fail(self.fcm_start_failure, pytrace=False)
            if self.mock is not None:
                self.mock.stop()        # cleared before every test anyway: one that serves FCM as well replaces it
                self.mock = None
        want_fcm = fcm or self.fcm
        if self.mock is None and (self.start_failure is None or (want_fcm and not self.fcm)):
            try:
                self.mock = MockAPNs(args=self.args, apple_hosts=self.apple_hosts, fcm=want_fcm).start()
                self.fcm = want_fcm
            except MockAPNsError as error:
                given = (" (with the arguments of mockapns_args / --mockapns-arg: %s)" % shlex.join(self.args)
                         if self.args else "")
                failure = "%s: the mock APNs server could not start%s%s. %s" % (
                    "fcm_mock" if want_fcm else "apns_mock", " with --fcm" if want_fcm else "", given, error)
                if want_fcm and not self.fcm:
                    # The tests without FCM go on with a mock without it.
                    self.fcm_start_failure = failure
                    pytest.fail(failure, pytrace=False)
                self.start_failure = failure
        if self.mock is None:
            pytest.fail(self.start_failure or "apns_mock: no mock APNs server", pytrace=False)
        return self.mock

    def stop(self) -> None:
        if self.mock is not None:
            self.mock.stop()


@pytest.fixture(scope="session")
def _apns_mock_session(pytestconfig: pytest.Config) -> Iterator[_SessionMock]:
    session = _SessionMock(_serve_args(pytestconfig), bool(pytestconfig.getini("mockapns_apple_hosts")),
                           bool(pytestconfig.getini("mockapns_fcm")))
    yield session
    session.stop()


@pytest.fixture
def apns_mock(request: pytest.FixtureRequest, _apns_mock_session: _SessionMock) -> Iterator[MockAPNs]:
    """A running MockAPNs with nothing recorded, no device states and no faults. The server is shared by the
    session (started on first use; binary from $MOCKAPNS_BIN, the wheel, or PATH) and cleared before each test.
    It serves Apple's host names (`with apns_mock.intercept():`) unless the ini option mockapns_apple_hosts is
    false."""
    mock = _apns_mock_session.get(fcm="fcm_mock" in request.fixturenames)
    mock.clear()
    yield mock
    left = active_interception()
    if left is not None and left.mock is mock:
        # Entered by hand and never left: end it, or every later test would resolve Apple's names to this mock.
        left.__exit__(None, None, None)
        pytest.fail("apns_mock: this test left apns_mock.intercept() in force (entered, never left); it is ended "
                    "now. Use `with apns_mock.intercept():`.", pytrace=False)


@pytest.fixture
def fcm_mock(apns_mock: MockAPNs) -> MockAPNs:
    """The session's MockAPNs (`apns_mock`, the same object), serving Google's FCM names as well (`serve --fcm`),
    cleared before the test (FCM records too). Give the sender `fcm_mock.fcm_service_account`, a service-account
    file of project `mockapns-test` the mock trusts (`new_fcm_service_account(project)` makes another project's);
    register the app instances it sends to with `fcm_mock.register_fcm("ios", "com.example.app")` (each an iPhone:
    `device(registration.apns_token)`); run the sender inside `with fcm_mock.intercept():`; read what arrived with
    `fcm_messages()`, `expect_fcm()` and `apns_pushes_of(message)`."""
    return apns_mock
