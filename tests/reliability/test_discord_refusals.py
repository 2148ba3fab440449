"""Discord refuses a request (an error with its JSON code, not a blip that a retry
mends): a dead interaction token, a channel the bot may no longer post in or see, a
missing Pin Messages permission, an interaction webhook that is gone. What is saved is
still shown, deadlines are neither lost nor retried on every pass, and a refusal that
will come again is not asked again and again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import delivery, interact
from bot.sandbox_text import run_script
from bot.standin import StandIn, running_standin
from bot.standin.world import EMBED_LINKS, MANAGE_MESSAGES, PIN_MESSAGES, SEND_MESSAGES_IN_THREADS
from rules import registry
from rules.text import english
from tests.helpers import GM

from .support import (
    CALLBACK,
    DELETE_BY_WEBHOOK,
    EDIT_BY_WEBHOOK,
    FOLLOWUP,
    PIN,
    assert_tracker_current,
    must,
    pinned_tracker,
    reliability_world,
    running_bot,
    say,
    settle,
    setup_campaign,
    setup_fight,
)


@contextlib.asynccontextmanager
async def fight_going(database_url: str, *, seed: int) -> AsyncIterator[tuple[StandIn, Any]]:
    """The stand-in and a bot with a campaign set up and a fight in its first round, settled."""
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url, seed=seed) as bot:
            await setup_campaign(standin)
            await setup_fight(standin)
            await settle(bot)
            yield standin, bot


# Factions, as in its golden script, up to a bandit's attack that Sybilla may react to.
GOLDEN = Path(__file__).parents[1] / "golden"
CHOICE_SCRIPT = "\n".join((GOLDEN / "factions.script").read_text().splitlines()[2:18])


def refuse(standin, pattern: str, status: int, code: int, message: str, times: int = 1):
    return standin.faults.add(pattern, status=status, code=code, message=message, times=times)


def dead_token(standin, times: int = 5):
    return refuse(standin, CALLBACK, 404, 10062, "Unknown interaction", times=times)


async def refused_then_posted(standin, bot, user: str, command: str, posts: int) -> list:
    """Run a command whose answer Discord refuses; the ``posts`` public messages that follow it
    in #combat (the command's work is not all counted by ``bot.idle``: wait for what it shows)."""
    before = len(standin.messages("combat", include_ephemeral=False))
    await standin.invoke(user, command)
    await standin.wait_for(
        lambda: len(standin.messages("combat", include_ephemeral=False)) >= before + posts or None, 10, "the posts"
    )
    await settle(bot)
    return standin.messages("combat", include_ephemeral=False)[before:]


async def waiting_for(bot, channel):
    record = await bot.core.repo.active_encounter(channel.id)
    system = registry.get(record.system)
    return system.turns.waiting(system, system.load(record.state))


# --- an answer refused after the change was saved -------------------------------------


async def test_a_refused_answer_still_announces_the_new_turn(database_url, errors):
    """The token died before the answer (404 10062): the turn has moved on all the same, so
    the channel reads the result and the next player is pinged; no "something went wrong"
    invites the GM to move it on again."""
    async with fight_going(database_url, seed=11) as (standin, bot):
        fault = dead_token(standin)
        new = await refused_then_posted(standin, bot, "gm", "/initiative next", 2)
        assert fault.hits >= 1
        waiting = await waiting_for(bot, standin.channel("combat"))
        result, turn = new
        assert english(waiting.title) in result.content and result.interaction is None
        assert turn.has_component(label="End turn") and set(turn.pings.user_ids) == set(waiting.users)
        await assert_tracker_current(standin, bot.core.repo, "combat")
    assert errors.records == [], errors.describe()


