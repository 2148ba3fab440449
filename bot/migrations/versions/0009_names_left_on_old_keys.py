"""A stored name 0007 could not give its new key, because another row of the same scope already had
it, gets a name of its own: a "Bob" with a zero-width space beside a "Bob" becomes "Bob (2)", as a second player's Max
joins a fight as "Max (2)". Left on its old key it was listed but found by no name: picked from a list, the
other row answered; an NPC could be neither shown, used nor removed.

The old names are not kept: a downgrade leaves the new ones.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from rules.usertext import name_key

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SCOPES = {"character": ("guild_id", "owner_id"), "npc": ("guild_id",)}


def _rename(name: str) -> None:
    scope = SCOPES[name]
    table = sa.table(
        name,
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        *(sa.column(column, sa.BigInteger) for column in scope),
    )
    bind = op.get_bind()
    rows = bind.execute(sa.select(table).order_by(table.c.id)).mappings().all()
    taken = {(*(row[c] for c in scope), row["name_key"]) for row in rows}
    for row in rows:
        if name_key(row["name"]) == row["name_key"]:
            continue
        where = tuple(row[c] for c in scope)
        number = 2
        while (*where, name_key(f"{row['name']} ({number})")) in taken:
            number += 1
        new = f"{row['name']} ({number})"
        taken.discard((*where, row["name_key"]))
        taken.add((*where, name_key(new)))
        bind.execute(sa.update(table).where(table.c.id == row["id"]).values(name=new, name_key=name_key(new)))


def upgrade() -> None:
    for name in SCOPES:
        _rename(name)


def downgrade() -> None:
    pass
