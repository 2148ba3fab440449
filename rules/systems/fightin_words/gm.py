"""GM tools: damage and morale damage outside an attack (falls and collisions included),
healing, checks, and conditions put on or taken off by hand."""

from __future__ import annotations

import re
from typing import ClassVar

from rules.actions import Action, GmAction
from rules.dice import RollResult
from rules.errors import InvalidInput, NotAllowed
from rules.model import Event
from rules.numbers import modifier
from rules.randomness import Chance
from rules.said import N_, joined, say, say_plural, seq, term
from rules.secrets import secret
from rules.text import Phrase, Raw, Text
from rules.usertext import listed, quoted, user_text

from . import conditions as cond
from . import morale, wounds
from .attack import DODGE, called_shots, defence_bonus
from .model import MOBILITY, Fighter
from .rolls import d6_check
from .sheet import can_defend, minimum_toughness, minimum_will, pair, toughness, will
from .tables import (
    COLLISION_SPEED,
    FALL_DAMAGE,
    FALL_DAMAGE_ONTO,
    LOCATIONS,
    MAX_MOBILITY_PENALTIES,
    SURFACES,
    fall_bonus,
)

MORALE_KINDS = ("fear", "insanity", "rage", "morale")


class Damage(Action):
    """Damage (or morale damage) from outside an attack. Dice: those of `amount`
    (or the falling d6), then any called-shot Fortitude d6; a collision's: see `collide`."""

    kind: ClassVar[str] = "damage"
    gm_only: ClassVar[bool] = True
    on_turn: ClassVar[bool] = False
    target: str
    amount: str = ""
    type: str | None = None  # fear / insanity / rage / morale → morale damage
    called: str | None = None
    nonlethal: bool = False
    height: int | None = None  # metres fallen
    surface: str = "hard"
    # A collision: the target and another combatant (`other`) or an object not in the fight (its scale),
    # the fastest mover's speed in squares per second, and whether the target is crushed against a hard surface.
    collision: bool = False
    other: str | None = None
    object_scale: int | None = None
    speed: int = 0
    crushed: bool = False


def surface_key(surface: str) -> str:
    """A surface as typed (`Deep water`), as SURFACES names it."""
    key = surface.strip().casefold().replace(" ", "_").replace("-", "_")
    if key not in SURFACES:
        known = listed(term(s) for s in SURFACES)
        raise InvalidInput(say("Unknown surface {surface}. Known: {known}.", surface=quoted(surface, 20), known=known))
    return key


def falling(f: Fighter, height: int, surface: str) -> str:
    """1d6 + 3×scale + 1 per 5 m (up to 60 m) + the surface's modifier."""
    key = surface_key(surface)
    if not 0 <= height <= 100_000:
        raise InvalidInput(say("The height is in metres, from 0 up."))
    bonus = fall_bonus(height) + 3 * f.sheet.scale + SURFACES[key]
    return f"1d6{bonus:+d}" if bonus else "1d6"


def damage(system, enc, action: Damage, chance: Chance):
    f: Fighter = enc.find(action.target)
    if f.dead:
        raise InvalidInput(say("{who} is already dead.", who=f.name))
    if action.called and action.called not in LOCATIONS:
        raise InvalidInput(called_shots())
    if action.collision:
        return collide(enc, action, chance)
    kind = (action.type or "").casefold() or None
    if action.height is not None:
        expr = falling(f, action.height, action.surface)
    else:
        expr = action.amount.strip()
        if not expr:
            raise InvalidInput(say("Give an amount (a number or dice like `1d6+2`), or a fall with `height=`."))
    roll = chance.roll(expr)
    # A fall adds 3×scale of the one falling: for a hidden one, all but the die is secret.
    hidden = action.height is not None and f.hidden
    text = shown_roll(roll, hidden)
    if kind in MORALE_KINDS:
        return morale.take(enc, f.id, roll.total, None if kind == "morale" else kind, text)
    if action.height is not None:
        surface = term(action.surface.replace("_", " "))
        kind_of = term(FALL_DAMAGE_ONTO.get(surface_key(action.surface), FALL_DAMAGE))
        text = say(
            "falls {height} m onto {surface}: {kind} damage {roll}",
            height=action.height,
            surface=surface,
            kind=kind_of,
            roll=text,
        )
    enc, events = wounds.land(
        enc,
        f.id,
        [wounds.Hit(roll.total, text, hidden=hidden)],
        chance,
        location=action.called,
        nonlethal=action.nonlethal,
    )
    return enc, events


