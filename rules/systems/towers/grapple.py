"""Grapple Tests: Attack ⟨PA⟩ plus size against Physical Defense plus size.

Initiating and escaping both flip the grappler's PA as the attacker and the
victim's PD as the defender; the attacker wins ties, so a victim escapes only
by flipping higher. Size ranks add to the flips as shifts.
"""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.secrets import secret

from .attack import defense_base
from .flips import Mods, described, flip
from .state import Condition, TowersCombatant

PREFIX = "grappled by "


def _contest(chance, grappler: TowersCombatant, victim: TowersCombatant) -> tuple[bool, list[str]]:
    attack_mods = Mods().plus(shift=grappler.sheet.size, why="size") if grappler.sheet.size else Mods()
    attack = flip(chance, grappler.sheet.pa, attack_mods)
    base, label = defense_base(victim, "pd")
    defense_mods = Mods().plus(shift=victim.sheet.size, why="size") if victim.sheet.size else Mods()
    defense = flip(chance, base, defense_mods)
    won = attack.total >= defense.total
    return won, [
        f"{grappler.name} {described('PA', secret(grappler.sheet.pa, grappler), attack_mods, attack)}",
        f"{victim.name} {described(label, secret(base, victim), defense_mods, defense)}",
        f"{attack.total} vs {defense.total}",
    ]


def grappler_of(enc, victim: TowersCombatant) -> TowersCombatant | None:
    for condition in victim.conditions:
        if condition.name.startswith(PREFIX):
            return enc.maybe(condition.name[len(PREFIX):])
    return None


def initiate(enc, me: TowersCombatant, target_name: str | None, chance):
    """Cards: the grappler's PA flip, then the target's PD flip."""
    if not target_name:
        raise InvalidInput("Initiate Grapple needs a target within reach.")
    victim = enc.find(target_name)
    if victim.id == me.id or victim.out:
        raise InvalidInput(f"{me.name} cannot grapple {victim.name}.")
    if grappler_of(enc, victim):
        raise InvalidInput(f"{victim.name} is already grappled.")
    won, lines = _contest(chance, me, victim)
    if won:
        held = victim.conditions + (Condition(name=f"{PREFIX}{me.name}"),)
        enc = enc.update(victim.id, conditions=held)
    verdict = f"{victim.name} is grappled" if won else f"{victim.name} slips the grapple"
    return enc, f"Grapple Test: {'; '.join(lines)}: {verdict}."


def escape(enc, me: TowersCombatant, chance):
    """Cards: the grappler's PA flip, then the escaper's PD flip."""
    grappler = grappler_of(enc, me)
    if grappler is None:
        raise InvalidInput(f"{me.name} is not grappled.")
    held, lines = _contest(chance, grappler, me)
    if not held:
        left = tuple(c for c in me.conditions if not c.name.startswith(PREFIX))
        enc = enc.update(me.id, conditions=left)
    verdict = f"{grappler.name} keeps hold" if held else f"{me.name} escapes"
    return enc, f"Escape: {'; '.join(lines)}: {verdict}."
