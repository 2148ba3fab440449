"""Whose combatant an out-of-turn action means when it names nobody."""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.said import Text


def own_combatant(enc, action, refusal: Text):
    """`refusal`: what to say when it names nobody and the sender has no one combatant (said by the caller)."""
    if action.actor:
        return enc.find(action.actor)
    mine = [c for c in enc.active() if c.controller_id == action.by.user_id]
    if len(mine) == 1 and not action.by.is_gm:
        return mine[0]
    raise InvalidInput(refusal)
