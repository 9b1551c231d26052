"""
Serving the OpenAI API once the group is whole: the project's CPU runtime (the svc runtime bundle
svc installed in the cluster user's home, as a bare Slurm job runs it) loads the model folder's GGUF
on a loopback port, and a small front here answers on the engine's --host/--port under the served
model name, as vLLM and SGLang do (another model name: 404). When the group loses a node, the
runtime is stopped and the stand-in exits non-zero, as the engine would.
"""
import glob
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .common import LORA, check_adapter, fail, say
from .image_parts import image_answer, image_parts


def find_runtime(prog):
    """The newest svc runtime bundle under the home (<home>/<svc home>/runtime/<version>/) with text generation."""
    found = []
    for info in glob.glob(os.path.expanduser("~/*/runtime/*/bundle.json")):
        try:
            with open(info) as file:
                tasks = json.load(file).get("tasks", [])
        except (OSError, ValueError):
            continue
        root = os.path.dirname(info)
        main = os.path.join(root, "app/runtimes/text-generation/src/main.ts")
        if "text-generation" in tasks and os.access(os.path.join(root, "bin/bun"), os.X_OK) and os.path.isfile(main):
            found.append((os.path.getmtime(info), os.path.join(root, "bin/bun"), main))
    if not found:
        fail(prog, "no svc runtime in ~/*/runtime/ to serve through ('svc runtime install' puts one there)")
    _, bun, main = max(found)
    return bun, main


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Lost:
    """Set by a group watcher when a node of the group is gone."""

    def __init__(self):
        self.event = threading.Event()
        self.reason = ""

    def set(self, reason):
        if not self.event.is_set():
            self.reason = reason
            self.event.set()


def serve(prog, model_dir, host, port, served, key, lost, lora=None):
    bun, main = find_runtime(prog)
    inner = free_port()
    env = {name: value for name, value in os.environ.items() if name not in ("VLLM_API_KEY", "SGLANG_API_KEY", "SVC_API_KEY")}
    if key:
        env["SVC_API_KEY"] = key
    runtime = subprocess.Popen([bun, main, "--model", model_dir, "--host", "127.0.0.1", "--port", str(inner)], env=env)

    def stop(signum, _frame):
        runtime.terminate()
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def check():
        if runtime.poll() is not None:
            fail(prog, f"the svc runtime ended (exit {runtime.returncode})")
        if lost.event.is_set():
            runtime.terminate()
            runtime.wait()
            fail(prog, lost.reason)

    while not _healthy(inner):
        check()
        time.sleep(0.2)
    front = ThreadingHTTPServer((host, port), _front(prog, inner, model_dir, served, key, lora or {"engine": None, "adapters": {}}))
    front.daemon_threads = True
    threading.Thread(target=front.serve_forever, daemon=True).start()
    say(prog, f"the group is whole: serving {served} on http://{host}:{port} through the svc CPU runtime ({main})")
    while True:
        check()
        time.sleep(0.2)


def _healthy(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def _front(prog, inner, model_dir, served, key, lora):
    """The engine's API: the base under its served name and each LoRA adapter under its own (answered by the base here: the CPU runtime cannot apply a PEFT adapter); with `lora["updating"]`, the engine's routes that load and unload adapters."""
    path_json = json.dumps(model_dir).encode()
    adapters = lora["adapters"]
    routes = LORA.get(lora["engine"], {}) if lora.get("updating") else {}

    class Front(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args):
            pass

        def do_GET(self):
            self.forward()

        def do_POST(self):
            self.forward()

        def models(self):
            if key and self.headers.get("Authorization") != f"Bearer {key}":
                return self.reply(401, {"error": "Unauthorized"})
            base = {"id": served, "object": "model", "owned_by": lora["engine"] or "stand-in", "root": model_dir, "parent": None}
            listed = [base] + [{"id": name, "object": "model", "owned_by": lora["engine"], "root": path, "parent": served} for name, path in adapters.items()]
            return self.reply(200, {"object": "list", "data": listed})

        def reply(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def send_answer(self, kind, data):
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def change_lora(self, body):
            if key and self.headers.get("Authorization") != f"Bearer {key}":
                return self.reply(401, {"error": "Unauthorized"})
            try:
                request = json.loads(body or b"{}")
                name = request["lora_name"]
            except (ValueError, KeyError, TypeError):
                return self.reply(400, {"object": "error", "message": "lora_name is required", "type": "BadRequestError", "code": 400})
            if self.path == routes["unload"]:
                if adapters.pop(name, None) is None:
                    return self.reply(404, {"object": "error", "message": f"The lora adapter '{name}' cannot be found.", "type": "NotFoundError", "code": 404})
                say(prog, f"unloaded LoRA adapter {name}")
                return self.reply(200, {"success": True})
            path = request.get("lora_path") or ""
            if name in adapters:
                return self.reply(400, {"object": "error", "message": f"The lora adapter '{name}' has already been loaded.", "type": "BadRequestError", "code": 400})
            problem = check_adapter(prog, name, path, lora["max_rank"])
            if problem:
                return self.reply(400, {"object": "error", "message": problem, "type": "BadRequestError", "code": 400})
            adapters[name] = path
            say(prog, f"loaded LoRA adapter {name} ({path})")
            return self.reply(200, {"success": True})

        def forward(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if self.command == "POST" and self.path in routes.values():
                return self.change_lora(body)
            name = served
            if self.command == "GET" and self.path == "/v1/models" and adapters:
                return self.models()
            if self.command == "POST" and body:
                try:
                    request = json.loads(body)
                    model = request.get("model")
                except (ValueError, AttributeError):
                    request, model = {}, None
                if model is not None and model != served and model not in adapters:
                    return self.reply(404, {"object": "error", "message": f"The model `{model}` does not exist.", "type": "NotFoundError", "param": None, "code": 404})
                name = model if model in adapters else served
                parts = image_parts(request) if self.path == "/v1/chat/completions" and isinstance(request, dict) else []
                if parts:
                    return self.send_answer(*image_answer(request, name, parts))
            served_json = json.dumps(name).encode()
            headers = {name: self.headers[name] for name in ("Authorization", "Content-Type", "Accept") if self.headers.get(name)}
            upstream = http.client.HTTPConnection("127.0.0.1", inner, timeout=600)
            try:
                upstream.request(self.command, self.path, body or None, headers)
                response = upstream.getresponse()
                kind = response.getheader("Content-Type", "")
                self.send_response(response.status)
                self.send_header("Content-Type", kind or "application/json")
                if "text/event-stream" in kind:
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    while line := response.readline():
                        line = line.replace(path_json, served_json)
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                        self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                else:
                    data = response.read().replace(path_json, served_json)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
            except OSError as error:
                self.reply(502, {"object": "error", "message": f"the svc runtime did not answer: {error}", "type": "InternalServerError", "code": 502})
            finally:
                upstream.close()

    return Front
