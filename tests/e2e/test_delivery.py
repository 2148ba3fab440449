"""Delivery within Discord's REST budget: turn pings and the tracker ride on the
interaction that changed them (its webhook, while its token lasts), tracker edits are
coalesced and never repeat what is shown, the last state is always shown (also on
shutdown and after the token ran out), an old turn message loses its End-turn button,
and an ended encounter's tracker leaves the pins."""

import asyncio

import pytest

from bot import delivery
from bot.app import create_bot
from bot.config import Settings
from bot.standin.harness import running_client
from tests import toy
from tests.e2e.conftest import say, turnkeeper
from tests.helpers import GM

KEY = "rotted-capes"
EDITS = "PATCH"


@pytest.fixture(autouse=True)
def toy_system():
    with toy.standing_in_for(KEY) as system:
        yield system


async def setup_fight(standin):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "alice", "/character add", name="Silver Star", stats="init=2 hp=12")
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Silver Star", roll=15)
    await say(standin, "gm", "/initiative add", name="Zombie", count=2, stats="init=0 hp=30", dice="10 9")


def channel_requests(standin, since: int, method: str) -> list[str]:
    return [path for m, path, _ in standin.requests[since:] if m == method and path.startswith("/channels/")]


def bot_requests(standin, since: int) -> list[str]:
    """Requests that count against the bot's global limit (not the interactions' own)."""
    return [
        f"{m} {path}"
        for m, path, _ in standin.requests[since:]
        if not path.startswith(("/interactions/", "/webhooks/"))
    ]


def tracker_edits(standin, since: int) -> list[str]:
    (pinned,) = [m for m in standin.messages() if m.pinned]
    return [path for m, path, _ in standin.requests[since:] if m == "PATCH" and path.endswith(f"/{pinned.id}")]


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
        edits = tracker_edits(standin, since)
        assert 1 <= len(edits) <= 2, edits
        assert "Zombie 1 — 24 hp" in tracker(standin)
        assert bot_requests(standin, since) == [], "the edits went through the interactions' webhooks"


async def test_nothing_unchanged_is_sent_again(standin, database_url):
    async with turnkeeper(standin, database_url) as bot:
        await setup_fight(standin)
        await say(standin, "gm", "/initiative next")
        await bot.idle.wait()
        since = len(standin.requests)
        await say(standin, "alice", "/attack", target="Zombie 1", damage="0")
        await say(standin, "alice", "/attack", target="Zombie 1", damage="0")
        await bot.idle.wait()
        assert tracker_edits(standin, since) == []
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


async def test_a_fight_costs_the_bot_one_pin_while_the_tokens_last(standin, database_url):
    async with turnkeeper(standin, database_url) as bot:
        since = len(standin.requests)
        await setup_fight(standin)
        await say(standin, "gm", "/initiative next")
        await say(standin, "alice", "/attack", target="Zombie 1", damage="5")
        for _ in range(2):
            await bot.idle.wait()
            await say(standin, "gm", "/initiative next")
        await bot.idle.wait()
        fight = [r for r in bot_requests(standin, since) if "/applications/" not in r]  # not the command-set sync
        assert [r.split("/")[-3:-1] for r in fight] == [["messages", "pins"]]
        (pinned,) = [m for m in standin.messages() if m.pinned]
        assert "Zombie 1 — 25 hp" in pinned.embeds[0]["description"] and not pinned.ephemeral


def short_tokens(monkeypatch, standin, seconds: float) -> None:
    """Interaction tokens that last `seconds`, for Discord and for the bot alike."""
    monkeypatch.setattr(delivery, "TOKEN_SECONDS", seconds)
    standin.interaction_token_seconds = seconds


async def fight_begun(standin, bot) -> None:
    await setup_fight(standin)
    await say(standin, "gm", "/initiative next")
    await bot.idle.wait()


async def test_before_its_token_runs_out_the_tracker_moves_to_a_fresh_one(standin, database_url, monkeypatch):
    short_tokens(monkeypatch, standin, 3.0)
    async with turnkeeper(standin, database_url) as bot:
        await fight_begun(standin, bot)
        (first,) = [m for m in standin.messages() if m.pinned]
        await asyncio.sleep(2.2)  # less than a third of its token left
        since = len(standin.requests)
        await say(standin, "alice", "/attack", target="Zombie 1", damage="4")
        await bot.idle.wait()
        (second,) = [m for m in standin.messages() if m.pinned]
        assert second.id != first.id and first.deleted, "the old tracker is gone, not left stale"
        assert "Zombie 1 — 26 hp" in second.embeds[0]["description"]
        assert [r.split("/")[-3:-1] for r in bot_requests(standin, since)] == [["messages", "pins"]]


async def test_with_every_token_run_out_the_bot_edits_the_tracker_itself(standin, database_url, monkeypatch):
    short_tokens(monkeypatch, standin, 1.5)
    async with turnkeeper(standin, database_url) as bot:
        await fight_begun(standin, bot)
        await asyncio.sleep(1.6)
        # A change without an interaction behind it (as from a reminder or a timed-out choice).
        result = await bot.core.undo(standin.channel("combat").id, GM, 1)
        since = len(standin.requests)
        delivery_channel = bot.get_channel(standin.channel("combat").id)
        bot.trackers.schedule(delivery_channel, result)
        await bot.idle.wait()
        assert [r.split(" ")[0] for r in bot_requests(standin, since)] == ["PATCH"]
        assert standin.rejected == [], "no request with a token that ran out"


async def test_an_old_turn_message_loses_its_end_turn_button(standin, database_url):
    async with turnkeeper(standin, database_url) as bot:
        await setup_fight(standin)
        handle = await standin.invoke("gm", "/initiative next")
        await handle.response()
        first = await handle.followup(0)
        assert first.has_component(label="End turn")
        click = await standin.click("alice", "End turn", message=first)
        await click.response()
        second = await click.followup(0)
        await bot.idle.wait()
        assert not first.has_component(label="End turn") and second.has_component(label="End turn")
        await say(standin, "gm", "/encounter end")
        await (await standin.click("gm", "End the encounter")).response()
        await bot.idle.wait()
        assert not second.has_component(label="End turn"), "an ended fight leaves no End-turn button"


async def test_an_edits_time_is_kept_only_for_its_interval(standin, database_url):
    async with bot_with(standin, database_url, interval=0.2) as bot:
        await setup_fight(standin)
        await say(standin, "gm", "/initiative next")
        await say(standin, "alice", "/attack", target="Zombie 1", damage="1")
        await bot.idle.wait()
        assert bot.trackers.remembered == 1, "the next edit within the interval waits for it"
        await asyncio.sleep(0.3)
        assert bot.trackers.remembered == 0, "nothing kept per encounter once its interval is over"
        edits = len(tracker_edits(standin, 0))
        await say(standin, "alice", "/attack", target="Zombie 1", damage="1")
        await bot.idle.wait()
        assert len(tracker_edits(standin, 0)) == edits + 1 and "Zombie 1 — 28 hp" in tracker(standin)
