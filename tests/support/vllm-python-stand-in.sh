#!/bin/sh
# The `python3` a GPU job finds in ~/.local/bin on the test cluster, which has no GPU and no vLLM:
# `python3 -m vllm.entrypoints.openai.api_server ARGS` starts the vLLM stand-in (vllm-stand-in.ts,
# copied to ~/vllm-stand-in.ts) with the Bun of the svc runtime that svc installed in ~/svc/runtime.
set -eu
printf '%s\n' "$*" >> "$HOME/vllm-calls.log"
if [ "${1:-}" != "-m" ] || [ "${2:-}" != "vllm.entrypoints.openai.api_server" ]; then
  echo "python3 (stand-in): only vLLM's OpenAI server is here" >&2
  exit 1
fi
shift 2
runtime=$(ls -d "$HOME"/svc/runtime/*/ | head -n 1)
exec "${runtime}bin/bun" "$HOME/vllm-stand-in.ts" "$@"
