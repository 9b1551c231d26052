"""`python3 -m vllm.entrypoints.openai.api_server`: the stand-in (svc_stand_in.vllm_server)."""
import sys

from svc_stand_in.vllm_server import main

if __name__ == "__main__":
    main(sys.argv[1:])
