"""Initiative: a Reflex check plus Dexterity; tied characters roll again
among themselves until the tie is broken, every reroll shown."""

from __future__ import annotations

from itertools import groupby

from rules.errors import DiceError
from rules.model import Event
from rules.numbers import added, number
from rules.randomness import Chance
from rules.said import say, seq
from rules.secrets import secret
from rules.text import Text
from rules.usertext import listed

from .model import Fighter
from .rolls import die

MAX_REROLLS = 50  # a tie that survives this many rerolls keeps the list order


def check(f: Fighter, chance: Chance) -> tuple[int, Text]:
    rolled = die(chance, f, 6)
    total = rolled + f.sheet.reflex + f.sheet.dex
    return total, say(
        "d6 {die} + Reflex {reflex} + Dex {dex} = {total}",
        die=rolled,
        reflex=secret(f.sheet.reflex, f),
        dex=secret(f.sheet.dex, f),
        total=secret(total, f),
    )


def reroll(f: Fighter, chance: Chance) -> tuple[int, Text]:
    """A tie-breaking roll, short enough to list several on one line: `Goblin d6 2 + 3 = 5`."""
    total, _ = check(f, chance)
    mods = f.sheet.reflex + f.sheet.dex
    shown = number(total, str(total))
    if f.hidden:  # one secret, so that a missing "+ 0" tells nothing either
        return total, seq(
            f.name, f" d6 {total - mods} ", secret(f"{added(mods)} = {shown}" if mods else f"= {shown}", f)
        )
    return total, seq(f.name, f" d6 {total - mods}" + (f" {added(mods)} = {shown}" if mods else ""))


def _needs_reroll_die(f: Fighter, chance: Chance, score: Text) -> None:
    """Refuse, naming the tie, when `f`'s reroll would come from dice entered that have run out:
    whoever entered `roll:` alone would not guess that a tie asks for more."""
    if chance.entered_any and not chance.entered_dice_left() and chance.enters_for(f.controller_id):
        raise DiceError(
            say(
                "Too few dice entered: {who} ties at initiative {score} and rolls again. Enter each reroll's d6 "
                "after the initiative die in `dice:`, in order, or enter no dice and the bot rolls them all.",
                who=f.name,
                score=score,
            )
        )


def break_ties(enc, tied: list, chance: Chance):
    """Order entries with equal initiative: reroll, and reroll again among any still tied.

    A tie settled earlier stays settled: characters joining it later (late
    arrivals, or additions during setup) roll off into the existing order.
    """
    events: list[Event] = []
    settled = [e for e in tied if e.tiebreak]
    if settled:
        ordered = settled
        for newcomer in (e for e in tied if not e.tiebreak):
            ordered, more = _slot_in(enc, ordered, newcomer, chance)
            events.extend(more)
        return ordered, [[e.cid] for e in ordered], events
    results: dict[str, tuple[int, ...]] = {e.cid: () for e in tied}

    def settle(group: list, depth: int) -> None:
        if len(group) < 2 or depth >= MAX_REROLLS:
            return
        parts: list[Text] = []
        score = _tie(enc, tied)
        for entry in group:
            _needs_reroll_die(enc.get(entry.cid), chance, score)
            total, text = reroll(enc.get(entry.cid), chance)
            results[entry.cid] += (total,)
            parts.append(text)
        line = say("Initiative tie at {score}: reroll {rolls}.", score=score, rolls=listed(parts))
        events.append(Event(kind="roll", text=line))
        ranked = sorted(group, key=lambda e: results[e.cid], reverse=True)
        for _, sub in groupby(ranked, key=lambda e: results[e.cid]):
            settle(list(sub), depth + 1)

    settle(list(tied), 0)
    ordered = sorted((e.but(tiebreak=results[e.cid]) for e in tied), key=lambda e: e.tiebreak, reverse=True)
    names = listed((enc.get(e.cid).name for e in ordered), " → ")
    events.append(Event(kind="info", text=say("Tie broken: {order}.", order=names)))
    return ordered, [[e.cid] for e in ordered], events


def _slot_in(enc, standing: list, newcomer, chance: Chance):
    """Roll off against each settled character from the top; go before the
    first one beaten. The order of the others is left alone."""
    events: list[Event] = []
    position = len(standing)
    results: tuple[int, ...] = ()
    me = enc.get(newcomer.cid)
    score = _tie(enc, [newcomer] + standing)
    for i, entry in enumerate(standing):
        other = enc.get(entry.cid)
        for _ in range(MAX_REROLLS):
            _needs_reroll_die(me, chance, score)
            mine, my_text = reroll(me, chance)
            _needs_reroll_die(other, chance, score)
            theirs, their_text = reroll(other, chance)
            results += (mine,)
            events.append(
                Event(
                    kind="roll",
                    text=say(
                        "Initiative tie at {score}: {mine} vs {theirs}.",
                        score=score,
                        mine=my_text,
                        theirs=their_text,
                    ),
                )
            )
            if mine != theirs:
                break
        if mine > theirs:
            position = i
            break
    newcomer = newcomer.but(tiebreak=results)
    return standing[:position] + [newcomer] + standing[position:], events


def _tie(enc, entries) -> Text:
    """The tied initiative: a hidden fighter's total, so secret if any of them is hidden."""
    hidden = any(enc.get(e.cid).hidden for e in entries)
    return secret(_n(entries[0].key[0]), hidden)


def _n(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
