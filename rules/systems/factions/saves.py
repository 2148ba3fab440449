"""Roll-under d20 saves: a save passes when the d20 is at most the attribute.

A hidden character's attribute (the target it rolls under) is secret; the d20 is not."""

from __future__ import annotations

from dataclasses import dataclass

from rules.randomness import Chance
from rules.secrets import secret

from .model import FactionsEncounter, Fighter

ATTRIBUTES = {"str": "strength", "agi": "agility", "wit": "wits"}


@dataclass(frozen=True, slots=True)
class Save:
    roll: int
    target: int
    passed: bool
    text: str


def save(enc: FactionsEncounter, fighter: Fighter, attribute: str, chance: Chance, why: str = "") -> Save:
    value = getattr(fighter, ATTRIBUTES[attribute])
    roll = chance.die(20)
    natural_fail = roll == 20 and enc.options.get("nat20_fails", True)
    passed = roll <= value and not natural_fail
    verdict = "pass" if passed else ("natural 20: fail" if natural_fail else "fail")
    label = f"{attribute.upper()} save"
    text = (
        f"{fighter.name} {label}{f' {why}' if why else ''}: d20 {roll} vs {attribute.upper()} "
        f"{secret(value, fighter)} → {verdict}"
    )
    return Save(roll, value, passed, text)
