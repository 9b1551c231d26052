"""
A stand-in for `python3 -m sglang.launch_server` on the test cluster (no GPU, no SGLang), also run
through svc's key launcher (`python3 -c …`, which adds --api-key inside the process). It reads its
arguments against SGLang's pinned option list and checks what a real start would trip over: the key
only inside the process (not on the command line, SGLANG_API_KEY gone), the model's heads and layers,
world size (tensor × pipeline) = GPUs of this node × --nnodes, --node-rank in range and the one Slurm
gives this node. Across nodes rank 0 listens on --dist-init-addr (it must be its node's address),
the other ranks connect to it from their nodes and rank 0 waits for all of them, refusing a rank
twice, then serves through the svc CPU runtime. A rank's connection dropping ends the group: rank 0
stops serving and exits, a rank > 0 that loses rank 0 exits.
"""
import os
import socket
import sys
import threading
import time

from . import wire
from .common import check_parallel, engine_version, fail, integer, lora_adapters, model_config, node_name, one, option_list, parse_engine_args, say, visible_gpus, write_pid
from .serve import Lost, serve

WAIT_FOR_RANKS_SECONDS = 120


def command_line():
    with open("/proc/self/cmdline", "rb") as file:
        return [word.decode(errors="replace") for word in file.read().split(b"\0")]


def main(argv):
    prog = f"sglang (stand-in for SGLang {engine_version('sglang')})"
    if any(word == "--api-key" or word.startswith("--api-key=") for word in command_line()):
        fail(prog, "the API key is on the command line, where `ps` shows it: svc's launcher adds --api-key inside the process", 2)
    if "SGLANG_API_KEY" in os.environ:
        fail(prog, f"SGLANG_API_KEY is set, but SGLang {option_list('sglang')['version']} reads its key only from --api-key: it would serve without one", 2)
    args = parse_engine_args(prog, "sglang", argv)
    model = one(args, "--model-path") or fail(prog, "--model-path is required", 2)
    host, port = one(args, "--host", "127.0.0.1"), integer(prog, args, "--port", 30000)
    served = one(args, "--served-model-name", model)
    tensor = integer(prog, args, "--tensor-parallel-size", 1)
    pipeline = integer(prog, args, "--pipeline-parallel-size", 1)
    nnodes, rank = integer(prog, args, "--nnodes", 1), integer(prog, args, "--node-rank", 0)
    check_parallel(prog, model_config(prog, model), tensor, pipeline)
    gpus = len(visible_gpus())
    here = node_name()
    if gpus == 0:
        fail(prog, f"no GPU visible on {here}: CUDA_VISIBLE_DEVICES is unset or empty (did the job or its step get --gres?)")
    world = tensor * pipeline
    if world != gpus * nnodes:
        fail(prog, f"world size {world} (tensor {tensor} × pipeline {pipeline}) is not the group's GPUs: {gpus} on {here} × --nnodes {nnodes} = {gpus * nnodes}")
    if not 0 <= rank < nnodes:
        fail(prog, f"--node-rank {rank} is outside 0..{nnodes - 1} (--nnodes {nnodes})")
    slurm_rank, slurm_nodes = os.environ.get("SLURM_NODEID"), os.environ.get("SLURM_NNODES")
    if slurm_rank is not None and int(slurm_rank) != rank:
        fail(prog, f"--node-rank {rank} on {here}, but Slurm numbers this node {slurm_rank} (SLURM_NODEID)")
    if slurm_nodes is not None and int(slurm_nodes) != nnodes:
        fail(prog, f"--nnodes {nnodes}, but this Slurm step runs on {slurm_nodes} nodes")
    me = {"rank": rank, "node": here, "gpus": gpus, "world": world, "tensor": tensor, "pipeline": pipeline, "nnodes": nnodes}
    lost = Lost()
    if nnodes > 1:
        address = one(args, "--dist-init-addr") or fail(prog, f"--nnodes {nnodes} needs --dist-init-addr HOST:PORT (rank 0's node)", 2)
        try:
            dist_host, dist_port = wire.split_address(address)
        except ValueError as error:
            fail(prog, f"--dist-init-addr: {error}", 2)
        write_pid(f"sglang-rank{rank}")
        if rank > 0:
            return follow(prog, me, address, dist_host, dist_port)
        lead(prog, me, address, dist_host, dist_port, lost)
    else:
        write_pid("sglang-rank0")
    adapters, max_rank = lora_adapters(prog, "sglang", args)
    serve(prog, model, host, port, served, one(args, "--api-key"), lost, lora={"engine": "sglang", "adapters": adapters, "max_rank": max_rank, "updating": True})


