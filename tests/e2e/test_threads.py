"""Threads and forum posts as game channels: an encounter per thread, with its pings,
pinned tracker and reminders; an archived thread is reopened for a reminder, and one
the bot may not reopen gets the reminder in its parent channel, saying why."""

from datetime import timedelta

import pytest

from bot.standin import default_world
from bot.standin.harness import running_standin
from tests import toy
from tests.e2e.conftest import say, turnkeeper

KEY = "rotted-capes"


@pytest.fixture(autouse=True)
def toy_system():
    with toy.standing_in_for(KEY) as system:
        yield system


@pytest.fixture
async def places():
    world = default_world()
    guild = world.default_guild
    combat = world.channel("combat")
    duel = world.add_thread(combat, "duel")
    forum = world.add_forum(guild, "battles")
    siege = world.add_thread(forum, "The siege of Karth")
    async with running_standin(world) as standin:
        yield standin, {"combat": combat, "duel": duel, "siege": siege}


async def fight_in(standin, channel):
    await say(standin, "alice", "/character add", name=f"Hero {channel.name[:10]}", stats="init=2 hp=12")
    handle = await standin.invoke("gm", "/encounter start", in_channel=channel)
    assert not (await handle.response()).ephemeral
    for command, options in (
        ("/initiative join", {"character": f"Hero {channel.name[:10]}", "roll": 15}),
        ("/initiative add", {"name": "Ghoul", "stats": "init=0", "dice": "3"}),
    ):
        user = "alice" if command == "/initiative join" else "gm"
        answer = await (await standin.invoke(user, command, options, in_channel=channel)).response()
        assert not answer.ephemeral, answer.content
    return await standin.invoke("gm", "/initiative next", in_channel=channel)


@pytest.mark.parametrize("where", ["duel", "siege"])
async def test_an_encounter_runs_in_a_thread_and_a_forum_post(places, database_url, where):
    standin, channels = places
    thread = channels[where]
    async with turnkeeper(standin, database_url) as bot:
        await say(standin, "gm", "/campaign setup", system=KEY)
        next_turn = await fight_in(standin, thread)
        await next_turn.response()
        turn = await next_turn.followup(0)
        assert turn.channel_id == thread.id and set(turn.pings.user_ids) == {standin.world.user("alice").id}
        await bot.idle.wait()
        (tracker,) = [m for m in standin.messages(thread) if m.pinned]
        assert "Ghoul" in tracker.embeds[0]["description"]
        # The parent channel holds no encounter of its own: one per thread.
        refused = await (await standin.invoke("gm", "/initiative next", in_channel=channels["combat"])).response()
        assert refused.ephemeral
        # Ending it unpins the tracker in the thread.
        await (await standin.invoke("gm", "/encounter end", in_channel=thread)).response()
        await (await standin.click("gm", "End the encounter", in_channel=thread)).response()
        await bot.idle.wait()
        assert not tracker.pinned


async def remind_now(bot, thread):
    record = await bot.core.repo.active_encounter(thread.id)
    bot.core.now = lambda: record.reminder_due + timedelta(seconds=1)
    return await bot.reminders.tick()


@pytest.mark.parametrize("where", ["duel", "siege"])
async def test_a_reminder_reopens_an_archived_thread(places, database_url, where):
    standin, channels = places
    thread = channels[where]
    async with turnkeeper(standin, database_url) as bot:
        await say(standin, "gm", "/campaign setup", system=KEY)
        await (await fight_in(standin, thread)).response()
        await bot.idle.wait()
        standin.archive_thread(thread)  # nobody spoke for a day
        assert await remind_now(bot, thread) == 1
        reminder = standin.last_message(thread)
        assert "Still waiting" in reminder.content and set(reminder.pings.user_ids) == {standin.world.user("alice").id}
        assert not thread.archived


async def test_a_locked_thread_gets_its_reminder_in_the_parent_channel_saying_why(places, database_url):
    standin, channels = places
    thread = channels["duel"]
    async with turnkeeper(standin, database_url) as bot:
        await say(standin, "gm", "/campaign setup", system=KEY)
        await (await fight_in(standin, thread)).response()
        await bot.idle.wait()
        standin.archive_thread(thread, locked=True, bot_manages_threads=False)
        assert await remind_now(bot, thread) == 1
        reminder = standin.last_message(channels["combat"])
        assert "Still waiting" in reminder.content and thread.mention in reminder.content
        assert "may not reopen" in reminder.content
        assert set(reminder.pings.user_ids) == {standin.world.user("alice").id}
        assert thread.archived


async def test_a_thread_archived_unnoticed_is_still_reopened(places, database_url):
    standin, channels = places
    thread = channels["duel"]
    async with turnkeeper(standin, database_url) as bot:
        await say(standin, "gm", "/campaign setup", system=KEY)
        await (await fight_in(standin, thread)).response()
        await bot.idle.wait()
        thread.archived, thread.locked = True, True  # no THREAD_UPDATE reached the bot
        assert await remind_now(bot, thread) == 1
        assert "Still waiting" in standin.last_message(thread).content and not thread.archived
