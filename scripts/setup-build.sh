#!/usr/bin/env bash
# README command 1: install the build dependencies (Debian 12), build Kindling into build/, and run the
# bundled example (examples/tiny_cnn.pt, a small CNN saved by torch.jit.save) printing its output and time.
set -euo pipefail
source "$(dirname "$0")/deps.sh"
cd "$KINDLING_ROOT"

install_packages build
configure_build build -DKINDLING_BUILD_TESTS=OFF
ninja -C build -j"$KINDLING_JOBS" kindling

echo "== build/tools/kindling/kindling run examples/tiny_cnn.pt --input examples/input.pt"
build/tools/kindling/kindling run examples/tiny_cnn.pt --input examples/input.pt
