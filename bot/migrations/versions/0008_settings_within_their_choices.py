"""A campaign setting holds one of its declared words, and a number within its range.

`/campaign setup` stored any word for a text setting, and a reader fell through to one branch for a
word it did not know: `defender_flips=player` played as `auto`, `advantage=counts` as `cancel`.
Such a word is dropped, so the setting is its default again (what `/campaign show` now says it is);
a number past its range (`starting_plot_points=150`, `ongoing_dc=0`) is brought to the nearest end.
A fight already running keeps the settings it began with. The old words are not kept: a downgrade
leaves the settings as they are.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As the systems declared them at this revision: a later change to a system must not change this step.
CHOICES = {
    "99-towers": {"defender_flips": ("players", "auto")},
    "rotted-capes": {"advantage": ("cancel", "count")},
}
RANGES = {"rotted-capes": {"starting_plot_points": (0, 100), "ongoing_dc": (1, 60)}}


def within(system: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The settings with every word among its choices and every number within its range."""
    out = {}
    for key, value in settings.items():
        choices = CHOICES.get(system, {}).get(key)
        span = RANGES.get(system, {}).get(key)
        if choices is not None:
            word = value.strip().lower() if isinstance(value, str) else None
            if word not in choices:
                continue
            value = word
        elif span is not None and isinstance(value, int) and not isinstance(value, bool):
            value = min(max(value, span[0]), span[1])
        out[key] = value
    return out


def upgrade() -> None:
    table = sa.table(
        "campaign", sa.column("guild_id", sa.BigInteger), sa.column("system", sa.String), sa.column("settings", sa.JSON)
    )
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(table.c.guild_id, table.c.system, table.c.settings).where(
            table.c.system.in_(CHOICES.keys() | RANGES.keys())
        )
    )
    for key, system, settings in rows.all():
        if not isinstance(settings, dict):
            continue
        fitted = within(system, settings)
        if fitted != settings:
            bind.execute(sa.update(table).where(table.c.guild_id == key).values(settings=fitted))


def downgrade() -> None:
    pass
