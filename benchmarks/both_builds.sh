#!/usr/bin/env bash
# A benchmark on both builds in one command: plain Python from src/, then the compiled build
# (CALHAMER_COMPILE=1, mypyc; see setup.py) installed into a temporary directory, as .ci/run
# installs it. The compiled build takes a few minutes to make.
#
#   benchmarks/both_builds.sh                       # bench_startup.py
#   benchmarks/both_builds.sh bench_startup.py --repeats 15
set -euo pipefail
cd "$(dirname "$0")/.."
script="${1:-bench_startup.py}"
shift || true
echo "== plain Python"
PYTHONPATH=src python "benchmarks/$script" "$@"
compiled="$(mktemp -d)"
trap 'rm -rf "$compiled"' EXIT
echo "== the compiled build (building it)"
CALHAMER_COMPILE=1 pip install --quiet --no-deps --target "$compiled/site" .
PYTHONPATH="$compiled/site" python -c 'import calhamer, sys; sys.exit(not calhamer.compiled)' \
    || { echo "both_builds: the compiled build is not the one running" >&2; exit 1; }
PYTHONPATH="$compiled/site" python "benchmarks/$script" --installed "$@"
