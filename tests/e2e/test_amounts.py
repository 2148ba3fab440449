"""Amounts that would do nothing are refused privately in every system, through
real discord.py and the stand-in: nothing is posted, nothing is recorded, and
the next undo still takes back the real hit."""

from __future__ import annotations

import pytest

from bot.sandbox import settle
from rules.registry import MODULES
from tests.e2e.conftest import say

BAD_DAMAGE = ["-5", "0", "-1d6"]
BAD_HEAL = ["-5", "0"]


def good_damage(key):
    return "4+2" if key == "99-towers" else "2"


async def recorded(bot, standin):
    record = await bot.core.repo.active_encounter(standin.channel("combat").id)
    return record, len(await bot.core.repo.events(record.id))


def public(standin):
    return standin.messages(include_ephemeral=False)


@pytest.mark.parametrize("key", list(MODULES))
async def test_bad_amounts_are_refused_privately_and_change_nothing(standin, bot, key):
    await say(standin, "gm", "/campaign setup", system=key)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Goblin")
    await say(standin, "gm", "/initiative add", name="Orc", side="players" if key == "factions" else None)
    await say(standin, "gm", "/initiative next")
    hit = await say(standin, "gm", "/damage", target="Goblin", amount=good_damage(key))
    assert not hit.ephemeral and "⛔" not in hit.content  # the control: a real amount is a public result
    await settle(standin, bot)  # its tracker edit and any turn message are out
    record, events = await recorded(bot, standin)
    state_before = (await bot.core.repo.get_encounter(record.id)).state
    seen = len(public(standin))

    for command, bad in [("/damage", amount) for amount in BAD_DAMAGE] + [("/heal", amount) for amount in BAD_HEAL]:
        answer = await say(standin, "gm", command, target="Goblin", amount=bad)
        assert answer.ephemeral, (command, bad)
        assert answer.content.startswith("⛔") and "amount" in answer.content, (command, bad, answer.content)

    await settle(standin, bot)
    assert [m.content for m in public(standin)[seen:]] == []  # no public message
    assert (await recorded(bot, standin))[1] == events  # no event recorded
    assert (await bot.core.repo.get_encounter(record.id)).state == state_before
    undone = await say(standin, "gm", "/encounter undo")
    assert "/damage" in undone.content  # the undo takes back the real hit, not a no-op