async def test_a_refused_answer_to_undo_still_shows_the_undo(database_url, errors):
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url, seed=12) as bot:
            await setup_campaign(standin)
            await setup_fight(standin)
            await must(standin, "gm", "/initiative next")
            await settle(bot)
            fault = dead_token(standin)
            undone, turn = await refused_then_posted(standin, bot, "gm", "/encounter undo", 2)
            assert fault.hits >= 1
            assert undone.content.startswith("↩️") and undone.interaction is None
            waiting = await waiting_for(bot, standin.channel("combat"))
            assert english(waiting.title) == "Nova's turn"  # back with her, and she is told
            assert turn.has_component(label="End turn") and set(turn.pings.user_ids) == set(waiting.users)
            await assert_tracker_current(standin, bot.core.repo, "combat")
        assert errors.records == [], errors.describe()


async def test_a_refused_answer_to_start_still_posts_the_tracker(database_url, errors):
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url, seed=13) as bot:
            await setup_campaign(standin)
            fault = dead_token(standin)
            new = await refused_then_posted(standin, bot, "gm", "/encounter start", 1)
            assert fault.hits >= 1
            (begun,) = [m for m in new if "encounter begins" in m.content]
            assert begun.interaction is None
            await standin.wait_for(lambda: standin.book.pinned_in(standin.channel("combat")) or None, 10, "a tracker")
            await assert_tracker_current(standin, bot.core.repo, "combat")
        assert errors.records == [], errors.describe()


# --- a choice that times out where the bot may not post --------------------------------


@pytest.fixture
async def thread_world():
    world = reliability_world()
    duel = world.add_thread(world.channel("combat"), "duel")
    async with running_standin(world) as standin:
        yield standin, duel


async def open_choice(standin, bot, duel):
    """A choice waiting in the thread, and a second fight in #combat-2 whose reminder falls
    due just after that choice's deadline: the time both are due."""
    await say(standin, "gm", "/campaign setup", system="factions")
    await run_script(standin, CHOICE_SCRIPT, in_channel=duel, timeout=10)
    other = standin.channel("combat-2")
    lines = (
        "gm: /encounter start",
        "gm: /initiative add name:Wolf side:wolves stats:\"agi=8 wit=7 weapons='bite:d6'\"",
        "alice: /initiative join character:Balthasar",
        "gm: /initiative next",
    )
    await run_script(standin, "\n".join(lines), in_channel=other, timeout=10)
    await settle(bot)
    choice = await bot.core.repo.active_encounter(duel.id)
    second = await bot.core.repo.active_encounter(other.id)
    assert choice.pending_deadline is not None
    await bot.core.repo.set_meta(second.id, reminder_due=choice.pending_deadline + timedelta(seconds=1))
    return choice.pending_deadline + timedelta(seconds=2)


@pytest.mark.parametrize("how", ["locked thread", "no Send Messages"])
async def test_a_choice_timing_out_where_the_bot_may_not_post(thread_world, database_url, how, caplog):
    """The default applies, is said in the parent channel when the thread is locked, and
    the rest of the pass (another server's reminder) goes on."""
    standin, duel = thread_world
    caplog.set_level(logging.WARNING)
    async with running_bot(standin, database_url, seed=14) as bot:
        due = await open_choice(standin, bot, duel)
        if how == "locked thread":
            standin.archive_thread(duel, locked=True, bot_manages_threads=False)
        else:
            refuse(standin, f"POST /channels/{duel.id}/messages", 403, 50013, "Missing Permissions", times=100)
        await settle(bot)
        combat = standin.channel("combat")
        before = len(standin.messages(combat))
        bot.core.now = lambda: due
        await bot.reminders.tick()
        await settle(bot)
        _, state = await bot.core.current(duel.id)
        assert state.pending is None, "the choice took its default"
        assert "Still waiting" in standin.last_message("combat-2").content, "the pass went on"
        said = [m.content for m in standin.messages(combat)[before:]]
        if how == "locked thread":
            assert any("no answer in time" in text and duel.mention in text for text in said), said
        else:
            assert said == []
            assert any("timed out" in r.getMessage() for r in caplog.records if r.name == "bot.reminders")


