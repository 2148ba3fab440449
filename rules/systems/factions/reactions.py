"""Reactions to an attack, asked target by target as pending choices.

A target who has not acted this round, is aware, standing and not grabbed may
dodge (AGI save), counter with a weapon that reaches the attacker (only one
target of an attack may counter), or hide behind a willing ally or an enemy
it holds (who becomes the target and may react in turn). A nearby ally who
has not acted may guard instead and takes the blow. Each reaction spends the
reacting character's turn; nobody reacts twice to one attack. An attack stunt
is offered to its target before any reaction.
"""

from __future__ import annotations

import copy

from rules.model import Event, Pending
from rules.randomness import Chance

from .resolution import resolve
from .saves import save
from .sheet import Weapon
from .sizing import dice_shares, effective_range, reach
from .state import TURNS, Fighter
NO_REACTION = "No reaction"
DODGE = "Dodge"
COUNTER = "Counter: "
HIDE = "Hide behind: "
GUARD = "Guard: "
ACCEPT = "Accept"
REFUSE = "Take the attack"
MAX_OPTIONS = 25


def ask_stunt(enc, ctx, events):
    target = enc.get(ctx["targets"][0]["cid"])
    attacker = enc.get(ctx["attacker"])
    users = enc.controllers([target.id])
    pending = Pending(
        id=enc.next_pending, kind="stunt",
        prompt=f"{attacker.name} proposes to {target.name} instead of the attack: {ctx['stunt']}. Accept, or take the attack?",
        options=(ACCEPT, REFUSE), default=REFUSE, chooser=target.id, users=users, context=ctx,
    )
    enc = enc.but(pending=pending, next_pending=enc.next_pending + 1)
    return enc, events + [Event(kind="choice", text=pending.prompt, ping=users)]


def resume_stunt(enc, pending: Pending, option: str, chance: Chance):
    ctx = copy.deepcopy(pending.context)
    target = enc.get(ctx["targets"][0]["cid"])
    if option == ACCEPT:
        return enc, [Event(kind="info", text=f"{target.name} accepts: {ctx['stunt']}. No damage, no reaction.")]
    return advance(enc, ctx, chance, [Event(kind="info", text=f"{target.name} refuses the stunt: the attack goes on.")])


def may_react(enc, ctx, fighter: Fighter) -> bool:
    return (
        not ctx["surprise"]
        and fighter.standing
        and fighter.grabbed_by is None
        and fighter.id not in enc.turns.acted
        and fighter.id not in ctx["reacted"]
    )


def _guards(enc, ctx, target: Fighter) -> list[Fighter]:
    if ctx["surprise"]:
        return []
    busy = {t["cid"] for t in ctx["targets"]} | {ctx["attacker"]}
    return [c for c in enc.combatants if c.side == target.side and c.id not in busy and may_react(enc, ctx, c)]


def _reaction_options(enc, ctx, entry, target: Fighter) -> tuple[list[str], list[Fighter]]:
    options = [NO_REACTION]
    reacting = may_react(enc, ctx, target) and not entry["unaware"]
    if reacting:
        options.append(DODGE)
        if not ctx["countered"]:
            attacker = enc.get(ctx["attacker"])
            for weapon in target.held():
                if weapon.blast:
                    continue
                fits = ctx["zones"] <= (effective_range(weapon, target, attacker) if weapon.ranged else reach(target))
                if fits:
                    options.append(COUNTER + weapon.name)
        busy = {t["cid"] for t in ctx["targets"]} | {ctx["attacker"]}
        for other in enc.combatants:
            if other.id in busy or other.out:
                continue
            ally = other.side == target.side and other.standing
            if ally or other.grabbed_by == target.id:
                options.append(HIDE + other.name)
    guards = _guards(enc, ctx, target)
    options += [GUARD + g.name for g in guards]
    return options[:MAX_OPTIONS], guards


