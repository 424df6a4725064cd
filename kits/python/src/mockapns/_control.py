"""A small client of the mock's control API (its OpenAPI document: GET /api/v1/openapi.json) on the standard library."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Optional


class MockAPNsError(Exception):
    """The mock could not start, has stopped, or refused a control request; the message says what to do."""

    __module__ = "mockapns"


class ControlClient:
    """JSON requests to `base_url` (e.g. `http://127.0.0.1:40124`), with `authorization: Bearer token` when given.

    `explain_failure` is asked for a sentence when the control plane cannot be reached at all (a server that died
    says so there, with its exit status and last output)."""

    def __init__(self, base_url: str, token: Optional[str] = None,
                 explain_failure: Optional[Callable[[], Optional[str]]] = None, timeout: float = 10):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.explain_failure = explain_failure
        self.timeout = timeout

    def request(self, method: str, path: str, body: Any = None, query: Any = None) -> Any:
        """The parsed JSON answer of `method path` (`query`: a dict, or (name, value) pairs where a name repeats); a
        MockAPNsError with the server's sentence on a 4xx/5xx."""
        return json.loads(self.request_bytes(method, path, body, query) or b"null")

    def request_bytes(self, method: str, path: str, body: Any = None, query: Any = None,
                      timeout: Optional[float] = None) -> bytes:
        """The raw answer of `method path` (see `request`)."""
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        if data is not None:
            request.add_header("content-type", "application/json")
        if self.token:
            request.add_header("authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout if timeout is None else timeout) as response:
                return response.read()
        except urllib.error.HTTPError as error:
            raise MockAPNsError("%s %s answered %d: %s" % (method, url, error.code, _error_sentence(error))) from None
        except (urllib.error.URLError, OSError) as error:
            why = self.explain_failure() if self.explain_failure else None
            reason = getattr(error, "reason", error)
            raise MockAPNsError(why or "%s %s failed: %s. Is the mock still running?" % (method, url, reason)) from None


def _error_sentence(error: urllib.error.HTTPError) -> str:
    text = error.read().decode("utf-8", "replace")
    try:
        return json.loads(text)["error"]
    except (ValueError, KeyError, TypeError):
        return text.strip() or error.reason
