#!/usr/bin/env bash
# Benchmark (not a test): install libtorch-dev (bench only), build kindling and bench/libtorch_runner into
# build/ with -DKINDLING_BUILD_BENCH=ON, then run bench/run_bench.py, which writes bench/RESULTS.md.
# Arguments are passed to run_bench.py (e.g. --rounds 7 --threads 1).
set -euo pipefail
source "$(dirname "$0")/deps.sh"
cd "$KINDLING_ROOT"

install_packages build bench
configure_build build -DKINDLING_BUILD_BENCH=ON
ninja -C build -j"$KINDLING_JOBS" kindling libtorch_runner
/usr/bin/python3 bench/run_bench.py "$@"
