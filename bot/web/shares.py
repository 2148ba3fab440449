"""The links a GM shared: a secret token per fight, in the database so that every process can serve it.

A link shows its fight while it runs and its final state for a day after it ended; then it is dead. Revoking
deletes the channel's links. Reading a link writes nothing.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import SQLITE_IMMEDIATE, SQLITE_NO_BEGIN
from bot.repository import EncounterRecord
from bot.tables import ENDED, encounter_table, share_table, utcnow

# How long a finished fight's page stays readable.
KEPT_AFTER_END = timedelta(days=1)

EN = encounter_table
SH = share_table


@dataclass(frozen=True, slots=True)
class Share:
    token: str
    encounter_id: int
    channel_id: int
    locale: str | None


def new_token() -> str:
    # 32 random bytes: 256 bits, far beyond guessing.
    return secrets.token_urlsafe(32)


def expired(record: EncounterRecord, now: datetime) -> bool:
    """A finished fight's page lives a day past the end (its last change)."""
    return ended_long_ago(record.status, record.updated_at, now)


def ended_long_ago(status: str, updated_at: datetime, now: datetime) -> bool:
    return status == ENDED and now - updated_at > KEPT_AFTER_END


class Shares:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        sqlite = engine.dialect.name == "sqlite"
        self._reader = engine.execution_options(**{SQLITE_NO_BEGIN: True}) if sqlite else engine
        self._writer = engine.execution_options(**{SQLITE_IMMEDIATE: True}) if sqlite else engine

    async def share(self, encounter_id: int, channel_id: int, locale: str | None) -> str:
        """The fight's link token: the one shared before, or a new one."""
        async with self._writer.begin() as conn:
            found = (
                await conn.execute(
                    # The oldest: two shares at once on PostgreSQL may both have made one, and asked again each
                    # time the same link comes back.
                    sa.select(SH.c.token)
                    .where(SH.c.encounter_id == encounter_id)
                    .order_by(SH.c.created_at, SH.c.token)
                    .limit(1)
                )
            ).scalar()
            if found is not None:
                return str(found)
            token = new_token()
            await conn.execute(
                sa.insert(SH).values(
                    token=token, encounter_id=encounter_id, channel_id=channel_id, locale=locale, created_at=utcnow()
                )
            )
            return token

    async def revoke(self, channel_id: int) -> int:
        """Every link of the channel's fights dies; how many there were."""
        async with self._writer.begin() as conn:
            return (await conn.execute(sa.delete(SH).where(SH.c.channel_id == channel_id))).rowcount

    async def find(self, token: str) -> Share | None:
        async with self._reader.connect() as conn:
            row = (await conn.execute(sa.select(SH).where(SH.c.token == token))).first()
        if row is None:
            return None
        return Share(token=row.token, encounter_id=row.encounter_id, channel_id=row.channel_id, locale=row.locale)

    async def shown(self, token: str, now: datetime) -> int | None:
        """The version of the fight a link shows: a cheap look for a change. None when the link shows nothing
        any more: revoked, its fight gone, or ended more than a day ago."""
        query = (
            sa.select(EN.c.version, EN.c.status, EN.c.updated_at)
            .select_from(SH.join(EN, EN.c.id == SH.c.encounter_id))
            .where(SH.c.token == token)
        )
        async with self._reader.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None or ended_long_ago(row.status, row.updated_at, now):
            return None
        return int(row.version)
