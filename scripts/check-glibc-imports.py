#!/usr/bin/env python3
"""Checks that every Swift file of the package still compiles on macOS as far as Glibc is concerned: an
`import Glibc`, or a form only glibc has, must sit in a branch of `#if … #endif` that macOS does not compile
(`#if canImport(Glibc)`, `#if os(Linux)`, the `#else` of `#if canImport(Darwin)`, …). Linux builds every change
(`make test`); no Mac does, so this is what keeps a Linux-only line from reaching a Mac unnoticed.

What it reads: every `.swift` file git tracks that is still in the work tree, and every one not yet added
(untracked, not ignored), under Sources/, Tests/, bench/, Examples/ and Fuzz/, with comments and string literals
left out. Each `#if`/`#elseif` condition is evaluated as a macOS build would, three ways (yes, no, unknown):
`os(macOS)` yes, any other `os(…)` no; `canImport` yes for Darwin, Foundation, Dispatch, XCTest and ObjectiveC, no for
Glibc, Musl, Bionic, Android, WASILibc, WinSDK, ucrt and FoundationNetworking, unknown otherwise; `arch`, `compiler`,
`swift`, flags and the rest unknown. A line is guarded when one of the branches around it is surely not compiled.

What it flags on an unguarded line:

- `import Glibc` (also `@preconcurrency import Glibc`, `import struct Glibc.…`) and the module name `Glibc.`;
- forms with another shape on Darwin: `posix_spawn_file_actions_t()`/`posix_spawnattr_t()` (an optional pointer
  there: start from nil), `environ` (not exported to Swift there: `_NSGetEnviron().pointee`), `SOCK_STREAM.rawValue`
  and the other socket types (plain Int32 there), glibc's `__rlimit_resource_t` and `__socket_type`, `st_mtim`,
  `st_atim` and `st_ctim` (`st_mtimespec`…);
- calls and constants Darwin lacks: `accept4`, `epoll_*`, `eventfd`, `signalfd`, `timerfd_*`, `inotify_*`,
  `memfd_create`, `pipe2`, `SOCK_NONBLOCK`, `SOCK_CLOEXEC`, `MSG_NOSIGNAL`, `O_TMPFILE`, `CLOCK_BOOTTIME`, `prctl`,
  `sysinfo`, `get_nprocs`, `sched_getaffinity`, `mallinfo`, `malloc_trim`.

Prints one line per problem (`path:line: what`) and exits 1, or prints a summary and exits 0. Standard library only;
run from anywhere inside the checkout: `python3 scripts/check-glibc-imports.py`.
"""
import argparse
import os
import re
import subprocess
import sys

FOLDERS = ("Sources/", "Tests/", "bench/", "Examples/", "Fuzz/")

IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?Glibc\b")
GLIBC_ONLY = [
    (re.compile(r"\bGlibc\s*\."), "names the Glibc module"),
    (re.compile(r"\bposix_spawn_file_actions_t\s*\(\s*\)"),
     "posix_spawn_file_actions_t() is glibc's struct; on Darwin it is an optional pointer (start from nil)"),
    (re.compile(r"\bposix_spawnattr_t\s*\(\s*\)"),
     "posix_spawnattr_t() is glibc's struct; on Darwin it is an optional pointer (start from nil)"),
    (re.compile(r"\benviron\b"), "environ is not exported to Swift on Darwin (_NSGetEnviron().pointee there)"),
    (re.compile(r"\bSOCK_(?:STREAM|DGRAM|RAW|SEQPACKET|RDM)\s*\.\s*rawValue\b"),
     "the socket types are glibc's enum; on Darwin they are Int32 (no .rawValue)"),
    (re.compile(r"\b__(?:rlimit_resource(?:_t)?|socket_type)\b"), "a glibc type Darwin does not have"),
    (re.compile(r"\bst_[mac]tim\b"), "glibc's stat field; Darwin's is st_mtimespec, st_atimespec, st_ctimespec"),
    (re.compile(r"\b(?:accept4|epoll_\w+|eventfd|signalfd|timerfd_\w+|inotify_\w+|memfd_create|pipe2|SOCK_NONBLOCK|"
                r"SOCK_CLOEXEC|MSG_NOSIGNAL|O_TMPFILE|CLOCK_BOOTTIME|prctl|sysinfo|get_nprocs|sched_getaffinity|"
                r"mallinfo2?|malloc_trim)\b"), "Linux only: Darwin has no {}"),
]
DIRECTIVE = re.compile(r"^\s*#(?P<word>if|elseif|else|endif)\b(?P<condition>.*)$")

