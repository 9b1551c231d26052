# Keeps the test host's sshd down for a while (argv: port, seconds), as a login node slow to restart it:
# the port is held by a listener that resets each connection (as a closed port refuses it), so the
# test host's loop cannot start sshd again until it is released. Returns once sshd is down; the hold
# goes on in a child process.
import os
import socket
import struct
import subprocess
import sys
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
holder = socket.socket()
holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
# The test host's loop starts sshd 0.2 s after it ends: kill it again until the port is ours.
while True:
    subprocess.run(["pkill", "-x", "sshd"])
    try:
        holder.bind(("127.0.0.1", port))
        break
    except OSError:
        time.sleep(0.01)
holder.listen(64)
if os.fork() > 0:
    os._exit(0)
quiet = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(quiet, fd)
holder.settimeout(0.05)
end = time.monotonic() + seconds
while time.monotonic() < end:
    try:
        connection, _ = holder.accept()
    except socket.timeout:
        continue
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()
