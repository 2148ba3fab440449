"""A stored character's id is never given to another: fights name their characters by id.

SQLite hands out max(id) + 1, so after the characters with the highest ids were deleted (an import
replaces them all) a new character could get an id a running fight still holds, and that fight's end
would write onto it. AUTOINCREMENT makes SQLite never reuse an id; PostgreSQL's sequences never do.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    # Rebuilt as it is, keeping its rows, ids and indexes, with AUTOINCREMENT on its key.
    with op.batch_alter_table("character", recreate="always", table_kwargs={"sqlite_autoincrement": True}):
        pass


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("character", recreate="always", table_kwargs={"sqlite_autoincrement": False}):
        pass
