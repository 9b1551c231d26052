"""Stand-in SGLang on the Slurm test cluster: only its server entry point (svc_stand_in.sglang_server)."""

from svc_stand_in.common import engine_version as _engine_version

# What `python3 -c 'import sglang; print(sglang.__version__)'` prints: the version the test cluster plays.
__version__ = _engine_version("sglang")
