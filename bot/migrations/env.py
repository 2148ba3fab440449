"""Alembic environment.

Two ways in:
* programmatically from ``bot.db.upgrade_schema``, which hands over an open
  connection in ``config.attributes["connection"]`` (inside its transaction);
* the alembic CLI (``-c bot/migrations/alembic.ini``), where the URL comes from
  ``-x url=...`` or else ``DATABASE_URL`` (environment or ``.env``).
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from bot.config import Settings
from bot.db import check_foreign_keys, foreign_keys_suspended, migration_lock
from bot.tables import metadata

config = context.config


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if url:
        return url
    return Settings().database_url


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite can only alter tables by copying them; batch mode does that.
        render_as_batch=connection.dialect.name == "sqlite",
        # bot.db's "begin" hook makes SQLite DDL transactional too.
        transactional_ddl=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _migrate_and_commit(connection: Connection) -> None:
    # A bot starting meanwhile migrates too: each waits for the other (SQLite: BEGIN IMMEDIATE).
    migration_lock(connection)
    with foreign_keys_suspended(connection):
        _migrate(connection)
        check_foreign_keys(connection)
        connection.commit()


async def _migrate_url(url: str) -> None:
    from bot.db import SQLITE_IMMEDIATE, create_engine

    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            await conn.execution_options(**{SQLITE_IMMEDIATE: True})
            await conn.run_sync(_migrate_and_commit)
    finally:
        await engine.dispose()


def main() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    if config.config_file_name is not None:
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    if context.is_offline_mode():
        context.configure(url=_url(), target_metadata=metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    asyncio.run(_migrate_url(_url()))


main()
