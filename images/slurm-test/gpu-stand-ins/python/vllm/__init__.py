"""Stand-in vLLM on the Slurm test cluster: only its OpenAI server entry point (svc_stand_in.vllm_server)."""

from svc_stand_in.common import engine_version as _engine_version

# What `python3 -c 'import vllm; print(vllm.__version__)'` prints: the version the test cluster plays.
__version__ = _engine_version("vllm")
