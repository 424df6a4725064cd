#!/usr/bin/env python3
"""Tests for scripts/check-glibc-imports.py: each test lays out a small git checkout of Swift files in a temporary
folder, runs the checker on it and reads its exit status and output. Standard library only:
`python3 scripts/test-check-glibc-imports.py` (add `-v` for each test's name)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-glibc-imports.py")

PAIRED = """#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
"""


class CheckGlibcImportsTests(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="check-glibc-imports-")
        self.addCleanup(shutil.rmtree, self.root)
        self.git("init", "-q")
        self.write("Sources/Support/Locked.swift", PAIRED + "public final class Locked {}\n")

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

    def test_a_paired_import_passes(self):
        self.assertIn("1 Glibc line(s), each in a branch macOS does not compile", self.assertPasses())

    def test_an_unguarded_import_fails_with_file_and_line(self):
        self.write("bench/Server/main.swift", "// A bench server.\nimport Glibc\nimport HTTP2\n")
        self.assertFails("bench/Server/main.swift:2: import Glibc, and macOS compiles this line")

    def test_every_spelling_of_the_import_is_seen(self):
        self.write("Tests/A/A.swift", "@preconcurrency import Glibc\nimport struct Glibc.timespec\n")
        self.assertFails("Tests/A/A.swift:1: import Glibc", "Tests/A/A.swift:2: import Glibc")

    def test_guards_macos_does_not_compile_pass(self):
        self.write("Tests/A/Linux.swift", "#if os(Linux)\nimport Glibc\nlet t = Int32(SOCK_STREAM.rawValue)\n#endif\n")
        self.write("Tests/A/Else.swift", "#if canImport(Darwin)\nimport Darwin\n#else\nimport Glibc\n#endif\n")
        self.write("Tests/A/Either.swift", "#if canImport(Glibc) || canImport(Musl)\nimport Glibc\n#endif\n")
        self.write("Tests/A/Nested.swift", "#if os(Linux)\n#if DEBUG\nimport Glibc\n#endif\n#endif\n")
        self.write("Tests/A/Second.swift", "#if os(Windows)\nimport WinSDK\n#elseif canImport(Glibc)\nimport Glibc\n#endif\n")
        self.assertPasses()

    def test_branches_macos_compiles_or_may_compile_fail(self):
        self.write("Tests/A/NotLinux.swift", "#if !os(Linux)\nimport Glibc\n#endif\n")
        self.write("Tests/A/Arch.swift", "#if arch(x86_64)\nimport Glibc\n#endif\n")
        self.write("Tests/A/AfterDarwin.swift", "#if canImport(Darwin)\nimport Darwin\n#endif\nimport Glibc\n")
        self.write("Tests/A/ElseOfGlibc.swift", "#if canImport(Glibc)\nlet a = 1\n#else\nimport Glibc\n#endif\n")
        self.assertFails("Tests/A/AfterDarwin.swift:4: import Glibc", "Tests/A/Arch.swift:2: import Glibc",
                         "Tests/A/ElseOfGlibc.swift:4: import Glibc", "Tests/A/NotLinux.swift:2: import Glibc")

    def test_glibc_forms_of_posix_spawn_and_environ_fail(self):
        self.write("Tests/PostgresSupport/Cluster.swift", PAIRED +
                   "func spawn() {\n"
                   "    var actions = posix_spawn_file_actions_t()\n"
                   "    _ = posix_spawn(nil, \"/bin/true\", &actions, nil, [nil], environ)\n"
                   "}\n")
        self.assertFails("Tests/PostgresSupport/Cluster.swift:8: posix_spawn_file_actions_t() is glibc's struct",
                         "Tests/PostgresSupport/Cluster.swift:9: environ is not exported to Swift on Darwin")

    def test_the_same_forms_in_their_branches_pass(self):
        self.write("Tests/PostgresSupport/Cluster.swift", PAIRED +
                   "#if canImport(Glibc)\n"
                   "var actions = posix_spawn_file_actions_t()\n"
                   "let envp = environ\n"
                   "#elseif canImport(Darwin)\n"
                   "var actions: posix_spawn_file_actions_t? = nil\n"
                   "let envp = _NSGetEnviron().pointee\n"
                   "#endif\n")
        self.assertIn("4 Glibc line(s)", self.assertPasses())

    def test_linux_only_calls_and_module_qualified_names_fail(self):
        self.write("Sources/HTTP2/Socket.swift", PAIRED +
                   "let fd = accept4(3, nil, nil, Int32(SOCK_NONBLOCK))\n"
                   "let n = Glibc.write(1, nil, 0)\n")
        self.assertFails("Sources/HTTP2/Socket.swift:7: Linux only: Darwin has no accept4",
                         "Sources/HTTP2/Socket.swift:7: Linux only: Darwin has no SOCK_NONBLOCK",
                         "Sources/HTTP2/Socket.swift:8: names the Glibc module")

    def test_comments_and_strings_are_not_read(self):
        self.write("Tests/DocSnippetTests/Snippet.swift",
                   "// import Glibc\n"
                   "/* #if os(Linux)\nimport Glibc */\n"
                   "let shown = \"import Glibc; environ\"\n"
                   "let block = \"\"\"\n    #endif\n    import Glibc\n    \"\"\"\n"
                   "let raw = #\"environ \"quoted\" Glibc.write\"#\n")
        self.assertPasses()

    def test_files_outside_the_package_and_untracked_ignored_ones_are_not_read(self):
        self.write("scripts/tool.swift", "import Glibc\n")
        self.write(".gitignore", "/.build/\n")
        self.write(".build/checkouts/x/Sources/X/X.swift", "import Glibc\n", track=False)
        self.assertPasses()

    def test_a_new_file_not_yet_added_is_read(self):
        self.write("Sources/New/New.swift", "import Glibc\n", track=False)
        self.assertFails("Sources/New/New.swift:1: import Glibc")

    def test_an_unbalanced_if_is_reported(self):
        self.write("Sources/A/A.swift", "#if os(Linux)\nimport Glibc\n")
        self.write("Sources/B/B.swift", "#endif\n")
        self.assertFails("Sources/A/A.swift: 1 #if without #endif", "Sources/B/B.swift:1: #endif without an #if")


if __name__ == "__main__":
    unittest.main()
