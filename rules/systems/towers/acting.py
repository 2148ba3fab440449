"""What taking any action of the Action List does to the actor, whichever way the turn ends.

"Until a character acts in combat, he is flat-footed" and "If you take any non-Free action
other than Aiming before attacking, you lose the benefits of Aiming": an action, an attack
and an End turn (the Forced Delay) all come through here, so none of them can forget it.

"You are not allowed to use any free or 0-cost actions in the same phase as Delay": free actions
come before the action that ends a turn, and a Delay ends it, so the Delay always comes second
and is what is refused (End turn with it).

A companion and its master "activate simultaneously": the first action either takes ends both
being flat-footed (the Aim lost is the actor's only), and a free action either takes rules out
the pair's Delay in that phase.

A Running Leap's leap comes "when the player's turn comes up again": a Forced Delay wastes that
turn, so the leap is lost with it. The pair's turn is the leaper's turn: its one action is the
leap (or the Delay that loses it), whichever of the two ran.
"""

from __future__ import annotations

from rules.errors import NotAllowed
from rules.model import Event
from rules.said import say

from .companions import pair
from .model import TowersCombatant, TowersEncounter, can_act


def acted(enc: TowersEncounter, cid: str, action: str) -> TowersEncounter:
    """`action` is the Action List key ("aim", "attack", "forced delay"…); call it after
    the action's own effect, which may still read the aim it builds on."""
    for member in pair(enc, enc.get(cid)):
        enc = enc.update(member.id, flat_footed=False)
    return enc if action == "aim" else enc.update(cid, aim=0)


def used_free(enc: TowersEncounter, cid: str) -> TowersEncounter:
    """A free (Speak, Drop Object, Discard Chip) or zero-cost action in the current phase."""
    return enc.update(cid, free_phase=enc.turns.phase)


def free_this_phase(enc: TowersEncounter, me: TowersCombatant) -> TowersCombatant | None:
    """Whoever of `me`'s pair has taken a free or zero-cost action in the current phase."""
    return next((c for c in pair(enc, me) if c.free_phase == enc.turns.phase), None)


def may_delay(enc: TowersEncounter, me: TowersCombatant) -> None:
    free = free_this_phase(enc, me)
    if free is not None:
        raise NotAllowed(
            say(
                "{who} has taken a free or zero-cost action in phase {phase}: no Forced Delay in phase {phase} "
                "(End turn is one). Take another action, or Hold.",
                who=free.name,
                phase=enc.turns.phase,
            )
        )


def leaper(enc: TowersEncounter, me: TowersCombatant) -> TowersCombatant | None:
    """Whoever of `me`'s pair is mid Running Leap and can leap now."""
    return next((c for c in pair(enc, me) if c.leaping and can_act(enc, c)), None)


def leap_first(enc: TowersEncounter, me: TowersCombatant, key: str) -> None:
    """Refuse any action but the leap, by the one who ran, or the Forced Delay that wastes it."""
    mid = leaper(enc, me)
    if mid is None or key == "forced delay" or (mid.id == me.id and key == "running leap"):
        return
    if mid.id == me.id:
        raise NotAllowed(
            say("{who} is mid Running Leap: the second half comes first (/act action:running leap).", who=me.name)
        )
    raise NotAllowed(
        say(
            "{leaper} is mid Running Leap: the leap is the one action {leaper} and {who} share now "
            "(/act action:running leap actor:{leaper}).",
            leaper=mid.name,
            who=me.name,
        )
    )


def forced_delay(enc: TowersEncounter, me: TowersCombatant) -> tuple[TowersEncounter, list[Event]]:
    """What a Forced Delay (End turn included) does before its cost: it may be refused, and it ends
    a pending leap, whichever of the pair ran."""
    may_delay(enc, me)
    mid = leaper(enc, me)
    if mid is None:
        return enc, []
    line = say("{who} wastes the turn: the leap of the Running Leap is lost.", who=mid.name)
    return enc.update(mid.id, leaping=False), [Event(kind="info", text=line)]
