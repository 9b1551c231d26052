"""The stand-ins' group traffic: one JSON object a line over TCP, between the nodes of a job."""
import json
import socket
import time


class Link:
    def __init__(self, sock):
        self.sock = sock
        self.reader = sock.makefile("r", encoding="utf-8")

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def receive(self):
        """The next message, or None once the other side's process is gone (its connection closed)."""
        try:
            line = self.reader.readline()
        except OSError:
            return None
        return json.loads(line) if line else None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def split_address(text):
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"{text!r} is not HOST:PORT")
    return host, int(port)


def connect(host, port, seconds):
    """Connects to host:port, trying again while nothing listens there yet (the other side may start later), for up to `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            sock = socket.create_connection((host, port), timeout=5)
            sock.settimeout(None)
            return Link(sock)
        except OSError as error:
            if time.monotonic() > deadline:
                raise ConnectionError(f"nothing answered at {host}:{port} for {seconds} s ({error.strerror or error})") from error
            time.sleep(0.3)


def listen(host, port):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((host, port))
    server.listen(16)
    return server
