#!/bin/sh
# Starts sshd (restarted whenever it ends) on 127.0.0.1:$SSHD_PORT with fresh host keys (so every container
# has its own identity) and the public keys in $AUTHORIZED_KEYS for the user svc. With
# SLURMCTLD_PORT and SLURMD_PORT set it first starts munged, slurmctld and slurmd (a one-node
# cluster on those loopback ports) and prints "slurm is up" once the node is idle. With
# SLURMD_GPU_PORTS="PORT_A PORT_B" also set, it adds a partition `gpu` of two nodes, gpu-a and gpu-b,
# each with four a100 GPUs (typed GRES on device files made here) and its own slurmd on that port.
set -eu
port="${SSHD_PORT:-22}"
# One host key, Ed25519 (what svc's client prefers): RSA's would cost every cluster start half a CPU-second.
[ -f /etc/ssh/ssh_host_ed25519_key ] || ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/ssh_host_ed25519_key
mkdir -p /run/sshd
if [ -n "${AUTHORIZED_KEYS:-}" ]; then
  printf '%s\n' "$AUTHORIZED_KEYS" > /home/svc/.ssh/authorized_keys
  chown svc:svc /home/svc/.ssh/authorized_keys
  chmod 600 /home/svc/.ssh/authorized_keys
fi
if [ -n "${SLURMCTLD_PORT:-}" ]; then
  install -d -o munge -g munge -m 700 /etc/munge /var/lib/munge /var/log/munge
  install -d -o munge -g munge -m 755 /run/munge
  if [ ! -f /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  runuser -u munge -- /usr/sbin/munged
  nodes=localhost
  : > /etc/slurm/gpu-nodes.conf
  if [ -n "${SLURMD_GPU_PORTS:-}" ]; then
    set -- $SLURMD_GPU_PORTS
    sed -e "s/@SLURMD_PORT_A@/${1:?}/" -e "s/@SLURMD_PORT_B@/${2:?}/" /etc/slurm/gpu-nodes.conf.in > /etc/slurm/gpu-nodes.conf
    for n in 0 1 2 3; do [ -e /dev/nvidia$n ] || mknod /dev/nvidia$n c 195 $n; done
    # A job resolves its node's name (SLURMD_NODENAME) to the address its server listens on.
    printf '127.0.0.1 gpu-a gpu-b\n' >> /etc/hosts
    nodes="localhost gpu-a gpu-b"
  fi
  sed -e "s/@SLURMCTLD_PORT@/$SLURMCTLD_PORT/" -e "s/@SLURMD_PORT@/${SLURMD_PORT:?}/" \
    -e '/^@GPU_NODES@$/{' -e 'r /etc/slurm/gpu-nodes.conf' -e 'd' -e '}' /etc/slurm/slurm.conf.in > /etc/slurm/slurm.conf
  install -d -m 755 /var/spool/slurmctld /var/log/slurm
  /usr/sbin/slurmctld
  for node in $nodes; do
    install -d -m 755 "/var/spool/slurmd/$node"
    /usr/sbin/slurmd -N "$node"
  done
  i=0
  until [ "$(sinfo -h -N -o '%N %T' 2>/dev/null | awk '$2 == "idle"' | sort -u | wc -l)" -eq "$(echo $nodes | wc -w)" ]; do
    i=$((i + 1))
    [ "$i" -lt 100 ] || { echo "slurm did not come up"; cat /var/log/slurm/*.log; exit 1; }
    sleep 0.2
  done
  echo "slurm is up"
fi
# sshd in a loop, so a test can restart it (kill every sshd process: the connections drop too).
trap 'kill "$pid" 2>/dev/null; exit 0' TERM INT
while :; do
  /usr/sbin/sshd -D -e -p "$port" &
  pid=$!
  wait "$pid" || true
  sleep 0.2
done
