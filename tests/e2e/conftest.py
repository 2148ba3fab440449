"""The real bot against the local Discord stand-in, in the test's event loop."""

from __future__ import annotations

import contextlib

import pytest

from bot.app import create_bot
from bot.config import Settings
from bot.standin.harness import running_client, running_standin
from bot.standin.world import default_world


@contextlib.asynccontextmanager
async def turnkeeper(standin, database_url: str):
    settings = Settings(discord_token="standin.bot.token", database_url=database_url)

    def factory():
        bot = create_bot(settings, guild_ready_timeout=0.05)
        return bot

    async with running_client(standin, factory) as bot:
        yield bot


@contextlib.asynccontextmanager
async def serving(world=None):
    """A stand-in (of `world`, the sandbox's by default) that the bot must use only
    through routes Discord has (and the stand-in knows)."""
    async with running_standin(world) as server:
        yield server
        assert server.unknown_routes == [], f"the bot used unknown routes: {server.unknown_routes}"


def with_far_keep():
    """The sandbox's world plus a second server, Far Keep, whose owner is carol; alice plays in both."""
    world = default_world()
    far = world.add_guild("Far Keep", owner="carol", channels=("far-hall",))
    world.add_member(far, "alice")
    return world


@pytest.fixture
async def standin():
    async with serving() as server:
        yield server


@pytest.fixture
async def bot(standin, migrated_database_url):
    async with turnkeeper(standin, migrated_database_url) as client:
        yield client


async def say(standin, user, command, **options):
    """Run a command and return the bot's visible answer."""
    handle = await standin.invoke(user, command, **options)
    return await handle.response()


async def begin_fight(standin, system, heroes=(), npcs=(), *, settings=None):
    """The usual opening: `system`'s campaign (with `settings`), each hero stored and joined, each NPC added,
    round 1 begun. A hero is (player, name, stats, how it joins: `{"roll": 14}`, `{"cards": "KH 4C"}`), an NPC
    (name, stats, how its initiative is entered). No step may be refused."""
    steps = [("gm", "/campaign setup", {"system": system} | ({"settings": settings} if settings else {}))]
    steps += [(player, "/character add", {"name": name, "stats": stats}) for player, name, stats, _ in heroes]
    steps.append(("gm", "/encounter start", {}))
    steps += [(player, "/initiative join", {"character": name} | entered) for player, name, _, entered in heroes]
    steps += [("gm", "/initiative add", {"name": name, "stats": stats} | entered) for name, stats, entered in npcs]
    steps.append(("gm", "/initiative next", {}))
    for user, command, options in steps:
        answer = await say(standin, user, command, **options)
        assert not answer.ephemeral, f"{command}: {answer.content}"


async def help_sections(standin, user, **options):
    """/help and every section of its select menu: (answer, the whole help as one text)."""
    answer = await say(standin, user, "/help", **options)
    (embed,) = answer.embeds
    texts = [embed["description"]]
    select = [c for row in answer.components for c in row.get("components", []) if c.get("type") == 3]
    if select:
        for option in select[0]["options"][1:]:
            shown = await (
                await standin.select(user, [option["value"]], custom_id=select[0]["custom_id"], message=answer)
            ).response()
            texts.append(shown.embeds[0]["description"])
    return answer, "\n".join(texts)
