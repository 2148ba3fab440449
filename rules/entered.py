"""Which lines of an outcome carry the mark of values entered by hand (✍️): the first line
an entered value decided, also when it is decided only after a choice is answered."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .randomness import Chance

HAND_ENTERED = "hand_entered"


def mark_resumed(enc, events, pending) -> tuple:
    """The result of a choice whose action used entered values carries the mark: its first roll line.
    An answer with no roll that opens another question (the next target's reaction) has no result yet:
    that question carries the mark on."""
    if not pending.context.get(HAND_ENTERED) or any(e.entered for e in events):
        return enc, list(events)
    if enc.pending is not None and not any(e.kind == "roll" for e in events):
        asked = enc.pending
        return enc.but(pending=asked.but(context={**asked.context, HAND_ENTERED: True})), list(events)
    events = list(events)
    for kinds in (("roll",), ("info", "warning", "round", "end", "choice")):
        for index, event in enumerate(events):
            if event.kind in kinds:
                events[index] = event.but(entered=True)
                return enc, events
    return enc, events


def mark_entered(events, chance: Chance) -> list:
    """An entered value whose result no roll line claimed marks the first line of the outcome."""
    events = list(events)
    if chance.unreported:
        for index, event in enumerate(events):
            if event.kind != "turn":
                events[index] = event.but(entered=True)
                break
    return events
