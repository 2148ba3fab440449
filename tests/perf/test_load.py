"""The load test, small: two shard processes, the rate-limited stand-in, many channels.
A correctness test, not a timed one: nothing is lost and every turn change is pinged."""

from __future__ import annotations

import os

import pytest

from .load import run_load


async def test_a_small_load_loses_nothing_and_pings_every_turn(tmp_path):
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    if url:
        pytest.skip("two processes on one database: the SQLite run covers it; the load script takes a PostgreSQL URL")
    figures = await run_load(
        channels=12, rate=8, seconds=3, database_url=f"sqlite+aiosqlite:///{tmp_path / 'load.db'}", settle_seconds=3
    )
    assert figures.commands > 10
    assert figures.lost == 0 and figures.refused == 0, figures.lines()
    assert figures.pings_missing == 0 and len(figures.pings) > 0, figures.lines()
    assert figures.global_429 == 0, figures.lines()
    assert figures.trackers_behind == 0, "every channel's pinned tracker shows the saved state"
