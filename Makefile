# jobsd: thin targets over the go tool and scripts/.
GO ?= go

.PHONY: run build test generate check-generate vet fmt playground-assets fuzz loadtest bench soak eval screenshot

## run: build and serve jobsd with demo data and a demo key (see README)
run: build
	scripts/run.sh

## build: build the jobsd binary into bin/
build:
	$(GO) build -o bin/jobsd ./cmd/jobsd

## test: vet, the generated-code check, and every test (race detector on)
##       against a real PostgreSQL
test: vet check-generate
	scripts/test.sh

## screenshot: take docs/demo.png again from the demo data, as the browser
##             test of the search page renders it (needs Chromium)
screenshot:
	JOBSD_UPDATE_SCREENSHOT=1 JOBSD_TEST_DATABASE_URL="$${JOBSD_TEST_DATABASE_URL:-$$(scripts/devdb.sh)}" \
		$(GO) test -count=1 -run '^TestDemoPageInBrowser$$' ./cmd/jobsd

## generate: regenerate the gqlgen code from schema.graphqls
generate:
	$(GO) generate ./...

## check-generate: fail when the committed generated code is stale
check-generate:
	scripts/check-generate.sh

## vet: go vet over the service's module and the tools' (bench/go.mod)
vet:
	$(GO) vet ./...
	$(GO) vet -C bench ./...

fmt:
	gofmt -s -w $$(git ls-files '*.go')

## playground-assets: vendor GraphiQL's browser assets from npm (see the script)
playground-assets:
	scripts/playground-assets.sh

## fuzz: run each fuzz target for FUZZTIME (their seeds also run in make test)
FUZZTIME ?= 20s
fuzz:
	$(GO) test -run='^$$' -fuzz='^FuzzJobsQuery$$' -fuzztime=$(FUZZTIME) ./rest
	$(GO) test -run='^$$' -fuzz='^FuzzJobID$$' -fuzztime=$(FUZZTIME) ./rest
	$(GO) test -run='^$$' -fuzz='^FuzzParseLocation$$' -fuzztime=$(FUZZTIME) ./normalize
	$(GO) test -run='^$$' -fuzz='^FuzzTitle$$' -fuzztime=$(FUZZTIME) ./normalize
	$(GO) test -run='^$$' -fuzz='^FuzzJobQuery$$' -fuzztime=$(FUZZTIME) ./normalize
	$(GO) test -run='^$$' -fuzz='^FuzzDecodeLine$$' -fuzztime=$(FUZZTIME) ./importer
	$(GO) test -run='^$$' -fuzz='^FuzzFormats$$' -fuzztime=$(FUZZTIME) ./importer
	$(GO) test -run='^$$' -fuzz='^FuzzTextFacts$$' -fuzztime=$(FUZZTIME) ./normalize
	$(GO) test -run='^$$' -fuzz='^FuzzGraphQLDocument$$' -fuzztime=$(FUZZTIME) ./graph

## loadtest: RATE (2000) requests/s for DURATION (10s) from one key; only 200s and 429s
loadtest:
	scripts/loadtest.sh

## bench: the throughput benchmark of issue 5 on N (200000) postings, DURATION
##        (10s) per query and transport on CONNECTIONS (16); writes
##        docs/bench-results.md (the method: docs/benchmarks.md).
##        AB="COMMIT …": instead an A/B of the working tree against those
##        commits, alternating builds over ROUNDS (2) on one seed file of N
##        (50000) postings: import, cold start and the quiet list mix, with
##        medians and ratios (scripts/ab.sh)
bench:
	@if [ -n "$(AB)" ]; then COMMITS="$(AB)" N="$${N:-50000}" scripts/ab.sh; else scripts/bench.sh; fi

## soak: 30 minutes as in production (SOAK_DURATION) on a PostgreSQL cluster
##       of its own: reads, imports every 5 s, snapshots, hostile traffic and a
##       database restart half way; fails on growth of RSS, goroutines or open
##       files, on errors but the restart's 503s, and on wrong totals
##       (scripts/soak.sh)
soak:
	@scripts/soak.sh

## eval: normalize's accuracy on the evaluation set (normalize/testdata/eval),
##       built in and with JOBSD_REFDATA (../shared/data when present);
##       EVALFLAGS=-v lists the misses, EVALFLAGS=--fail=false only prints
EVALFLAGS ?=
eval:
	@if [ -z "$${JOBSD_REFDATA:-}" ] && [ -d ../shared/data/locations ]; then \
	  JOBSD_REFDATA="$$(cd ../shared/data && pwd)"; export JOBSD_REFDATA; \
	fi; \
	$(GO) build -C bench -o ../bin/normeval ./normeval && ./bin/normeval $(EVALFLAGS)
