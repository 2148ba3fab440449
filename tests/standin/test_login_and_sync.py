"""Login, READY/GUILD_CREATE and command sync against the stand-in."""

from __future__ import annotations

import discord
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.standin import SANDBOX_GUILD, patched_endpoints

from .probe_bot import ProbeBot


async def test_bot_logs_in_and_sees_the_sandbox_guild(standin, bot: ProbeBot) -> None:
    assert bot.is_ready()
    assert bot.user.id == standin.world.bot.id
    assert bot.application_id == standin.world.application_id
    (guild,) = bot.guilds
    assert guild.name == SANDBOX_GUILD
    assert {c.name for c in guild.text_channels} >= {"combat", "combat-2", "combat-3"}
    assert {r.name for r in guild.roles} >= {"@everyone", "GM"}
    names = {m.name for m in guild.members}
    assert names >= {"gm", "alice", "bob", "carol", standin.world.bot.name}
    assert [r.name for r in guild.get_member(standin.world.user("gm").id).roles if not r.is_default()] == ["GM"]
    assert standin.unknown_routes == []
    assert standin.rejected == []


async def test_sync_stores_full_schemas(standin, bot: ProbeBot) -> None:
    guild = standin.world.guild(SANDBOX_GUILD)
    (hello,) = standin.commands.list(None)
    assert hello["name"] == "hello"
    (probe,) = standin.commands.list(guild.id)
    subs = {o["name"]: o for o in probe["options"]}
    assert subs["ping"]["type"] == 1
    assert subs["gm"]["type"] == 2
    roll = next(o for o in subs["gm"]["options"] if o["name"] == "roll")
    types = {o["name"]: (o["type"], o.get("required", False)) for o in roll["options"]}
    assert types == {"dice": (4, True), "bonus": (10, False), "secret": (5, False), "target": (6, False)}
    monster = {o["name"]: o for o in subs["monster"]["options"]}
    assert monster["name"]["autocomplete"] is True
    assert (monster["count"]["min_value"], monster["count"]["max_value"]) == (1, 20)
    assert [c["value"] for c in subs["side"]["options"][0]["choices"]] == ["heroes", "monsters"]
    assert "/probe gm roll" in standin.commands.all_paths(guild.id)


async def test_fetch_commands_round_trips_ids(standin, bot: ProbeBot) -> None:
    guild = standin.world.guild(SANDBOX_GUILD)
    fetched = await bot.tree.fetch_commands(guild=discord.Object(guild.id))
    assert [c.name for c in fetched] == ["probe"]
    assert fetched[0].id == int(standin.commands.list(guild.id)[0]["id"])


async def test_patched_endpoints_restore_originals(standin) -> None:
    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    with patched_endpoints(standin):
        assert Route.BASE == standin.api_base
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == standin.gateway_url
    assert (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY) == before


async def test_wrong_token_is_refused(standin) -> None:
    client = discord.Client(intents=discord.Intents.none())
    with patched_endpoints(standin):
        try:
            await client.login("not-the-token")
        except discord.LoginFailure:
            pass
        else:  # pragma: no cover - the assertion documents the expectation
            raise AssertionError("login with a wrong token should fail")
        finally:
            await client.close()
