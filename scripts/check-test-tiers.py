#!/usr/bin/env python3
"""Checks the test tiers against the package: the Makefile's unit tier (UNIT_TARGETS) names test targets, and a
target's name says its tier, so a suite cannot land in the wrong tier by a regular expression's accident.

What it checks, from `swift package describe --type json` (or a saved copy, `--describe FILE`):

- every name in `--unit` is a test target of the package, and none of them ends in `WireTests` (the socket suites'
  targets, which are the integration tier with every other test target);
- the model's test targets (`--model`, default APNsModelTests, DeviceSimulationTests, FCMModelTests, JSONTests)
  depend, directly or through other targets, on no transport: not HTTP2, CNghttp2 or COpenSSL, and no external
  product (swift-nio and the rest), so they build without nghttp2, OpenSSL or NIO.

Prints one line per problem and exits 1, or a summary and exits 0. Standard library only; run from the checkout:
`python3 scripts/check-test-tiers.py --unit 'JSONTests|APNsModelTests|…'`.
"""
import argparse
import json
import subprocess
import sys

TRANSPORT = {"HTTP2", "CNghttp2", "COpenSSL"}
MODEL = "APNsModelTests|DeviceSimulationTests|FCMModelTests|JSONTests"


def describe(path):
    if path:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    output = subprocess.run(["swift", "package", "describe", "--type", "json"], check=True, capture_output=True,
                            text=True).stdout
    return json.loads(output[output.index("{"):])


def closure(targets, name):
    """Every target `name` depends on, itself included, and the external products any of them use."""
    seen, products, todo = set(), set(), [name]
    while todo:
        current = todo.pop()
        if current in seen or current not in targets:
            continue
        seen.add(current)
        products.update(targets[current].get("product_dependencies", []))
        todo.extend(targets[current].get("target_dependencies", []))
    return seen, products


def problems(package, unit, model):
    targets = {target["name"]: target for target in package["targets"]}
    tests = {name for name, target in targets.items() if target.get("type") == "test"}
    found = []
    for name in unit:
        if name not in tests:
            found.append(f"{name}: in the unit tier but not a test target of the package")
        elif name.endswith("WireTests"):
            found.append(f"{name}: a WireTests target (sockets, peers) cannot be in the unit tier")
    for name in model:
        if name not in tests:
            found.append(f"{name}: a model test target that the package does not have")
            continue
        reached, products = closure(targets, name)
        transport = sorted(reached & TRANSPORT)
        if transport:
            found.append(f"{name}: links the transport ({', '.join(transport)}); take its support from ModelTestSupport")
        if products:
            found.append(f"{name}: links external products ({', '.join(sorted(products))}); the model's tests build on "
                         "the standard library and the model alone")
    return found, tests


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--unit", required=True, help="the unit tier's test targets, A|B|C")
    parser.add_argument("--model", default=MODEL, help=f"the model's test targets (default {MODEL})")
    parser.add_argument("--describe", help="a saved `swift package describe --type json` instead of running it")
    arguments = parser.parse_args()
    unit = [name for name in arguments.unit.split("|") if name]
    model = [name for name in arguments.model.split("|") if name]
    found, tests = problems(describe(arguments.describe), unit, model)
    for line in found:
        print(line)
    if found:
        return 1
    print(f"test tiers: {len(unit)} unit targets, {len(tests) - len(unit)} integration targets; "
          f"{len(model)} model targets link no transport")
    return 0


if __name__ == "__main__":
    sys.exit(main())
