"""Conditions and their per-turn and per-round mechanics.

Staggered: each turn, d6 seconds stunned (seconds taken from the turn).
Stunned: N seconds taken from the turn. Confused: a d20 on the seed's chart at
the start of each turn, posted for everyone; its falls (14 prone, 15 sitting
down) set the posture. Rounds-based durations tick down at the end of each
round; one put on after its bearer's turn in the round counts from the
bearer's next turn.
"""

from __future__ import annotations

import re
from typing import Literal

from rules.errors import InvalidInput
from rules.model import Event
from rules.randomness import Chance
from rules.said import N_, say, say_plural, term
from rules.text import Raw, Text
from rules.usertext import listed, quoted

from .model import Condition, Fighter
from .rolls import die
from .sheet import has, unconscious
from .tables import CONFUSION, MOUNT_SECONDS

KNOWN = {
    N_("flat-footed"): N_("cannot make defence rolls"),
    N_("confused"): N_("rolls on the confusion chart every turn"),
    N_("panicked"): N_("flees the source of fear as fast as possible; may still defend"),
    N_("raging"): N_("attacks the source of rage; −1 to Dexterity and Intelligence skills; cannot cast or concentrate"),
    N_("stunned"): N_("loses that many seconds (can still defend)"),
    N_("staggered"): N_("stunned for d6 seconds every turn"),
    N_("disabled"): N_("only 3 seconds a turn; crawls (4 s a square); no combos"),
    N_("broken"): N_("gives up: helpless"),
    N_("helpless"): N_("melee attacks hit automatically; no defence rolls"),
    N_("unconscious"): N_("helpless"),
    N_("sleeping"): N_("helpless; −6 Perception"),
    N_("held"): N_("no block or parry; dodge at −1"),
    N_("flanked"): N_("−1 to all defence rolls"),
    N_("mobility penalty"): N_("−1 Acrobatics, Athletics, Wrestle, Stealth and ½ square of speed each"),
    N_("lucid"): N_("confusion paused: in control"),
}
# The conditions capitalised, as the lines show them, for extraction.
SHOWN = (
    N_("Flat-footed"),
    N_("Confused"),
    N_("Panicked"),
    N_("Raging"),
    N_("Stunned"),
    N_("Staggered"),
    N_("Disabled"),
    N_("Broken"),
    N_("Helpless"),
    N_("Unconscious"),
    N_("Sleeping"),
    N_("Held"),
    N_("Flanked"),
    N_("Mobility penalty"),
    N_("Lucid"),
)
ALIASES = {
    "flatfooted": "flat-footed",
    "flat_footed": "flat-footed",
    "surprised": "flat-footed",
    "rage": "raging",
    "panic": "panicked",
    "stun": "stunned",
    "stagger": "staggered",
    "asleep": "sleeping",
    "mobility": "mobility penalty",
    "mobility_penalty": "mobility penalty",
    "mobility_penalties": "mobility penalty",
    "confusion": "confused",
}
SPECIAL = (N_("dying"), N_("stable"), N_("prone"), N_("crouching"), N_("wound"), N_("morale penalty"))


WAKING = ("unconscious", "sleeping")  # the conditions one wakes up from, flat-footed

MAX_STUNNED = 60  # seconds: ten rounds
MAX_ROUNDS = 100

# The chart's results that change the posture: 14 falls prone, 15 sits down ("counts as a crouch").
FALLS: dict[int, Literal["crouching", "prone"]] = {14: "prone", 15: "crouching"}
# The chart's results that put a condition on for the round: "5 Creature is Panicked for this round",
# "13 [...] The character is flanked for the round."
FOR_THE_ROUND = {5: "panicked", 13: "flanked"}


def canonical(name: str) -> str:
    key = " ".join((name or "").strip().casefold().replace("_", " ").split())
    key = ALIASES.get(key.replace(" ", "_"), ALIASES.get(key, key))
    if key in KNOWN or key in SPECIAL:
        return key
    known = listed(term(k) for k in sorted(KNOWN) + list(SPECIAL))
    raise InvalidInput(
        say("Unknown condition {name}. Fightin' Words knows: {known}.", name=quoted(name or ""), known=known)
    )


