#!/usr/bin/env python3
"""Checks that every citation of the rules pages names a section the page has, so renumbering or removing a section
cannot leave code pointing at nothing. There are three pages, each cited by its own name: docs/apns-rules.md (what
APNs expects of a provider, `apns-rules §N`), docs/device-rules.md (what the device simulator does with a push,
`device-rules §N`) and docs/fcm-rules.md (what Firebase Cloud Messaging expects of a sender and sends to APNs,
`fcm-rules §N`).

What it checks, in every file git tracks (text files only, as they are on disk; not this script and its tests):

- a citation `apns-rules §N` or `apns-rules §N.M`, and the sections chained after it (`apns-rules §2.2, §6`,
  `apns-rules §3.4 and §7`, `apns-rules §2.2-2.3`): each number is a section of docs/apns-rules.md; the same for
  `device-rules §N` (`device-rules §11–§15`, `device-rules §3, §4 and §14`) and docs/device-rules.md, and for
  `fcm-rules §N` (`fcm-rules §2.6, §4.4`, `fcm-rules §3–§5`) and docs/fcm-rules.md;
- a Markdown link to apns-rules.md, device-rules.md or fcm-rules.md: its path leads to the page, its `#anchor` is one of the
  page's, and a link whose text names one section points at that section's anchor;
- a page named with an anchor outside a Markdown link (`docs/device-rules.md#inputs` in a code comment): the anchor
  is one of the page's;
- no file names a retired rules document: the APNs spec the code cited before docs/apns-rules.md, and the delivery
  rules it cited (as "<that name> rule N") before docs/device-rules.md (both names this script spells in two halves,
  so that it does not match itself);
- each page itself: each section anchor sits right above its heading and matches the heading's number, every
  `](#anchor)` link points at an anchor the page has, and every link to a file of the repository leads to one.

Prints one line per problem (`path:line: what`) and exits 1, or prints a summary and exits 0. Standard library only;
run from anywhere inside the checkout: `python3 scripts/check-rule-refs.py`.
"""
import argparse
import os
import re
import subprocess
import sys

# This script and its tests hold wrong citations on purpose (patterns, planted mistakes); they are not read.
NOT_READ = {"scripts/check-rule-refs.py", "scripts/test-check-rule-refs.py"}
# The document the code cited before docs/apns-rules.md existed; written in two halves so this file does not match.
RETIRED = re.compile(r"(?<![a-z0-9])" + re.escape("APNS" + "-SPEC") + r"(?![a-z])", re.IGNORECASE)
# The document the device rules were cited from before docs/device-rules.md existed, never in the repository; in
# two halves for the same reason. A citation of one of its rules, and its rule numbers (`… rules 3, 4 and 14`).
RETIRED_DELIVERY = re.compile(re.escape("DELIVERY" + ".md"))
RETIRED_DELIVERY_RULES = re.compile(re.escape("DELIVERY" + ".md") +
                                    r"\s+rules?\s+(?P<numbers>\d+(?:\s*(?:,|[-–]|\band\b)\s*\d+)*)")

SECTION = r"\d+(?:\.\d+)*"
ONE_REF = rf"§\s?{SECTION}(?:\s?[-–]\s?§?{SECTION})?"
CHAINED_NUMBER = re.compile(rf"({SECTION})")
ANCHOR = re.compile(r'^<a id="(?P<id>[^"]+)"></a>\s*$')
HEADING = re.compile(rf"^#{{2,3}} §(?P<number>{SECTION}) \S")
LOCAL_LINK = re.compile(r"\]\(#(?P<anchor>[^)\s]+)\)")
FILE_LINK = re.compile(r"\]\((?P<path>(?!#)(?![a-z][a-z0-9+.-]*:)[^)\s#]+)(?:#[^)\s]*)?\)")


