#!/usr/bin/env python3
"""Checks that every citation of the APNs rules names a section docs/apns-rules.md has, so renumbering or removing a
section cannot leave code pointing at nothing.

What it checks, in every file git tracks (text files only, as they are on disk; not this script and its tests):

- a citation `apns-rules §N` or `apns-rules §N.M`, and the sections chained after it (`apns-rules §2.2, §6`,
  `apns-rules §3.4 and §7`, `apns-rules §2.2-2.3`): each number is a section of docs/apns-rules.md;
- a Markdown link to apns-rules.md: its path leads to docs/apns-rules.md, its `#anchor` is one of the page's, and a
  link whose text names one section points at that section's anchor;
- no file names the retired rules document (the name this script spells in two halves, so that it does not match
  itself);
- the page itself: each section anchor sits right above its heading and matches the heading's number, every
  `](#anchor)` link points at an anchor the page has, and every link to a file of the repository leads to one.

Prints one line per problem (`path:line: what`) and exits 1, or prints a summary and exits 0. Standard library only;
run from anywhere inside the checkout: `python3 scripts/check-rule-refs.py`.
"""
import argparse
import os
import re
import subprocess
import sys

RULES = "docs/apns-rules.md"
# This script and its tests hold wrong citations on purpose (patterns, planted mistakes); they are not read.
NOT_READ = {"scripts/check-rule-refs.py", "scripts/test-check-rule-refs.py"}
# The document the code cited before docs/apns-rules.md existed; written in two halves so this file does not match.
RETIRED = re.compile(re.escape("APNS" + "-SPEC"), re.IGNORECASE)

SECTION = r"\d+(?:\.\d+)*"
ONE_REF = rf"§\s?{SECTION}(?:\s?[-–]\s?§?{SECTION})?"
CITATION = re.compile(rf"apns-rules\s+(?P<chain>{ONE_REF}(?:\s*(?:,|\band\b|\bor\b|&)\s*{ONE_REF})*)")
CHAINED_NUMBER = re.compile(rf"({SECTION})")
# [text](path/apns-rules.md#anchor): the path may be relative, the anchor optional.
RULES_LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<path>[^)\s#]*apns-rules\.md)(?:#(?P<anchor>[^)\s]*))?\)")
ANCHOR = re.compile(r'^<a id="(?P<id>[^"]+)"></a>\s*$')
HEADING = re.compile(rf"^#{{2,3}} §(?P<number>{SECTION}) \S")
LOCAL_LINK = re.compile(r"\]\(#(?P<anchor>[^)\s]+)\)")
FILE_LINK = re.compile(r"\]\((?P<path>(?!#)(?![a-z][a-z0-9+.-]*:)[^)\s#]+)(?:#[^)\s]*)?\)")


def anchor_of(number):
    """The anchor of section `number`: §4.8 → s4-8."""
    return "s" + number.replace(".", "-")


def read_rules(root, problems):
    """The page's section numbers and every anchor it defines, checking its own structure on the way."""
    path = os.path.join(root, RULES)
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
    except OSError as error:
        sys.exit(f"check-rule-refs: cannot read {RULES} ({error.strerror}); it is the page every citation points to")
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
                    problems.append(f"{RULES}:{index + 1}: anchor {anchor.group('id')} is not right above a "
                                    f"'## §N …' or '### §N.M …' heading")
                elif anchor_of(numbered.group("number")) != anchor.group("id"):
                    problems.append(f"{RULES}:{index + 1}: anchor {anchor.group('id')} is above the heading of "
                                    f"§{numbered.group('number')}; it should be {anchor_of(numbered.group('number'))}")
        elif heading:
            number = heading.group("number")
            above = lines[index - 1] if index > 0 else ""
            above_anchor = ANCHOR.match(above)
            if not above_anchor or above_anchor.group("id") != anchor_of(number):
                problems.append(f"{RULES}:{index + 1}: §{number} has no anchor; put <a id=\"{anchor_of(number)}\"></a> "
                                f"on the line above its heading")
            if number in sections:
                problems.append(f"{RULES}:{index + 1}: §{number} is a heading twice")
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
                problems.append(f"{RULES}:{index + 1}: link to #{link.group('anchor')}, which the page does not have")
        for link in FILE_LINK.finditer(line):
            target = os.path.normpath(os.path.join(os.path.dirname(path), link.group("path")))
            if not os.path.exists(target):
                problems.append(f"{RULES}:{index + 1}: link to {link.group('path')}, which does not exist")
    if not sections:
        problems.append(f"{RULES}:1: no '## §N' headings found: is this the rules page?")
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


def check_file(root, name, text, sections, anchors, problems):
    """Every citation and rules link in one file; returns how many sections it cites."""
    cited = 0
    rules_path = os.path.join(root, RULES)
    for number, line in enumerate(text.split("\n"), start=1):
        if RETIRED.search(line):
            problems.append(f"{name}:{number}: cites the retired rules document; cite docs/apns-rules.md as "
                            f"'apns-rules §N' (a link to docs/apns-rules.md#sN in Markdown)")
        for citation in CITATION.finditer(line):
            for section in CHAINED_NUMBER.findall(citation.group("chain")):
                cited += 1
                if section not in sections:
                    problems.append(f"{name}:{number}: apns-rules §{section} does not exist in {RULES}")
        for link in RULES_LINK.finditer(line):
            target = os.path.normpath(os.path.join(root, os.path.dirname(name), link.group("path")))
            if target != os.path.normpath(rules_path):
                problems.append(f"{name}:{number}: link {link.group('path')} does not lead to {RULES}")
            anchor = link.group("anchor")
            if anchor is None:
                continue
            if anchor not in anchors:
                problems.append(f"{name}:{number}: link to {RULES}#{anchor}, which the page does not have")
                continue
            named = re.findall(rf"§\s?({SECTION})", link.group("text"))
            if len(named) == 1 and anchor_of(named[0]) != anchor:
                problems.append(f"{name}:{number}: link text says §{named[0]} but points at #{anchor} "
                                f"(§{named[0]} is #{anchor_of(named[0])})")
    return cited


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the checkout to check (default: the one this script is in)")
    root = os.path.abspath(parser.parse_args().root)
    problems = []
    sections, anchors = read_rules(root, problems)
    cited, citing = 0, 0
    for name in tracked_files(root):
        if name in NOT_READ:
            continue
        text = text_of(os.path.join(root, name))
        if text is None:
            continue
        count = check_file(root, name, text, sections, anchors, problems)
        cited += count
        citing += 1 if count else 0
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-rule-refs: {len(problems)} problem(s); {RULES} has {len(sections)} sections")
        return 1
    print(f"check-rule-refs: {cited} citation(s) in {citing} file(s), all of them sections of {RULES} "
          f"({len(sections)} sections)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
