"""What taking any action of the Action List does to the actor, whichever way the turn ends.

"Until a character acts in combat, he is flat-footed" and "If you take any non-Free action
other than Aiming before attacking, you lose the benefits of Aiming": an action, an attack
and an End turn (the Forced Delay) all come through here, so none of them can forget it.
"""

from __future__ import annotations

from .model import TowersEncounter


def acted(enc: TowersEncounter, cid: str, action: str) -> TowersEncounter:
    """`action` is the Action List key ("aim", "attack", "forced delay"…); call it after
    the action's own effect, which may still read the aim it builds on."""
    changes: dict = {"flat_footed": False}
    if action != "aim":
        changes["aim"] = 0
    return enc.update(cid, **changes)
