"""The shared slash commands, read as 99 Towers actions (declared as data)."""

from __future__ import annotations

import re
from typing import Any

from rules.commands import Acts, Commands, Given, act_key, amount, integer
from rules.errors import InvalidInput
from rules.model import Encounter
from rules.said import N_, joined, say, term
from rules.turns.clock import Release
from rules.usertext import one_line, split_names

from . import moves
from .actions import Act, AddCondition, Attack, Check, Damage, Heal, OpportunityAttack, RemoveCondition
from .attack import KNOCKBACK
from .costs import ACTIONS, ALIASES, SHIFT_WORDS, ActionType, action_type
from .modifiers import ATTACK_WORDS, DEFENSE_WORDS
from .sheet import CATEGORIES, DAMAGE_TYPES, NO_CATEGORY, damage_words

_SUM = re.compile(r"^\s*[+-]?\d+(\s*[+-]\s*\d+)*\s*$")
_FALL = re.compile(r"^\s*(?:fall\s*:?\s*)?(\d+)\s*(?:ft|feet|foot|')?\s*$", re.IGNORECASE)
_DURATION = re.compile(r"^\s*(\d+)\s*(phases?|rounds?)\s*$", re.IGNORECASE)
# The sheet's stats in capitals, as the lines show them, for extraction.
SHOWN_STATS = (
    *(N_("PD"), N_("ID"), N_("PA"), N_("SA"), N_("SS"), N_("HS"), N_("INIT"), N_("ER"), N_("IR")),
    *(N_("PX"), N_("MANA")),
)
SAVE_STATS = (
    N_("endurance"),
    N_("pd"),
    N_("id"),
    N_("pa"),
    N_("sa"),
    N_("ss"),
    N_("hs"),
    N_("init"),
    N_("er"),
    N_("ir"),
)


# /attack's style words and the style each names (of several, the one later here).
STYLES = (
    ("power", "power attack"),
    ("charge", "charge"),
    ("aid", "aid"),
    ("ally", "aid"),
    ("opportunity", "opportunity attack"),
    ("oa", "opportunity attack"),
)
# The `options:` words an attack reads in attack.py and modifiers.py, whatever its style: the weapon,
# Shift Position, mana, the attack's and defence's modifiers, and Knockback; an Aid's ally besides.
STRIKE_WORDS = ("weapon", *SHIFT_WORDS, "mana", *ATTACK_WORDS, *DEFENSE_WORDS, KNOCKBACK)
AID_WORDS = ("ally", "aid")
# What /attack reads (any other is refused): the style, then what every attack reads.
ATTACK_OPTIONS = (*dict(STYLES), *STRIKE_WORDS)
# A damage category and type, as words (`arcane cold`) or `type=<word>`, for any other type.
KIND_WORDS = ("type", *CATEGORIES, *NO_CATEGORY, *DAMAGE_TYPES)


def number(text: Any, name: str) -> int:
    value = str(text if text is not None else "")
    if not _SUM.match(value):
        # The option's name, as the command tree shows it (translated there too).
        raise InvalidInput(say("`{name}` must be a number or a sum like `4+2`.", name=term(name)))
    total = sum(int(part.replace(" ", "")) for part in re.findall(r"[+-]?\s*\d+", value))
    return integer(total, name, -1000, 1000)


def targets(text: Any, state: Encounter | None = None) -> tuple[str, ...]:
    """The targets named in `text`: "A, B and C", where a combatant named "Salt and Pepper" is one."""
    parts = split_names(str(text or ""), r",|\band\b", state.maybe if state is not None else None)
    if not parts:
        raise InvalidInput(say("Name a target."))
    return parts


def attack(given: Given, style: str | None = None) -> Attack:
    opts = given.flags
    if style is None:
        style = "attack"
        for flag, named in STYLES:
            if opts.get(flag):
                style = named
    fields = given.base() | {
        "targets": targets(given.options.get("target"), given.state),
        "style": style,
        "flags": opts,
    }
    if given.has("weapon"):
        fields["weapon"] = given.text("weapon")
    if given.options.get("modifier") is not None:
        fields["modifier"] = given.integer("modifier", -20, 20)
    if given.has("damage"):
        fields["damage"] = number(given.options["damage"], "damage")
    if given.has("damage_type"):
        fields["damage_type"] = given.text("damage_type")[:40]
    if given.has("defense"):
        fields["defense"] = given.text("defense").strip().lower()
    cls = OpportunityAttack if style == "opportunity attack" else Attack
    return cls(**fields)


def act(given: Given):
    kind = action_type(given.text("action"))
    if kind.attack:
        return attack(given, kind.key)
    if kind.key == "release":
        return Release(**given.base(), target=given.optional("target"), before=not given.flags.get("after"))
    fields = given.base() | {"what": kind.key, "flags": given.flags}
    if given.has("target"):
        fields["target"] = given.text("target")
    return Act(**fields)


