#!/usr/bin/env bash
# Fuzzing run (tests/fuzz/README.md): builds the libFuzzer targets with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in build-fuzz/, seeds each target's corpus from the repository (example
# archives, the language corpus, IR graphs, tests/fuzz/corpus/) and from tests/fuzz/make_seeds.py, then
# runs each target for KINDLING_FUZZ_SECONDS seconds, one after the other.
#
#   bash scripts/run-fuzz.sh                 (every target)
#   bash scripts/run-fuzz.sh unpickler ...   (some targets)
#
# Environment:
#   KINDLING_FUZZ_SECONDS   seconds per target (default 300)
#   KINDLING_FUZZ_JOBS      parallel fuzzing processes per target (default 1)
# The corpora grow in build-fuzz/corpus/<target>/ and persist between runs; a crashing, leaking or slow
# (> 10 s) input is written to build-fuzz/findings/<target>/ and fails the run. Once fixed, copy it into
# tests/fuzz/corpus/<target>/, where ctest's fuzz_replay.<target> replays it in every ordinary build.
set -euo pipefail
source "$(dirname "$0")/deps.sh"
cd "$KINDLING_ROOT"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(zip_reader unpickler archive torch_save frontend irparser)
SECS="${KINDLING_FUZZ_SECONDS:-300}"
FJOBS="${KINDLING_FUZZ_JOBS:-1}"
B="$KINDLING_ROOT/build-fuzz"

install_packages build test fuzz
CC=clang CXX=clang++ configure_build "$B" -DKINDLING_FUZZ=ON -DKINDLING_BUILD_TESTS=OFF -DKINDLING_BUILD_PYTHON=OFF
ninja -C "$B" -j"$KINDLING_JOBS" $(printf 'fuzz_%s ' "${targets[@]}")

mkdir -p "$B/seeds"
/usr/bin/python3 tests/fuzz/make_seeds.py "$B/seeds" >/dev/null

declare -A dict=([zip_reader]=zip [archive]=zip [torch_save]=zip [unpickler]=pickle [frontend]=torchscript [irparser]=ir)
declare -A repo_seeds=(
  [zip_reader]="examples"
  [archive]="examples"
  [torch_save]="examples/input.pt"
  [unpickler]=""
  [frontend]="tests/oracle/lang tests/oracle/lang_python tests/oracle/lang_rejected"
  [irparser]="tests/unit/data/ir"
)
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:suppressions=$KINDLING_ROOT/tests/sanitizers/ubsan.supp"
export LSAN_OPTIONS="suppressions=$KINDLING_ROOT/tests/sanitizers/lsan.supp:print_suppressions=0"
export OMP_NUM_THREADS=1

status=0
summary=()
for t in "${targets[@]}"; do
  corpus="$B/corpus/$t"; findings="$B/findings/$t"
  # Findings of an earlier run were reported by it: this run's directory starts empty.
  rm -rf "$findings"
  mkdir -p "$corpus" "$findings"
  # libFuzzer takes corpus directories only: single seed files are copied into the generated seeds.
  mkdir -p "$B/seeds/$t"
  seeds=("$B/seeds/$t")
  [ -d "tests/fuzz/corpus/$t" ] && seeds+=("tests/fuzz/corpus/$t")
  for s in ${repo_seeds[$t]}; do
    if [ -d "$s" ]; then seeds+=("$s"); else cp "$s" "$B/seeds/$t/repo_$(basename "$s")"; fi
  done
  parallel=()
  [ "$FJOBS" -le 1 ] || parallel=(-jobs="$FJOBS" -workers="$FJOBS")
  log="$B/fuzz-$t.log"
  echo "== fuzz_$t for ${SECS}s (seeds: ${seeds[*]})"
  set +e
  "$B/tests/fuzz/fuzz_$t" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=3072 -malloc_limit_mb=2048 \
    -max_len=1048576 -dict="tests/fuzz/dict/${dict[$t]}.dict" -artifact_prefix="$findings/" \
    -print_final_stats=1 "${parallel[@]}" "$corpus" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  set -e
  # (with -jobs > 1 libFuzzer writes fuzz-<n>.log files of its own in the working directory)
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | awk '{s+=$2} END {print s+0}' || true)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}' || true)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | awk '{print $2}' || true)
  units=$(find "$corpus" -type f | wc -l)
  found=$(find "$findings" -type f | wc -l)
  summary+=("$(printf '%-11s %10s runs  cov %6s  ft %7s  corpus %6s  findings %s  (exit %s)' "$t" "$runs" "${cov:-?}" "${ft:-?}" "$units" "$found" "$rc")")
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    status=1
    echo "fuzz_$t: FINDING (exit $rc), see $log and $findings" >&2
    grep -E "ERROR: |SUMMARY: |==[0-9]+==|terminate called|what\(\)" "$log" | head -8 >&2 || true
  fi
done
echo "== fuzz summary (CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), ${SECS}s per target)"
printf '%s\n' "${summary[@]}"
exit "$status"
