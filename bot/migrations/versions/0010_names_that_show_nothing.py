"""A stored name that shows nothing at all (only zero-width spaces or Hangul fillers), taken before names
had to show, gets one that does: "Unnamed", or "Unnamed (2)" where its player (a server's NPC library)
already has an "Unnamed". It could not join a fight, and its campaign's export was refused by the import.

The old names are not kept: a downgrade leaves the new ones.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from rules.usertext import name_key, visible

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SCOPES = {"character": ("guild_id", "owner_id"), "npc": ("guild_id",)}
NAME = "Unnamed"


def _name(table_name: str) -> None:
    scope = SCOPES[table_name]
    table = sa.table(
        table_name,
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        *(sa.column(column, sa.BigInteger) for column in scope),
    )
    bind = op.get_bind()
    rows = bind.execute(sa.select(table).order_by(table.c.id)).mappings().all()
    taken = {(*(row[c] for c in scope), row["name_key"]) for row in rows}
    for row in rows:
        if visible(row["name"]):
            continue
        where = tuple(row[c] for c in scope)
        new, number = NAME, 1
        while (*where, name_key(new)) in taken:
            number += 1
            new = f"{NAME} ({number})"
        taken.discard((*where, row["name_key"]))
        taken.add((*where, name_key(new)))
        bind.execute(sa.update(table).where(table.c.id == row["id"]).values(name=new, name_key=name_key(new)))


def upgrade() -> None:
    for table_name in SCOPES:
        _name(table_name)


def downgrade() -> None:
    pass
