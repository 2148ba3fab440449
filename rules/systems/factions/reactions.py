"""Reactions to an attack, asked target by target as pending choices.

A target who has not acted this round, is aware, standing and not grabbed may
dodge (AGI save), counter with a weapon that reaches the attacker (only one
target of an attack may counter), or hide behind a willing ally or a grabbed
enemy, whoever holds it (who becomes the target and may react in turn). A nearby ally who
has not acted may guard instead and takes the blow; the bot does not know who
stands near whom, so every ally who could is offered the guard unless the
attack says the target is `alone` or names who is `near` it (then only their
players are asked). Each reaction spends the reacting
character's turn; nobody reacts twice to one attack. An attack stunt is
offered to its target before any reaction.

Dice entered with the attack beyond its WIT save are the attacker's: they
wait in the choice for the damage roll (if none were entered, the bot rolls
them: the player answering the last choice enters only their own). Each
reacting character's player enters their own rolls with their own choice: a
dodge's AGI save, a counter's damage dice, then the one STR save the attack may
call for (a manoeuvre's, or against critical damage when the campaign allows
it), kept until the blows land. A character whose player entered no such die
gets the bot's roll, never the dice of whoever answered the last choice.
"""

from __future__ import annotations

import copy

from rules.errors import DiceError
from rules.model import MAX_CHOICES, Choice, Event, Pending, former_keys
from rules.randomness import Chance
from rules.said import N_, say, say_plural
from rules.secrets import secret
from rules.usertext import mark

from .manoeuvres import keeps_hold, release_if_busy
from .model import TURNS, Fighter
from .resolution import counter_faces, resolve
from .saves import save
from .sheet import Weapon
from .sizing import beyond_half_range, dice_shares, effective_range, moved_share, reach

# The options' keys. A reaction's key is its kind, then what it names (`counter:` and a weapon's
# name, `guard:` and an ally's id); what each offers is kept beside it in the question's context
# (`offered`: its kind and the weapon, manoeuvre or character it names).
NO_REACTION, DODGE = "none", "dodge"
ACCEPT, REFUSE = "accept", "refuse"
former_keys("reaction", {"No reaction": NO_REACTION, "Dodge": DODGE})
former_keys("stunt", {"Accept": ACCEPT, "Take the attack": REFUSE})
NON_LETHAL_COUNTERS = {
    "grapple": N_("Counter: grapple"),
    "shove": N_("Counter: shove"),
    "disarm": N_("Counter: disarm"),
}
COUNTERS_LAST = {
    "grapple": N_("{who} counters with a grapple: it is resolved last."),
    "shove": N_("{who} counters with a shove: it is resolved last."),
    "disarm": N_("{who} counters with a disarm: it is resolved last."),
}


def counter(weapon: Weapon) -> Choice:
    return Choice(key=f"counter:{weapon.name}", label=say("Counter: {weapon}", weapon=weapon.label))


def non_lethal(mode: str) -> Choice:
    return Choice(key=f"non_lethal:{mode}", label=say(NON_LETHAL_COUNTERS[mode]))


def hide(shield: Fighter) -> Choice:
    return Choice(key=f"hide:{shield.id}", label=say("Hide behind: {who}", who=shield.name))


def guard(ally: Fighter) -> Choice:
    return Choice(key=f"guard:{ally.id}", label=say("Guard: {who}", who=ally.name))