def shown_roll(roll: RollResult, hidden: bool) -> Text:
    """A damage roll as its line shows it; `hidden`: all but the die is secret (a hidden fighter's scale is in it)."""
    if not hidden:
        return Raw(str(roll) if roll.dice else str(roll.total))
    face = roll.text[: roll.text.index(")") + 1]  # `1d6 (4)`
    rest = roll.text[len(face) :].strip()
    return seq(face, " ", secret(f"{rest} = {roll.total}".strip(), True))


def collide(enc, action: Damage, chance: Chance):
    """A collision, by the seed's procedure: every creature involved may Dodge against DC 4 + the largest
    scale − the smallest; each who fails takes 1d6 + 3×the smallest scale (the largest for one crushed
    against a hard surface) + 1 per 5 squares/second of the fastest mover. No seconds: the move that led
    to it paid them. Dice: each creature's Dodge d6 (the target first), then the damage d6 of each who
    failed, in that order."""
    f: Fighter = enc.find(action.target)
    other: Fighter | None = enc.find(action.other) if action.other else None
    if other is not None and other.id == f.id:
        raise InvalidInput(say("{who} cannot collide with themselves.", who=f.name))
    creatures = [f] if other is None else [f, other]
    for c in creatures:
        if c.dead:
            raise InvalidInput(say("{who} is already dead.", who=c.name))
    scales = [c.sheet.scale for c in creatures]
    if action.object_scale is not None:
        scales.append(action.object_scale)
    largest, smallest = max(scales), min(scales)
    dc = 4 + largest - smallest
    # The DC and the damage bonus follow from the scales: a hidden fighter's is in both.
    hidden = any(c.hidden for c in creatures)
    told = dict(
        who=f.name,
        speed=action.speed,
        dc=secret(dc, hidden),
        crushed=say(", crushed against a hard surface") if action.crushed else Raw(""),
    )
    if other is not None:
        head = say(
            "💥 {who} collides with {other} at {speed} squares/s{crushed}: Dodge DC {dc}.", other=other.name, **told
        )
    else:
        head = say(
            "💥 {who} collides with an object of scale {scale} at {speed} squares/s{crushed}: Dodge DC {dc}.",
            scale=action.object_scale,
            **told,
        )
    events = [Event(kind="info", text=head)]
    struck: list[str] = []
    for c in creatures:
        why = can_defend(c)
        if why:
            events.append(Event(kind="info", text=say("{who} cannot defend ({why}).", who=c.name, why=term(why))))
            struck.append(c.id)
            continue
        bonus = defence_bonus(c, DODGE)  # held: "can dodge with a -1 penalty"
        die, total, evades = d6_check(chance, c, bonus, dc)
        rolled = dict(die=die, bonus=secret(modifier(bonus), c), total=secret(total, c), dc=secret(dc, hidden))
        if evades:
            line = say("d6 {die} {bonus} = {total} vs DC {dc}: evades", **rolled)
        else:
            line = say("d6 {die} {bonus} = {total} vs DC {dc}: fails", **rolled)
            struck.append(c.id)
        events.append(Event(kind="roll", text=say("{who} dodges: {rolls}.", who=c.name, rolls=line)))
    for cid in struck:
        scale = largest if action.crushed and cid == f.id else smallest
        bonus = 3 * scale + action.speed // COLLISION_SPEED
        roll = chance.roll(f"1d6{bonus:+d}" if bonus else "1d6")
        text = say("collision damage {roll}", roll=shown_roll(roll, hidden))
        hit = wounds.Hit(roll.total, text, hidden=hidden)
        enc, more = wounds.land(enc, cid, [hit], chance, nonlethal=action.nonlethal)
        events.extend(more)
    return enc, events


class Heal(Action):
    """Remove wounds (or morale penalties with `morale`). No dice."""

    kind: ClassVar[str] = "heal"
    gm_only: ClassVar[bool] = True
    on_turn: ClassVar[bool] = False
    target: str
    amount: int = 1
    morale: bool = False


