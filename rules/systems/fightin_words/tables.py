"""The seed's tables: action times, called-shot locations, the confusion
chart, falling damage and surfaces, cover steps and range increments."""

from __future__ import annotations

from dataclasses import dataclass

from rules.said import N_

TURN_SECONDS = 6
MOUNT_SECONDS = 2
DISABLED_SECONDS = 3
ATTACK_SECONDS = 4
# Defaults where the seed gives two readings, each a campaign setting: standing up from prone takes 4 s in the
# time table, 2 in the prose; aiming 2 s ("Aim a ranged weapon", the prose), 1 ("Aim before a ranged attack").
STAND_FROM_PRONE = 4
AIM = 2
# A dying character's first Endurance check, each failure raising it by 1: "Dying" says DC 4, "with a -1
# penalty for every wound", the conditions' list DC 6 with no penalty (the campaign setting `first_dying_dc`).
FIRST_DYING_DC = 4
CONDITIONS_DYING_DC = 6
# The seed sets no limit on stacked mobility penalties: this one keeps counts sane (15 squares of speed).
MAX_MOBILITY_PENALTIES = 30


@dataclass(frozen=True, slots=True)
class Timed:
    label: str
    seconds: int
    verb: str


# The seed's example actions. Where it gives two times, the campaign settings pick (see STAND_FROM_PRONE, AIM).
ACTIONS: dict[str, Timed] = {
    N_("move"): Timed(N_("Move (1 s)"), 1, N_("moves")),
    N_("run"): Timed(N_("Run (3 s, straight line)"), 3, N_("runs")),
    N_("draw"): Timed(N_("Draw a weapon (1 s)"), 1, N_("draws a weapon")),
    N_("sheathe"): Timed(N_("Sheathe a weapon (1 s)"), 1, N_("sheathes a weapon")),
    N_("grab"): Timed(N_("Grab an object from a pack or pocket (2 s)"), 2, N_("grabs something from a pack")),
    N_("aim"): Timed(N_("Aim a ranged weapon (2 s by default)"), AIM, N_("aims")),
    N_("crouch"): Timed(N_("Crouch, or go from prone to crouch (1 s)"), 1, N_("crouches")),
    N_("prone"): Timed(N_("Go prone (1 s)"), 1, N_("goes prone")),
    N_("stand"): Timed(N_("Stand up (1 s from a crouch, 4 s from prone by default)"), 1, N_("stands up")),
    N_("cast"): Timed(N_("Cast a spell (4 s; options: spell=name delay=seconds)"), 4, N_("casts")),
    N_("reload"): Timed(N_("Reload (4 s, +4 per scale the weapon is larger: options: larger=N)"), 4, N_("reloads")),
    N_("crawl"): Timed(N_("Crawl one square while disabled (4 s)"), 4, N_("crawls")),
    N_("talk"): Timed(N_("Talk (0 s)"), 0, N_("talks")),
    N_("drop"): Timed(N_("Drop a held object (0 s)"), 0, N_("drops what they hold")),
    # "2 seconds of effort every round": the round the rider takes the reins included
    N_("mount"): Timed(
        N_("Mount up: steering costs 2 s every turn, this one included (2 s)"), MOUNT_SECONDS, N_("takes the reins")
    ),
    N_("dismount"): Timed(N_("Stop steering a mount (0 s)"), 0, N_("lets go of the reins")),
    N_("spend"): Timed(N_('Anything else: options seconds=N what="…"'), 0, N_("acts")),
}


@dataclass(frozen=True, slots=True)
class Location:
    target: int  # added to the Target score
    toughness: int  # added to Toughness and Minimum Toughness for this hit
    minimum: str  # what beating Minimum Toughness does
    full: str  # what beating Toughness does
    minimum_wound: bool = True
    full_dying: bool = False  # False: the location's own effect replaces Dying
    minimum_check: str = ""  # Fortitude (DC = damage) against this, on a minimum hit
    full_check: str = ""  # … on a full hit


