"""The shared slash commands, read as 99 Towers actions."""

from __future__ import annotations

import re
from typing import Any

from rules.commands import base_fields, flags, integer
from rules.errors import InvalidInput, UnknownAction
from rules.model import Actor
from rules.turns.clock import Release

from .actions import Act, AddCondition, Attack, Check, Damage, Heal, OpportunityAttack, RemoveCondition
from .costs import ACTIONS, action_type

_SUM = re.compile(r"^\s*[+-]?\d+(\s*[+-]\s*\d+)*\s*$")
_FALL = re.compile(r"^\s*(?:fall\s*:?\s*)?(\d+)\s*(?:ft|feet|foot|')?\s*$", re.IGNORECASE)
_DURATION = re.compile(r"^\s*(\d+)\s*(phases?|rounds?)\s*$", re.IGNORECASE)
SAVE_STATS = ("endurance", "pd", "id", "pa", "sa", "ss", "hs", "init", "er", "ir")


def number(text: Any, name: str) -> int:
    value = str(text if text is not None else "")
    if not _SUM.match(value):
        raise InvalidInput(f"`{name}` must be a number or a sum like `4+2`.")
    total = sum(int(part.replace(" ", "")) for part in re.findall(r"[+-]?\s*\d+", value))
    return integer(total, name, -1000, 1000)


def targets(text: Any) -> tuple[str, ...]:
    parts = [p.strip() for p in re.split(r",|\band\b", str(text or "")) if p.strip()]
    if not parts:
        raise InvalidInput("Name a target.")
    return tuple(parts)


def attack(by: Actor, options: dict[str, Any], style: str | None = None) -> Attack:
    opts = flags(options.get("options"))
    if style is None:
        style = "attack"
        for flag, named in (("power", "power attack"), ("charge", "charge"), ("aid", "aid"), ("ally", "aid"),
                            ("opportunity", "opportunity attack"), ("oa", "opportunity attack")):
            if opts.get(flag):
                style = named
    fields = base_fields(by, options) | {"targets": targets(options.get("target")), "style": style, "flags": opts}
    if options.get("weapon"):
        fields["weapon"] = str(options["weapon"])
    if options.get("modifier") is not None:
        fields["modifier"] = integer(options["modifier"], "modifier", -20, 20)
    if options.get("damage") not in (None, ""):
        fields["damage"] = number(options["damage"], "damage")
    if options.get("damage_type"):
        fields["damage_type"] = str(options["damage_type"])[:40]
    if options.get("defense"):
        fields["defense"] = str(options["defense"]).strip().lower()
    cls = OpportunityAttack if style == "opportunity attack" else Attack
    return cls(**fields)


def act(by: Actor, options: dict[str, Any]):
    kind = action_type(str(options.get("action") or ""))
    opts = flags(options.get("options"))
    if kind.attack:
        return attack(by, options, kind.key)
    if kind.key == "release":
        fields = base_fields(by, options)
        return Release(**fields, target=str(options["target"]) if options.get("target") else None,
                       before=not opts.get("after"))
    fields = base_fields(by, options) | {"what": kind.key, "flags": opts}
    if options.get("target"):
        fields["target"] = str(options["target"])
    return Act(**fields)


def damage(by: Actor, options: dict[str, Any]) -> Damage:
    opts = flags(options.get("options"))
    fields: dict[str, Any] = base_fields(by, options) | {"target": str(options.get("target") or "")}
    amount = str(options.get("amount") or "")
    fall = _FALL.match(amount) if (opts.get("fall") or re.search(r"fall|ft|feet|'", amount, re.I)) else None
    if fall:
        fields["fall_feet"] = integer(fall.group(1), "feet", 0, 1000)
        fields["category"] = "physical"
    else:
        fields["stun"] = number(amount, "amount")
        category, dtype = kind_words(f"{options.get('damage_type') or ''} {_words(opts)}")
        fields |= {"category": category, "dtype": dtype}
    if "lethal" in opts:
        fields["lethal"] = integer(opts["lethal"], "lethal", 0, 500)
    if "flips" in opts:
        fields["flips"] = integer(opts["flips"], "flips", 0, 52)
    return Damage(**fields)