def follow(prog, me, address, host, port):
    """A rank > 0: joins rank 0 from this node, then holds the group until rank 0 is gone."""
    try:
        link = wire.connect(host, port, 60)
    except ConnectionError as error:
        fail(prog, f"rank {me['rank']} on {me['node']} cannot reach rank 0 at --dist-init-addr {address}: {error}")
    link.send(me)
    answer = link.receive()
    if not answer or "error" in answer:
        fail(prog, f"rank 0 at {address} refused rank {me['rank']} on {me['node']}: {(answer or {}).get('error', 'it closed the connection')}")
    say(prog, f"rank {me['rank']} on {me['node']} joined the group at {address} ({answer['ranks']} ranks)")
    while link.receive() is not None:
        pass
    fail(prog, f"rank {me['rank']} on {me['node']} lost rank 0 at {address}")


def lead(prog, me, address, host, port, lost):
    """Rank 0: listens on --dist-init-addr, on its own node's address, until every other rank joined."""
    try:
        mine = socket.gethostbyname(me["node"])
    except OSError:
        mine = None
    if mine is not None and mine != host:
        fail(prog, f"--dist-init-addr {address} is not rank 0's node {me['node']} ({mine})")
    try:
        server = wire.listen(host, port)
    except OSError as error:
        fail(prog, f"rank 0 cannot listen on --dist-init-addr {address}: {error.strerror}")
    server.settimeout(1)
    ranks = {0: me["node"]}
    links = []
    deadline = time.monotonic() + WAIT_FOR_RANKS_SECONDS
    while len(ranks) < me["nnodes"]:
        if time.monotonic() > deadline:
            fail(prog, f"only {len(ranks)} of {me['nnodes']} ranks joined at {address} within {WAIT_FOR_RANKS_SECONDS} s")
        try:
            sock, _ = server.accept()
        except socket.timeout:
            continue
        sock.settimeout(None)
        link = wire.Link(sock)
        peer = link.receive() or {}
        problem = refusal(me, peer, ranks)
        if problem:
            link.send({"error": problem})
            fail(prog, problem)
        ranks[peer["rank"]] = peer["node"]
        links.append((peer, link))
        say(prog, f"rank {peer['rank']} on {peer['node']} joined ({len(ranks)} of {me['nnodes']})")
    for peer, link in links:
        link.send({"ok": True, "ranks": len(ranks)})
        threading.Thread(target=watch, args=(peer, link, lost), daemon=True).start()


def refusal(me, peer, ranks):
    rank = peer.get("rank")
    if not isinstance(rank, int) or not 0 < rank < me["nnodes"]:
        return f"a rank {rank!r} joined from {peer.get('node')}: ranks other than 0 are 1..{me['nnodes'] - 1}"
    if rank in ranks:
        return f"rank {rank} joined twice (from {ranks[rank]} and {peer.get('node')})"
    if peer.get("node") in ranks.values():
        return f"two ranks on node {peer.get('node')}: one rank per node"
    for key in ("world", "tensor", "pipeline", "nnodes", "gpus"):
        if peer.get(key) != me[key]:
            return f"rank {rank} on {peer.get('node')} has {key} {peer.get(key)}, rank 0 has {me[key]}"
    return None


def watch(peer, link, lost):
    while link.receive() is not None:
        pass
    lost.set(f"rank {peer['rank']} on {peer['node']} left the group (its connection dropped)")


if __name__ == "__main__":
    main(sys.argv[1:])
