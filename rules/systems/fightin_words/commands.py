"""Shared slash commands → Fightin' Words actions."""

from __future__ import annotations

import re
from typing import Any

from rules.actions import Action
from rules.commands import base_fields, flags, integer
from rules.errors import InvalidInput, UnknownAction
from rules.model import Actor

from .moves import Act
from .attack import Attack
from .gm import AddCondition, Check, Damage, Heal, RemoveCondition
from .tables import ACTIONS

_MOD = re.compile(r"^\s*([+-]?\d+)\s*/\s*([+-]?\d+)\s*$")
FLAT_FOOTED = ("flat_footed", "flatfooted", "surprised", "surprise")


def modifier(text: str) -> tuple[int, int]:
    """`+1/0` → (1, 0): X to the attack roll, Y to the defence DC."""
    match = _MOD.match(str(text))
    if not match:
        raise InvalidInput("Write modifiers as `+X/+Y`, e.g. `mod=+1/0` or `mod=-1/-1`.")
    return integer(match.group(1), "X", -20, 20), integer(match.group(2), "Y", -20, 20)


def _number(opts: dict, key: str, low: int, high: int) -> int | None:
    return integer(opts[key], key, low, high) if key in opts and opts[key] is not True else None


def _targets(text: str, repeat: int | None) -> tuple[str, ...]:
    names = tuple(n.strip() for n in str(text or "").split(",") if n.strip())
    if not names:
        raise InvalidInput("Name a target.")
    if repeat:
        if len(names) != 1:
            raise InvalidInput("`combo=N` repeats one target N times; to split a combo, list the targets, one per attack.")
        names = names * repeat
    return names


def attack(by: Actor, options: dict[str, Any]) -> Action:
    opts = flags(options.get("options"))
    x = y = 0
    if options.get("modifier") is not None:
        x = y = integer(options["modifier"], "modifier", -20, 20)
    if "mod" in opts:
        dx, dy = modifier(opts["mod"])
        x, y = x + dx, y + dy
    distance = _number(opts, "range", 0, 100_000)
    if distance is None:
        distance = _number(opts, "distance", 0, 100_000)
    fields = dict(
        targets=_targets(options.get("target"), _number(opts, "combo", 1, 10)),
        weapon=options.get("weapon") or opts.get("weapon") or None,
        x=x, y=y,
        damage=options.get("damage") or None,
        called=str(opts["called"]).casefold() if "called" in opts else None,
        distance=distance,
        cover=str(opts.get("cover", "none")).casefold(),
        concealed=bool(opts.get("concealed")),
        invisible=bool(opts.get("invisible")),
        speed=_number(opts, "speed", 0, 10_000) or 0,
        flanked=bool(opts.get("flanked")),
        flat_footed=any(opts.get(k) for k in FLAT_FOOTED),
        cost=_number(opts, "cost", 0, 60),
        nonlethal=bool(opts.get("nonlethal")) or (options.get("damage_type") or "").casefold() == "nonlethal",
    )
    return Attack(**base_fields(by, options), **fields)


def act(by: Actor, options: dict[str, Any]) -> Action:
    opts = flags(options.get("options"))
    name = str(options.get("action") or "").strip()
    if not name:
        raise InvalidInput(f"Choose an action: {', '.join(ACTIONS)}.")
    return Act(
        **base_fields(by, options),
        action=name,
        target=options.get("target") or None,
        seconds=_number(opts, "seconds", 0, 60),
        what=str(opts["what"]) if "what" in opts and opts["what"] is not True else None,
        spell=str(opts["spell"]) if "spell" in opts and opts["spell"] is not True else None,
        delay=_number(opts, "delay", 1, 600),
        larger=_number(opts, "larger", 0, 10) or 0,
    )


def damage(by: Actor, options: dict[str, Any]) -> Action:
    opts = flags(options.get("options"))
    amount = str(options.get("amount") or "").strip()
    height = _number(opts, "height", 0, 100_000)
    if height is None and amount.casefold().startswith("fall"):
        raise InvalidInput("For a fall, give the height in metres: options `height=20 surface=concrete`.")
    kind = (options.get("damage_type") or opts.get("type") or "").strip().casefold() or None
    if opts.get("morale") and not kind:
        kind = "morale"
    return Damage(
        **base_fields(by, options),
        target=str(options.get("target") or ""),
        amount="" if height is not None else amount,
        type=kind,
        called=str(opts["called"]).casefold() if "called" in opts else None,
        nonlethal=bool(opts.get("nonlethal")) or kind == "nonlethal",
        height=height,
        surface=str(opts.get("surface", "hard")),
    )


def heal(by: Actor, options: dict[str, Any]) -> Action:
    opts = flags(options.get("options"))
    return Heal(
        **base_fields(by, options),
        target=str(options.get("target") or ""),
        amount=integer(options.get("amount", 1), "amount", 1, 100),
        morale=bool(opts.get("morale")),
    )


def save(by: Actor, options: dict[str, Any]) -> Action:
    opts = flags(options.get("options"))
    return Check(
        **base_fields(by, options),
        stat=str(options.get("kind") or ""),
        dc=integer(options["dc"], "dc", -20, 100) if options.get("dc") is not None else None,
        bonus=_number(opts, "bonus", -20, 20) or 0,
    )


def condition_add(by: Actor, options: dict[str, Any]) -> Action:
    return AddCondition(**base_fields(by, options), target=str(options.get("target") or ""),
                        condition=str(options.get("condition") or ""), duration=options.get("duration") or None)


def condition_remove(by: Actor, options: dict[str, Any]) -> Action:
    return RemoveCondition(**base_fields(by, options), target=str(options.get("target") or ""),
                           condition=str(options.get("condition") or ""))


COMMANDS = {
    "attack": attack,
    "act": act,
    "damage": damage,
    "heal": heal,
    "save": save,
    "condition_add": condition_add,
    "condition_remove": condition_remove,
}


def command(system_name: str, name: str, by: Actor, options: dict[str, Any]) -> Action:
    build = COMMANDS.get(name)
    if build is None:
        raise UnknownAction(f"/{name.replace('_', ' ')} is not used in {system_name}.")
    return build(by, options)
