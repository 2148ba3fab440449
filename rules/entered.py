"""Which lines of an outcome carry the mark of values entered by hand (✍️): the first line
an entered value decided, also when it is decided only after a choice is answered."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .randomness import Chance

HAND_ENTERED = "hand_entered"


def mark_resumed(events, pending) -> list:
    """The result of a choice whose action used entered values carries the mark."""
    if not pending.context.get(HAND_ENTERED) or any(e.entered for e in events):
        return list(events)
    events = list(events)
    for kinds in (("roll",), ("info", "warning", "round", "end", "choice")):
        for index, event in enumerate(events):
            if event.kind in kinds:
                events[index] = event.but(entered=True)
                return events
    return events


def mark_entered(events, chance: Chance) -> list:
    """An entered value whose result no roll line claimed marks the first line of the outcome."""
    events = list(events)
    if chance.unreported:
        for index, event in enumerate(events):
            if event.kind != "turn":
                events[index] = event.but(entered=True)
                break
    return events
