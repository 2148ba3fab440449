"""Database tables. The schema itself is owned by the alembic migrations in
``bot/migrations``; these models must stay in step with them (a test compares both)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(sa.TypeDecorator[datetime]):
    """Timezone-aware UTC in and out, on every backend.

    SQLite has no timestamp type: values are stored as naive UTC text in one fixed
    format, so ``<=`` comparisons still order correctly. Naive input is rejected
    because guessing its zone silently shifts reminders by hours.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}; use datetime.now(UTC)")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def _stamp() -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


def _snowflake(**kwargs: Any) -> Any:
    # Discord ids need 64 bits; PostgreSQL's plain integer is 32.
    return Field(sa_type=sa.BigInteger, **kwargs)


class Campaign(SQLModel, table=True):
    __tablename__ = "campaign"

    guild_id: int = _snowflake(primary_key=True, sa_column_kwargs={"autoincrement": False})
    system: str
    gm_role_id: int | None = _snowflake(default=None, nullable=True)
    settings: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    state: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    created_at: datetime = _stamp()
    updated_at: datetime = _stamp()


class Character(SQLModel, table=True):
    __tablename__ = "character"
    # The unique index leads with guild_id, so it also serves per-guild lookups;
    # a separate guild_id index would only slow writes.
    __table_args__ = (sa.UniqueConstraint("guild_id", "name_key", name="uq_character_guild_name"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()
    owner_id: int = _snowflake()
    name: str
    name_key: str
    system: str
    sheet: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    created_at: datetime = _stamp()


ACTIVE = "active"
ENDED = "ended"


class Encounter(SQLModel, table=True):
    __tablename__ = "encounter"
    __table_args__ = (
        sa.CheckConstraint("status IN ('active', 'ended')", name="ck_encounter_status"),
        # One live fight per channel, enforced by the database so two shards or
        # processes racing to start a fight cannot both win.
        sa.Index(
            "uq_encounter_active_channel",
            "channel_id",
            unique=True,
            sqlite_where=sa.text("status = 'active'"),
            postgresql_where=sa.text("status = 'active'"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    channel_id: int = _snowflake(index=True)
    system: str
    status: str = Field(default=ACTIVE)
    state: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    version: int = Field(default=1)
    tracker_message_id: int | None = _snowflake(default=None, nullable=True)
    turn_message_id: int | None = _snowflake(default=None, nullable=True)
    reminder_due: datetime | None = Field(
        default=None, sa_type=UTCDateTime, nullable=True, index=True
    )
    reminders_sent: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    pending_deadline: datetime | None = Field(
        default=None, sa_type=UTCDateTime, nullable=True, index=True
    )
    created_at: datetime = _stamp()
    updated_at: datetime = _stamp()


class Event(SQLModel, table=True):
    __tablename__ = "event"
    # Leads with encounter_id, so it is also the encounter_id index (and orders by seq).
    __table_args__ = (sa.UniqueConstraint("encounter_id", "seq", name="uq_event_encounter_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    encounter_id: int = Field(
        sa_column_args=[
            sa.ForeignKey("encounter.id", name="fk_event_encounter", ondelete="CASCADE")
        ]
    )
    seq: int
    user_id: int = _snowflake()
    command: str
    summary: str
    state_before: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    undone: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    created_at: datetime = _stamp()


metadata = SQLModel.metadata
campaign_table: sa.Table = Campaign.__table__  # type: ignore[attr-defined]
character_table: sa.Table = Character.__table__  # type: ignore[attr-defined]
encounter_table: sa.Table = Encounter.__table__  # type: ignore[attr-defined]
event_table: sa.Table = Event.__table__  # type: ignore[attr-defined]
