"""Database fixtures.

``database_url`` is a fresh SQLite file per test, or, when TEST_DATABASE_URL is set
(``postgresql+asyncpg://user[:password]@host:port/anydb``), a fresh PostgreSQL
database per test, created through the server's ``postgres`` database and dropped
afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import create_engine, upgrade_schema
from bot.repository import Repository
from bot.standin.contract import check_requests_with
from tests.contract.spec import discord_contract
from tests.helpers import pg_admin

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
# Bots in tests edit trackers at once instead of once a second (bot.delivery), so a test
# waiting for bot.idle waits for Discord's answers, not for the interval; tests of the
# interval itself set it explicitly. Bot processes started by tests inherit it.
os.environ.setdefault("TRACKER_INTERVAL_SECONDS", "0.02")
# Every stand-in a test makes holds the bot's requests to Discord's API description (see discord_api_contract).
check_requests_with(discord_contract)


def _backend() -> str:
    return make_url(TEST_DATABASE_URL).get_backend_name() if TEST_DATABASE_URL else "sqlite"


@pytest.fixture
def db_backend() -> str:
    """'sqlite' or 'postgresql': which backend this run's databases use."""
    return _backend()


@pytest.fixture
async def database_url(tmp_path: Path) -> AsyncIterator[str]:
    if not TEST_DATABASE_URL:
        yield f"sqlite+aiosqlite:///{tmp_path / 'turnkeeper.db'}"
        return
    if _backend() != "postgresql":
        raise pytest.UsageError(f"TEST_DATABASE_URL must be a PostgreSQL URL: {TEST_DATABASE_URL}")
    name = f"tk_test_{uuid.uuid4().hex[:16]}"
    admin = await pg_admin(TEST_DATABASE_URL)
    try:
        # Plain CREATE DATABASE (template1, WAL_LOG strategy on 15+) measured fastest: ~15 ms.
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield make_url(TEST_DATABASE_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await upgrade_schema(eng)
    try:
        yield eng
    finally:
        await eng.dispose()


@pytest.fixture
def repo(engine: AsyncEngine) -> Repository:
    return Repository(engine)


@pytest.fixture(autouse=True)
def discord_api_contract(request):
    """Every REST request a stand-in saw during the test must be one Discord's API description allows
    (tests that send bad requests on purpose are marked ``outside_contract``)."""
    from bot.standin.server import StandIn

    if request.node.get_closest_marker("outside_contract"):
        yield
        return

    before = set(map(id, StandIn.instances))
    yield
    used = [s for s in list(StandIn.instances) if id(s) not in before]
    violations = [str(v) for s in used for v in s.contract_violations]
    if os.environ.get("SHOW_CONTRACT_CHECKS"):
        print("contract bodies checked:", sum(s.contract_bodies_checked for s in used))
    assert not violations, "requests outside Discord's API contract:\n" + "\n".join(violations[:20])
