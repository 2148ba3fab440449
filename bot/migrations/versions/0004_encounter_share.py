"""A fight's read-only web page: the links a GM shared (`/encounter share`), by their secret token.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen copies of the types as of this revision; never import app code here.
ID = sa.BigInteger()
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "encounter_share",
        sa.Column("token", sa.String(), primary_key=True),
        sa.Column(
            "encounter_id",
            sa.Integer(),
            sa.ForeignKey("encounter.id", name="fk_share_encounter", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("channel_id", ID, nullable=False),
        # The server's language when the link was made: the page is read in it.
        sa.Column("locale", sa.String(), nullable=True),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_index("ix_encounter_share_channel_id", "encounter_share", ["channel_id"])
    op.create_index("ix_encounter_share_encounter_id", "encounter_share", ["encounter_id"])


def downgrade() -> None:
    op.drop_table("encounter_share")
