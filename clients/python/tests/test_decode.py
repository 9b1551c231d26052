"""Answers become the contracts' dataclasses: tolerant of what the API may add, clear about what is missing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

import svc
from svc._decode import decode, parse_datetime


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-24T02:09:34Z", datetime(2026, 11, 24, 2, 9, 34, tzinfo=timezone.utc)),
        ("2026-11-24T02:09:34.123Z", datetime(2026, 11, 24, 2, 9, 34, 123000, tzinfo=timezone.utc)),
        ("2026-11-24T02:09:34.79Z", datetime(2026, 11, 24, 2, 9, 34, 790000, tzinfo=timezone.utc)),
        ("2026-11-24T02:09:34.794535841Z", datetime(2026, 11, 24, 2, 9, 34, 794535, tzinfo=timezone.utc)),
        ("2026-11-24T02:09:34.5+01:00", datetime(2026, 11, 24, 2, 9, 34, 500000, tzinfo=timezone(timedelta(hours=1)))),
    ],
)
def test_timestamps_as_javascript_and_docker_write_them(text: str, expected: datetime) -> None:
    assert parse_datetime(text) == expected


def test_profiles_by_schema_unknown_fields_ignored_new_values_kept() -> None:
    local, slurm = decode(
        list[svc.Profile],
        [
            {"name": "default", "schema": "local", "home_dir": "/h", "cache_dir": "/c", "added_later": 1},
            {"name": "cluster", "schema": "slurm", "host": "h", "user": "u", "home": "~/svc", "cache": "/c", "runtime": "podman"},
        ],
    )
    assert local == svc.LocalProfile(name="default", schema="local", home_dir="/h", cache_dir="/c")
    assert isinstance(slurm, svc.SlurmProfile) and (slurm.port, slurm.runtime) == (None, "podman")


def test_a_missing_required_field_is_named() -> None:
    with pytest.raises(svc.SvcError, match=r"GET /api/info has no field homeDir"):
        decode(svc.AppInfo, {"name": "svc", "version": "1", "host": "h", "port": 1, "debug": True}, "GET /api/info")
    with pytest.raises(svc.SvcError, match="matches none of LocalProfile, SlurmProfile"):
        decode(svc.Profile, {"name": "x", "schema": "kubernetes"})
