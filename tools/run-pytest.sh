#!/usr/bin/env bash
# Runs the Python suites under test/ with the project's venv. pytest exits 5
# when it collects nothing; that is a failure here, not a pass.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
exec "$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider test "$@"