def mobility(n: int) -> Text:
    """What `n` mobility penalties take off: "subtracted from your bonus to [...] Acrobatics, Athletics,
    Wrestle, and Stealth. Each mobility penalty also subtracts half a square of movement from your speed." """
    if not n:
        return say("no more penalty to Acrobatics, Athletics, Wrestle, Stealth or speed")
    squares = Raw(f"{n // 2 or ''}{'½' if n % 2 else ''}")
    # ½ and 1 square are one, 1½ and up are more
    return say_plural(
        "−{n} Acrobatics, Athletics, Wrestle, Stealth; −{squares} square of speed",
        "−{n} Acrobatics, Athletics, Wrestle, Stealth; −{squares} squares of speed",
        (n + 1) // 2,
        n=n,
        squares=squares,
    )


def mobility_penalties(n: int) -> Text:
    """`n` mobility penalties and what they take off, as /character show lists them."""
    return say(
        "{penalties}: {effect}",
        penalties=say_plural("{n} mobility penalty", "{n} mobility penalties", n, n=n),
        effect=mobility(n),
    )


def rounds_of(duration: str | None) -> int | None:
    """`3 rounds` / `3` → 3; empty, `scene` or `save` → until removed."""
    text = (duration or "").strip().casefold()
    if not text or text in ("scene", "save", "until removed"):
        return None
    match = re.fullmatch(r"(\d+)\s*(rounds?|r)?", text)
    if not match:
        raise InvalidInput(
            say("Give the duration as a number of rounds (`3 rounds`), or leave it empty for 'until removed'.")
        )
    rounds = int(match.group(1))
    if not 1 <= rounds <= MAX_ROUNDS:  # taken as typed, or refused: never 0 rounds read as 1
        raise InvalidInput(say("A condition lasts 1 to {most} rounds, e.g. duration `3 rounds`.", most=MAX_ROUNDS))
    return rounds


def seconds_of(duration: str | None) -> int:
    match = re.fullmatch(r"\s*(\d+)\s*(s|sec|secs|seconds?)?\s*", duration or "")
    if not match:
        raise InvalidInput(say("Stunned needs a number of seconds, e.g. duration `3 seconds`."))
    seconds = int(match.group(1))
    if not 1 <= seconds <= MAX_STUNNED:  # taken as typed, or refused: never 0 s read as 1
        raise InvalidInput(say("Stunned lasts 1 to {most} seconds, e.g. duration `3 seconds`.", most=MAX_STUNNED))
    return seconds


def turn_passed(enc, cid: str) -> bool:
    """Whether the combatant's turn has come this round (taken, passed, delayed, or going on)."""
    state = enc.turns
    return any(cid in slot for slot in state.slots[: state.index + 1])


def timed(enc, cid: str, name: str, rounds: int | None) -> Condition:
    """A condition lasting `rounds` rounds of the bearer's, from now."""
    return Condition(name=name, rounds=rounds, waiting=rounds is not None and turn_passed(enc, cid))


def with_condition(f: Fighter, condition: Condition) -> Fighter:
    rest = tuple(c for c in f.conditions if c.name != condition.name)
    return f.but(conditions=rest + (condition,))


def without(f: Fighter, name: str) -> Fighter:
    return f.but(conditions=tuple(c for c in f.conditions if c.name != name))


