"""A real browser opens a fight's page; a command changes the fight and the page follows within a second.
Screenshots of the page and the overlay go to tests/output/ (tests/web/screenshots/ keeps a copy for the README)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bot.web.server import STREAM_BURST, STREAM_RATE, RateLimit
from tests.e2e.conftest import say
from tests.web.cdp import CHROMIUM, chromium
from tests.web.conftest import free_port, shared
from tests.web.test_page import setup_fight

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (apt-get install chromium)"),
]

OUTPUT = Path(__file__).resolve().parents[1] / "output"
NOW = "document.getElementById('now').textContent"


@pytest.fixture(autouse=True, scope="module")
def output_ignored():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / ".gitignore").write_text("*\n")  # what the tests leave here is not the project's


async def test_the_page_in_a_browser_follows_the_fight_within_a_second(standin, bot):
    await setup_fight(standin)
    await say(standin, "gm", "/initiative add", name="Goblin Archer", stats="stamina=12", roll=9)
    token = await shared(standin)
    url = f"http://127.0.0.1:{bot.settings.web_port}/f/{token}"
    async with chromium() as tab:
        await tab.open(url, f"{NOW}.includes('Tank') && document.documentElement.dataset.version")
        assert await tab.evaluate("document.documentElement.lang") == "en-US"
        await tab.screenshot(OUTPUT / "page.png", width=900, height=700)

        started = time.monotonic()
        await say(standin, "gm", "/initiative next")
        shown = await tab.until(f"{NOW}.includes('Goblin Archer') && {NOW}", timeout=1.0)
        assert "Acting now: Goblin Archer" in shown and time.monotonic() - started < 1.0
        order = json.loads(
            await tab.evaluate(
                "JSON.stringify([...document.querySelectorAll('#order > li')].map(li => "
                "[li.getAttribute('aria-current'), li.querySelector('.name').textContent]))"
            )
        )
        assert ["true", "Goblin Archer"] in order

        await tab.open(url + "?overlay", f"{NOW}.includes('Goblin Archer')")
        background = await tab.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background in ("rgba(0, 0, 0, 0)", "transparent")
        await tab.screenshot(OUTPUT / "overlay.png", width=480, height=320, transparent=True)
    assert (OUTPUT / "page.png").stat().st_size > 1000 and (OUTPUT / "overlay.png").stat().st_size > 1000


async def test_a_phone_reads_the_longest_name_and_note_without_scrolling_sideways(standin, bot):
    await setup_fight(standin)
    long = "W" * 60  # the longest name, with no space to wrap at
    await say(standin, "gm", "/initiative add", name=long, stats="stamina=12", roll=9)
    await say(standin, "gm", "/encounter note", text="Z" * 500)
    token = await shared(standin)
    async with chromium() as tab:
        await tab.send("Emulation.setDeviceMetricsOverride", width=360, height=640, deviceScaleFactor=1, mobile=False)
        loaded = f"document.readyState === 'complete' && document.body.textContent.includes('{long}')"
        await tab.open(f"http://127.0.0.1:{bot.settings.web_port}/f/{token}", loaded)
        widths = await tab.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], widths


async def test_a_page_whose_stream_was_refused_on_reconnecting_loads_again_and_follows_the_fight(standin, bot):
    await setup_fight(standin)
    token = await shared(standin)
    page = bot.web_page
    async with chromium() as tab:
        await tab.open(
            f"http://127.0.0.1:{bot.settings.web_port}/f/{token}", "document.documentElement.dataset.version"
        )
        # The server went away and came back to more pages than it lets in at once: this one is refused.
        page.stream_limit = RateLimit(0, 0)
        for watch in page.watches.values():
            watch.publish(None)
        await asyncio.sleep(2)  # it reconnected (after a second), was refused, and gave up listening
        page.stream_limit = RateLimit(STREAM_BURST, STREAM_RATE)
        await say(standin, "gm", "/initiative next")
        assert "Shade" in await tab.until(f"{NOW}.includes('Shade') && {NOW}", timeout=10.0)


@contextlib.asynccontextmanager
async def reverse_proxy(port: int):
    """A reverse proxy in front of the bot's page, as the README sets one up; `down[0] = True` makes it answer
    502 Bad Gateway, as Caddy or nginx do while the bot restarts."""
    down = [False]

    async def forward(request: web.Request) -> web.StreamResponse:
        if down[0]:
            return web.Response(status=502, text="<html><body>502 Bad Gateway</body></html>", content_type="text/html")
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}{request.path_qs}") as upstream,
        ):
            response = web.StreamResponse(status=upstream.status, headers={"Content-Type": upstream.content_type})
            await response.prepare(request)
            async for chunk in upstream.content.iter_any():
                await response.write(chunk)
            return response

    app = web.Application()
    app.router.add_get("/{path:.*}", forward)
    runner = web.AppRunner(app, shutdown_timeout=0.5)
    await runner.setup()
    proxy = free_port()
    await web.TCPSite(runner, "127.0.0.1", proxy).start()
    try:
        yield proxy, down
    finally:
        await runner.cleanup()


async def test_a_page_behind_a_proxy_that_answered_bad_gateway_while_the_bot_restarted_follows_the_fight_again(
    standin, bot
):
    await setup_fight(standin)
    token = await shared(standin)
    page = bot.web_page
    async with reverse_proxy(bot.settings.web_port) as (port, down), chromium() as tab:
        await tab.open(f"http://127.0.0.1:{port}/f/{token}", "document.documentElement.dataset.version")
        down[0] = True  # the bot restarts: its streams end and the proxy answers 502 meanwhile
        for watch in page.watches.values():
            watch.publish(None)
        await asyncio.sleep(8)  # the stream was refused (after a second), and the page asked again (5 s later)
        down[0] = False
        await say(standin, "gm", "/initiative next")
        assert "Shade" in await tab.until(f"{NOW}.includes('Shade') && {NOW}", timeout=12.0)


async def test_the_page_in_a_browser_shows_the_choice_the_fight_waits_on_until_it_is_answered(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Shade", stats="stamina=937", roll=5, hidden=True)
    await say(standin, "gm", "/initiative add", name="Goblin", stats="stamina=10", roll=3)
    await say(standin, "gm", "/initiative next")
    await say(standin, "gm", "/act", action="demanding", options='what="Dark Rite" interruptible')
    token = await shared(standin)
    waiting = "document.getElementById('waiting')"
    shown = f"getComputedStyle({waiting}).display !== 'none' && {waiting}.innerText"
    async with chromium() as tab:
        await tab.open(
            f"http://127.0.0.1:{bot.settings.web_port}/f/{token}", "document.documentElement.dataset.version"
        )
        assert await tab.evaluate(f"getComputedStyle({waiting}).display") == "none"
        await say(standin, "gm", "/damage", target="Shade", amount="86")
        said = await tab.until(shown, timeout=2.0)
        assert "Waiting for a choice" in said and "Shade: Constitution save DC ? to keep Dark Rite going." in said
        await (await standin.click("gm", "Roll the Constitution save")).response()
        assert await tab.until(f"getComputedStyle({waiting}).display === 'none'", timeout=2.0)
