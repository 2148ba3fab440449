"""A turn ping or a question cut off by a crash: the bot killed after a change was saved and answered, before its
turn message or question was posted, posts it after the restart, once (README, "What survives a restart")."""

from __future__ import annotations

import asyncio

import bot.interact
from bot.reminders import CATCH_UP_AFTER
from tests.e2e.conftest import say, turnkeeper
from tests.helpers import ids

NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3 damage_type=kinetic"
BRUTE = "avoidance=15 fortitude=4 stamina=20 wounds=3 attack=4 damage=2d6+3"
PROMPT = "Brute attacks Nova: spend a Plot Point to give the attack disadvantage?"


async def killed(*args, **kwargs) -> None:
    """``announce`` in a process killed as the command's answer went out: nothing of it happens."""


async def fight(standin) -> None:
    """Rotted Capes: the Brute (the GM's) acts first, then Alice's Nova; round 1 begun, the Brute's turn."""
    await say(standin, "gm", "/campaign setup", system="rotted-capes", choice_timeout=0, reminder_minutes=10)
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=2)
    await say(standin, "gm", "/initiative add", name="Brute", stats=BRUTE, roll=15)
    await say(standin, "gm", "/initiative next")


async def crash_after(standin, url, monkeypatch, user, command, **options) -> None:
    """The fight, then ``command``, saved and answered by a bot killed before it announced anything."""
    async with turnkeeper(standin, url) as client:
        await fight(standin)
        await client.idle.wait()
        monkeypatch.setattr(bot.interact, "announce", killed)
        answer = await say(standin, user, command, **options)
        assert not answer.ephemeral, answer.content
        monkeypatch.undo()


async def restarted(standin, url) -> list:
    """What a restarted bot posts on its first reminder pass after CATCH_UP_AFTER (the bot's own pass may be
    the one that posts it: wait for it)."""
    since = len(standin.book.messages)
    async with turnkeeper(standin, url) as client:
        later = client.core.now() + CATCH_UP_AFTER
        client.core.now = lambda: later
        await client.reminders.tick()
        for _ in range(50):
            await client.idle.wait()
            if len(standin.book.messages) > since:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # and nothing more comes
        return standin.book.messages[since:]


async def test_a_turn_ping_cut_off_by_a_crash_is_posted_once_after_the_restart(
    standin, migrated_database_url, monkeypatch
):
    who = ids(standin)
    await crash_after(standin, migrated_database_url, monkeypatch, "gm", "/initiative next")
    (turn,) = await restarted(standin, migrated_database_url)
    assert turn.has_component(label="End turn"), turn.components
    assert who["alice"] in turn.pinged_user_ids, turn.content
    assert await restarted(standin, migrated_database_url) == []  # everything posted: nothing again
    async with turnkeeper(standin, migrated_database_url):
        clicked = await (await standin.click("alice", "End turn", message=turn)).response()
        assert not clicked.ephemeral, clicked.content  # the button works


async def test_a_question_cut_off_by_a_crash_is_asked_once_after_the_restart(
    standin, migrated_database_url, monkeypatch
):
    who = ids(standin)
    await crash_after(
        standin, migrated_database_url, monkeypatch, "gm", "/attack", actor="Brute", target="Nova", dice="12 3 4"
    )
    (question,) = await restarted(standin, migrated_database_url)
    assert question.content.startswith(f"<@{who['alice']}>") and PROMPT in question.content, question.content
    assert question.pinged_user_ids == {who["alice"]}
    assert question.buttons(), question.components
    assert await restarted(standin, migrated_database_url) == []
