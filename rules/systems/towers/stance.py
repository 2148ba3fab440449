"""Dual-wielding: the stance of a character fighting with two melee weapons.

The seed: "A character dual-wielding with two melee weapons must choose his fighting
technique and stance. If he chooses to fight aggressively, he gains +1 <PA> but suffers
-1 <PD>. If he chooses to fight defensively, he gains +1 <PD> but has -1 <PA>. He may
change his style at the start of each of his actions."

PA and PD are how many cards a flip turns, so +1 is (flip+1). Choosing costs no time
(a free action on the character's own turn, before the action it is for) and the stance
holds until changed, so it still counts when the character defends between turns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import InvalidInput

from .flips import Mods

if TYPE_CHECKING:
    from .model import TowersCombatant, TowersEncounter
    from .sheet import Weapon

# stance → (PA change, PD change)
STANCES = {"aggressive": (1, -1), "defensive": (-1, 1)}
NO_STANCE = ("none", "off", "drop")


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def effect(stance: str) -> str:
    pa, pd = STANCES[stance]
    return f"PA {_signed(pa)}, PD {_signed(pd)}"


def wanted(flags: dict, target: str | None) -> str:
    """`options:aggressive`, `options:"stance=defensive"`, `options:none` (or the same word as `target:`)."""
    words = [k for k, v in flags.items() if v is True]
    if isinstance(flags.get("stance"), str):
        words.append(flags["stance"])
    if target:
        words.append(target)
    named = {w.strip().casefold() for w in words} & (set(STANCES) | set(NO_STANCE))
    if len(named) != 1:
        raise InvalidInput(
            'Choose one stance: options:"aggressive" (PA +1, PD −1), "defensive" (PD +1, PA −1) or "none".'
        )
    return named.pop()


def melee_weapons(me: TowersCombatant) -> list[Weapon]:
    return [w for w in me.weapons if w.melee and not w.perception]


def choose(enc: TowersEncounter, me: TowersCombatant, flags: dict, target: str | None) -> tuple[TowersEncounter, str]:
    stance = wanted(flags, target)
    if stance in NO_STANCE:
        if not me.stance:
            raise InvalidInput(f"{me.name} has no stance to drop.")
        return enc.update(me.id, stance=""), f"drops the {me.stance} stance."
    if len(melee_weapons(me)) < 2:
        raise InvalidInput(
            f"A stance is for dual-wielding two melee weapons: {me.name}'s sheet lists "
            f"{', '.join(w.name for w in melee_weapons(me)) or 'none'}."
        )
    if stance == me.stance:
        raise InvalidInput(f"{me.name} already fights {stance}ly.")
    return enc.update(me.id, stance=stance), f"fights {stance}ly with two weapons: {effect(stance)} until changed."


def attack_mods(me: TowersCombatant, weapon: Weapon) -> Mods:
    """The PA change, on attacks that flip PA."""
    if not me.stance or weapon.stat != "pa":
        return Mods()
    return Mods().plus(flip=STANCES[me.stance][0], why=f"{me.stance} stance")


def defense_mods(me: TowersCombatant, stat: str) -> Mods:
    """The PD change, on defences that flip PD (not ID)."""
    if not me.stance or stat != "pd":
        return Mods()
    return Mods().plus(flip=STANCES[me.stance][1], why=f"{me.stance} stance")
