"""An NPC a GM kept comes back on the side it last fought on: an ally kept on the heroes' side does not turn up
among the threats in the next fight (Factions keeps a faction, tests/e2e/test_factions.py)."""

from __future__ import annotations

from tests.e2e.conftest import say
from tests.e2e.test_kept_hidden import SHADE, end_fight, setup


async def side_of(standin, bot, name: str) -> str:
    _, state = await bot.core.current(standin.world.channel("combat").id)
    return state.find(name).side


async def test_a_kept_ally_comes_back_on_the_heroes_side_until_the_gm_says_otherwise(standin, bot):
    await setup(standin)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=2)
    added = await say(standin, "gm", "/initiative add", name="Shade", stats=SHADE, roll=15, keep=True, side="heroes")
    assert not added.ephemeral, added.content
    await end_fight(standin, bot)
    shown = await say(standin, "gm", "/character show", name="Shade")
    assert "Side: heroes" in str(shown.embeds), shown.embeds
    # Brought back with /initiative join, and with /initiative add keep:true: on the heroes' side both times.
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative join", character="Shade", roll=15)
    assert await side_of(standin, bot, "Shade") == "heroes"
    await end_fight(standin, bot)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Shade", keep=True, roll=15)
    assert await side_of(standin, bot, "Shade") == "heroes"
    await end_fight(standin, bot)
    # A side the GM names wins, and is kept for the next time.
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Shade", keep=True, roll=15, side="threats")
    assert await side_of(standin, bot, "Shade") == "threats"
    await end_fight(standin, bot)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative join", character="Shade", roll=15)
    assert await side_of(standin, bot, "Shade") == "threats"
