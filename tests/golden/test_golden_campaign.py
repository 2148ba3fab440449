"""Golden transcripts of the campaign between fights: each `<system>.campaign` script
through the sandbox must print exactly its `<system>.campaign.transcript`: a character
carrying its lasting state from one encounter into the next, and each kind of rest
with the seed's numbers. Regenerate with `UPDATE_GOLDEN=1` after checking by eye."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from bot.sandbox import sandbox

HERE = Path(__file__).parent
SCRIPTS = sorted(HERE.glob("*.campaign"))
SEED = 1


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
async def test_campaign_transcript(script: Path):
    out = io.StringIO()
    code = await sandbox(script.read_text(encoding="utf-8"), system=script.stem, seed=SEED, out=out)
    assert code == 0, f"{script.name} had failing lines:\n{out.getvalue()}"
    expected = script.with_name(script.name + ".transcript")
    if os.environ.get("UPDATE_GOLDEN"):
        expected.write_text(out.getvalue(), encoding="utf-8")
    assert expected.exists(), f"no {expected.name}: run with UPDATE_GOLDEN=1 and review it"
    assert out.getvalue() == expected.read_text(encoding="utf-8")


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
