#!/usr/bin/env bash
# `make lab`: the embedded lab (pbswitch, the embedded host, namespace hosts
# h1-h3, a steady flow h1 -> h2) left running to play with until Ctrl-C.
#
#   make lab                                  # buffers inside pbswitch
#   make lab LAB_ARGS="--agent external"      # a buffer-agent on veth vports
#   make lab LAB_ARGS="--no-flow --pps 1000"
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ "$(id -u)" = 0 ] || { echo "lab: needs root (network namespaces)" >&2; exit 1; }
echo "lab: building bin/pbswitch, bin/buffer-agent and the embedded host"
go build -o bin/ ./buffer-agent/cmd/buffer-agent ./pbswitch/cmd/pbswitch
mvn -B -ntp -q install -DskipTests -pl host -am
exec "$ROOT/.venv/bin/python" -m test.demo.lab "$@"
