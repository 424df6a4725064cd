# MockAPNs — the two commands a newcomer needs are `make run` and `make test`.
# Both install what is missing first (Debian/Ubuntu, as root or with sudo).

SHELL      := /bin/bash
SWIFT      ?= swift
VENV       := .venv
PYTHON     := $(VENV)/bin/python
APT_PKGS   := libnghttp2-dev libssl-dev pkg-config nghttp2-client nghttp2-server curl python3-venv openssl
PY_PKGS    := h2==4.4.1 aioapns==4.0
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RUN_ARGS   ?=

.PHONY: all deps build release run test test-unit test-examples certs bench bench-transport bench-server bench-client clean

all: build

## deps: install the system packages and the Python peers the tests use, only when missing.
deps: $(VENV)/.installed
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "make deps: no Swift toolchain on PATH (need Swift 6.2 or newer)"; exit 1; }

$(VENV)/.installed:
	@dpkg -s python3-venv >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; }
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check $(PY_PKGS)
	@touch $@

## build: debug build of everything (warnings are errors).
build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## run: start the mock with working defaults (TLS on 127.0.0.1:2197, bundled test CA and key).
run: release
	.build/release/mockapns serve $(RUN_ARGS)

## test: the whole suite — unit, conformance, transport and end-to-end tests against real peers.
test: deps
	$(SWIFT) build --build-tests
	set -o pipefail; MOCKAPNS_PYTHON=$(abspath $(PYTHON)) $(SWIFT) test --skip-build 2>&1 | tee .build/test-main.log
	set -o pipefail; $(MAKE) --no-print-directory test-examples 2>&1 | tee .build/test-examples.log
	@bash scripts/test-summary.sh .build/test-main.log .build/test-examples.log

## test-examples: the example sender's suite (Examples/OrderNotifier), built against this checkout.
test-examples: deps
	cd Examples/OrderNotifier && $(SWIFT) test

## certs: regenerate the test-only credentials in certs/ (never use them in production).
certs:
	bash certs/generate.sh

## bench: performance against references measured in the same run (see bench/README.md).
bench: bench-transport bench-server bench-client

bench-transport: deps
	bash bench/transport.sh

bench-server: deps
	bash bench/server.sh

bench-client: deps
	bash bench/client.sh

clean:
	rm -rf .build $(VENV)

## test-sanitizers: server suites under AddressSanitizer (+LeakSanitizer) and ThreadSanitizer (see README "Sanitizers").
.PHONY: test-sanitizers
test-sanitizers: deps
	bash scripts/sanitizers/run.sh
