"""`/act`: everything else a turn's seconds go on, from the seed's time table,
and spells with a delay that count down on the caster's own seconds."""

from __future__ import annotations

from typing import ClassVar

from rules.actions import Action
from rules.errors import InvalidInput, NotAllowed
from rules.model import Event
from rules.randomness import Chance
from rules.usertext import one_line, quoted

from .model import DelayedEffect, Fighter
from .sheet import has
from .tables import ACTIONS, STAND_FROM_PRONE

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
        raise InvalidInput(f"Unknown action {quoted(action.action)}. Choose one of: {', '.join(ACTIONS)}.")
    me: Fighter = enc.find(action.actor)
    timed = ACTIONS[name]
    cost, verb = timed.seconds, timed.verb
    events: list[Event] = []
    changes: dict = {}
    if name in ("move", "run") and has(me, "disabled"):
        raise NotAllowed(f"{me.name} is Disabled and cannot walk: use `crawl` (4 s a square).")
    if name == "stand":
        if me.posture == "standing":
            raise InvalidInput(f"{me.name} is already standing.")
        cost = STAND_FROM_PRONE if me.posture == "prone" else 1
        verb = f"stands up from {'prone' if me.posture == 'prone' else 'a crouch'}"
        changes["posture"] = "standing"
    elif name in ("crouch", "prone"):
        wanted = "crouching" if name == "crouch" else "prone"
        if me.posture == wanted:
            raise InvalidInput(f"{me.name} is already {wanted}.")
        changes["posture"] = wanted
    elif name == "aim":
        changes["aimed"] = True
    elif name in ("mount", "dismount"):
        changes["mounted"] = name == "mount"
    elif name == "reload":
        if not 0 <= action.larger <= 10:
            raise InvalidInput("`larger` is how many scales the weapon is larger than its wielder (0–10).")
        cost += 4 * action.larger
    elif name == "cast" and has(me, "raging"):
        raise NotAllowed(f"{me.name} is raging and cannot focus on a spell.")
    if name in MOVING:
        changes["aimed"] = False
    if action.seconds is not None:
        cost = action.seconds
    elif name == "spend":
        raise InvalidInput('Say how long it takes: options `seconds=N` (and `what="…"`).')
    if action.what:
        verb = one_line(action.what, 80)
    if name == "cast":
        spell = one_line(action.spell or "a spell", 60)
        verb = f"casts {spell}" + (f" at {action.target}" if action.target else "")
        if action.delay:
            if not 0 < action.delay <= MAX_DELAY:
                raise InvalidInput(f"A delay runs from 1 to {MAX_DELAY} seconds.")
            target = enc.find(action.target).name if action.target else None
            # The countdown includes the casting itself, so it starts once the
            # last casting second is spent, even when the casting carries over.
            effect = DelayedEffect(what=spell, seconds=cost + action.delay, delay=action.delay, target=target)
            changes["effects"] = me.effects + (effect,)
            events.append(
                Event(
                    kind="info",
                    text=f"✨ {spell} will take effect {action.delay} s after the casting ends, "
                    f"counted on {me.name}'s own seconds.",
                )
            )
    elif action.target and not action.what:
        verb += f" ({enc.find(action.target).name})"
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
        on = f" on {effect.target}" if effect.target else ""
        events.append(
            Event(
                kind="info",
                text=f"✨ {f.name}'s {effect.what}{on} takes effect now, after second {moment} of "
                f"{f.name}'s turn ({effect.delay} s delay): GM, apply what it does.",
                # The GM resolves what the effect does (/damage, /condition…).
                ping=(enc.gm_id,),
            )
        )
    return enc.with_combatant(f.but(effects=tuple(kept))), events