# canImport(module) in a macOS build; a module not named here is unknown.
IMPORTABLE = {"Darwin": True, "Foundation": True, "Dispatch": True, "XCTest": True, "ObjectiveC": True,
              "Glibc": False, "Musl": False, "Bionic": False, "Android": False, "WASILibc": False, "WinSDK": False,
              "ucrt": False, "FoundationNetworking": False}
UNKNOWN = None


def swift_files(root):
    """The package's Swift files: tracked and still on disk, or untracked and not ignored; relative to `root`."""
    def git(*arguments):
        try:
            listing = subprocess.run(["git", "-C", root, *arguments], capture_output=True, check=True)
        except FileNotFoundError:
            sys.exit("check-glibc-imports: git is not on the PATH; it lists the files to check")
        except subprocess.CalledProcessError as error:
            message = error.stderr.decode(errors="replace").strip()
            sys.exit(f"check-glibc-imports: {root} is not a git checkout ({message}); run it inside the repository")
        return [name for name in listing.stdout.decode().split("\0") if name]

    names = set(git("ls-files", "-z")) | set(git("ls-files", "-z", "--others", "--exclude-standard"))
    return sorted(name for name in names if name.endswith(".swift") and name.startswith(FOLDERS)
                  and os.path.isfile(os.path.join(root, name)))


def code_lines(text):
    """Each line's code: comments and the contents of string literals removed (multi-line ones too), so a directive
    or an import spelled inside them is not read."""
    lines, depth, in_multiline = [], 0, False
    for line in text.split("\n"):
        code, index = [], 0
        while index < len(line):
            if depth:
                if line.startswith("*/", index):
                    depth, index = depth - 1, index + 2
                elif line.startswith("/*", index):
                    depth, index = depth + 1, index + 2
                else:
                    index += 1
            elif in_multiline:
                end = line.find('"""', index)
                if end < 0:
                    index = len(line)
                else:
                    in_multiline, index = False, end + 3
                    while index < len(line) and line[index] == "#":
                        index += 1
                    code.append('""')
            elif line.startswith("//", index):
                break
            elif line.startswith("/*", index):
                depth, index = 1, index + 2
            elif line.startswith('"""', index) or re.match(r'#+"""', line[index:]):
                in_multiline, index = True, line.index('"""', index) + 3
            elif line[index] == '"' or re.match(r'#+"', line[index:]):
                hashes = len(line[index:]) - len(line[index:].lstrip("#"))
                index += hashes + 1
                closing = '"' + "#" * hashes
                while index < len(line) and not line.startswith(closing, index):
                    index += 2 if line[index] == "\\" and not hashes else 1
                index += len(closing)
                code.append('""')
            else:
                code.append(line[index])
                index += 1
        lines.append("".join(code))
    return lines


def tokens(condition):
    """The condition's tokens: `(`, `)`, `!`, `&&`, `||`, and atoms such as `os(Linux)` or `compiler(>=6.0)`."""
    found, index = [], 0
    while index < len(condition):
        char = condition[index]
        if char.isspace():
            index += 1
        elif condition.startswith(("&&", "||"), index):
            found.append(condition[index:index + 2])
            index += 2
        elif char in "()!":
            found.append(char)
            index += 1
        else:
            match = re.match(r"[A-Za-z_][A-Za-z0-9_]*(?:\s*\([^()]*\))?", condition[index:])
            if not match:
                return None
            found.append(re.sub(r"\s+", "", match.group(0)))
            index += match.end()
    return found


