"""Start and end of turns: the turn economy, demanding actions resolving,
Ongoing Damage, saves, and condition durations running out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...model import Event
from ...said import say, seq, term
from ...secrets import secret
from ...text import EMPTY, Text
from ...usertext import listed
from . import conditions as cond
from . import damage as dmg
from . import economy
from .model import Condition, RCEncounter, parse_saves
from .rolls import masked_bonus, mode_for, reasons, roll_d20, signed

ABILITIES = {
    "str": "str",
    "strength": "str",
    "dex": "dex",
    "dexterity": "dex",
    "con": "con",
    "constitution": "con",
    "int": "int",
    "intelligence": "int",
    "wis": "wis",
    "wisdom": "wis",
    "cha": "cha",
    "charisma": "cha",
}
# The defenses a check may roll against (the seed's "Avoidance and Willpower checks"; Weakened's Defense tags).
DEFENSES = ("avoidance", "fortitude", "willpower")


def save_modifier(c, kind: str) -> int:
    kind = kind.lower()[:3]
    if kind == "dex":
        return c.sheet.dex
    if kind == "con":
        return c.sheet.con
    return parse_saves(c.sheet.saves).get(kind, 0)


def roll_save(
    enc: RCEncounter, cid: str, kind: str, dc: int, chance, extra_adv=(), extra_dis=(), *, own_dc: bool = False
) -> tuple[RCEncounter, bool, Text]:
    """`own_dc`: the DC comes from the saver's own numbers (its damage after DR). An Assist's advantage
    counts on this save and is spent: it is for "their next attack roll or ability check"."""
    ok, text = d20_check(
        enc.get(cid), kind, dc, chance, extra_adv, extra_dis, settings=enc.options, save=True, own_dc=own_dc
    )
    return enc.update(cid, assisted_by=()), ok, text


@dataclass(frozen=True)
class D20Roll:
    """A d20 + an ability's modifier as rolled, before it meets a DC: its natural face, its total, and
    the roll's text up to the total (the face, the modifier, the penalty)."""

    natural: int
    total: int
    text: Text
    why: Text  # why two d20s were rolled, if they were


def d20_roll(
    c, kind: str, chance, extra_adv=(), extra_dis=(), *, settings: Mapping[str, Any], save: bool, bonus: int = 0
) -> D20Roll:
    """A d20 + the ability's modifier, with the bearer's conditions: a save in a fight, a stored character's
    challenge or save (`/check`) and a Hiatus's Wound Recovery roll. A challenge (`save` False) also takes
    the Wounded or Exhaustion penalty, which falls on "all challenge rolls and attack rolls": a saving throw
    takes only the optional Brutal Continuity's Exhaustion penalty (`cond.brutal_penalty`). `settings`: the
    campaign's (how advantage and disadvantage meet, Brutal Continuity). `bonus`: a situational modifier the
    Editor-in-Chief allows (a Skill Set's Rank Bonus, antibiotics)."""
    adv, dis = cond.save_sources(c)
    adv, dis = adv + list(extra_adv), dis + list(extra_dis)
    d20 = roll_d20(chance, mode_for(adv, dis, str(settings.get("advantage", "cancel"))))
    own = save_modifier(c, kind)
    mod = own - cond.weakened(c, kind, own)
    penalty = cond.brutal_penalty(c, settings) if save else cond.wound_penalty(c)
    total = d20.natural + mod + bonus - penalty
    if c.hidden:
        # its save bonus and wounds are its own numbers, and so is the total
        text = seq(d20.text(), " ", masked_bonus(mod + bonus, c, penalty))
    else:
        text = seq(d20.text(), " ", signed(mod))
        if bonus:
            text = seq(text, " ", say("{bonus} situational", bonus=signed(bonus)))
        if penalty and save:
            text = seq(text, " ", say("− {penalty} exhaustion", penalty=penalty))
        elif penalty:
            text = seq(text, " ", say("− {penalty} wounds/exhaustion", penalty=penalty))
    return D20Roll(natural=d20.natural, total=total, text=text, why=reasons(adv, dis, d20.mode))


