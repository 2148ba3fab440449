"""The seed's tables: action times, called-shot locations, the confusion
chart, falling damage and surfaces, cover steps and range increments."""

from __future__ import annotations

from dataclasses import dataclass

from rules.said import N_

TURN_SECONDS = 6
MOUNT_SECONDS = 2
DISABLED_SECONDS = 3
ATTACK_SECONDS = 4


@dataclass(frozen=True, slots=True)
class Timed:
    label: str
    seconds: int
    verb: str


# The seed's example actions. Standing up from prone follows the time table
# (4 s) rather than the prose (2 s), as SYSTEMS.md does.
ACTIONS: dict[str, Timed] = {
    "move": Timed(N_("Move (1 s)"), 1, N_("moves")),
    "run": Timed(N_("Run (3 s, straight line)"), 3, N_("runs")),
    "draw": Timed(N_("Draw a weapon (1 s)"), 1, N_("draws a weapon")),
    "sheathe": Timed(N_("Sheathe a weapon (1 s)"), 1, N_("sheathes a weapon")),
    "grab": Timed(N_("Grab an object from a pack or pocket (2 s)"), 2, N_("grabs something from a pack")),
    "aim": Timed(N_("Aim a ranged weapon (2 s)"), 2, N_("aims")),
    "crouch": Timed(N_("Crouch, or go from prone to crouch (1 s)"), 1, N_("crouches")),
    "prone": Timed(N_("Go prone (1 s)"), 1, N_("goes prone")),
    "stand": Timed(N_("Stand up (1 s from a crouch, 4 s from prone)"), 1, N_("stands up")),
    "cast": Timed(N_("Cast a spell (4 s; options: spell=name delay=seconds)"), 4, N_("casts")),
    "reload": Timed(N_("Reload (4 s, +4 per scale the weapon is larger: options: larger=N)"), 4, N_("reloads")),
    "crawl": Timed(N_("Crawl one square while disabled (4 s)"), 4, N_("crawls")),
    "talk": Timed(N_("Talk (0 s)"), 0, N_("talks")),
    "drop": Timed(N_("Drop a held object (0 s)"), 0, N_("drops what they hold")),
    "mount": Timed(N_("Mount up: steering costs 2 s every turn (0 s)"), 0, N_("takes the reins")),
    "dismount": Timed(N_("Stop steering a mount (0 s)"), 0, N_("lets go of the reins")),
    "spend": Timed('Anything else: options seconds=N what="…"', 0, "acts"),
}
STAND_FROM_PRONE = 4


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
    "leg": Location(
        1,
        -1,
        "speed −1 square",
        "speed −1 more square, the leg cannot make unarmed attacks (all legs hurt: crawl only)",
        full_check="fall prone",
    ),
    "arm": Location(1, -1, "", "the arm cannot carry objects, weapons or shields, nor attack unarmed, until healed"),
    "hand": Location(
        2,
        -2,
        "−1 to attacks made with this hand",
        "the hand cannot carry anything or attack unarmed until healed",
        minimum_wound=False,
        minimum_check="drop the held item",
    ),
    "head": Location(3, -3, "", "", full_dying=True, minimum_check="be Staggered for one round"),
    "critical": Location(3, -3, "", "", full_dying=True),
    "torso": Location(0, 0, "", "", full_dying=True),
    "wings": Location(-1, -3, "flight speed −1 square", "the creature cannot fly", minimum_wound=False),
}

CONFUSION: dict[int, str] = {
    1: "rolls again (ignoring further 1s) and stays confused 1d6 more rounds",
    2: "rolls a scatter die and uses the deadliest spell/combo/weapon the GM picks on the creature closest in that "
    "direction",
    3: "uses the deadliest spell/combo/weapon the GM picks on the creature they dislike most",
    4: "uses the deadliest spell/combo/weapon the GM picks on the closest creature",
    5: "is Panicked for this round",
    6: "screams as loudly as they can while doing what a reroll says (ignoring 5s)",
    7: "rolls a scatter die and throws whatever they hold at the creature closest in that direction",
    8: "attacks the nearest creature once with their least powerful (but still harmful) attack",
    9: "drops what they are holding",
    10: "stares off into space",
    11: "rolls a scatter die and walks that way (3 seconds of movement)",
    12: "rolls a scatter die and runs that way",
    13: "hallucinates ghostly attackers and attacks a random space: flanked for the round",
    14: "falls prone",
    15: "sits down (counts as a crouch)",
    # The seed's chart leaves 16 and 17 blank above 18's "regains control for
    # the round"; they are read as part of that entry.
    16: "regains control for the round",
    17: "regains control for the round",
    18: "regains control for the round",
    19: "regains control for 1d6 rounds",
    20: "regains control for one minute",
}

FALL_CAP = 12  # terminal velocity: nothing past 60 m adds damage
SURFACES: dict[str, int] = {
    "deep_water": -12,
    "water": -12,
    "very_soft": -6,
    "snow": -6,
    "trampoline": -6,
    "soft": -3,
    "mattress": -3,
    "dumpster": -3,
    "slightly_soft": -1,
    "mud": -1,
    "carpet": -1,
    "hard": 0,
    "concrete": 0,
    "stone": 0,
    "pavement": 0,
    "hazardous": 1,
    "glass": 1,
    "spikes": 3,
}

COVER: dict[str, int] = {"none": 0, "light": 1, "medium": 2, "heavy": 3, "total": 4}
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
