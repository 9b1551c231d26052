"""Where the application is and which token to send, found exactly as the `svc` CLI finds them.

Variables (current name first, older names after): SVC_HOST, SVC_PORT, SVC_HOME_DIR,
SVC_AUTH_TOKEN / SVC_TOKEN; defaults localhost, 8000, ~/.svc. Without a token variable, the
token `svc start` wrote to `$SVC_HOME_DIR/auth_token` is used when that file exists.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .errors import SvcConfigError

DEFAULT_HOST = "localhost"
DEFAULT_PORT = 8000
DEFAULT_HOME_DIR = "~/.svc"
MIN_TOKEN_LENGTH = 16

VARIABLES = {
    "host": ("SVC_HOST",),
    "port": ("SVC_PORT",),
    "home_dir": ("SVC_HOME_DIR",),
    "auth_token": ("SVC_AUTH_TOKEN", "SVC_TOKEN"),
}

_HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$")
_IPV4 = re.compile(r"^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$")
_IPV6 = re.compile(r"^[0-9A-Fa-f:]+(%[A-Za-z0-9]+)?$")


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    home_dir: Path
    #: SVC_AUTH_TOKEN or SVC_TOKEN, when set.
    auth_token: str | None

    @property
    def url(self) -> str:
        """The application's base URL as a local client sees it."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def token_file(self) -> Path:
        return self.home_dir / "auth_token"

    def token(self) -> str | None:
        """The token to send: the variable, else the token file `svc start` wrote, else None (debug mode)."""
        if self.auth_token:
            return self.auth_token
        try:
            return self.token_file.read_text(encoding="utf-8").strip() or None
        except FileNotFoundError:
            return None


def _pick(key: str, env: Mapping[str, str]) -> tuple[str, str] | None:
    for variable in VARIABLES[key]:
        value = env.get(variable)
        if value:
            return value, variable
    return None


def _host(raw: str, source: str) -> str:
    host = raw.strip()
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if _HOSTNAME.match(host) or _IPV4.match(host) or (":" in bare and _IPV6.match(bare)):
        return bare
    raise SvcConfigError(f"{source}={raw!r} is not a host name: use a name such as localhost or an IP address such as 127.0.0.1, without scheme or port.")


def _port(raw: str, source: str) -> int:
    text = raw.strip()
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise SvcConfigError(f"{source}={raw!r} is not a port: use a whole number from 1 to 65535.")
    return int(text)


def _home_dir(raw: str, source: str, user_home: str) -> Path:
    text = raw.strip()
    if not text:
        raise SvcConfigError(f"{source} is empty: give a directory path, e.g. ~/.svc.")
    if "\0" in text:
        raise SvcConfigError(f"{source} contains a NUL byte: give a plain directory path.")
    if text == "~" or text.startswith("~/"):
        text = user_home + text[1:]
    return Path(os.path.abspath(text))


def _token(raw: str, source: str) -> str:
    if len(raw) < MIN_TOKEN_LENGTH or re.search(r"\s", raw):
        raise SvcConfigError(f"{source} must be at least {MIN_TOKEN_LENGTH} characters without spaces; generate one with: openssl rand -hex 32")
    return raw


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Reads the settings from `env` (default: the process environment); raises SvcConfigError naming a bad variable."""
    env = os.environ if env is None else env
    host = _pick("host", env)
    port = _pick("port", env)
    home = _pick("home_dir", env)
    token = _pick("auth_token", env)
    user_home = env.get("HOME") or os.path.expanduser("~")
    return Settings(
        host=_host(*host) if host else DEFAULT_HOST,
        port=_port(*port) if port else DEFAULT_PORT,
        home_dir=_home_dir(*(home or (DEFAULT_HOME_DIR, "SVC_HOME_DIR")), user_home),
        auth_token=_token(*token) if token else None,
    )