def atom_value(atom):
    """An atom's value in a macOS build: True, False or UNKNOWN."""
    call = re.fullmatch(r"(\w+)\((.*)\)", atom)
    if not call:
        return {"true": True, "false": False}.get(atom, UNKNOWN)
    function, argument = call.groups()
    if function == "os":
        return argument == "macOS"
    if function == "canImport":
        return IMPORTABLE.get(argument.split(",")[0].split(".")[0], UNKNOWN)
    if function == "targetEnvironment":
        return False
    return UNKNOWN


def evaluate(condition):
    """The condition's value in a macOS build (Kleene's three-valued logic); UNKNOWN when it cannot be parsed."""
    parts = tokens(condition)
    if not parts:
        return UNKNOWN
    position = 0

    def peek():
        return parts[position] if position < len(parts) else None

    def take():
        nonlocal position
        position += 1
        return parts[position - 1]

    def disjunction():
        value = conjunction()
        while peek() == "||":
            take()
            value = either(value, conjunction())
        return value

    def conjunction():
        value = negation()
        while peek() == "&&":
            take()
            value = both(value, negation())
        return value

    def negation():
        if peek() == "!":
            take()
            return opposite(negation())
        if peek() == "(":
            take()
            value = disjunction()
            if take() != ")":
                raise ValueError
            return value
        atom = take()
        if atom in (None, ")", "&&", "||"):
            raise ValueError
        return atom_value(atom)

    try:
        value = disjunction()
    except (ValueError, IndexError):
        return UNKNOWN
    return value if position == len(parts) else UNKNOWN


def opposite(value):
    return UNKNOWN if value is UNKNOWN else not value


def both(one, other):
    if one is False or other is False:
        return False
    return True if one is True and other is True else UNKNOWN


def either(one, other):
    if one is True or other is True:
        return True
    return False if one is False and other is False else UNKNOWN


def check_file(name, text, problems):
    """Every unguarded Glibc line of one file; returns how many guarded ones it has."""
    # One entry per open #if: [value of the branch now open, whether an earlier branch may have been taken].
    blocks, guarded = [], 0
    for number, line in enumerate(code_lines(text), start=1):
        directive = DIRECTIVE.match(line)
        if directive:
            word, condition = directive.group("word"), directive.group("condition").strip()
            if word == "if":
                value = evaluate(condition)
                blocks.append([value, value])
            elif not blocks:
                problems.append(f"{name}:{number}: #{word} without an #if")
            elif word == "elseif":
                earlier = blocks[-1][1]
                blocks[-1] = [both(opposite(earlier), evaluate(condition)),
                              either(earlier, evaluate(condition))]
            elif word == "else":
                blocks[-1] = [opposite(blocks[-1][1]), True]
            else:
                blocks.pop()
            continue
        excluded = any(value is False for value, _ in blocks)
        found = ["import Glibc"] if IMPORT.search(line) else []
        for pattern, why in GLIBC_ONLY[1:] if found else GLIBC_ONLY:   # `import struct Glibc.x` is one problem
            for match in pattern.finditer(line):
                found.append(why.format(match.group(0)))
        if not found:
            continue
        if excluded:
            guarded += 1
            continue
        for what in found:
            problems.append(f"{name}:{number}: {what}, and macOS compiles this line: put it under "
                            f"#if canImport(Glibc) (with the Darwin form under #elseif canImport(Darwin))")
    if blocks:
        problems.append(f"{name}: {len(blocks)} #if without #endif")
    return guarded


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the checkout to check (default: the one this script is in)")
    root = os.path.abspath(parser.parse_args().root)
    problems, guarded, names = [], 0, swift_files(root)
    for name in names:
        with open(os.path.join(root, name), encoding="utf-8", errors="replace") as handle:
            guarded += check_file(name, handle.read(), problems)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-glibc-imports: {len(problems)} problem(s) in {len(names)} Swift file(s)")
        return 1
    print(f"check-glibc-imports: {len(names)} Swift file(s); {guarded} Glibc line(s), each in a branch macOS does "
          f"not compile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
