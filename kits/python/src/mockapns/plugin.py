"""The pytest plugin (entry point `pytest11`): the `apns_mock` fixture.

One mock server serves the whole test session and is cleared (records, device states, faults) before each test.
A server that died is started again for the next test, with a warning carrying its last output. It serves Apple's
host names too, so `with apns_mock.intercept():` works, unless the ini option `mockapns_apple_hosts` is false; more
`mockapns serve` arguments come from the ini option `mockapns_args` and the command line's `--mockapns-arg`.
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


def _serve_args(config: pytest.Config) -> List[str]:
    return [*config.getini("mockapns_args"), *(config.getoption("mockapns_args") or [])]


class _SessionMock:
    """The session's MockAPNs, started on first use and again if it died. A server that cannot start fails every
    test that asks for it with the same message, without trying again."""

    def __init__(self, args: Optional[List[str]] = None, apple_hosts: bool = True) -> None:
        self.args = list(args or [])
        self.apple_hosts = apple_hosts
        self.mock: Optional[MockAPNs] = None
        self.start_failure: Optional[str] = None

    def get(self) -> MockAPNs:
        why = self.mock.stopped_reason if self.mock is not None else None
        if self.mock is not None and why is not None:
            warnings.warn(MockAPNsWarning("Started a new mock APNs server for this test: %s" % why), stacklevel=2)
            self.mock.stop()
            self.mock = None
        if self.mock is None and self.start_failure is None:
            try:
                self.mock = MockAPNs(args=self.args, apple_hosts=self.apple_hosts).start()
            except MockAPNsError as error:
                given = (" (with the arguments of mockapns_args / --mockapns-arg: %s)" % shlex.join(self.args)
                         if self.args else "")
                self.start_failure = "apns_mock: the mock APNs server could not start%s. %s" % (given, error)
        if self.mock is None:
            pytest.fail(self.start_failure or "apns_mock: no mock APNs server", pytrace=False)
        return self.mock

    def stop(self) -> None:
        if self.mock is not None:
            self.mock.stop()


@pytest.fixture(scope="session")
def _apns_mock_session(pytestconfig: pytest.Config) -> Iterator[_SessionMock]:
    session = _SessionMock(_serve_args(pytestconfig), bool(pytestconfig.getini("mockapns_apple_hosts")))
    yield session
    session.stop()


@pytest.fixture
def apns_mock(_apns_mock_session: _SessionMock) -> Iterator[MockAPNs]:
    """A running MockAPNs with nothing recorded, no device states and no faults. The server is shared by the
    session (started on first use; binary from $MOCKAPNS_BIN, the wheel, or PATH) and cleared before each test.
    It serves Apple's host names (`with apns_mock.intercept():`) unless the ini option mockapns_apple_hosts is
    false."""
    mock = _apns_mock_session.get()
    mock.clear()
    yield mock
    left = active_interception()
    if left is not None and left.mock is mock:
        # Entered by hand and never left: end it, or every later test would resolve Apple's names to this mock.
        left.__exit__(None, None, None)
        pytest.fail("apns_mock: this test left apns_mock.intercept() in force (entered, never left); it is ended "
                    "now. Use `with apns_mock.intercept():`.", pytrace=False)