# The reaction prompts `_ask_reaction` asks, by what the attack tries and who may answer: the target
# (`react`), the target or a nearby ally (`react_or_guard`), or only an ally (`guard`). Each is written
# out whole: a language translates the sentence, not its pieces.
PROMPTS = {
    ("damage", "react_or_guard"): N_(
        "{attacker} attacks {target} ({weapon}). React? Or a nearby ally guards. "
        "A reaction spends that character's turn this round."
    ),
    ("damage", "react"): N_(
        "{attacker} attacks {target} ({weapon}). React? A reaction spends that character's turn this round."
    ),
    ("damage", "guard"): N_(
        "{attacker} attacks {target} ({weapon}). "
        "{target} cannot react; a nearby ally may guard and become the target. "
        "A reaction spends that character's turn this round."
    ),
    ("disarm", "react_or_guard"): N_(
        "{attacker} tries to disarm {target}. React? Or a nearby ally guards. "
        "A reaction spends that character's turn this round."
    ),
    ("disarm", "react"): N_(
        "{attacker} tries to disarm {target}. React? A reaction spends that character's turn this round."
    ),
    ("disarm", "guard"): N_(
        "{attacker} tries to disarm {target}. "
        "{target} cannot react; a nearby ally may guard and become the target. "
        "A reaction spends that character's turn this round."
    ),
    ("shove", "react_or_guard"): N_(
        "{attacker} tries to shove {target}. React? Or a nearby ally guards. "
        "A reaction spends that character's turn this round."
    ),
    ("shove", "react"): N_(
        "{attacker} tries to shove {target}. React? A reaction spends that character's turn this round."
    ),
    ("shove", "guard"): N_(
        "{attacker} tries to shove {target}. "
        "{target} cannot react; a nearby ally may guard and become the target. "
        "A reaction spends that character's turn this round."
    ),
    ("grapple", "react_or_guard"): N_(
        "{attacker} tries to grab {target}. React? Or a nearby ally guards. "
        "A reaction spends that character's turn this round."
    ),
    ("grapple", "react"): N_(
        "{attacker} tries to grab {target}. React? A reaction spends that character's turn this round."
    ),
    ("grapple", "guard"): N_(
        "{attacker} tries to grab {target}. "
        "{target} cannot react; a nearby ally may guard and become the target. "
        "A reaction spends that character's turn this round."
    ),
    # A death blow falls on one who cannot react (incapacitated): only a guard is ever asked.
    ("death_blow", "guard"): N_(
        "{attacker} moves to deliver a death blow to {target} ({weapon}). "
        "{target} cannot react; a nearby ally may guard and become the target. "
        "A reaction spends that character's turn this round."
    ),
}


def ask_stunt(enc, ctx, events):
    target = enc.get(ctx["targets"][0]["cid"])
    attacker = enc.get(ctx["attacker"])
    users = enc.controllers([target.id])
    enc = enc.ask(
        kind="stunt",
        prompt=say(
            "{attacker} proposes to {target} instead of the attack: {stunt}. Accept, or take the attack?",
            attacker=attacker.name,
            target=target.name,
            stunt=mark(ctx["stunt"]),
        ),
        options=(Choice(key=ACCEPT, label=say("Accept")), Choice(key=REFUSE, label=say("Take the attack"))),
        default=REFUSE,
        chooser=target.id,
        users=users,
        context=ctx,
    )
    return enc, events + [
        Event(kind="choice", text=say("{who} accepts the stunt or takes the attack: see the buttons.", who=target.name))
    ]


def resume_stunt(enc, pending: Pending, option: str, chance: Chance):
    ctx = copy.deepcopy(pending.context)
    target = enc.get(ctx["targets"][0]["cid"])
    if option == ACCEPT:
        accepted = say("{who} accepts: {stunt}. No damage, no reaction.", who=target.name, stunt=mark(ctx["stunt"]))
        events = [Event(kind="info", text=accepted)]
        if ctx.get("dice"):
            attacker = enc.get(ctx["attacker"])
            events.append(
                Event(
                    kind="info",
                    text=say(
                        "{who}'s damage dice {dice} are not used: the stunt was accepted.",
                        who=attacker.name,
                        dice=", ".join(map(str, ctx["dice"])),
                    ),
                )
            )
        return enc, events
    _keep_save_die(enc, ctx, ctx["targets"][0], chance)  # the target's own answer, as with a reaction
    refused = say("{who} refuses the stunt: the attack goes on.", who=target.name)
    return advance(enc, ctx, chance, [Event(kind="info", text=refused)])


