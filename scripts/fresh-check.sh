#!/usr/bin/env bash
# The fresh-machine check: README.md's two set-up commands, exactly as README.md writes them, run as root in
# a freshly bootstrapped Debian 12 root that holds nothing but `apt` and a clean clone of the commit under
# test; then the Debian package (cpack) installed and run in a second fresh root (scripts/deb-check.sh).
#
#   sudo bash scripts/fresh-check.sh [COMMIT]        (default: HEAD of this checkout)
#
# A package the build or the tests need but scripts/deps.sh does not name makes a command fail here, as it
# would on a user's new machine. Prints the wall time of each phase at the end. Exit 0 when everything passed.
#
# Environment:
#   KINDLING_FRESH_CACHE   where the bootstrapped root is kept as a tarball between runs
#                          (default /var/cache/kindling-fresh; delete bookworm-apt.tar there to re-bootstrap)
#   KINDLING_FRESH_CCACHE  the ccache directory shared with the root (default: the host's ccache directory)
#   KINDLING_FRESH_KEEP=1  keep the roots after the run (their paths are printed), for a look inside
#   KINDLING_FRESH_DEB=0   skip the Debian package check
#
# Needs: root, mmdebstrap (installed here when missing), git, network access to Debian's package archive.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COMMIT="${1:-HEAD}"
CACHE="${KINDLING_FRESH_CACHE:-/var/cache/kindling-fresh}"
TARBALL="$CACHE/bookworm-apt.tar"
CLONE=/root/kindling          # where the clone lives inside the root (a user's checkout)

