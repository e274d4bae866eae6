#!/usr/bin/env bash
# Runs the Python suites under test/ with the project's venv. pytest exits 5
# when it collects nothing; that is a failure here, not a pass.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# Arguments name what to run (make test-gui passes test/gui); none means all.
[ "$#" -gt 0 ] || set -- test
exec "$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
