# shellcheck shell=bash disable=SC2034  # (the KINDLING_*_PACKAGES lists are read through ${!var})
# Sourced by the other scripts: installs Debian 12 packages by group, only when some are missing.
#   install_packages GROUP...      (GROUP: build, test, bench; see KINDLING_<GROUP>_PACKAGES below)
# Runs apt-get update first (a fresh machine has no package lists) and installs non-interactively with
# --no-install-recommends, so every package the build or the tests need must be named here, including those
# a -dev package only *recommends*.
#
# To add a package: append it to the group that needs it (with a comment when the reason is not obvious).
# To add a group: define KINDLING_<NAME>_PACKAGES (NAME upper case) and call `install_packages <name>` from
# the script that needs it; nothing else changes.

# Compile and link Kindling and run the bundled example.
KINDLING_BUILD_PACKAGES="cmake ninja-build ccache g++ pkg-config libdnnl-dev libopenblas-dev libzip-dev
  libfmt-dev libcli11-dev libhwy-dev libsleef-dev
  ocl-icd-opencl-dev
  python3-dev pybind11-dev libdlpack-dev
  flatbuffers-compiler libflatbuffers-dev nlohmann-json3-dev"
# flatbuffers-*: reading flatbuffer archives (flatc generates the reader of PyTorch's schema at build time);
#   nlohmann-json3-dev: `kindling inspect --json`.
# ocl-icd-opencl-dev: Debian's oneDNN is built with the OpenCL GPU runtime; dnnl-config.cmake calls
#   find_package(OpenCL REQUIRED), and libdnnl-dev only recommends the package that provides it.
# python3-dev pybind11-dev libdlpack-dev: the `kindling` Python package (python/; DLPack 0.6 is the tensor
#   exchange format torch 1.13 speaks).

# Unit tests (GoogleTest) and the oracle tests (pytest against Debian's PyTorch 1.13).
KINDLING_TEST_PACKAGES="libgtest-dev libgmock-dev python3-torch python3-torchvision python3-torchaudio
  python3-pytest graphviz dpkg-dev file time"
# graphviz: `kindling graph --format svg|png` (optional at run time, tested); dpkg-dev, file: cpack -G DEB
#   with dpkg-shlibdeps (scripts/deb-check.sh); time: /usr/bin/time measures kindling's CPU time and peak RSS
#   in tests/oracle/test_growth.py.

# scripts/run-fuzz.sh: the libFuzzer build (clang with its libFuzzer and sanitizer runtimes).
KINDLING_FUZZ_PACKAGES="clang libclang-rt-14-dev"

# bench/: libtorch as the anchor, with OpenBLAS's OpenMP build (the reference BLAS is up to 9x slower);
# Node.js runs ONNX Runtime (npm's onnxruntime-node, installed by scripts/run-bench.sh into build/bench-node);
# python3-numpy compares ORT's outputs with PyTorch's.
KINDLING_BENCH_PACKAGES="libtorch-dev libopenblas0-openmp python3-torch python3-torchvision python3-numpy nodejs"
# npm: only when no npm is on PATH (a Node.js from elsewhere brings its own; Debian's npm would conflict).
KINDLING_NPM_PACKAGES="npm"

# kindling_packages GROUP...: the package names of the groups, one a line.
kindling_packages() {
  local group var
  for group in "$@"; do
    var="KINDLING_${group^^}_PACKAGES"
    if [[ ! "$group" =~ ^[a-z0-9_]+$ ]] || [ -z "${!var+set}" ]; then
      echo "install_packages: unknown group '$group' (no $var in scripts/deps.sh)" >&2
      return 64
    fi
    # shellcheck disable=SC2086  # one package name a word
    printf '%s\n' ${!var}
  done
}

install_packages() {
  local want missing="" p
  want="$(kindling_packages "$@")" || return
  for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  if [ -z "$missing" ]; then
    echo "== Debian packages ($*): all present"
    return 0
  fi
  echo "== installing Debian packages ($*):$missing"
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
