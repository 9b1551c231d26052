#!/usr/bin/env bash
# Installs what the test suite needs on a fresh Debian machine; quick and silent when all is there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

mapfile -t wanted < <(grep -v '^\s*#' "$here/apt-packages.txt" | awk 'NF {print $1}')
missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "tests need these Debian packages: ${missing[*]} (install them as root: apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "installing test prerequisites: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Integration tests need a Docker Engine and the base image (both idempotent, quick when present).
DOCKER_HOST=$(bash "$here/docker-engine.sh")
export DOCKER_HOST
bash "$here/../../images/base/build.sh" >/dev/null
