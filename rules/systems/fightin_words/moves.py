"""`/act`: everything else a turn's seconds go on, from the seed's time table,
and spells with a delay that count down on the caster's own seconds."""

from __future__ import annotations

from typing import ClassVar

from rules.actions import Action
from rules.errors import InvalidInput, NotAllowed
from rules.model import Event
from rules.randomness import Chance
from rules.said import say, term
from rules.text import Text
from rules.usertext import listed, mark, one_line, quoted, user_text

from .model import DelayedEffect, Fighter
from .sheet import has, refuse_if_down
from .tables import ACTIONS, AIM, STAND_FROM_PRONE

MOVING = ("move", "run", "stand", "crouch", "prone", "crawl")
MAX_DELAY = 600


class Act(Action):
    """An action from the time table, or any other with `seconds`. No dice."""

    kind: ClassVar[str] = "act"
    action: str
    target: str | None = None
    seconds: int | None = None  # an explicit cost: required for `spend`, overrides the table otherwise
    what: str | None = None
    spell: str | None = None
    delay: int | None = None  # seconds after the casting ends
    larger: int = 0  # reload: scales the weapon is larger than its wielder


def act(system, enc, action: Act, chance: Chance):
    name = action.action.strip().casefold().replace(" ", "_")
    if name not in ACTIONS:
        choices = listed(term(key) for key in ACTIONS)
        raise InvalidInput(
            say("Unknown action {action}. Choose one of: {choices}.", action=quoted(action.action), choices=choices)
        )
    me: Fighter = enc.find(action.actor)
    refuse_if_down(me)
    timed = ACTIONS[name]
    cost = timed.seconds
    verb: Text = term(timed.verb)
    events: list[Event] = []
    changes: dict = {}
    if name in ("move", "run") and has(me, "disabled"):
        raise NotAllowed(say("{who} is Disabled and cannot walk: use `crawl` (4 s a square).", who=me.name))
    if name == "stand":
        if me.posture == "standing":
            raise InvalidInput(say("{who} is already standing.", who=me.name))
        cost = enc.options.get("stand_from_prone_seconds", STAND_FROM_PRONE) if me.posture == "prone" else 1
        verb = say("stands up from prone") if me.posture == "prone" else say("stands up from a crouch")
        changes["posture"] = "standing"
    elif name in ("crouch", "prone"):
        wanted = "crouching" if name == "crouch" else "prone"
        if me.posture == wanted:
            raise InvalidInput(say("{who} is already {posture}.", who=me.name, posture=term(wanted)))
        changes["posture"] = wanted
    elif name == "aim":
        cost = enc.options.get("aim_seconds", AIM)
        changes["aimed"] = True
    elif name == "mount":
        if me.mounted:
            raise InvalidInput(say("{who} is already mounted.", who=me.name))
        changes["mounted"] = True
    elif name == "dismount":
        if not me.mounted:
            raise InvalidInput(say("{who} is not mounted.", who=me.name))
        changes["mounted"] = False
    elif name == "reload":
        if not 0 <= action.larger <= 10:
            raise InvalidInput(say("`larger` is how many scales the weapon is larger than its wielder (0–10)."))
        cost += 4 * action.larger
    elif name == "cast" and has(me, "raging"):
        raise NotAllowed(say("{who} is raging and cannot focus on a spell.", who=me.name))
    if name in MOVING:
        changes["aimed"] = False
    if action.seconds is not None:
        cost = action.seconds
    elif name == "spend":
        raise InvalidInput(say('Say how long it takes: options `seconds=N` (and `what="…"`).'))
    if action.what:
        verb = mark(one_line(action.what, 80))
    if name == "cast":
        named = one_line(action.spell, 60) if action.spell else ""
        spell = spell_name(named)
        if action.target:
            verb = say("casts {spell} at {target}", spell=spell, target=user_text(action.target))
        else:
            verb = say("casts {spell}", spell=spell)
        if action.delay:
            if not 0 < action.delay <= MAX_DELAY:
                raise InvalidInput(say("A delay runs from 1 to {most} seconds.", most=MAX_DELAY))
            target = enc.find(action.target).name if action.target else None
            # The countdown includes the casting itself, so it starts once the
            # last casting second is spent, even when the casting carries over.
            effect = DelayedEffect(what=named, seconds=cost + action.delay, delay=action.delay, target=target)
            changes["effects"] = me.effects + (effect,)
            events.append(
                Event(
                    kind="info",
                    text=say(
                        "✨ {spell} will take effect {delay} s after the casting ends, counted on {who}'s own seconds.",
                        spell=spell,
                        delay=action.delay,
                        who=me.name,
                    ),
                )
            )
    elif action.target and not action.what:
        verb = say("{action} ({target})", action=verb, target=enc.find(action.target).name)
    if changes:
        enc = enc.update(me.id, **changes)
    enc, more = system.turns.spend(system, enc, me.id, cost, chance, what=verb, busy=verb)
    return enc, more + events if name != "cast" else more[:1] + events + more[1:]


def countdown(enc, cid: str, seconds: int):
    """The actor's seconds pass: delayed effects run down and go off."""
    f: Fighter = enc.get(cid)
    if not f.effects:
        return enc, []
    kept, events = [], []
    for effect in f.effects:
        left = effect.seconds - seconds
        if left > 0:
            kept.append(effect.but(seconds=left))
            continue
        # on_seconds comes after the seconds left were lowered, so the turn's
        # elapsed time before this stretch is what was used minus the stretch.
        before = enc.turns.full.get(cid, 0) - enc.turns.left.get(cid, 0) - seconds
        moment = max(0, before) + effect.seconds
        told = dict(who=f.name, spell=spell_name(effect.what), moment=moment, delay=effect.delay)
        if effect.target:
            line = say(
                "✨ {who}'s {spell} on {target} takes effect now, after second {moment} of {who}'s turn "
                "({delay} s delay): GM, apply what it does.",
                target=user_text(effect.target),
                **told,
            )
        else:
            line = say(
                "✨ {who}'s {spell} takes effect now, after second {moment} of {who}'s turn "
                "({delay} s delay): GM, apply what it does.",
                **told,
            )
        # The GM resolves what the effect does (/damage, /condition…).
        events.append(Event(kind="info", text=line, ping=(enc.gm_id,)))
    return enc.with_combatant(f.but(effects=tuple(kept))), events


def broken_off(enc, cid: str):
    """A casting carried into a turn its caster could not take is broken off: the spell never goes off
    ("all 4 seconds must be done successively"). Spells already cast keep their delay."""
    f: Fighter = enc.get(cid)
    unfinished = [e for e in f.effects if e.seconds > e.delay]
    if not unfinished:
        return enc, []
    events = [
        Event(
            kind="info",
            text=say(
                "✨ {who}'s {spell} is not cast: the casting was broken off.", who=f.name, spell=spell_name(e.what)
            ),
        )
        for e in unfinished
    ]
    return enc.with_combatant(f.but(effects=tuple(e for e in f.effects if e not in unfinished))), events


def spell_name(what: str) -> Text:
    """A delayed effect's spell as typed, or the rules' words for one nobody named."""
    return mark(what) if what else say("a spell")
