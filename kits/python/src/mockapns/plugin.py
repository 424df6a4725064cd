"""The pytest plugin (entry point `pytest11`): the `apns_mock` fixture.

One mock server serves the whole test session and is cleared (records, device states, faults) before each test.
A server that died is started again for the next test, with a warning carrying its last output.
"""

from __future__ import annotations

import warnings
from typing import Iterator, Optional

import pytest

from ._control import MockAPNsError
from ._server import MockAPNs


class MockAPNsWarning(UserWarning):
    """The session's mock server had stopped and a new one was started."""


class _SessionMock:
    """The session's MockAPNs, started on first use and again if it died. A server that cannot start fails every
    test that asks for it with the same message, without trying again."""

    def __init__(self) -> None:
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
                self.mock = MockAPNs().start()
            except MockAPNsError as error:
                self.start_failure = "apns_mock: the mock APNs server could not start. %s" % error
        if self.mock is None:
            pytest.fail(self.start_failure or "apns_mock: no mock APNs server", pytrace=False)
        return self.mock

    def stop(self) -> None:
        if self.mock is not None:
            self.mock.stop()


@pytest.fixture(scope="session")
def _apns_mock_session() -> Iterator[_SessionMock]:
    session = _SessionMock()
    yield session
    session.stop()


@pytest.fixture
def apns_mock(_apns_mock_session: _SessionMock) -> MockAPNs:
    """A running MockAPNs with nothing recorded, no device states and no faults. The server is shared by the
    session (started on first use; binary from $MOCKAPNS_BIN, the wheel, or PATH) and cleared before each test."""
    mock = _apns_mock_session.get()
    mock.clear()
    return mock
