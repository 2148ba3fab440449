"""/encounter share end to end: the GM's private link, refusals, revoking, and the page it opens."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
import sqlalchemy as sa

from bot.web.shares import share_table
from tests import toy
from tests.e2e.conftest import say
from tests.web.conftest import BASE, next_state, page_server, shared, turnkeeper_on_the_web

KEY = "rotted-capes"  # a real key so the command choices accept it; the toy stands in


@pytest.fixture(autouse=True)
def toy_system():
    with toy.standing_in_for(KEY) as system:
        yield system


async def fight(standin, *names):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "gm", "/encounter start")
    for name in names:
        await say(standin, "gm", "/initiative add", name=name, roll=10)
    await say(standin, "gm", "/initiative next")


async def test_the_gm_gets_a_private_link_with_a_long_token_that_opens_the_fight(standin, bot, web):
    await fight(standin, "Goblin")
    answer = await say(standin, "gm", "/encounter share")
    assert answer.ephemeral and f"{BASE}/f/" in answer.content and "?overlay" in answer.content
    token = await shared(standin)
    assert len(token) >= 43  # token_urlsafe(32): 256 bits
    assert f"/f/{token}" in answer.content  # asked again, the same link
    page = await web.get(f"/f/{token}")
    assert page.status == 200 and "Goblin" in await page.text()
    # Nothing the channel saw: the link went to the GM alone.
    assert all(token not in m.content for m in standin.messages() if not m.ephemeral)


async def test_refusals_are_private_and_say_why(standin, bot):
    await say(standin, "gm", "/campaign setup", system=KEY)
    none = await say(standin, "gm", "/encounter share")
    assert none.ephemeral and none.content.startswith("⛔") and "no encounter" in none.content
    await fight(standin, "Goblin")
    player = await say(standin, "alice", "/encounter share")
    assert player.ephemeral and player.content.startswith("⛔") and "Only the GM" in player.content
    assert "/f/" not in player.content


async def test_a_bot_without_web_port_says_the_page_is_off(standin, migrated_database_url):
    async with turnkeeper_on_the_web(standin, migrated_database_url, None) as bot:
        assert bot.web_page is None
        await fight(standin, "Goblin")
        off = await say(standin, "gm", "/encounter share")
        assert off.ephemeral and off.content.startswith("⛔") and "WEB_PORT" in off.content


async def test_a_shard_process_that_serves_no_page_shares_the_one_another_process_serves(
    standin, migrated_database_url
):
    # README: with shard processes, the page may be served by one of them; every process makes the links.
    async with turnkeeper_on_the_web(standin, migrated_database_url, None, shard_count=1, shard_ids=[0]) as bot:
        assert bot.web_page is None
        await fight(standin, "Goblin")
        token = await shared(standin)
        assert await shared(standin) == token
        async with page_server(migrated_database_url) as web:
            page = await web.get(f"/f/{token}")
            assert page.status == 200 and "Goblin" in await page.text()
            revoked = await say(standin, "gm", "/encounter share", revoke=True)
            assert revoked.ephemeral and revoked.content.startswith("🔒")
            assert (await web.get(f"/f/{token}")).status == 404


async def test_revoke_kills_the_link_and_a_new_share_makes_another(standin, bot, web):
    await fight(standin, "Goblin")
    token = await shared(standin)
    refused = await say(standin, "alice", "/encounter share", revoke=True)
    assert refused.content.startswith("⛔")
    assert (await web.get(f"/f/{token}")).status == 200
    revoked = await say(standin, "gm", "/encounter share", revoke=True)
    assert revoked.ephemeral and "no longer work" in revoked.content
    assert (await web.get(f"/f/{token}")).status == 404
    assert (await web.get(f"/f/{token}/events")).status == 404
    again = await shared(standin)
    assert again != token and (await web.get(f"/f/{again}")).status == 200


async def test_revoking_ends_the_pages_already_open_and_they_see_no_later_change(standin, bot, web):
    await fight(standin, "Goblin", "Orc")
    token = await shared(standin)
    stream = await web.get(f"/f/{token}/events")
    await next_state(stream)
    await say(standin, "gm", "/encounter share", revoke=True)
    last = await asyncio.wait_for(next_state(stream), 2)
    assert "revoked" in last["said"]
    assert (await asyncio.wait_for(stream.content.read(), 2)).strip() == b""  # the stream is over
    await say(standin, "gm", "/encounter note", text="the secret plan")
    assert web.page.streams == 0 and web.page.watches == {}


async def test_the_bot_serves_the_page_on_its_port(standin, bot):
    await fight(standin, "Goblin")
    token = await shared(standin)
    port = bot.settings.web_port
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/f/{token}") as page:
        assert page.status == 200 and "Goblin" in await page.text()


async def test_the_link_is_stored_for_every_process(standin, bot):
    await fight(standin, "Goblin")
    token = await shared(standin)
    async with bot.engine.connect() as conn:
        rows = (await conn.execute(sa.select(share_table.c.token))).scalars().all()
    assert rows == [token]


async def test_a_page_closed_on_the_bots_port_stops_counting_at_once(standin, bot):
    # A TV reloading the page, a phone put away: its stream is no longer one of the visitor's open pages, and
    # the fight's poller stops with the last one (not at the next write, up to 15 seconds later).
    await fight(standin, "Goblin")
    token = await shared(standin)
    page = bot.web_page
    async with aiohttp.ClientSession() as session:
        stream = await session.get(f"http://127.0.0.1:{bot.settings.web_port}/f/{token}/events")
        await next_state(stream)
        await asyncio.wait_for(next_state(stream), 2)  # the poller's first look: nothing changes after it
        assert page.streams == 1
        stream.close()
    for _ in range(20):
        if page.streams == 0:
            break
        await asyncio.sleep(0.05)
    assert page.streams == 0 and page.streams_of == {} and page.watches == {}
