"""The kit contract of kits/spec (its README says what each file is): loading it, running an expectation case through
the kit's own expect(), and checking a control-API request against the server's openapi.json. Shared by the
binary-mode tests (test_spec.py) and container-tests."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[3]
SPEC = ROOT / "kits" / "spec"
OPENAPI = ROOT / "Sources" / "MockAPNsControl" / "OpenAPI" / "openapi.json"


def load(name: str) -> Any:
    return json.loads((SPEC / name).read_text())


def expectation_cases() -> List[Tuple[str, Dict[str, Any]]]:
    cases = [(path.stem, json.loads(path.read_text())) for path in sorted((SPEC / "expectations").glob("*.json"))]
    assert len(cases) >= 4, "kits/spec/expectations holds %d cases" % len(cases)
    return cases


def substitute(arguments: List[str], **values: Any) -> List[str]:
    """launch.json's arguments with {placeholder}s filled in; a placeholder left over is an error."""
    out = []
    for argument in arguments:
        for name, value in values.items():
            argument = argument.replace("{%s}" % name, str(value))
        assert "{" not in argument, "launch.json placeholder left in %r" % argument
        out.append(argument)
    return out


# Expectation cases

def send(mock: Any, push: Dict[str, Any]) -> int:
    """POSTs one case push to the mock's HTTP/1.1 endpoint; returns the status."""
    request = urllib.request.Request(
        mock.http1_url + "/3/device/" + push["token"], data=json.dumps(push["payload"]).encode(), method="POST",
        headers={"apns-topic": push.get("topic", "com.example.app"), "apns-push-type": push.get("push_type", "alert"),
                 "authorization": "bearer " + mock.token()})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


TIME = re.compile(r"\b\d{2}:\d{2}:\d{2}\.\d{3}\b")


def run_case(mock: Any, case: Dict[str, Any]) -> None:
    """Sends the case's pushes to a cleared mock, asks the kit's expect() what the case's `expect` says, and checks
    `met`, the records returned and the failure message as kits/spec/README.md defines the comparison."""
    mock.clear()
    for token, state in (case.get("devices") or {}).items():
        mock.set_device(token, state)
    for push in case["pushes"]:
        send(mock, push)
    seqs = [n.seq for n in mock.notifications()]
    assert len(seqs) == len(case["pushes"]), "the mock recorded %d of the case's %d pushes" % (len(seqs),
                                                                                              len(case["pushes"]))
    wanted = dict(case["expect"])
    where = wanted.pop("where", None)
    got: Optional[List[Any]] = None
    failure: Optional[str] = None
    try:
        if wanted.pop("none", False):
            got = mock.expect(0, where=where, **wanted)
        elif "at_least" in wanted:
            got = mock.wait_for(wanted.pop("at_least"), timeout=0, where=where, **wanted)
        else:
            got = mock.expect(wanted.pop("count", None), where=where, **wanted)
    except AssertionError as error:
        failure = str(error)
    if case["met"]:
        assert failure is None, "the case is met, but expect() failed:\n%s" % failure
        assert [n.seq for n in got or []] == [seqs[i - 1] for i in case["matched"]]
        return
    assert failure is not None, "the case is not met, but expect() returned %r" % got
    assert server_lines(failure) == expected_lines(case["message"], seqs)


def server_lines(failure: str) -> List[str]:
    """The failure's lines from the mock's own first line (`expect: …`) on, kit prefix lines dropped, each clock
    time as {time}."""
    lines = failure.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("expect: ")]
    assert starts, "the failure does not carry the mock's message (no line starts with 'expect: '):\n" + failure
    return [TIME.sub("{time}", line) for line in lines[starts[0]:]]


def expected_lines(message: List[str], seqs: List[int]) -> List[str]:
    """The case's message with each #pN as the seq the mock gave the case's N-th push."""
    return [re.sub(r"#p(\d+)\b", lambda m: "#%d" % seqs[int(m.group(1)) - 1], line) for line in message]


# openapi.json

class OpenAPI:
    """The control API's document, and the check of one request a kit sent against it."""

    def __init__(self) -> None:
        self.doc = json.loads(OPENAPI.read_text())
        self.gaps = {key: value for key, value in load("openapi-gaps.json").items() if not key.startswith("$")}
        self.templates = [(re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(t)) + "$"), t)
                          for t in self.doc["paths"]]

    def _resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            target: Any = self.doc
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def template(self, path: str) -> str:
        literal = [t for regex, t in self.templates if t == path]
        matched = literal or [t for regex, t in self.templates if regex.match(path)]
        assert matched, "%s is no path of openapi.json" % path
        return matched[0]

    def problems(self, method: str, path: str, query: List[str], body: Any) -> List[str]:
        """What in `method path?query` with JSON `body` openapi.json does not declare (and openapi-gaps.json does
        not allow)."""
        template = self.template(urllib.parse.unquote(path))
        item = self.doc["paths"][template]
        operation = item.get(method.lower())
        if operation is None:
            return ["%s %s: openapi.json's %s has no %s" % (method, path, template, method)]
        key = "%s %s" % (method, template)
        allowed = self.gaps.get(key, {})
        parameters = [self._resolve(p) for p in item.get("parameters", []) + operation.get("parameters", [])]
        declared = {p["name"] for p in parameters if p.get("in") == "query"} | set(allowed.get("query", []))
        problems = ["%s: query parameter %r is not declared" % (key, name) for name in query if name not in declared]
        if body is not None:
            schema = self._resolve(((operation.get("requestBody") or {}).get("content") or {})
                                   .get("application/json", {}).get("schema"))
            if schema is None:
                problems.append("%s: sends a JSON body, but openapi.json declares none" % key)
            elif isinstance(body, dict) and "properties" in schema:
                known = set(schema["properties"]) | set(allowed.get("body", []))
                problems += ["%s: body key %r is not declared" % (key, name) for name in body if name not in known]
        return problems
