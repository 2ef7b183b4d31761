#!/usr/bin/env bash
# README command 2 (and CI): install build + test dependencies (Debian 12, incl. PyTorch as the oracle),
# build everything into build/, run the unit tests (ctest) and the oracle tests (pytest against PyTorch).
# Extra pytest arguments can be passed in KINDLING_PYTEST_ARGS (e.g. "-k resnet18").
set -euo pipefail
source "$(dirname "$0")/deps.sh"
cd "$KINDLING_ROOT"

install_packages build test
configure_build build -DKINDLING_BUILD_TESTS=ON
ninja -C build -j"$KINDLING_JOBS"

echo "== unit tests (ctest)"
ctest --test-dir build --output-on-failure -j"$KINDLING_JOBS"

echo "== oracle tests (pytest, PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)'))"
set +e
# shellcheck disable=SC2086
KINDLING_BIN="$KINDLING_ROOT/build/tools/kindling/kindling" \
  /usr/bin/python3 -m pytest tests/oracle -p no:cacheprovider -q -rfE ${KINDLING_PYTEST_ARGS:-}
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "error: pytest collected no oracle tests (exit 5): the oracle suite must never be empty" >&2
  exit 1
fi
exit "$rc"
