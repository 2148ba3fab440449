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
    """A campaign. Its key, ``guild_id``, is the server's id for the server's default
    campaign, and the negated id of a channel or category for a campaign bound to
    places (negated: an old server's first channel shares the server's id)."""

    __tablename__ = "campaign"

    guild_id: int = _snowflake(primary_key=True, sa_column_kwargs={"autoincrement": False})
    system: str
    gm_role_id: int | None = _snowflake(default=None, nullable=True)
    settings: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    state: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    created_at: datetime = _stamp()
    updated_at: datetime = _stamp()


class Character(SQLModel, table=True):
    """A stored character. ``guild_id`` is its campaign's key (see Campaign)."""

    __tablename__ = "character"
    # Names are unique per owner: two players may both have a "Max".
    __table_args__ = (
        sa.UniqueConstraint("guild_id", "owner_id", "name_key", name="uq_character_owner_name"),
        sa.Index("ix_character_guild_name", "guild_id", "name_key"),
        # Fights name their characters by id: SQLite must never give a deleted one's id to another.
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()
    owner_id: int = _snowflake()
    owner_name: str | None = None  # as it was when stored: whose "Max" is whose, without asking Discord
    name: str
    name_key: str
    system: str
    sheet: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    # What outlives a fight (System.lasting): written when an encounter ends.
    lasting: dict[str, Any] = Field(
        default_factory=dict, sa_type=sa.JSON, nullable=False, sa_column_kwargs={"server_default": sa.text("'{}'")}
    )
    # An NPC the GM kept from a fight (keep:true), not a hero: who owns it cannot tell, as a GM may play a hero too.
    npc: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    created_at: datetime = _stamp()


class Npc(SQLModel, table=True):
    """A stat block in a campaign's NPC library (GM-only)."""

    __tablename__ = "npc"
    __table_args__ = (sa.UniqueConstraint("guild_id", "name_key", name="uq_npc_guild_name"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake()  # the campaign's key
    name: str
    name_key: str
    system: str
    sheet: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    notes: str = Field(default="", sa_column_kwargs={"server_default": ""})
    created_at: datetime = _stamp()


class CampaignChange(SQLModel, table=True):
    """One between-fight change (a rest, an adjustment, a fight's end, an import),
    with what it replaced so it can be undone."""

    __tablename__ = "campaign_change"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)  # the campaign's key
    user_id: int = _snowflake()
    user_name: str | None = None
    command: str
    summary: str
    # {"characters": {id: lasting}, "campaign": state or null}
    before: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    undone: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    created_at: datetime = _stamp()


class CampaignPlace(SQLModel, table=True):
    """A channel or category bound to a campaign other than its server's default."""

    __tablename__ = "campaign_place"

    place_id: int = _snowflake(primary_key=True, sa_column_kwargs={"autoincrement": False})
    guild_id: int = _snowflake(index=True)  # the server
    campaign_key: int = _snowflake()


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
        # Looked up on every reminder pass; only a change whose post is under way (or was cut off) has one.
        sa.Index(
            "ix_encounter_announce_due",
            "announce_due",
            sqlite_where=sa.text("announce_due IS NOT NULL"),
            postgresql_where=sa.text("announce_due IS NOT NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _snowflake(index=True)
    channel_id: int = _snowflake(index=True)
    system: str
    # The campaign the fight belongs to; None: the server's default campaign (guild_id).
    campaign_key: int | None = _snowflake(default=None, nullable=True)
    status: str = Field(default=ACTIVE)
    state: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    version: int = Field(default=1)
    tracker_message_id: int | None = _snowflake(default=None, nullable=True)
    turn_message_id: int | None = _snowflake(default=None, nullable=True)
    reminder_due: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True, index=True)
    reminders_sent: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    pending_deadline: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True, index=True)
    # The turn ping or choice not yet posted, "<version>:turn", ":choice" or ":turn+choice" (see bot.interact.catch_up).
    announce_due: str | None = Field(default=None, nullable=True)
    created_at: datetime = _stamp()
    updated_at: datetime = _stamp()


class Event(SQLModel, table=True):
    __tablename__ = "event"
    # Leads with encounter_id, so it is also the encounter_id index (and orders by seq).
    __table_args__ = (sa.UniqueConstraint("encounter_id", "seq", name="uq_event_encounter_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    encounter_id: int = Field(
        sa_column_args=[sa.ForeignKey("encounter.id", name="fk_event_encounter", ondelete="CASCADE")]
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
npc_table: sa.Table = Npc.__table__  # type: ignore[attr-defined]
change_table: sa.Table = CampaignChange.__table__  # type: ignore[attr-defined]
place_table: sa.Table = CampaignPlace.__table__  # type: ignore[attr-defined]

# The links a GM shared to a fight's web page (`bot.web.shares`): one secret token per fight and channel.
share_table = sa.Table(
    "encounter_share",
    metadata,
    sa.Column("token", sa.String(), primary_key=True),
    sa.Column(
        "encounter_id",
        sa.Integer(),
        sa.ForeignKey("encounter.id", name="fk_share_encounter", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("channel_id", sa.BigInteger(), nullable=False, index=True),
    sa.Column("locale", sa.String(), nullable=True),
    sa.Column("created_at", UTCDateTime(), nullable=False),
)