def heal(system, enc, action: Heal, chance: Chance):
    f: Fighter = enc.find(action.target)
    if f.dead:
        raise InvalidInput(
            say(
                "{who} is dead: only a timely Resuscitate (Medicine) brings them back; the GM can re-add them.",
                who=f.name,
            )
        )
    if action.amount < 1:
        raise InvalidInput(say("Heal at least 1."))
    if action.morale:
        if not f.morale_penalties:
            raise InvalidInput(say("{who} has no morale penalty.", who=f.name))
        return morale.recover(enc, f.id, action.amount)
    if not f.wounds and not f.notes:
        raise InvalidInput(say("{who} has no wound.", who=f.name))
    count = min(action.amount, f.wounds)  # tells how many wounds there were
    spots, kept = wounds.heal_spots(f.notes, f.wounds - count)
    f = f.but(wounds=f.wounds - count, notes=tuple(kept))
    # which located wounds healed tells how many others there are: as secret as the count
    healed_spots = secret(joined("; ", [wounds.located(spot) for spot in spots]), f)
    if not count:
        # only located effects that came with no wound (a hand's −1 to attacks), which any healing ends
        text = say("{who} has no wounds to heal; healed: {spots}.", who=f.name, spots=healed_spots)
        return enc.with_combatant(f), [Event(kind="info", text=text)]
    told = dict(
        who=f.name,
        healed=secret(say_plural("{n} wound", "{n} wounds", count, n=count), f),
        toughness=secret(pair(toughness(f), minimum_toughness(f)), f),
    )
    if spots:
        text = say("{who} heals {healed}: Toughness {toughness}; healed: {spots}.", spots=healed_spots, **told)
    else:
        text = say("{who} heals {healed}: Toughness {toughness}.", **told)
    return enc.with_combatant(f), [Event(kind="info", text=text)]


# The stats capitalised, as the lines show them, for extraction.
SHOWN_STATS = (N_("Reflex"), N_("Dex"), N_("Strength"), N_("Endurance"), N_("Spirit"), N_("Fortitude"), N_("Will"))
STATS = (N_("reflex"), N_("dex"), N_("strength"), N_("endurance"), N_("spirit"), N_("fortitude"), N_("will"))
SKILL = re.compile(r"[a-z][a-z -]{1,29}")
# Checks the bot makes by itself, which must not pass for a skill check.
ROLLED_BY_THE_BOT = {
    "dying": say(
        "The dying check rolls itself as each round opens. To stabilise with Medicine: "
        '`/save kind:medicine options:"bonus=N"`, then `/condition remove condition:dying`.'
    ),
    "broken": say("The Broken Spirit check rolls itself as each round opens."),
    "initiative": say("Initiative is rolled when a combatant joins (enter it with `roll:`)."),
}


class Check(Action):
    """A d6 check: d6 + stat (Fortitude adds scale; Will uses the Will score) vs DC, or
    d6 + a skill's bonus (`bonus`) for skills, which the sheet does not hold. Dice: one d6."""

    kind: ClassVar[str] = "check"
    on_turn: ClassVar[bool] = False
    stat: str
    dc: int | None = None
    bonus: int = 0


def check(system, enc, action: Check, chance: Chance):
    if action.actor:
        f: Fighter = enc.find(action.actor)
    else:
        mine = [c for c in enc.combatants if c.controller_id == action.by.user_id and not c.out]
        if not mine:
            raise InvalidInput(say("Say who makes the check (`actor`)."))
        f = mine[0]
    stat = stat_key(action.stat)
    if stat in ROLLED_BY_THE_BOT:
        raise InvalidInput(ROLLED_BY_THE_BOT[stat])
    _, text = roll_check(f, stat, action.bonus, action.dc, chance)
    return enc, [Event(kind="roll", text=text)]


def stat_key(stat: str) -> str:
    """A stat or skill as typed (`Dexterity`, `weapon_skill`), as the checks name it."""
    stat = " ".join(stat.strip().casefold().replace("_", " ").split())
    return {"dexterity": "dex", "end": "endurance", "str": "strength", "fort": "fortitude", "ref": "reflex"}.get(
        stat, stat
    )


def roll_check(f: Fighter, stat: str, bonus: int, dc: int | None, chance: Chance) -> tuple[int, Text]:
    """d6 + a stat (Fortitude adds scale; Will is the Will score) or a named skill's bonus, with
    `bonus` on top, against `dc` if given: the total and its line. Dice: one d6."""
    die = chance.die(6)
    parts: list[Text] = [Raw(f"d6 {die}")]
    if stat in STATS:
        if stat == "will":
            base = will(f)
        elif stat == "fortitude":
            base = f.sheet.fortitude + f.sheet.scale
        else:
            base = getattr(f.sheet, stat)
        parts.append(Raw(modifier(base)))
        label = term(stat.capitalize())
    elif SKILL.fullmatch(stat):
        # Skills are not on the sheet: the GM or player gives the skill's bonus, and names it.
        base = 0
        label = say("{skill} (skill)", skill=user_text(stat.capitalize()))
    else:
        raise InvalidInput(
            say(
                'Checks use a stat ({stats}) or a skill with its bonus, e.g. `kind:medicine options:"bonus=2"`.',
                stats=listed(term(stat) for stat in STATS),
            )
        )
    if bonus or stat not in STATS:
        parts.append(Raw(modifier(bonus)))
    total = die + base + bonus
    # A hidden fighter's stat, skill bonus and total are secret; the die and the DC are not.
    rolled = dict(
        who=f.name,
        check=label,
        die=parts[0],
        bonus=secret(joined(" ", parts[1:]), f),
        total=secret(total, f),
    )
    if dc is None:
        text = say("{who} {check} check: {die} {bonus} = {total}.", **rolled)
    elif total >= dc:
        text = say("{who} {check} check: {die} {bonus} = {total} vs DC {dc}: success.", dc=dc, **rolled)
    else:
        text = say("{who} {check} check: {die} {bonus} = {total} vs DC {dc}: failure.", dc=dc, **rolled)
    return total, text


