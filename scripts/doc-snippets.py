#!/usr/bin/env python3
"""Checks that every code block of the documentation still works, so a snippet that rots fails `make test` (run as
`make test-docs`). The documents: README.md, CONTRIBUTING.md, docs/*.md, Examples/*/README.md and the test kits'
READMEs (kits/*/README.md); a new Markdown
file in docs/ is checked without being listed here (UNCHECKED_DOCUMENTS names the exceptions, with their reasons).

Each fenced block is one of these kinds, named by an HTML comment on the line before it
(`<!-- snippet: KIND -->`, invisible on GitHub); a block without one gets the default for its language:

  swift   file (default)      a whole test file: compiled, and its tests run, as Tests/DocSnippetTests (a test
                              target of the root package, written by `swift --write`, compared by `swift --check`)
          package             a Package.swift fragment: DocSnippetTests must depend on what it names, and the
                              standalone package (`swift --package`) gets its manifest from it
          xctest-members      members of an XCTestCase that has the fixture of Examples/OrderNotifier
                              (mock, client, store, notifier, order, phone, oldTablet, token)
          xctest-statements   statements in a method of that XCTestCase (compiled, not run)
  json    json (default)      must parse
  sh      run (default)       run by bash in a temporary folder (certs/ and Fixtures/ linked in, `mockapns`
                              on PATH), with `set -euo pipefail`, a 60 s limit each
          run-with-mock       the same, after starting `mockapns serve --port 0 --ready-file mock.json`; the
                              documents' default addresses (127.0.0.1:2197 / :2198) become the mock's, and a
                              `mockapns send` without --url is sent to it
  (none)  transcript          `$ mockapns …` then its output: the command is run and must print exactly that
  python  pytest              a pytest file, run by the Python kit's venv (kits/python/.venv), whose plugin gives
                              it the `apns_mock` fixture
  go      go-test             a _test.go file, run by `go test` in a scratch module that requires the Go kit
                              (github.com/mockapns/mockapns/kits/go, replaced by kits/go: there is no module
                              proxy); or, marked `go-test IMPORT…`, a test function: the runner
                              adds `package snippet_test` and imports the paths the mark lists
  js      node-test           an ES module run by `node --test`, with the package `mockapns` (kits/node) installed
  yaml    yaml-parse          must parse as YAML (a Kubernetes manifest, where no cluster runs)
          github-workflow     a GitHub Actions workflow: checked by actionlint
  any     skip REASON         not checked (say why)

A block in a language with no runner here (yaml, …) is skipped without a mark, and so is an unmarked python, go or
js block (those run only when marked); a mark naming a kind of another language (`snippet: run` on a python
block) is an error, so no block is run by the wrong interpreter. Every shell block runs in a folder laid out like
the repository's root, whichever document holds it; a kit block runs in a folder of its own, set up as above,
with MOCKAPNS_BIN naming the binary given, and line numbers in its output are its document's.

Usage:
  doc-snippets.py swift --write                         write Tests/DocSnippetTests from the documents
  doc-snippets.py swift --check                         fail unless Tests/DocSnippetTests matches the documents
  doc-snippets.py swift --package DIR --checkout PATH   the same blocks as a standalone package in DIR (the release
                                                        workflow builds it, as a user's package would be)
  doc-snippets.py swift-consumer --write                write Tests/ConsumerPackage's test files: the Swift blocks
                                                        of docs/swift-test-kit.md (and the example sender they test)
                                                        with their imports reduced to `import APNsTesting`
  doc-snippets.py swift-consumer --check                fail unless those files match the document
                                                        (scripts/test-consumer-package.sh compiles the package)
  doc-snippets.py shell --mockapns PATH                 run the shell blocks and transcripts
  doc-snippets.py kits --mockapns PATH [--python PATH]  run the python, go and js blocks with the test kits
                                                        (--python: the kit venv's python, by default
                                                        kits/python/.venv/bin/python)
  doc-snippets.py yaml --python PATH --actionlint PATH  parse the yaml blocks (PATH's PyYAML) and check the
                                                        workflow blocks with actionlint
  doc-snippets.py list                                  print every block and its kind, then the count per kind
"""
import collections
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# In this order: the front page, the contributor guide, the reference pages, the examples, the test kits.
DOCUMENT_PATTERNS = ["README.md", "CONTRIBUTING.md", "docs/*.md", "Examples/*/README.md", "kits/*/README.md"]
# Documents left out whole, each with the reason (`list` prints them). Prefer marking a block `snippet: skip REASON`:
# a document left out here would not have a runnable block checked either.
UNCHECKED_DOCUMENTS: dict[str, str] = {}
FENCE = re.compile(r"^```(\w*)\s*$")
MARK = re.compile(r"^<!--\s*snippet:\s*(.*?)\s*-->\s*$")
DEFAULT_KIND = {"swift": "file", "json": "json", "sh": "run", "": "transcript"}
# The kinds a block of each language may be marked with (besides skip); a language missing here has no runner.
LANGUAGE_KINDS = {"swift": {"file", "package", "xctest-members", "xctest-statements"}, "json": {"json"},
                  "sh": {"run", "run-with-mock"}, "": {"transcript"},
                  "python": {"pytest"}, "go": {"go-test"}, "js": {"node-test"},
                  "yaml": {"yaml-parse", "github-workflow"}}
