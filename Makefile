# FlowBuf workflow. Every target does one named thing; `make help` lists them.
# The two commands a user needs: `make demo` and `make test`.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

ROOT   := $(abspath .)
VENV   := $(ROOT)/.venv
PYTHON := $(VENV)/bin/python
MVN    := mvn -B -ntp
GO     := go
# QUICK=1 shortens benchmarks and scenarios to a smoke run.
QUICK  ?=
export QUICK

.PHONY: help setup p4-build p4-build-testdata proto build build-go build-java \
        test test-go test-java test-python test-gui test-onos test-p4c-stf test-bmv2 fuzz \
        netcfg demo lab docs test-docs openapi-check bench bench-agent bench-pbswitch bench-upf bench-service bench-promotion bench-pool bench-load bench-onos scenarios chaos lint clean

help: ## List the targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'

setup: ## Install what is missing (apt, Go modules, Maven, Python venv); idempotent
	@tools/setup.sh

p4-build: ## Compile the P4 program with p4c where installed (bmv2.json, p4info.txt; the engine's generated controls)
	@tools/p4-build.sh

p4-build-testdata: ## Compile pbswitch's engine test programs with p4c where installed (pbswitch/v1model/testdata)
	@tools/p4-build-testdata.sh

proto: ## Regenerate the committed Go stubs from proto/ (needs protoc)
	@tools/gen-go-proto.sh

build: build-go build-java ## Build all Go binaries and Java bundles (.oar)

build-go: setup
	$(GO) build -o bin/ ./buffer-agent/cmd/... ./pbswitch/cmd/...

build-java: setup
	$(MVN) -q install -DskipTests

test: setup test-go test-java docs test-python ## Run every test suite (what CI runs; test-python checks the built docs site too)
	@echo "make test: all suites passed"

test-go: setup ## Go unit, fuzz-seed and namespace integration tests
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# Go fuzz targets as package:Name. Their seeds (in the code and committed
# under each package's testdata/fuzz/Name) run in every `go test`; `make fuzz`
# searches for FUZZTIME each, and a failing input lands in testdata/fuzz.
# Minimizing a new input is bounded by FUZZMINIMIZETIME: go test's default
# (60 s an input) ran past FUZZTIME when FuzzRead found inputs late.
FUZZTIME ?= 30s
FUZZMINIMIZETIME ?= 5s
FUZZ_TARGETS := ./buffer-agent/engine:FuzzFrameParsers ./buffer-agent/server:FuzzRequestHandlers \
                ./pbswitch/p4rt:FuzzWrite ./pbswitch/p4rt:FuzzRead ./pbswitch/p4rt:FuzzWriteDecoder \
                ./pbswitch/p4rt:FuzzExactWriterMatchesGeneric ./pbswitch/pipeline:FuzzSlabAgainstGeneric

