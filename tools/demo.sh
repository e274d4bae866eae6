#!/usr/bin/env bash
# `make demo`: pause and resume a live flow on this machine, and fail loudly
# if a packet is lost or reordered.
#
# What runs today: the buffer-agent (the Buffer Engine daemon) holding and
# replaying a live UDP flow between two namespace hosts over veth vports,
# driven through the southbound gRPC API. The end-to-end embedded mode
# (embedded host + pbswitch + REST pause/resume) replaces it when it lands.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ "$(id -u)" = 0 ] || { echo "demo: needs root (network namespaces)" >&2; exit 1; }
echo "demo: building bin/buffer-agent"
go build -o bin/ ./buffer-agent/cmd/buffer-agent
echo "demo: buffer-agent only (no controller or switch in this demo yet)"
exec "$ROOT/.venv/bin/python" -m test.demo.agent_demo "$@"
