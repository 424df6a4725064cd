#!/usr/bin/env python3
"""Tests for scripts/check-test-tiers.py: each test writes a small package description (as `swift package describe
--type json` prints it) to a temporary file, runs the checker on it and reads its exit status and output. Standard
library only: `python3 scripts/test-check-test-tiers.py` (add `-v` for each test's name)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-test-tiers.py")


def target(name, kind="library", targets=(), products=()):
    described = {"name": name, "type": kind, "target_dependencies": list(targets)}
    if products:
        described["product_dependencies"] = list(products)
    return described


class CheckTestTiersTests(unittest.TestCase):
    def run_checker(self, targets, unit, model="APNsModelTests"):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump({"name": "MockAPNs", "targets": targets}, file)
        self.addCleanup(os.remove, file.name)
        return subprocess.run([sys.executable, CHECKER, "--describe", file.name, "--unit", unit, "--model", model],
                              capture_output=True, text=True)

    def package(self, support_targets):
        return [
            target("APNsModel", targets=["JSON"]), target("JSON"),
            target("HTTP2", targets=["CNghttp2"], products=["NIOCore"]), target("CNghttp2", kind="system-target"),
            target("ModelTestSupport", targets=["APNsModel"]),
            target("TestSupport", targets=["ModelTestSupport", "HTTP2"]),
            target("APNsModelTests", kind="test", targets=["APNsModel"] + support_targets),
            target("HTTP2WireTests", kind="test", targets=["HTTP2", "TestSupport"]),
        ]

    def test_a_model_suite_on_the_models_support_passes(self):
        result = self.run_checker(self.package(["ModelTestSupport"]), "APNsModelTests")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("1 unit targets, 1 integration targets", result.stdout)

    def test_a_model_suite_reaching_the_transport_through_its_support_fails(self):
        result = self.run_checker(self.package(["TestSupport"]), "APNsModelTests")
        self.assertEqual(result.returncode, 1)
        self.assertIn("APNsModelTests: links the transport (CNghttp2, HTTP2)", result.stdout)
        self.assertIn("links external products (NIOCore)", result.stdout)

    def test_a_wire_target_or_an_unknown_name_in_the_unit_tier_fails(self):
        result = self.run_checker(self.package(["ModelTestSupport"]), "APNsModelTests|HTTP2WireTests|Typo")
        self.assertEqual(result.returncode, 1)
        self.assertIn("HTTP2WireTests: a WireTests target (sockets, peers) cannot be in the unit tier", result.stdout)
        self.assertIn("Typo: in the unit tier but not a test target of the package", result.stdout)


if __name__ == "__main__":
    unittest.main()