def may_react(enc, ctx, fighter: Fighter) -> bool:
    return (
        not ctx["surprise"]
        and fighter.standing
        and fighter.grabbed_by is None
        and fighter.id not in enc.turns.acted
        and fighter.id not in ctx["reacted"]
    )


def _near(ctx, other: Fighter) -> bool:
    """Whether `other` stands near the target: anyone, unless the attack named who does."""
    return ctx.get("near") is None or other.id in ctx["near"]


def possible_guards(enc, ctx, target: Fighter) -> list[Fighter]:
    """The allies who may guard the target: standing, free, not yet acted, near it."""
    if ctx["surprise"] or ctx.get("alone"):
        return []
    busy = {t["cid"] for t in ctx["targets"]} | {ctx["attacker"]}
    return [
        c
        for c in enc.combatants
        if c.side == target.side and c.id not in busy and _near(ctx, c) and may_react(enc, ctx, c)
    ]


def _reaction_options(enc, ctx, entry, target: Fighter) -> tuple[dict[Choice, list], list[Fighter], bool]:
    """Each option with what it offers: [kind, what it names]."""
    offered: dict[Choice, list] = {Choice(key=NO_REACTION, label=say("No reaction")): ["none", None]}
    reacting = may_react(enc, ctx, target) and not entry["unaware"]
    cover: dict[Choice, list] = {}
    if reacting:
        offered[Choice(key=DODGE, label=say("Dodge"))] = ["dodge", None]
        if not ctx["countered"]:
            attacker = enc.get(ctx["attacker"])
            for weapon in target.held():
                if weapon.blast:
                    continue
                fits = ctx["zones"] <= (effective_range(weapon, target, attacker) if weapon.ranged else reach(target))
                if fits:
                    offered.setdefault(counter(weapon), ["counter", weapon.name])
            for mode in _non_lethal_counters(ctx, target, attacker):
                offered.setdefault(non_lethal(mode), ["non_lethal", mode])
        busy = {t["cid"] for t in ctx["targets"]} | {ctx["attacker"]}
        for other in enc.combatants:
            if other.id in busy or other.out:
                continue
            near = _near(ctx, other) and not ctx.get("alone")
            ally = other.side == target.side and other.standing and near
            # "a currently grabbed enemy": held by anyone; the one the target holds is always at hand.
            grabbed = other.side != target.side and other.grabbed_by is not None and near
            if ally or grabbed or other.grabbed_by == target.id:
                cover.setdefault(hide(other), ["hide", other.id])
    guards = possible_guards(enc, ctx, target)
    guarding = {guard(g): ["guard", g.id] for g in guards}
    # Every option is offered. Cover past what one menu shows comes after the guards (each an ally's own
    # call), so that a crowd to hide behind never pushes them out of the menu.
    room = max(0, MAX_CHOICES - len(offered) - len(guarding))
    hides = list(cover.items())
    return dict([*offered.items(), *hides[:room], *guarding.items(), *hides[room:]]), guards, reacting


def _non_lethal_counters(ctx, target: Fighter, attacker: Fighter) -> list[str]:
    """Grapple, shove and disarm reach a nearby attacker no larger than the target (a disarm, one who
    holds a weapon)."""
    if ctx["zones"] > reach(target) or attacker.size_rank > target.size_rank:
        return []
    armed = any(w.name not in attacker.dropped for w in attacker.weapons)
    return [mode for mode in NON_LETHAL_COUNTERS if mode != "disarm" or armed]


def _disarmed_weapon(ctx, attacker: Fighter) -> str:
    """A disarming counter takes the weapon the attack is made with, else the first one held."""
    held = [w.name for w in attacker.weapons if w.name not in attacker.dropped]
    return ctx["weapon"]["name"] if ctx["weapon"]["name"] in held else held[0]


def _picked(ctx, option: str) -> tuple[str, str]:
    """What the chosen option offers: its kind and the weapon, manoeuvre or character id it names.
    No reaction and Dodge name nothing (a question stored before options had keys kept neither)."""
    kind, what = ctx.get("offered", {}).get(option, [option, None])
    return kind, what or ""


