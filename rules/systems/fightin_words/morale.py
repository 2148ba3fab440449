"""Morale damage against Will, and the Broken state.

More than Minimum Will: a morale penalty (Will −1). More than Will: by type,
Fear → Panicked, Insanity → Confused (until a penalty is removed), Rage →
raging, untyped → two penalties instead. Will 0 → Broken: helpless, a Spirit
check each round against DC 10 that falls by 1 on every failure.
"""

from __future__ import annotations

from rules.model import Event
from rules.numbers import added
from rules.randomness import Chance
from rules.said import N_, say, say_plural, term
from rules.secrets import secret
from rules.text import Text
from rules.usertext import listed

from .model import Condition, Fighter
from .rolls import d6_check
from .sheet import minimum_will, pair, will

KINDS = {N_("fear"): N_("panicked"), N_("insanity"): N_("confused"), N_("rage"): N_("raging")}
# The kinds capitalised, as the lines show them, for extraction.
SHOWN_KINDS = (N_("Untyped"), N_("Fear"), N_("Insanity"), N_("Rage"))
BROKEN_DC = 10


def max_penalties(f: Fighter) -> int:
    return max(0, f.sheet.spirit + 6 + f.sheet.will_bonus)


def take(enc, cid: str, amount: int, kind: str | None, text: Text) -> tuple[object, list[Event]]:
    f: Fighter = enc.get(cid)
    w, least = will(f), minimum_will(f)
    taken = dict(
        who=f.name,
        kind=term((kind or "untyped").capitalize()),
        roll=text,
        will=secret(pair(w, least), f),
    )
    penalties, condition = 0, None
    if amount > w:
        if kind in KINDS:
            penalties, condition = 1, KINDS[kind]
            head = say(
                "{who}: {kind} morale damage {roll} vs Will {will}: Will beaten → morale penalty and {condition}.",
                condition=term(condition.capitalize()),
                **taken,
            )
        else:
            penalties = 2
            head = say(
                "{who}: {kind} morale damage {roll} vs Will {will}: Will beaten → two morale penalties.", **taken
            )
    elif amount > least:
        penalties = 1
        head = say("{who}: {kind} morale damage {roll} vs Will {will}: morale penalty.", **taken)
    else:
        head = say("{who}: {kind} morale damage {roll} vs Will {will}: no effect.", **taken)
    events = [Event(kind="roll", text=head)]
    conditions = list(f.conditions)
    current = next((c for c in conditions if c.name == condition), None)
    # A Will beaten lasts longer than a condition with rounds to run (the chart's Panicked for the round, a
    # GM's timed confusion): insanity confuses "until at least one morale penalty has been removed".
    if condition and (current is None or current.rounds is not None):
        note = "until a morale penalty is removed" if condition == "confused" else ""
        conditions = [c for c in conditions if c.name != condition]
        conditions.append(Condition(name=condition, note=note))
    f = f.but(morale_penalties=min(max_penalties(f), f.morale_penalties + penalties), conditions=tuple(conditions))
    enc = enc.with_combatant(f)
    if penalties:
        now = secret(pair(will(f), minimum_will(f)), f)
        events.append(Event(kind="info", text=say("{who}'s Will is now {will}.", who=f.name, will=now)))
    enc, more = check_broken(enc, cid)
    return enc, events + more


def check_broken(enc, cid: str) -> tuple[object, list[Event]]:
    f: Fighter = enc.get(cid)
    if will(f) > 0 or any(c.name == "broken" for c in f.conditions):
        return enc, []
    f = f.but(conditions=f.conditions + (Condition(name="broken"),), broken_dc=BROKEN_DC)
    return enc.with_combatant(f), [
        Event(
            kind="info",
            text=say(
                "{who} is Broken: gives up, helpless, no actions or defence; a Spirit check each round (DC {dc}).",
                who=f.name,
                dc=BROKEN_DC,
            ),
        )
    ]


def recover(enc, cid: str, count: int) -> tuple[object, list[Event]]:
    """Remove morale penalties; insanity's confusion ends with the first one."""
    f: Fighter = enc.get(cid)
    count = min(count, f.morale_penalties)  # tells how many there were
    if count <= 0:
        return enc, []
    ending = tuple(
        c for c in f.conditions if (c.name == "confused" and c.note.startswith("until a morale")) or c.name == "broken"
    )
    conditions = tuple(c for c in f.conditions if c not in ending)
    f = f.but(morale_penalties=f.morale_penalties - count, conditions=conditions)
    recovered = secret(say_plural("{n} morale penalty", "{n} morale penalties", count, n=count), f)
    now = secret(pair(will(f), minimum_will(f)), f)
    events = [Event(kind="info", text=say("{who} recovers {what}: Will {will}.", who=f.name, what=recovered, will=now))]
    if ending:
        # said aloud: a confused character would otherwise expect the chart on their next turn
        line = say("{who} is no longer {conditions}.", who=f.name, conditions=listed(term(c.name) for c in ending))
        events.append(Event(kind="info", text=line))
    return enc.with_combatant(f), events


def broken_check(enc, cid: str, chance: Chance) -> tuple[object, list[Event]]:
    f: Fighter = enc.get(cid)
    die, total, ok = d6_check(chance, f, f.sheet.spirit, f.broken_dc)
    # The Broken DC is public (10, −1 a failure); Spirit and the total are not.
    rolled = dict(who=f.name, die=die, bonus=secret(added(f.sheet.spirit), f), total=secret(total, f), dc=f.broken_dc)
    if ok:
        # Broken ends before the penalty goes, so the recovery does not announce it a second time
        f = f.but(conditions=tuple(c for c in f.conditions if c.name != "broken"), broken_dc=BROKEN_DC)
        enc, more = recover(enc.with_combatant(f), cid, 1)
        text = say("{who} (Broken): Spirit d6 {die} {bonus} = {total} vs DC {dc}: no longer Broken.", **rolled)
        return enc, [Event(kind="roll", text=text)] + more
    dc = max(1, f.broken_dc - 1)
    text = say(
        "{who} (Broken): Spirit d6 {die} {bonus} = {total} vs DC {dc}: still Broken; DC falls to {next}.",
        next=dc,
        **rolled,
    )
    return enc.with_combatant(f.but(broken_dc=dc)), [Event(kind="roll", text=text)]
