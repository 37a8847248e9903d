#!/bin/sh
# Build the root file system of rlvr-base:bookworm offline-first (no registry needed).
#   sandbox/base/bootstrap.sh DIR [MIRROR]
# rlvr runs this through `rlvr sandbox bootstrap`, then imports DIR as an image with the Docker
# SDK. Needs root and debootstrap. Result: Debian bookworm minbase + python3 + coreutils, a
# `sandbox` user (uid/gid 10001, the only identity answers ever run as), no apt caches.
set -eu
DIR="$1"
MIRROR="${2:-http://deb.debian.org/debian}"
debootstrap --variant=minbase --include=python3 bookworm "$DIR" "$MIRROR"
grep -q '^sandbox:' "$DIR/etc/passwd" || {
  echo 'sandbox:x:10001:10001:rlvr sandbox:/tmp:/usr/sbin/nologin' >>"$DIR/etc/passwd"
  echo 'sandbox:x:10001:' >>"$DIR/etc/group"
  echo 'sandbox:*:19000:0:99999:7:::' >>"$DIR/etc/shadow"
}
rm -rf "$DIR"/var/cache/apt/archives/*.deb "$DIR"/var/cache/apt/*.bin "$DIR"/var/lib/apt/lists/*
rm -rf "$DIR"/usr/share/doc/* "$DIR"/usr/share/man/* "$DIR"/usr/share/info/*
# Answers need no setuid helpers; without them no-new-privileges has nothing left to stop.
find "$DIR" -xdev -perm /6000 -type f -exec chmod ug-s {} +
