#!/usr/bin/env bash
# `make demo`: pause and resume a live flow through FlowBuf's REST API in the
# embedded mode (pbswitch + in-process buffers + the embedded host), and fail
# loudly if a packet is lost or reordered.
#
#   make demo                                   # buffers inside pbswitch
#   make demo DEMO_ARGS="--agent external"      # a buffer-agent on veth vports
#   make demo DEMO_ARGS="--resume-to h3"        # resume towards another port
#   make demo DEMO_ARGS="--switch bmv2"         # BMv2 simple_switch_grpc from PATH
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ "$(id -u)" = 0 ] || { echo "demo: needs root (network namespaces)" >&2; exit 1; }
echo "demo: building bin/pbswitch, bin/buffer-agent and the embedded host"
go build -o bin/ ./buffer-agent/cmd/buffer-agent ./pbswitch/cmd/pbswitch
mvn -B -ntp -q install -DskipTests -pl host -am
exec "$ROOT/.venv/bin/python" -m test.demo.service_demo "$@"
