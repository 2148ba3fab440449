"""Roll-under d20 saves: a save passes when the d20 is at most the attribute.

A hidden character's attribute (the target it rolls under) is secret; the d20 is not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from rules.said import N_, say, term
from rules.secrets import secret
from rules.text import Text

from .model import FactionsEncounter, Fighter

ATTRIBUTES = {"str": "strength", "agi": "agility", "wit": "wits"}
SHOWN = (N_("STR"), N_("AGI"), N_("WIT"))  # the keys in capitals, as the lines show them, for extraction


class Dice(Protocol):
    """What rolls a die: the action's `rules.randomness.Chance`, or one character's own dice
    (`resolution.AttackerDice`)."""

    def die(self, sides: int) -> int: ...


class Pool(Dice, Protocol):
    def pool(self, count: int, sides: int) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class Save:
    roll: int
    target: int
    passed: bool
    text: Text


def save(enc: FactionsEncounter, fighter: Fighter, attribute: str, chance: Dice, why: Text | str = "") -> Save:
    """`why`: what the save is for, said (or typed by the GM), put after the save's name."""
    nat20_fails = bool(enc.options.get("nat20_fails", True))
    return rolled(fighter.name, getattr(fighter, ATTRIBUTES[attribute]), attribute, chance, nat20_fails, why, fighter)


def rolled(
    who: str,
    value: int,
    attribute: str,
    chance: Dice,
    nat20_fails: bool,
    why: Text | str = "",
    hidden: object = False,
) -> Save:
    """A save by whoever rolls under `value`, in a fight or out of one (`/check`); `hidden`: the
    character whose attribute is secret."""
    roll = chance.die(20)
    natural_fail = roll == 20 and nat20_fails
    passed = roll <= value and not natural_fail
    # Translators: a save's verdict: the roll passes or fails
    verdict = say("pass") if passed else (say("natural 20: fail") if natural_fail else say("fail"))
    values = {"who": who, "stat": term(attribute.upper()), "roll": roll, "target": secret(value, hidden)}
    if why:
        text = say(
            "{who} {stat} save {why}: d20 {roll} vs {stat} {target} → {verdict}", why=why, verdict=verdict, **values
        )
    else:
        text = say("{who} {stat} save: d20 {roll} vs {stat} {target} → {verdict}", verdict=verdict, **values)
    return Save(roll, value, passed, text)
