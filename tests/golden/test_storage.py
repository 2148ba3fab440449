"""Every state the rules make in the golden fights and campaigns reads back from its stored JSON as
the same state. The bot relies on it: between commands it keeps the state it saved, parsed, and acts
on that instead of on a fresh read of the row (bot.core)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .runs import Runs

# The golden runs are made once per session and shared (tests/golden/runs.py): one worker runs them all.
pytestmark = pytest.mark.xdist_group("golden")

HERE = Path(__file__).parent
SCRIPTS = sorted([*HERE.glob("*.script"), *HERE.glob("*.campaign")])


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
async def test_every_state_reads_back_from_storage_unchanged(script: Path, golden_runs: Runs):
    run = await golden_runs.of(script)
    assert run.states > 0
    assert run.changed_by_storage == (), f"states changed by a round trip through JSON: {run.changed_by_storage[:10]}"