class AddCondition(GmAction):
    """Put a condition on. Dice: a d6 for Staggered's rounds when no duration is given."""

    kind: ClassVar[str] = "condition_add"
    target: str
    condition: str
    duration: str | None = None


def add_condition(system, enc, action: AddCondition, chance: Chance):
    f: Fighter = enc.find(action.target)
    name = cond.canonical(action.condition)
    if f.dead:
        raise InvalidInput(say("{who} is dead.", who=f.name))
    if name == "dying":
        f = f.but(dying=True, stable=False, dying_dc=wounds.first_dying_dc(enc))
        line = say("{who} is Dying (DC {dc}).", who=f.name, dc=f.dying_dc)
        return enc.with_combatant(f), [Event(kind="info", text=line)]
    if name == "stable":
        return _stabilise(enc, f)
    if name in ("prone", "crouching"):
        if f.posture == name:
            raise InvalidInput(say("{who} is already {posture}.", who=f.name, posture=term(name)))
        if f.posture in ("prone", "crouching") and f.posture != name:
            # one posture at a time: "Going from one to the other takes a second as well."
            line = say("{who} is {posture}, no longer {was}.", who=f.name, posture=term(name), was=term(f.posture))
        else:
            line = say("{who} is {posture}.", who=f.name, posture=term(name))
        return enc.with_combatant(f.but(posture=name)), [Event(kind="info", text=line)]
    if name == "wound":
        return wounds.land(enc, f.id, [wounds.Hit(toughness(f) - 1, say("a wound (GM)"))], chance)
    if name == "morale penalty":
        f = f.but(morale_penalties=min(morale.max_penalties(f), f.morale_penalties + 1))
        enc = enc.with_combatant(f)
        enc, more = morale.check_broken(enc, f.id)
        now = secret(pair(will(f), minimum_will(f)), f)
        return enc, [
            Event(kind="info", text=say("{who} takes a morale penalty: Will {will}.", who=f.name, will=now))
        ] + more
    if name == MOBILITY:
        return _encumber(enc, f, action.duration)
    if name == "stunned":
        seconds = cond.seconds_of(action.duration)
        acting = f.id in enc.turns.acting
        enc, lost = system.turns.lose(system, enc, f.id, seconds, say("stunned"), chance)
        if not acting:
            line = say("{who} is stunned: loses {n} s of their next turn.", who=f.name, n=seconds)
            lost = [Event(kind="info", text=line)]
        return enc, lost
    events: list[Event] = []
    rounds = cond.rounds_of(action.duration)
    if name == "staggered" and rounds is None:
        rounds = chance.die(6)
        lasts = say_plural("Staggered lasts d6 {n} round.", "Staggered lasts d6 {n} rounds.", rounds, n=rounds)
        events.append(Event(kind="roll", text=lasts))
    if name == "broken":
        f = f.but(broken_dc=morale.BROKEN_DC)
    f = cond.with_condition(f, cond.timed(enc, f.id, name, rounds))
    if not rounds:
        lasting = say("until removed")
    else:
        lasting = say_plural("{n} round", "{n} rounds", rounds, n=rounds)
    told = dict(who=f.name, lasting=lasting, effect=term(cond.KNOWN[name]))
    line = say("{who} is {condition} ({lasting}): {effect}.", condition=term(name), **told)
    events.insert(0, Event(kind="info", text=line))
    return enc.with_combatant(f), events