# --- a channel the bot cannot look up ---------------------------------------------------


@pytest.mark.parametrize(("status", "code"), [(503, 0), (403, 50001)])
async def test_one_failed_channel_lookup_loses_no_deadline(thread_world, database_url, status, code):
    standin, duel = thread_world
    async with running_bot(standin, database_url, seed=15) as bot:
        due = await open_choice(standin, bot, duel)
        standin.archive_thread(duel)  # out of discord.py's cache: the bot must fetch it
        await settle(bot)
        fault = refuse(standin, f"GET /channels/{duel.id}", status, code, "refused")
        bot.core.now = lambda: due
        await bot.reminders.tick()
        assert fault.hits == 1
        record = await bot.core.repo.active_encounter(duel.id)
        assert record.pending_deadline is not None and record.reminder_due is not None
        bot.core.now = lambda: due + timedelta(hours=5)
        await bot.reminders.tick()
        await settle(bot)
        _, state = await bot.core.current(duel.id)
        assert state.pending is None, "the choice took its default once Discord answered again"


async def test_a_lasting_refusal_puts_the_deadlines_off_and_a_deleted_channel_drops_them(thread_world, database_url):
    standin, duel = thread_world
    async with running_bot(standin, database_url, seed=16) as bot:
        due = await open_choice(standin, bot, duel)
        standin.archive_thread(duel)
        await settle(bot)
        fault = refuse(standin, f"GET /channels/{duel.id}", 403, 50001, "Missing Access", times=1000)
        bot.core.now = lambda: due
        for _ in range(5):  # polls a few seconds apart
            await bot.reminders.tick()
        assert fault.hits == 2, "asked again once, then not before the back-off"
        record = await bot.core.repo.active_encounter(duel.id)
        assert record.pending_deadline > due and record.reminder_due > due
        fault.remaining = 0
        refuse(standin, f"GET /channels/{duel.id}", 404, 10003, "Unknown Channel")
        bot.core.now = lambda: due + timedelta(hours=1)
        await bot.reminders.tick()
        record = await bot.core.repo.active_encounter(duel.id)
        assert record.pending_deadline is None and record.reminder_due is None


# --- no Pin Messages ---------------------------------------------------------------------


async def test_without_pin_messages_the_pin_is_not_asked_on_every_edit(database_url, caplog):
    caplog.set_level(logging.WARNING)
    async with running_standin(reliability_world()) as standin:
        fault = refuse(standin, PIN, 403, 50013, "Missing Permissions", times=10_000)
        async with running_bot(standin, database_url, seed=17) as bot:
            await setup_campaign(standin)
            await setup_fight(standin)
            await settle(bot)
            for amount in range(1, 11):
                await must(standin, "gm", "/damage", target="Brute 1", amount=str(amount))
                await settle(bot)
            assert fault.hits == 1, "asked when the tracker was posted, not on each of the ten edits"
            warned = [r for r in caplog.records if "Pin Messages" in r.getMessage()]
            assert len(warned) == 1
            # The permission is given back; a new tracker (the old one was deleted) asks again.
            fault.remaining = 0
            tracker = [m for m in standin.messages("combat") if m.embeds and "Brute 1" in str(m.embeds)][-1]
            standin.book.delete(tracker)
            await must(standin, "gm", "/damage", target="Brute 2", amount="1")
            await settle(bot)
            assert pinned_tracker(standin, "combat").id != tracker.id
            await assert_tracker_current(standin, bot.core.repo, "combat")