def d20_check(
    c,
    kind: str,
    dc: int,
    chance,
    extra_adv=(),
    extra_dis=(),
    *,
    settings: Mapping[str, Any],
    save: bool,
    own_dc: bool = False,
    bonus: int = 0,
) -> tuple[bool, Text]:
    """`d20_roll` against a DC. `own_dc`: the DC is the bearer's own number (its damage after DR)."""
    rolled = d20_roll(c, kind, chance, extra_adv, extra_dis, settings=settings, save=save, bonus=bonus)
    ok = rolled.total >= dc
    against = dict(total=secret(rolled.total, c), dc=secret(dc, c) if own_dc else dc)
    result = say("= {total} vs DC {dc}: success", **against) if ok else say("= {total} vs DC {dc}: failure", **against)
    return ok, seq(rolled.text, " ", result, rolled.why)


def ticks(enc: RCEncounter, cid: str, chance, at: str) -> tuple[RCEncounter, list[Event]]:
    """Each Ongoing Damage that ticks `at` the start or end of the bearer's turn, in the order they came, all
    adding to the one continuous total. One that leaves the bearer out, or a hero dying, is the last: the
    rest would only ask again how the hero escapes death."""
    events: list[Event] = []
    for ongoing in enc.get(cid).conditions:
        if ongoing.name != "Ongoing Damage" or ongoing.at != at or not ongoing.damage:
            continue
        enc, more = tick(enc, cid, ongoing, chance)
        events.extend(more)
        t = enc.get(cid)
        if t.out or (t.wounds == 0 and t.current_stamina == 0):
            break
    return enc, events


def tick(enc: RCEncounter, cid: str, ongoing: Condition, chance) -> tuple[RCEncounter, list[Event]]:
    c = enc.get(cid)
    roll = chance.roll(ongoing.damage)
    enc, text, report = dmg.harm(enc, cid, dmg.Harm(roll.total, ongoing.damage_type, ongoing=True))
    t = enc.get(cid)
    tail = EMPTY if t.out else seq(" (", t.name, ": ", dmg.status(t), ")")
    took = dict(who=c.name, kind=term(ongoing.damage_type), roll=roll.text, total=roll.total)
    if ongoing.tags:
        head = say("{who} takes {kind} Ongoing Damage ({tags}): {roll} = {total}", tags=listed(ongoing.tags), **took)
    else:
        head = say("{who} takes {kind} Ongoing Damage: {roll} = {total}", **took)
    events = [Event(kind="roll", text=seq(head, text, tail))]
    enc, more = dmg.follow_up(enc, cid, report)
    return enc, events + more


def turn_start(system, enc: RCEncounter, cid: str, chance) -> tuple[RCEncounter, list[Event]]:
    c = enc.get(cid)
    if c.echo_of:
        villain = enc.get(c.echo_of)
        enc = enc.with_combatant(economy.fresh(villain).but(dodging=False))
        return enc, [Event(kind="info", text=say("{who} takes an Unleashed extra turn.", who=villain.name))]
    if c.environment:
        return enc, [
            Event(
                kind="info",
                text=say(
                    "{who}: the environment strikes (GM: describe it, then /damage or /condition add).", who=c.name
                ),
            )
        ]
    events: list[Event] = []
    others = []
    for o in enc.combatants:
        if cid in o.assisted_by:
            o = o.but(assisted_by=tuple(a for a in o.assisted_by if a != cid))
        others.append(o)
    enc = enc.but(combatants=tuple(others))
    c = economy.fresh(enc.get(cid)).but(dodging=False)
    if c.ready:
        events.append(
            Event(
                kind="info",
                text=say(
                    "{who}'s readied action ({trigger}) was never triggered and is lost.", who=c.name, trigger=c.ready
                ),
            )
        )
        c = c.but(ready="")
    if c.demanding and c.demanding.since_turn < enc.turn_no:
        # no ping of its own: the turn message that follows pings the same player
        events.append(
            Event(
                kind="info",
                text=seq(
                    "✨ ",
                    say(
                        "{who}'s demanding action resolves now: {what}. Apply its effect (`/attack … options:free` "
                        "spends no Action).",
                        who=c.name,
                        what=c.demanding.what,
                    ),
                ),
            )
        )
        c = c.but(demanding=None, economy=c.economy.but(resolved=enc.turn_no))
    enc = enc.with_combatant(c)
    enc, more = ticks(enc, cid, chance, "start")
    events.extend(more)
    c = enc.get(cid)
    if not c.out and (cond.helpless(c) and not c.blaze) and enc.pending is None:
        enc, more = turn_end(system, enc, cid, chance, skip_tick=False)
        events.extend(more)
        enc = enc.update(cid, passing=True)
        events.append(
            Event(
                kind="info",
                text=say("{who} is {condition}: the turn passes.", who=c.name, condition=term(economy.helpless_as(c))),
            )
        )
    return enc, events


