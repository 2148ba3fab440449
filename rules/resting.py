"""A stored character as time between fights sees it: what rests, checks and reports between fights read."""

from __future__ import annotations

from typing import Any

from .model import Value
from .usertext import Typed


class Resting(Value):
    """A stored character as time between fights sees it. An empty `lasting`
    means the character has not been hurt yet: it stands as its sheet says."""

    name: Typed  # as the owner typed it
    owner_id: int
    sheet: dict[str, Any]
    lasting: dict[str, Any]
    character_id: int | None = None
    npc: bool = False  # an NPC the GM kept from a fight: time between fights gives it no hero's resources
