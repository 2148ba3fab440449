"""Scale-out: two bot processes, shards 0 and 1 of 2, share one PostgreSQL database.

Each process is the unchanged bot (``tests.perf.launcher``: SHARD_COUNT=2 and its
own SHARD_IDS), talking to the stand-in in this test process. Every request it
makes carries its name (an ``X-Launcher`` header), so the stand-in can tell who
answered an interaction, who posted a message and which process owns a gateway session.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from bot.db import create_engine
from bot.standin import default_world
from bot.standin.snowflakes import shard_of
from bot.tables import encounter_table
from tests.perf.observed import ObservedStandIn
from tests.perf.processes import BotProcess

pytestmark = pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL", "").strip(),
    reason="two processes need one shared PostgreSQL: set TEST_DATABASE_URL (CI's second pass does)",
)

SHARDS = 2
POLL = 0.2  # seconds between reminder passes (the bot's default is 5)


def two_shard_world():
    """The sandbox guild, plus "Far Keep" placed on the other shard."""
    world = default_world()
    home = world.default_guild
    far = world.add_guild("Far Keep", owner="gm", shard=(1 - shard_of(home.id, SHARDS), SHARDS), channels=("combat",))
    world.add_member(far, "alice")
    return world, {shard_of(g.id, SHARDS): g for g in (home, far)}


@contextlib.asynccontextmanager
async def two_processes(database_url: str):
    world, guilds = two_shard_world()
    standin = ObservedStandIn(world)
    await standin.start()
    bots = [
        BotProcess(
            standin,
            env={
                "DATABASE_URL": database_url,
                "SHARD_COUNT": str(SHARDS),
                "SHARD_IDS": str(shard),
                "REMINDER_POLL_SECONDS": str(POLL),
            },
            name=f"shard-{shard}",
        )
        for shard in range(SHARDS)
    ]
    try:
        # Started together: both run the migrations at once, as a real deployment would.
        await asyncio.gather(*(bot.start() for bot in bots))
        await standin.wait_for_commands(global_=True)
        yield standin, guilds
    finally:
        await asyncio.gather(*(bot.stop() for bot in bots))
        await standin.stop()


async def command(standin: ObservedStandIn, guild, text: str, **options):
    channel = next(c for c in guild.channels.values() if c.name == "combat")
    handle = await standin.invoke("gm", text, options, in_channel=channel)
    answer = await handle.response(timeout=15)
    assert not answer.ephemeral, answer.content
    return handle


async def start_fight(standin: ObservedStandIn, guild) -> list:
    return [
        await command(standin, guild, "/campaign setup", system="rotted-capes"),
        await command(standin, guild, "/encounter start"),
        await command(standin, guild, "/initiative add", name="Brute", stats="stamina=30", roll=15),
        await command(standin, guild, "/initiative add", name="Thug", stats="stamina=30", roll=5),
        await command(standin, guild, "/initiative next"),
        await command(standin, guild, "/attack", target="Thug"),
    ]


async def make_reminders_due(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                sa.update(encounter_table)
                .where(encounter_table.c.status == "active")
                .values(reminder_due=datetime.now(UTC) - timedelta(seconds=1), reminders_sent=0)
            )
    finally:
        await engine.dispose()


def reminders(standin: ObservedStandIn, guild) -> list:
    return [
        m
        for channel in guild.channels.values()
        for m in standin.messages(channel, include_ephemeral=False)
        if "Still waiting" in m.content
    ]


async def test_each_server_is_served_by_exactly_one_process(database_url):
    async with two_processes(database_url) as (standin, guilds):
        sessions = standin.gateway.live_sessions()
        owners = {s.shard_id: standin.sender_of_session(s.session_id) for s in sessions}
        assert sorted(s.shard_id for s in sessions) == list(range(SHARDS))
        assert owners == {shard: f"shard-{shard}" for shard in range(SHARDS)}

        for shard, guild in guilds.items():
            handles = await start_fight(standin, guild)
            for handle in handles:
                assert handle.session.shard_id == shard
                answered_by = standin.senders_for(rf"^POST /interactions/{handle.id}/")
                assert answered_by == {f"shard-{shard}"}, handle.label
            posted_by = set().union(
                *(
                    standin.senders_for(rf"^(POST|PATCH|PUT) /channels/{channel.id}/")
                    for channel in guild.channels.values()
                )
            )
            assert posted_by == {f"shard-{shard}"}  # turn pings, the tracker and its pin


async def test_a_due_reminder_fires_once_from_the_process_serving_its_server(database_url):
    async with two_processes(database_url) as (standin, guilds):
        for guild in guilds.values():
            await start_fight(standin, guild)
        await make_reminders_due(database_url)

        for guild in guilds.values():
            await standin.wait_for(lambda g=guild: reminders(standin, g) or None, 15, f"a reminder in {guild.name}")
        await asyncio.sleep(5 * POLL)  # several more passes of both processes

        for shard, guild in guilds.items():
            sent = reminders(standin, guild)
            assert len(sent) == 1, [m.content for m in sent]
            channel_id = sent[0].channel_id
            assert standin.senders_for(rf"^POST /channels/{channel_id}/messages$") == {f"shard-{shard}"}
