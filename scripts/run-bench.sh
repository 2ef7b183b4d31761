#!/usr/bin/env bash
# Benchmark (not a test): install the bench packages (libtorch-dev, Node.js; bench only), build kindling,
# bench/libtorch_runner and the op benchmark drivers (bench/op_bench, bench/libtorch_op_bench) into build/
# with -DKINDLING_BUILD_BENCH=ON, install npm's onnxruntime-node into build/bench-node, then run
# bench/run_bench.py (models: Kindling vs ONNX Runtime vs libtorch) and bench/run_op_bench.py (34 single ops x
# 3 sizes), which write bench/RESULTS.md. Arguments are passed to run_bench.py (e.g. --rounds 5 --threads 1
# --models resnet18 bert_like); KINDLING_OP_BENCH=0 skips the op benchmark.
set -euo pipefail
source "$(dirname "$0")/deps.sh"
cd "$KINDLING_ROOT"

install_packages build bench
command -v npm >/dev/null || install_packages npm
configure_build build -DKINDLING_BUILD_BENCH=ON
ninja -C build -j"$KINDLING_JOBS" kindling libtorch_runner op_bench libtorch_op_bench

# ONNX Runtime for Node.js, pinned. --ignore-scripts: its install script only fetches optional CUDA/TensorRT
# binaries; the CPU library ships inside the package.
ORT_VERSION=1.30.0
ORT_DIR="$KINDLING_ROOT/build/bench-node"
if [ "$(node -p "try { require('$ORT_DIR/node_modules/onnxruntime-node/package.json').version } catch (e) { '' }")" != "$ORT_VERSION" ]; then
  mkdir -p "$ORT_DIR"
  npm install --prefix "$ORT_DIR" --no-audit --no-fund --ignore-scripts "onnxruntime-node@$ORT_VERSION"
fi

KINDLING_ORT_DIR="$ORT_DIR" /usr/bin/python3 bench/run_bench.py "$@"
if [ "${KINDLING_OP_BENCH:-1}" != 0 ]; then
  /usr/bin/python3 bench/run_op_bench.py --build build
fi
# The zoo report (bench/ZOO.md): every default zoo model through kindling and libtorch. Slow (minutes); run it
# with KINDLING_BENCH_ZOO=1 (KINDLING_BENCH_ZOO=all for every model).
case "${KINDLING_BENCH_ZOO:-0}" in
  1) /usr/bin/python3 bench/zoo_report.py ;;
  all) /usr/bin/python3 bench/zoo_report.py --all ;;
esac