def _words(opts: dict) -> str:
    found = [k for k, v in opts.items() if v is True]
    if isinstance(opts.get("type"), str):
        found.append(opts["type"])
    return " ".join(found)


NOT_TYPES = ("fall", "temp", "temporary", "lethal", "minor")


def kind_words(text: str) -> tuple[str, str]:
    """`arcane cold` → ("arcane", "cold"): a category and any other word as the damage type."""
    category, dtype = "none", ""
    for word in text.lower().split():
        if word in ("physical", "arcane"):
            category = word
        elif word in ("none", "untyped"):
            category = "none"
        elif word not in NOT_TYPES:
            dtype = word
    return category, dtype


def heal(by: Actor, options: dict[str, Any]) -> Heal:
    opts = flags(options.get("options"))
    return Heal(
        **base_fields(by, options), target=str(options.get("target") or ""),
        amount=integer(options.get("amount"), "amount", 0, 500),
        lethal=bool(opts.get("lethal")), temporary=bool(opts.get("temp") or opts.get("temporary")),
    )


def check(by: Actor, options: dict[str, Any]) -> Check:
    stat = str(options.get("kind") or "").strip().lower()
    if stat not in SAVE_STATS:
        raise InvalidInput(f"Resist with one of: {', '.join(SAVE_STATS)}.")
    if options.get("dc") is None:
        raise InvalidInput("dc: the effect's Attack value (how many cards it flips).")
    opts = flags(options.get("options"))
    if isinstance(opts.get("cards"), str) and not options.get("cards"):
        # /save has no cards: field, so flips entered by hand ride in the options.
        options = options | {"cards": opts.pop("cards")}
    return Check(**base_fields(by, options), stat=stat, against=integer(options["dc"], "dc", 1, 30), flags=opts)


def condition_add(by: Actor, options: dict[str, Any]) -> AddCondition:
    opts = flags(options.get("options"))
    phases = None
    duration = str(options.get("duration") or "").strip()
    if duration and duration.lower() not in ("scene", "encounter", "until removed"):
        match = _DURATION.match(duration)
        if not match:
            raise InvalidInput("Duration: `N phases`, `N rounds` (10 phases each) or `scene`.")
        phases = int(match.group(1)) * (10 if match.group(2).lower().startswith("round") else 1)
        phases = integer(phases, "duration", 1, 1000)
    category, dtype = kind_words(_words({k: v for k, v in opts.items() if k != "ongoing"}))
    tags = str(options.get("tags") or "").lower().split()
    return AddCondition(
        **base_fields(by, options), target=str(options.get("target") or ""),
        name=" ".join(str(options.get("condition") or "").split())[:40], phases=phases,
        minor="minor" in tags or bool(opts.get("minor")),
        ongoing=integer(opts.get("ongoing", 0), "ongoing", 0, 100), category=category, dtype=dtype,
    )


def condition_remove(by: Actor, options: dict[str, Any]) -> RemoveCondition:
    return RemoveCondition(**base_fields(by, options), target=str(options.get("target") or ""),
                           name=str(options.get("condition") or ""))


COMMANDS = {
    "attack": attack,
    "act": act,
    "damage": damage,
    "heal": heal,
    "save": check,
    "condition_add": condition_add,
    "condition_remove": condition_remove,
}


def command(name: str, by: Actor, options: dict[str, Any]):
    if name not in COMMANDS:
        raise UnknownAction(f"/{name.replace('_', ' ')} is not used in 99 Towers.")
    return COMMANDS[name](by, options)


def act_choices() -> list[tuple[str, str]]:
    return [(a.key, f"{a.label} ({a.shown_cost()})") for a in ACTIONS.values()]
