"""A stored character says whether it is an NPC the GM kept from a fight (keep:true) or a hero.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Who is a GM lives in Discord (a role, Manage Server), not in the database, so the rows already
    # stored cannot be told apart here: they start as heroes.
    op.add_column("character", sa.Column("npc", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("character") as batch:
        batch.drop_column("npc")
