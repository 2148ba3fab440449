"""A whole small fight through real discord.py, with a toy system on every
turn structure: pings, the tracker, buttons, refusals, restarts."""

import asyncio
from datetime import timedelta

import pytest

from bot import interact
from bot.admission import Admission
from tests import toy
from tests.e2e.conftest import say, turnkeeper
from tests.helpers import ids

KEY = "rotted-capes"  # a real key so the command choices accept it; the toy stands in


@pytest.fixture(autouse=True)
def toy_system():
    with toy.standing_in_for(KEY) as system:
        yield system


async def setup_fight(standin):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "alice", "/character add", name="Silver Star", stats="init=2 hp=12")
    await say(standin, "bob", "/character add", name="Bulwark", stats="init=1")
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Silver Star", roll=15)
    await say(standin, "bob", "/initiative join", character="Bulwark", roll=3)
    await say(standin, "gm", "/initiative add", name="Zombie", count=2, stats="init=0", dice="10 9")


async def test_a_fight_pings_exactly_the_acting_player_and_keeps_one_pinned_tracker(standin, bot):
    who = ids(standin)
    await setup_fight(standin)
    start = await say(standin, "gm", "/initiative next")
    assert "Round 1" in start.content
    turn = await standin.wait_for(
        lambda: next((m for m in reversed(standin.messages()) if "turn" in m.content and m.components), None)
    )
    assert set(turn.pings.user_ids) == {who["alice"]} and not turn.pings.everyone, (turn.content, who)
    assert "Silver Star" in turn.content
    # Only Alice or the GM may end her turn; Bob's click is refused, ephemeral.
    refused = await (await standin.click("bob", "End turn", message=turn)).response()
    assert refused.ephemeral and "Only the acting" in refused.content
    await (await standin.click("alice", "End turn", message=turn)).response()
    zombie_turn = await standin.wait_for(
        lambda: next((m for m in reversed(standin.messages()) if "Zombie 1's turn" in m.content and m.components), None)
    )
    assert set(zombie_turn.pings.user_ids) == {who["gm"]}
    # The old button is now stale.
    stale = await (await standin.click("alice", "End turn", message=turn)).response()
    assert stale.ephemeral and "already over" in stale.content
    await bot.idle.wait()  # the tracker edit may wait out its interval
    pinned = [m for m in standin.messages() if m.pinned]
    assert len(pinned) == 1 and pinned[0].embeds and "Zombie 1" in pinned[0].embeds[0]["description"]
    assert standin.unknown_routes == []


async def test_refusals_are_ephemeral_and_change_nothing(standin, bot):
    await setup_fight(standin)
    await say(standin, "gm", "/initiative next")
    answer = await say(standin, "bob", "/attack", target="Silver Star")
    assert answer.ephemeral and "not your turn" in answer.content.lower()
    answer = await say(standin, "alice", "/initiative add", name="Dragon")
    assert answer.ephemeral and "Only the GM" in answer.content
    answer = await say(standin, "bob", "/encounter undo")
    assert answer.ephemeral
    answer = await say(standin, "alice", "/initiative join", character="Bulwark")
    assert answer.ephemeral and "another player" in answer.content


async def test_a_name_like_everyone_pings_nobody(standin, bot):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "gm", "/encounter start")
    answer = await say(standin, "gm", "/initiative add", name="@everyone <@&1>", roll=5)
    assert not answer.pings.everyone and not answer.pings.role_ids and not answer.pings.user_ids


async def test_undo_and_log_through_discord(standin, bot):
    await setup_fight(standin)
    await say(standin, "gm", "/initiative next")
    undo = await say(standin, "gm", "/encounter undo", count=2)
    assert "Undid 2 actions" in undo.content
    log = await say(standin, "gm", "/encounter log")
    (attachment,) = log.attachments
    assert attachment.filename.endswith(".md")
    text = attachment.data.decode()
    assert "~~/initiative next~~" in text and "/encounter undo" in text


async def test_a_restarted_bot_carries_on_the_encounter_and_its_button(standin, database_url):
    async with turnkeeper(standin, database_url):
        await setup_fight(standin)
        await say(standin, "gm", "/initiative next")
    turn = next(m for m in reversed(standin.messages()) if "Silver Star's turn" in m.content)
    async with turnkeeper(standin, database_url):
        clicked = await (await standin.click("alice", "End turn", message=turn)).response()
        assert not clicked.ephemeral
        nxt = await standin.wait_for(
            lambda: next((m for m in reversed(standin.messages()) if "Zombie 1's turn" in m.content), None)
        )
        assert nxt is not None
        pinned = [m for m in standin.messages() if m.pinned]
        assert len(pinned) == 1


