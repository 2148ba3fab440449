"""A database with the history of a large community: 10,000 encounters, 2,000 characters.

Written straight into the tables (the bot would take hours to play them), with
real mid-fight states of every system. Most encounters are over; a fifth are
still running, their idle reminders due later or already used up. They sit in
other servers than the stand-in's, so the benchmark's bot never touches them,
exactly what a shard sees of the rest of a shared database.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from bot.db import create_engine, upgrade_schema
from bot.tables import ACTIVE, ENDED, character_table, encounter_table, event_table

FIRST_GUILD = 900_000_000_000_000_000
GUILDS = 500
CHUNK = 1000


async def seed(
    url: str,
    states: dict[str, dict[str, Any]],
    *,
    encounters: int = 10_000,
    characters: int = 2_000,
    events_each: int = 5,
    active_share: float = 0.2,
    seed_value: int = 10,
) -> None:
    rng = random.Random(seed_value)
    now = datetime.now(UTC)
    systems = sorted(states)
    engine = create_engine(url)
    try:
        await upgrade_schema(engine)
        async with engine.begin() as conn:
            start_id = (await conn.scalar(sa.select(sa.func.coalesce(sa.func.max(encounter_table.c.id), 0)))) + 1
            rows, events = [], []
            for n in range(encounters):
                eid = start_id + n
                guild = FIRST_GUILD + n % GUILDS
                system = systems[(n // GUILDS) % len(systems)]
                active = rng.random() < active_share
                created = now - timedelta(days=rng.uniform(0, 365))
                rows.append(
                    {
                        "id": eid,
                        "guild_id": guild,
                        "channel_id": FIRST_GUILD + 1_000_000 + n,
                        "system": system,
                        "status": ACTIVE if active else ENDED,
                        "state": states[system],
                        "version": events_each + 1,
                        "tracker_message_id": guild + 10_000_000 + n,
                        "turn_message_id": None,
                        "reminder_due": now + timedelta(minutes=rng.uniform(1, 600))
                        if active and rng.random() < 0.5
                        else None,
                        "reminders_sent": 0,
                        "pending_deadline": None,
                        "created_at": created,
                        "updated_at": created,
                    }
                )
                events += [
                    {
                        "encounter_id": eid,
                        "seq": seq,
                        "user_id": guild + 7,
                        "command": "/attack",
                        "summary": "Brute attacks Thug: hit",
                        "state_before": states[system],
                        "undone": False,
                        "created_at": created,
                    }
                    for seq in range(1, events_each + 1)
                ]
                if len(rows) >= CHUNK:
                    await _flush(conn, rows, events)
            await _flush(conn, rows, events)
            people = [
                {
                    "guild_id": FIRST_GUILD + n % GUILDS,
                    "owner_id": FIRST_GUILD + 50_000 + n,
                    "name": f"Hero {n}",
                    "name_key": f"hero {n}",
                    "system": systems[n % len(systems)],
                    "sheet": {"dex": 2, "stamina": 20},
                    "created_at": now,
                }
                for n in range(characters)
            ]
            for i in range(0, len(people), CHUNK):
                await conn.execute(character_table.insert(), people[i : i + CHUNK])
    finally:
        await engine.dispose()


async def _flush(conn, rows: list[dict], events: list[dict]) -> None:
    if rows:
        await conn.execute(encounter_table.insert(), rows)
    for i in range(0, len(events), CHUNK):
        await conn.execute(event_table.insert(), events[i : i + CHUNK])
    rows.clear()
    events.clear()
