# Sourced by the other scripts: installs Debian 12 packages by group, only when some are missing.
#   install_packages build|test|bench
# Runs apt-get update first (a fresh machine has no package lists) and installs non-interactively.

KINDLING_BUILD_PACKAGES="cmake ninja-build ccache g++ pkg-config libdnnl-dev libopenblas-dev libzip-dev
  libfmt-dev libcli11-dev libhwy-dev libsleef-dev"
KINDLING_TEST_PACKAGES="libgtest-dev libgmock-dev python3-torch python3-torchvision python3-torchaudio python3-pytest"
KINDLING_BENCH_PACKAGES="libtorch-dev libopenblas0-openmp python3-torch python3-torchvision"

install_packages() {
  local want="" missing="" p
  for group in "$@"; do
    case "$group" in
      build) want="$want $KINDLING_BUILD_PACKAGES" ;;
      test) want="$want $KINDLING_TEST_PACKAGES" ;;
      bench) want="$want $KINDLING_BENCH_PACKAGES" ;;
      *) echo "install_packages: unknown group $group" >&2; return 64 ;;
    esac
  done
  for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  if [ -z "$missing" ]; then
    echo "== Debian packages: all present"
    return 0
  fi
  echo "== installing Debian packages:$missing"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
}

# configure_build BUILD_DIR [cmake options...]: CMake + Ninja, Release, ccache when present.
configure_build() {
  local dir="$1"; shift
  cmake -S "$KINDLING_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
}

KINDLING_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KINDLING_JOBS="${KINDLING_JOBS:-$(nproc)}"
