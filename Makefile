# Failscope: the quick start and every check. See README.md.
SWIFT       ?= swift
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
DEB_PACKAGES = libsqlite3-dev libpng-dev libfreetype-dev libmicrohttpd-dev libssl-dev zlib1g-dev \
               fonts-dejavu-core fontconfig pngcheck libjs-chart.js

.PHONY: all build release test lint bench demo deps format clean

all: build

## deps: install the Debian packages the build needs (apt-get; sudo when not root)
deps:
	@scripts/install-deps.sh $(DEB_PACKAGES)

build:
	$(SWIFT) build $(SWIFT_FLAGS)

release:
	$(SWIFT) build -c release $(SWIFT_FLAGS)

## test: every test (unit, UI suite, service, browser); the command CI runs
test:
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build
	@scripts/lint-page-objects.sh

## lint: the seed's page-object acceptance check and swift-format
lint:
	@scripts/lint-page-objects.sh
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

## bench: every benchmark, one table (release build)
bench: release
	@scripts/bench.sh

## demo: the sample UI suite against the service (see README)
demo:
	@scripts/demo.sh

clean:
	rm -rf .build
