#!/usr/bin/env bash
# Compiles the FlowBuf P4 program with p4c's bmv2 back end into
# pipeconf/p4src/build/ (bmv2.json + p4info.txt), as ONF's projects commit
# them, and each profile (the same program with other table sizes, -D) into
# pipeconf/p4src/build/<profile>/. p4c is in no package registry this
# project uses: when p4c-bm2-ss is not on PATH this says so and exits 0
# without touching the committed files.
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

# Profiles of the hybrid UPF (docs/apps/upf.md): the switch's fast path,
# sized like a hardware table, and the x86 slow path, which holds every
# session. Their ONOS pipeconf ids are org.flowbuf.pipeconf.<profile>.
declare -A PROFILES=(
  [upf-fast]="-DUPF_MAX_SESSIONS=4096 -DUPF_MAX_TERMINATIONS=4096 -DUPF_MAX_TUNNEL_PEERS=1024"
  [upf-slow]="-DUPF_MAX_SESSIONS=1048576 -DUPF_MAX_TERMINATIONS=1048576 -DUPF_MAX_TUNNEL_PEERS=4096"
)

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
# Compiled from inside p4src so that bmv2.json records relative source paths
# and is the same in every clone.
cd "$SRC"
compile() { # out_dir [p4c flags...]
  local dir="$1"
  shift
  mkdir -p "$dir"
  "$P4C" --arch v1model --std p4-16 "$@" \
    -o "$dir/bmv2.json" \
    --p4runtime-files "$dir/p4info.txt" \
    main.p4
  echo "p4-build: wrote $dir/bmv2.json and $dir/p4info.txt"
}
compile "$OUT"
for profile in "${!PROFILES[@]}"; do
  # shellcheck disable=SC2086 # the defines are words
  compile "$OUT/$profile" ${PROFILES[$profile]}
done

# The v1model engine's generated controls for these JSONs
# (pbswitch/v1model/generated.go): straight Go code for the ingress and
# egress graphs, used only for these exact files. Written beside the engine
# for the committed build only.
if [ "$OUT" = "$SRC/build" ]; then
  (cd "$ROOT/pbswitch/v1model" && "${GO:-go}" generate ./)
  echo "p4-build: wrote pbswitch/v1model/controls_flowbuf_gen.go"
fi