fuzz: setup ## Run each Go fuzz target for FUZZTIME (default 30s): agent request validation, P4Runtime Write/Read decoding, frame parsers
	@# go test's own status decides (a pipe into the filter would hide a failing target).
	@log=$$(mktemp); trap 'rm -f $$log' EXIT; \
	for t in $(FUZZ_TARGETS); do \
	    pkg=$${t%%:*}; name=$${t##*:}; \
	    echo "fuzz: $$name in $$pkg for $(FUZZTIME)"; \
	    rc=0; $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$pkg > $$log 2>&1 || rc=$$?; \
	    grep -v ' INFO pipeline config ' $$log || true; \
	    if [ $$rc -ne 0 ]; then echo "fuzz: $$name failed (exit $$rc)"; exit $$rc; fi; \
	done

test-java: setup build-go ## Java unit and component tests (some against bin/pbswitch), checkstyle, .oar packaging
	$(MVN) install

test-python: setup ## Target-agnostic packet tests and Python checks (pytest)
	@tools/run-pytest.sh

test-gui: setup ## Browser test of the embedded host's page (headless Chromium)
	$(GO) build -o bin/ ./buffer-agent/cmd/buffer-agent ./pbswitch/cmd/pbswitch
	$(MVN) -q install -DskipTests -pl host -am
	@tools/run-pytest.sh test/gui

test-onos: setup ## FlowBuf in a live ONOS 2.7 (ONOS_ROOT=, default tools/onos's runtime): .oar, components, pbswitch, pause/resume via REST and CLI, GUI, ONOS restart mid-pause, nothing left after uninstall, figures (JSON lines); skips clearly without ONOS; needs root
	@FLOWBUF_TEST_ONOS=1 tools/run-pytest.sh -rsP test/onos

bench-onos: setup ## Pause/resume p50/p99 and steering rules/s through ONOS 2.7's REST vs the embedded host, same run (JSON lines; ONOS_ROOT= as test-onos; needs root)
	@FLOWBUF_TEST_ONOS=1 tools/run-pytest.sh -s -k figures test/onos

test-p4c-stf: setup ## p4c's v1model STF samples on pbswitch's engine (needs p4c-bm2-ss; skips clearly without)
	$(GO) run ./test/p4cstf

test-bmv2: setup ## The packet tests on BMv2 simple_switch_grpc from PATH (skips clearly without it)
	@command -v simple_switch_grpc >/dev/null || echo "make test-bmv2: simple_switch_grpc is not on PATH, so the BMv2 tests skip"
	@! command -v simple_switch_grpc >/dev/null || simple_switch_grpc --help 2>&1 | grep -q -- --priority-queues || \
	  echo "make test-bmv2: needs BMv2 >= 1.15.1 for --priority-queues (8 queues, as pbswitch); this one has none, so it runs with one queue per port and the tests that queue by priority skip"
	@tools/run-pytest.sh -rs test/packet --target bmv2

# make netcfg: the topology to render, where to (default: beside it), and
# where ONOS reaches its switches and agents (default: 127.0.0.1).
TOPO    ?= stratum-configs/topology.json
OUT     ?=
ADDRESS ?=

netcfg: setup ## Render Stratum chassis configs + ONOS netcfg for a topology (TOPO=, OUT=, ADDRESS=)
	$(PYTHON) stratum-configs/gen_configs.py --topology "$(TOPO)" $(if $(OUT),--out "$(OUT)") $(if $(ADDRESS),--address "$(ADDRESS)")

demo: setup ## Pause and resume a live flow on this machine (embedded mode)
	@tools/demo.sh $(DEMO_ARGS)

lab: setup ## The embedded lab left running to play with (pbswitch, host, h1-h3, a flow) until Ctrl-C (LAB_ARGS=)
	@tools/lab.sh $(LAB_ARGS)

# The docs site (MkDocs + Material, mkdocs.yml) into site/. Its REST reference
# is generated from the OpenAPI document ONOS's build writes for the app
# (app/app/target/swagger.json, what the host serves), so the app is built first.
docs: setup ## Build the docs site into site/ (warnings and broken links are errors)
	@test -f app/app/target/swagger.json || $(MVN) -q package -DskipTests -pl app/app -am
	NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(VENV)/bin/mkdocs build --strict --clean

openapi-check: setup ## make test's schemathesis pass alone: every check over the served OpenAPI document, the known exceptions in test/hostile/openapi_exceptions.toml (report: test/artifacts/schemathesis-rest.txt)
	$(GO) build -o bin/ ./buffer-agent/cmd/buffer-agent ./pbswitch/cmd/pbswitch
	$(MVN) -q install -DskipTests -pl host -am
	tools/run-pytest.sh test/hostile -k every_operation

test-docs: docs ## The docs site builds with no warning; every REST operation, CLI command and netcfg key has its entry
	@tools/run-pytest.sh test/docs

bench: bench-agent bench-pbswitch bench-upf bench-service bench-pool ## All benchmarks (JSON lines)

bench-agent: setup ## buffer-agent throughput, latency, API and pause/resume figures
	$(GO) run ./test/bench/agentbench

bench-pool: ## buffer-agent pool admission: a long pause vs short pauses' bursts under quota, DT and FB (pool_fb_burst_loss_pct)
	$(GO) run ./test/bench/poolfb

bench-pbswitch: setup ## pbswitch forwarding, in-process buffer hop, P4Runtime writes
	$(GO) run ./test/bench/pbswitchbench

bench-upf: setup ## the 5G UPF on pbswitch: GTP-U encap/decap vs plain routing, added time, session installs and memory; UEs paused at once per device
	$(GO) build -o bin/ ./pbswitch/cmd/pbswitch ./buffer-agent/cmd/buffer-agent
	PBSWITCH=bin/pbswitch $(GO) run ./test/bench/upfbench
	$(MVN) -q install -DskipTests -pl host -am
	.venv/bin/python -m test.bench.service.bench_paused_ues $(if $(QUICK),--quick)

bench-promotion: setup ## hybrid UPF: heavy-hitter digest -> session active on the fast path, p50/p99 over 240 promotions (QUICK=1: 80), spaced and in bursts; needs root
	$(GO) build -o bin/ ./pbswitch/cmd/pbswitch ./buffer-agent/cmd/buffer-agent
	$(MVN) -q package -DskipTests -pl host -am
	.venv/bin/python -m test.bench.service.bench_promotion --ready-buffers 8 $(if $(QUICK),--quick)

bench-service: setup ## pause/resume latency and intent rate through REST (embedded mode)
	$(GO) build -o bin/ ./buffer-agent/cmd/buffer-agent ./pbswitch/cmd/pbswitch
	$(MVN) -q install -DskipTests -pl host -am
	.venv/bin/python -m test.bench.service.bench_service $(if $(QUICK),--quick)

bench-load: setup ## 60 s (QUICK=1: 10 s) of mixed REST load from 32, then 128 clients, both modes: ops/s, latency, statuses, RSS MB/min, live flows' loss; PROFILE=1 adds the host's top methods (JFR)
	$(GO) build -o bin/ ./buffer-agent/cmd/buffer-agent ./pbswitch/cmd/pbswitch
	$(MVN) -q install -DskipTests -pl host -am
	.venv/bin/python -m test.chaos.load $(if $(QUICK),--quick) $(if $(PROFILE),--profile)

scenarios: setup ## Buffer-based application scenarios (LMM, FMM, NFV migration, connectionless), FB burst absorption, congestion avoidance, UPF-QoS, the hybrid UPF and the gNodeB's BaaS; QUICK=1 is short
	$(GO) build -o bin/ ./buffer-agent/cmd/buffer-agent ./pbswitch/cmd/pbswitch
	$(MVN) -q install -DskipTests -pl host -am
	.venv/bin/python -m test.scenarios.nfv_migration $(if $(QUICK),--quick)
	.venv/bin/python -m test.scenarios.connectionless $(if $(QUICK),--quick)
	.venv/bin/python -m test.scenarios.lmm $(if $(QUICK),--quick)
	.venv/bin/python -m test.scenarios.fmm $(if $(QUICK),--quick)
	.venv/bin/python -m test.scenarios.fb $(if $(QUICK),--quick)
	.venv/bin/python -m test.scenarios.congestion $(if $(QUICK),--quick)
	.venv/bin/python -m test.scenarios.upf_qos $(if $(QUICK),--quick)
	.venv/bin/python -m test.scenarios.upf_hybrid $(if $(QUICK),--quick)
	.venv/bin/python -m test.scenarios.gnb_baas $(if $(QUICK),--quick)

chaos: setup ## Faults with real packets (kill -9 of agent, host, pbswitch; agent stopped 5 s; a Write refused halfway), then the load of bench-load; JSON lines; QUICK=1 holds 2,000 packets instead of 10,000 and loads 10 s
	$(GO) build -o bin/ ./buffer-agent/cmd/buffer-agent ./pbswitch/cmd/pbswitch
	$(MVN) -q install -DskipTests -pl host -am
	$(PYTHON) -m test.chaos.faults $(if $(QUICK),--quick)
	$(PYTHON) -m test.chaos.load $(if $(QUICK),--quick)

lint: setup ## Formatting and static checks for Go, Java, Python
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(MVN) -q checkstyle:check

clean: ## Remove build outputs
	rm -rf bin
	$(MVN) -q clean || true
