#!/usr/bin/env python3
"""Measures on a real GPU what svc's launch plan estimates (issue 29), one model at a time.

Input: the JSON that `bun bench/gpu-memory/plans.ts` writes: per model its config.json and the plan's
estimate (weights, KV cache for maxModelLen x concurrency tokens, overhead). For each model this builds
the architecture from the real config.json with random bf16 weights directly on the GPU (no download,
no weights), then fills a KV cache of the planned context by running the model over that many random
tokens (prefill in chunks, the model's own cache), and measures with torch's allocator and cudaMemGetInfo:
  weights   memory allocated by the model's parameters and buffers
  kv        memory the model's own cache holds once the planned tokens are in it
  peak      the largest extra allocation of one prefill chunk (activations)
  context   what the CUDA context takes before any tensor (cudaMemGetInfo), counted once per GPU
and prints estimate against measured. Needs PyTorch and transformers; nothing else; never the network.
"""
import json
import sys
import time

import torch
import transformers
from transformers import AutoConfig, AutoModelForCausalLM

GiB = 1024**3
# Prefill chunk: HF's attention builds a chunk x context mask that flash attention (vLLM, SGLang) does not, so a
# small chunk keeps the activation figure near an engine's; engines' own chunk (vLLM 2,048-8,192) is a tuning choice.
CHUNK = 2048
CONTEXT = [0]


def device_used() -> int:
    free, total = torch.cuda.mem_get_info()
    return total - free


def kv_cache_of(model, cache_len: int, sequences: int, chunk: int) -> tuple[int, int, float]:
    """Fills the model's own KV cache with `sequences` x `cache_len` random tokens; returns (kv bytes, peak extra, seconds)."""
    from transformers import DynamicCache

    vocab = model.config.vocab_size
    base = torch.cuda.memory_allocated()
    peak_extra = 0
    started = time.time()
    caches = []
    for _ in range(sequences):
        cache = DynamicCache()
        done = 0
        while done < cache_len:
            n = min(chunk, cache_len - done)
            ids = torch.randint(0, vocab, (1, n), device="cuda")
            before = torch.cuda.memory_allocated()
            torch.cuda.reset_peak_memory_stats()
            with torch.no_grad():
                out = model.model(input_ids=ids, past_key_values=cache, use_cache=True)
            peak_extra = max(peak_extra, torch.cuda.max_memory_allocated() - before)
            cache = out.past_key_values
            del out
            done += n
        caches.append(cache)
    torch.cuda.synchronize()
    kv = torch.cuda.memory_allocated() - base
    seconds = time.time() - started
    del caches
    return kv, peak_extra, seconds


def measure(entry: dict) -> dict:
    fields = {k: v for k, v in entry["config"].items() if k not in ("quantization_config", "auto_map")}
    config = AutoConfig.for_model(fields.pop("model_type"), **fields)
    plan = entry["plan"]
    torch.cuda.empty_cache()
    torch.set_default_device("cuda")
    try:
        model = AutoModelForCausalLM.from_config(config, torch_dtype=torch.bfloat16)
    finally:
        torch.set_default_device("cpu")
    model.eval()
    torch.cuda.synchronize()
    weights = torch.cuda.memory_allocated()
    params = sum(p.numel() for p in model.parameters())
    kv, peak, seconds = kv_cache_of(model, plan["maxModelLen"], plan["concurrency"], CHUNK)
    unused_reserve = torch.cuda.memory_reserved() - torch.cuda.memory_allocated()
    result = {
        "name": entry["name"],
        "parameters": params,
        "measured": {"weights": weights, "kv": kv, "activationPeak": peak, "cudaContext": CONTEXT[0], "allocatorSlack": unused_reserve},
        "estimate": {"weights": plan["weightBytes"], "kv": plan["kvCacheBytes"], "overhead": plan["overheadBytes"]},
        "prefillSeconds": round(seconds, 1),
    }
    del model
    torch.cuda.empty_cache()
    return result


def main() -> None:
    entries = json.load(open(sys.argv[1]))
    torch.zeros(1, device="cuda")  # the CUDA context first, so it is counted once
    name = torch.cuda.get_device_name()
    total = torch.cuda.mem_get_info()[1]
    print(f"device {name}, {total / GiB:.1f} GiB; torch {torch.__version__}, transformers {transformers.__version__}")
    CONTEXT[0] = device_used()
    print(f"CUDA context before any tensor: {CONTEXT[0] / GiB:.2f} GiB")
    results = []
    for entry in entries:
        try:
            result = measure(entry)
        except Exception as error:  # one model's failure (an architecture this transformers lacks) must not hide the others
            print(f"{entry['name']}: not measured: {type(error).__name__}: {error}")
            torch.cuda.empty_cache()
            continue
        results.append(result)
        m, e = result["measured"], result["estimate"]
        overhead_measured = m["activationPeak"] + m["cudaContext"]
        print(
            f"{result['name']}: weights {e['weights'] / GiB:.2f} est / {m['weights'] / GiB:.2f} measured GiB; "
            f"KV {e['kv'] / GiB:.2f} / {m['kv'] / GiB:.2f}; overhead {e['overhead'] / GiB:.2f} / {overhead_measured / GiB:.2f} "
            f"(activations {m['activationPeak'] / GiB:.2f} + CUDA context {m['cudaContext'] / GiB:.2f}); "
            f"total {(e['weights'] + e['kv'] + e['overhead']) / GiB:.2f} / {(m['weights'] + m['kv'] + overhead_measured) / GiB:.2f}; "
            f"prefill {result['prefillSeconds']} s"
        )
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
