"""Svc() finds the application and its token the way the `svc` CLI does (platform/src/config)."""

from __future__ import annotations

from pathlib import Path

import pytest

import svc
from svc.settings import load_settings


def test_defaults(tmp_path: Path) -> None:
    settings = load_settings({"HOME": str(tmp_path)})
    assert (settings.host, settings.port, settings.home_dir, settings.auth_token) == ("localhost", 8000, tmp_path / ".svc", None)
    assert settings.url == "http://localhost:8000"
    assert settings.token() is None


def test_variables_and_the_token_file(tmp_path: Path) -> None:
    (tmp_path / "auth_token").write_text("file-token-0123456789\n")
    env = {"SVC_HOST": "127.0.0.1", "SVC_PORT": "8123", "SVC_HOME_DIR": str(tmp_path)}
    settings = load_settings(env)
    assert settings.url == "http://127.0.0.1:8123"
    assert settings.token() == "file-token-0123456789"
    assert load_settings({**env, "SVC_TOKEN": "older-token-0123456789"}).token() == "older-token-0123456789"
    both = {**env, "SVC_AUTH_TOKEN": "current-token-0123456789", "SVC_TOKEN": "older-token-0123456789"}
    assert load_settings(both).token() == "current-token-0123456789"


def test_home_dir_with_a_tilde_and_an_ipv6_host(tmp_path: Path) -> None:
    settings = load_settings({"HOME": str(tmp_path), "SVC_HOME_DIR": "~/elsewhere", "SVC_HOST": "[::1]"})
    assert settings.home_dir == tmp_path / "elsewhere"
    assert settings.url == "http://[::1]:8000"


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("SVC_PORT", "80a", "SVC_PORT='80a' is not a port"),
        ("SVC_PORT", "70000", "from 1 to 65535"),
        ("SVC_HOST", "http://localhost", "without scheme or port"),
        ("SVC_AUTH_TOKEN", "short", "SVC_AUTH_TOKEN must be at least 16 characters"),
        ("SVC_TOKEN", "has spaces in it, long enough", "SVC_TOKEN must be at least 16 characters without spaces"),
    ],
)
def test_bad_values_name_the_variable(variable: str, value: str, says: str) -> None:
    with pytest.raises(svc.SvcConfigError, match=says.replace("(", r"\(")) as raised:
        load_settings({variable: value})
    assert isinstance(raised.value, ValueError)


def test_svc_uses_the_settings_and_an_explicit_url_gets_no_token(tmp_path: Path) -> None:
    (tmp_path / "auth_token").write_text("file-token-0123456789")
    env = {"SVC_HOME_DIR": str(tmp_path), "SVC_PORT": "8124"}
    with svc.Svc(env=env) as found:
        assert (found.url, found.token) == ("http://localhost:8124", "file-token-0123456789")
    with svc.Svc("http://127.0.0.1:9999/", env=env) as named:
        assert (named.url, named.token) == ("http://127.0.0.1:9999", None)
