"""The seed's combat modifiers, from the attack's flags and tracked state."""

from __future__ import annotations

import math

from rules.commands import integer
from rules.errors import InvalidInput
from rules.said import Text, say, term
from rules.secrets import secret

from .flips import Mods
from .model import TowersCombatant
from .sheet import Weapon
from .stance import attack_mods as stance_attack
from .stance import defense_mods as stance_defense

MAX_INCREMENTS = 4
MELEE_SPACES = 1  # an adjacent foe is 1 space away
# The `options:` words the modifiers read (commands.py declares them): an attack's, then a defence's.
UNAWARE = ("unaware", "concealed", "concealment", "hidden")
HIGH_GROUND = ("high", "elevation", "high_ground", "higher")
OFF_HAND = ("offhand", "off_hand")
ATTACK_WORDS = ("range", "outnumber", *UNAWARE, *HIGH_GROUND, *OFF_HAND, "flip", "shift")
DEFENSE_WORDS = ("cover", "dflip", "dshift")


def range_mods(weapon: Weapon, spaces: int) -> Mods:
    """Range increments: 1 none, 2 (shift−1), 3 (flip−1), 4 both, beyond impossible. A perception power
    takes no penalty "due to range", yet still reaches no further: "The target(s) must be within range".
    A melee weapon reaches the adjacent space (ranges count from "a space adjacent to the attacker"); how far
    Reach goes the seed does not say, so a Reach weapon is left to the GM."""
    if weapon.melee:
        if spaces > MELEE_SPACES and "reach" not in weapon.keywords:
            raise InvalidInput(
                say(
                    "{weapon} is a melee weapon: it strikes an adjacent space, not one {spaces} spaces away.",
                    weapon=weapon.shown,
                    spaces=spaces,
                )
            )
        return Mods()
    if weapon.stat == "sa":
        if spaces > weapon.range:
            raise InvalidInput(
                say(
                    "{weapon} reaches at most {range} spaces ({spaces} asked).",
                    weapon=weapon.shown,
                    range=weapon.range,
                    spaces=spaces,
                )
            )
        return Mods()
    increments = max(1, math.ceil(spaces / weapon.range))
    if increments > MAX_INCREMENTS:
        raise InvalidInput(
            say(
                "{spaces} spaces is beyond {weapon}'s reach: {n} range increments of {range} = {most} spaces.",
                spaces=spaces,
                weapon=weapon.shown,
                n=MAX_INCREMENTS,
                range=weapon.range,
                most=MAX_INCREMENTS * weapon.range,
            )
        )
    return Mods() if weapon.perception else increment_mods(spaces, increments)


def increment_mods(spaces: int, increments: int) -> Mods:
    """The penalty of the range increment an attack reaches: 2 (shift−1), 3 (flip−1), 4 both."""
    flip = -1 if increments >= 3 else 0
    shift = -1 if increments in (2, 4) else 0
    return Mods().plus(flip, shift, say("range {spaces} = increment {n}", spaces=spaces, n=increments))


def throw_range_mods(flags: dict) -> Mods:
    """A throw's `range=`: "Range increments for the thrown object will be equal to the maximum range
    divided by 4". The maximum comes from the thrower's Aspects, which the bot does not hold: `max=`."""
    if "range" not in flags:
        return Mods()
    if "max" not in flags:
        raise InvalidInput(
            say(
                "A throw's range increments are a quarter of its maximum range: give both, "
                'e.g. options:"range=6 max=12".'
            )
        )
    spaces = integer(flags["range"], "range", 0, 10_000)
    most = integer(flags["max"], "max", 1, 10_000)
    if spaces > most:
        raise InvalidInput(
            say("{spaces} spaces is beyond the throw's maximum range of {most}.", spaces=spaces, most=most)
        )
    return increment_mods(spaces, max(1, math.ceil(spaces * MAX_INCREMENTS / most)))


def size_shift(combatant: TowersCombatant) -> int:
    """Size modifiers are the inverse of the size rank."""
    return -combatant.sheet.size


def outnumber_mods(value: str | bool) -> Mods:
    text = str(value)
    friends, _, enemies = text.partition(":")
    ours = integer(friends, "outnumber", 0, 100)
    theirs = integer(enemies or 1, "outnumber", 1, 100)
    why = say("outnumbering {ours}:{theirs}", ours=ours, theirs=theirs)
    if ours >= 2 * theirs:
        return Mods().plus(flip=1, why=why)
    if ours > theirs:
        return Mods().plus(shift=1, why=why)
    return Mods()


def cover_mods(value: str | bool) -> Mods:
    kind = str(value).casefold()
    if kind in ("soft", "half", "true"):
        return Mods().plus(shift=1, why=say("soft cover"))
    if kind in ("hard", "three-quarters", "heavy"):
        return Mods().plus(flip=1, shift=1, why=say("hard cover"))
    if kind == "total":
        raise InvalidInput(say("The target has total cover: there is no line to attack along."))
    raise InvalidInput(say("cover must be soft, hard or total."))


