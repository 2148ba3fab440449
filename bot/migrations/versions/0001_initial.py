"""Initial schema: campaign, character, encounter, event.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the types as of this revision; never import app code here.
ID = sa.BigInteger()
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "campaign",
        sa.Column("guild_id", ID, primary_key=True, autoincrement=False),
        sa.Column("system", sa.String(), nullable=False),
        sa.Column("gm_role_id", ID, nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )
    op.create_table(
        "character",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("owner_id", ID, nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("name_key", sa.String(), nullable=False),
        sa.Column("system", sa.String(), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.UniqueConstraint("guild_id", "name_key", name="uq_character_guild_name"),
    )
    op.create_table(
        "encounter",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("channel_id", ID, nullable=False),
        sa.Column("system", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("tracker_message_id", ID, nullable=True),
        sa.Column("turn_message_id", ID, nullable=True),
        sa.Column("reminder_due", TS, nullable=True),
        sa.Column("reminders_sent", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("pending_deadline", TS, nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.CheckConstraint("status IN ('active', 'ended')", name="ck_encounter_status"),
    )
    op.create_index("ix_encounter_guild_id", "encounter", ["guild_id"])
    op.create_index("ix_encounter_channel_id", "encounter", ["channel_id"])
    op.create_index("ix_encounter_reminder_due", "encounter", ["reminder_due"])
    op.create_index("ix_encounter_pending_deadline", "encounter", ["pending_deadline"])
    op.create_index(
        "uq_encounter_active_channel",
        "encounter",
        ["channel_id"],
        unique=True,
        sqlite_where=sa.text("status = 'active'"),
        postgresql_where=sa.text("status = 'active'"),
    )
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "encounter_id",
            sa.Integer(),
            sa.ForeignKey("encounter.id", name="fk_event_encounter", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("command", sa.String(), nullable=False),
        sa.Column("summary", sa.String(), nullable=False),
        sa.Column("state_before", sa.JSON(), nullable=False),
        sa.Column("undone", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", TS, nullable=False),
        sa.UniqueConstraint("encounter_id", "seq", name="uq_event_encounter_seq"),
    )


def downgrade() -> None:
    op.drop_table("event")
    op.drop_table("encounter")
    op.drop_table("character")
    op.drop_table("campaign")
