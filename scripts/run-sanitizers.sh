#!/usr/bin/env bash
# Sanitizer run (`.ci/run sanitize`): Kindling built with AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/) runs the unit tests and a slice of the oracle tests; built with ThreadSanitizer
# (build-tsan/) it runs the concurrency tests (tests/concurrency/: 8 threads x 1,000 forward calls on one
# module, and a fork/wait-heavy module) and the fork/wait oracle tests. Any sanitizer report fails the run.
#
#   bash scripts/run-sanitizers.sh            (both phases)
#   bash scripts/run-sanitizers.sh asan|tsan  (one phase)
#
# Environment:
#   KINDLING_SAN_ORACLE_SECONDS   time box of the ASan oracle slice (default 2400); exceeding it fails
#   KINDLING_SAN_PYTEST_ARGS      extra pytest arguments for the oracle slices
#   KINDLING_CONCURRENCY_CALLS    forward calls per thread in the concurrency tests (default 1000)
# Findings inside the uninstrumented third-party libraries (oneDNN, OpenBLAS, libgomp) are suppressed by
# tests/sanitizers/*.supp; nothing of Kindling's own is.
set -euo pipefail
source "$(dirname "$0")/deps.sh"
cd "$KINDLING_ROOT"
phases="${1:-asan tsan}"
SUPP="$KINDLING_ROOT/tests/sanitizers"
JOBS="${KINDLING_JOBS:-2}"
status=0
declare -a timings=()
t_start=$SECONDS
phase_time() { timings+=("$1: $(( SECONDS - $2 ))s"); }

install_packages build test

# abort_on_error: a report ends the process with SIGABRT, which the oracle harness counts as a crash
# (tests/oracle/conftest.py assert_no_crash), and ctest as a failure; the harness also fails any run whose
# stderr holds a sanitizer report.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:detect_stack_use_after_return=0:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:suppressions=$SUPP/ubsan.supp"
export LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:suppressions=$SUPP/tsan.supp"

oracle_slice() {  # oracle_slice BINARY SECONDS pytest-args...
  local bin="$1" secs="$2" rc; shift 2
  set +e
  # shellcheck disable=SC2086
  KINDLING_BIN="$bin" timeout --signal=INT --kill-after=60 "$secs" \
    /usr/bin/python3 -m pytest -p no:cacheprovider -q -rfE "$@" ${KINDLING_SAN_PYTEST_ARGS:-}
  rc=$?
  set -e
  [ "$rc" -ne 124 ] || echo "error: the oracle slice exceeded its time box of ${secs}s" >&2
  [ "$rc" -ne 5 ] || echo "error: pytest collected no tests" >&2
  return "$rc"
}

if [[ " $phases " == *" asan "* ]]; then
  t=$SECONDS
  echo "== ASan + UBSan build (build-asan/)"
  configure_build build-asan -DKINDLING_BUILD_TESTS=ON -DKINDLING_BUILD_PYTHON=OFF \
    -DKINDLING_SANITIZE=address,undefined
  ninja -C build-asan -j"$JOBS"
  phase_time "asan build" "$t"
  t=$SECONDS
  echo "== ASan + UBSan: unit tests (ctest)"
  ctest --test-dir build-asan --output-on-failure -j"$JOBS" || status=1
  phase_time "asan ctest" "$t"
  t=$SECONDS
  echo "== ASan + UBSan: oracle slice (loading, bad input, the malformed-input corpus, the language corpus, the frontend, a few zoo models)"
  oracle_slice "$KINDLING_ROOT/build-asan/tools/kindling/kindling" "${KINDLING_SAN_ORACLE_SECONDS:-3600}" \
    tests/oracle/test_bad_input.py tests/oracle/test_archive_edge_cases.py tests/oracle/test_rejected.py \
    tests/oracle/test_runtime_errors.py tests/oracle/test_language.py tests/oracle/test_printing.py \
    tests/oracle/test_flatbuffer.py tests/oracle/test_fork.py tests/oracle/test_cli.py \
    tests/oracle/test_models.py tests/oracle/test_malformed_corpus.py \
    "tests/oracle/test_zoo.py::test_zoo_model[resnet18-scripted]" \
    "tests/oracle/test_zoo.py::test_zoo_model[lstm-scripted]" \
    "tests/oracle/test_zoo.py::test_zoo_model[transformer_encoder-scripted]" \
    "tests/oracle/test_zoo.py::test_zoo_model[mha_self-traced]" \
    "tests/oracle/test_zoo.py::test_zoo_model[fork_wait-scripted]" \
    "tests/oracle/test_zoo.py::test_zoo_model[traced_in_scripted-scripted]" \
    || status=1
  phase_time "asan oracle slice" "$t"
fi

if [[ " $phases " == *" tsan "* ]]; then
  t=$SECONDS
  echo "== TSan build (build-tsan/: the CLI and the concurrency tests)"
  configure_build build-tsan -DKINDLING_BUILD_TESTS=ON -DKINDLING_BUILD_PYTHON=OFF -DKINDLING_SANITIZE=thread
  ninja -C build-tsan -j"$JOBS" concurrency_forward tools/kindling/kindling
  phase_time "tsan build" "$t"
  t=$SECONDS
  # libgomp is not instrumented: its barriers look like races to TSan. One OpenMP thread per kernel, so the
  # threads under test are the test's own and Kindling's inter-op (fork) pool.
  export OMP_NUM_THREADS=1
  echo "== TSan: concurrency tests"
  build-tsan/tests/concurrency/concurrency_forward || status=1
  echo "== TSan: fork/wait oracle tests (the language corpus's fork programs, fork archives)"
  oracle_slice "$KINDLING_ROOT/build-tsan/tools/kindling/kindling" 1200 \
    tests/oracle/test_fork.py tests/oracle/test_language.py -k "fork" || status=1
  phase_time "tsan tests" "$t"
fi

echo "== wall time: $(( SECONDS - t_start ))s (${timings[*]})"
[ "$status" -eq 0 ] || echo "== sanitizer run FAILED (see above)" >&2
exit "$status"