async def test_a_due_reminder_fires_after_a_restart_and_pings_only_the_idle_player(standin, database_url):
    async with turnkeeper(standin, database_url):
        await setup_fight(standin)
        await say(standin, "gm", "/initiative next")
    async with turnkeeper(standin, database_url) as bot:
        record = await bot.core.repo.active_encounter(standin.channel("combat").id)
        assert record.reminder_due is not None
        bot.core.now = lambda: record.reminder_due + timedelta(seconds=1)
        assert await bot.reminders.tick() == 1
        reminder = standin.messages()[-1]
        assert "Still waiting" in reminder.content
        assert set(reminder.pings.user_ids) == {standin.world.user("alice").id}
        again = await bot.core.repo.active_encounter(record.channel_id)
        assert again.reminders_sent == 1 and again.reminder_due > record.reminder_due


async def test_autocomplete_offers_the_servers_characters_and_the_channels_combatants(standin, bot):
    await setup_fight(standin)
    mine = await (await standin.autocomplete("alice", "/initiative join", "character", character="")).choices()
    assert [c["value"] for c in mine] == ["Silver Star"]
    everyone = await (await standin.autocomplete("gm", "/character show", "name", name="bu")).choices()
    assert [c["value"] for c in everyone] == ["Bulwark"]
    targets = await (await standin.autocomplete("bob", "/attack", "target", target="zom")).choices()
    assert [c["value"] for c in targets] == ["Zombie 1", "Zombie 2"]
    elsewhere = await (
        await standin.autocomplete("bob", "/attack", "target", target="", in_channel="combat-2")
    ).choices()
    assert elsewhere == []


async def test_a_command_stuck_behind_others_is_acknowledged_in_time_and_refusals_stay_private(
    standin, bot, monkeypatch
):
    from bot import interact

    await setup_fight(standin)
    await say(standin, "gm", "/initiative next")
    monkeypatch.setattr(interact, "ANSWER_WITHIN_SECONDS", 0.05)
    act = bot.core.act

    async def slow_act(*args, **kwargs):
        await asyncio.sleep(0.3)  # as if queued behind a burst of commands in this channel
        return await act(*args, **kwargs)

    monkeypatch.setattr(bot.core, "act", slow_act)
    before = len(standin.messages())
    handle = await standin.invoke("alice", "/encounter note", text="the lights go out")
    assert await handle.acknowledged() == 5  # deferred, before the work is done
    answer = await handle.response()
    assert answer.ephemeral and "Done" in answer.content
    posted = await standin.wait_for(
        lambda: next((m for m in standin.messages()[before:] if "the lights go out" in m.content), None)
    )
    assert not posted.ephemeral and not posted.pings.user_ids

    refused = await say(standin, "bob", "/attack", target="Silver Star")
    assert refused.ephemeral and refused.content.startswith("⛔")
    assert not any("⛔" in m.content for m in standin.messages() if not m.ephemeral)
    await bot.idle.wait()


@pytest.mark.parametrize(
    ("command", "channel", "said"),
    [("/encounter undo", "combat", "Undid 1 action"), ("/encounter start", "combat-2", "encounter begins")],
)
async def test_undo_and_start_waiting_for_the_channel_are_acknowledged_in_time(
    standin, bot, monkeypatch, command, channel, said
):
    from bot import interact

    await setup_fight(standin)
    monkeypatch.setattr(interact, "ANSWER_WITHIN_SECONDS", 0.05)
    before = len(standin.messages(channel))
    async with bot.core.lock(standin.channel(channel).id):  # as if a burst of commands held the channel
        handle = await standin.invoke("gm", command, in_channel=channel)
        assert await handle.acknowledged() == 5  # deferred while it waits
    answer = await handle.response()
    assert answer.ephemeral and "Done" in answer.content, answer.content
    shown = lambda: standin.messages(channel)[before:]  # noqa: E731
    posted = await standin.wait_for(lambda: next((m for m in shown() if said in m.content), None))
    assert not posted.ephemeral
    await bot.idle.wait()


async def test_a_command_still_waiting_for_a_slot_is_acknowledged_in_time_then_carried_out(standin, bot, monkeypatch):
    await setup_fight(standin)
    monkeypatch.setattr(interact, "ANSWER_WITHIN_SECONDS", 0.05)
    monkeypatch.setattr(bot, "admission", Admission(at_once=1, patience=5.0))
    before = len(standin.messages("combat"))
    async with bot.admission.slot():  # as if the bot were working on as many commands as it takes at once
        handle = await standin.invoke("gm", "/initiative next")
        assert await handle.acknowledged() == 5  # deferred while it waits in line
    answer = await handle.response()
    assert answer.ephemeral and "Done" in answer.content, answer.content
    shown = lambda: standin.messages("combat")[before:]  # noqa: E731
    posted = await standin.wait_for(lambda: next((m for m in shown() if "**Round 1**" in m.content), None))
    assert not posted.ephemeral
    await bot.idle.wait()