def advance(enc, ctx, chance: Chance, events: list[Event] | None = None):
    """Ask the next target that can react (or be guarded); resolve when none is left."""
    events = list(events or [])
    while ctx["asking"] < len(ctx["targets"]):
        entry = ctx["targets"][ctx["asking"]]
        target: Fighter = enc.get(entry["cid"])
        if not entry.get("guarded") and not entry.get("dodged"):
            options, guards = _reaction_options(enc, ctx, entry, target)
            if len(options) > 1:
                return _ask_reaction(enc, ctx, target, options, guards, events)
        ctx["asking"] += 1
    enc, more = resolve(enc, ctx, chance)
    return enc, events + more


def _ask_reaction(enc, ctx, target: Fighter, options, guards, events):
    attacker = enc.get(ctx["attacker"])
    users = enc.controllers([target.id] + [g.id for g in guards])
    what = {"damage": "attacks", "disarm": "tries to disarm", "shove": "tries to shove", "grapple": "tries to grab"}[ctx["mode"]]
    prompt = (
        f"{attacker.name} {what} {target.name} ({ctx['weapon']['name']}). React? "
        "A reaction spends the reacting character's turn this round."
    )
    pending = Pending(
        id=enc.next_pending, kind="reaction", prompt=prompt, options=tuple(options),
        default=NO_REACTION, chooser=target.id, users=users, context=ctx,
    )
    enc = enc.but(pending=pending, next_pending=enc.next_pending + 1)
    return enc, events + [Event(kind="choice", text=prompt, ping=users)]


def resume_reaction(enc, pending: Pending, option: str, chance: Chance):
    """Dice, in order: a dodge's AGI save; then, once every reaction is chosen,
    the damage as in /attack, each counter's damage dice right after the
    attacker's dice for that target, then the STR save of a manoeuvre."""
    ctx = copy.deepcopy(pending.context)
    entry = ctx["targets"][ctx["asking"]]
    target: Fighter = enc.get(entry["cid"])
    events: list[Event] = []
    if option == NO_REACTION:
        ctx["asking"] += 1
    elif option == DODGE:
        enc = TURNS.spend_reaction(enc, target.id)
        ctx["reacted"].append(target.id)
        dodge = save(enc, target, "agi", chance, "to dodge")
        entry["dodged"] = dodge.passed
        events.append(Event(kind="roll", text=dodge.text + (": the attack misses." if dodge.passed else ": hit anyway.")))
        ctx["asking"] += 1
    elif option.startswith(COUNTER):
        enc = TURNS.spend_reaction(enc, target.id)
        ctx["reacted"].append(target.id)
        entry["counter"] = target.weapon(option[len(COUNTER):]).model_dump(mode="json")
        ctx["countered"] = True
        events.append(Event(kind="info", text=f"{target.name} counters with the {option[len(COUNTER):]}: both roll damage."))
        ctx["asking"] += 1
    elif option.startswith(HIDE):
        shield = enc.find(option[len(HIDE):])
        enc = TURNS.spend_reaction(enc, target.id)
        ctx["reacted"].append(target.id)
        _retarget(enc, ctx, entry, shield)
        events.append(Event(kind="info", text=f"{target.name} hides behind {shield.name}, who becomes the target (they swap places)."))
    elif option.startswith(GUARD):
        guard = enc.find(option[len(GUARD):])
        enc = TURNS.spend_reaction(enc, guard.id)
        ctx["reacted"].append(guard.id)
        _retarget(enc, ctx, entry, guard)
        entry["guarded"] = True
        events.append(Event(kind="info", text=f"{guard.name} guards {target.name} and becomes the target."))
        ctx["asking"] += 1
    return advance(enc, ctx, chance, events)


def _retarget(enc, ctx, entry, new: Fighter) -> None:
    """The new target stands where the old one was; it knows it is attacked."""
    entry["cid"], entry["unaware"] = new.id, False
    if len(ctx["targets"]) == 1:
        (entry["dice"], entry["halve"]), = dice_shares(enc.get(ctx["attacker"]), Weapon(**ctx["weapon"]), [new], ())
