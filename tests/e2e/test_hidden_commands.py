"""A command given for a hidden NPC, as the log and an undo repeat it: the dice and cards entered in it read
"?" to players as its result's numbers do (README, "Running a fight"), whole to the GM; and who gave each
command, by display name."""

from __future__ import annotations

from tests.e2e.conftest import say

NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3 damage_type=kinetic"
SHADE = "avoidance=15 fortitude=4 stamina=20 wounds=3 attack=4 damage=2d6+3"
TONY = "init=2 ss=2 hs=2 pa=4 pd=3 id=2 px=1 er=1 endurance=2 stun=12 lethal=6 weapons='Heavy Rifle: 7 r12'"
BOSS = "init=3 ss=2 hs=3 pa=4 pd=3 px=2 er=1 endurance=2 stun=14 lethal=5 weapons='Axe: 4+px'"


async def shade_against_nova(standin) -> None:
    """Rotted Capes: Nova against the hidden Shade, whose turn comes first."""
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=2)
    await say(standin, "gm", "/initiative add", name="Shade", stats=SHADE, roll=15, hidden=True)
    await say(standin, "gm", "/initiative next")


async def the_shade_attacks_nova(standin, bot) -> None:
    """The hidden Shade's damage lands on Nova: the channel shows its total, never the faces that tell its bonus."""
    await shade_against_nova(standin)
    await bot.idle.wait()
    await say(standin, "gm", "/attack", actor="Shade", target="Nova", dice="12 3 4")
    await bot.idle.wait()
    ask = next(m for m in reversed(standin.messages()) if any(b.get("label") == "No" for b in m.buttons()))
    answer = await (await standin.click("alice", "No", message=ask)).response()
    await bot.idle.wait()
    assert "2d6 (?) + ? = 10" in answer.content


def row_of(log: str, command: str) -> str:
    return next(line for line in log.splitlines() if command in line)


async def test_dice_entered_for_a_hidden_npc_read_as_its_secret_in_the_log(standin, bot):
    await the_shade_attacks_nova(standin, bot)
    public = (await say(standin, "alice", "/encounter log")).attachments[0].data.decode()
    assert "/attack actor:Shade target:Nova dice:? |" in row_of(public, "/attack")
    assert "roll:2" in row_of(public, "/initiative join")  # a hero's own die stays in sight
    handle = await standin.invoke("gm", "/encounter log")
    assert not (await handle.response()).ephemeral
    for_gm = await handle.followup(0)
    assert for_gm.ephemeral
    assert '/attack actor:Shade target:Nova dice:"12 3 4" |' in row_of(for_gm.attachments[0].data.decode(), "/attack")


async def test_an_undo_repeats_a_hidden_npcs_dice_to_the_gm_alone(standin, bot):
    await the_shade_attacks_nova(standin, bot)
    handle = await standin.invoke("gm", "/encounter undo", count=2)
    undone = await handle.response()
    assert not undone.ephemeral and "/attack actor:Shade target:Nova dice:?;" in undone.content
    assert "12 3 4" not in undone.content
    private = await handle.followup(0)
    assert private.ephemeral and 'dice:"12 3 4"' in private.content


async def test_dice_a_hidden_npc_attacks_with_on_its_turn_read_as_its_secret_though_it_goes_unnamed(standin, bot):
    """On the Shade's turn the GM's `/attack` needs no `actor:`; the attack waits on Nova's Plot Point, so no
    number of the result tells the log the Shade took part: its turn does."""
    await shade_against_nova(standin)
    await say(standin, "gm", "/attack", target="Nova", dice="12 3 4")
    log = (await say(standin, "alice", "/encounter log")).attachments[0].data.decode()
    assert "/attack target:Nova dice:? |" in row_of(log, "/attack")
    undone = await say(standin, "gm", "/encounter undo")
    assert "/attack target:Nova dice:?" in undone.content and "12 3 4" not in undone.content


async def test_cards_entered_for_a_hidden_npc_do_not_count_out_its_initiative_in_the_log(standin, bot):
    await say(standin, "gm", "/campaign setup", system="99-towers")
    await say(standin, "alice", "/character add", name="Tony", stats=TONY)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Tony", cards="KH 4C")
    await say(standin, "gm", "/initiative add", name="Boss", stats=BOSS, hidden=True, cards="QS 5D 9H")
    log = (await say(standin, "alice", "/encounter log")).attachments[0].data.decode()
    assert "stats:(hidden) hidden:True cards:? |" in row_of(log, "/initiative add")
    assert 'cards:"KH 4C"' in row_of(log, "/initiative join")


async def test_the_log_names_who_gave_each_command(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=2)
    await say(standin, "gm", "/initiative add", name="Zombie", roll=3)
    log = (await say(standin, "alice", "/encounter log")).attachments[0].data.decode()
    assert "| alice | /initiative join" in row_of(log, "/initiative join")
    assert "| gm | /initiative add" in row_of(log, "/initiative add")
    assert "user " not in log
