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

# Both suites always run; the script fails if either does.
status=0
echo "== unit tests (ctest)"
ctest --test-dir build --output-on-failure -j"$KINDLING_JOBS" || status=1

echo "== oracle tests (pytest, PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)'))"
set +e
# shellcheck disable=SC2086
KINDLING_BIN="$KINDLING_ROOT/build/tools/kindling/kindling" \
  /usr/bin/python3 -m pytest tests/oracle -p no:cacheprovider -q -rfE ${KINDLING_PYTEST_ARGS:-}
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "error: pytest collected no oracle tests (exit 5): the oracle suite must never be empty" >&2
  status=1
elif [ "$rc" -ne 0 ]; then
  status=1
fi
[ "$status" -eq 0 ] || echo "== some tests FAILED (see above)" >&2
exit "$status"
