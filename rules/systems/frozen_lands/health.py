"""Stamina, being broken, Wounds and the GM's critical injuries."""

from __future__ import annotations

from .model import FrozenCombatant

BROKEN = "broken (cannot act until healed; every further hit is a Wound)"


def injury_hint(name: str) -> str:
    return f"GM: roll on your critical injuries table and record it with /condition add target:\"{name}\" condition:injury tags:\"<result>\""


def hurt(combatant: FrozenCombatant, amount: int) -> tuple[FrozenCombatant, str, bool]:
    """Apply damage already reduced by armour or defense.

    Returns (combatant, text, wounded). A character at 0 Stamina is broken and
    each further hit is 1 Wound; the overflow of the hit that breaks them is
    not a Wound. An enemy at 0 Stamina is defeated.
    """
    if amount <= 0:
        return combatant, "no damage", False
    if combatant.enemy:
        stamina = max(0, combatant.stamina - amount)
        combatant = combatant.but(stamina=stamina, out=stamina == 0)
        return combatant, f"{amount} damage → Stamina {stamina}/{combatant.stamina_max}" + (": defeated" if stamina == 0 else ""), False
    if combatant.stamina > 0:
        stamina = max(0, combatant.stamina - amount)
        combatant = combatant.but(stamina=stamina)
        return combatant, f"{amount} damage → Stamina {stamina}/{combatant.stamina_max}" + (f": {BROKEN}" if stamina == 0 else ""), False
    combatant = combatant.but(wounds=combatant.wounds + 1)
    return combatant, f"already broken: 1 Wound (Wounds {combatant.wounds})", True


def break_with_injury(combatant: FrozenCombatant) -> FrozenCombatant:
    """A condition over level 3: broken, and a Wound whose injury the GM rolls."""
    return combatant.but(stamina=0, wounds=combatant.wounds + 1)


def heal(combatant: FrozenCombatant, amount: int) -> FrozenCombatant:
    return combatant.but(stamina=min(combatant.stamina_max, combatant.stamina + max(0, amount)))
