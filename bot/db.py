"""Engine construction and schema upgrades."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, event
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

# Execution option asking the SQLite "begin" hook for BEGIN IMMEDIATE. Writers take
# the write lock up front so the busy timeout queues them; a deferred transaction
# that reads first and then writes fails at once with SQLITE_BUSY instead.
SQLITE_IMMEDIATE = "turnkeeper_sqlite_immediate"
# Execution option for single-statement reads: no BEGIN at all. A lone SELECT is
# consistent by itself, and BEGIN costs a round trip to the driver's thread.
SQLITE_NO_BEGIN = "turnkeeper_sqlite_no_begin"

SQLITE_BUSY_TIMEOUT_MS = 10_000
# Any constant works; it only has to be the same in every process of this app.
_PG_MIGRATION_LOCK = 0x7475726E  # "turn"


# Connections each process may hold, shared by the commands under way (at most
# ``Settings.commands_at_once``), the tracker edits under way (``bot.delivery.TRACKERS_AT_ONCE``),
# reminders and the web page's pollers. Two processes stay inside PostgreSQL's default of 100
# connections. Both kinds of work are bounded, so a checkout waits for one of the transactions
# under way, each short: the timeout is a last resort, not a limit.
POOL_SIZE = 20
POOL_OVERFLOW = 20
POOL_TIMEOUT_SECONDS = 120


class StoredJSON(str):
    """A value already written as JSON text (a state, by pydantic's serialiser): stored as it is."""


def to_json(value: Any) -> str:
    """The engines' JSON serialiser: JSON columns take data, or text already in JSON."""
    return value if isinstance(value, StoredJSON) else json.dumps(value)


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """Async engine for ``url`` (``sqlite+aiosqlite`` or ``postgresql+asyncpg``)."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    pool: dict[str, Any] = {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW, "pool_timeout": POOL_TIMEOUT_SECONDS}
    kwargs = {"json_serializer": to_json} | kwargs
    if backend == "postgresql":
        options: dict[str, Any] = {
            **pool,
            # Recycling beats pre-ping here: pre-ping costs a round trip per checkout.
            "pool_recycle": 1800,
            "connect_args": {"server_settings": {"application_name": "turnkeeper"}},
        }
        options.update(kwargs)
        return create_async_engine(url, **options)
    in_memory = parsed.database in (None, "", ":memory:") or "mode=memory" in str(parsed.query)
    engine = create_async_engine(url, **({} if backend != "sqlite" or in_memory else pool) | kwargs)
    if backend == "sqlite":
        _configure_sqlite(engine)
    return engine


def _configure_sqlite(engine: AsyncEngine) -> None:
    configure_sqlite(engine.sync_engine)


def _use_wal(cursor: Any) -> None:
    """Switch a new database file to WAL; a file already in WAL needs no lock to stay so.
    The switch itself wants the file to itself, and SQLite does not always wait for that
    with the busy timeout (another process migrating a fresh file holds it): retry."""
    cursor.execute("PRAGMA journal_mode")
    if str(cursor.fetchone()[0]).lower() == "wal":
        return
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except Exception as error:  # the driver's OperationalError, whichever driver it is
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def configure_sqlite(engine: Engine) -> None:
    """Connection settings and BEGIN handling for every SQLite connection, async or not."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control away from the sqlite3 module (it would begin
        # lazily and never for SELECT); the "begin" hook below emits BEGIN itself.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        # busy_timeout first, so switching to WAL waits instead of failing.
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        _use_wal(cursor)
        # Safe in WAL mode: a power cut can lose the last commits, never corrupt.
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        options = conn.get_execution_options()
        if options.get(SQLITE_NO_BEGIN):
            return
        conn.exec_driver_sql("BEGIN IMMEDIATE" if options.get(SQLITE_IMMEDIATE) else "BEGIN")


if TYPE_CHECKING:
    from alembic.config import Config


def alembic_config(url: str | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


_REVISION = re.compile(r"^(down_revision|revision)\b[^=]*=\s*(?:['\"]([^'\"]+)['\"]|None)", re.MULTILINE)


@cache
def head_revision() -> str | None:
    """The newest migration, read from the scripts' text.

    Importing alembic costs more than the rest of start-up; reading two lines per
    script lets a process whose schema is already at head skip it entirely.
    """
    revisions, parents = set(), set()
    for script in (MIGRATIONS_DIR / "versions").glob("*.py"):
        found = dict((key, value) for key, value in _REVISION.findall(script.read_text(encoding="utf-8")))
        if found.get("revision"):
            revisions.add(found["revision"])
        if found.get("down_revision"):
            parents.add(found["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


async def upgrade_schema(engine: AsyncEngine) -> None:
    """Run the alembic migrations up to head in one transaction.

    Safe to call from several processes at once: PostgreSQL serialises them with an
    advisory lock, SQLite with BEGIN IMMEDIATE (alembic re-reads the revision once it
    holds the lock). When already at head it costs one query.
    """
    async with engine.connect() as conn:
        await conn.execution_options(**{SQLITE_IMMEDIATE: True})
        await conn.run_sync(_upgrade)
        await conn.commit()


def _upgrade(conn: Connection) -> None:
    migration_lock(conn)
    if _current_revision(conn) == head_revision() is not None:
        return
    from alembic import command  # deferred: only needed when there is work to do

    config = alembic_config(conn.engine.url.render_as_string(hide_password=False))
    config.attributes["connection"] = conn
    with foreign_keys_suspended(conn):
        command.upgrade(config, "head")
        check_foreign_keys(conn)
        conn.commit()


def migration_lock(conn: Connection) -> None:
    """On PostgreSQL, wait for any other process's migration and hold off others until this transaction ends
    (SQLite serialises them by BEGIN IMMEDIATE)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_MIGRATION_LOCK})")


def _current_revision(conn: Connection) -> str | None:
    if not sa_inspect(conn).has_table("alembic_version"):
        return None
    rows = conn.exec_driver_sql("SELECT version_num FROM alembic_version").all()
    return rows[0][0] if len(rows) == 1 else None


@contextmanager
def foreign_keys_suspended(conn: Connection) -> Iterator[None]:
    """On SQLite, run the block with foreign keys off, checking them before it commits.

    SQLite alters a table by copying it and dropping the original; with foreign keys
    on, dropping ``encounter`` would cascade-delete every event. The pragma is ignored
    inside a transaction, hence the rollback first and raw DBAPI calls. The block
    should call ``check_foreign_keys`` and commit; anything uncommitted is rolled back.
    """
    if conn.dialect.name != "sqlite":
        yield
        return
    conn.rollback()
    _raw_sqlite(conn, "PRAGMA foreign_keys = OFF")
    try:
        # Begun here so alembic joins this transaction rather than committing its own
        # before the foreign key check.
        conn.begin()
        yield
    finally:
        conn.rollback()
        _raw_sqlite(conn, "PRAGMA foreign_keys = ON")


def check_foreign_keys(conn: Connection) -> None:
    if conn.dialect.name != "sqlite":
        return  # PostgreSQL never lets them break
    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
    if broken:
        raise RuntimeError(f"migration left broken foreign keys: {broken[:5]}")


def _raw_sqlite(conn: Connection, sql: str) -> None:
    # Straight to the driver: Connection.exec_driver_sql would autobegin a transaction.
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(sql)
    finally:
        cursor.close()


async def driver_threads_stopped(timeout: float = 2.0) -> None:
    """Waits (a bounded time) for the threads of aiosqlite connections to end. aiosqlite stops a
    connection that failed to open through a future of the running loop: a thread still waiting when
    the process exits finds the loop closed and prints a traceback under the start-up's error line."""
    deadline = time.monotonic() + timeout
    while any(t.name.endswith("(_connection_worker_thread)") and t.is_alive() for t in threading.enumerate()):
        if time.monotonic() > deadline:
            return
        await asyncio.sleep(0.01)
