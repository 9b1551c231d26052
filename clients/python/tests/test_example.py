"""The notebook-style example runs as a script against the application and leaves no service running."""

from __future__ import annotations

import subprocess
import sys

from conftest import App

import svc
from svc.contracts import TERMINAL_STATUSES


def test_the_example_runs(app: App, client: svc.Svc) -> None:
    def live() -> set[str]:
        return {service.id for service in client.services() if service.status not in TERMINAL_STATUSES}

    live_before = live()
    # As on a machine without the openai package, whatever this one has: `import openai` fails.
    script = "import runpy, sys; sys.modules['openai'] = None; runpy.run_path('examples/notebook.py', run_name='__main__')"
    ran = subprocess.run([sys.executable, "-c", script], cwd=app.package_dir, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert "after the block the service is STOPPED" in ran.stdout
    assert "pip install openai" in ran.stdout
    # The example's services have ended: `services()` (svc ls) lists them after the live ones.
    assert live() == live_before
