"""The bot with its fight page on, against the Discord stand-in; the page read through aiohttp's test client."""

from __future__ import annotations

import contextlib
import json
import re
import socket

import pytest
import sqlalchemy as sa
from aiohttp.test_utils import TestClient, TestServer

from bot.app import create_bot
from bot.config import Settings
from bot.db import create_engine
from bot.repository import Repository
from bot.standin.harness import running_client
from bot.web.server import WebPage
from tests.e2e.conftest import say, serving

BASE = "https://fight.example.org"
LINK = re.compile(re.escape(BASE) + r"/f/([A-Za-z0-9_-]+)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.asynccontextmanager
async def turnkeeper_on_the_web(standin, database_url: str, port: int | None, base: str | None = BASE, **options):
    settings = Settings(
        discord_token="standin.bot.token", database_url=database_url, web_port=port, web_base_url=base, **options
    )
    async with running_client(standin, lambda: create_bot(settings, guild_ready_timeout=0.05)) as bot:
        yield bot


@pytest.fixture
async def standin():
    async with serving() as server:
        yield server


@pytest.fixture
async def bot(standin, migrated_database_url):
    async with turnkeeper_on_the_web(standin, migrated_database_url, free_port()) as client:
        yield client


@contextlib.asynccontextmanager
async def page_server(database_url: str, **options):
    """A page server with an engine of its own over the bot's database, as another process would run it;
    `written` lists every statement it sent that could change the database."""
    engine = create_engine(database_url)
    written: list[str] = []

    def watch(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP"):
            written.append(statement)

    sa.event.listen(engine.sync_engine, "before_cursor_execute", watch)
    repo = Repository(engine)
    page = WebPage(repo, **({"poll": 0.05} | options))
    client = TestClient(TestServer(page.app))
    await client.start_server()
    client.written = written  # type: ignore[attr-defined]
    client.page = page  # type: ignore[attr-defined]
    try:
        yield client
    finally:
        await client.close()
        await page.stop()
        repo.close()
        await engine.dispose()


@pytest.fixture
async def web(bot):
    async with page_server(bot.settings.database_url) as client:
        yield client


async def shared(standin, user="gm") -> str:
    """The token of the link /encounter share gives."""
    answer = await say(standin, user, "/encounter share")
    assert answer.ephemeral, answer.content
    found = LINK.search(answer.content)
    assert found, answer.content
    return found.group(1)


async def next_state(response) -> dict:
    """The next `state` event of an open event stream, as the fragments it carries."""
    while True:
        line = await response.content.readline()
        if not line:
            raise EOFError("the event stream ended")
        if line.startswith(b"data: "):
            return json.loads(line[len(b"data: ") :])
