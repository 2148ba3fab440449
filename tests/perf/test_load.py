"""The load test, small: two shard processes, the rate-limited stand-in, many channels.
A correctness test, not a timed one: nothing is lost and every turn change is pinged.

The default suite runs a short load; the longer one, whose second process waits out Discord's
limit on command syncs (2 a minute) before it connects, is marked ``long_load``: left out of
``python -m pytest``, run by ``python -m pytest -m long_load`` (CI runs it in a step of its own)."""

from __future__ import annotations

import dataclasses
import os

import pytest

from . import load
from .load import Figures, run_load


def sqlite_only() -> None:
    if os.environ.get("TEST_DATABASE_URL", "").strip():
        pytest.skip("two processes on one database: the SQLite run covers it; the load script takes a PostgreSQL URL")


def assert_nothing_lost(figures: Figures) -> None:
    assert figures.commands > 10
    assert figures.lost == 0 and figures.refused == 0, figures.lines()
    assert figures.pings_missing == 0 and len(figures.pings) > 0, figures.lines()
    assert figures.global_429 == 0, figures.lines()
    assert figures.trackers_behind == 0, "every channel's pinned tracker shows the saved state"


class SyncsUnlimited(load.RateLimits):
    """Discord's limits, but for the one on command syncs: each process syncs once as it starts."""

    @classmethod
    def discord(cls) -> load.RateLimits:
        return dataclasses.replace(super().discord(), routes={})


async def test_a_short_load_loses_nothing_and_pings_every_turn(tmp_path, monkeypatch):
    sqlite_only()
    monkeypatch.setattr(load, "RateLimits", SyncsUnlimited)
    figures = await run_load(
        channels=6, rate=8, seconds=2, database_url=f"sqlite+aiosqlite:///{tmp_path / 'load.db'}", settle_seconds=2
    )
    assert_nothing_lost(figures)


@pytest.mark.long_load
async def test_a_small_load_loses_nothing_and_pings_every_turn(tmp_path):
    sqlite_only()
    figures = await run_load(
        channels=12, rate=8, seconds=3, database_url=f"sqlite+aiosqlite:///{tmp_path / 'load.db'}", settle_seconds=3
    )
    assert_nothing_lost(figures)
