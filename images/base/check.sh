#!/usr/bin/env bash
# Says what the registry-free image path (images/base/build.sh: debootstrap from this machine's apt
# mirror, .deb files fetched by the host's apt) lacks on this machine: prints it and exits 1, or
# prints nothing and exits 0 when build.sh can run. (Kept apart from build.sh, whose own content
# tags the base image it makes.)
set -uo pipefail
mirror=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1)
[ -n "$mirror" ] || mirror=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '$3 ~ /^bookworm$/ {print $2}' | head -n1)
missing=()
[ -n "$mirror" ] || missing+=("a Debian bookworm mirror in /etc/apt/sources.list*")
command -v apt-get >/dev/null || missing+=("apt-get (the images' .deb files come from the host's apt)")
[ "$(id -u)" = 0 ] || missing+=("root (debootstrap runs as root)")
command -v docker >/dev/null || missing+=("the docker CLI")
if [ ${#missing[@]} -gt 0 ]; then
  text=${missing[0]}
  for item in "${missing[@]:1}"; do text="$text, $item"; done
  echo "$text"
  exit 1
fi
