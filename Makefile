# make test runs everything CI runs: set-up, formatting, vet, staticcheck,
# every test in full, then every test again under the race detector.
# make quick is the inner loop: every test once, no race detector (~1 min).
GO ?= go
STATICCHECK_VERSION := v0.8.2
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

.PHONY: test quick deps fmt vet staticcheck unit race build release bench fuzz

# The version stamped into the binaries: git describe (the nearest tag, the
# commits since and the commit; the commit alone without tags; -dirty with
# uncommitted changes). "make build VERSION=1.2.3" sets it.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X github.com/seed53c283f5/robotstxt/fetch.stamp=$(VERSION)
# The platforms make release builds for.
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

test: deps fmt vet staticcheck unit race bindings

quick:
	$(GO) test ./...

# Installs redis-server when missing and run as root; otherwise stops at once
# with the command to run.
deps:
	@bash scripts/test-deps.sh

fmt:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	cd bench && $(GO) vet ./...

staticcheck:
	$(STATICCHECK) ./...
	cd bench && $(STATICCHECK) ./...

# Every test in full (the whole corpus, every golden question).
unit:
	$(GO) test -count=1 ./...

# Every test again under the race detector. With -short, the tests that walk
# the whole corpus or all 52,698 golden questions on one goroutine take a
# sample: they ran in full just above, and the race detector (10-20x slower)
# finds nothing in single-goroutine code. Concurrency tests run in full.
race:
	$(GO) test -race -short -count=1 ./...

# No -trimpath here: the compiled packages are those go run, go test and
# go build compile (-trimpath makes others, and so recompiled everything);
# only the link differs. make release trims the paths.
build:
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/robotstxt ./cmd/robotstxt

# The binaries of a release, one a platform, in dist/, with SHA256SUMS.
release:
	@rm -rf dist && mkdir -p dist
	@set -e; for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		out=dist/robotstxt-$(VERSION)-$$os-$$arch$$ext; \
		echo "build $$out"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $$out ./cmd/robotstxt; \
	done
	cd dist && sha256sum robotstxt-* > SHA256SUMS
	@cat dist/SHA256SUMS

# Benchmarks of the library alone, then side by side with the Go peers.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 . | tee bench-core.txt
	cd bench && $(GO) test -run '^$$' -bench . -skip Hostile -benchmem -count 6 | tee ../bench-peers.txt
	cd bench && $(GO) test -run '^$$' -bench Hostile -benchtime 200ms -benchmem -count 3 | tee ../bench-hostile.txt

# Five minutes per fuzz target.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 5m .
	$(GO) test -run '^$$' -fuzz '^FuzzAllowed$$' -fuzztime 5m .

# The Python and JavaScript bindings (docs/bindings.md). PYTHON is Debian's
# interpreter, which sees Debian's python3-cffi, -protego and -scrapy (a
# pyenv python3 earlier on PATH does not).
PYTHON ?= /usr/bin/python3
CAPI_LIB := python/robotstxt/_lib/librobotstxt.so

.PHONY: python python-test
# The C ABI built into the Python package, then its wheel in python/dist/.
python:
	@mkdir -p python/robotstxt/_lib
	$(GO) build -buildmode=c-shared -trimpath -ldflags '-s -w' -o $(CAPI_LIB) ./bindings/capi
	@rm -f python/robotstxt/_lib/librobotstxt.h
	@rm -rf python/dist
	$(PYTHON) python/build_wheel.py --out python/dist

python-test: python
	cd python && $(PYTHON) -m unittest discover -s tests -t . -v

.PHONY: js js-test bindings bindings-compare
# The core compiled to WebAssembly (a WASI reactor) for the package in js/.
js:
	GOOS=wasip1 GOARCH=wasm $(GO) build -buildmode=c-shared -trimpath -ldflags '-s -w' -o js/robotstxt.wasm ./bindings/wasm
	@echo "js/robotstxt.wasm: $$(wc -c < js/robotstxt.wasm) bytes, $$(gzip -9 -c js/robotstxt.wasm | wc -c) gzipped"

js-test: js
	cd js && node --test test/*.test.js

# Both bindings built and their tests run: Google's suite and the golden
# answers through each, the APIs, a Scrapy crawl, the wheel installed
# offline, the examples of docs/bindings.md, and a sample of the side-by-side
# comparison (the Go side's own tests run in unit and race).
bindings: python-test js-test

# The full side-by-side tables of docs/bindings.md (a few minutes).
bindings-compare: python js
	$(PYTHON) python/compare.py
	node js/bench/compare.js
