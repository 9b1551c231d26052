"""Stand-ins for vLLM, SGLang and Ray on the Slurm test cluster (images/slurm-test): see each module."""
