"""Golden transcripts: each `<system>.script` run through the sandbox must print
exactly its `<system>.transcript`. Regenerate with `UPDATE_GOLDEN=1 python -m pytest tests/golden`
after checking the new transcript by eye."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .runs import Runs

# The golden runs are made once per session and shared (tests/golden/runs.py): one worker runs them all.
pytestmark = pytest.mark.xdist_group("golden")

HERE = Path(__file__).parent
SCRIPTS = sorted(HERE.glob("*.script"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
async def test_golden_transcript(script: Path, golden_runs: Runs):
    expected_path = script.with_suffix(".transcript")
    run = await golden_runs.of(script)
    assert run.code == 0, f"{script.name} had failing lines:\n{run.transcript}"
    actual = run.transcript
    if os.environ.get("UPDATE_GOLDEN"):
        expected_path.write_text(actual, encoding="utf-8")
    assert expected_path.exists(), f"no {expected_path.name}: run with UPDATE_GOLDEN=1 and review it"
    assert actual == expected_path.read_text(encoding="utf-8")


def test_every_system_has_a_golden_transcript():
    from rules.registry import MODULES

    missing = [key for key in MODULES if not (HERE / f"{key}.script").exists()]
    assert not missing, f"systems without a golden transcript: {missing}"
