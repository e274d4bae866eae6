#!/usr/bin/env bash
# Compiles the engine's test programs (pbswitch/v1model/testdata/*.p4) with
# p4c's bmv2 back end, writing NAME.json and NAME.p4info.txt beside each, as
# committed. Without p4c-bm2-ss on PATH this says so and exits 0, leaving
# the committed outputs unchanged.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="$ROOT/pbswitch/v1model/testdata"
P4C="${P4C:-p4c-bm2-ss}"
if ! command -v "$P4C" >/dev/null; then
  echo "p4-build-testdata: $P4C not found on PATH; skipping (committed outputs unchanged)"
  exit 0
fi
cd "$DIR"
for src in *.p4; do
  name="${src%.p4}"
  "$P4C" --arch v1model --std p4-16 -o "$name.json" --p4runtime-files "$name.p4info.txt" "$src"
  echo "p4-build-testdata: wrote $name.json and $name.p4info.txt"
done
