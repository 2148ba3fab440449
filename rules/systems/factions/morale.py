"""Morale at the end of the round, and surrendering.

A group reduced in this round to half or fewer of its numbers, or a lone
character reduced in this round to half or less of its max health, makes a
group WIT save: those who fail surrender or flee (their controller chooses;
one held by a grabber cannot flee, so surrenders), those who pass are immune
for the rest of the fight. The fearless are immune.
"""

from __future__ import annotations

import copy

from rules.errors import DiceError, NotAllowed
from rules.model import Choice, Event, Pending, former_keys
from rules.randomness import Chance
from rules.said import N_, cut, joined, say, seq
from rules.usertext import listed_first

from . import manoeuvres
from .model import FactionsEncounter
from .saves import save

SURRENDER, FLEE = "surrender", "flee"  # the keys of the question a broken character answers
former_keys("morale", {"Surrender": SURRENDER, "Flee": FLEE})


def factions(enc: FactionsEncounter) -> list[str]:
    seen: list[str] = []
    for fighter in enc.combatants:
        if fighter.side not in seen:
            seen.append(fighter.side)
    return seen


def mark_round_start(enc: FactionsEncounter) -> FactionsEncounter:
    """Remember numbers and health as they are when the round begins: wounds carried into the
    fight are not a loss "in the past round". An ambush's bonus round (round 0) counts with
    round 1, so round 1 keeps what was remembered when the bonus round began."""
    if enc.round == 1 and enc.standing_at_round_start:
        return enc
    standing = {f: enc.standing_count(f) for f in factions(enc)}
    fighters = tuple(c.but(health_at_round_start=c.health) for c in enc.combatants)
    return enc.but(standing_at_round_start=standing, combatants=fighters)


def shaken(enc: FactionsEncounter) -> list[str]:
    """Factions whose morale must be checked this round end."""
    due = []
    for faction in factions(enc):
        members = enc.members(faction)
        total = len(members)
        if total == 1:
            lone = members[0]
            if lone.standing and 2 * lone.health <= lone.max_health < 2 * lone.health_at_round_start:
                due.append(faction)
        else:
            before = enc.standing_at_round_start.get(faction, total)
            if 2 * enc.standing_count(faction) <= total < 2 * before:
                due.append(faction)
    return due


ROLL = "roll"  # the key of the morale check's one option
QUESTION_NAMES = 5  # of each group, in the question: the channel's line names them all
QUESTION_LIMIT = 600
former_keys("morale_roll", {"Roll": ROLL})


def due(enc: FactionsEncounter) -> list[tuple[str, list[str]]]:
    """(faction, members making the save) for every faction whose morale is checked now."""
    checks = []
    for faction in shaken(enc):
        saving = [c.id for c in enc.members(faction) if c.standing and not c.fearless and not c.morale_immune]
        if saving:
            checks.append((faction, saving))
    return checks


def check(enc: FactionsEncounter, chance: Chance):
    """At the round's end. Dice entered with the command that ends the round are the saves when
    the GM sent it; a player's dice roll only their own characters' saves. Saves without dice get
    a choice for whoever rolls them (the GM for NPCs): press Roll or enter the d20s, whichever
    command ended the round."""
    checks = due(enc)
    if not checks:
        return enc, []
    sender = getattr(chance, "entered_by", None)
    if not chance.entered_dice_left():
        return _ask_roll(enc, checks, [])
    if sender is None or sender.is_gm:
        return roll(enc, checks, chance)
    mine, others = _shares(enc, checks, sender)
    if not mine:
        raise DiceError(say(OWN_DICE))
    _refuse_others_dice(chance, mine, others)
    return _roll_then_ask(enc, mine, others, chance, [])


OWN_DICE = N_(
    "Morale dice roll only your own characters' saves: the others' players (the GM for NPCs) "
    "roll theirs with the Roll button or `/choose option:Roll dice:…`."
)


def _shares(enc: FactionsEncounter, checks, sender) -> tuple[list, list]:
    """The saves a player rolls (their own characters') and the others', each faction by faction."""
    mine = _only(checks, lambda cid: enc.get(cid).controller_id == sender.user_id)
    others = _only(checks, lambda cid: enc.get(cid).controller_id != sender.user_id)
    return mine, others


def _refuse_others_dice(chance: Chance, mine, others) -> None:
    if others and chance.entered_dice_left() > sum(len(m) for _, m in mine):
        raise DiceError(say(OWN_DICE))


def _roll_then_ask(enc: FactionsEncounter, saving, waiting, chance: Chance, broke: list[str]):
    """Roll `saving`; the saves `waiting` for another roller are asked next, else who broke is."""
    enc, events, failed = _roll(enc, saving, chance)
    if waiting:
        enc, more = _ask_roll(enc, waiting, broke + failed)
    else:
        enc, more = _ask_failed(enc, broke + failed)
    return enc, events + more


def _only(checks, keep) -> list[tuple[str, list[str]]]:
    kept = [(faction, [cid for cid in members if keep(cid)]) for faction, members in checks]
    return [(faction, members) for faction, members in kept if members]


