#!/usr/bin/env python3
"""Checks that nothing in the repository needs a case-sensitive file system: macOS's default is case-insensitive, so
two names that differ only in case are one file there, and a checkout (or a user's `.build/checkouts`) merges them.

What it checks:

- paths: every file git tracks that is still in the work tree, every file not yet added (untracked, not ignored:
  the next commit's), and every folder those imply. Two of them equal when case is ignored fail;
- names in each tracked Package.swift: SwiftPM writes every target's `<name>.build/` folder and
  `Modules/<name>.swiftmodule` into one build folder, every executable product's binary `<name>` and its
  `<name>.product/` beside them, and a library product's `lib<name>.a` or `lib<name>.dylib` when it has a `type:`
  (an automatic library writes nothing). Two targets, or two of those files, whose names differ only in case fail.
  The manifests are read together, since a package that depends on this one by path builds in the same folder; one
  name used twice (a library product named after its target, a target of the example built again by its own
  package) is one name. A name with interpolation (`"Fuzz\\(name)"`) is not known without running Swift: it is
  counted, not checked.

Targets and products are found with regular expressions: the `name: "…"` right after `.target(`,
`.executableTarget(`, `.testTarget(`, `.systemLibrary(`, `.binaryTarget(`, `.plugin(`, `.macro(`, `.library(` or
`.executable(`.

Prints one line per collision, naming both, and exits 1; or prints a summary and exits 0. Standard library only;
run from anywhere inside the checkout: `python3 scripts/check-case-collisions.py`.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

DECLARATION = re.compile(r"\.(?P<kind>target|executableTarget|testTarget|systemLibrary|binaryTarget|plugin|macro|"
                         r"library|executable)\s*\(\s*name:\s*\"(?P<name>(?:[^\"\\]|\\.)*)\"")
LIBRARY_TYPE = re.compile(r"[^()]*?\btype:\s*\.(?P<type>static|dynamic)\b")
LINE_COMMENT = re.compile(r"//[^\n]*")
TARGET_KINDS = {"target", "executableTarget", "testTarget", "systemLibrary", "binaryTarget", "plugin", "macro"}
KIND_WORDS = {"target": "target", "executableTarget": "executable target", "testTarget": "test target",
              "systemLibrary": "system library target", "binaryTarget": "binary target", "plugin": "plugin target",
              "macro": "macro target", "library": "library product", "executable": "executable product"}


def listed_files(root):
    """The files git tracks that are still on disk, and the untracked ones it does not ignore, relative to `root`."""
    def git(*arguments):
        try:
            listing = subprocess.run(["git", "-C", root, *arguments], capture_output=True, check=True)
        except FileNotFoundError:
            sys.exit("check-case-collisions: git is not on the PATH; it lists the files to check")
        except subprocess.CalledProcessError as error:
            message = error.stderr.decode(errors="replace").strip()
            sys.exit(f"check-case-collisions: {root} is not a git checkout ({message}); run it inside the repository")
        return [name for name in listing.stdout.decode().split("\0") if name]

    tracked = [name for name in git("ls-files", "-z") if os.path.lexists(os.path.join(root, name))]
    return sorted(set(tracked) | set(git("ls-files", "-z", "--others", "--exclude-standard")))


def with_folders(files):
    """Every file and every folder on the way to one."""
    paths = set()
    for name in files:
        parts = name.split("/")
        for end in range(1, len(parts) + 1):
            paths.add("/".join(parts[:end]))
    return paths


def path_collisions(paths):
    """Groups of two or more paths that are one when case is ignored, each group sorted."""
    groups = collections.defaultdict(set)
    for path in paths:
        groups[path.casefold()].add(path)
    return sorted(sorted(group) for group in groups.values() if len(group) > 1)


def declarations(text):
    """(kind, name, library type or None) for every target and product the manifest declares, in order."""
    code = LINE_COMMENT.sub("", text)
    found = []
    for match in DECLARATION.finditer(code):
        library_type = None
        if match.group("kind") == "library":
            typed = LIBRARY_TYPE.match(code, match.end())
            library_type = typed.group("type") if typed else None
        found.append((match.group("kind"), match.group("name"), library_type))
    return found


def build_files(kind, name, library_type):
    """The names SwiftPM writes into the build folder for one declaration."""
    if kind in TARGET_KINDS:
        return [f"{name}.build", f"Modules/{name}.swiftmodule"]
    if kind == "executable":
        return [name, f"{name}.product"]
    if library_type == "static":
        return [f"lib{name}.a"]
    if library_type == "dynamic":
        return [f"lib{name}.dylib", f"lib{name}.so"]
    return []


def name_collisions(manifests):
    """One line per pair of declarations whose names differ only in case, and how many names were computed.
    `manifests`: [(path, text)]."""
    computed = 0
    modules = collections.defaultdict(dict)   # casefolded target name → {name: declaration}
    files = collections.defaultdict(dict)     # casefolded build file → {file: declaration}
    for path, text in manifests:
        for kind, name, library_type in declarations(text):
            if "\\(" in name:
                computed += 1
                continue
            declaration = (path, f"{KIND_WORDS[kind]} {name}")
            if kind in TARGET_KINDS:
                modules[name.casefold()].setdefault(name, declaration)
            for file in build_files(kind, name, library_type):
                files[file.casefold()].setdefault(file, declaration)
    reasons = {}   # (declaration, declaration) → why they collide; the first reason found is kept
    for group in modules.values():
        first, *others = sorted(group)
        for other in others:
            reasons.setdefault((group[first], group[other]), "two modules whose names differ only in case: one module "
                               "folder on a case-insensitive file system")
    for group in files.values():
        first, *others = sorted(group)
        for other in others:
            reasons.setdefault((group[first], group[other]),
                               f"they write {first} and {other} into one build folder, one file on a "
                               f"case-insensitive file system")
    problems = [(f"{one[0]}: {one[1]} and {another[1]}" if one[0] == another[0]
                 else f"{one[0]}: {one[1]} and {another[0]}: {another[1]}") + f": {why}"
                for (one, another), why in reasons.items()]
    return problems, computed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the checkout to check (default: the one this script is in)")
    root = os.path.abspath(parser.parse_args().root)
    files = listed_files(root)
    paths = with_folders(files)
    problems = [f"{' and '.join(group)}: paths equal when case is ignored (one path on a case-insensitive file "
                f"system, as macOS's default is)" for group in path_collisions(paths)]
    manifests = []
    for name in files:
        if os.path.basename(name) == "Package.swift":
            with open(os.path.join(root, name), encoding="utf-8") as handle:
                manifests.append((name, handle.read()))
    name_problems, computed = name_collisions(manifests)
    problems += name_problems
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-case-collisions: {len(problems)} collision(s): rename one of each pair")
        return 1
    declared = sum(len(declarations(text)) for _, text in manifests)
    skipped = f"; {computed} computed name(s) not checked" if computed else ""
    print(f"check-case-collisions: {len(paths)} path(s) and {declared - computed} target and product name(s) in "
          f"{len(manifests)} manifest(s), none equal to another when case is ignored{skipped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
