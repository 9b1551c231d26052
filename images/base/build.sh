#!/usr/bin/env bash
# Builds svc-base:bookworm, the image every project image starts FROM: a minimal Debian bookworm
# made with debootstrap from this machine's own apt mirror, so no container registry is needed.
# Skips the build when an image built from this same script exists. Prints the tag on stdout.
set -euo pipefail
tag=svc-base:bookworm
content=$(sha256sum "$0" | cut -c1-16)

if [ "$(docker image inspect --format '{{ index .Config.Labels "svc.content" }}' "$tag" 2>/dev/null)" = "$content" ]; then
  echo "$tag"; exit 0
fi

# The Debian mirror this machine's apt uses (deb822 or one-line sources).
mirror=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)
[ -n "$mirror" ] || mirror=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '$3 ~ /^bookworm$/ {print $2}' | head -n1 || true)
[ -n "$mirror" ] || { echo "no Debian mirror found in /etc/apt/sources.list*" >&2; exit 1; }

command -v debootstrap >/dev/null || {
  [ "$(id -u)" = 0 ] || { echo "debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
}

rootfs=$(mktemp -d /tmp/svc-base-rootfs.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT
echo "building $tag with debootstrap from $mirror" >&2
debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 || {
  tail -n 30 "$rootfs.log" >&2; exit 1; }
rm -f "$rootfs.log"
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\n' "$mirror" "$mirror" >"$rootfs/etc/apt/sources.list"
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb
tar -C "$rootfs" -c . | docker import \
  --change "LABEL svc.content=$content" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/bin/bash"]' - "$tag" >/dev/null
echo "$tag"
