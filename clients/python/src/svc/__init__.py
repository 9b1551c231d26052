"""Python API of svc, the inference service manager.

    import svc
    with svc.Svc() as client, client.run("text-generation", "owner/name") as service:
        service.wait()
        print(service.chat("Hello").text)

`Svc` (blocking) and `AsyncSvc` (asyncio) talk to the application's REST API, found like the
`svc` CLI finds it; `Service` / `AsyncService` drive one inference service, `Deployment` a set of
replicas that grows and shrinks with the load (`run(…, replicas="0..3")`).
"""

from . import contracts
from .async_client import AsyncSvc, Launch
from .async_service import AsyncService
from .client import Svc
from .deployment import Deployment
from .contracts import *  # noqa: F403
from .errors import OpenAINotInstalledError, ServiceFailedError, SvcApiError, SvcConfigError, SvcError, SvcTimeoutError, SvcUnreachableError
from ._inference import AudioFile, ChatOptions, Prompt, TranscribeOptions
from .key_options import KeyChanges, KeyPolicy
from .run_options import DeploymentRunOptions, RunOptions
from .scaling_options import ScaleOptions, ScalingKeywords
from .service import Service
from .settings import Settings, load_settings

__version__ = "0.1.0"

__all__ = [
    "AsyncService",
    "AudioFile",
    "ChatOptions",
    "Prompt",
    "TranscribeOptions",
    "AsyncSvc",
    "Deployment",
    "DeploymentRunOptions",
    "KeyChanges",
    "KeyPolicy",
    "Launch",
    "OpenAINotInstalledError",
    "RunOptions",
    "ScaleOptions",
    "ScalingKeywords",
    "Service",
    "ServiceFailedError",
    "Settings",
    "Svc",
    "SvcApiError",
    "SvcConfigError",
    "SvcError",
    "SvcTimeoutError",
    "SvcUnreachableError",
    "contracts",
    "load_settings",
    *contracts.__all__,
]