class Page:
    """One rules page: the name it is cited by, where it is, and the patterns that find its citations and links."""

    def __init__(self, name, path):
        self.name = name
        self.path = path
        self.citation = re.compile(
            rf"{re.escape(name)}\s+(?P<chain>{ONE_REF}(?:\s*(?:,|\band\b|\bor\b|&)\s*{ONE_REF})*)")
        # [text](path/NAME.md#anchor): the path may be relative, the anchor optional.
        self.link = re.compile(
            rf"\[(?P<text>[^\]]*)\]\((?P<path>[^)\s#]*{re.escape(name)}\.md)(?:#(?P<anchor>[^)\s]*))?\)")
        # docs/NAME.md#anchor outside a Markdown link, as code comments name an unnumbered part of the page.
        self.named_anchor = re.compile(rf"(?<![\w-]){re.escape(name)}\.md#(?P<anchor>[A-Za-z0-9_-]+)")
        self.sections = set()
        self.anchors = set()


PAGES = [Page("apns-rules", "docs/apns-rules.md"), Page("device-rules", "docs/device-rules.md"),
         Page("fcm-rules", "docs/fcm-rules.md")]


def anchor_of(number):
    """The anchor of section `number`: §4.8 → s4-8."""
    return "s" + number.replace(".", "-")


def read_rules(root, page, problems):
    """The page's section numbers and every anchor it defines, checking its own structure on the way."""
    rules = page.path
    path = os.path.join(root, rules)
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
    except OSError as error:
        sys.exit(f"check-rule-refs: cannot read {rules} ({error.strerror}); it is the page every "
                 f"'{page.name} §N' citation points to")
    sections, anchors = set(), set()
    in_code = False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        anchor = ANCHOR.match(line)
        heading = HEADING.match(line)
        if anchor:
            anchors.add(anchor.group("id"))
            following = lines[index + 1] if index + 1 < len(lines) else ""
            numbered = HEADING.match(following)
            if anchor.group("id").startswith("s") and anchor.group("id")[1:2].isdigit():
                if not numbered:
                    problems.append(f"{rules}:{index + 1}: anchor {anchor.group('id')} is not right above a "
                                    f"'## §N …' or '### §N.M …' heading")
                elif anchor_of(numbered.group("number")) != anchor.group("id"):
                    problems.append(f"{rules}:{index + 1}: anchor {anchor.group('id')} is above the heading of "
                                    f"§{numbered.group('number')}; it should be {anchor_of(numbered.group('number'))}")
        elif heading:
            number = heading.group("number")
            above = lines[index - 1] if index > 0 else ""
            above_anchor = ANCHOR.match(above)
            if not above_anchor or above_anchor.group("id") != anchor_of(number):
                problems.append(f"{rules}:{index + 1}: §{number} has no anchor; put <a id=\"{anchor_of(number)}\"></a> "
                                f"on the line above its heading")
            if number in sections:
                problems.append(f"{rules}:{index + 1}: §{number} is a heading twice")
            sections.add(number)
    in_code = False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for link in LOCAL_LINK.finditer(line):
            if link.group("anchor") not in anchors:
                problems.append(f"{rules}:{index + 1}: link to #{link.group('anchor')}, which the page does not have")
        for link in FILE_LINK.finditer(line):
            target = os.path.normpath(os.path.join(os.path.dirname(path), link.group("path")))
            if not os.path.exists(target):
                problems.append(f"{rules}:{index + 1}: link to {link.group('path')}, which does not exist")
    if not sections:
        problems.append(f"{rules}:1: no '## §N' headings found: is this the rules page?")
    page.sections, page.anchors = sections, anchors
    return sections, anchors


def tracked_files(root):
    """The files git tracks under `root`, as paths relative to it."""
    try:
        listing = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True)
    except FileNotFoundError:
        sys.exit("check-rule-refs: git is not on the PATH; it lists the files to check")
    except subprocess.CalledProcessError as error:
        message = error.stderr.decode(errors="replace").strip()
        sys.exit(f"check-rule-refs: {root} is not a git checkout ({message}); run it inside the repository")
    return [name for name in listing.stdout.decode().split("\0") if name]


