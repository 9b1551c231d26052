"""One svc application for every Python test: `svc start --port 0` in a temporary home,
debug off with a generated token, a local default profile, the tiny models (runtimes/tiny-models),
a copy of the text model whose weights are corrupt, and a spoken WAV for the speech model.

The tests find it as a user's script would: SVC_HOST, SVC_PORT and SVC_HOME_DIR are set for this
process, and the token is read from `$SVC_HOME_DIR/auth_token`.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import sys
import subprocess
import tempfile
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

import svc

REPO = Path(__file__).resolve().parents[3]
BUN = REPO / "node_modules" / ".bin" / "bun"
TEXT_MODEL = "svc-tiny/tiny-llama-gguf"
SPEECH_MODEL = "svc-tiny/tiny-whisper-ggml"
BROKEN_MODEL = "svc-tiny/broken-llama-gguf"
SPOKEN_WAV = "hello.wav"
#: Services of the tiny models are HEALTHY in seconds; this bounds a test that would otherwise hang.
START_TIMEOUT = 120.0
SVC_VARIABLES = ("SVC_HOST", "SVC_PORT", "SVC_HOME_DIR", "SVC_DEBUG", "SVC_DEV_MODE", "SVC_AUTH_TOKEN", "SVC_TOKEN")


@dataclass(frozen=True)
class App:
    url: str
    port: int
    home: Path
    token: str
    docker_socket: str
    #: The speech services' input folder, holding SPOKEN_WAV.
    inputs: Path
    #: clients/python
    package_dir: Path = REPO / "clients" / "python"

    def running_containers(self, service_id: str) -> list[str]:
        """Ids of running Docker containers of the service (the engine labels each with its service id)."""
        transport = httpx.HTTPTransport(uds=self.docker_socket)
        with httpx.Client(transport=transport) as docker:
            filters = '{"label": ["svc.service-id=%s"]}' % service_id
            answer = docker.get("http://docker/v1.41/containers/json", params={"filters": filters})
            answer.raise_for_status()
            return [container["Id"] for container in answer.json()]


def run(command: list[str | Path], **options: object) -> str:
    result = subprocess.run([str(part) for part in command], cwd=REPO, capture_output=True, text=True, **options)  # type: ignore[call-overload]
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, command))} failed ({result.returncode}):\n{result.stderr}")
    return str(result.stdout)


def free_port() -> int:
    """A port nothing listens on now (for a test of an application that does not answer)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


READY_LINE = re.compile(rb"svc is ready at http://[^\s:]+:(\d+)")


def start_app(home: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    """`svc start --port 0`: the gateway binds a port of the kernel's choice, which the ready line names."""
    log_file = home / "svc-start.log"
    log = open(log_file, "wb")
    process = subprocess.Popen([str(REPO / "svc"), "start", "--port", "0"], env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        ready = READY_LINE.search(log_file.read_bytes())
        if ready:
            return process, int(ready.group(1))
        time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"svc start did not become ready:\n{log_file.read_text()}")


def add_broken_copy(models: Path, of: str, named: str) -> None:
    """A registered model whose weights file is corrupt: its service starts and then fails for real."""
    source = models / f"models--{of.replace('/', '--')}"
    target = models / f"models--{named.replace('/', '--')}"
    shutil.copytree(source, target, symlinks=True)
    for weights in target.glob("snapshots/*/*.gguf"):
        blob = weights.resolve()
        blob.write_bytes(b"GGUF" + b"\xff" * 4096)


@pytest.fixture(scope="session")
def app() -> Iterator[App]:
    docker_host = run(["bash", "tests/setup/docker-engine.sh"]).strip().splitlines()[-1]
    run([BUN, "images/build.ts"])
    home = Path(tempfile.mkdtemp(prefix="svc-pytest-"))
    env = {key: value for key, value in os.environ.items() if key not in SVC_VARIABLES}
    env.update(SVC_HOME_DIR=str(home), SVC_HOST="127.0.0.1", SVC_DEBUG="false", DOCKER_HOST=docker_host)
    process, port = start_app(home, env)
    saved = {key: os.environ.pop(key) for key in SVC_VARIABLES if key in os.environ}
    os.environ.update(SVC_HOME_DIR=str(home), SVC_HOST="127.0.0.1", SVC_PORT=str(port))
    try:
        token = (home / "auth_token").read_text().strip()
        models_home = home / "profile-home"
        # A speech service's input folder: any folder svc can read (here in the profile's home).
        inputs = models_home / "audio-in"
        inputs.mkdir(parents=True)
        run(["espeak-ng", "-v", "en", "-w", inputs / SPOKEN_WAV, "hello world"])
        (home / "shared-cache").mkdir()
        with svc.Svc() as client:
            client.create_profile("default", "local", home_dir=str(models_home), cache_dir=str(home / "shared-cache"))
            run([BUN, "runtimes/tiny-models/src/cli.ts", models_home / "models"])
            add_broken_copy(models_home / "models", TEXT_MODEL, BROKEN_MODEL)
            client.refresh_models()
        yield App(f"http://127.0.0.1:{port}", port, home, token, docker_host.removeprefix("unix://"), inputs)
    finally:
        try:
            with svc.Svc() as client:
                for service in client.services(all=True):
                    service.rm(force=True)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
            for key in ("SVC_HOME_DIR", "SVC_HOST", "SVC_PORT"):
                os.environ.pop(key, None)
            os.environ.update(saved)
            shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def client(app: App) -> Iterator[svc.Svc]:
    with svc.Svc() as found:
        yield found


@pytest.fixture(scope="session")
def text_service(client: svc.Svc) -> Iterator[svc.Service]:
    """One HEALTHY text-generation service with an API key, shared by the tests; stopped at the end."""
    with client.run("text-generation", TEXT_MODEL, api_key="sk-python-test-key", name="py-text") as service:
        yield service.wait(timeout=START_TIMEOUT)


def hide_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    """Makes `import openai` fail for the test, whatever is installed."""
    modules: dict[str, object] = sys.modules  # type: ignore[assignment]
    monkeypatch.setitem(modules, "openai", None)


@pytest.fixture
def stand_in_openai(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No `openai` package exists on this machine (no Python package index): this test puts a small
    stand-in module named `openai` on sys.path whose clients only record how they were constructed."""
    (tmp_path / "openai.py").write_text(
        textwrap.dedent(
            """
            class OpenAI:
                def __init__(self, **arguments):
                    self.arguments = arguments

            class AsyncOpenAI(OpenAI):
                pass
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "openai", raising=False)
    yield
    sys.modules.pop("openai", None)
