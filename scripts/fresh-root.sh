# shellcheck shell=bash
# Sourced by scripts/fresh-check.sh and scripts/deb-check.sh: the file systems a chroot into a bootstrapped
# Debian root needs, isolated from the host's, and their removal.
#   mount_root_filesystems ROOT     /proc, a private /dev (its own tmpfs with the usual device nodes, devpts
#                                   and /dev/shm: nothing run inside can replace the host's /dev/null), and
#                                   /sys read-only
#   unmount_root_filesystems ROOT   unmounts everything mounted below ROOT, deepest first (lazily when busy);
#                                   fails when something stays mounted
mount_root_filesystems() {
  local root="$1" spec name major minor
  mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
  if ! mountpoint -q "$root/dev"; then
    mount -t tmpfs -o mode=755,nosuid,size=64m kindling-dev "$root/dev"
    for spec in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
      IFS=: read -r name major minor <<<"$spec"
      mknod -m 666 "$root/dev/$name" c "$major" "$minor"
    done
    mkdir -p "$root/dev/pts" "$root/dev/shm"
    mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts"
    ln -s pts/ptmx "$root/dev/ptmx"
    mount -t tmpfs -o mode=1777,nosuid,nodev shm "$root/dev/shm"
    ln -s /proc/self/fd "$root/dev/fd"
    ln -s /proc/self/fd/0 "$root/dev/stdin"
    ln -s /proc/self/fd/1 "$root/dev/stdout"
    ln -s /proc/self/fd/2 "$root/dev/stderr"
  fi
  if ! mountpoint -q "$root/sys"; then
    mount --bind /sys "$root/sys"
    mount -o remount,bind,ro "$root/sys"
  fi
}

unmount_root_filesystems() {
  local root="$1" m
  findmnt -rn -o TARGET | grep -F "$root/" | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m"
  done
  ! findmnt -rn -o TARGET | grep -qF "$root/"
}
