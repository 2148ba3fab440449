"""What a fight has yet to post: the new turn's ping or a new choice's buttons, as "<version>:turn", ":choice" or
":turn+choice", written with the change that made it due and taken off (compare-and-set) by whoever posts it. A
process killed between the commit and the post leaves it, and the next one to start posts it (README, "What
survives a restart").

Running fights start with none: what they showed before the upgrade is taken as posted.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("encounter", sa.Column("announce_due", sa.String(), nullable=True))
    # Looked up on every reminder pass: only the few rows that have one are indexed.
    where = sa.text("announce_due IS NOT NULL")
    op.create_index(
        "ix_encounter_announce_due", "encounter", ["announce_due"], sqlite_where=where, postgresql_where=where
    )


def downgrade() -> None:
    op.drop_index("ix_encounter_announce_due", "encounter")
    with op.batch_alter_table("encounter") as batch:
        batch.drop_column("announce_due")
