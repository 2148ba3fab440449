"""The system's one kind of roll: a d6 plus a bonus, meeting or beating a number."""

from __future__ import annotations

from typing import NamedTuple

from rules.randomness import Chance


class Check(NamedTuple):
    die: int
    total: int
    ok: bool


def d6_check(chance: Chance, bonus: int, need: int) -> Check:
    die = chance.die(6)
    return Check(die, die + bonus, die + bonus >= need)


def signed(n: int) -> str:
    """A bonus as the roll lines show it: `+ 2`, `− 1`."""
    return f"+ {n}" if n >= 0 else f"− {-n}"