async def test_a_server_that_never_granted_pin_messages_still_gets_its_tracker(database_url, errors, caplog):
    """The stand-in refuses the pin itself, as Discord does, when the bot's role lacks Pin Messages
    (and Manage Messages): the tracker is posted and kept current, unpinned, with one warning."""
    caplog.set_level(logging.WARNING)
    world = reliability_world()
    world.role(world.bot.name).permissions &= ~(PIN_MESSAGES | MANAGE_MESSAGES)
    async with running_standin(world) as standin:
        async with running_bot(standin, database_url, seed=17) as bot:
            await setup_campaign(standin)
            await setup_fight(standin)
            await settle(bot)
            await must(standin, "gm", "/damage", target="Brute 1", amount="2")
            await settle(bot)
            refused = [r for r in standin.rejected if "/pins/" in r[1]]
            assert [(r[0], r[2]) for r in refused] == [("PUT", 403)] and '"code": 50013' in refused[0][3]
            trackers = [m for m in standin.messages("combat") if m.embeds and "Brute 1" in str(m.embeds)]
            assert trackers and not any(m.pinned for m in standin.messages("combat"))
            assert len([r for r in caplog.records if "Pin Messages" in r.getMessage()]) == 1
        assert errors.records == [], errors.describe()


# --- the interaction's webhook is gone ----------------------------------------------------


async def test_an_unknown_webhook_is_not_taken_for_a_deleted_tracker(database_url, errors):
    """404 10015 Unknown Webhook says the token is unusable, not that the message is gone:
    the bot edits the tracker itself instead of pinning a second one."""
    async with fight_going(database_url, seed=18) as (standin, bot):
        tracker = pinned_tracker(standin, "combat")
        fault = refuse(standin, EDIT_BY_WEBHOOK, 404, 10015, "Unknown Webhook")
        await must(standin, "gm", "/damage", target="Brute 1", amount="3")
        await settle(bot)
        assert fault.hits == 1
        assert pinned_tracker(standin, "combat").id == tracker.id
        await assert_tracker_current(standin, bot.core.repo, "combat")
    assert errors.records == [], errors.describe()


@pytest.mark.parametrize(("status", "code"), [(404, 10015), (401, 50027)])
async def test_a_tracker_asks_its_refused_webhook_once_and_moves_on(database_url, errors, status, code):
    """Discord bans for a while a token that makes too many refused requests: once the webhook
    that sent the tracker is refused (Unknown Webhook, Invalid Webhook Token), no later edit asks it
    again; the next command's fresh token takes the tracker over."""
    async with fight_going(database_url, seed=18) as (standin, bot):
        tracker = pinned_tracker(standin, "combat")
        # Every edit of this tracker through a webhook is refused: its sender's token is dead.
        fault = refuse(standin, f"PATCH /webhooks/*/*/messages/{tracker.id}", status, code, "refused", 1000)
        for amount in range(1, 6):
            await must(standin, "gm", "/damage", target="Brute 1", amount=str(amount))
            await settle(bot)
        assert fault.hits == 1, "asked once, then never again"
        assert tracker.deleted and pinned_tracker(standin, "combat").id != tracker.id  # one pinned, moved
        await assert_tracker_current(standin, bot.core.repo, "combat")
    assert errors.records == [], errors.describe()


async def test_an_unknown_webhook_does_not_leave_the_end_turn_button(database_url, errors):
    async with fight_going(database_url, seed=19) as (standin, bot):
        (old,) = [m for m in standin.messages("combat") if m.has_component(label="End turn")]
        refuse(standin, EDIT_BY_WEBHOOK, 404, 10015, "Unknown Webhook")
        await must(standin, "gm", "/initiative next")
        await settle(bot)
        assert not old.has_component(label="End turn")
        assert len([m for m in standin.messages("combat") if m.has_component(label="End turn")]) == 1
    assert errors.records == [], errors.describe()