source "$HERE/scripts/fresh-root.sh"
die() { echo "fresh-check: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "must run as root (it bootstraps a Debian root and chroots into it)"
command -v git >/dev/null || die "git is needed to clone the commit under test"
SHA="$(git -C "$HERE" rev-parse --verify "$COMMIT^{commit}")" || die "no such commit: $COMMIT"

T0=$SECONDS
PHASES=()                     # "name<TAB>seconds" in order
phase() { PHASES+=("$1"$'\t'"$2"); }

# --- the bootstrapped root, cached as a tarball --------------------------------------------------------
if ! command -v mmdebstrap >/dev/null; then
  echo "== installing mmdebstrap"
  DEBIAN_FRONTEND=noninteractive apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap
fi
mkdir -p "$CACHE"
t=$SECONDS
if [ -s "$TARBALL" ]; then
  echo "== reusing the bootstrapped Debian 12 root $TARBALL ($(date -r "$TARBALL" '+%F %R'))"
  phase "bootstrap (cached tarball reused)" 0
else
  # The host's own Debian sources when it has them (same suites, so the same package versions as the host's
  # toolchain and a shared ccache that hits), else mmdebstrap's default mirror.
  sources=()
  [ -f /etc/apt/sources.list.d/debian.sources ] && sources=(/etc/apt/sources.list.d/debian.sources)
  echo "== bootstrapping a Debian 12 root (mmdebstrap --variant=apt bookworm) into $TARBALL"
  rm -f "$TARBALL.partial.tar"
  mmdebstrap --variant=apt bookworm "$TARBALL.partial.tar" "${sources[@]}"
  mv "$TARBALL.partial.tar" "$TARBALL"
  phase "bootstrap (mmdebstrap)" $((SECONDS - t))
fi

# --- roots, mounts, and their cleanup ---------------------------------------------------------------------
ROOTS=()
cleanup() {
  local rc=$? r
  for r in "${ROOTS[@]}"; do
    # The root is removed only when nothing is mounted below it any more, and never across a file system
    # boundary.
    if ! unmount_root_filesystems "$r"; then
      echo "fresh-check: $r still has mounts; left in place" >&2
    elif [ "${KINDLING_FRESH_KEEP:-0}" = 1 ]; then
      echo "fresh-check: kept $r"
    else
      rm -rf --one-file-system "$r"
    fi
  done
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

new_root() {  # new_root VAR: a fresh root from the tarball, its path in VAR
  local r
  r="$(mktemp -d /var/tmp/kindling-fresh.XXXXXX)"
  ROOTS+=("$r")
  tar -xf "$TARBALL" -C "$r"
  cp /etc/resolv.conf "$r/etc/resolv.conf"
  printf -v "$1" '%s' "$r"
}

ROOT=""
new_root ROOT
echo "== fresh root $ROOT"
mount_root_filesystems "$ROOT"
HOST_CCACHE="${KINDLING_FRESH_CCACHE:-$(command -v ccache >/dev/null && ccache -k cache_dir || echo /root/.cache/ccache)}"
mkdir -p "$HOST_CCACHE" "$ROOT/ccache"
mount --bind "$HOST_CCACHE" "$ROOT/ccache"

git clone -q --no-hardlinks "$HERE" "$ROOT$CLONE"
git -C "$ROOT$CLONE" checkout -q --detach "$SHA"
echo "== clean clone of $(git -C "$ROOT$CLONE" log --oneline -1) at $CLONE"

# --- README.md's two commands ------------------------------------------------------------------------------
# The "## Set up" section's ```sh blocks, one command each: 1 builds and runs the example, 2 runs every test.
mapfile -t COMMANDS < <(awk '
  /^## /       { in_setup = ($0 ~ /^## Set up/) }
  in_setup && /^```sh$/ { code = 1; next }
  code && /^```$/       { code = 0; next }
  code && $0 !~ /^[[:space:]]*(#|$)/ { print }' "$ROOT$CLONE/README.md")
[ "${#COMMANDS[@]}" -eq 2 ] || die "README.md's '## Set up' section must hold exactly two \`\`\`sh commands (found ${#COMMANDS[@]})"
# What command 1 prints per README.md: the plain ``` block after the first command, minus the timing line.
mapfile -t EXPECTED < <(awk '
  /^## /       { in_setup = ($0 ~ /^## Set up/) }
  !in_setup    { next }
  state == 0 && /^```sh$/ { state = 1; next }
  state == 1 && /^```$/   { state = 2; next }
  state == 2 && /^```sh$/ { state = 4; next }
  state == 2 && /^```$/   { state = 3; next }
  state == 3 && /^```$/   { state = 4; next }
  state == 3 && !/^load: / { print }' "$ROOT$CLONE/README.md")
[ "${#EXPECTED[@]}" -gt 0 ] || die "README.md shows no output of command 1 to check"

in_root() {  # in_root LOG COMMAND: COMMAND in the clone, as root, with a minimal environment; output timed
  chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    CCACHE_DIR=/ccache CCACHE_BASEDIR="$CLONE" CCACHE_NOHASHDIR=1 \
    ${CCACHE_MAXSIZE:+CCACHE_MAXSIZE=$CCACHE_MAXSIZE} \
    bash -c "cd $CLONE && $2" 2>&1 | stamp | tee "$1"
}
stamp() { local s0=$SECONDS line; while IFS= read -r line; do printf '[%5d] %s\n' $((SECONDS - s0)) "$line"; done; }
CCACHE_MAXSIZE="$(command -v ccache >/dev/null && ccache -k max_size || true)"

# Seconds from the start of a command's log to the first line matching a pattern (empty when none).
at() { { grep -m1 -E "$2" "$1" || true; } | sed -E 's/^\[ *([0-9]+)\].*/\1/'; }
# Phases of one command's log: packages (apt), configure+build, then each test suite, split at the lines
# scripts/deps.sh, CMake, Ninja and scripts/run-tests.sh print.
phases_of() {  # phases_of LABEL LOG TOTAL
  local label="$1" log="$2" total="$3" b u o
  b="$(at "$log" '^\[ *[0-9]+\] -- (The CXX compiler|Configuring)')"
  u="$(at "$log" '^\[ *[0-9]+\] == unit tests')"
  o="$(at "$log" '^\[ *[0-9]+\] == oracle tests')"
  [ -n "$b" ] || b=$total
  phase "$label: packages" "$b"
  if [ -n "$u" ]; then
    phase "$label: build" $((u - b))
    phase "$label: unit tests (ctest)" $(( ${o:-$total} - u ))
    [ -z "$o" ] || phase "$label: oracle tests (pytest)" $((total - o))
  else
    phase "$label: build + example" $((total - b))
  fi
}

LOGDIR="$(mktemp -d)"
ROOTS+=("$LOGDIR")
status=0
for i in 0 1; do
  n=$((i + 1))
  echo "== README command $n, in the fresh root: ${COMMANDS[$i]}"
  t=$SECONDS
  if in_root "$LOGDIR/cmd$n.log" "${COMMANDS[$i]}"; then
    echo "== README command $n passed ($((SECONDS - t)) s)"
  else
    echo "== README command $n FAILED ($((SECONDS - t)) s): ${COMMANDS[$i]}" >&2
    status=1
  fi
  phases_of "command $n" "$LOGDIR/cmd$n.log" $((SECONDS - t))
  if [ "$n" = 1 ] && [ "$status" = 0 ]; then
    for line in "${EXPECTED[@]}"; do
      grep -qF -- "$line" "$LOGDIR/cmd1.log" || { echo "== command 1 did not print README.md's line: $line" >&2; status=1; }
    done
  fi
  [ "$status" = 0 ] || break
done

# --- the Debian package in a second fresh root ---------------------------------------------------------
if [ "$status" = 0 ] && [ "${KINDLING_FRESH_DEB:-1}" != 0 ]; then
  t=$SECONDS
  in_root "$LOGDIR/cpack.log" "cd build && rm -rf deb && cpack -G DEB -B deb >/dev/null && ls deb/*.deb" || status=1
  DEB="$(ls "$ROOT$CLONE"/build/deb/kindling_*.deb 2>/dev/null | head -1)"
  ROOT2=""
  new_root ROOT2
  if [ "$status" = 0 ] && [ -n "$DEB" ] && bash "$ROOT$CLONE/scripts/deb-check.sh" "$ROOT2" "$DEB"; then
    echo "== the Debian package passed in a second fresh root"
  else
    echo "== the Debian package check FAILED" >&2
    status=1
  fi
  phase "Debian package (cpack, install, run, build example)" $((SECONDS - t))
fi

echo "== fresh-machine check of $SHA: $([ "$status" = 0 ] && echo PASSED || echo FAILED)"
printf '%-56s %8s\n' "phase" "seconds"
for p in "${PHASES[@]}"; do printf '%-56s %8s\n' "${p%%$'\t'*}" "${p##*$'\t'}"; done
printf '%-56s %8s\n' "total" $((SECONDS - T0))
exit "$status"
