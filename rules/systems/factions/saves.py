"""Roll-under d20 saves: a save passes when the d20 is at most the attribute.

A hidden character's attribute (the target it rolls under) is secret; the d20 is not."""

from __future__ import annotations

from dataclasses import dataclass

from rules.randomness import Chance
from rules.said import N_, say, term
from rules.secrets import secret
from rules.text import Text

from .model import FactionsEncounter, Fighter

ATTRIBUTES = {"str": "strength", "agi": "agility", "wit": "wits"}
SHOWN = (N_("STR"), N_("AGI"), N_("WIT"))  # the keys in capitals, as the lines show them, for extraction


@dataclass(frozen=True, slots=True)
class Save:
    roll: int
    target: int
    passed: bool
    text: Text


def save(enc: FactionsEncounter, fighter: Fighter, attribute: str, chance: Chance, why: Text | str = "") -> Save:
    """`why`: what the save is for, said (or typed by the GM), put after the save's name."""
    value = getattr(fighter, ATTRIBUTES[attribute])
    roll = chance.die(20)
    natural_fail = roll == 20 and enc.options.get("nat20_fails", True)
    passed = roll <= value and not natural_fail
    verdict = say("pass") if passed else (say("natural 20: fail") if natural_fail else say("fail"))
    values = {"who": fighter.name, "stat": term(attribute.upper()), "roll": roll, "target": secret(value, fighter)}
    if why:
        text = say(
            "{who} {stat} save {why}: d20 {roll} vs {stat} {target} → {verdict}", why=why, verdict=verdict, **values
        )
    else:
        text = say("{who} {stat} save: d20 {roll} vs {stat} {target} → {verdict}", verdict=verdict, **values)
    return Save(roll, value, passed, text)