def advance(enc, ctx, chance: Chance, events: list[Event] | None = None):
    """Ask the next target that can react (or be guarded); resolve when none is left."""
    events = list(events or [])
    while ctx["asking"] < len(ctx["targets"]):
        entry = ctx["targets"][ctx["asking"]]
        target: Fighter = enc.get(entry["cid"])
        if not entry.get("guarded") and not entry.get("dodged"):
            offered, guards, reacting = _reaction_options(enc, ctx, entry, target)
            if len(offered) > 1:
                ctx["offered"] = {choice.key: what for choice, what in offered.items()}
                return _ask_reaction(enc, ctx, target, tuple(offered), guards, reacting, events)
        ctx["asking"] += 1
    enc, more = resolve(enc, ctx, chance)
    return enc, events + more


def _ask_reaction(enc, ctx, target: Fighter, options, guards, reacting: bool, events):
    """Ask the target's player, and the players of allies who could guard; a
    target who cannot react is not asked at all."""
    attacker = enc.get(ctx["attacker"])
    users = enc.controllers(([target.id] if reacting else []) + [g.id for g in guards])
    if reacting and guards:
        ask = "react_or_guard"
        short = say("{who} may react or be guarded: choose below.", who=target.name)
    elif reacting:
        ask = "react"
        short = say("{who} may react: choose below.", who=target.name)
    else:
        ask = "guard"
        short = say("An ally of {who} may guard: choose below.", who=target.name)
    prompt = say(
        PROMPTS["death_blow" if ctx.get("death_blow") else ctx["mode"], ask],
        attacker=attacker.name,
        target=target.name,
        weapon=Weapon(**ctx["weapon"]).label,
    )
    # Each guard is its own ally's call; the target's reactions are the target's.
    owners = {guard(g).key: enc.controllers([g.id]) for g in guards}
    own = enc.controllers([target.id])
    owners |= {o.key: own for o in options if o.key not in owners and o.key != NO_REACTION}
    enc = enc.ask(
        kind="reaction",
        prompt=prompt,
        options=options,
        default=NO_REACTION,
        chooser=target.id,
        users=users,
        owners=owners,
        context=ctx,
    )
    return enc, events + [Event(kind="choice", text=short)]


def keep_attacker_dice(enc, chance: Chance):
    """Park the dice entered with an attack that now waits for a choice: they are
    the attacker's damage dice (or a larger shover's d4), rolled at resolution."""
    if enc.pending is None:
        return enc
    left = chance.entered_dice_left()
    ctx = copy.deepcopy(enc.pending.context)
    if not left:
        # Parked, though empty: once someone else answers, these dice are the bot's to roll.
        ctx["dice"] = []
        return enc.but(pending=enc.pending.but(context=ctx))
    faces = attacker_faces(enc, ctx)
    if left > len(faces):
        # How many dice depends on the targets' sizes: a hidden target's is secret.
        hidden = any(enc.get(t["cid"]).hidden is True for t in ctx["targets"])
        one = len(faces) == 1 and not hidden
        raise DiceError(
            say(
                "Too many dice: after any WIT save to hit, this attack rolls {n} die of its own "
                "(the target's rolls come with its reaction)."
                if one
                else "Too many dice: after any WIT save to hit, this attack rolls {n} dice of its own "
                "(the target's rolls come with its reaction).",
                n=secret(len(faces), hidden),
            )
        )
    ctx["dice"] = [chance.die(sides) for sides in faces]  # too few entered: refused like elsewhere
    return enc.but(pending=enc.pending.but(context=ctx))


def attacker_faces(enc, ctx) -> list[int]:
    """The attacker's own dice as things stand: damage dice per target, one roll
    for a blast, or the d4 of a larger character's shove."""
    if ctx["mode"] == "damage":
        if ctx["weapon"].get("blast"):
            return [ctx["die"]]
        return [ctx["die"]] * sum(t["dice"] for t in ctx["targets"])
    if ctx["mode"] == "shove":
        attacker = enc.get(ctx["attacker"])
        return [4] * sum(1 for t in ctx["targets"] if enc.get(t["cid"]).size_rank < attacker.size_rank)
    return []


