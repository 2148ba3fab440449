"""An NPC a GM kept remembers whether it fought hidden: a GM brings it back so, with /initiative join or
/initiative add keep:true, unless they say otherwise with hidden:."""

from __future__ import annotations

from tests.e2e.conftest import say

NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3"
SHADE = "dex=3 avoidance=15 fortitude=4 stamina=37 wounds=3 attack=4 damage=2d6+3"


async def setup(standin) -> None:
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)


async def fight_with_shade(standin, bot, **options) -> None:
    """A fight Shade is kept from (added with keep:true), hurt, and then ended."""
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=2)
    added = await say(standin, "gm", "/initiative add", name="Shade", stats=SHADE, roll=15, keep=True, **options)
    assert not added.ephemeral, added.content
    await say(standin, "gm", "/initiative next")
    await say(standin, "gm", "/damage", target="Shade", amount="9")
    await end_fight(standin, bot)


async def end_fight(standin, bot) -> None:
    question = await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter", message=question)).response()
    await bot.idle.wait()


async def shade_line(standin, bot) -> str:
    """Shade's line on the tracker pinned for everyone."""
    await bot.idle.wait()
    tracker = next(m for m in standin.messages() if m.pinned)
    return next(line for line in tracker.embeds[0]["description"].splitlines() if "Shade" in line)


async def shade_hidden(standin, bot) -> bool:
    _, state = await bot.core.current(standin.world.channel("combat").id)
    return state.find("Shade").hidden


async def test_a_kept_npc_that_fought_hidden_comes_back_hidden_with_join(standin, bot):
    await setup(standin)
    await fight_with_shade(standin, bot, hidden=True)
    await say(standin, "gm", "/encounter start")
    joined = await say(standin, "gm", "/initiative join", character="Shade", roll=15)
    assert not joined.ephemeral and "+ ? = ?" in joined.content, joined.content
    line = await shade_line(standin, bot)
    assert "`       ?`" in line and "/37" not in line and "Wounds" not in line, line
    assert await shade_hidden(standin, bot)
    # it comes back as it left, the damage of the first fight included
    _, state = await bot.core.current(standin.world.channel("combat").id)
    assert state.find("Shade").stamina == 28


async def test_a_gm_brings_a_hidden_kept_npc_back_visible_and_it_stays_so(standin, bot):
    await setup(standin)
    await fight_with_shade(standin, bot, hidden=True)
    await say(standin, "gm", "/encounter start")
    joined = await say(standin, "gm", "/initiative join", character="Shade", roll=15, hidden=False)
    assert not joined.ephemeral, joined.content
    line = await shade_line(standin, bot)
    assert "28/37 Stamina" in line, line
    assert not await shade_hidden(standin, bot)
    await end_fight(standin, bot)
    # it fought visible last: a GM who says nothing brings it back visible
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative join", character="Shade", roll=15)
    assert "28/37 Stamina" in await shade_line(standin, bot)


async def test_a_visible_kept_npc_comes_back_visible_and_a_gm_may_hide_it(standin, bot):
    await setup(standin)
    await fight_with_shade(standin, bot)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative join", character="Shade", roll=15)
    assert "28/37 Stamina" in await shade_line(standin, bot)
    assert not await shade_hidden(standin, bot)
    await say(standin, "gm", "/initiative remove", combatant="Shade")
    await say(standin, "gm", "/initiative join", character="Shade", roll=15, hidden=True)
    assert "/37" not in await shade_line(standin, bot)
    await end_fight(standin, bot)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative join", character="Shade", roll=15)
    assert await shade_hidden(standin, bot)


async def test_add_keep_true_brings_a_hidden_kept_npc_back_hidden_unless_told(standin, bot):
    await setup(standin)
    await fight_with_shade(standin, bot, hidden=True)
    await say(standin, "gm", "/encounter start")
    again = await say(standin, "gm", "/initiative add", name="Shade", keep=True, roll=15)
    assert not again.ephemeral and "+ ? = ?" in again.content, again.content
    assert "/37" not in await shade_line(standin, bot)
    await say(standin, "gm", "/initiative remove", combatant="Shade")
    await say(standin, "gm", "/initiative add", name="Shade", keep=True, roll=15, hidden=False)
    assert "28/37 Stamina" in await shade_line(standin, bot)


async def test_the_flag_stays_out_of_the_systems_lasting_state_and_a_player_cannot_use_it(standin, bot):
    await setup(standin)
    await fight_with_shade(standin, bot, hidden=True)
    guild = standin.world.default_guild.id
    shade = await bot.core.repo.get_character(guild, "Shade")
    assert shade.lasting["hidden"] is True and shade.lasting["stamina"] == 28
    # a rest keeps it, and a player who asks to join hidden is refused as before
    await say(standin, "gm", "/campaign rest", kind="end_scene")
    shade = await bot.core.repo.get_character(guild, "Shade")
    assert shade.lasting["hidden"] is True and shade.lasting["stamina"] == 37
    await say(standin, "gm", "/encounter start")
    refused = await say(standin, "alice", "/initiative join", character="Nova", roll=2, hidden=True)
    assert refused.ephemeral and "Players can only join with their own character" in refused.content
    joined = await say(standin, "alice", "/initiative join", character="Nova", roll=2)
    assert not joined.ephemeral and "20/20" in await nova_line(standin, bot)


async def nova_line(standin, bot) -> str:
    await bot.idle.wait()
    tracker = next(m for m in standin.messages() if m.pinned)
    return next(line for line in tracker.embeds[0]["description"].splitlines() if "Nova" in line)


async def test_stats_typed_for_a_kept_npc_brought_back_hidden_stay_out_of_the_players_log(standin, bot):
    await setup(standin)
    await fight_with_shade(standin, bot, hidden=True)
    await say(standin, "gm", "/encounter start")
    added = await say(standin, "gm", "/initiative add", name="Shade", stats="stamina=41", roll=15, keep=True)
    assert not added.ephemeral, added.content
    assert await shade_hidden(standin, bot)
    handle = await standin.invoke("alice", "/encounter log")
    public = (await handle.response()).attachments[0].data.decode()
    assert "/initiative add" in public and "stamina=41" not in public, public
    gm_handle = await standin.invoke("gm", "/encounter log")
    await gm_handle.response()
    private = (await gm_handle.followup()).attachments[0].data.decode()
    assert "stamina=41" in private, private
