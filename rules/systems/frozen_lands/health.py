"""Stamina, being broken, Wounds and the GM's critical injuries."""

from __future__ import annotations

from ...said import Text, say
from ...secrets import secret
from .model import FrozenCombatant

BROKEN = say("broken (cannot act until healed; every further hit is a Wound)")


def injury_hint(name: str) -> Text:
    return say(
        'GM: roll on your critical injuries table and record it with /condition add target:"{who}" '
        'condition:injury tags:"<result>"',
        who=name,
    )


def stamina_text(combatant: FrozenCombatant) -> Text:
    """ "Stamina 3/6", each number the GM's alone when the combatant is hidden."""
    return say(
        "Stamina {stamina}/{most}",
        stamina=secret(combatant.stamina, combatant),
        most=secret(combatant.stamina_max, combatant),
    )


def hurt(combatant: FrozenCombatant, amount: int, *, secret_amount: bool = False) -> tuple[FrozenCombatant, Text, bool]:
    """Apply damage already reduced by armour or defense.

    Returns (combatant, text, wounded). A character at 0 Stamina is broken and
    each further hit is 1 Wound; the overflow of the hit that breaks them is
    not a Wound. An enemy at 0 Stamina is defeated. The amount is secret when
    it would give away a hidden combatant's numbers: the target's defense or
    armour, or (`secret_amount`) a hidden attacker's damage.
    """
    if amount <= 0:
        return combatant, say("no damage"), False
    shown = secret(amount, secret_amount or combatant.hidden)
    if combatant.enemy:
        stamina = max(0, combatant.stamina - amount)
        combatant = combatant.but(stamina=stamina, out=stamina == 0)
        left = stamina_text(combatant)
        if stamina == 0:
            return combatant, say("{damage} damage → {stamina}: defeated", damage=shown, stamina=left), False
        return combatant, say("{damage} damage → {stamina}", damage=shown, stamina=left), False
    if combatant.stamina > 0:
        stamina = max(0, combatant.stamina - amount)
        combatant = combatant.but(stamina=stamina)
        left = stamina_text(combatant)
        if stamina == 0:
            return (
                combatant,
                say("{damage} damage → {stamina}: {broken}", damage=shown, stamina=left, broken=BROKEN),
                False,
            )
        return combatant, say("{damage} damage → {stamina}", damage=shown, stamina=left), False
    combatant = combatant.but(wounds=combatant.wounds + 1)
    return combatant, say("already broken: 1 Wound (Wounds {wounds})", wounds=secret(combatant.wounds, combatant)), True


def break_with_injury(combatant: FrozenCombatant) -> FrozenCombatant:
    """A condition over level 3: broken, and a Wound whose injury the GM rolls."""
    return combatant.but(stamina=0, wounds=combatant.wounds + 1)


def heal(combatant: FrozenCombatant, amount: int) -> FrozenCombatant:
    return combatant.but(stamina=min(combatant.stamina_max, combatant.stamina + max(0, amount)))
