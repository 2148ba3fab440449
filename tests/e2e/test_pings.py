"""Whom the bot's own messages ping, through real discord.py and the stand-in: a reminder goes to
whoever the fight waits on, which while a choice is pending is who must answer it."""

from __future__ import annotations

from datetime import timedelta

from tests.e2e.conftest import say
from tests.helpers import ids

NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3 damage_type=kinetic"
BRUTE = "avoidance=15 fortitude=4 stamina=20 wounds=3 attack=4 damage=2d6+3"
PROMPT = "Brute attacks Nova: spend a Plot Point to give the attack disadvantage?"


async def test_a_reminder_while_a_choice_is_pending_pings_who_must_answer_with_the_question(standin, bot):
    """The Brute's turn is the GM's, but every action waits on Alice's answer: she is reminded, not the GM."""
    who = ids(standin)
    await say(standin, "gm", "/campaign setup", system="rotted-capes", choice_timeout=0, reminder_minutes=1)
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=2)
    await say(standin, "gm", "/initiative add", name="Brute", stats=BRUTE, roll=15)
    await say(standin, "gm", "/initiative next")
    await say(standin, "gm", "/attack", actor="Brute", target="Nova", dice="12 3 4")
    await bot.idle.wait()
    record = await bot.core.repo.active_encounter(standin.world.channel("combat").id)
    assert record.pending_deadline is None  # no choice timeout: the fight waits on Alice for as long as it takes
    since = len(standin.book.messages)
    bot.core.now = lambda: record.reminder_due + timedelta(seconds=1)
    assert await bot.reminders.tick() == 1
    (reminder,) = standin.book.messages[since:]
    assert reminder.content == f"<@{who['alice']}> ⏰ {PROMPT}"
    assert set(reminder.pings.user_ids) == {who["alice"]}
    assert reminder.current.allowed_mentions.get("users") == [who["alice"]]


async def test_a_reminder_for_a_choice_that_names_nobody_pings_the_gm(standin, bot):
    """An NPC's defence is the GM's call: the GM is reminded, not the attacker whose turn it is."""
    who = ids(standin)
    await say(standin, "gm", "/campaign setup", system="fightin-words", choice_timeout=0, reminder_minutes=1)
    await say(standin, "bob", "/character add", name="Mira", stats="reflex=2 weapon_skill=2")
    await say(standin, "gm", "/encounter start")
    await say(standin, "bob", "/initiative join", character="Mira", roll=6)
    await say(standin, "gm", "/initiative add", name="Goblin", stats="parry=1", roll=1)
    await say(standin, "gm", "/initiative next")
    hit = await say(standin, "bob", "/attack", target="Goblin", dice="6 2")
    assert "Goblin may defend" in hit.content, hit.content
    await bot.idle.wait()
    record = await bot.core.repo.active_encounter(standin.world.channel("combat").id)
    assert record.state["pending"]["users"] == []
    since = len(standin.book.messages)
    bot.core.now = lambda: record.reminder_due + timedelta(seconds=1)
    assert await bot.reminders.tick() == 1
    (reminder,) = standin.book.messages[since:]
    assert reminder.content.startswith(f"<@{who['gm']}> ⏰ Goblin: defend against")
    assert set(reminder.pings.user_ids) == {who["gm"]}


async def test_a_choice_timing_out_as_a_reminder_falls_due_is_not_asked_again(standin, bot):
    """Both past due in one pass (the bot was away, say): the default answers the question, and the
    reminder of the same pass must not ask it again, pinging Alice for a flip already made."""
    who = ids(standin)
    await say(standin, "gm", "/campaign setup", system="99-towers", choice_timeout=120, reminder_minutes=1)
    await say(standin, "alice", "/character add", name="Tony", stats="init=2 pd=3 stun=12 lethal=6")
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Tony", cards="8H 4C")
    await say(standin, "gm", "/initiative add", name="Ogre", stats="init=2 pa=4 weapons='Club: 5'", cards="QS 5D")
    await say(standin, "gm", "/initiative next")
    asked = await say(standin, "gm", "/attack", target="Tony", cards="KH QH 3C 2D")
    assert "see the Flip button" in asked.content, asked.content
    await bot.idle.wait()
    record = await bot.core.repo.active_encounter(standin.world.channel("combat").id)
    assert record.reminder_due < record.pending_deadline
    since = len(standin.book.messages)
    bot.core.now = lambda: record.pending_deadline + timedelta(seconds=1)
    await bot.reminders.tick()
    await bot.idle.wait()
    posted = [m.content for m in standin.book.messages[since:]]
    assert any("no answer in time" in text for text in posted), posted
    assert not any("Press Flip" in text for text in posted), posted
    assert not any(f"<@{who['alice']}> ⏰" in text for text in posted), posted


async def test_a_reminder_counts_from_what_the_waited_for_player_last_did(standin, bot):
    """Alice attacks a minute before her reminder would fall due: she is not idle, so she is reminded only
    after a whole interval without acting, and only her."""
    who = ids(standin)
    await say(standin, "gm", "/campaign setup", system="rotted-capes", reminder_minutes=10)
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=20)
    await say(standin, "gm", "/initiative add", name="Brute", stats=BRUTE, roll=1)
    await say(standin, "gm", "/initiative next")
    await bot.idle.wait()
    channel_id = standin.world.channel("combat").id
    began = (await bot.core.repo.active_encounter(channel_id)).reminder_due - timedelta(minutes=10)
    bot.core.now = lambda: began + timedelta(minutes=9)
    assert "Nova attacks Brute" in (await say(standin, "alice", "/attack", target="Brute", dice="18 3 4")).content
    await bot.idle.wait()
    since = len(standin.book.messages)
    bot.core.now = lambda: began + timedelta(minutes=10, seconds=1)
    assert await bot.reminders.tick() == 0
    bot.core.now = lambda: began + timedelta(minutes=19, seconds=1)
    assert await bot.reminders.tick() == 1
    (reminder,) = standin.book.messages[since:]
    assert reminder.content == f"<@{who['alice']}> ⏰ Still waiting: **Nova's turn**."
    assert set(reminder.pings.user_ids) == {who["alice"]}
