"""Stored names compare as a fight compares them: a character drawn as nothing (a zero-width space,
an emoji's variation selector) no longer makes a name of its own.

Only rows whose names hold such a character get a new key. One whose new key would clash with another
row's in the same scope (a player's characters, a server's NPC library) keeps its old key: both stay
listed and reachable by id, and the older row answers to the name as typed.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from rules.usertext import name_key

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SCOPES = {"character": ("guild_id", "owner_id"), "npc": ("guild_id",)}


def _old_key(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip().casefold()


def _rekey(name: str, key_of: Callable[[str], str]) -> None:
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
        where = tuple(row[c] for c in scope)
        new = key_of(row["name"])
        if new == row["name_key"] or (*where, new) in taken:
            continue
        taken.discard((*where, row["name_key"]))
        taken.add((*where, new))
        bind.execute(sa.update(table).where(table.c.id == row["id"]).values(name_key=new))


def upgrade() -> None:
    for name in SCOPES:
        _rekey(name, name_key)


def downgrade() -> None:
    for name in SCOPES:
        _rekey(name, _old_key)
