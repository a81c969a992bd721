# nbtext build, test and demo. `make help` lists the targets.

GO      ?= go
BIN     := bin/nbtext
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
# -buildvcs=auto records the git revision for 'nbtext --version' even where
# GOFLAGS turns it off; outside a git checkout it records nothing.
BUILDFLAGS := -trimpath -buildvcs=auto
BENCHTIME ?= 1s

# The integration tests, benchmarks and the demo use the real 20 Newsgroups
# archive. When a copy sits in ../shared/data (as on CI) and the caller has not
# named one, export it so the tests run instead of skipping.
SHARED_TARBALL := $(abspath ../shared/data/20news-bydate.tar.gz)
ifeq ($(NBTEXT_20NEWS_TARBALL),)
ifneq ($(wildcard $(SHARED_TARBALL)),)
export NBTEXT_20NEWS_TARBALL := $(SHARED_TARBALL)
endif
endif
# The same for the IMDB archive (aclImdb layout), read by the corpus tests.
SHARED_IMDB := $(abspath ../shared/data/aclImdb.tar.gz)
ifeq ($(NBTEXT_IMDB_TARBALL),)
ifneq ($(wildcard $(SHARED_IMDB)),)
export NBTEXT_IMDB_TARBALL := $(SHARED_IMDB)
endif
endif
# The same for the GoEmotions folder (multi-label), read by the eval tests.
SHARED_GOEMOTIONS := $(abspath ../shared/data/goemotions)
ifeq ($(NBTEXT_GOEMOTIONS_DIR),)
ifneq ($(wildcard $(SHARED_GOEMOTIONS)/goemotions-train.ft.gz),)
export NBTEXT_GOEMOTIONS_DIR := $(SHARED_GOEMOTIONS)
endif
endif
# The same for the non-English corpora (ldcc: Japanese, ttc-3600: Turkish,
# langdetect17: 17 languages), read by the analyzer tests.
SHARED_LDCC := $(abspath ../shared/data/ldcc.tar.gz)
ifeq ($(NBTEXT_LDCC_TARBALL),)
ifneq ($(wildcard $(SHARED_LDCC)),)
export NBTEXT_LDCC_TARBALL := $(SHARED_LDCC)
endif
endif
SHARED_TTC := $(abspath ../shared/data/ttc-3600.tar.gz)
ifeq ($(NBTEXT_TTC_TARBALL),)
ifneq ($(wildcard $(SHARED_TTC)),)
export NBTEXT_TTC_TARBALL := $(SHARED_TTC)
endif
endif
SHARED_LANGDETECT := $(abspath ../shared/data/langdetect17.tar.gz)
ifeq ($(NBTEXT_LANGDETECT_TARBALL),)
ifneq ($(wildcard $(SHARED_LANGDETECT)),)
export NBTEXT_LANGDETECT_TARBALL := $(SHARED_LANGDETECT)
endif
endif

.PHONY: all build test test-full test-banner readme bench bench-scale bench-serve lint install man demo clean help stress beam test-beam

all: build

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

# CGO_ENABLED=0: without cgo no thread gets a C stack and malloc arena, so
# nbtext starts under an address-space limit (ulimit -v 1G; see docs/speed.md, Memory).
build: ## build bin/nbtext
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/nbtext

# Every corpus variable the tests read; the banner names each, set or not.
CORPUS_VARS := NBTEXT_20NEWS_TARBALL NBTEXT_IMDB_TARBALL NBTEXT_GOEMOTIONS_DIR NBTEXT_LDCC_TARBALL NBTEXT_TTC_TARBALL NBTEXT_LANGDETECT_TARBALL
# Go's default is 10 minutes per package; on a busy 2-core machine the
# package of the commands needs more. test-full runs the slow experiments
# (-short skips them) too.
TEST_TIMEOUT ?= 30m
TEST_FULL_TIMEOUT ?= 90m

test: ## run the tests, integration tests on the corpora named by the banner (slow experiments: make test-full)
	@$(MAKE) --no-print-directory test-banner
	$(GO) test -count=1 -short -timeout $(TEST_TIMEOUT) ./...

test-full: ## run every test, with the slow experiments on all of 20 Newsgroups (-short off)
	@$(MAKE) --no-print-directory test-banner
	$(GO) test -count=1 -timeout $(TEST_FULL_TIMEOUT) ./...

test-banner:
	@for v in $(CORPUS_VARS); do eval "p=\$${$$v:-}"; \
	 if [ -n "$$p" ]; then echo "$$v=$$p: its integration tests run"; \
	 else echo "$$v not set (no ../shared copy): its integration tests skip"; fi; done

readme: ## rewrite the blocks of README.md and docs/*.md marked <!-- output: nbtext ... --> with the commands' output (make test checks them)
	$(GO) test -count=1 -run 'TestREADMEOutputs' ./cmd/nbtext -update

bench: ## run the benchmarks (speed targets) on the real corpus when available
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

bench-scale: build ## streaming NB training on synthetic corpora of 10^5 and 10^6 documents: RSS and MB/s
	NBTEXT=$(BIN) bash scripts/bench-scale.sh

bench-serve: build ## load benchmark of nbtext serve on 127.0.0.1 (wrk or ab if installed): req/s, p99, batches, 100 reloads, hostile clients (~4 min)
	NBTEXT=$(BIN) bash scripts/bench-serve.sh

lint: ## gofmt and go vet
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	 if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

stress: ## slow reliability checks, not in CI: kills during writes, memory limits, 2M predict lines, fuzzing (FUZZTIME=60s each)
	bash scripts/stress.sh

beam: ## build bin/nbtext-beam, the Apache Beam pipeline (its own module in beam/)
	cd beam && $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o ../bin/nbtext-beam ./cmd/nbtext-beam

test-beam: beam ## test the Beam pipeline: go vet and go test in beam/ (in-process Prism), then through a Prism job server with out-of-process workers
	cd beam && $(GO) vet ./... && $(GO) test -count=1 ./...
	timeout 1200 bash beam/scripts/test-jobserver.sh bin/nbtext-beam

install: ## install nbtext into $GOBIN (or $GOPATH/bin)
	CGO_ENABLED=0 $(GO) install $(BUILDFLAGS) -ldflags '$(LDFLAGS)' ./cmd/nbtext

man: ## write the man pages, generated from the commands' help, to man/ (man -l man/nbtext.1)
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || date +%s) $(GO) run ./cmd/nbtext generate --man man

# The corpus first: offline, say how to give a local copy before building.
demo: ## fetch the corpus (first), build, and walk through nbtext on it
	@bash scripts/fetch-20news.sh >/dev/null || { \
	 echo "make demo: no 20 Newsgroups corpus and none to download: give a local copy with" >&2; \
	 echo "  NBTEXT_20NEWS_TARBALL=/path/to/20news-bydate.tar.gz make demo" >&2; exit 1; }
	$(MAKE) build
	NBTEXT=$(BIN) bash scripts/demo.sh

clean: ## remove build output
	rm -rf bin demo-out man