def damage(given: Given) -> Damage:
    opts = given.flags
    fields: dict[str, Any] = given.base() | {"target": given.text("target")}
    text = given.text("amount")
    fall = _FALL.match(text) if (opts.get("fall") or re.search(r"fall|ft|feet|'", text, re.I)) else None
    if fall:
        fields["fall_feet"] = integer(fall.group(1), "feet", 5, 1000)
        fields["category"] = "physical"
    else:
        stun = number(text, "amount")
        if stun == 0 and "lethal" in opts and "flips" not in opts:
            # the seed: "A target cannot take more LETHAL damage than he takes STUN damage"
            raise InvalidInput(say("LETHAL is never more than the STUN dealt: give an amount above 0, or `flips=N`."))
        if stun < 0 or (stun == 0 and "flips" not in opts):
            amount(text)  # refused: only damage flips make an amount of 0 do something
        fields["stun"] = stun
        category, dtype = kind_words(f"{given.text('damage_type')} {_words(opts)}")
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


# The bare words /damage and /condition add read as something else than a damage type.
NOT_TYPES = ("fall", "lethal", "flips", "minor")


def kind_words(text: str) -> tuple[str, str]:
    """`arcane cold` → ("arcane", "cold"): a category and any other word as the damage type."""
    return damage_words(text.lower().split(), "none", NOT_TYPES)


def heal(given: Given) -> Heal:
    return Heal(
        **given.base(),
        target=given.text("target"),
        amount=given.count("amount", 500),
        lethal=bool(given.flags.get("lethal")),
        temporary=given.flag("temp", "temporary"),
    )


def check_save_stat(stat: str) -> None:
    """Refuse a stat that is not one a 99 Towers effect is resisted with."""
    if stat not in SAVE_STATS:
        raise InvalidInput(say("Resist with one of: {stats}.", stats=joined(", ", (term(s) for s in SAVE_STATS))))


def check(given: Given) -> Check:
    stat = given.text("kind").strip().lower()
    check_save_stat(stat)
    if given.options.get("dc") is None:
        raise InvalidInput(say("dc: the effect's Attack value (how many cards it flips)."))
    opts = dict(given.flags)
    if isinstance(opts.get("cards"), str) and not given.has("cards"):
        # Flips entered by hand go in /save's cards: field; `cards='…'` in the options is still read.
        given = given.adding(cards=opts.pop("cards"))
    return Check(**given.base(), stat=stat, against=given.integer("dc", 1, 30), flags=opts)


def condition_add(given: Given) -> AddCondition:
    opts = given.flags
    phases = None
    duration = given.text("duration").strip()
    if duration and duration.lower() not in ("scene", "encounter", "until removed"):
        match = _DURATION.match(duration)
        if not match:
            raise InvalidInput(say("Duration: `N phases`, `N rounds` (10 phases each) or `scene`."))
        phases = int(match.group(1)) * (10 if match.group(2).lower().startswith("round") else 1)
        phases = integer(phases, "duration", 1, 1000)
    category, dtype = kind_words(_words({k: v for k, v in opts.items() if k != "ongoing"}))
    tags = given.text("tags").lower().split()
    return AddCondition(
        **given.base(),
        target=given.text("target"),
        name=one_line(given.text("condition"), 40),
        phases=phases,
        minor="minor" in tags or bool(opts.get("minor")),
        ongoing=integer(opts.get("ongoing", 0), "ongoing", 0, 100),
        category=category,
        dtype=dtype,
    )


def act_words(kind: ActionType) -> tuple[str, ...]:
    """The `options:` words `act` reads for one action."""
    if kind.attack:
        return (*AID_WORDS, *STRIKE_WORDS) if kind.key == "aid" else STRIKE_WORDS
    if kind.key == "release":
        return ("after",)
    return moves.words(kind)


def act_options() -> dict[str, tuple[str, ...]]:
    """`act:<action>` → its words, under every name /act takes (`move` as well as `combat move`);
    `act` holds them all, for a name `action_type` reads but `Commands.check_options` keys
    otherwise (`pick up!`)."""
    names = {**{key: key for key in ACTIONS}, **ALIASES}
    declared = {act_key(name): act_words(ACTIONS[key]) for name, key in names.items()}
    return {**declared, "act": tuple(dict.fromkeys(word for words in declared.values() for word in words))}


COMMANDS = Commands(
    options={
        "attack": ATTACK_OPTIONS,
        "damage": ("fall", "lethal", "flips", *KIND_WORDS),
        "heal": ("lethal", "temp", "temporary"),
        "save": ("cards",),  # the flips entered by hand, as `cards:` takes them
        "condition_add": ("ongoing", "minor", *KIND_WORDS),
        **act_options(),
    },
    build={
        "attack": attack,
        "damage": damage,
        "heal": heal,
        "save": check,
        "condition_add": condition_add,
        "condition_remove": lambda given: RemoveCondition(
            **given.base(), target=given.text("target"), name=given.text("condition")
        ),
    },
    acts=Acts(choices=tuple((a.key, a.choice()) for a in ACTIONS.values()), build=act),
)
