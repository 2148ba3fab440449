"""Database fixtures.

``database_url`` is a fresh SQLite file per test, or, when TEST_DATABASE_URL is set
(``postgresql+asyncpg://user[:password]@host:port/anydb``), a fresh PostgreSQL
database per test, created through the server's ``postgres`` database and dropped
afterwards. It is empty, unless the test also uses ``migrated_database_url`` (through
``engine``, ``repo`` or a bot): then it is that same database, already at the newest
migration, a copy of a template migrated once per session (a copied SQLite file;
``CREATE DATABASE … TEMPLATE`` on PostgreSQL), so the migrations run once, not per test.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import create_engine, upgrade_schema
from bot.repository import Repository
from bot.standin.contract import check_requests_with
from tests.contract.spec import discord_contract
from tests.helpers import pg_admin, pg_execute
from tests.reliability.support import FIGURES

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


async def _migrate(url: str) -> None:
    engine = create_engine(url)
    try:
        await upgrade_schema(engine)
    finally:
        await engine.dispose()


@contextlib.asynccontextmanager
async def _pg_database(template: str | None = None) -> AsyncIterator[str]:
    """A new database on TEST_DATABASE_URL's server, copied from `template` if given, dropped afterwards."""
    name = f"tk_test_{uuid.uuid4().hex[:16]}"
    admin = await pg_admin(TEST_DATABASE_URL)
    try:
        # Plain CREATE DATABASE (template1, WAL_LOG strategy on 15+) measured fastest: ~15 ms; a copy of
        # the migrated template took as long as a plain one, where migrating an empty one took ~130 ms more.
        await admin.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        yield make_url(TEST_DATABASE_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def _pg_template() -> str:
    name = f"tk_template_{uuid.uuid4().hex[:16]}"
    admin = await pg_admin(TEST_DATABASE_URL)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        await _migrate(make_url(TEST_DATABASE_URL).set(database=name).render_as_string(hide_password=False))
        # CREATE DATABASE … TEMPLATE fails while anyone is connected to the template; this
        # keeps everyone out, autovacuum included.
        await admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
    except BaseException:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        raise
    finally:
        await admin.close()
    return name


@pytest.fixture(scope="session")
def database_template(tmp_path_factory) -> Iterator[str]:
    """A database at the newest migration, made once per session: a SQLite file's path, or a
    PostgreSQL database's name. Tests get copies (``migrated_database_url``), never this one."""
    if not TEST_DATABASE_URL:
        path = tmp_path_factory.mktemp("template") / "template.db"
        asyncio.run(_migrate(f"sqlite+aiosqlite:///{path}"))
        # Disposing the engine closed the last connection, which folds the WAL into the file.
        assert not path.with_name(path.name + "-wal").exists(), "the template's WAL was not folded in"
        yield str(path)
        return
    if _backend() != "postgresql":
        raise pytest.UsageError(f"TEST_DATABASE_URL must be a PostgreSQL URL: {TEST_DATABASE_URL}")
    name = asyncio.run(_pg_template())
    try:
        yield name
    finally:
        asyncio.run(pg_execute(TEST_DATABASE_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def _database_template_wanted(request) -> str | None:
    """The template when the test wants a migrated database, else None: decided before any
    fixture touches the database. (A fixture of its own: the template is made outside the
    test's event loop.)"""
    return request.getfixturevalue("database_template") if "migrated_database_url" in request.fixturenames else None


@pytest.fixture
async def database_url(_database_template_wanted: str | None, tmp_path: Path) -> AsyncIterator[str]:
    template = _database_template_wanted
    if not TEST_DATABASE_URL:
        path = tmp_path / "turnkeeper.db"
        if template:
            shutil.copyfile(template, path)
        yield f"sqlite+aiosqlite:///{path}"
        return
    if _backend() != "postgresql":
        raise pytest.UsageError(f"TEST_DATABASE_URL must be a PostgreSQL URL: {TEST_DATABASE_URL}")
    async with _pg_database(template) as url:
        yield url


@pytest.fixture
def migrated_database_url(database_url: str) -> str:
    """``database_url``, at the newest migration when the test starts."""
    return database_url


@pytest.fixture
async def engine(migrated_database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(migrated_database_url)
    # At head already, this costs one query; it still migrates a database that a test asked
    # for by name at run time (request.getfixturevalue), which no copy was made for.
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


# The reliability figures are counted in whichever process ran the test: under pytest-xdist
# each worker sends its counts to the main process, which prints them all.
def pytest_sessionfinish(session) -> None:
    worker_output = getattr(session.config, "workeroutput", None)
    if worker_output is not None:
        worker_output["reliability_figures"] = dict(FIGURES)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    FIGURES.update(getattr(node, "workeroutput", {}).get("reliability_figures", {}))


def pytest_terminal_summary(terminalreporter) -> None:
    # Written to the terminal reporter, so the figures show whatever -s or -q says.
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for name, value in sorted(FIGURES.items()):
        terminalreporter.write_line(f"{name}: {value}")
