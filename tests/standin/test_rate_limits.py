"""Discord's rate limits in the stand-in, and discord.py's own limiter obeying them."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from bot.standin import SANDBOX_GUILD, RateLimits, default_world, running_client, running_standin

from .probe_bot import ProbeBot

FAST = RateLimits(global_per_second=50, route_limit=5, route_window=1.0)


async def raw_post(http, channel_id: int, text: str):
    async with http.post(f"/api/v10/channels/{channel_id}/messages", json={"content": text}) as resp:
        return resp.status, dict(resp.headers), await resp.json()


@pytest.fixture
async def limited():
    async with running_standin(default_world(extra_channels=10), rate_limits=FAST) as standin:
        yield standin


@pytest.fixture
async def http(limited):
    headers = {"Authorization": f"Bot {limited.token}"}
    async with aiohttp.ClientSession(base_url=limited.base_url, headers=headers) as session:
        yield session


async def test_a_route_bucket_counts_down_in_headers_then_answers_429(limited, http) -> None:
    channel = limited.world.channel("combat")
    seen = []
    for i in range(5):
        status, headers, _ = await raw_post(http, channel.id, f"m{i}")
        assert status == 200
        seen.append(int(headers["X-RateLimit-Remaining"]))
        assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Bucket"]
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 1.0 and float(headers["X-RateLimit-Reset"]) > 0
    assert seen == [4, 3, 2, 1, 0]
    status, headers, body = await raw_post(http, channel.id, "one too many")
    assert status == 429 and body["global"] is False and 0 < body["retry_after"] <= 1.0
    assert headers["Retry-After"] == "1" and headers["X-RateLimit-Scope"] == "user"
    assert [m.content for m in limited.messages(channel)] == [f"m{i}" for i in range(5)]
    # Another channel is another bucket.
    status, _, _ = await raw_post(http, limited.world.channel("combat-2").id, "elsewhere")
    assert status == 200
    assert [(h.method, h.is_global) for h in limited.rate_limiter.hits] == [("POST", False)]


async def test_the_global_limit_spans_routes_but_not_interactions() -> None:
    limits = RateLimits(global_per_second=3, route_limit=None)
    async with running_standin(default_world(extra_channels=5), rate_limits=limits) as standin:
        guild_id = standin.world.guild(SANDBOX_GUILD).id
        async with running_client(standin, lambda: ProbeBot([guild_id])):
            await asyncio.sleep(1.05)  # start-up requests count too: begin a fresh second
            headers = {"Authorization": f"Bot {standin.token}"}
            async with aiohttp.ClientSession(base_url=standin.base_url, headers=headers) as http:
                channels = [standin.world.channel(f"combat-{i}") for i in range(4, 8)]
                statuses = [(await raw_post(http, c.id, "x"))[0] for c in channels]
                assert statuses == [200, 200, 200, 429]
                _, headers, body = await raw_post(http, channels[0].id, "again")
                assert body["global"] is True and headers["X-RateLimit-Global"] == "true"
                # The global limit is spent, yet commands are still answered.
                answers = [await (await standin.invoke("alice", "/probe ping")).response() for _ in range(5)]
                assert [a.content for a in answers] == ["ok"] * 5


async def test_discord_py_waits_out_a_bucket_instead_of_hitting_429(limited) -> None:
    guild_id = limited.world.guild(SANDBOX_GUILD).id
    async with running_client(limited, lambda: ProbeBot([guild_id])) as bot:
        channel = bot.get_channel(limited.world.channel("combat").id)
        loop = asyncio.get_running_loop()
        started = loop.time()
        await asyncio.gather(*(channel.send(f"burst {i}") for i in range(12)))
        elapsed = loop.time() - started
    assert sorted(m.content for m in limited.messages("combat")) == sorted(f"burst {i}" for i in range(12))
    assert limited.rate_limiter.hits == []
    assert elapsed >= 1.0  # 12 sends at 5 a second: the client waited for two windows to reset


async def test_discord_py_retries_after_a_global_429() -> None:
    limits = RateLimits(global_per_second=4, route_limit=None)
    async with running_standin(default_world(extra_channels=8), rate_limits=limits) as standin:
        guild_id = standin.world.guild(SANDBOX_GUILD).id
        async with running_client(standin, lambda: ProbeBot([guild_id])) as bot:
            channels = [bot.get_channel(standin.world.channel(f"combat-{i}").id) for i in range(4, 12)]
            sent = await asyncio.gather(*(c.send("hello") for c in channels))
    assert all(isinstance(m, discord.Message) for m in sent)
    assert {m.channel_id for m in standin.book.messages} >= {c.id for c in channels}
    assert all(h.is_global for h in standin.rate_limiter.hits)