def user_mods(flags: dict, flip_key: str, shift_key: str, why: Text) -> Mods:
    mods = Mods()
    if flip_key in flags:
        mods = mods.plus(flip=integer(flags[flip_key], flip_key, -20, 20), why=why)
    if shift_key in flags and flags[shift_key] is not True:
        mods = mods.plus(shift=integer(flags[shift_key], shift_key, -20, 20), why=why)
    return mods


def full_defense_mods(combatant: TowersCombatant) -> Mods:
    """Full Defense: "+1 Defense for all opposed combat checks", a grapple's as much as an attack's. A Defense
    (PD, ID) is how many cards the defender flips, so +1 is one card more (flip+1), as a stance's +1 PD is."""
    return Mods().plus(flip=1, why=say("full defense")) if combatant.full_defense else Mods()


def reckless_mods(combatant: TowersCombatant) -> Mods:
    """Reckless Move: (flip−1) on every opposed combat check until the mover next acts, attacking
    (an opportunity attack, a grappler's hold) as much as defending."""
    return Mods().plus(flip=-1, why=say("reckless move")) if combatant.reckless else Mods()


def attack_mods(attacker: TowersCombatant, weapon: Weapon, style: str, flags: dict, modifier: int) -> Mods:
    mods = Mods()
    if weapon.cards:
        mods = mods.plus(flip=weapon.cards, why=weapon.shown)
    if attacker.aim and attacker.aim_stat == weapon.stat:
        mods = mods.plus(flip=attacker.aim, why=say("aim"))
    if attacker.grappled:
        mods = mods.plus(flip=-1, why=say("grappled"))
    mods = mods + reckless_mods(attacker)
    if style == "aid":
        mods = mods.plus(flip=1, why=say("aid"))
    if style == "power attack":
        mods = mods.plus(flip=-1, why=say("power attack"))
    if "range" in flags:
        mods = mods + range_mods(weapon, integer(flags["range"], "range", 0, 10_000))
    if not weapon.perception and attacker.sheet.size:
        mods = mods.plus(shift=size_shift(attacker), why=say("size {size:+d}", size=attacker.sheet.size))
    if "outnumber" in flags:
        mods = mods + outnumber_mods(flags["outnumber"])
    if any(flags.get(k) for k in UNAWARE):
        mods = mods.plus(flip=1, why=say("target unaware"))
    if any(flags.get(k) for k in HIGH_GROUND):
        mods = mods.plus(shift=1, why=say("high ground"))
    if any(flags.get(k) for k in OFF_HAND):
        mods = mods.plus(flip=-1, why=say("off hand"))
    mods = mods + stance_attack(attacker, weapon)
    if modifier:
        mods = mods.plus(shift=modifier, why=say("modifier"))
    return mods + user_mods(flags, "flip", "shift", say("GM"))


def defense_mods(
    defender: TowersCombatant, attacker: TowersCombatant, weapon: Weapon, flags: dict, stat: str = "pd"
) -> Mods:
    mods = stance_defense(defender, stat)
    if not weapon.perception and defender.sheet.size:
        mods = mods.plus(shift=size_shift(defender), why=say("size {size:+d}", size=defender.sheet.size))
    if "cover" in flags and not weapon.perception:
        mods = mods + cover_mods(flags["cover"])
    return mods + own_defense_mods(defender, attacker) + user_mods(flags, "dflip", "dshift", say("GM"))


def defense_base(defender: TowersCombatant, stat: str) -> tuple[int, Text]:
    """The defence's cards and its label; shown, the base goes through `secret(base, defender)`."""
    value = getattr(defender.sheet, stat)
    if stat == "pd" and defender.flat_footed and defender.sheet.ss:
        # Flat-footed: no Soft Strength bonus to PD.
        label = say(
            "PD {pd} − SS {ss} flat-footed =", pd=secret(value, defender), ss=secret(defender.sheet.ss, defender)
        )
        return max(0, value - defender.sheet.ss), label
    return value, term(stat.upper())


def aid_spent(enc, defender: TowersCombatant, attacker: TowersCombatant):
    """An Aid counts on one defensive flip against the aided ally only."""
    return enc.update(defender.id, aided_for=None) if defender.aided_for == attacker.id else enc


def posture_mods(defender: TowersCombatant) -> Mods:
    """What the defender's own doings bring to every defensive flip, an attack's, a Grapple Test's or
    an effect's resisted with PD or ID: Full Defense, a Reckless Move, a Power Attack made ("(flip-1)
    to Defense scores")."""
    mods = full_defense_mods(defender) + reckless_mods(defender)
    if defender.power_attacked:
        mods = mods.plus(flip=-1, why=say("after a power attack"))
    return mods


def own_defense_mods(defender: TowersCombatant, attacker: TowersCombatant) -> Mods:
    """The defender's posture, and an ally's Aid ("his next defensive flip against your chosen ally")."""
    mods = posture_mods(defender)
    if defender.aided_for == attacker.id:
        mods = mods.plus(flip=-1, why=say("aided against"))
    return mods
