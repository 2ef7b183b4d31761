#!/usr/bin/env bash
# The Debian package in a fresh Debian 12 root:
#   bash scripts/deb-check.sh ROOT [BUILD_DIR | PACKAGE.deb]
# makes build/kindling_<version>_<arch>.deb with `cpack -G DEB` (BUILD_DIR defaults to build/, built
# already; a .deb given instead is used as it is, as scripts/fresh-check.sh does), installs it in ROOT with `apt install ./kindling_*.deb` (apt brings the Debian runtime
# packages it depends on), then inside ROOT runs the installed `kindling` CLI on the bundled example and
# builds examples/cpp against the installed package with cmake and g++ (installed in ROOT for that) and
# runs it. ROOT is a directory made by mmdebstrap (scripts/fresh-check.sh makes one); run as root.
# Prints the package's installed size and the shared libraries the CLI needs.
set -euo pipefail
source "$(dirname "$0")/deps.sh"
ROOT="${1:?usage: deb-check.sh ROOT [BUILD_DIR]}"
BUILD="${2:-$KINDLING_ROOT/build}"
if [[ "$BUILD" == *.deb ]]; then
  cd "$(dirname "$BUILD")"
  DEB="$(basename "$BUILD")"
else
  cd "$BUILD"
  rm -f kindling_*.deb
  cpack -G DEB > cpack.log 2>&1 || { cat cpack.log >&2; exit 1; }
  DEB="$(ls kindling_*.deb)"
fi
echo "== $DEB: $(dpkg-deb -f "$DEB" Installed-Size) KiB installed; Depends: $(dpkg-deb -f "$DEB" Depends)"

mkdir -p "$ROOT/tmp/kindling-check"
cp "$DEB" "$ROOT/tmp/kindling-check/"
cp -r "$KINDLING_ROOT/examples" "$ROOT/tmp/kindling-check/"
source "$(dirname "$0")/fresh-root.sh"
mount_root_filesystems "$ROOT"
trap 'unmount_root_filesystems "$ROOT" || echo "deb-check: mounts left below $ROOT" >&2' EXIT
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive bash -c "$1"; }
[ -s "$ROOT/etc/resolv.conf" ] || cp /etc/resolv.conf "$ROOT/etc/resolv.conf"

in_root "cd /tmp/kindling-check && apt-get update -q && apt-get install -y -q --no-install-recommends ./$DEB"
echo "== kindling CLI in the fresh root: $(in_root 'ldd /usr/bin/kindling | wc -l') shared libraries"
in_root "cd /tmp/kindling-check && kindling run examples/tiny_cnn.pt --input examples/input.pt"
in_root "apt-get install -y -q --no-install-recommends cmake g++ ninja-build"
in_root "cd /tmp/kindling-check && cmake -S examples/cpp -B build-example -G Ninja && cmake --build build-example && build-example/classify examples/cpp/tiny_classifier.pt"
echo "== the Debian package installs and runs in the fresh root"
