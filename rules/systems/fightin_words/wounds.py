"""Damage against Toughness, wounds, dying and death.

Every hit is compared on its own with the Toughness the target had before
the attack (a combo's hits land at once and never add up): more than Minimum
Toughness is a wound, Toughness or more is a wound and Dying. A character who
is wounded while already dying dies. The seed says both "exceeds" and "equal to
or more than" Toughness, and a called shot's chart "meet or beat" where the rule
says "more than" Minimum Toughness: the campaign settings `dying_at_toughness`
and `called_shot_meets_minimum` pick.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.model import Event
from rules.numbers import added
from rules.randomness import Chance, claim_entered
from rules.said import joined, say, say_plural, seq, term
from rules.secrets import secret
from rules.text import Raw, Text
from rules.usertext import mark

from .conditions import timed
from .model import Condition, Fighter
from .rolls import d6_check, die
from .sheet import minimum_toughness, pair, toughness
from .tables import CONDITIONS_DYING_DC, FIRST_DYING_DC, LOCATIONS


class Hit:
    """One damage roll landing: its amount and how it was rolled.

    `hidden`: the amount is a secret (a hidden attacker's Strength is in it);
    `text` then already hides it. `entered`: rolled from dice entered by hand
    before the line showing it (an attack's damage, shown once the defender answers)."""

    __slots__ = ("amount", "entered", "hidden", "text")

    def __init__(self, amount: int, text: Text, hidden: bool = False, entered: bool = False) -> None:
        self.amount = amount
        self.text = text
        self.hidden = hidden
        self.entered = entered


def fortitude(f: Fighter, dc: int, chance: Chance, *, secret_dc: bool = False) -> tuple[bool, Text]:
    """Fortitude check: d6 + Fortitude + scale (scale is added to fortitude).

    A hidden fighter's bonus and total are secret; `secret_dc` when the DC is
    (a hidden attacker's damage)."""
    bonus = f.sheet.fortitude + f.sheet.scale
    d6, total, ok = d6_check(chance, f, bonus, dc)
    rolled = dict(die=d6, bonus=secret(added(bonus), f), total=secret(total, f), dc=secret(dc, secret_dc))
    if ok:
        return ok, say("Fortitude d6 {die} {bonus} = {total} vs DC {dc}: passes", **rolled)
    return ok, say("Fortitude d6 {die} {bonus} = {total} vs DC {dc}: fails", **rolled)


def located(note: str) -> Text:
    """A located wound's lasting effect as the lines show it. The notes keep the English
    (`arm: the arm cannot …`), and the GM may type one: only the rules' own are said."""
    spot, _, effect = note.partition(": ")
    known = LOCATIONS.get(spot)
    if known and effect and effect in (known.full, known.minimum):
        return say("{spot}: {effect}", spot=term(spot), effect=term(effect))
    return mark(note)


def woundless(note: str) -> bool:
    """Whether a located effect came with no wound: a Minimum hit where the seed's table gives no wound
    (the hand's −1 to attacks, the wings' flight speed)."""
    spot, _, effect = note.partition(": ")
    known = LOCATIONS.get(spot)
    return known is not None and not known.minimum_wound and effect == known.minimum


def heal_spots(spots: Sequence[str], left: int) -> tuple[list[str], list[str]]:
    """The located effects (`Fighter.notes`) healed and kept when `left` wounds remain: wounds with no
    lasting effect heal first; a located wound's effect lasts "until the wound is healed". The seed gives
    an effect that came with no wound no end of its own: any healing ends it, or it would last for ever."""
    healing = max(0, sum(not woundless(spot) for spot in spots) - left)
    healed, kept = [], []
    for spot in spots:
        if woundless(spot):
            healed.append(spot)
        elif healing:
            healing -= 1
            healed.append(spot)
        else:
            kept.append(spot)
    return healed, kept


def first_dying_dc(enc) -> int:
    return enc.options.get("first_dying_dc", FIRST_DYING_DC)


def dying_penalty(enc, f: Fighter) -> int:
    """What the wounds take from a dying check: "Dying" gives "a -1 penalty for every wound", the conditions'
    list's DC 6 check none."""
    return 0 if first_dying_dc(enc) == CONDITIONS_DYING_DC else f.wounds


def land(
    enc, cid: str, hits: list[Hit], chance: Chance, *, location: str | None = None, nonlethal: bool = False
) -> tuple[object, list[Event]]:
    """Apply hits that got through, all against the Toughness from before them."""
    target: Fighter = enc.get(cid)
    spot = LOCATIONS.get(location) if location else None
    full = toughness(target) + (spot.toughness if spot else 0)
    least = minimum_toughness(target) + (spot.toughness if spot else 0)
    where = seq(" (", term(location), ")") if location else Raw("")
    # the least damage that reaches Toughness, and the most that stays within Minimum Toughness
    reaching = full if enc.options.get("dying_at_toughness", True) else full + 1
    meets_minimum = spot is not None and enc.options.get("called_shot_meets_minimum", False)
    within = least - 1 if meets_minimum else least
    wounds, starts_dying = 0, False
    extra: list[Text] = []
    conditions = list(target.conditions)
    notes = list(target.notes)
    posture = target.posture
    parts: list[Text] = []
    for hit in hits:
        if hit.amount >= reaching:
            wounds += 1
            if spot is None or spot.full_dying:
                starts_dying = True
                # "in the case of a would-be-fatal attack with nonlethal damage, the target is simply knocked
                # unconscious instead of killed"
                if nonlethal:
                    verdict: Text = say("≥ Toughness: wound and knocked unconscious")
                else:
                    verdict = say("≥ Toughness: wound and Dying")
            else:
                verdict = (
                    say("≥ Toughness: wound; {effect}", effect=term(spot.full))
                    if spot.full
                    else say("≥ Toughness: wound")
                )
                notes.append(f"{location}: {spot.full}")
                if spot.full_check:
                    ok, text = fortitude(target, hit.amount, chance, secret_dc=hit.hidden)
                    verdict = seq(verdict, "; ", text, *(() if ok else (" → ", term(spot.full_check))))
                    if not ok and spot.full_check == "fall prone":
                        posture = "prone"
        elif hit.amount > within:
            if spot is None or spot.minimum_wound:
                wounds += 1
                verdict = say("≥ Minimum: wound") if meets_minimum else say("> Minimum: wound")
            else:
                verdict = say("≥ Minimum") if meets_minimum else say("> Minimum")
            if spot and spot.minimum:
                verdict = seq(verdict, "; ", term(spot.minimum))
                notes.append(f"{location}: {spot.minimum}")
            if spot and spot.minimum_check:
                ok, text = fortitude(target, hit.amount, chance, secret_dc=hit.hidden)
                verdict = seq(verdict, "; ", text, *(() if ok else (" → ", term(spot.minimum_check))))
                if not ok and spot.minimum_check.startswith("be Staggered"):
                    conditions.append(timed(enc, cid, "staggered", 1))
        else:
            verdict = say("< Minimum: no wound") if meets_minimum else say("≤ Minimum: no wound")
        parts.append(
            say(
                "{hit} vs Toughness {toughness}{where}: {verdict}",
                hit=hit.text,
                toughness=secret(pair(full, least), target),
                where=where,
                verdict=verdict,
            )
        )
    line = say("{who}: {hits}.", who=target.name, hits=joined("; ", parts))
    # Marked if this action's entered dice made it (a Fortitude die), or the damage's, entered earlier.
    entered = claim_entered() or any(hit.entered for hit in hits)
    events = [Event(kind="roll", text=line, entered=entered)]
    was_dying = target.dying
    target = target.but(
        wounds=target.wounds + wounds, conditions=tuple(conditions), notes=tuple(notes[-6:]), posture=posture
    )
    if wounds and was_dying and nonlethal:
        # Nonlethal damage wounds like any other, but knocks out where it would kill.
        extra.append(say("{who} was wounded while dying, but nonlethally: still dying, not dead.", who=target.name))
    elif wounds and was_dying:
        target = _dies(target)
        extra.append(say("{who} was wounded while dying and dies.", who=target.name))
    elif starts_dying and nonlethal:
        if not any(c.name == "unconscious" for c in target.conditions):
            target = target.but(conditions=target.conditions + (Condition(name="unconscious"),))
        extra.append(say("{who} is knocked unconscious (nonlethal).", who=target.name))
    elif starts_dying and not target.dead:
        dc = first_dying_dc(enc)
        target = target.but(dying=True, stable=False, dying_dc=dc)
        if dc == CONDITIONS_DYING_DC:
            told = say("{who} is Dying: unconscious, an Endurance check each round (DC {dc}).", who=target.name, dc=dc)
        else:
            told = say(
                "{who} is Dying: unconscious, an Endurance check each round (DC {dc}, −1 per wound).",
                who=target.name,
                dc=dc,
            )
        extra.append(told)
    if wounds:
        # How many wounds this did is public (each hit's verdict says so); the total and Toughness are not.
        counted = dict(
            who=target.name,
            n=wounds,
            total=secret(target.wounds, target),
            toughness=secret(pair(toughness(target), minimum_toughness(target)), target),
        )
        counted_line = say_plural(
            "{who}: {n} wound → {total} in all, Toughness {toughness}.",
            "{who}: {n} wounds → {total} in all, Toughness {toughness}.",
            wounds,
            **counted,
        )
        extra.insert(0, counted_line)
    enc = enc.with_combatant(target)
    events += [Event(kind="info", text=line) for line in extra]
    return enc, events


def _dies(f: Fighter) -> Fighter:
    return f.but(dead=True, dying=False, stable=False, out=True)


def dying_check(enc, cid: str, chance: Chance) -> tuple[object, list[Event]]:
    """Start of a round: d10 (10 stabilises), else Endurance d6 − wounds (see `dying_penalty`) vs the DC."""
    f: Fighter = enc.get(cid)
    penalty = dying_penalty(enc, f)
    best = 6 + f.sheet.endurance - penalty
    if f.dying_dc > best:
        return enc.with_combatant(_dies(f)), [
            Event(kind="info", text=say("{who} dies: DC {dc} is out of reach.", who=f.name, dc=f.dying_dc))
        ]
    d10 = die(chance, f, 10)
    if d10 == 10:
        f = f.but(dying=False, stable=True)
        return enc.with_combatant(f), [
            Event(kind="roll", text=say("{who} dying: d10 10 → stabilises (still unconscious).", who=f.name))
        ]
    d6, total, holds = d6_check(chance, f, f.sheet.endurance - penalty, f.dying_dc)
    if not penalty:
        hurt: Text = Raw("")
    else:
        hurt = say_plural(" − {n} wound", " − {n} wounds", penalty, n=penalty)
    # The dying DC is public (4, +1 a failure); Endurance, the wounds and the total are not.
    rolled = dict(
        who=f.name,
        d10=d10,
        die=d6,
        bonus=secret(seq(added(f.sheet.endurance), hurt), f),
        total=secret(total, f),
        dc=f.dying_dc,
    )
    if holds:
        text = say(
            "{who} dying: d10 {d10} (no 10); Endurance d6 {die} {bonus} = {total} vs DC {dc}: holds on.", **rolled
        )
        return enc, [Event(kind="roll", text=text)]
    dc = f.dying_dc + 1
    if dc > best:
        text = say(
            "{who} dying: d10 {d10} (no 10); Endurance d6 {die} {bonus} = {total} vs DC {dc}: "
            "fails; DC {next} is out of reach → dies.",
            next=dc,
            **rolled,
        )
        return enc.with_combatant(_dies(f.but(dying_dc=dc))), [Event(kind="roll", text=text)]
    text = say(
        "{who} dying: d10 {d10} (no 10); Endurance d6 {die} {bonus} = {total} vs DC {dc}: fails → DC {next}.",
        next=dc,
        **rolled,
    )
    return enc.with_combatant(f.but(dying_dc=dc)), [Event(kind="roll", text=text)]
