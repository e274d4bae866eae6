#!/usr/bin/env bash
# Compiles the FlowBuf P4 program with p4c's bmv2 back end into
# pipeconf/p4src/build/ (bmv2.json + p4info.txt), as ONF's projects commit
# them. p4c is in no package registry this project uses: when p4c-bm2-ss is
# not on PATH this says so and exits 0 without touching the committed files.
#   OUT=dir tools/p4-build.sh   writes elsewhere (used by the freshness test)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/pipeconf/p4src"
OUT="${OUT:-$SRC/build}"
P4C="${P4C:-p4c-bm2-ss}"
if ! command -v "$P4C" >/dev/null; then
  echo "p4-build: $P4C not found on PATH; skipping (committed p4info.txt/bmv2.json unchanged)"
  exit 0
fi
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
# Compiled from inside p4src so that bmv2.json records relative source paths
# and is the same in every clone.
cd "$SRC"
"$P4C" --arch v1model --std p4-16 \
  -o "$OUT/bmv2.json" \
  --p4runtime-files "$OUT/p4info.txt" \
  main.p4
echo "p4-build: wrote $OUT/bmv2.json and $OUT/p4info.txt"
