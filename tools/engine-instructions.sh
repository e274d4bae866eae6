#!/usr/bin/env bash
# Counts the v1model engine's instructions per packet with callgrind: the
# engine benchmarks of pbswitch/v1model (BenchmarkFlowBufRoute: the routed
# FlowBuf packet, ingress + egress; BenchmarkUpf: GTP-U encapsulation and
# decapsulation, each routed) run under valgrind at two packet counts, and
# the difference over the difference in packets is one packet's cost, the
# program load and the benchmark's setup cancelled out. Every engine
# benchmark takes its input the same way (benchFrames: a pool frame with the
# input copied in, put back after), so two figures differ by the engines'
# work only; BenchmarkFrameInput is that loop without the engine, the part of
# each figure that is the benchmark's own (subtract it for the engine's). Instruction counts do
# not depend on the machine's load, so a before/after on a shared machine
# compares; they do not see cache misses, branch mispredictions or atomic
# operations' latency, which wall-clock figures (make bench-pbswitch,
# make bench-upf) do.
#
# Usage: tools/engine-instructions.sh [benchmark regexp ...]
# Prints one JSON line per benchmark. Needs valgrind (tools/versions.env).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v valgrind >/dev/null || { echo "engine-instructions: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
[ "$#" -gt 0 ] || set -- 'FlowBufRoute$' 'Upf/downlink$' 'Upf/uplink$' \
	'FrameInput/routed$' 'FrameInput/downlink$' 'FrameInput/uplink$'
LOW=2000 HIGH=42000
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$ROOT/pbswitch/v1model"
go test -c -o "$work/v1model.test" .

# instructions runs the benchmarks matching $1 for $2 packets and prints the
# process's total instruction count.
instructions() {
	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
		--callgrind-out-file="$work/out" "$work/v1model.test" \
		-test.run='^$' -test.bench="$1" -test.benchtime="$2x" >/dev/null 2>"$work/err" ||
		{ cat "$work/err" >&2; exit 1; }
	awk '/^(summary|totals):/ {print $2; exit}' "$work/out"
}

rev="$(git -C "$ROOT" rev-parse --short HEAD)"
for bench in "$@"; do
	low="$(instructions "$bench" "$LOW")"
	high="$(instructions "$bench" "$HIGH")"
	per=$(((high - low) / (HIGH - LOW)))
	printf '{"metric":"engine_instructions_per_packet","value":%d,"unit":"instructions","conditions":{"benchmark":"%s","how":"callgrind, whole process, (%d packets - %d packets) / %d","commit":"%s"}}\n' \
		"$per" "$bench" "$HIGH" "$LOW" "$((HIGH - LOW))" "$rev"
done
