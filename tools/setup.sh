#!/usr/bin/env bash
# Installs what FlowBuf's tests, demo and benchmarks need on Debian 12, and
# nothing that is already there. Safe to run again: a second run takes about
# a second. Needs root for apt-get (CI and the lab run as root).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=tools/versions.env
source "$ROOT/tools/versions.env"
VENV="$ROOT/.venv"

log() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

version_ge() { # version_ge HAVE WANT
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" = "$2" ]
}

apt_updated=0
apt_install() {
  [ "$(id -u)" = 0 ] || die "installing $* needs root (run as root or install them yourself)"
  if [ "$apt_updated" = 0 ]; then
    log "apt-get update"
    apt-get update -qq
    apt_updated=1
  fi
  log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

ensure_apt_packages() {
  local missing=()
  for pkg in $APT_PACKAGES "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ "${#missing[@]}" = 0 ] || apt_install "${missing[@]}"
}

ensure_go() {
  command -v go >/dev/null || apt_install golang
  local have
  have="$(go env GOVERSION | sed 's/^go//')"
  version_ge "$have" "$GO_MIN_VERSION" || die "Go $have is older than $GO_MIN_VERSION (the Go module needs it)"
  # Module downloads are cached in GOMODCACHE; this is a no-op when warm.
  (cd "$ROOT" && go mod download)
}

ensure_java() {
  command -v javac >/dev/null || apt_install openjdk-17-jdk-headless
  command -v mvn >/dev/null || apt_install maven
  local have
  have="$(javac -version 2>&1 | awk '{print $2}')"
  version_ge "$have" "$JAVA_MIN_VERSION" || die "JDK $have is older than $JAVA_MIN_VERSION"
}

ensure_python() {
  command -v python3 >/dev/null || apt_install python3 python3-venv
  python3 -c 'import venv, ensurepip' 2>/dev/null || apt_install python3-venv
  local stamp="$VENV/.requirements.sha256" want
  want="$(sha256sum "$ROOT/test/requirements.txt" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return
  fi
  log "python venv $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  "$VENV/bin/pip" install -q -r "$ROOT/test/requirements.txt"
  echo "$want" > "$stamp"
}

main() {
  ensure_apt_packages "$@"
  ensure_go
  ensure_java
  ensure_python
}

main "$@"
