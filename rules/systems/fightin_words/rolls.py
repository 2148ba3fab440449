"""The system's one kind of roll: a d6 plus a bonus, meeting or beating a number.

Every die belongs to a fighter. Dice a player enters roll only their own characters' dice:
another's die in an action a player sent (an NPC's dying check when their turn ends the round,
a confused NPC's chart, an initiative tie's reroll) is the bot's. The GM's roll anyone's."""

from __future__ import annotations

from typing import NamedTuple

from rules.randomness import Chance

from .model import Fighter


class Check(NamedTuple):
    die: int
    total: int
    ok: bool


def die(chance: Chance, f: Fighter, sides: int) -> int:
    """One of `f`'s dice: entered by its player or the GM, else the bot's (see the module text)."""
    if not chance.enters_for(f.controller_id):
        return chance.bots_die(sides)
    return chance.die(sides)


def d6_check(chance: Chance, f: Fighter, bonus: int, need: int) -> Check:
    """`f`'s d6 + `bonus` against `need`."""
    rolled = die(chance, f, 6)
    return Check(rolled, rolled + bonus, rolled + bonus >= need)
