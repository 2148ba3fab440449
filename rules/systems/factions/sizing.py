"""Size and reach: who can strike how far, and with how many dice.

Massive characters strike in melee up to one zone away. Against a target of
another size a ranged weapon's range halves (smaller target) or doubles
(larger) per size step; a larger attacker doubles its damage dice per step
and may share them among smaller targets; a smaller attacker halves its
damage per step. Blasts ignore size.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rules.errors import InvalidInput
from rules.said import joined, say, seq
from rules.secrets import secret

from .model import Fighter
from .sheet import UNARMED, Weapon


def reach(fighter: Fighter) -> int:
    """Massive characters strike up to one zone away; others only nearby."""
    return 1 if fighter.size == "massive" else 0


def effective_range(weapon: Weapon, attacker: Fighter, target: Fighter) -> int:
    if weapon.blast:
        return weapon.range
    steps = target.size_rank - attacker.size_rank
    return weapon.range * 2**steps if steps >= 0 else weapon.range // 2 ** (-steps)


def beyond_half_range(weapon: Weapon, shooter: Fighter, target: Fighter, zones: int) -> bool:
    """A ranged attack that needs a WIT save to hit: "when the target is beyond half range"."""
    return 2 * zones > effective_range(weapon, shooter, target)


def damage_die(weapon: Weapon, impaired: bool, enhanced: bool) -> int:
    if impaired or weapon is UNARMED or weapon.name == UNARMED.name:
        return 4
    return 12 if enhanced else weapon.die


def dice_shares(
    attacker: Fighter, weapon: Weapon, targets: list[Fighter], split: tuple[int, ...]
) -> list[tuple[int, int]]:
    """(dice, halvings) per target. Larger attackers roll 2^steps dice against a
    smaller target and may spread them (as fractions of each target's pool);
    smaller attackers halve the damage per step. Blasts ignore size."""
    if weapon.blast:
        return [(1, 0)] * len(targets)
    steps = [attacker.size_rank - t.size_rank for t in targets]
    if len(targets) == 1:
        s = steps[0]
        return [(2**s, 0)] if s >= 0 else [(1, -s)]
    pools = [2**s for s in steps]
    shares = list(split)
    if not shares:
        if any(p % len(targets) for p in pools):
            raise InvalidInput(
                say("Say how many dice each target takes, e.g. `split=1/2` (in the order of the targets).")
            )
        shares = [p // len(targets) for p in pools]
    if len(shares) != len(targets) or any(n < 1 for n in shares):
        raise InvalidInput(say("`split` needs one number of dice (at least 1) per target, in order."))
    if sum(Fraction(n, p) for n, p in zip(shares, pools)) != 1:
        # a hidden target's size is secret
        pool_text = joined(", ", (seq(t.name, " ", secret(p, t)) for t, p in zip(targets, pools)))
        raise InvalidInput(
            say(
                "The dice must share out the whole attack: each target's dice divided by its full pool "
                "({pools}) must add up to 1.",
                pools=pool_text,
            )
        )
    return [(n, 0) for n in shares]


def moved_share(attacker: Fighter, old: Fighter, new: Fighter, dice: int) -> tuple[int, int]:
    """(dice, halvings) when a share of a larger attacker's dice falls on another character (one hid
    behind it, or it guarded): the same part of the attack, against the new target's full pool,
    never less than one die; a target not smaller than the attacker takes one die, halved as usual."""
    steps = attacker.size_rank - new.size_rank
    if steps <= 0:
        return 1, -steps
    part = Fraction(dice, 2 ** max(0, attacker.size_rank - old.size_rank))  # one die on a target not smaller
    return max(1, math.ceil(part * 2**steps)), 0
