"""Typed names through real discord.py and the stand-in: a name holding "and" is one target, two
players' characters of one name both fight, a NUL in a name is refused with a message, and the
NPC library is listed whole however long it is."""

from __future__ import annotations

from tests.e2e.conftest import say

BOSS = "init=2 ss=2 hs=3 pa=4 pd=3 px=2 er=1 endurance=2 stun=14 lethal=5 weapons='Axe: 4+px'"
NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3"


async def test_a_name_holding_and_is_one_target(standin, bot):
    await say(standin, "gm", "/campaign setup", system="99-towers")
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Brute", stats=BOSS, cards="KH 4C")
    await say(standin, "gm", "/initiative add", name="Salt and Pepper", stats=BOSS, cards="2C 3D")
    await say(standin, "gm", "/initiative next")
    swing = await say(standin, "gm", "/attack", actor="Brute", target="Salt and Pepper")
    assert not swing.ephemeral, swing.content
    assert "Attack with Axe on Salt and Pepper" in swing.content


async def test_two_players_max_both_fight(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    for who in ("alice", "bob"):
        await say(standin, who, "/character add", name="Max", stats=NOVA)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Max", roll=10)
    joined = await say(standin, "bob", "/initiative join", character="Max", roll=9)
    assert not joined.ephemeral, joined.content
    assert "Max joins the encounter as Max (2)" in joined.content


async def test_a_nul_in_a_name_is_refused(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    added = await say(standin, "alice", "/character add", name="No\x00va", stats=NOVA)
    assert added.ephemeral and "`name`: a control character (U+0000) cannot be stored." in added.content
    listed = await say(standin, "alice", "/character list")
    assert "va**" not in listed.content


async def test_a_long_npc_library_is_listed_whole(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    for i in range(30):
        await say(
            standin,
            "gm",
            "/npc add",
            name=f"Zombie of the northern crypt {i:02d}",
            stats="stamina=5",
            notes="shambles slowly toward the nearest living thing, groaning",
        )
    handle = await standin.invoke("gm", "/npc list")
    await handle.response()
    await handle.followup(0)
    text = "\n".join(m.content for m in handle.messages)
    assert all(f"crypt {i:02d}**" in text for i in range(30)), text
    assert "…" not in text
