"""
A stand-in `ray` for the test cluster (no Ray there): `ray start --head --node-ip-address=A --port=P
--block` listens on A:P and counts itself as a node; `ray start --address=A:P --block` on another
node joins it over TCP (from that node: the head's address must be reachable) and blocks until the
head is gone; `ray status [--address A:P]` prints the nodes as Ray's autoscaler status does. One
Ray node per Slurm node: a second one from the same node is refused. When a node's connection
drops (its process killed, its node lost) the head counts it dead and tells its watchers (the vLLM
stand-in), as Ray's GCS would.
"""
import os
import sys
import threading
import uuid

from . import wire
from .common import fail, node_name, say, visible_gpus, write_pid

PROG = "ray (stand-in)"
FLAGS = {"--head", "--block", "--disable-usage-stats"}
VALUED = {"--node-ip-address", "--port", "--address", "--num-gpus", "--num-cpus"}


def parse(argv):
    options = {}
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        name, equals, value = arg.partition("=")
        if name in FLAGS and not equals:
            options[name] = True
        elif name in VALUED:
            if not equals:
                if not rest:
                    fail(PROG, f"{name} needs a value", 2)
                value = rest.pop(0)
            options[name] = value
        else:
            fail(PROG, f"unknown option {arg!r} (the stand-in knows {', '.join(sorted(FLAGS | VALUED))})", 2)
    return options


def me(options):
    gpus = int(options["--num-gpus"]) if "--num-gpus" in options else len(visible_gpus())
    return {"node": node_name(), "gpus": gpus, "id": f"node_{uuid.uuid4().hex}"}


class Head:
    def __init__(self, itself):
        self.lock = threading.Lock()
        self.alive = [itself]
        self.dead = []
        self.watchers = []

    def join(self, node, link):
        with self.lock:
            if any(each["node"] == node["node"] for each in self.alive):
                link.send({"error": f"a Ray node on {node['node']} already joined: one Ray node per Slurm node"})
                return False
            self.alive.append(node)
        link.send({"ok": True, "id": node["id"]})
        say(PROG, f"head: node {node['node']} ({node['id']}, {node['gpus']} GPUs) joined")
        return True

    def leave(self, node):
        with self.lock:
            self.alive = [each for each in self.alive if each["id"] != node["id"]]
            self.dead.append(node)
            watchers = list(self.watchers)
        say(PROG, f"head: node {node['node']} ({node['id']}) died: its connection to the head dropped")
        for watcher in watchers:
            try:
                watcher.send({"event": "node_dead", "node": node["node"], "id": node["id"]})
            except OSError:
                pass

    def handle(self, link):
        message = link.receive()
        if not message:
            return link.close()
        if message.get("op") == "status":
            with self.lock:
                link.send({"alive": self.alive, "dead": self.dead})
            return link.close()
        if message.get("op") == "watch":
            with self.lock:
                self.watchers.append(link)
            while link.receive() is not None:
                pass
            with self.lock:
                self.watchers.remove(link)
            return link.close()
        if message.get("op") == "join":
            node = message["node"]
            if self.join(node, link):
                while link.receive() is not None:
                    pass
                self.leave(node)
            return link.close()
        link.send({"error": f"unknown request {message!r}"})
        link.close()


def start_head(options):
    host = options.get("--node-ip-address") or "127.0.0.1"
    port = int(options.get("--port", "6379"))
    try:
        server = wire.listen(host, port)
    except OSError as error:
        fail(PROG, f"the head cannot listen on {host}:{port}: {error.strerror}")
    itself = me(options)
    head = Head(itself)
    write_pid("ray-head")
    say(PROG, f"head on {itself['node']} listening on {host}:{port} ({itself['gpus']} GPUs here)")
    while True:
        sock, _ = server.accept()
        threading.Thread(target=head.handle, args=(wire.Link(sock),), daemon=True).start()


def start_worker(options):
    address = options["--address"]
    try:
        host, port = wire.split_address(address)
        link = wire.connect(host, port, 60)
    except (ValueError, ConnectionError) as error:
        fail(PROG, f"cannot reach the Ray head at {address} from {node_name()}: {error}")
    itself = me(options)
    link.send({"op": "join", "node": itself})
    answer = link.receive()
    if not answer or "error" in answer:
        fail(PROG, f"the Ray head at {address} refused {itself['node']}: {(answer or {}).get('error', 'it closed the connection')}")
    write_pid("ray-worker")
    say(PROG, f"{itself['node']} joined the Ray cluster at {address} as {itself['id']} ({itself['gpus']} GPUs)")
    while link.receive() is not None:
        pass
    fail(PROG, f"{itself['node']} lost the Ray head at {address}")


def cluster_status(address, prog=PROG):
    host, port = wire.split_address(address)
    link = wire.connect(host, port, 0)
    link.send({"op": "status"})
    answer = link.receive()
    link.close()
    if answer is None:
        raise ConnectionError(f"the Ray head at {address} closed the connection")
    return answer


def status(options):
    address = options.get("--address") or os.environ.get("RAY_ADDRESS")
    if not address:
        fail(PROG, "ConnectionError: could not find any running Ray instance (no --address, no RAY_ADDRESS)")
    try:
        answer = cluster_status(address)
    except (ValueError, ConnectionError) as error:
        fail(PROG, f"ConnectionError: could not find any running Ray instance at {address}: {error}")
    gpus = sum(node["gpus"] for node in answer["alive"])
    lines = ["======== Autoscaler status ========", "Node status", "-" * 60, "Active:"]
    lines += [f" 1 {node['id']}" for node in answer["alive"]]
    lines += ["Pending:", " (no pending nodes)", "Recent failures:"]
    lines += [f" {node['id']} (died)" for node in answer["dead"]] or [" (no failures)"]
    lines += ["", "Resources", "-" * 60, "Usage:", f" 0.0/{float(gpus)} GPU"]
    print("\n".join(lines))


def main(argv):
    if not argv or argv[0] not in ("start", "status"):
        fail(PROG, "usage: ray start --head|--address=HOST:PORT [options] --block | ray status [--address HOST:PORT]", 2)
    options = parse(argv[1:])
    if argv[0] == "status":
        return status(options)
    if not options.get("--block"):
        fail(PROG, "the stand-in runs Ray only in the foreground: give --block", 2)
    if options.get("--head"):
        return start_head(options)
    if "--address" not in options:
        fail(PROG, "ray start needs --head or --address=HOST:PORT", 2)
    return start_worker(options)


if __name__ == "__main__":
    main(sys.argv[1:])
