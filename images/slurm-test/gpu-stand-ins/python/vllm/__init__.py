"""Stand-in vLLM on the Slurm test cluster: only its OpenAI server entry point (svc_stand_in.vllm_server)."""
