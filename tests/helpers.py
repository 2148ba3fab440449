"""What many tests share: the GM of the rules tests, the sandbox's people, and the
PostgreSQL server's admin connection."""

from __future__ import annotations

import contextlib

from sqlalchemy.engine import make_url

from rules.model import Actor

GM = Actor(user_id=1, is_gm=True)
PEOPLE = ("gm", "alice", "bob", "carol")


def ids(standin, *names: str) -> dict[str, int]:
    """User ids of the stand-in's people, by name (the sandbox's four by default)."""
    return {name: standin.world.user(name).id for name in names or PEOPLE}


async def pg_admin(url: str):  # -> asyncpg.Connection
    """A connection to the server's `postgres` database, for creating and dropping others."""
    import asyncpg

    u = make_url(url)
    return await asyncpg.connect(
        user=u.username, password=u.password, host=u.host or "127.0.0.1", port=u.port or 5432, database="postgres"
    )


@contextlib.asynccontextmanager
async def pg_admin_session(url: str):
    conn = await pg_admin(url)
    try:
        yield conn
    finally:
        await conn.close()


async def pg_execute(url: str, sql: str) -> None:
    async with pg_admin_session(url) as conn:
        await conn.execute(sql)
