#!/usr/bin/env python3
"""Tests for scripts/check-rule-refs.py: each test lays out a small git checkout (the three rules pages and a few citing
files) in a temporary folder, runs the checker on it and reads its exit status and output. Standard library only:
`python3 scripts/test-check-rule-refs.py` (add `-v` for each test's name)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-rule-refs.py")

RULES_PAGE = """# Rules

- [§1 One](#s1), [§2.1](#s2-1), [a case](../Fixtures/case.json)

<a id="s1"></a>
## §1 One

<a id="s2"></a>
## §2 Two

<a id="s2-1"></a>
### §2.1 Two, first

<a id="s2-2"></a>
### §2.2 Two, second

```json
{"not": "a heading", "see": "](#nowhere)"}
```
"""

DEVICE_PAGE = """# Device rules

- [Inputs](#inputs), [§1 One](#s1), [§10 Ten](#s10), [a scenario](../Fixtures/devices/001.json)

<a id="inputs"></a>
## Inputs

<a id="s1"></a>
## §1 One

<a id="s10"></a>
## §10 Ten

<a id="over-time"></a>
## Over time

<a id="s11"></a>
## §11 Eleven

<a id="s15"></a>
## §15 Fifteen
"""

FCM_PAGE = """# FCM rules

- [§1 Hosts](#s1), [§3.6](#s3-6), [Sources](#sources)

<a id="s1"></a>
## §1 Hosts

<a id="s1-1"></a>
### §1.1 Sending

<a id="s3"></a>
## §3 The message

<a id="s3-6"></a>
### §3.6 `data`

<a id="s4"></a>
## §4 Errors

<a id="s4-5"></a>
### §4.5 APNs's answer

<a id="sources"></a>
## Sources
"""

# The retired delivery rules document, in two halves so that this file does not name it.
OLD_DELIVERY = "DELIVERY" + ".md"


class CheckRuleRefsTests(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="check-rule-refs-")
        self.addCleanup(shutil.rmtree, self.root)
        self.git("init", "-q")
        self.write("docs/apns-rules.md", RULES_PAGE)
        self.write("docs/device-rules.md", DEVICE_PAGE)
        self.write("docs/fcm-rules.md", FCM_PAGE)
        self.write("Fixtures/case.json", '{"spec": "apns-rules §2.1"}\n')
        self.write("Fixtures/devices/001.json", '{"rules": "device-rules §11"}\n')

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

    def assertFails(self, *expected):
        status, lines = self.check()
        self.assertEqual(status, 1, lines)
        problems = lines[:-1]
        self.assertEqual(len(problems), len(expected), lines)
        for line, text in zip(problems, expected):
            self.assertIn(text, line)
        return problems

    def test_existing_sections_pass(self):
        self.write("Sources/A.swift", "/// Rule (apns-rules §2.2, §1 and §2.1; RFC 7519 §9).\n"
                                      "/// Builders for apns-rules §2.1-2.2.\n")
        status, lines = self.check()
        self.assertEqual(status, 0, lines)
        self.assertIn("7 citation(s) in 3 file(s)", lines[-1])

    def test_dangling_section_is_listed_with_file_and_line(self):
        self.write("Sources/A.swift", "import X\n// apns-rules §3.1: gone\n")
        self.assertFails("Sources/A.swift:2: apns-rules §3.1 does not exist")

    def test_every_section_of_a_chain_and_a_range_is_checked(self):
        self.write("Sources/A.swift", "// apns-rules §2.1, §7\n// apns-rules §2.1-2.9\n// apns-rules §1 and §4.4\n")
        self.assertFails("Sources/A.swift:1: apns-rules §7 ", "Sources/A.swift:2: apns-rules §2.9 ",
                         "Sources/A.swift:3: apns-rules §4.4 ")

    def test_another_documents_section_after_a_semicolon_is_not_a_citation(self):
        self.write("Fixtures/b.json", '{"spec": "apns-rules §1; RFC 7519 §42"}\n')
        status, lines = self.check()
        self.assertEqual(status, 0, lines)

    def test_the_retired_document_name_fails(self):
        self.write("Tests/T.swift", "// see " + "APNS" + "-SPEC §2.1\n")
        self.assertFails("Tests/T.swift:1: cites the retired rules document")

    def test_words_that_only_contain_the_retired_name_pass(self):
        self.write("kits/node/test/t.js", "mkdtempSync('mock" + "apns" + "-spec-'); // APNs" + "-specific options\n")
        status, lines = self.check()
        self.assertEqual(status, 0, lines)

    def test_markdown_links_must_reach_the_page_and_an_anchor_it_has(self):
        self.write("CONTRIBUTING.md", "Limit ([apns-rules §2.1](docs/apns-rules.md#s2-1)).\n"
                                      "Gone ([apns-rules §2.2](docs/apns-rules.md#s9)).\n"
                                      "Wrong ([apns-rules §1](docs/apns-rules.md#s2)).\n"
                                      "Path ([apns-rules §1](apns-rules.md#s1)).\n")
        self.assertFails("CONTRIBUTING.md:2: link to docs/apns-rules.md#s9",
                         "CONTRIBUTING.md:3: link text says §1 but points at #s2",
                         "CONTRIBUTING.md:4: link apns-rules.md does not lead to docs/apns-rules.md")

    def test_a_link_from_a_nested_folder_resolves_relative_to_it(self):
        self.write("Fixtures/README.md", "See [the rules](../docs/apns-rules.md#s2).\n")
        status, lines = self.check()
        self.assertEqual(status, 0, lines)

    def test_removing_a_section_from_the_page_fails_its_citations(self):
        self.write("Sources/A.swift", "// apns-rules §2.2\n")
        self.write("docs/apns-rules.md", RULES_PAGE.replace('<a id="s2-2"></a>\n### §2.2 Two, second\n', ""))
        self.assertFails("Sources/A.swift:1: apns-rules §2.2 does not exist")

    def test_the_pages_anchors_must_match_its_headings(self):
        self.write("docs/apns-rules.md", RULES_PAGE.replace('<a id="s2-2"></a>', '<a id="s2-3"></a>'))
        self.assertFails("docs/apns-rules.md:14: anchor s2-3 is above the heading of §2.2",
                         "docs/apns-rules.md:15: §2.2 has no anchor")

    def test_the_pages_own_links_must_resolve(self):
        self.write("docs/apns-rules.md", RULES_PAGE + "\nSee [§5](#s5) and [case 9](../Fixtures/009.json).\n")
        self.assertFails("link to #s5, which the page does not have", "link to ../Fixtures/009.json, which does not")

    def test_untracked_files_are_not_read(self):
        self.write("Sources/Scratch.swift", "// apns-rules §8\n", track=False)
        status, lines = self.check()
        self.assertEqual(status, 0, lines)

    def test_the_checker_and_its_tests_are_not_read(self):
        self.write("scripts/test-check-rule-refs.py", "PLANTED = 'apns-rules §9'\n")
        status, lines = self.check()
        self.assertEqual(status, 0, lines)
        self.write("scripts/other.py", "PLANTED = 'apns-rules §9'\n")
        self.assertFails("scripts/other.py:1: apns-rules §9 does not exist")

    def test_a_checkout_without_the_page_is_refused_with_the_reason(self):
        os.remove(os.path.join(self.root, "docs/apns-rules.md"))
        status, lines = self.check()
        self.assertEqual(status, 1, lines)
        self.assertIn("cannot read docs/apns-rules.md", lines[-1])

    # The device rules page: cited as `device-rules §N`, checked against docs/device-rules.md the same way.

    def test_device_rules_citations_that_exist_pass(self):
        self.write("Sources/D.swift", "/// Over time (device-rules §11–§15; §1 for taps).\n"
                                      "/// Routing (device-rules §1, §10 and §11, apns-rules §2.1).\n"
                                      "/// The defaults (docs/device-rules.md#inputs, docs/device-rules.md#over-time).\n")
        self.write("docs/guide.md", "See [device-rules §10](device-rules.md#s10) and [the inputs](device-rules.md#inputs).\n")
        status, lines = self.check()
        self.assertEqual(status, 0, lines)
        # 1 (apns) + 1 (device fixture) + 6 in D.swift (§11, §15, §1, §10, §11 and apns-rules §2.1) + 1 in guide.md.
        self.assertIn("9 citation(s) in 4 file(s)", lines[-1])
        self.assertIn("docs/device-rules.md has 4 and docs/fcm-rules.md has 6 sections", lines[-1])

    def test_a_dangling_device_rules_section_fails(self):
        self.write("Sources/D.swift", "// device-rules §12: not on the page\n// device-rules §1, §7 and §10\n"
                                      "// device-rules §11–§16\n")
        self.assertFails("Sources/D.swift:1: device-rules §12 does not exist in docs/device-rules.md",
                         "Sources/D.swift:2: device-rules §7 does not exist",
                         "Sources/D.swift:3: device-rules §16 does not exist")

    def test_an_apns_rules_section_is_not_a_device_rules_section(self):
        self.write("Sources/D.swift", "// device-rules §2.1 (an apns-rules section)\n")
        self.assertFails("Sources/D.swift:1: device-rules §2.1 does not exist in docs/device-rules.md")

    def test_device_rules_links_must_reach_the_page_and_an_anchor_it_has(self):
        self.write("Fixtures/devices/README.md", "Good ([device-rules §11](../../docs/device-rules.md#s11)).\n"
                                                 "Gone ([device-rules §1](../../docs/device-rules.md#s9)).\n"
                                                 "Wrong ([device-rules §1](../../docs/device-rules.md#s10)).\n"
                                                 "Path ([device-rules §1](../docs/device-rules.md#s1)).\n")
        self.assertFails("Fixtures/devices/README.md:2: link to docs/device-rules.md#s9, which the page does not have",
                         "Fixtures/devices/README.md:3: link text says §1 but points at #s10",
                         "Fixtures/devices/README.md:4: link ../docs/device-rules.md does not lead to "
                         "docs/device-rules.md")

    def test_a_named_anchor_outside_a_link_must_be_one_the_page_has(self):
        self.write("Sources/D.swift", "/// (docs/device-rules.md#inputs)\n/// (docs/device-rules.md#outputs)\n"
                                      "/// (docs/apns-rules.md#s2-1, docs/apns-rules.md#s4-8)\n")
        self.assertFails("Sources/D.swift:2: device-rules.md#outputs names an anchor docs/device-rules.md does not have",
                         "Sources/D.swift:3: apns-rules.md#s4-8 names an anchor docs/apns-rules.md does not have")

    def test_a_bad_anchor_in_a_link_is_reported_once(self):
        self.write("docs/guide.md", "See [the outputs](device-rules.md#outputs).\n")
        self.assertFails("docs/guide.md:1: link to docs/device-rules.md#outputs, which the page does not have")

    def test_a_dangling_delivery_rule_citation_fails_with_the_citation_to_write(self):
        self.write("Sources/D.swift", f"/// {OLD_DELIVERY} rule 10: system handlers.\n")
        self.write("Fixtures/devices/002.json", f'{{"rules": "{OLD_DELIVERY} rules 3, 4, 5 and 14; seed 000"}}\n')
        self.write("Tests/T.swift", f'XCTAssertEqual(text, "outside the model ({OLD_DELIVERY} rules 1–9)")\n')
        problems = self.assertFails("Fixtures/devices/002.json:1: cites rules 3, 4, 5 and 14 of a delivery rules document",
                                    "Sources/D.swift:1: cites rule 10 of a delivery rules document",
                                    "Tests/T.swift:1: cites rules 1–9 of a delivery rules document")
        self.assertIn("cite 'device-rules §3, §4, §5 and §14'", problems[0])
        self.assertIn("cite 'device-rules §10' (a link to docs/device-rules.md#s10 in Markdown)", problems[1])
        self.assertIn("cite 'device-rules §1–§9'", problems[2])

    def test_naming_the_delivery_rules_document_without_a_rule_fails_too(self):
        self.write("docs/guide.md", f"The defaults are {OLD_DELIVERY}'s.\n")
        self.assertFails("docs/guide.md:1: names a delivery rules document the repository does not have")

    def test_the_device_rules_pages_own_structure_is_checked(self):
        self.write("docs/device-rules.md", DEVICE_PAGE.replace('<a id="s10"></a>', '<a id="s9"></a>')
                   + "\nSee [§12](#s12).\n")
        self.assertFails("docs/device-rules.md:11: anchor s9 is above the heading of §10",
                         "docs/device-rules.md:12: §10 has no anchor",
                         "docs/device-rules.md:3: link to #s10, which the page does not have",
                         "docs/device-rules.md:23: link to #s12, which the page does not have")

    def test_removing_a_device_rules_section_fails_its_citations(self):
        self.write("docs/device-rules.md", DEVICE_PAGE.replace('<a id="s11"></a>\n## §11 Eleven\n', ""))
        self.assertFails("Fixtures/devices/001.json:1: device-rules §11 does not exist in docs/device-rules.md")

    def test_a_checkout_without_the_device_rules_page_is_refused_with_the_reason(self):
        os.remove(os.path.join(self.root, "docs/device-rules.md"))
        status, lines = self.check()
        self.assertEqual(status, 1, lines)
        self.assertIn("cannot read docs/device-rules.md", lines[-1])

    # The FCM rules page: cited as `fcm-rules §N`, checked against docs/fcm-rules.md the same way.

    def test_fcm_rules_citations_that_exist_pass(self):
        self.write("Sources/F.swift", "/// Reserved keys (fcm-rules §3.6).\n"
                                      "/// The answer (fcm-rules §1.1, §4.5 and §3; apns-rules §2.1).\n"
                                      "/// Every rule (fcm-rules §3–§4).\n")
        self.write("Fixtures/fcm/001.json", '{"rules": "fcm-rules §1.1"}\n')
        self.write("docs/fcm.md", "See [fcm-rules §3.6](fcm-rules.md#s3-6) and [the sources](fcm-rules.md#sources).\n")
        status, lines = self.check()
        self.assertEqual(status, 0, lines)
        # 2 in setUp's fixtures + 7 in F.swift (§3.6, §1.1, §4.5, §3, apns-rules §2.1, §3, §4) + 1 fixture + 1 in fcm.md.
        self.assertIn("11 citation(s) in 5 file(s)", lines[-1])
        self.assertIn("docs/device-rules.md has 4 and docs/fcm-rules.md has 6 sections", lines[-1])

    def test_a_dangling_fcm_rules_section_fails(self):
        self.write("Sources/F.swift", "// fcm-rules §3.13: not on the page\n// fcm-rules §1, §7 and §3.6\n"
                                      "// fcm-rules §3–§5\n")
        self.assertFails("Sources/F.swift:1: fcm-rules §3.13 does not exist in docs/fcm-rules.md",
                         "Sources/F.swift:2: fcm-rules §7 does not exist",
                         "Sources/F.swift:3: fcm-rules §5 does not exist")

    def test_an_apns_rules_section_is_not_an_fcm_rules_section(self):
        self.write("Sources/F.swift", "// fcm-rules §2.1 (an apns-rules section)\n")
        self.assertFails("Sources/F.swift:1: fcm-rules §2.1 does not exist in docs/fcm-rules.md")

    def test_fcm_rules_links_must_reach_the_page_and_an_anchor_it_has(self):
        self.write("Fixtures/fcm/README.md", "Good ([fcm-rules §3.6](../../docs/fcm-rules.md#s3-6)).\n"
                                             "Gone ([the grant](../../docs/fcm-rules.md#s2)).\n"
                                             "Wrong ([fcm-rules §1](../../docs/fcm-rules.md#s1-1)).\n"
                                             "Path ([fcm-rules §1](../docs/fcm-rules.md#s1)).\n")
        self.assertFails("Fixtures/fcm/README.md:2: link to docs/fcm-rules.md#s2, which the page does not have",
                         "Fixtures/fcm/README.md:3: link text says §1 but points at #s1-1",
                         "Fixtures/fcm/README.md:4: link ../docs/fcm-rules.md does not lead to docs/fcm-rules.md")

    def test_the_fcm_rules_pages_own_structure_is_checked(self):
        self.write("docs/fcm-rules.md", FCM_PAGE.replace('<a id="s4-5"></a>', '<a id="s4-4"></a>'))
        self.assertFails("docs/fcm-rules.md:20: anchor s4-4 is above the heading of §4.5",
                         "docs/fcm-rules.md:21: §4.5 has no anchor")

    def test_a_checkout_without_the_fcm_rules_page_is_refused_with_the_reason(self):
        os.remove(os.path.join(self.root, "docs/fcm-rules.md"))
        status, lines = self.check()
        self.assertEqual(status, 1, lines)
        self.assertIn("cannot read docs/fcm-rules.md", lines[-1])


if __name__ == "__main__":
    unittest.main()
