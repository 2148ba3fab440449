"""What the work costs without Discord: the rules core alone, the database floor,
and persisted actions through ``bot.core.Core.act``."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

import aiosqlite
from sqlalchemy.engine import make_url

from bot.core import Core
from bot.db import SQLITE_BUSY_TIMEOUT_MS, create_engine, upgrade_schema
from bot.repository import Repository

from .fights import Fight

# The connection settings of bot.db._configure_sqlite, so the floor is the same database.
PRAGMAS = (
    f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
)
FLOOR_TABLE = "CREATE TABLE IF NOT EXISTS bench_floor (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"
UPSERT = "INSERT INTO bench_floor (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body"


RUN = 500  # steps replayed from the fight's start: short enough that nobody falls
TRIALS = 3  # each rate is the best of this many runs: the machine may be busy with other work


def rules_per_second(fight: Fight) -> float:
    """Actions per second through ``rules.engine.apply`` alone, replaying the fight from its start."""
    best = 0.0
    for _ in range(TRIALS):
        started = time.perf_counter()
        fight.replay().plan(RUN)
        best = max(best, RUN / (time.perf_counter() - started))
    return best


def sqlite_path(url: str) -> str:
    return make_url(url).database


def sqlite3_floor(path: str, payload: str, count: int = 2000) -> float:
    db = sqlite3.connect(path)
    try:
        for pragma in PRAGMAS:
            db.execute(pragma)
        db.execute(FLOOR_TABLE)
        db.commit()
        best = 0.0
        for _ in range(TRIALS):
            started = time.perf_counter()
            for _ in range(count):
                db.execute(UPSERT, (1, payload))
                db.commit()
            best = max(best, count / (time.perf_counter() - started))
        return best
    finally:
        db.close()


async def aiosqlite_floor(path: str, payload: str, count: int = 2000) -> float:
    async with aiosqlite.connect(path) as db:
        for pragma in PRAGMAS:
            await db.execute(pragma)
        await db.execute(FLOOR_TABLE)
        await db.commit()
        best = 0.0
        for _ in range(TRIALS):
            started = time.perf_counter()
            for _ in range(count):
                await db.execute(UPSERT, (1, payload))
                await db.commit()
            best = max(best, count / (time.perf_counter() - started))
        return best


async def persisted_per_second(url: str, fight: Fight, *, guild_id: int, channels: range) -> float:
    """Actions per second through Core.act (lock, load, apply, save state and event), one at a time.

    Each trial stores the fight's start as a new encounter (in the next of ``channels``)
    and plans its commands beforehand with the rules core, so only Core.act is timed.
    """
    steps = fight.replay().plan(RUN)
    engine = create_engine(url)
    try:
        await upgrade_schema(engine)
        core = Core(Repository(engine))
        best = 0.0
        for channel_id in channels[:TRIALS]:
            await core.repo.create_encounter(guild_id, channel_id, fight.key, fight.start.model_dump(mode="json"))
            started = time.perf_counter()
            for step in steps:
                await core.act(channel_id, step.action, step.label)
            best = max(best, len(steps) / (time.perf_counter() - started))
        return best
    finally:
        await engine.dispose()


def state_payload(fight: Fight) -> str:
    """A stored encounter's JSON, the size of what Core.act writes per action."""
    return json.dumps(fight.start.model_dump(mode="json"))


def describe_size(payload: Any) -> str:
    return f"{len(payload) / 1024:.1f} KiB"
