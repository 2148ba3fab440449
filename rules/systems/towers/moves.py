"""Every non-attack action of the action list, with its cost and effect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.commands import integer
from rules.errors import InvalidInput, NotAllowed
from rules.model import Event
from rules.secrets import secret
from rules.usertext import listed, quoted

from .acting import acted
from .attack import spend_mana
from .costs import FREE, SHIFT_ADDED, VARIES, ActionType, action_type
from .damage import heal
from .grapple import escape, initiate, restrain, reverse, slam, squeeze, throw
from .stance import choose as choose_stance

if TYPE_CHECKING:
    from rules.randomness import Chance

    from .actions import Act
    from .model import TowersCombatant, TowersEncounter
    from .system import TowersSystem


def act(system: TowersSystem, enc: TowersEncounter, action: Act, chance: Chance):
    kind = action_type(action.what)
    me = enc.find(action.actor or "")
    flags = action.flags
    if kind.key == "stance":
        enc, text = choose_stance(enc, me, flags, action.target)
        return enc, [Event(kind="info", text=f"{me.name} {text}")]
    if kind.cost == FREE and kind.key not in ("hold", "release"):
        said = f": {flags['text']}" if isinstance(flags.get("text"), str) else ""
        return enc, [Event(kind="info", text=f"{me.name}: {kind.label} (free){said}.")]
    if me.leaping and kind.key != "running leap":
        raise NotAllowed(f"{me.name} is mid Running Leap: the second half comes first (/act action:running leap).")
    if kind.key == "hold":
        return system.turns.hold(system, enc, me, chance)
    cost = _cost(kind, flags, action)
    enc = enc.update(me.id, flat_footed=False)  # acting now: no longer flat-footed
    me = enc.get(me.id)
    if kind.key in CONTESTS:
        enc, text = CONTESTS[kind.key](enc, me, action, chance)
    else:
        enc, text = EFFECTS.get(kind.key, _nothing)(enc, me, action)
    enc = acted(enc, me.id, kind.key)
    label = kind.label
    if kind.key == "running leap":
        label = "Running Leap, the leap" if me.leaping else "Running Leap, the run"
    if flags.get("shift_position") or flags.get("step"):
        label = f"Shift Position + {label}"
    # "Tony aims: …" for a verb, "Tony: Grapple Test: …" for a labelled result.
    joined = f"{me.name} {text}" if text[:1].islower() else f"{me.name}: {text}"
    events = [Event(kind="info", text=joined)] if text else []
    enc, more = system.turns.advance(system, enc, me.id, cost, chance, what=f"{label} ({cost})")
    return enc, events + more


def _cost(kind: ActionType, flags: dict, action: Act) -> int:
    cost = kind.cost
    if kind.cost == VARIES:
        if "cost" not in flags:
            raise InvalidInput('Use a Skill: the GM sets the cost, e.g. options:"cost=5".')
        cost = integer(flags["cost"], "cost", 0, 100)
    elif kind.key == "stand" and "cost" in flags:
        # A good Acrobatics check makes standing quicker, never slower.
        cost = integer(flags["cost"], "cost", 0, kind.cost)
    if flags.get("shift_position") or flags.get("step"):
        if not kind.can_add_shift or cost == 0:
            raise InvalidInput(f"Shift Position cannot be added to {kind.label}.")
        cost += SHIFT_ADDED
    return cost


# effects: (enc, combatant, action) -> (enc, text shown, or "") -----------------


def _nothing(enc, me, action):
    detail = action.flags.get("text") or action.target
    return enc, (f"{action_type(action.what).label}: {detail}." if isinstance(detail, str) and detail else "")


def _aim(enc, me: TowersCombatant, action):
    stat = "sa" if action.flags.get("sa") or action.flags.get("spell") else "pa"
    limit = getattr(me.sheet, stat) // 2
    aim = me.aim + 1 if me.aim_stat == stat else 1
    if aim > limit:
        raise InvalidInput(
            f"{me.name} cannot aim again: at most half {stat.upper()} {getattr(me.sheet, stat)} = {limit} in a row."
        )
    return enc.update(me.id, aim=aim, aim_stat=stat), f"aims: (flip+{aim}) on the next {stat.upper()} attack."


def _recover(enc, me, action):
    after, _ = heal(me, stun=me.sheet.endurance)

    def n(value: int) -> str:
        return secret(value, me)

    text = f"recovers STUN = Endurance {n(me.sheet.endurance)}: STUN {n(me.stun)} → {n(after.stun)}/{n(me.sheet.stun)}"
    if after.stun - me.stun < me.sheet.endurance:
        text += " (the maximum)"
    return enc.with_combatant(after), text + "."


def _drop_prone(enc, me, action):
    return enc.update(me.id, prone=True), "drops prone."


def _stand(enc, me, action):
    if not me.prone:
        raise InvalidInput(f"{me.name} is not prone.")
    return enc.update(me.id, prone=False), "stands up."


def _move(enc, me, action):
    if action.flags.get("prone"):
        return enc.update(me.id, prone=True), "moves and drops prone at the end (free)."
    return enc, "moves up to Speed."


def _reckless(enc, me, action):
    return enc.update(me.id, reckless=True), "moves up to double Speed: (flip−1) on opposed checks until next acting."


def _full_defense(enc, me, action):
    text = "goes on Full Defense: +1 (shift+1) on defence flips until next acting."
    return enc.update(me.id, full_defense=True), text


def _leap(enc, me, action):
    if me.leaping:
        return enc.update(me.id, leaping=False), "leaps up to Speed over open spaces (lands, or falls)."
    return enc.update(me.id, leaping=True), "runs up to Speed in a straight line; the leap comes when next acting."


def _shake(enc, me, action):
    minor = [c for c in me.conditions if c.minor]
    name = action.flags.get("condition") or action.target
    if isinstance(name, str) and name:
        chosen = [c for c in minor if c.name.casefold() == name.casefold()]
        if not chosen:
            raise InvalidInput(f"{me.name} has no minor condition {quoted(name)}.")
    elif len(minor) == 1:
        chosen = minor
    elif not minor:
        raise InvalidInput(f"{me.name} has no minor condition to shake.")
    else:
        raise InvalidInput("Name the condition to shake: " + listed(c.name for c in minor) + ".")
    gone = chosen[0]
    left = tuple(c for c in me.conditions if c is not gone)
    return enc.update(me.id, conditions=left), f"shakes off {gone.name}."


def _grapple(enc, me, action, chance):
    return initiate(enc, me, action.target, chance)


def _escape(enc, me, action, chance):
    return escape(enc, me, chance)


def _restrain(enc, me, action, chance):
    return restrain(enc, me, action.target)


def _squeeze(enc, me, action, chance):
    return squeeze(enc, me, action.target, chance)


def _slam(enc, me, action, chance):
    return slam(enc, me, action.target, chance)


def _throw(enc, me, action, chance):
    return throw(enc, me, action.target, action.flags, chance)


def _reverse(enc, me, action, chance):
    return reverse(enc, me, chance)


def _cast(enc, me, action):
    enc, spent = spend_mana(enc, me, action.flags)
    detail = action.flags.get("spell") or action.target
    what = f"casts {detail}" if isinstance(detail, str) and detail else "casts a spell"
    return enc, f"{what}{f' ({spent})' if spent else ''}."


EFFECTS = {
    "aim": _aim,
    "recover": _recover,
    "drop prone": _drop_prone,
    "stand": _stand,
    "combat move": _move,
    "reckless move": _reckless,
    "full defense": _full_defense,
    "running leap": _leap,
    "shake condition": _shake,
    "cast": _cast,
}
CONTESTS = {
    "initiate grapple": _grapple,
    "escape": _escape,
    "restrain": _restrain,
    "squeeze": _squeeze,
    "slam": _slam,
    "throw": _throw,
    "reverse grapple": _reverse,
}