def text_of(path):
    """The file's text, or None for a binary file, an unreadable one or one deleted from the work tree."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def check_file(root, name, text, pages, problems):
    """Every citation and rules link in one file; returns how many sections it cites."""
    cited = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if RETIRED.search(line):
            problems.append(f"{name}:{number}: cites the retired rules document; cite docs/apns-rules.md as "
                            f"'apns-rules §N' (a link to docs/apns-rules.md#sN in Markdown)")
        if RETIRED_DELIVERY.search(line):
            dangling = RETIRED_DELIVERY_RULES.search(line)
            if dangling:
                numbers = dangling.group("numbers")
                wanted = re.sub(r"\d+", lambda digits: "§" + digits.group(0), numbers)
                first = re.match(r"\d+", numbers).group(0)
                rule = "rules" if wanted.count("§") > 1 else "rule"
                problems.append(f"{name}:{number}: cites {rule} {numbers} of a delivery rules document the repository "
                                f"does not have; cite 'device-rules {wanted}' (a link to docs/device-rules.md#s{first} "
                                f"in Markdown)")
            else:
                problems.append(f"{name}:{number}: names a delivery rules document the repository does not have; "
                                f"cite docs/device-rules.md ('device-rules §N')")
        for page in pages:
            cited += check_page_references(root, name, number, line, page, problems)
    return cited


def check_page_references(root, name, number, line, page, problems):
    """The citations of one page in one line, its Markdown links and its named anchors; returns the citations."""
    cited = 0
    rules = page.path
    rules_path = os.path.join(root, rules)
    for citation in page.citation.finditer(line):
        for section in CHAINED_NUMBER.findall(citation.group("chain")):
            cited += 1
            if section not in page.sections:
                problems.append(f"{name}:{number}: {page.name} §{section} does not exist in {rules}")
    links = []
    for link in page.link.finditer(line):
        links.append(link.span())
        target = os.path.normpath(os.path.join(root, os.path.dirname(name), link.group("path")))
        if target != os.path.normpath(rules_path):
            problems.append(f"{name}:{number}: link {link.group('path')} does not lead to {rules}")
        anchor = link.group("anchor")
        if anchor is None:
            continue
        if anchor not in page.anchors:
            problems.append(f"{name}:{number}: link to {rules}#{anchor}, which the page does not have")
            continue
        named = re.findall(rf"§\s?({SECTION})", link.group("text"))
        if len(named) == 1 and anchor_of(named[0]) != anchor:
            problems.append(f"{name}:{number}: link text says §{named[0]} but points at #{anchor} "
                            f"(§{named[0]} is #{anchor_of(named[0])})")
    for mention in page.named_anchor.finditer(line):
        if any(start <= mention.start() < end for start, end in links):
            continue
        if mention.group("anchor") not in page.anchors:
            problems.append(f"{name}:{number}: {page.name}.md#{mention.group('anchor')} names an anchor "
                            f"{rules} does not have")
    return cited


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the checkout to check (default: the one this script is in)")
    root = os.path.abspath(parser.parse_args().root)
    problems = []
    for page in PAGES:
        read_rules(root, page, problems)
    cited, citing = 0, 0
    for name in tracked_files(root):
        if name in NOT_READ:
            continue
        text = text_of(os.path.join(root, name))
        if text is None:
            continue
        count = check_file(root, name, text, PAGES, problems)
        cited += count
        citing += 1 if count else 0
    for problem in problems:
        print(problem)
    counts = [f"{page.path} has {len(page.sections)}" for page in PAGES]
    pages = ", ".join(counts[:-1]) + " and " + counts[-1] if len(counts) > 1 else counts[0]
    if problems:
        print(f"check-rule-refs: {len(problems)} problem(s); {pages} sections")
        return 1
    print(f"check-rule-refs: {cited} citation(s) in {citing} file(s), all of them sections of their page "
          f"({pages} sections)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
