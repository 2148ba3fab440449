"""Them's Fightin' Words: Dodge and Parry follow Reflex and Weapon Skill unless a sheet gives its own.

Stored sheets wrote 0 for a Dodge or Parry nobody gave (it was the default); 0 now reads as a
given value, so those become unset. An explicit 0 cannot be told from the old default: both
meant the same bonus until now, and the seed's rule is what a table expects.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SYSTEM = "fightin-words"
DEFENCES = ("dodge", "parry")


def _table(name: str) -> sa.TableClause:
    return sa.table(name, sa.column("id", sa.Integer), sa.column("system", sa.String), sa.column("sheet", sa.JSON))


def _rewrite(name: str, old: object, new: object) -> None:
    table = _table(name)
    bind = op.get_bind()
    for row_id, sheet in bind.execute(sa.select(table.c.id, table.c.sheet).where(table.c.system == SYSTEM)):
        if not isinstance(sheet, dict):
            continue
        changed = {key: new if key in DEFENCES and value == old else value for key, value in sheet.items()}
        if changed != sheet:
            bind.execute(sa.update(table).where(table.c.id == row_id).values(sheet=changed))


def upgrade() -> None:
    for name in ("character", "npc"):
        _rewrite(name, 0, None)


def downgrade() -> None:
    for name in ("character", "npc"):
        _rewrite(name, None, 0)
