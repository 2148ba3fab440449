"""What taking any action of the Action List does to the actor, whichever way the turn ends.

"Until a character acts in combat, he is flat-footed" and "If you take any non-Free action
other than Aiming before attacking, you lose the benefits of Aiming": an action, an attack
and an End turn (the Forced Delay) all come through here, so none of them can forget it.

"You are not allowed to use any free or 0-cost actions in the same phase as Delay": free actions
come before the action that ends a turn, and a Delay ends it, so the Delay always comes second
and is what is refused (End turn with it).

A companion and its master "activate simultaneously": the first action either takes ends both
being flat-footed (the Aim lost is the actor's only).

A Running Leap's leap comes "when the player's turn comes up again": a Forced Delay wastes that
turn, so the leap is lost with it.
"""

from __future__ import annotations

from rules.errors import NotAllowed
from rules.model import Event
from rules.said import say

from .companions import pair
from .model import TowersCombatant, TowersEncounter


def acted(enc: TowersEncounter, cid: str, action: str) -> TowersEncounter:
    """`action` is the Action List key ("aim", "attack", "forced delay"…); call it after
    the action's own effect, which may still read the aim it builds on."""
    for member in pair(enc, enc.get(cid)):
        enc = enc.update(member.id, flat_footed=False)
    return enc if action == "aim" else enc.update(cid, aim=0)


def used_free(enc: TowersEncounter, cid: str) -> TowersEncounter:
    """A free (Speak, Drop Object, Discard Chip) or zero-cost action in the current phase."""
    return enc.update(cid, free_phase=enc.turns.phase)


def may_delay(enc: TowersEncounter, me: TowersCombatant) -> None:
    if me.free_phase == enc.turns.phase:
        raise NotAllowed(
            say(
                "{who} has taken a free or zero-cost action in phase {phase}: no Forced Delay in phase {phase} "
                "(End turn is one). Take another action, or Hold.",
                who=me.name,
                phase=enc.turns.phase,
            )
        )


def forced_delay(enc: TowersEncounter, me: TowersCombatant) -> tuple[TowersEncounter, list[Event]]:
    """What a Forced Delay (End turn included) does before its cost: it may be refused, and it ends
    a pending leap."""
    may_delay(enc, me)
    if not me.leaping:
        return enc, []
    line = say("{who} wastes the turn: the leap of the Running Leap is lost.", who=me.name)
    return enc.update(me.id, leaping=False), [Event(kind="info", text=line)]
