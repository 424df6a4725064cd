"""The kit against kits/spec in container mode: the expectation cases through MockAPNs.container and the
Testcontainers module, the labels and ready file of a running container, the provider token minted in it, and the
Testcontainers module's environment and ports as launch.json's container cases have them."""

import json
import os
import subprocess

import pytest

import spec_cases
from mockapns import MockAPNs

LAUNCH = spec_cases.load("launch.json")


def options_of(arguments):
    """launch.json's container arguments as (the -e variables, the published ports, the labels)."""
    env, ports, labels = {}, [], {}
    for flag, value in zip(arguments, arguments[1:]):
        if flag == "-e":
            name, _, text = value.partition("=")
            env[name] = text
        elif flag == "-p":
            ports.append(int(value.rsplit(":", 1)[1]))
        elif flag == "--label":
            name, _, text = value.partition("=")
            labels[name] = text
    return env, ports, labels


@pytest.fixture(scope="module")
def container_mock(image):
    with MockAPNs.container(image=image, engine="podman") as mock:
        yield mock


@pytest.mark.parametrize("name, case", spec_cases.expectation_cases(), ids=lambda value: value
                         if isinstance(value, str) else "")
def test_expectation_case_in_a_container(name, case, container_mock):
    spec_cases.run_case(container_mock, case)


def test_the_running_container_carries_launch_json_labels_and_ready_file(container_mock, monkeypatch):
    backend = container_mock._backend
    inspected = json.loads(subprocess.run(["podman", "inspect", backend.name], capture_output=True, text=True,
                                          check=True).stdout)[0]
    arguments = LAUNCH["container"]["cases"][0]["arguments"]
    _, _, labels = options_of(spec_cases.substitute(arguments, name=backend.name, kit="python", pid=os.getpid(),
                                                    image=container_mock._container["image"]))
    assert {key: inspected["Config"]["Labels"].get(key) for key in labels} == labels
    ready = json.loads(backend.exec("sh", "-c", 'cat "$MOCKAPNS_READY_FILE"'))
    assert set(LAUNCH["ready_file"]["always"]) | {"control_url", "http1_url", "ca_file"} <= set(ready)
    assert set(ready) <= set(LAUNCH["ready_file"]["fields"])

    calls = []
    real = backend._run
    monkeypatch.setattr(backend, "_run", lambda *args, **kw: calls.append(list(args)) or real(*args, **kw))
    container_mock._token = None
    container_mock.token()
    assert calls == [spec_cases.substitute(LAUNCH["provider_token"]["container"], name=backend.name)]


@pytest.mark.parametrize("case", LAUNCH["container"]["cases"], ids=lambda case: json.dumps(case["options"]))
def test_the_testcontainers_module_sets_launch_json_environment_ports_and_labels(case, docker_api, image):
    from mockapns.testcontainers import MockAPNsContainer

    container = MockAPNsContainer(image)
    if case["options"].get("apple_hosts"):
        container.with_apple_hosts()
    if case["options"].get("fcm"):
        container.with_fcm()
    env, ports, labels = options_of(spec_cases.substitute(case["arguments"], name="-", kit="python", pid=os.getpid(),
                                                          image=image))
    assert env.pop("MOCKAPNS_CONTROL_TOKEN") == ""                  # by name in launch.json; by value here
    assert container.env.pop("MOCKAPNS_CONTROL_TOKEN") == container.control_token
    assert container.env == env
    assert sorted(int(str(port).split("/")[0]) for port in container.ports) == sorted(ports)
    assert {key: container._kwargs["labels"].get(key) for key in labels} == labels
    assert MockAPNsContainer.TOKEN_REUSE_SECONDS == LAUNCH["provider_token"]["reuse_seconds"]


def test_an_expectation_case_through_the_testcontainers_module(docker_api, image):
    from mockapns.testcontainers import MockAPNsContainer

    cases = dict(spec_cases.expectation_cases())
    with MockAPNsContainer(image) as apns:
        spec_cases.run_case(apns, cases["closest"])
        spec_cases.run_case(apns, cases["where-met"])
