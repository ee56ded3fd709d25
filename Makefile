# make test runs everything CI runs: formatting, vet, staticcheck, and every
# test (conformance included) with the race detector.
GO ?= go
STATICCHECK ?= $(shell command -v staticcheck 2>/dev/null || echo $(shell $(GO) env GOPATH)/bin/staticcheck)

.PHONY: test fmt vet staticcheck unit build bench fuzz

test: fmt vet staticcheck unit

fmt:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	cd bench && $(GO) vet ./...

staticcheck:
	$(STATICCHECK) ./...
	cd bench && $(STATICCHECK) ./...

unit:
	$(GO) test -race -count=1 ./...

build:
	$(GO) build -o bin/robotstxt ./cmd/robotstxt

# Benchmarks of the library alone, then side by side with the Go peers.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 . | tee bench-core.txt
	cd bench && $(GO) test -run '^$$' -bench . -benchmem -count 6 | tee ../bench-peers.txt

# Five minutes per fuzz target.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 5m .
	$(GO) test -run '^$$' -fuzz '^FuzzAllowed$$' -fuzztime 5m .