KINDS = set().union(*LANGUAGE_KINDS.values()) | {"skip"}


class Block:
    def __init__(self, document, line, language, kind, argument, text):
        self.document, self.line, self.language = document, line, language
        self.kind, self.argument, self.text = kind, argument, text

    @property
    def name(self):
        return f"{self.document}:{self.line}"

    @property
    def identifier(self):
        stem = re.sub(r"[^A-Za-z0-9]", "_", os.path.splitext(self.document)[0])
        return f"{stem}_L{self.line}"


def documents():
    """The documents whose blocks are checked, as paths relative to the repository's root."""
    found = []
    for pattern in DOCUMENT_PATTERNS:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            document = os.path.relpath(path, ROOT)
            if document not in UNCHECKED_DOCUMENTS:
                found.append(document)
    if "README.md" not in found:
        sys.exit(f"doc-snippets: no README.md in {ROOT}")
    return found


def blocks():
    """Every fenced block of every document, with its kind."""
    found = []
    for document in documents():
        with open(os.path.join(ROOT, document), encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        index = 0
        while index < len(lines):
            opening = FENCE.match(lines[index])
            if not opening:
                index += 1
                continue
            language = opening.group(1)
            mark = MARK.match(lines[index - 1]) if index > 0 else None
            if mark:
                words = mark.group(1).split(None, 1)
            elif language in DEFAULT_KIND:
                words = [DEFAULT_KIND[language]]
            elif language in LANGUAGE_KINDS:
                kinds = ", ".join(sorted(LANGUAGE_KINDS[language]))
                words = ["skip", f"unmarked {language} block (one runs only when marked: {kinds})"]
            else:
                words = ["skip", f"no runner for {language} blocks"]
            kind, argument = words[0], (words[1] if len(words) > 1 else "")
            if kind not in KINDS:
                sys.exit(f"{document}:{index + 1}: unknown snippet kind '{kind}' (known: {', '.join(sorted(KINDS))})")
            if kind == "skip" and not argument:
                sys.exit(f"{document}:{index + 1}: 'snippet: skip' needs a reason")
            if kind != "skip" and kind not in LANGUAGE_KINDS.get(language, set()):
                allowed = ", ".join(sorted(LANGUAGE_KINDS.get(language, set()))) or "none: mark it skip REASON"
                sys.exit(f"{document}:{index + 1}: a ```{language or '(no language)'} block cannot be "
                         f"'snippet: {kind}' (kinds for it: {allowed})")
            end = index + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                sys.exit(f"{document}:{index + 1}: code block never closed")
            found.append(Block(document, index + 1, language, kind, argument, "\n".join(lines[index + 1:end])))
            index = end + 1
    return found


# ---------------------------------------------------------------- swift

XCTEST_CONTEXT = """\
import APNsTesting
import OrderNotifier
import XCTest

/// The fixture the documents' XCTest fragments assume (the same as Examples/OrderNotifier's suite).
class DocSnippetXCTestContext: XCTestCase {
    let phone = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"
    let oldTablet = "6b1f0e2d9c3a4b5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5"
    var token: String { phone }
    let order = Order(id: "42", customerID: "alice", carrier: "UPS")

    var mock: APNsMock!
    var client: APNsClient!
    var store: InMemoryTokenStore!
    var notifier: OrderNotifier!

    override func setUp() async throws {
        mock = try await APNsMock.start()
        client = try mock.makeClient()
        store = InMemoryTokenStore(["alice": [phone, oldTablet]])
        notifier = OrderNotifier(client: client, bundleID: "com.example.shop", tokens: store)
    }

    override func tearDown() async throws {
        await client.shutdown()
        await mock.stop()
    }
}
"""

MANIFEST = """\
// swift-tools-version:6.2
// Generated by scripts/doc-snippets.py from the Package.swift fragment at {source}; do not edit.
import PackageDescription

let package = Package(
    name: "DocSnippets",
    platforms: [.macOS(.v15)],
    dependencies: [
{dependencies}
        .package(name: "OrderNotifier", path: {example}),
    ],
    targets: [
{targets}
    ]
)
"""


def split_package_fragment(text):
    """A document's fragment `.package(…),  // …  .testTarget(…)` → (dependency lines, target lines)."""
    lines = [line for line in text.split("\n") if line.strip() not in ("// …", "")]
    for index, line in enumerate(lines):
        if line.lstrip().startswith((".testTarget", ".target")):
            return lines[:index], lines[index:]
    sys.exit("the Package.swift fragment has no .testTarget")


def swift_manifest_parts():
    """The documents' Package.swift fragments, checked to describe one shape → (first block, dependency lines,
    target lines, test target name)."""
    swift = [block for block in blocks() if block.language == "swift" and block.kind != "skip"]
    manifests = [block for block in swift if block.kind == "package"]
    if not manifests:
        sys.exit("no Package.swift fragment (snippet: package) found")
    target_name = None
    dependency_lines, target_lines = [], []
    for block in manifests:
        dependencies, targets = split_package_fragment(block.text)
        name = re.search(r'\.testTarget\(name:\s*"([^"]+)"', "\n".join(targets))
        if not name:
            sys.exit(f"{block.name}: no .testTarget(name: …)")
        if target_name is None:
            target_name = name.group(1)
            dependency_lines, target_lines = dependencies, targets
        elif name.group(1) != target_name:
            sys.exit(f"{block.name}: test target {name.group(1)} differs from {target_name} in {manifests[0].name}")
    return manifests[0], dependency_lines, target_lines, target_name


def swift_test_files():
    """Every Swift block but the manifest fragments, as the files of one test target: {file name: text}. A file is
    named by its document and the block's place among that document's Swift blocks, not its line, so prose added above
    a block changes nothing here."""
    swift = [block for block in blocks() if block.language == "swift" and block.kind not in ("skip", "package")]
    files = {"DocSnippetXCTestContext.swift": XCTEST_CONTEXT}
    ordinals = collections.Counter()
    for block in swift:
        ordinals[block.document] += 1
        stem = re.sub(r"[^A-Za-z0-9]", "_", os.path.splitext(block.document)[0])
        name = f"{stem}_swift{ordinals[block.document]}"
        header = (f"// {block.document}, Swift block {ordinals[block.document]} (generated by scripts/doc-snippets.py; "
                  "edit the document, not this file)\n")
        if block.kind == "file":
            # File-scope names are module-wide: clashes between snippets show up as compile errors naming the file.
            body = block.text
        elif block.kind == "xctest-members":
            body = f"import APNsTesting\nimport XCTest\n\nextension DocSnippetXCTestContext {{\n{block.text}\n}}"
        else:
            body = ("import APNsTesting\nimport XCTest\n\nextension DocSnippetXCTestContext {\n"
                    f"    func snippet_{name}() async throws {{\n{block.text}\n    }}\n}}")
        files[f"{name}.swift"] = header + body + "\n"
    return files, swift


def fragment_dependencies(target_lines):
    """The names a fragment's test target depends on: "OrderNotifier", and each .product(name: …)."""
    text = "\n".join(target_lines)
    plain = re.findall(r'^\s*"([^"]+)",', text, re.M)
    products = re.findall(r'\.product\(name:\s*"([^"]+)"', text)
    return sorted(set(plain + products))


def root_target_dependencies(name):
    """The dependencies of the root Package.swift's test target `name`, as written there."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as handle:
        manifest = handle.read()
    found = re.search(r'\.testTarget\(\s*name:\s*"' + re.escape(name) + r'",\s*dependencies:\s*\[([^\]]*)\]', manifest)
    if not found:
        sys.exit(f"Package.swift has no test target {name}: the documentation's Swift blocks are compiled there")
    return sorted(re.findall(r'"([^"]+)"', found.group(1)))


SNIPPET_TARGET = "DocSnippetTests"


def write_swift_target(check):
    """Writes (or, with `check`, compares) Tests/DocSnippetTests: the documents' Swift blocks as a test target of the
    root package, so `make test` compiles them with everything else. The target's dependencies must be the ones the
    documents' Package.swift fragment names, so a snippet cannot lean on a module a user would not have."""
    manifest, _, target_lines, _ = swift_manifest_parts()
    wanted, named = root_target_dependencies(SNIPPET_TARGET), fragment_dependencies(target_lines)
    if wanted != named:
        sys.exit(f"{manifest.name}: the fragment's test target depends on {named}, Package.swift's {SNIPPET_TARGET} on "
                 f"{wanted}: make them the same")
    files, blocks_written = swift_test_files()
    directory = os.path.join(ROOT, "Tests", SNIPPET_TARGET)
    present = {}
    if os.path.isdir(directory):
        for name in os.listdir(directory):
            with open(os.path.join(directory, name), encoding="utf-8") as handle:
                present[name] = handle.read()
    if check:
        stale = sorted(name for name in set(files) | set(present) if files.get(name) != present.get(name))
        if stale:
            sys.exit(f"doc-snippets: Tests/{SNIPPET_TARGET} differs from the documents ({', '.join(stale)}): run "
                     f"`python3 scripts/doc-snippets.py swift --write` and commit the result")
        print(f"doc-snippets: Tests/{SNIPPET_TARGET} matches the documents' {len(files) - 1} Swift block(s) "
              f"({count_by_kind(blocks_written)})")
        return
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    for name, text in files.items():
        with open(os.path.join(directory, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    print(f"doc-snippets: {len(files) - 1} Swift snippet(s) ({count_by_kind(blocks_written)}) written to Tests/{SNIPPET_TARGET}")


def write_swift_package(directory, checkout):
    """The documents' Swift blocks as a package of their own, its manifest built from the fragment: what a user's
    package looks like (the release workflow builds it; `make test` compiles the same files in the root package)."""
    manifest_block, dependencies, target_lines, target_name = swift_manifest_parts()
    shutil.rmtree(os.path.join(directory, "Tests"), ignore_errors=True)
    os.makedirs(directory, exist_ok=True)
    dependency_lines = [re.sub(r'\.package\((?:url|path):\s*"[^"]*"(?:,\s*(?:from|branch):\s*"[^"]*")?\)',
                               f'.package(name: "MockAPNs", path: {json.dumps(checkout)})', line, count=1)
                        for line in dependencies]
    example = json.dumps(os.path.join(checkout, "Examples/OrderNotifier"))
    manifest = MANIFEST.format(source=manifest_block.name, dependencies="\n".join("    " + l for l in dependency_lines),
                               example=example, targets="\n".join("    " + l for l in target_lines))
    # The fragment names the sender "OrderNotifier" as a target; here it is the example package's product.
    manifest = manifest.replace('        "OrderNotifier",', '        .product(name: "OrderNotifier", package: "OrderNotifier"),')
    with open(os.path.join(directory, "Package.swift"), "w", encoding="utf-8") as handle:
        handle.write(manifest)
    tests = os.path.join(directory, "Tests", target_name)
    os.makedirs(tests)
    files, blocks_written = swift_test_files()
    for name, text in files.items():
        with open(os.path.join(tests, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    print(f"doc-snippets: {len(files) - 1} Swift snippet(s) ({count_by_kind(blocks_written)}) and the manifest from "
          f"{manifest_block.name} written to {directory}")


# ---------------------------------------------------------------- swift-consumer

# Tests/ConsumerPackage: a package of its own that depends on this repository's product APNsTesting and nothing else,
# whose one test target holds docs/swift-test-kit.md's Swift blocks (as swift_test_files() lays them out, so the same
# blocks are compiled here as in DocSnippetTests) with every import reduced to `import APNsTesting` (+ XCTest /
# Testing where the block had them), so it fails to compile when a block needs a module the kit does not re-export.
# The sender those blocks test (Examples/OrderNotifier's sources) is compiled into the same target, reduced the same
# way, since a user's sender is their own module, not the kit's. Built by scripts/test-consumer-package.sh.
CONSUMER_DOCUMENT = "docs/swift-test-kit.md"
CONSUMER_PACKAGE = "Tests/ConsumerPackage"
CONSUMER_TARGET = "ConsumerPackageTests"
CONSUMER_SENDER = "Examples/OrderNotifier/Sources/OrderNotifier"
# The sender's module: its sources are in the consumer's target, so `import OrderNotifier` is dropped.
CONSUMER_SENDER_MODULE = "OrderNotifier"
# The imports a consumer file may keep, in the order they are written.
CONSUMER_KEPT_IMPORTS = ("APNsTesting", "Testing", "XCTest")
IMPORT_LINE = re.compile(r"^(?:@\w+\s+)*import\s+(?:(?:struct|enum|class|protocol|typealias|func|let|var)\s+)?"
                         r"([A-Za-z_]\w*)")


def package_module_names():
    """Every target name of the root Package.swift: the modules `import APNsTesting` must stand in for."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as handle:
        manifest = handle.read()
    return set(re.findall(r'\.(?:target|testTarget|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"', manifest))


def consumer_reduced(text, source, note):
    """`text` with its imports reduced: `import APNsTesting` first, then `import Testing` / `import XCTest` where `text`
    had them, then `note` (a comment line), then the rest. An import of this package's modules or of the sender is
    dropped (APNsTesting must supply what the block uses); any other import is an error naming `source`."""
    droppable = package_module_names() | {CONSUMER_SENDER_MODULE}
    modules, rest = set(), []
    for line in text.split("\n"):
        found = IMPORT_LINE.match(line)
        if not found:
            rest.append(line)
            continue
        module = found.group(1)
        if module not in CONSUMER_KEPT_IMPORTS and module not in droppable:
            sys.exit(f"doc-snippets: {source} imports {module}: a package that depends on APNsTesting alone has "
                     f"only {', '.join(CONSUMER_KEPT_IMPORTS)} (mark the block `snippet: skip REASON` if it needs more)")
        modules.add(module)
    while rest and not rest[0].strip():
        rest.pop(0)
    imports = [f"import {module}" for module in CONSUMER_KEPT_IMPORTS
               if module == "APNsTesting" or module in modules]
    return "\n".join(imports) + "\n\n" + note + "\n\n" + "\n".join(rest).rstrip("\n") + "\n"


def consumer_files():
    """The consumer's test target: {file name: text}, and the blocks it holds."""
    files, written = swift_test_files()
    stem = re.sub(r"[^A-Za-z0-9]", "_", os.path.splitext(CONSUMER_DOCUMENT)[0])
    selected = [block for block in written if block.document == CONSUMER_DOCUMENT]
    if not selected:
        sys.exit(f"doc-snippets: {CONSUMER_DOCUMENT} has no Swift block for {CONSUMER_PACKAGE}")
    generated = "written by\n// `scripts/doc-snippets.py swift-consumer --write`"
    result = {}
    for name, text in files.items():
        if name == "DocSnippetXCTestContext.swift":
            note = (f"// The fixture {CONSUMER_DOCUMENT}'s XCTest fragments assume, as in Tests/{SNIPPET_TARGET} "
                    f"({generated}: edit XCTEST_CONTEXT there, not this file)")
        elif name.startswith(stem + "_swift"):
            ordinal = name[len(stem + "_swift"):-len(".swift")]
            # Drop swift_test_files()'s own header line; this file says where it comes from after its imports.
            text = text.split("\n", 1)[1]
            note = (f"// {CONSUMER_DOCUMENT}, Swift block {ordinal}, with its imports reduced to APNsTesting "
                    f"({generated}: edit the document, not this file)")
        else:
            continue
        result[name] = consumer_reduced(text, f"{CONSUMER_DOCUMENT} ({name})", note)
    sender = os.path.join(ROOT, CONSUMER_SENDER)
    for source in sorted(os.listdir(sender)):
        if not source.endswith(".swift"):
            continue
        with open(os.path.join(sender, source), encoding="utf-8") as handle:
            text = handle.read()
        path = f"{CONSUMER_SENDER}/{source}"
        note = (f"// {path}: the sender under test,\n// compiled into this target with its imports reduced to "
                f"APNsTesting ({generated}: edit the example, not this file)")
        result[f"{CONSUMER_SENDER_MODULE}_{source}"] = consumer_reduced(text, path, note)
    return result, selected


def check_consumer_manifest():
    """Tests/ConsumerPackage/Package.swift (written by hand) depends on this repository by path and on the product
    APNsTesting only, and names the test target the files are written to."""
    path = os.path.join(ROOT, CONSUMER_PACKAGE, "Package.swift")
    if not os.path.exists(path):
        sys.exit(f"doc-snippets: no {CONSUMER_PACKAGE}/Package.swift")
    with open(path, encoding="utf-8") as handle:
        manifest = handle.read()
    packages = re.findall(r'\.package\(([^)]*)\)', manifest)
    products = re.findall(r'\.product\(name:\s*"([^"]+)"', manifest)
    if len(packages) != 1 or 'path: "../.."' not in packages[0] or products != ["APNsTesting"]:
        sys.exit(f"doc-snippets: {CONSUMER_PACKAGE}/Package.swift must depend on this repository (path: \"../..\") and "
                 f"on its product APNsTesting alone (found packages {packages}, products {products})")
    if not re.search(r'\.testTarget\(\s*name:\s*"' + re.escape(CONSUMER_TARGET) + '"', manifest):
        sys.exit(f"doc-snippets: {CONSUMER_PACKAGE}/Package.swift has no test target {CONSUMER_TARGET}")


def write_consumer_package(check):
    """Writes (or, with `check`, compares) Tests/ConsumerPackage/Tests/ConsumerPackageTests."""
    check_consumer_manifest()
    files, selected = consumer_files()
    relative = f"{CONSUMER_PACKAGE}/Tests/{CONSUMER_TARGET}"
    directory = os.path.join(ROOT, relative)
    present = {}
    if os.path.isdir(directory):
        for name in os.listdir(directory):
            with open(os.path.join(directory, name), encoding="utf-8") as handle:
                present[name] = handle.read()
    if check:
        stale = sorted(name for name in set(files) | set(present) if files.get(name) != present.get(name))
        if stale:
            sys.exit(f"doc-snippets: {relative} differs from {CONSUMER_DOCUMENT} ({', '.join(stale)}): run "
                     f"`python3 scripts/doc-snippets.py swift-consumer --write` and commit the result")
        print(f"doc-snippets: {relative} matches {CONSUMER_DOCUMENT}'s {len(selected)} Swift block(s) "
              f"({count_by_kind(selected)}), imports reduced to APNsTesting")
        return
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    for name, text in files.items():
        with open(os.path.join(directory, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    print(f"doc-snippets: {CONSUMER_DOCUMENT}'s {len(selected)} Swift block(s) ({count_by_kind(selected)}) and the "
          f"sender written to {relative}")

# ---------------------------------------------------------------- shell

def read_ready(path, process, deadline):
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"doc-snippets: the mock exited with {process.returncode} before it was ready")
        try:
            with open(path, encoding="utf-8") as handle:
                return json.load(handle)
        except (FileNotFoundError, json.JSONDecodeError):
            time.sleep(0.05)
    sys.exit("doc-snippets: the mock was not ready within 30 s")


def count_by_kind(selected):
    """`json 2, run 1` for the blocks given, in a stable order."""
    counts = collections.Counter(block.kind for block in selected)
    return ", ".join(f"{kind} {counts[kind]}" for kind in sorted(counts)) or "none"


def run_shell(mockapns):
    mockapns = os.path.abspath(mockapns)
    failures, checked = [], []
    for block in blocks():
        if block.kind == "json":
            try:
                json.loads(block.text)
            except json.JSONDecodeError as error:
                failures.append(f"{block.name}: not JSON: {error}")
            checked.append(block)
            continue
        if block.kind not in ("run", "run-with-mock", "transcript"):
            continue
        checked.append(block)
        failure = run_block(block, mockapns)
        if failure:
            failures.append(f"{block.name} ({block.kind}): {failure}")
    for failure in failures:
        print("FAIL " + failure, file=sys.stderr)
    print(f"doc-snippets: {len(checked)} shell/JSON/transcript block(s) checked ({count_by_kind(checked)}), "
          f"{len(failures)} failed")
    return 1 if failures else 0


def run_block(block, mockapns):
    work = tempfile.mkdtemp(prefix="doc-snippet-")
    mock = None
    try:
        for folder in ("certs", "Fixtures"):
            os.symlink(os.path.join(ROOT, folder), os.path.join(work, folder))
        bin_dir = os.path.join(work, ".bin")
        os.makedirs(bin_dir)
        os.symlink(mockapns, os.path.join(bin_dir, "mockapns"))
        # The documents' stand-in for "your app": sends one push to $APNS_URL trusting $APNS_CA.
        with open(os.path.join(bin_dir, "run-my-sender"), "w", encoding="utf-8") as handle:
            handle.write('#!/usr/bin/env bash\nset -e\n'
                         'echo \'{"aps":{"alert":{"title":"Shipped","body":"Order 42"}}}\' > .sender-payload.json\n'
                         'mockapns send .sender-payload.json --url "$APNS_URL" --ca "$APNS_CA" --topic com.example.app '
                         '--token 00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0 >/dev/null\n')
        os.chmod(os.path.join(bin_dir, "run-my-sender"), 0o755)
        shutil.copy(os.path.join(bin_dir, "run-my-sender"), os.path.join(work, "run-my-sender"))
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
        env = {k: v for k, v in env.items() if not k.startswith("MOCKAPNS_")}
        text = block.text
        if block.kind == "run-with-mock":
            mock = subprocess.Popen([mockapns, "serve", "--port", "0", "--quiet", "--ready-file", "mock.json"],
                                    cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            ready = read_ready(os.path.join(work, "mock.json"), mock, time.monotonic() + 30)
            apns = ready["apns_url"].split("://", 1)[1]
            control = ready["control_url"].split("://", 1)[1]
            text = text.replace("127.0.0.1:2197", apns).replace("127.0.0.1:2198", control)
            text = re.sub(r"\bmockapns send (?![^\n]*--url)", f"mockapns send --url {ready['apns_url']} ", text)
        if block.kind == "transcript":
            return run_transcript(block, text, work, env)
        return run_script(text, work, env)
    finally:
        if mock is not None:
            mock.send_signal(signal.SIGTERM)
            try:
                mock.wait(timeout=10)
            except subprocess.TimeoutExpired:
                mock.kill()
        shutil.rmtree(work, ignore_errors=True)


def run_process(command, work, env, limit):
    """Runs `command` in `work` in its own process group, and ends whatever it left running (a `serve &` whose
    script failed before its `kill %1`), so a failing block cannot leave a mock behind. Output goes to files,
    not pipes, so a background process holding them open cannot keep this waiting.
    Returns (exit status, or None if it ran past `limit` seconds; stdout; stderr)."""
    with open(os.path.join(work, ".stdout"), "w+") as out, open(os.path.join(work, ".stderr"), "w+") as err:
        process = subprocess.Popen(command, cwd=work, env=env, stdout=out, stderr=err, start_new_session=True)
        try:
            status = process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            status = None
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        if status is None:
            process.kill()
            process.wait()
        out.seek(0)
        err.seek(0)
        return status, out.read(), err.read()


def run_script(text, work, env):
    """Runs `text` with bash (run_process): None, or what went wrong."""
    status, out, err = run_process(["bash", "-c", "set -euo pipefail\n" + text], work, env, 60)
    if status is None:
        return f"did not finish within 60 s\n--- script\n{text}"
    if status != 0:
        return f"exit {status}\n--- script\n{text}\n--- stdout\n{out}--- stderr\n{err}"
    return None


def run_transcript(block, text, work, env):
    lines = text.split("\n")
    if not lines or not lines[0].startswith("$ mockapns "):
        return None  # plain output shown for illustration (e.g. an assertion message): nothing to run
    command, expected = lines[0][2:], "\n".join(lines[1:]).rstrip("\n")
    result = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=60)
    got = (result.stdout + result.stderr).rstrip("\n")
    if got != expected:
        return f"`{command}` printed\n{got}\n--- the document says\n{expected}"
    return None


# ---------------------------------------------------------------- kits (python, go, js)

KIT_KINDS = ("pytest", "go-test", "node-test")
# Seconds one kit block may take, a limit only against a hang: the first `go test` compiles the kit.
KIT_LIMIT = 300
GO_MOD = """\
module snippet

go 1.19

require github.com/mockapns/mockapns/kits/go v0.0.0

replace github.com/mockapns/mockapns/kits/go => {kit}
"""


def run_kits(mockapns, python):
    mockapns, python = os.path.abspath(mockapns), os.path.abspath(python)
    if not os.access(mockapns, os.X_OK):
        sys.exit(f"doc-snippets: no executable mockapns at {mockapns}; build it (swift build --product mockapns)")
    selected = [block for block in blocks() if block.kind in KIT_KINDS]
    needs = {"pytest": (python, "`make kits/python/.venv/.installed` makes the Python kit's venv"),
             "go-test": ("go", "install Go 1.19 or later (Debian's golang-go; `make deps` installs it)"),
             "node-test": ("node", "install Node 18 or later (Debian's nodejs; `make deps` installs it)")}
    for kind in sorted({block.kind for block in selected}):
        program, remedy = needs[kind]
        if not shutil.which(program):
            sys.exit(f"doc-snippets: the {kind} blocks need {program}, which is missing: {remedy}")
    failures = []
    for number, block in enumerate(selected, 1):
        failure = run_kit_block(block, number, mockapns, python)
        if failure:
            failures.append(f"{block.name} ({block.kind}): {failure}")
    for failure in failures:
        print("FAIL " + failure, file=sys.stderr)
    print(f"doc-snippets: {len(selected)} kit block(s) checked ({count_by_kind(selected)}), {len(failures)} failed")
    return 1 if failures else 0


def run_yaml(python, actionlint):
    """yaml-parse blocks through `python`'s PyYAML, github-workflow blocks through actionlint (as a file named like a
    workflow, so it reads it as one)."""
    python, actionlint = os.path.abspath(python), os.path.abspath(actionlint)
    selected = [block for block in blocks() if block.kind in ("yaml-parse", "github-workflow")]
    failures = []
    for block in selected:
        work = tempfile.mkdtemp(prefix="doc-snippet-yaml-")
        try:
            if block.kind == "yaml-parse":
                path = os.path.join(work, "block.yaml")
                command = [python, "-c", "import sys, yaml; list(yaml.safe_load_all(open(sys.argv[1])))", path]
            else:
                os.makedirs(os.path.join(work, ".github", "workflows"))
                path = os.path.join(work, ".github", "workflows", "block.yml")
                command = [actionlint, "-color=false", path]
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(block.text)
            status, out, err = run_process(command, work, dict(os.environ), 60)
            if status != 0:
                failures.append(f"{block.name} ({block.kind}): exit {status}\n{out}{err}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL " + failure, file=sys.stderr)
    print(f"doc-snippets: {len(selected)} YAML block(s) checked ({count_by_kind(selected)}), {len(failures)} failed")
    return 1 if failures else 0


def go_test_source(block):
    """The _test.go file for a go-test block: the block itself, or the test functions it holds after the package
    clause and the imports its mark lists. A //line directive makes the compiler and `go test` name the
    document's lines. Raises ValueError when the mark and the block disagree."""
    whole_file = re.match(r"(\s*//[^\n]*\n)*\s*package\s", block.text) is not None
    if whole_file and block.argument:
        raise ValueError("the block has its own package clause, so its mark must not list imports")
    if not whole_file and not block.argument:
        raise ValueError("the block has no package clause: list its imports in the mark "
                         "(`<!-- snippet: go-test github.com/mockapns/mockapns/kits/go testing … -->`)")
    directive = f"//line {os.path.join(ROOT, block.document)}:{block.line + 1}\n"
    if whole_file:
        return directive + block.text + "\n"
    imports = "".join(f"\t{json.dumps(path)}\n" for path in block.argument.split())
    return f"package snippet_test\n\nimport (\n{imports})\n\n{directive}{block.text}\n"


def run_kit_block(block, number, mockapns, python):
    """Runs one python, go or js block with its kit in a folder of its own: None, or what went wrong with the
    runner's output."""
    if block.argument and block.kind != "go-test":
        return f"'snippet: {block.kind}' takes no argument (got '{block.argument}')"
    work = tempfile.mkdtemp(prefix="doc-snippet-")
    try:
        env = {key: value for key, value in os.environ.items() if not key.startswith("MOCKAPNS_")}
        env["MOCKAPNS_BIN"] = mockapns
        # Blank lines before the block put each of its lines at its line number in the document.
        padded = "\n" * block.line + block.text + "\n"
        if block.kind == "pytest":
            name = f"test_snippet_{number}.py"
            files = {name: padded}
            command = [python, "-m", "pytest", "-p", "no:cacheprovider", "-q", name]
        elif block.kind == "node-test":
            os.makedirs(os.path.join(work, "node_modules"))
            os.symlink(os.path.join(ROOT, "kits", "node"), os.path.join(work, "node_modules", "mockapns"))
            files = {"snippet.test.mjs": padded}
            command = ["node", "--test", "snippet.test.mjs"]
        else:
            try:
                source = go_test_source(block)
            except ValueError as error:
                return str(error)
            files = {"go.mod": GO_MOD.format(kit=os.path.join(ROOT, "kits", "go")), "snippet_test.go": source}
            env.update(GOFLAGS="-mod=mod", GOPROXY="off")
            command = ["go", "test", "-count=1", "./..."]
        for name, text in files.items():
            with open(os.path.join(work, name), "w", encoding="utf-8") as handle:
                handle.write(text)
        status, out, err = run_process(command, work, env, KIT_LIMIT)
        shown = " ".join(["python" if part == python else part for part in command])
        if status is None:
            return f"`{shown}` did not finish within {KIT_LIMIT} s\n--- stdout\n{out}--- stderr\n{err}"
        if status != 0:
            return (f"`{shown}` exited with {status} (line numbers below are {block.document}'s)\n"
                    f"--- stdout\n{out}--- stderr\n{err}")
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    arguments = sys.argv[1:]
    if not arguments:
        sys.exit(__doc__)
    if arguments[0] == "list":
        found = blocks()
        for block in found:
            print(f"{block.name:45} {block.language or '-':6} {block.kind} {block.argument}")
        for document, reason in sorted(UNCHECKED_DOCUMENTS.items()):
            if os.path.exists(os.path.join(ROOT, document)):
                print(f"{document:45} not checked: {reason}")
        print(f"{len(found)} block(s) in {len(documents())} document(s): {count_by_kind(found)}")
        return 0
    if arguments[0] == "swift" and arguments[1:] in (["--write"], ["--check"]):
        write_swift_target(check=arguments[1] == "--check")
        return 0
    if arguments[0] == "swift-consumer" and arguments[1:] in (["--write"], ["--check"]):
        write_consumer_package(check=arguments[1] == "--check")
        return 0
    if arguments[0] == "swift" and len(arguments) == 5 and arguments[1] == "--package" and arguments[3] == "--checkout":
        write_swift_package(os.path.abspath(arguments[2]), os.path.abspath(arguments[4]))
        return 0
    if arguments[0] == "yaml" and len(arguments) == 5 and arguments[1] == "--python" and arguments[3] == "--actionlint":
        return run_yaml(arguments[2], arguments[4])
    if arguments[0] == "shell" and len(arguments) == 3 and arguments[1] == "--mockapns":
        return run_shell(arguments[2])
    if arguments[0] == "kits" and len(arguments) in (3, 5) and arguments[1] == "--mockapns":
        if len(arguments) == 3:
            return run_kits(arguments[2], os.path.join(ROOT, "kits", "python", ".venv", "bin", "python"))
        if arguments[3] == "--python":
            return run_kits(arguments[2], arguments[4])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
