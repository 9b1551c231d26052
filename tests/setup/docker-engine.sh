#!/usr/bin/env bash
# Makes sure a Docker Engine answers, and prints its DOCKER_HOST. Uses $DOCKER_HOST or the default
# socket when an engine already answers there; otherwise installs Debian's docker.io (as root) and
# starts dockerd on the default socket with host networking only (no bridge, no iptables).
# Idempotent and quick when the engine is up.
set -euo pipefail

ping() { curl -sf --max-time 2 --unix-socket "$1" http://docker/_ping >/dev/null 2>&1; }

if [ -n "${DOCKER_HOST:-}" ] && [[ "$DOCKER_HOST" == unix://* ]] && ping "${DOCKER_HOST#unix://}"; then
  echo "$DOCKER_HOST"; exit 0
fi
socket=/var/run/docker.sock
if ping "$socket"; then echo "unix://$socket"; exit 0; fi

if [ "$(id -u)" != 0 ]; then
  echo "No Docker Engine answers and starting one needs root: start Docker, or set DOCKER_HOST." >&2
  exit 1
fi
if ! command -v dockerd >/dev/null; then
  echo "installing Debian's docker.io (Docker Engine)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io >/dev/null
fi

state=/var/lib/svc-docker
mkdir -p "$state"
# Detach fully so the engine outlives this script (and the test run that called it).
setsid nohup dockerd \
  --host="unix://$socket" \
  --data-root="$state/data" \
  --exec-root=/var/run/svc-docker \
  --pidfile=/var/run/svc-docker.pid \
  --storage-driver=overlay2 \
  --bridge=none --iptables=false --ip6tables=false \
  >"$state/dockerd.log" 2>&1 < /dev/null &

for _ in $(seq 1 100); do
  if ping "$socket"; then echo "unix://$socket"; exit 0; fi
  sleep 0.2
done
echo "dockerd did not answer within 20 s; its log: $state/dockerd.log" >&2
tail -n 20 "$state/dockerd.log" >&2 || true
exit 1
