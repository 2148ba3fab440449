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
from rules.numbers import modifier
from rules.said import N_, Text, say, term
from rules.usertext import listed

from .flips import Mods

if TYPE_CHECKING:
    from .model import TowersCombatant, TowersEncounter
    from .sheet import Weapon

# stance → (PA change, PD change)
STANCES = {N_("aggressive"): (1, -1), N_("defensive"): (-1, 1)}
NO_STANCE = ("none", "off", "drop")
# The `options:` words choosing one (commands.py declares them): a stance as a word, or `stance=<word>`.
STANCE_WORDS = ("stance", *STANCES, *NO_STANCE)
# "fights aggressively": whole words, each said as it is, for a translation to read.
ADVERBS = {"aggressive": N_("aggressively"), "defensive": N_("defensively")}


def effect(stance: str) -> Text:
    pa, pd = STANCES[stance]
    return say("PA {pa}, PD {pd}", pa=modifier(pa), pd=modifier(pd))


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
            say('Choose one stance: options:"aggressive" (PA +1, PD −1), "defensive" (PD +1, PA −1) or "none".')
        )
    return named.pop()


def melee_weapons(me: TowersCombatant) -> list[Weapon]:
    return [w for w in me.weapons if w.melee and not w.perception]


def choose(enc: TowersEncounter, me: TowersCombatant, flags: dict, target: str | None) -> tuple[TowersEncounter, Text]:
    """The stance chosen, and the line that says so."""
    stance = wanted(flags, target)
    if stance in NO_STANCE:
        if not me.stance:
            raise InvalidInput(say("{who} has no stance to drop.", who=me.name))
        return enc.update(me.id, stance=""), say(
            "{who} drops the {stance} stance.", who=me.name, stance=term(me.stance)
        )
    if len(melee_weapons(me)) < 2:
        held = listed(w.name for w in melee_weapons(me)) or say("none")
        raise InvalidInput(
            say(
                "A stance is for dual-wielding two melee weapons: {who}'s sheet lists {weapons}.",
                who=me.name,
                weapons=held,
            )
        )
    how = term(ADVERBS[stance])
    if stance == me.stance:
        raise InvalidInput(say("{who} already fights {how}.", who=me.name, how=how))
    line = say(
        "{who} fights {how} with two weapons: {effect} until changed.", who=me.name, how=how, effect=effect(stance)
    )
    return enc.update(me.id, stance=stance), line


def attack_mods(me: TowersCombatant, weapon: Weapon) -> Mods:
    """The PA change, on attacks that flip PA."""
    return pa_mods(me) if weapon.stat == "pa" else Mods()


def pa_mods(me: TowersCombatant) -> Mods:
    """The PA change, on any flip of PA: an attack's or a Grapple Test's."""
    if not me.stance:
        return Mods()
    return Mods().plus(flip=STANCES[me.stance][0], why=say("{stance} stance", stance=term(me.stance)))


def defense_mods(me: TowersCombatant, stat: str) -> Mods:
    """The PD change, on defences that flip PD (not ID)."""
    if not me.stance or stat != "pd":
        return Mods()
    return Mods().plus(flip=STANCES[me.stance][1], why=say("{stance} stance", stance=term(me.stance)))
