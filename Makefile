# gsd: thin targets; `go test ./...` alone also passes on a fresh checkout.
# The tests over real projects run when GSD_CORPUS names their directory (a path relative to
# the repository root, or an absolute one: GSD_CORPUS=../shared/corpus make test); .ci/run sets it.
GO       ?= go
BIN      ?= bin/gsd
LDFLAGS  ?= -s -w
# The version gsd --version prints when the build information has none (a build in a checkout).
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null)
XFLAGS    = $(if $(VERSION),-X github.com/gsd-tools/gsd/cmd.buildVersion=$(VERSION))
DOCS     ?= bin/docs
# Fuzz budgets are execution counts, not durations: with a duration, Go 1.26's fuzz coordinator
# can report a spurious "context deadline exceeded" when the machine is busy (golang/go#75804,
# fixed in Go 1.27). A duration (FUZZTIME=5m) still works for a long run by hand.
FUZZTIME ?= 500000x
.PHONY: build test race lint fuzz bench demo install install-man cross docs windows

# The binary is linked beside its destination and then copied into place: a file the Go linker
# has just written sits in the page cache in small pages, and every exec of it costs more (12%
# of a gsd hydrate here) until the kernel evicts it; a copy is written in large ones.
build:
	@mkdir -p $(dir $(BIN))
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='$(LDFLAGS) $(XFLAGS)' -o $(BIN).linked .
	@cp $(BIN).linked $(BIN).new && mv $(BIN).new $(BIN) && rm -f $(BIN).linked

# The README's test command: gofmt, vet and every test, built as gsd is (CGO_ENABLED=0, so vet's
# packages are the tests' too), in a few minutes on a fresh two-core machine. CI runs it, then
# the same tests under the race detector, the cross builds and the Windows story (.ci/run): a
# race build compiles the standard library and every package again, and each cross build
# compiles it for another platform, minutes each with empty caches.
test: lint
	@[ -n "$$GSD_CORPUS" ] || echo "make test: GSD_CORPUS is not set: the tests over real projects are skipped"
	CGO_ENABLED=0 $(GO) test -count=1 ./...

# Every test under the race detector, which needs cgo and a C compiler.
race:
	@command -v cc >/dev/null 2>&1 || { echo "make race: the race detector needs a C compiler (cc)" >&2; exit 1; }
	CGO_ENABLED=1 $(GO) test -race -count=1 ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	CGO_ENABLED=0 $(GO) vet ./...

# The binary must build for the platforms people run agents on.
cross:
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null .
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null .
	GOOS=linux GOARCH=386 $(GO) build -o /dev/null .
	GOOS=windows GOARCH=amd64 $(GO) vet ./...

# gsd.exe run under Wine through a story of real commands on a CRLF project, every output and
# file compared with the Linux build's (testdata/windows/README.md). Wine comes from
# ../shared/windows/wine.sh beside the checkout (or GSD_WINE); without it this is skipped, except
# in CI (CI set), where it fails.
windows:
	./testdata/windows/story.sh

# Each fuzz target for FUZZTIME executions (make fuzz FUZZTIME=5000000x for a long run). make test
# runs only their seed corpora, as every go test does.
fuzz:
	@set -e; log=$$(mktemp); trap 'rm -f "$$log"' EXIT; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg > "$$log" 2>&1 || { cat "$$log"; exit 1; }; \
	  done; \
	done

# Go benchmarks, then whole-process timings of the static binary (testdata/bench/bench.sh): against
# the spec's shell pipeline, hydrate on 10 vs 1,000 finished phases vs a Go hello-world, and
# progress --json vs upstream GSD's roadmap analyze on $GSD_CORPUS/cipher-box (needs node, npm;
# fetches the npm package into a scratch directory), and each lifecycle hook vs gsd --version.
# BENCH=hydrate (spec, upstream, hooks) runs one part.
# Then the session history (testdata/bench/history.sh; BASELINE=path/to/older/gsd adds that
# binary's mark-complete).
BENCH ?=
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	./testdata/bench/bench.sh $(BIN) $(BENCH)
	./testdata/bench/history.sh $(BIN) $(BASELINE)

# Hydrate the example project shipped in testdata/demo (on a scratch copy: nothing in the
# checkout changes).
demo: build
	@d=$$(mktemp -d); cp -R testdata/demo/. "$$d"; \
	  echo "\$$ gsd hydrate   (in a copy of testdata/demo, as user demo)"; \
	  GSD_USER=demo ./$(BIN) -C "$$d" hydrate && echo && \
	  echo "\$$ gsd mark-in-progress && gsd tasks" && \
	  GSD_USER=demo ./$(BIN) -C "$$d" mark-in-progress && GSD_USER=demo ./$(BIN) -C "$$d" tasks; \
	  rc=$$?; rm -rf "$$d"; exit $$rc

# Where go install would put gsd ($GOBIN, else $GOPATH/bin), copied into place as build does.
install: build
	@dir=$$($(GO) env GOBIN); [ -n "$$dir" ] || dir=$$($(GO) env GOPATH)/bin; \
	  mkdir -p "$$dir" && cp $(BIN) "$$dir/gsd.new" && mv "$$dir/gsd.new" "$$dir/gsd" && \
	  echo "installed $$dir/gsd"

# Man pages (in man1/ and man7/, as man looks for them) and Markdown command docs from the
# command tree, by a separate program (cmd/gendocs) so that the generator stays out of the gsd
# binary.
docs:
	$(GO) run ./cmd/gendocs -man $(DOCS)/man -md $(DOCS)/md
	@echo "wrote $(DOCS)/man (man -M $(DOCS)/man gsd-hydrate) and $(DOCS)/md"

# The man pages where man finds them: MANDIR, else share/man beside the directory make install
# puts gsd in ($$GOBIN, else $$GOPATH/bin), which man searches for every directory on PATH.
MANDIR ?=
install-man: docs
	@dir='$(MANDIR)'; if [ -z "$$dir" ]; then \
	    bin=$$($(GO) env GOBIN); [ -n "$$bin" ] || bin=$$($(GO) env GOPATH)/bin; dir=$$(dirname "$$bin")/share/man; \
	  fi; \
	  for s in 1 7; do mkdir -p "$$dir/man$$s" && cp $(DOCS)/man/man$$s/*.$$s "$$dir/man$$s/" || exit 1; done; \
	  echo "installed the man pages in $$dir: man gsd-hydrate, man gsd-position, ..."