async def test_an_unknown_webhook_does_not_leave_the_old_tracker_pinned(database_url, errors, monkeypatch):
    """The tracker moves to a fresher token: its old message goes first, by the bot when its
    own webhook is refused, rather than stay pinned beside its successor."""
    monkeypatch.setattr(delivery, "TOKEN_SECONDS", 3.0)
    async with running_standin(reliability_world()) as standin:
        standin.interaction_token_seconds = 3.0
        async with running_bot(standin, database_url, seed=20) as bot:
            await setup_campaign(standin)
            await setup_fight(standin)
            await settle(bot)
            first = pinned_tracker(standin, "combat")
            await asyncio.sleep(2.2)  # less than a third of its token left
            fault = refuse(standin, DELETE_BY_WEBHOOK, 404, 10015, "Unknown Webhook")
            await must(standin, "gm", "/damage", target="Brute 1", amount="3")
            await settle(bot)
            assert fault.hits == 1 and first.deleted
            assert pinned_tracker(standin, "combat").id != first.id
            await assert_tracker_current(standin, bot.core.repo, "combat")
        assert errors.records == [], errors.describe()


@pytest.mark.parametrize(("command", "work"), [("/encounter undo", "undo"), ("/initiative next", "act")])
async def test_a_webhook_refused_after_a_slow_commands_acknowledgement(
    database_url, errors, monkeypatch, command, work
):
    """Acknowledged privately, the answer goes out as followups; when the webhook is refused
    (404 10015), the answer, the turn ping and the tracker go out as the bot's own."""
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url, seed=21) as bot:
            await setup_campaign(standin)
            await setup_fight(standin)
            await must(standin, "gm", "/initiative next")
            await settle(bot)
            applied = getattr(bot.core, work)

            async def slowly(*args, **kwargs):
                await asyncio.sleep(0.2)
                return await applied(*args, **kwargs)

            monkeypatch.setattr(bot.core, work, slowly)
            monkeypatch.setattr(interact, "ANSWER_WITHIN_SECONDS", 0.05)  # so it is acknowledged first
            fault = refuse(standin, FOLLOWUP, 404, 10015, "Unknown Webhook", times=10)
            answer, turn = await refused_then_posted(standin, bot, "gm", command, 2)
            assert fault.hits >= 1
            assert answer.interaction is None and not answer.is_followup
            waiting = await waiting_for(bot, standin.channel("combat"))
            assert english(waiting.title) in turn.content and set(turn.pings.user_ids) == set(waiting.users)
            await assert_tracker_current(standin, bot.core.repo, "combat")
        assert errors.records == [], errors.describe()


# --- Discord refuses the bot in a running fight's channel: a warning, never a traceback ----------

BOT_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


@pytest.mark.parametrize(
    ("status", "code", "message"), [(403, 50001, "Missing Access"), (404, 10003, "Unknown Channel")]
)
async def test_a_tracker_discord_refuses_is_one_warning(database_url, errors, caplog, status, code, message):
    """The bot lost access to the channel (or it was deleted) while every token had run out: the change
    is saved, the refusal is logged as one line, not as a failure of the bot's with its traceback."""
    caplog.set_level(logging.WARNING)
    async with fight_going(database_url, seed=22) as (standin, bot):
        combat = standin.channel("combat")
        result = await bot.core.undo(combat.id, GM, 1)  # a change no interaction brought (a reminder's)
        for pattern in (BOT_EDIT, EDIT_BY_WEBHOOK, f"POST /channels/{combat.id}/messages"):
            refuse(standin, pattern, status, code, message, times=100)
        bot.trackers.schedule(bot.get_channel(combat.id), result)
        await settle(bot)
        warned = [r for r in caplog.records if r.name == "bot.delivery" and "tracker" in r.getMessage()]
        assert len(warned) == 1 and warned[0].exc_info is None and message in warned[0].getMessage()
        _, state = await bot.core.current(combat.id)
        assert state.round == result.state.round and state.turn_no == result.state.turn_no
    assert errors.records == [], errors.describe()


