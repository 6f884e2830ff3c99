# Failscope: the quick start and every check. See README.md.
SWIFT       ?= swift
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
PREFIX      ?= /usr/local
CONFIG      ?= release
DEB_PACKAGES = libsqlite3-dev libpng-dev libfreetype-dev libmicrohttpd-dev libssl-dev zlib1g-dev \
               fonts-dejavu-core fontconfig pngcheck libjs-chart.js sqlite3 curl libpq-dev postgresql \
               libcurl4-openssl-dev

.PHONY: all build release install test test-deps lint lint-page-objects check-adoption schemathesis bench demo deps \
        format clean

all: build

## deps: install the Debian packages the build needs (apt-get; sudo when not root)
deps:
	@scripts/install-deps.sh $(DEB_PACKAGES)

## test-deps: what the browser tests add (headless Chromium and its driver, selenium)
test-deps: deps
	@scripts/install-test-deps.sh

build:
	$(SWIFT) build $(SWIFT_FLAGS)

release:
	$(SWIFT) build -c release $(SWIFT_FLAGS)

## install: the failscope binary in $(PREFIX)/bin and the dashboard in $(PREFIX)/share/failscope/Web,
## where the binary finds it (PREFIX=/usr/local by default; DESTDIR for packaging; CONFIG=debug to skip
## the release build)
install:
	$(SWIFT) build -c $(CONFIG) --product failscope $(SWIFT_FLAGS)
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/failscope"
	install -m 755 "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/failscope" "$(DESTDIR)$(PREFIX)/bin/failscope"
	rm -rf "$(DESTDIR)$(PREFIX)/share/failscope/Web"
	cp -R Web "$(DESTDIR)$(PREFIX)/share/failscope/Web"
	@echo "Installed $(DESTDIR)$(PREFIX)/bin/failscope and its dashboard in $(DESTDIR)$(PREFIX)/share/failscope/Web"

## test: every test (unit, UI suite, service, reporter end to end, browser); the command CI runs.
## The store's PostgreSQL tests run against a throwaway server (scripts/with-postgres.sh), or against
## FAILSCOPE_TEST_POSTGRES_URL when it is set; the object storage tests against a throwaway SeaweedFS S3
## gateway (scripts/with-s3.sh), or against FAILSCOPE_TEST_S3_URL and the AWS_* variables.
test: test-deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	FAILSCOPE_DISABLED=1 scripts/with-postgres.sh scripts/with-s3.sh $(SWIFT) test --skip-build
	@$(MAKE) --no-print-directory lint-page-objects
	@scripts/check-adoption.sh
	@python3 scripts/check-dockerfile.py .build/debug/failscope
	@python3 scripts/check-compose.py .build/debug/failscope
	@BROWSER_TESTS_SKIP_BUILD=1 scripts/browser-tests.sh
	@FAILSCOPE_BIN=.build/debug/failscope scripts/schemathesis.sh

## schemathesis: fuzz the live service against its OpenAPI document (no 5xx, responses as documented)
schemathesis:
	@scripts/schemathesis.sh

## lint: the seed's page-object acceptance check and swift-format
lint: lint-page-objects
	$(SWIFT) format lint --strict --recursive Sources Benchmarks Tests Package.swift

## lint-page-objects: seed 000's acceptance check on the sample UI suite (and the check's own self-test)
lint-page-objects:
	@python3 scripts/lint-page-objects.py --self-test
	@python3 scripts/lint-page-objects.py Tests/DemoUITests Sources/PageObjects/BasePage.swift
	@python3 scripts/lint-page-objects.py Samples/ShopUITests/Tests/ShopUITests Sources/PageObjects/BasePage.swift

## check-adoption: Samples/ShopUITests built against a tagged clone through .package(url:), run, and
## `make install` into a scratch prefix (part of make test)
check-adoption:
	@scripts/check-adoption.sh

format:
	$(SWIFT) format --in-place --recursive Sources Benchmarks Tests Package.swift

## bench: every benchmark, one table (release build)
bench: release
	@scripts/bench.sh

## demo: the sample UI suite against the service (see README)
demo:
	@scripts/demo.sh

clean:
	rm -rf .build