def turn_end(system, enc: RCEncounter, cid: str, chance, skip_tick: bool = False) -> tuple[RCEncounter, list[Event]]:
    c = enc.get(cid)
    if c.echo_of or c.environment or c.out:
        return _expire_only(enc, cid)
    events: list[Event] = []
    if not skip_tick:
        enc, more = ticks(enc, cid, chance, "end")
        events.extend(more)
    c = enc.get(cid)
    for condition in c.conditions:
        if condition.until == "save" or (condition.name == "Ongoing Damage" and condition.dc is not None):
            if condition.dc is None or c.out:
                continue
            if not c.saves_against(condition):
                events.append(Event(kind="info", text=_burns_on(c, condition)))
                continue
            enc, ok, text = roll_save(enc, cid, condition.save, condition.dc, chance)
            saved = dict(who=c.name, condition=condition.label(), result=text)
            events.append(
                Event(
                    kind="roll",
                    text=say("{who} saves against {condition}: {result} — it ends.", **saved)
                    if ok
                    else say("{who} saves against {condition}: {result}.", **saved),
                )
            )
            if ok:
                # only the one saved against: another Weakened, on another stat, stays
                enc = enc.update(cid, conditions=tuple(x for x in enc.get(cid).conditions if x != condition))
    kept = []
    for condition in enc.get(cid).conditions:
        if condition.until == "rounds" and condition.since_turn < enc.turn_no:
            condition = condition.but(turns_left=condition.turns_left - 1)
            if condition.turns_left <= 0:
                events.append(Event(kind="info", text=no_longer(c, condition)))
                continue
        kept.append(condition)
    enc = enc.update(cid, conditions=tuple(kept))
    enc, more = _expire_only(enc, cid)
    return enc, events + more


def _burns_on(c, condition) -> Text:
    """A common zombie's end of turn under Ongoing Damage, which it makes no save against."""
    return say(
        "{who} is a common zombie: it does not shake off {condition} (no save).",
        who=c.name,
        condition=condition.label(),
    )


def _expire_only(enc: RCEncounter, cid: str):
    """Conditions lasting until the end of `cid`'s next turn end now."""
    return _end_conditions(
        enc, lambda o, x: x.until == "turn_end" and (x.owner or o.id) == cid and x.since_turn < enc.turn_no
    )


def no_longer(c, condition) -> Text:
    return say("{who} is no longer {condition}.", who=c.name, condition=condition.label())


def round_start(enc: RCEncounter) -> RCEncounter:
    return enc.but(combatants=tuple(c.but(passing=False) for c in enc.combatants))


def round_end(enc: RCEncounter) -> tuple[RCEncounter, list[Event]]:
    """A condition timed on the turn of someone who will never act again (out, or no longer in the
    fight) ends with the round."""
    here = {c.id for c in enc.combatants if not c.out}
    return _end_conditions(enc, lambda o, x: x.until == "turn_end" and x.owner is not None and x.owner not in here)


def _end_conditions(enc: RCEncounter, ends) -> tuple[RCEncounter, list[Event]]:
    """Takes off every condition `ends(bearer, condition)` picks, saying so for each."""
    events: list[Event] = []
    combatants = []
    for o in enc.combatants:
        kept = []
        for condition in o.conditions:
            if ends(o, condition):
                events.append(Event(kind="info", text=no_longer(o, condition)))
            else:
                kept.append(condition)
        combatants.append(o.but(conditions=tuple(kept)))
    return enc.but(combatants=tuple(combatants)), events