async def test_a_turn_message_discord_refuses_is_one_warning(database_url, errors, caplog):
    caplog.set_level(logging.WARNING)
    async with fight_going(database_url, seed=23) as (standin, bot):
        fault = refuse(standin, FOLLOWUP, 403, 50013, "Missing Permissions", times=100)
        answer = await say(standin, "gm", "/initiative next")
        await settle(bot)
        assert fault.hits >= 1 and not answer.ephemeral, "the turn moved on and the GM read it"
        warned = [r for r in caplog.records if r.name == "bot.interact" and "announce" in r.getMessage()]
        assert warned and all(r.exc_info is None for r in warned)
        assert english((await waiting_for(bot, standin.channel("combat"))).title) == "Brute 1's turn"
    assert errors.records == [], errors.describe()


async def test_an_answer_to_an_interaction_gone_is_a_warning(database_url, errors, caplog):
    """Discord dropped the interaction (404 10062) before a command that changes nothing answered it."""
    caplog.set_level(logging.WARNING)
    async with fight_going(database_url, seed=24) as (standin, bot):
        fault = dead_token(standin)
        await standin.invoke("gm", "/encounter status")
        await standin.wait_for(lambda: fault.hits >= 2 or None, 10, "the answer and the refusal tried")
        await settle(bot)
        warned = [r for r in caplog.records if r.name == "bot.interact" and "10062" in r.getMessage()]
        assert len(warned) == 1 and warned[0].exc_info is None
    assert errors.records == [], errors.describe()


async def test_an_answer_discord_forbids_tells_which_permissions_to_check(database_url, errors):
    async with fight_going(database_url, seed=25) as (standin, bot):
        fault = refuse(standin, CALLBACK, 403, 50013, "Missing Permissions")
        answer = await say(standin, "gm", "/encounter status")
        assert fault.hits == 1
        assert answer.ephemeral and "Embed Links" in answer.content and "Pin Messages" in answer.content
    assert errors.records == [], errors.describe()


# --- the GM learns at the start what the bot may not do in the channel -----------------------


async def started_with_warnings(standin, bot, channel: str = "combat") -> list[str]:
    """/encounter start by the GM in ``channel``: what it told the GM privately of the bot's permissions."""
    handle = await standin.invoke("gm", "/encounter start", in_channel=channel)
    assert not (await handle.response()).ephemeral
    await settle(bot)
    return [m.content for m in handle.messages if m.ephemeral and "The bot lacks" in m.content]


async def test_the_gm_is_told_privately_which_permissions_the_bot_lacks(database_url, errors):
    world = reliability_world()
    world.role(world.bot.name).permissions &= ~(PIN_MESSAGES | MANAGE_MESSAGES | EMBED_LINKS)
    world.guild().everyone_role.permissions &= ~EMBED_LINKS
    async with running_standin(world) as standin:
        async with running_bot(standin, database_url, seed=26) as bot:
            await setup_campaign(standin)
            (warning,) = await started_with_warnings(standin, bot)
            assert "Embed Links, Pin Messages" in warning and "Send Messages" not in warning
            assert "Creating the Discord application" in warning
        assert errors.records == [], errors.describe()


async def test_a_bot_with_what_the_invite_grants_warns_of_nothing(database_url, errors):
    world = reliability_world()
    duel = world.add_thread(world.channel("combat"), "duel")
    brawl = world.add_thread(world.channel("combat"), "brawl")
    async with running_standin(world) as standin:
        async with running_bot(standin, database_url, seed=27) as bot:
            await setup_campaign(standin)
            assert await started_with_warnings(standin, bot) == []
            assert await started_with_warnings(standin, bot, duel.name) == []
            # A thread takes Send Messages in Threads, not Send Messages.
            world.role(world.bot.name).permissions &= ~SEND_MESSAGES_IN_THREADS
            (warning,) = await started_with_warnings(standin, bot, brawl.name)
            assert "lacks Send Messages in Threads in this channel" in warning
        assert errors.records == [], errors.describe()