def resume_reaction(enc, pending: Pending, option: str, chance: Chance):
    """Dice, in order: a dodge's AGI save; then, once every reaction is chosen,
    the attacker's damage as in /attack (unless entered with the attack),
    each counter's damage dice right after the attacker's dice for that
    target, then the STR save of a manoeuvre."""
    ctx = copy.deepcopy(pending.context)
    entry = ctx["targets"][ctx["asking"]]
    target: Fighter = enc.get(entry["cid"])
    events: list[Event] = []
    kind, what = _picked(ctx, option)
    # Whose player answered for the character now targeted: a target who cannot react did not
    # (an ally declined to guard it); one who hides leaves the answer to whoever shields it.
    if kind == "none":
        own = may_react(enc, ctx, target) and not entry["unaware"]
    else:
        own = kind != "hide"
    if kind == "none":
        ctx["asking"] += 1
    elif kind == "dodge":
        enc = TURNS.spend_reaction(enc, target.id)
        ctx["reacted"].append(target.id)
        enc = _lets_go(enc, target, events, keeps=False)
        dodge = save(enc, target, "agi", chance, say("to dodge"))
        entry["dodged"] = dodge.passed
        events.append(
            Event(
                kind="roll", text=dodge.text + (say(": the attack misses.") if dodge.passed else say(": hit anyway."))
            )
        )
        ctx["asking"] += 1
    elif kind == "non_lethal":
        enc = TURNS.spend_reaction(enc, target.id)
        ctx["reacted"].append(target.id)
        # A counter is aimed at the attacker, never at the one held (who cannot attack).
        enc = _lets_go(enc, target, events, keeps=keeps_hold(what, None, on_held=False))
        attacker = enc.get(ctx["attacker"])
        take = _disarmed_weapon(ctx, attacker) if what == "disarm" else None
        entry["non_lethal_counter"] = {"mode": what, "take": take}
        # A larger shover's d4, entered with this choice or rolled now.
        entry["counter_dice"] = [chance.die(4)] if what == "shove" and target.size_rank > attacker.size_rank else []
        ctx["countered"] = True
        events.append(Event(kind="info", text=say(COUNTERS_LAST[what], who=target.name)))
        ctx["asking"] += 1
    elif kind == "counter":
        enc = TURNS.spend_reaction(enc, target.id)
        ctx["reacted"].append(target.id)
        weapon = target.weapon(what)
        enc = _lets_go(enc, target, events, keeps=keeps_hold("damage", weapon, on_held=False), both_hands=weapon.great)
        attacker = enc.get(ctx["attacker"])
        faces = counter_faces(target, attacker, weapon)
        ctx["countered"] = True
        events.append(
            Event(
                kind="info",
                text=say("{who} counters with the {weapon}: both roll damage.", who=target.name, weapon=weapon.label),
            )
        )
        if _counter_lands(enc, ctx, target, attacker, weapon, faces, chance, events):
            entry["counter"] = weapon.model_dump(mode="json")
            # The counterer's own damage dice, entered with this choice or rolled now.
            entry["counter_dice"] = [chance.die(sides) for sides in faces]
        ctx["asking"] += 1
    elif kind == "hide":
        shield = enc.get(what)
        enc = TURNS.spend_reaction(enc, target.id)
        ctx["reacted"].append(target.id)
        # "hiding behind them as reaction to an attack" keeps the hold: behind anyone else, not.
        enc = _lets_go(enc, target, events, keeps=shield.grabbed_by == target.id)
        _retarget(enc, ctx, entry, shield)
        events.append(
            Event(
                kind="info",
                text=say(
                    "{who} hides behind {shield}, who becomes the target (they swap places).",
                    who=target.name,
                    shield=shield.name,
                ),
            )
        )
    elif kind == "guard":
        ally = enc.get(what)
        enc = TURNS.spend_reaction(enc, ally.id)
        ctx["reacted"].append(ally.id)
        enc = _lets_go(enc, ally, events, keeps=False)
        _retarget(enc, ctx, entry, ally)
        entry["guarded"] = True
        events.append(
            Event(
                kind="info",
                text=say("{who} guards {target} and becomes the target.", who=ally.name, target=target.name),
            )
        )
        ctx["asking"] += 1
    if own:
        _keep_save_die(enc, ctx, entry, chance)
    return advance(enc, ctx, chance, events)