def _ask_roll(enc: FactionsEncounter, checks, failed: list[str]):
    """The saves nobody entered dice for wait for their roller; `failed`: who already broke."""
    saving = [cid for _, members in checks for cid in members]
    names = joined(
        "; ", (seq(faction, ": ", joined(", ", (enc.get(c).name for c in members))) for faction, members in checks)
    )
    # The question names a few of each group, so that a large one leaves room for how many dice to enter.
    some = joined(
        "; ",
        (
            seq(faction, ": ", listed_first((enc.get(c).name for c in members), QUESTION_NAMES))
            for faction, members in checks
        ),
    )
    asked = say(
        "Morale check at the round's end, a group WIT save ({names}): {n} d20. Press Roll, or "
        'enter the dice: /choose option:Roll dice:"…".',
        names=some,
        n=len(saving),
    )
    prompt = cut(asked, QUESTION_LIMIT)  # many groups at once
    enc = enc.ask(
        kind="morale_roll",
        prompt=prompt,
        # Translators: a button: roll the morale save (a verb)
        options=(Choice(key=ROLL, label=say("Roll")),),
        default=ROLL,
        chooser=saving[0],
        users=enc.controllers(saving),
        context={"checks": [[f, m] for f, m in checks], "failed": list(failed)},
    )
    return enc, [Event(kind="choice", text=say("Morale check due ({names}): see the Roll button.", names=names))]


def resume_roll(enc: FactionsEncounter, pending: Pending, option: str, chance: Chance):
    checks = []
    for faction, members in pending.context["checks"]:
        left = [cid for cid in members if not enc.get(cid).out]  # someone fled or died meanwhile
        if left:
            checks.append((faction, left))
    broke = [cid for cid in pending.context.get("failed", []) if not enc.get(cid).out]
    sender = getattr(chance, "entered_by", None)
    if sender is not None and not sender.is_gm:
        # A player's answer rolls their own characters' saves; the rest wait for their own rollers.
        mine, others = _shares(enc, checks, sender)
        if not mine:
            raise NotAllowed(say("None of these morale saves is yours to roll."))
        _refuse_others_dice(chance, mine, others)
        return _roll_then_ask(enc, mine, others, chance, broke)
    return _roll_then_ask(enc, checks, [], chance, broke)


def roll(enc: FactionsEncounter, checks: list[tuple[str, list[str]]], chance: Chance):
    return _roll_then_ask(enc, checks, [], chance, [])


def _roll(enc: FactionsEncounter, checks: list[tuple[str, list[str]]], chance: Chance):
    """Dice: one d20 per member making the save, faction by faction, in tracker order."""
    events: list[Event] = []
    failed: list[str] = []
    for faction, members in checks:
        saving = [enc.get(cid) for cid in members]
        events.append(Event(kind="info", text=say("Morale check for {faction}: a group WIT save.", faction=faction)))
        for fighter in saving:
            result = save(enc, fighter, "wit", chance, say("(morale)"))
            events.append(
                Event(
                    kind="roll",
                    text=result.text
                    + (say(": immune to morale for the rest of the fight.") if result.passed else say(": breaks.")),
                )
            )
            if result.passed:
                enc = enc.update(fighter.id, morale_immune=True)
            else:
                failed.append(fighter.id)
    return enc, events, failed


def _ask_failed(enc: FactionsEncounter, failed: list[str]):
    return ask(enc, failed) if failed else (enc, [])


def ask(enc: FactionsEncounter, queue: list[str]):
    """Ask the first who broke to surrender or flee; one held by a grabber cannot retreat
    ("Grabbed characters can't act"), so of "surrender or retreat" only surrender is left."""
    events: list[Event] = []
    while queue and (holder_id := enc.get(queue[0]).grabbed_by):
        fighter, holder = enc.get(queue[0]), enc.get(holder_id)
        enc, gave_up = manoeuvres.surrender(enc, fighter)
        text = say(
            "{who} failed the morale check but, held by {holder}, cannot flee: they surrender.",
            who=fighter.name,
            holder=holder.name,
        )
        events += [Event(kind="info", text=text)] + gave_up
        queue = queue[1:]
    if not queue:
        return enc, events
    fighter = enc.get(queue[0])
    users = enc.controllers([fighter.id])
    enc = enc.ask(
        kind="morale",
        prompt=say("{who} failed the morale check: surrender or flee?", who=fighter.name),
        options=(Choice(key=SURRENDER, label=say("Surrender")), Choice(key=FLEE, label=say("Flee"))),
        default=SURRENDER,
        chooser=fighter.id,
        users=users,
        context={"queue": list(queue)},
        rolls=False,
    )
    return enc, events + [
        Event(
            kind="choice",
            text=say("{who} failed the morale check: surrender or flee (see the buttons).", who=fighter.name),
        )
    ]


def resume(enc: FactionsEncounter, pending: Pending, option: str, chance: Chance):
    queue = copy.deepcopy(pending.context["queue"])
    fighter = enc.get(queue.pop(0))
    if option == FLEE:
        held = manoeuvres.holding(enc, fighter)
        enc, let_go = manoeuvres.let_go(enc.update(fighter.id, fled=True, out=True, grabbed_by=None), fighter, held)
        events = [Event(kind="info", text=say("{who} flees the fight.", who=fighter.name))] + let_go
    else:
        enc, let_go = manoeuvres.surrender(enc, fighter)
        events = [Event(kind="info", text=say("{who} surrenders, throwing their weapons away.", who=fighter.name))]
        events += let_go
    live = [cid for cid in queue if not enc.get(cid).out]
    if live:
        enc, more = ask(enc, live)
        events.extend(more)
    return enc, events
