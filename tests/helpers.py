"""What many tests share: the GM of the rules tests, the sandbox's people, and the
PostgreSQL server's admin connection."""

from __future__ import annotations

import contextlib

from sqlalchemy.engine import make_url

from rules.actions import Choose
from rules.engine import apply
from rules.model import Actor
from rules.said import english

GM = Actor(user_id=1, is_gm=True)
PEOPLE = ("gm", "alice", "bob", "carol")


def reworded(state):
    """The state with its question's labels worded otherwise (as another language shows them), keys as they were."""
    pending = state.pending
    options = tuple(o.but(label=f"«{english(o.label)}»") for o in pending.options)
    return state.but(pending=pending.but(options=options))


def answer_by_key(state, key: str, by: Actor = GM):
    """Answer the question by an option's key; answering the same option under reworded labels (clicked,
    or typed as shown) must come to the same: no rule reads an option's words."""
    assert key in state.pending.keys, state.pending.keys
    out = apply(state, Choose(by=by, pending_id=state.pending.id, option=key))
    other = reworded(state)
    shown = english(other.pending.option(key).label)
    index = other.pending.keys.index(key)
    for choose in (dict(index=index, signature=other.pending.signature), dict(option=shown)):
        again = apply(other, Choose(by=by, pending_id=other.pending.id, **choose))
        assert again.state == out.state and again.events[1:] == out.events[1:]
        assert again.events[0].text == f"Chosen: {shown}."
    return out


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