def _counter_lands(enc, ctx, counterer: Fighter, attacker: Fighter, weapon: Weapon, faces, chance, events) -> bool:
    """A counter is "a suitable attack", so a shot beyond half range needs the WIT save to hit an attack
    would (its d20 comes first, entered with the choice). A missed one does no damage: damage dice entered
    for it are said unused, the attacker's blow lands alone."""
    if not weapon.ranged or not beyond_half_range(weapon, counterer, attacker, ctx["zones"]):
        return True
    wit = save(enc, counterer, "wit", chance, say("to hit ({why})", why=say("beyond half range")))
    events.append(Event(kind="roll", text=wit.text))
    if wit.passed:
        return True
    unused = [chance.die(sides) for sides in faces[: chance.entered_dice_left()]]
    events.append(Event(kind="info", text=say("{who}'s counter misses.", who=counterer.name)))
    if unused:
        text = say_plural(
            "{who}'s damage die {dice} is not used.",
            "{who}'s damage dice {dice} are not used.",
            len(unused),
            who=counterer.name,
            dice=", ".join(map(str, unused)),
        )
        events.append(Event(kind="info", text=text))
    return False


def _lets_go(enc, reacting: Fighter, events: list[Event], *, keeps: bool, both_hands: bool = False):
    """A reaction is an action: a grabber lets go for it unless it is one that keeps hold
    (a larger grabber lets go only for one that needs both hands)."""
    if keeps:
        return enc
    enc, let_go = release_if_busy(enc, enc.get(reacting.id), both_hands=both_hands)
    events.extend(let_go)
    return enc


def _keep_save_die(enc, ctx, entry, chance: Chance) -> None:
    """Park the STR save die the answering character's player entered after their reaction's own
    dice; an empty list says it was theirs to enter, so the bot rolls it if it is needed."""
    kept = entry.get("save_dice", [])  # entered with the stunt's answer, before the reaction
    owed = str_saves_owed(enc, ctx, enc.get(entry["cid"])) - len(kept)
    entry["save_dice"] = kept + [chance.die(20) for _ in range(min(owed, chance.entered_dice_left()))]


def str_saves_owed(enc, ctx, target: Fighter) -> int:
    """How many STR saves the attack may call on the target for: a manoeuvre's (unless the target
    is smaller, or larger and so out of its reach), or one against critical damage where the campaign
    allows it (a larger foe's shove deals a d4)."""
    attacker = enc.get(ctx["attacker"])
    critical = 1 if enc.options.get("critical_str_save") else 0
    smaller = target.size_rank < attacker.size_rank
    if ctx["mode"] == "damage" or (ctx["mode"] == "shove" and smaller):
        return critical
    return 0 if smaller or target.size_rank > attacker.size_rank else 1


def _retarget(enc, ctx, entry, new: Fighter) -> None:
    """The new target stands where the old one was; it knows it is attacked. Its dice are the
    old target's part of the attack, counted against the new target's size."""
    attacker, weapon, old = enc.get(ctx["attacker"]), Weapon(**ctx["weapon"]), enc.get(entry["cid"])
    entry["cid"], entry["unaware"] = new.id, False
    entry.pop("save_dice", None)  # the old target's, who is no longer hit
    if len(ctx["targets"]) == 1:
        ((entry["dice"], entry["halve"]),) = dice_shares(attacker, weapon, [new], ())
    elif not weapon.blast:
        entry["dice"], entry["halve"] = moved_share(attacker, old, new, entry["dice"])
