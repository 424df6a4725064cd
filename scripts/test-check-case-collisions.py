#!/usr/bin/env python3
"""Tests for scripts/check-case-collisions.py: each test lays out a small git checkout (a manifest and a few source
files) in a temporary folder, runs the checker on it and reads its exit status and output. Standard library only:
`python3 scripts/test-check-case-collisions.py` (add `-v` for each test's name)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-case-collisions.py")

# This repository's layout: the core module MockAPNs, the executable's module MockAPNsTool, the binary mockapns.
MANIFEST = """// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "MockAPNs",
    products: [
        .library(name: "MockAPNs", targets: ["MockAPNs"]),
        .executable(name: "mockapns", targets: ["MockAPNsTool"]),
    ],
    targets: [
        .target(name: "MockAPNs"),
        // .executableTarget(name: "mockapns") was the executable's module before it was renamed
        .executableTarget(name: "MockAPNsTool", dependencies: ["MockAPNs"]),
        .testTarget(
            name: "MockAPNsTests",
            dependencies: ["MockAPNs"]
        ),
    ]
)
"""


class CheckCaseCollisionsTests(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="check-case-collisions-")
        self.addCleanup(shutil.rmtree, self.root)
        self.git("init", "-q")
        self.write("Package.swift", MANIFEST)
        self.write("Sources/MockAPNs/Mock.swift", "public struct Mock {}\n")
        self.write("Sources/MockAPNsTool/MockAPNsMain.swift", "@main enum Main { static func main() {} }\n")
        self.write("Tests/MockAPNsTests/MockTests.swift", "import MockAPNs\n")

    def git(self, *arguments):
        subprocess.run(["git", "-C", self.root, *arguments], check=True, capture_output=True)

    def write(self, name, text, track=True):
        path = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        if track:
            self.git("add", name)

    def check(self):
        """The checker's exit status and its output lines."""
        result = subprocess.run([sys.executable, CHECKER, "--root", self.root], capture_output=True, text=True,
                                timeout=60)
        return result.returncode, (result.stdout + result.stderr).strip().split("\n")

    def assertPasses(self):
        status, lines = self.check()
        self.assertEqual(status, 0, lines)
        return lines[-1]

    def assertFails(self, *expected):
        status, lines = self.check()
        self.assertEqual(status, 1, lines)
        problems = lines[:-1]
        self.assertEqual(len(problems), len(expected), lines)
        for line, text in zip(problems, expected):
            self.assertIn(text, line)
        return problems

    def test_the_repositorys_layout_passes(self):
        summary = self.assertPasses()
        self.assertIn("5 target and product name(s) in 1 manifest(s)", summary)

    def test_two_folders_differing_in_case_fail_naming_both(self):
        self.write("Sources/mockapns/MockAPNsMain.swift", "@main enum Main { static func main() {} }\n")
        self.assertFails("Sources/MockAPNs and Sources/mockapns: paths equal when case is ignored")

    def test_two_files_differing_in_case_fail_naming_both(self):
        self.write("README.md", "# A\n")
        self.write("docs/x/readme.md", "# B\n")
        self.write("docs/x/README.md", "# C\n")
        self.assertFails("docs/x/README.md and docs/x/readme.md: paths equal when case is ignored")

    def test_a_file_and_a_folder_differing_in_case_fail(self):
        self.write("Fixtures/cases", "not a folder\n")
        self.write("Fixtures/Cases/one.json", "{}\n")
        self.assertFails("Fixtures/Cases and Fixtures/cases")

    def test_a_file_moved_away_but_not_yet_removed_from_the_index_is_not_counted(self):
        self.write("Sources/mockapns/Old.swift", "// old\n")
        os.remove(os.path.join(self.root, "Sources/mockapns/Old.swift"))
        self.assertPasses()

    def test_a_new_file_not_yet_added_counts_and_an_ignored_one_does_not(self):
        self.write(".gitignore", "/.build/\n")
        self.write(".build/debug/mockapns.build/x.o", "", track=False)
        self.write(".build/debug/MockAPNs.build/x.o", "", track=False)
        self.assertPasses()
        self.write("Sources/mockAPNs/New.swift", "// new\n", track=False)
        self.assertFails("Sources/MockAPNs and Sources/mockAPNs")

    def test_two_modules_differing_in_case_fail_naming_both(self):
        self.write("Package.swift", MANIFEST.replace(
            '.executableTarget(name: "MockAPNsTool", dependencies: ["MockAPNs"])',
            '.executableTarget(name: "mockapns", dependencies: ["MockAPNs"], path: "Sources/MockAPNsTool")'))
        self.assertFails("Package.swift: target MockAPNs and executable target mockapns: two modules whose names "
                         "differ only in case")

    def test_two_executables_differing_in_case_fail(self):
        self.write("Package.swift", MANIFEST.replace(
            '.executable(name: "mockapns", targets: ["MockAPNsTool"]),',
            '.executable(name: "mockapns", targets: ["MockAPNsTool"]),\n'
            '        .executable(name: "MockAPNS", targets: ["MockAPNsTool"]),'))
        self.assertFails("executable product MockAPNS and executable product mockapns: they write MockAPNS and "
                         "mockapns into one build folder")

    def test_typed_libraries_differing_in_case_fail_and_automatic_ones_write_nothing(self):
        self.write("Package.swift", MANIFEST.replace(
            '.library(name: "MockAPNs", targets: ["MockAPNs"]),',
            '.library(name: "MockAPNs", targets: ["MockAPNs"]),\n'
            '        .library(name: "Kit", type: .dynamic, targets: ["MockAPNs"]),\n'
            '        .library(name: "kit", type: .dynamic, targets: ["MockAPNs"]),\n'
            '        .library(name: "Auto", targets: ["MockAPNs"]),'))
        self.assertFails("library product Kit and library product kit: they write libKit.dylib and libkit.dylib")

    def test_a_dependent_manifest_is_read_with_the_root_one(self):
        self.write("Examples/Sender/Package.swift", MANIFEST.replace('name: "MockAPNs"', 'name: "Sender"', 1)
                   .replace('.target(name: "MockAPNs")', '.target(name: "mockAPNs", path: "Lib")'))
        self.assertFails("Package.swift: target MockAPNs and Examples/Sender/Package.swift: target mockAPNs: two "
                         "modules")

    def test_a_computed_name_is_counted_not_checked(self):
        self.write("Fuzz/Package.swift", 'let names = ["a"]\nlet t = names.map { .executableTarget(name: "Fuzz\\($0)") }\n')
        self.assertIn("1 computed name(s) not checked", self.assertPasses())

    def test_a_checkout_that_is_not_git_is_refused_with_the_reason(self):
        shutil.rmtree(os.path.join(self.root, ".git"))
        status, lines = self.check()
        self.assertEqual(status, 1, lines)
        self.assertIn("is not a git checkout", lines[-1])


if __name__ == "__main__":
    unittest.main()