def _encumber(enc, f: Fighter, duration: str | None):
    """One more mobility penalty: "Multiple mobility penalties stack." A penalty one has, as a wound,
    not a state one is in; encumbrance lasts until it is taken off."""
    if (duration or "").strip():
        raise InvalidInput(say("A mobility penalty lasts until removed: leave the duration out."))
    if f.mobility_penalties >= MAX_MOBILITY_PENALTIES:
        raise InvalidInput(
            say("{who} already has {n} mobility penalties, the most the bot keeps.", who=f.name, n=f.mobility_penalties)
        )
    f = f.but(mobility_penalties=f.mobility_penalties + 1)
    line = _mobility_line(N_("{who} takes a mobility penalty ({n} in all): {effect}."), f)
    return enc.with_combatant(f), [Event(kind="info", text=line)]


def _mobility_line(template: str, f: Fighter) -> Phrase:
    """`template` with `f`'s mobility penalties as they now stand: a hidden fighter's count and effect secret."""
    n = f.mobility_penalties
    return say(template, who=f.name, n=secret(n, f), effect=secret(cond.mobility(n), f))


def _unencumber(enc, f: Fighter, everything: bool):
    """One mobility penalty off, or all of them."""
    if not f.mobility_penalties:
        raise InvalidInput(say("{who} has no mobility penalty.", who=f.name))
    had = f.mobility_penalties
    f = f.but(mobility_penalties=0 if everything else had - 1)
    # The same words however many there were or are left, so a hidden fighter's "?" keeps the count.
    if everything:
        line = say("{who} loses all their mobility penalties ({n} in all).", who=f.name, n=secret(had, f))
    else:
        line = _mobility_line(N_("{who} loses a mobility penalty ({n} left): {effect}."), f)
    return enc.with_combatant(f), [Event(kind="info", text=line)]


def _stabilise(enc, f: Fighter):
    """Adding `stable` and removing `dying` are one GM call: the fighter is stabilised."""
    if not f.dying:
        raise InvalidInput(say("{who} is not dying.", who=f.name))
    f = f.but(dying=False, stable=True)
    return enc.with_combatant(f), [Event(kind="info", text=say("{who} is stabilised (still unconscious).", who=f.name))]


def _wake(enc, f: Fighter):
    """Wake `f` up: "When a character first wakes up from being unconscious [or asleep], he is flat-footed for
    one round"."""
    f = cond.with_condition(f, cond.timed(enc, f.id, "flat-footed", 1))
    line = say("{who} wakes up (flat-footed for one round).", who=f.name)
    return enc.with_combatant(f), [Event(kind="info", text=line)]


class RemoveCondition(GmAction):
    kind: ClassVar[str] = "condition_remove"
    target: str
    condition: str


def remove_condition(system, enc, action: RemoveCondition, chance: Chance):
    f: Fighter = enc.find(action.target)
    words = (action.condition or "").split(maxsplit=1)
    if len(words) == 2 and words[0].casefold() == "all":
        # "all mobility penalties": the only counted condition taken off at once
        if cond.canonical(words[1]) != MOBILITY:
            raise InvalidInput(
                say('Only mobility penalties come off all at once: `condition:"all mobility penalties"`.')
            )
        return _unencumber(enc, f, everything=True)
    name = cond.canonical(action.condition)
    if name == MOBILITY:
        return _unencumber(enc, f, everything=False)
    if name == "dying":
        return _stabilise(enc, f)
    if name in ("stable", "unconscious"):
        if f.dying:
            raise NotAllowed(say("{who} is dying: stabilise them first (remove `dying`).", who=f.name))
        return _wake(enc, cond.without(f.but(stable=False), "unconscious"))
    if name == "sleeping" and any(c.name == name for c in f.conditions):
        return _wake(enc, cond.without(f, name))
    if name in ("prone", "crouching"):
        if f.posture != name:
            raise InvalidInput(say("{who} is not {condition}.", who=f.name, condition=term(name)))
        line = say("{who} is standing.", who=f.name)
        return enc.with_combatant(f.but(posture="standing")), [Event(kind="info", text=line)]
    if name == "wound":
        if not f.wounds:
            raise InvalidInput(say("{who} has no wound.", who=f.name))
        return heal(system, enc, Heal(by=action.by, target=f.name, amount=1), chance)
    if name == "morale penalty":
        if not f.morale_penalties:
            raise InvalidInput(say("{who} has no morale penalty.", who=f.name))
        return morale.recover(enc, f.id, 1)
    if not any(c.name == name for c in f.conditions):
        raise InvalidInput(say("{who} is not {condition}.", who=f.name, condition=term(name)))
    f = cond.without(f, name)
    return enc.with_combatant(f), [
        Event(kind="info", text=say("{who} is no longer {condition}.", who=f.name, condition=term(name)))
    ]
