#!/bin/sh
# Starts sshd in the foreground on 127.0.0.1:$SSHD_PORT with fresh host keys (so every container
# has its own identity) and the public keys in $AUTHORIZED_KEYS for the user svc.
set -eu
port="${SSHD_PORT:-22}"
ssh-keygen -A >/dev/null
mkdir -p /run/sshd
if [ -n "${AUTHORIZED_KEYS:-}" ]; then
  printf '%s\n' "$AUTHORIZED_KEYS" > /home/svc/.ssh/authorized_keys
  chown svc:svc /home/svc/.ssh/authorized_keys
  chmod 600 /home/svc/.ssh/authorized_keys
fi
exec /usr/sbin/sshd -D -e -p "$port"