def confusion(f: Fighter, chance: Chance) -> tuple[Fighter, Text]:
    """Roll the chart; 1 rerolls (no more 1s) and adds d6 rounds, 6 rerolls (no 5s) screaming."""
    parts: list[Text] = []
    ignore: set[int] = set()
    scream = False
    for _ in range(20):
        roll = die(chance, f, 20)
        parts.append(Raw(str(roll)))
        if roll in ignore:
            continue
        if roll == 1:
            extra = die(chance, f, 6)
            parts.append(say_plural("+{n} round (d6)", "+{n} rounds (d6)", extra, n=extra))
            current = next((c for c in f.conditions if c.name == "confused"), None)
            if current and current.rounds is not None:
                f = with_condition(f, current.but(rounds=current.rounds + extra))
            ignore.add(1)
            continue
        if roll == 6 and not scream:
            scream = True
            ignore.update((5, 6))
            continue
        result: Text = term(CONFUSION[roll])
        if roll == 19:
            lucid = die(chance, f, 6)
            parts.append(Raw(f"d6 {lucid}"))
            f = with_condition(f, Condition(name="lucid", rounds=lucid))
            result = say_plural("regains control for {n} round", "regains control for {n} rounds", lucid, n=lucid)
        elif roll == 20:
            f = with_condition(f, Condition(name="lucid", rounds=10))
        elif roll in FALLS:
            # Attacks read the posture for the Target score, so the chart's fall must move it.
            f = f.but(posture=FALLS[roll])
        elif roll in FOR_THE_ROUND and not has(f, FOR_THE_ROUND[roll]):
            # Defences read flanked; one already on (until removed) is not cut short.
            f = with_condition(f, Condition(name=FOR_THE_ROUND[roll], rounds=1))
        rolls = listed(parts)
        if scream:
            return f, say(
                "d20 {rolls}: {who} {result}, screaming as loudly as they can", rolls=rolls, who=f.name, result=result
            )
        return f, say("d20 {rolls}: {who} {result}", rolls=rolls, who=f.name, result=result)
    return f, say("d20 {rolls}: the GM decides what {who} does", rolls=listed(parts), who=f.name)


def tick(f: Fighter) -> tuple[Fighter, list[str]]:
    """End of a round: durations fall by one (save those put on after the bearer's turn);
    expired conditions go."""
    kept, gone = [], []
    for c in f.conditions:
        if c.rounds is None:
            kept.append(c)
        elif c.waiting:
            kept.append(c.but(waiting=False))
        elif c.rounds <= 1:
            gone.append(c.name)
        else:
            kept.append(c.but(rounds=c.rounds - 1))
    return f.but(conditions=tuple(kept)), gone


def woken(f: Fighter, gone: list[str]) -> Fighter | None:
    """`f` flat-footed for the coming round if an unconsciousness or sleep just ran out and left them awake
    ("When a character first wakes up from being unconscious [or asleep], he is flat-footed for one round"),
    else None. Called at a round's end, so the round to come is the one."""
    if not any(name in WAKING for name in gone) or unconscious(f) or has(f, "sleeping"):
        return None
    return with_condition(f, Condition(name="flat-footed", rounds=1))


def turn_start(system, enc, cid: str, chance: Chance) -> tuple[object, list[Event]]:
    f: Fighter = enc.get(cid)
    events: list[Event] = []
    surprise = next((c for c in f.conditions if c.name == "flat-footed" and c.note == "surprised"), None)
    if surprise:
        f = without(f, "flat-footed")
        events.append(Event(kind="info", text=say("{who} is no longer flat-footed.", who=f.name)))
    enc = enc.with_combatant(f)
    if f.mounted:
        # "2 seconds of effort every round": a round's, never the next one's
        enc, more = system.turns.lose(system, enc, cid, MOUNT_SECONDS, say("steering the mount"), chance, spill=False)
        events.extend(more)
    if any(c.name == "staggered" for c in f.conditions):
        stunned = die(chance, f, 6)
        events.append(
            Event(kind="roll", text=say("{who} is Staggered: d6 {n} → stunned {n} s.", who=f.name, n=stunned))
        )
        # "rolls 1d6 every round": each round's stun is that round's, never carried into the next
        why = say("stunned, staggered d6 {n}", n=stunned)
        enc, more = system.turns.lose(system, enc, cid, stunned, why, chance, spill=False)
        events.extend(more)
    f = enc.get(cid)
    if any(c.name == "confused" for c in f.conditions):
        if any(c.name == "lucid" for c in f.conditions):
            events.append(Event(kind="info", text=say("{who} is confused but in control this round.", who=f.name)))
        else:
            f, text = confusion(f, chance)
            enc = enc.with_combatant(f)
            events.append(
                Event(kind="roll", text=say("🌀 Confusion: {result}.", result=text), ping=enc.controllers([cid]))
            )
    for name in ("panicked", "raging"):
        if any(c.name == name for c in f.conditions):
            line = say(
                "{who} is {condition}: {effect}.",
                who=f.name,
                condition=term(name.capitalize()),
                effect=term(KNOWN[name]),
            )
            events.append(Event(kind="info", text=line))
    return enc, events
