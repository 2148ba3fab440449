"""Delivery within Discord's REST budget: turn pings ride on the interaction that
changed the turn, tracker edits are coalesced and never repeat what is shown, the
last state is always shown (also on shutdown), and an ended encounter's tracker
leaves the pins."""

import asyncio

import pytest

from bot.app import create_bot
from bot.config import Settings
from bot.standin.harness import running_client
from rules import registry
from tests import toy
from tests.e2e.conftest import say, turnkeeper

KEY = "rotted-capes"
EDITS = "PATCH"


@pytest.fixture(autouse=True)
def toy_system():
    system = type(
        "DeliveryToy",
        (toy.ToyBase,),
        {"key": KEY, "name": "Toy", "turns": toy.Initiative(), "encounter_type": toy.encounter_for(toy.Initiative())},
    )()
    registry.register(system)
    yield system
    registry.unregister(KEY)


async def setup_fight(standin):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "alice", "/character add", name="Silver Star", stats="init=2 hp=12")
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Silver Star", roll=15)
    await say(standin, "gm", "/initiative add", name="Zombie", count=2, stats="init=0 hp=30", dice="10 9")


def channel_requests(standin, since: int, method: str) -> list[str]:
    return [path for m, path, _ in standin.requests[since:] if m == method and path.startswith("/channels/")]


def tracker(standin):
    (pinned,) = [m for m in standin.messages() if m.pinned]
    return pinned.embeds[0]["description"]


def bot_with(standin, database_url, interval: float):
    settings = Settings(discord_token="standin.bot.token", database_url=database_url, tracker_interval_seconds=interval)
    return running_client(standin, lambda: create_bot(settings, guild_ready_timeout=0.05))


async def test_the_turn_ping_is_a_followup_of_the_command_that_changed_the_turn(standin, database_url):
    async with turnkeeper(standin, database_url) as bot:
        await setup_fight(standin)
        await bot.idle.wait()
        since = len(standin.requests)
        handle = await standin.invoke("gm", "/initiative next")
        await handle.response()
        turn = await handle.followup(0)
        assert "Silver Star" in turn.content and turn.has_component(label="End turn") and not turn.ephemeral
        assert set(turn.pings.user_ids) == {standin.world.user("alice").id}
        # The End turn button answers the same way.
        click = await standin.click("alice", "End turn", message=turn)
        await click.response()
        zombie = await click.followup(0)
        assert "Zombie 1" in zombie.content and set(zombie.pings.user_ids) == {standin.world.user("gm").id}
        await bot.idle.wait()
        assert channel_requests(standin, since, "POST") == [], "no channel message for a turn ping"


async def test_a_burst_costs_two_tracker_edits_and_shows_the_last_state(standin, database_url):
    async with bot_with(standin, database_url, interval=0.5) as bot:
        await setup_fight(standin)
        await say(standin, "gm", "/initiative next")
        await bot.idle.wait()
        since = len(standin.requests)
        for _ in range(6):
            await say(standin, "alice", "/attack", target="Zombie 1", damage="1")
        await bot.idle.wait()
        edits = channel_requests(standin, since, "PATCH")
        assert 1 <= len(edits) <= 2, edits
        assert "Zombie 1 — 24 hp" in tracker(standin)


async def test_nothing_unchanged_is_sent_again(standin, database_url):
    async with turnkeeper(standin, database_url) as bot:
        await setup_fight(standin)
        await say(standin, "gm", "/initiative next")
        await bot.idle.wait()
        since = len(standin.requests)
        await say(standin, "alice", "/attack", target="Zombie 1", damage="0")
        await say(standin, "alice", "/attack", target="Zombie 1", damage="0")
        await bot.idle.wait()
        assert channel_requests(standin, since, "PATCH") == []
        assert bot.trackers.skipped >= 1


async def test_a_pending_edit_is_sent_on_shutdown(standin, database_url):
    async with bot_with(standin, database_url, interval=30):
        await setup_fight(standin)
        await say(standin, "gm", "/initiative next")
        await asyncio.sleep(0.1)
        before = tracker(standin)
        await say(standin, "alice", "/attack", target="Zombie 1", damage="7")
        await asyncio.sleep(0.1)
        assert tracker(standin) == before, "the edit waits for its interval"
    assert tracker(standin) != before, "closing the bot sent the pending edit"


async def test_the_tracker_leaves_the_pins_when_its_encounter_ends(standin, database_url):
    async with turnkeeper(standin, database_url) as bot:
        await setup_fight(standin)
        await say(standin, "gm", "/initiative next")
        await bot.idle.wait()
        (pinned,) = [m for m in standin.messages() if m.pinned]
        await say(standin, "gm", "/encounter end")
        await (await standin.click("gm", "End the encounter")).response()
        await bot.idle.wait()
        assert not pinned.pinned and "ended" in pinned.embeds[0]["title"]
        # The next encounter pins its own tracker: one pin, not two.
        await say(standin, "gm", "/encounter start")
        await bot.idle.wait()
        assert len([m for m in standin.messages() if m.pinned]) == 1