LOCATIONS: dict[str, Location] = {
    N_("leg"): Location(
        1,
        -1,
        N_("speed −1 square"),
        N_("speed −1 more square, the leg cannot make unarmed attacks (all legs hurt: crawl only)"),
        full_check=N_("fall prone"),
    ),
    N_("arm"): Location(
        1, -1, "", N_("the arm cannot carry objects, weapons or shields, nor attack unarmed, until healed")
    ),
    N_("hand"): Location(
        2,
        -2,
        N_("−1 to attacks made with this hand"),
        N_("the hand cannot carry anything or attack unarmed until healed"),
        minimum_wound=False,
        minimum_check=N_("drop the held item"),
    ),
    N_("head"): Location(3, -3, "", "", full_dying=True, minimum_check=N_("be Staggered for one round")),
    N_("critical"): Location(3, -3, "", "", full_dying=True),
    N_("torso"): Location(0, 0, "", "", full_dying=True),
    N_("wings"): Location(-1, -3, N_("flight speed −1 square"), N_("the creature cannot fly"), minimum_wound=False),
}

CONFUSION: dict[int, str] = {
    1: N_("rolls again (ignoring further 1s) and stays confused 1d6 more rounds"),
    2: N_(
        "rolls a scatter die and uses the deadliest spell/combo/weapon the GM picks on the creature closest in that "
        "direction"
    ),
    3: N_("uses the deadliest spell/combo/weapon the GM picks on the creature they dislike most"),
    4: N_("uses the deadliest spell/combo/weapon the GM picks on the closest creature"),
    5: N_("is Panicked for this round"),
    6: N_("screams as loudly as they can while doing what a reroll says (ignoring 5s)"),
    7: N_("rolls a scatter die and throws whatever they hold at the creature closest in that direction"),
    8: N_("attacks the nearest creature once with their least powerful (but still harmful) attack"),
    9: N_("drops what they are holding"),
    10: N_("stares off into space"),
    11: N_("rolls a scatter die and walks that way (3 seconds of movement)"),
    12: N_("rolls a scatter die and runs that way"),
    13: N_("hallucinates ghostly attackers and attacks a random space: flanked for the round"),
    14: N_("falls prone"),
    15: N_("sits down (counts as a crouch)"),
    # The seed's chart leaves 16 and 17 blank above 18's "regains control for
    # the round"; they are read as part of that entry.
    16: N_("regains control for the round"),
    17: N_("regains control for the round"),
    18: N_("regains control for the round"),
    19: N_("regains control for 1d6 rounds"),
    20: N_("regains control for one minute"),
}

FALL_CAP = 12  # terminal velocity: nothing past 60 m adds damage
SURFACES: dict[str, int] = {
    N_("deep_water"): -12,
    N_("water"): -12,
    N_("very_soft"): -6,
    N_("snow"): -6,
    N_("trampoline"): -6,
    N_("soft"): -3,
    N_("mattress"): -3,
    N_("dumpster"): -3,
    N_("slightly_soft"): -1,
    N_("mud"): -1,
    N_("carpet"): -1,
    N_("hard"): 0,
    N_("concrete"): 0,
    N_("stone"): 0,
    N_("pavement"): 0,
    N_("hazardous"): 1,
    N_("glass"): 1,
    N_("spikes"): 3,
}
# "Falling damage is always Bludgeoning", save onto "Spikes or similar": "+3, and all damage is Piercing".
FALL_DAMAGE = N_("bludgeoning")
FALL_DAMAGE_ONTO: dict[str, str] = {N_("spikes"): N_("piercing")}

# A collision's damage: "+1 per 5 squares/second of speed the fastest-moving object (or creature) is moving at";
# a melee attack against or by a fast mover adds the same.
COLLISION_SPEED = 5
# Area attacks: "A successful dodge without the Evasion technique reduces damage by 3 points."
AREA_DODGE = 3

COVER: dict[str, int] = {N_("none"): 0, N_("light"): 1, N_("medium"): 2, N_("heavy"): 3, N_("total"): 4}
INVISIBLE_TARGET = 4  # total cover counts as invisibility
MAX_INCREMENTS = 4
SPEED_SQUARES = 30


def fall_bonus(metres: int) -> int:
    """+1 per 5 m fallen, counting a started 5 m, up to the cap."""
    return min(FALL_CAP, max(0, -(-metres // 5)))


def range_penalty(distance: int, increment: int) -> int | None:
    """Full doublings of the increment needed to reach `distance`; None if beyond the maximum."""
    steps, reach = 0, increment
    while distance > reach:
        steps += 1
        reach *= 2
        if steps > MAX_INCREMENTS:
            return None
    return steps
