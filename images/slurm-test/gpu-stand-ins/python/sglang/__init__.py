"""Stand-in SGLang on the Slurm test cluster: only its server entry point (svc_stand_in.sglang_server)."""
