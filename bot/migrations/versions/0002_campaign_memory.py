"""The campaign remembers: lasting state per character, names unique per owner,
the NPC library, the between-fight change log, campaigns bound to channels.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the types as of this revision; never import app code here.
ID = sa.BigInteger()
TS = sa.DateTime(timezone=True)
EMPTY = sa.text("'{}'")


def upgrade() -> None:
    # Existing characters start with nothing carried over: their next fight
    # begins from the fresh sheet, exactly as before this revision.
    with op.batch_alter_table("character") as batch:
        batch.add_column(sa.Column("lasting", sa.JSON(), nullable=False, server_default=EMPTY))
        # The owner's name as it was when the character was stored: lists show whose "Max" is whose
        # without asking Discord for every member.
        batch.add_column(sa.Column("owner_name", sa.String(), nullable=True))
        batch.drop_constraint("uq_character_guild_name", type_="unique")
        batch.create_unique_constraint("uq_character_owner_name", ["guild_id", "owner_id", "name_key"])
    op.create_index("ix_character_guild_name", "character", ["guild_id", "name_key"])
    # The campaign a fight belongs to (NULL: the server's default campaign, as every fight before this revision).
    op.add_column("encounter", sa.Column("campaign_key", ID, nullable=True))
    op.create_table(
        "npc",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("name_key", sa.String(), nullable=False),
        sa.Column("system", sa.String(), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
        sa.Column("notes", sa.String(), nullable=False, server_default=""),
        sa.Column("created_at", TS, nullable=False),
        sa.UniqueConstraint("guild_id", "name_key", name="uq_npc_guild_name"),
    )
    op.create_table(
        "campaign_change",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("user_name", sa.String(), nullable=True),
        sa.Column("command", sa.String(), nullable=False),
        sa.Column("summary", sa.String(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=False),
        sa.Column("undone", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_index("ix_campaign_change_guild_id", "campaign_change", ["guild_id"])
    op.create_table(
        "campaign_place",
        sa.Column("place_id", ID, primary_key=True, autoincrement=False),
        sa.Column("guild_id", ID, nullable=False),
        sa.Column("campaign_key", ID, nullable=False),
    )
    op.create_index("ix_campaign_place_guild_id", "campaign_place", ["guild_id"])


def downgrade() -> None:
    op.drop_index("ix_campaign_place_guild_id", "campaign_place")
    op.drop_table("campaign_place")
    op.drop_index("ix_campaign_change_guild_id", "campaign_change")
    op.drop_table("campaign_change")
    op.drop_table("npc")
    with op.batch_alter_table("encounter") as batch:
        batch.drop_column("campaign_key")
    op.drop_index("ix_character_guild_name", "character")
    with op.batch_alter_table("character") as batch:
        batch.drop_constraint("uq_character_owner_name", type_="unique")
        batch.create_unique_constraint("uq_character_guild_name", ["guild_id", "name_key"])
        batch.drop_column("owner_name")
        batch.drop_column("lasting")
