"""A stand-in and the real bot running on an event loop in a background thread,
so synchronous tests (hypothesis drives examples synchronously) can reuse one
running bot for thousands of examples: ``live.run(coroutine)`` runs a coroutine
on that loop and returns its result.

Also the database snapshot that tells whether a command changed anything, and
the reset to a baseline between examples.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from bot.standin import StandIn, World, running_standin
from bot.tables import campaign_table as CT
from bot.tables import change_table as CC
from bot.tables import character_table as CH
from bot.tables import encounter_table as EN
from bot.tables import event_table as EV
from bot.tables import npc_table as NP
from bot.tables import place_table as PL

from .support import ErrorLog, running_bot

T = TypeVar("T")
# Encounter columns that are game state, but the state itself: every write of it goes
# through Repository.commit, which bumps the version. Message ids are bookkeeping.
STATE_COLUMNS = (
    "id",
    "guild_id",
    "channel_id",
    "system",
    "status",
    "version",
    "reminder_due",
    "reminders_sent",
    "pending_deadline",
)
_QUERIES = {
    "campaigns": sa.select(CT).order_by(CT.c.guild_id),
    "characters": sa.select(CH).order_by(CH.c.id),
    "encounters": sa.select(*(EN.c[name] for name in STATE_COLUMNS)).order_by(EN.c.id),
    "events": sa.select(EV.c.id, EV.c.undone).order_by(EV.c.id),
    "npcs": sa.select(NP).order_by(NP.c.id),
    "changes": sa.select(CC).order_by(CC.c.id),
    "places": sa.select(PL).order_by(PL.c.place_id),
}
# The campaign's own tables, restored by replacing every row.
_WHOLE = (("npcs", NP), ("changes", CC), ("places", PL))


class LiveBot:
    def __init__(self, world: World, database_url: str) -> None:
        self.world = world
        self.database_url = database_url
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="live-bot", daemon=True)
        self.errors = ErrorLog()
        self.standin: StandIn | None = None
        self.bot = None
        self._contexts: list[Any] = []
        self._states: dict[tuple[int, int], dict[str, Any]] = {}
        url = make_url(database_url)
        self._sync = sa.create_engine(url.set(drivername="sqlite")) if url.get_backend_name() == "sqlite" else None

    def run(self, work: Awaitable[T] | Callable[[], Awaitable[T]], timeout: float = 120.0) -> T:
        coroutine = work() if callable(work) else work
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def __enter__(self) -> LiveBot:
        self.thread.start()
        self._log = self.errors.installed()
        self._log.__enter__()
        self.run(self._start)
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            self.run(self._stop)
        finally:
            if self._sync is not None:
                self._sync.dispose()
            self._log.__exit__(None, None, None)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()

    async def _start(self) -> None:
        standin_context = running_standin(self.world)
        self.standin = await standin_context.__aenter__()
        self._contexts.append(standin_context)
        bot_context = running_bot(self.standin, self.database_url, seed=1)
        self.bot = await bot_context.__aenter__()
        self._contexts.append(bot_context)

    async def _stop(self) -> None:
        while self._contexts:
            await self._contexts.pop().__aexit__(None, None, None)

    # --- what the database holds -------------------------------------------------------
    async def snapshot(self) -> dict[str, Any]:
        """Everything a command may change. Encounter states are read once per version."""
        return await self._on_database(self._read)

    async def restore(self, baseline: dict[str, Any]) -> None:
        """Put campaigns, characters, encounters and the event log back as they were.

        Versions only go up, so the bot's cache of parsed states cannot serve a stale one.
        """
        await self._on_database(lambda conn: self._write(conn, baseline), write=True)
        for guild in self.world.guilds:
            self.bot.forget_campaign(guild)
            self.bot.core.places.forget(guild)
        self.bot._campaign_roles.forget_all()  # campaigns bound to channels have keys of their own

    async def _on_database(self, work: Callable[[sa.Connection], T], write: bool = False) -> T:
        if self._sync is not None:
            # SQLite through aiosqlite costs a thread hand-off per row; one hand-off for
            # the whole read is cheaper. Off the loop: a tracker edit may still hold the lock.
            return await asyncio.to_thread(self._sync_work, work, write)
        async with self.bot.engine.begin() if write else self.bot.engine.connect() as conn:
            return await conn.run_sync(work)

    def _sync_work(self, work: Callable[[sa.Connection], T], write: bool) -> T:
        with self._sync.begin() if write else self._sync.connect() as conn:
            return work(conn)

    def _read(self, conn: sa.Connection) -> dict[str, Any]:
        rows = {name: list(conn.execute(stmt)) for name, stmt in _QUERIES.items()}
        for row in rows["encounters"]:
            key = (row.id, row.version)
            if key not in self._states:
                self._states[key] = conn.scalar(sa.select(EN.c.state).where(EN.c.id == row.id))
        return {
            "campaigns": [dict(r._mapping) for r in rows["campaigns"]],
            "characters": [dict(r._mapping) for r in rows["characters"]],
            "encounters": [dict(r._mapping) for r in rows["encounters"]],
            "events": tuple(tuple(r) for r in rows["events"]),
            **{name: [dict(r._mapping) for r in rows[name]] for name, _ in _WHOLE},
        }

    def state_of(self, row: dict[str, Any]) -> dict[str, Any]:
        return self._states[(row["id"], row["version"])]

    def _write(self, conn: sa.Connection, baseline: dict[str, Any]) -> None:
        kept = {e["id"]: e for e in baseline["encounters"]}
        last_event = baseline["events"][-1][0] if baseline["events"] else 0
        undone = [eid for eid, flag in baseline["events"] if flag]
        conn.execute(sa.delete(CH))
        if baseline["characters"]:
            conn.execute(sa.insert(CH), baseline["characters"])
        conn.execute(sa.delete(CT))
        if baseline["campaigns"]:
            conn.execute(sa.insert(CT), baseline["campaigns"])
        conn.execute(sa.update(EN).where(EN.c.id.not_in(list(kept))).values(status="ended"))
        for eid, row in kept.items():
            values = {k: v for k, v in row.items() if k not in ("id", "version")}
            conn.execute(
                sa.update(EN).where(EN.c.id == eid).values(version=EN.c.version + 1, state=self.state_of(row), **values)
            )
        conn.execute(sa.delete(EV).where(EV.c.id > last_event))
        conn.execute(sa.update(EV).values(undone=EV.c.id.in_(undone)))
        for name, table in _WHOLE:
            conn.execute(sa.delete(table))
            if baseline[name]:
                conn.execute(sa.insert(table), baseline[name])


def without_versions(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A restored snapshot equals its baseline but for the versions, which only go up."""
    return {**snapshot, "encounters": [{k: v for k, v in e.items() if k != "version"} for e in snapshot["encounters"]]}
