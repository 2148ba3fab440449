"""Injected 429s, gateway disconnect + RESUME, and sharding across two clients."""

from __future__ import annotations

from bot.standin import running_client
from bot.standin.snowflakes import shard_of

from .probe_bot import ProbeBot


async def test_rate_limited_callback_is_retried_and_answered_once(standin, bot: ProbeBot) -> None:
    fault = standin.fail_next("POST /interactions/{interaction_id}/{token}/callback", retry_after=0.05)
    handle = await standin.invoke("alice", "/probe ping")
    msg = await handle.response()
    assert msg.content == "ok"
    assert fault.hits == 1
    assert len(handle.callbacks) == 1
    calls = [status for method, path, status in standin.requests if path.endswith("/callback")]
    assert calls == [429, 200]


async def test_rate_limited_channel_post_is_retried(standin, bot: ProbeBot) -> None:
    standin.fail_next("POST /channels/*/messages", times=2, retry_after=0.02)
    answer = await (await standin.invoke("gm", "/probe pin")).response()
    assert answer.content == "pinned 1"
    assert [m.content for m in standin.messages("combat") if not m.interaction] == ["Initiative: alice, bob"]
    posts = [s for m, p, s in standin.requests if m == "POST" and p.endswith("/messages")]
    assert posts == [429, 429, 200]


async def test_server_error_is_injected_once(standin, bot: ProbeBot) -> None:
    # discord.py waits 1 s before retrying a 5xx; one retry keeps this test short.
    standin.fail_next("GET /guilds/{guild_id}", status=502)
    msg = await (await standin.invoke("carol", "/probe info")).response(timeout=5)
    assert msg.content.startswith("combat|")
    assert ("GET", f"/guilds/{standin.world.default_guild.id}", 502) in standin.faults.fired


async def test_gateway_disconnect_then_resume(standin, bot: ProbeBot) -> None:
    (session,) = standin.gateway.live_sessions()
    await standin.disconnect_gateway()
    assert session.resumes == 1 and session.connected
    assert session.events[-1] == "RESUMED"
    assert standin.gateway.identify_count == 1  # resumed, not re-identified
    msg = await (await standin.invoke("alice", "/probe ping")).response()
    assert msg.content == "ok"


async def test_dispatches_missed_while_disconnected_are_replayed(standin, bot: ProbeBot) -> None:
    (session,) = standin.gateway.live_sessions()
    await standin.disconnect_gateway(wait_for_resume=False)
    await standin.wait_for(lambda: (not session.connected) or None, what="the socket to drop")
    handle = await standin.invoke("bob", "/probe ping")  # buffered in the session
    msg = await handle.response()
    assert msg.content == "ok"
    assert "INTERACTION_CREATE" in session.replayed
    assert session.resumes == 1


async def test_two_shards_each_get_only_their_guilds(standin) -> None:
    world = standin.world
    home = world.default_guild
    other_shard = 1 - shard_of(home.id, 2)
    far = world.add_guild("Far Keep", shard=(other_shard, 2), channels=("combat",))
    world.add_member(far, "dave")
    assert shard_of(far.id, 2) != shard_of(home.id, 2)

    def factory(shard_id):
        return lambda: ProbeBot([home.id, far.id], shard_id=shard_id, shard_count=2)

    async with running_client(standin, factory(0)) as bot0, running_client(standin, factory(1)) as bot1:
        by_shard = {0: bot0, 1: bot1}
        home_bot, far_bot = by_shard[shard_of(home.id, 2)], by_shard[other_shard]
        assert [g.id for g in home_bot.guilds] == [home.id]
        assert [g.id for g in far_bot.guilds] == [far.id]

        near = await (await standin.invoke("alice", "/probe ping")).response()
        remote = await (await standin.invoke("dave", "/probe ping", in_channel=world.channel("combat", far))).response()
        hello = await (await standin.invoke("dave", "/hello", in_channel=world.channel("combat", far))).response()
        assert near.content == remote.content == "ok"
        assert hello.content == f"hello from shard {other_shard}"
        assert home_bot.seen_interactions == [home.id]
        assert far_bot.seen_interactions == [far.id, far.id]
