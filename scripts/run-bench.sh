#!/usr/bin/env bash
# Benchmark (not a test): install libtorch-dev (bench only), build kindling, bench/libtorch_runner and the op
# benchmark drivers (bench/op_bench, bench/libtorch_op_bench) into build/ with -DKINDLING_BUILD_BENCH=ON, then
# run bench/run_bench.py (models) and bench/run_op_bench.py (30 single ops x 3 sizes), which write
# bench/RESULTS.md. Arguments are passed to run_bench.py (e.g. --rounds 7 --threads 1); KINDLING_OP_BENCH=0
# skips the op benchmark.
set -euo pipefail
source "$(dirname "$0")/deps.sh"
cd "$KINDLING_ROOT"

install_packages build bench
configure_build build -DKINDLING_BUILD_BENCH=ON
ninja -C build -j"$KINDLING_JOBS" kindling libtorch_runner op_bench libtorch_op_bench
/usr/bin/python3 bench/run_bench.py "$@"
if [ "${KINDLING_OP_BENCH:-1}" != 0 ]; then
  /usr/bin/python3 bench/run_op_bench.py --build build
fi
# The zoo report (bench/ZOO.md): every default zoo model through kindling and libtorch. Slow (minutes); run it
# with KINDLING_BENCH_ZOO=1 (KINDLING_BENCH_ZOO=all for every model).
case "${KINDLING_BENCH_ZOO:-0}" in
  1) /usr/bin/python3 bench/zoo_report.py ;;
  all) /usr/bin/python3 bench/zoo_report.py --all ;;
esac
