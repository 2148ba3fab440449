"""Golden transcripts of the campaign between fights: each `<system>.campaign` script
through the sandbox must print exactly its `<system>.campaign.transcript`: a character
carrying its lasting state from one encounter into the next, and each kind of rest
with the seed's numbers. Regenerate with `UPDATE_GOLDEN=1` after checking by eye."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .runs import Runs

# The golden runs are made once per session and shared (tests/golden/runs.py): one worker runs them all.
pytestmark = pytest.mark.xdist_group("golden")

HERE = Path(__file__).parent
SCRIPTS = sorted(HERE.glob("*.campaign"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
async def test_campaign_transcript(script: Path, golden_runs: Runs):
    run = await golden_runs.of(script)
    assert run.code == 0, f"{script.name} had failing lines:\n{run.transcript}"
    expected = script.with_name(script.name + ".transcript")
    if os.environ.get("UPDATE_GOLDEN"):
        expected.write_text(run.transcript, encoding="utf-8")
    assert expected.exists(), f"no {expected.name}: run with UPDATE_GOLDEN=1 and review it"
    assert run.transcript == expected.read_text(encoding="utf-8")


def test_every_system_has_a_campaign_transcript_with_each_rest():
    from rules import registry
    from rules.registry import MODULES

    for key in MODULES:
        script = HERE / f"{key}.campaign"
        assert script.exists(), f"{key} has no campaign transcript"
        text = script.read_text(encoding="utf-8")
        assert text.count("/encounter start") >= 2, f"{key}: no second fight to carry the state into"
        for rest in registry.get(key).rests():
            assert f"kind:{rest}" in text, f"{key}: the rest {rest} is not shown"
