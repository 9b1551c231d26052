"""
A stand-in for `python3 -m vllm.entrypoints.openai.api_server` on the test cluster (no GPU, no vLLM).
It reads its arguments against vLLM's pinned option list and checks what vLLM would find wrong
before it serves: no key on the command line (svc hands it over in VLLM_API_KEY), the model's heads
and layers against the parallel sizes, GPUs visible, its LoRA adapters (--lora-modules NAME=PATH: each
folder there on the node, its rank within --max-lora-rank), and across nodes the Ray cluster (RAY_ADDRESS,
with --distributed-executor-backend ray): it waits, as vLLM's placement group does, until every
node of the job joined, and then world size (tensor × pipeline) must be the GPUs of each node ×
the nodes. Then it serves through the svc CPU runtime; a Ray node dying ends it.
"""
import os
import sys
import threading
import time

from . import wire
from .common import check_parallel, engine_version, fail, integer, lora_adapters, model_config, node_name, one, option_list, parse_engine_args, say, visible_gpus, write_pid
from .ray_cli import cluster_status
from .serve import Lost, serve

WAIT_FOR_NODES_SECONDS = 120


def main(argv):
    prog = f"vllm (stand-in for vLLM {engine_version('vllm')})"
    args = parse_engine_args(prog, "vllm", argv)
    if "--api-key" in args:
        fail(prog, "the API key is on the command line, where `ps` shows it: svc hands it over in VLLM_API_KEY", 2)
    model = one(args, "--model") or fail(prog, "--model is required", 2)
    host, port = one(args, "--host", "0.0.0.0"), integer(prog, args, "--port", 8000)
    served = one(args, "--served-model-name", model)
    tensor = integer(prog, args, "--tensor-parallel-size", 1)
    pipeline = integer(prog, args, "--pipeline-parallel-size", 1)
    check_parallel(prog, model_config(prog, model), tensor, pipeline)
    adapters, max_rank = lora_adapters(prog, "vllm", args)
    # vLLM registers its routes that load adapters while it runs only with this set.
    updating = os.environ.get("VLLM_ALLOW_RUNTIME_LORA_UPDATING", "").lower() in ("true", "1")
    gpus = len(visible_gpus())
    if gpus == 0:
        fail(prog, f"no GPU visible on {node_name()}: CUDA_VISIBLE_DEVICES is unset or empty (did the job or its step get --gres?)")
    world = tensor * pipeline
    backend = one(args, "--distributed-executor-backend")
    lost = Lost()
    if backend == "ray":
        join_ray(prog, world, lost)
    elif world > gpus:
        fail(prog, f"world size {world} (tensor {tensor} × pipeline {pipeline}) is more than the {gpus} GPUs of {node_name()}: across nodes vLLM needs --distributed-executor-backend ray")
    elif world != gpus:
        say(prog, f"warning: {gpus - world} of the {gpus} GPUs of {node_name()} stay unused (world size {world})")
    write_pid("vllm")
    serve(prog, model, host, port, served, os.environ.get("VLLM_API_KEY"), lost, lora={"engine": "vllm", "adapters": adapters, "max_rank": max_rank, "updating": updating})


def join_ray(prog, world, lost):
    address = os.environ.get("RAY_ADDRESS")
    if not address:
        fail(prog, "--distributed-executor-backend ray, but RAY_ADDRESS is not set: ray.init() would start a one-node Ray of its own")
    expected = int(os.environ.get("SLURM_JOB_NUM_NODES") or os.environ.get("SLURM_NNODES") or 1)
    deadline = time.monotonic() + WAIT_FOR_NODES_SECONDS
    while True:
        try:
            nodes = cluster_status(address)["alive"]
        except (ValueError, ConnectionError) as error:
            fail(prog, f"cannot reach the Ray cluster at {address}: {error}")
        if len(nodes) >= expected:
            break
        if time.monotonic() > deadline:
            fail(prog, f"only {len(nodes)} of the job's {expected} nodes joined the Ray cluster at {address} within {WAIT_FOR_NODES_SECONDS} s")
        time.sleep(0.5)
    names = [node["node"] for node in nodes]
    if node_name() not in names:
        fail(prog, f"the Ray cluster at {address} has no node on {node_name()}, where vLLM runs: {', '.join(names)}")
    per_node = {node["gpus"] for node in nodes}
    if len(per_node) != 1:
        counts = ", ".join(f"{node['node']} {node['gpus']}" for node in nodes)
        fail(prog, f"the Ray nodes have different GPU counts: {counts}")
    gpus = per_node.pop()
    if world != gpus * len(nodes):
        fail(prog, f"world size {world} (tensor × pipeline parallel) is not the Ray cluster's GPUs: {gpus} per node × {len(nodes)} nodes ({', '.join(names)}) = {gpus * len(nodes)}")
    say(prog, f"Ray cluster at {address}: {len(nodes)} nodes ({', '.join(names)}), {gpus} GPUs each, world size {world}")
    host, port = wire.split_address(address)
    watch = wire.connect(host, port, 0)
    watch.send({"op": "watch"})

    def watching():
        while (event := watch.receive()) is not None:
            if event.get("event") == "node_dead":
                return lost.set(f"Ray node {event['node']} ({event['id']}) died: the engine's workers there are gone")
        lost.set(f"lost the Ray head at {address}")

    threading.Thread(target=watching, daemon=True).start()


if __name__ == "__main__":
    main(sys.argv[1:])
