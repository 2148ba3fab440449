"""Turning slash-command options into actions: one owner for every system.

The bot's commands are shared by all systems (`/attack`, `/act`, `/damage`…).
Each system declares what they mean as data: a `Commands` table of command
name → builder, `/act`'s actions with their autocomplete labels (`Acts`), and
read-only reports. `System.command` is the one dispatcher for every system,
and the commands no system changes (joining, turns, choices) are declared once
here in `SHARED`.

Builders read their options only through `Given`, whose typed readers check
every value the same way in every system: required options, whole numbers in
a range, flags and `name=value` options, amounts of damage or healing, and dice
and cards entered by hand. A value they refuse raises InvalidInput, so the
command changes nothing and the refusal is private.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .actions import Action, AddCombatants, Choose, DelayTurn, NextTurn, Note, RemoveCombatant, command_name
from .dice import MAX_TOTAL, check_expression, parse_entered, walk
from .errors import InvalidInput, NotAllowed, UnknownAction
from .model import Actor, Encounter
from .resting import Resting
from .said import say, seq, term
from .text import Text
from .usertext import quoted, user_text

if TYPE_CHECKING:
    from .system import System

# `name=value` (or `name:value`); one value grammar for options and sheets. In
# options a comma separates items, in sheets it may sit inside a value.
_NAME = r"([A-Za-z_][\w-]*)"
_VALUE = r'("[^"]*"|\'[^\']*\'|[^\s{stop}]+)'
_FLAG = re.compile(_NAME + r"(?:\s*[=:]\s*" + _VALUE.format(stop=",") + ")?")
_PAIR = re.compile(_NAME + r"\s*[=:]\s*" + _VALUE.format(stop=""))
# A whole number as typed: ASCII digits only, where int() would also take `1_0` and `٣` (which would
# then fail as dice when rolled).
NUMBER = re.compile(r"^\s*[+-]?[0-9]+\s*$")
TRUTHY = {"1", "true", "yes", "on"}
MAX_OPTIONS = 300


def _key(name: str) -> str:
    return name.lower().replace("-", "_")


def flags(text: str | None) -> dict[str, str | bool]:
    """`adv cover=half range=9` → {"adv": True, "cover": "half", "range": "9"}."""
    result: dict[str, str | bool] = {}
    text = (text or "").strip()
    if len(text) > MAX_OPTIONS:
        raise InvalidInput(say("Options are limited to {n} characters.", n=MAX_OPTIONS))
    leftover = _FLAG.sub("", text).replace(",", "").strip()
    if leftover:
        raise InvalidInput(
            say("Could not read {text} in the options: write words or `name=value`.", text=quoted(leftover))
        )
    for key, value in _FLAG.findall(text):
        result[_key(key)] = value.strip("\"'") if value else True
    return result


def pairs(text: str | None, example: str) -> dict[str, str]:
    """`dex=3 dr="fire:10"` → {"dex": "3", "dr": "fire:10"}: every item has a value."""
    text = text or ""
    leftover = _PAIR.sub("", text).strip()
    if leftover:
        raise InvalidInput(
            say(
                "Could not read {text}: write stats as `name=value`, e.g. {example}.",
                text=quoted(leftover, 40),
                example=example,
            )
        )
    result: dict[str, str] = {}
    for key, value in _PAIR.findall(text):
        if _key(key) in result:  # which one was meant is the user's to say
            raise InvalidInput(say("Stat {stat} is given twice: keep one of them.", stat=quoted(_key(key))))
        result[_key(key)] = value.strip("\"'")
    return result


def integer(value: Any, name: str, low: int = -1000, high: int = 1000) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InvalidInput(say("`{name}` must be a whole number.", name=name)) from None
    if not low <= number <= high:
        raise InvalidInput(say("`{name}` must be between {low} and {high}.", name=name, low=low, high=high))
    return number


def flag_number(opts: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    """`name=N` from read options as a whole number in range; None if missing or a bare word."""
    value = opts.get(name)
    if value is None or value is True:
        return None
    return integer(value, name, low, high)


def amount(text: Any, name: str = "amount", high: int = 1000, *, zero: bool = False) -> str:
    """A positive amount, as a number or dice (`7`, `2d6+3`): zero, negative
    numbers and dice that cannot give more than 0 would post and record a no-op.
    `zero`: other options of the command do something with an amount of 0.
    Dice are held to `high` as a typed number is: at their highest they may not pass it."""
    value = " ".join(str(text if text is not None else "").split())
    if not value:
        raise InvalidInput(say("`{name}` is required.", name=name))
    if NUMBER.match(value):
        integer(value, name, 0 if zero else 1, high)
        return value.lstrip("+")
    tree = check_expression(value)
    # A total is rounded down, so `0.5` would be a no-op; a whole-number amount never needs a decimal.
    if any(type(node).__name__ == "Literal" and not isinstance(node.value, int) for node in walk(tree)):
        raise InvalidInput(
            say("`{name}` takes whole numbers: {value} has a decimal.", name=name, value=quoted(value, 40))
        )
    highest = math.floor(_bounds(tree)[1])
    if highest < 0 or (highest == 0 and not zero):
        raise InvalidInput(
            say(
                "`{name}` must be able to come out above 0: {value} cannot.",
                name=name,
                value=quoted(value, 40),
            )
        )
    if highest > high:
        raise InvalidInput(
            say(
                "`{name}` must be between {low} and {high}: {value} can come out as high as {most}.",
                name=name,
                low=0 if zero else 1,
                high=high,
                value=quoted(value, 40),
                most=highest,
            )
        )
    return value


def _bounds(node) -> tuple[float, float, bool]:
    """(lowest, highest, always whole) a parsed dice expression can total before it is rounded
    down: signs, sums, products and quotients exactly, dice under keep, drop, minimum and maximum
    at their extremes. Explosions are left out: they can pass any bound, and counting them would
    refuse every exploding die."""
    kind = type(node).__name__
    if kind in ("Expression", "Parenthetical", "AnnotatedNumber"):
        return _bounds(node.roll if kind == "Expression" else node.value)
    if kind == "Literal":
        return node.value, node.value, isinstance(node.value, int)
    if kind == "UnOp":
        low, high, whole = _bounds(node.value)
        return (-high, -low, whole) if node.op == "-" else (low, high, whole)
    if kind == "BinOp":
        return _arithmetic(node.op, _bounds(node.left), _bounds(node.right))
    if kind in ("Dice", "OperatedDice", "OperatedSet"):
        return _group_bounds(node, [])
    if kind == "NumberSet":
        return _set_bounds(node.values, keeps=False)
    return -MAX_TOTAL, MAX_TOTAL, False


def _arithmetic(
    op: str, left: tuple[float, float, bool], right: tuple[float, float, bool]
) -> tuple[float, float, bool]:
    (left_low, left_high, left_whole), (right_low, right_high, right_whole) = left, right
    whole = left_whole and right_whole
    if op == "+":
        return left_low + right_low, left_high + right_high, whole
    if op == "-":
        return left_low - right_high, left_high - right_low, whole
    if op == "*":
        products = [a * b for a in (left_low, left_high) for b in (right_low, right_high)]
        return min(products), max(products), whole
    if right_low <= 0 <= right_high:
        # A divisor that can be 0 or cross it: a whole one is at least 1 away from 0 when the roll
        # goes through, anything else could make the quotient as large as the evaluator allows.
        most = max(abs(left_low), abs(left_high), abs(right_low), abs(right_high)) if whole else MAX_TOTAL
        return -most, most, op == "//" or (op == "%" and whole)
    if op == "%":
        # The remainder has the divisor's sign and stays short of it: a whole one by at least 1.
        gap = 1 if whole else 0
        if right_low > 0:
            return 0, right_high - gap if left_low < 0 else min(left_high, right_high - gap), whole
        return right_low + gap if left_high > 0 else max(left_low, right_low + gap), 0, whole
    quotients = [a / b for a in (left_low, left_high) for b in (right_low, right_high)]
    if op == "//":
        return math.floor(min(quotients)), math.floor(max(quotients)), True
    return min(quotients), max(quotients), False


def _group_bounds(node, operations: list) -> tuple[float, float, bool]:
    """Dice, a set, or brackets with keep or drop after them (`(2d20)kh1`), as the evaluator rolls them."""
    kind = type(node).__name__
    if kind == "Parenthetical":
        return _group_bounds(node.value, operations)
    if kind in ("OperatedDice", "OperatedSet"):
        return _group_bounds(node.value, [*node.operations, *operations])
    if kind == "NumberSet":
        return _set_bounds(node.values, keeps=bool(operations))
    if kind != "Dice":
        return _set_bounds([node], keeps=bool(operations))
    low_face, high_face, most, dropped = 1, node.size, node.num, False
    for operation in operations:
        numbers = [sel.num for sel in operation.sels]
        by_rank = all(sel.cat in ("h", "l") for sel in operation.sels)
        if operation.op == "mi":
            low_face, high_face = max(low_face, numbers[0]), max(high_face, numbers[0])
        elif operation.op == "ma":
            low_face, high_face = min(low_face, numbers[0]), min(high_face, numbers[0])
        elif operation.op in ("k", "p"):
            dropped = True
            if by_rank:
                most = min(most, sum(numbers)) if operation.op == "k" else max(0, most - sum(numbers))
        else:  # a reroll or explosion: fresh dice, as rolled
            low_face, high_face = min(low_face, 1), max(high_face, node.size)
            most += 1 if operation.op == "ra" else 0
    return (0 if dropped else node.num * low_face), most * high_face, True


def _set_bounds(items, *, keeps: bool) -> tuple[float, float, bool]:
    """A set's items add up; keep or drop may leave out any of them."""
    parts = [_bounds(item) for item in items]
    lows = [min(low, 0) if keeps else low for low, _, _ in parts]
    highs = [max(high, 0) if keeps else high for _, high, _ in parts]
    return sum(lows), sum(highs), all(whole for _, _, whole in parts)


def entered(options: Mapping[str, Any]) -> dict[str, Any]:
    """`roll:15`, `dice:"4 6 2"`, `cards:"KH 4C"` → Action fields."""
    dice: tuple[int, ...] = ()
    if options.get("roll") is not None:
        dice = (int(options["roll"]),)
    if options.get("dice"):
        dice = dice + parse_entered(options["dice"])
    cards = tuple(str(options["cards"]).replace(",", " ").split()) if options.get("cards") else ()
    return {"dice": dice, "cards": cards}


class _Looked(dict[str, Any]):
    """A command's options that remember which of them were looked at."""

    def __init__(self, items: Mapping[str, Any], looked: set[str] | None = None) -> None:
        super().__init__(items)
        self.looked: set[str] = set() if looked is None else looked

    def get(self, key: str, default: Any = None) -> Any:
        self.looked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.looked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.looked.add(key)
        return super().__contains__(key)


class Given:
    """A command's options, read through typed, checked fields."""

    def __init__(
        self, by: Actor, options: Mapping[str, Any], state: Encounter | None = None, system: System | None = None
    ) -> None:
        self.by = by
        self.options = _Looked({k: v for k, v in options.items() if v is not None})
        self.state = state
        self.system = system

    def adding(self, **options: Any) -> Given:
        """The same command with these options set too; what either reads counts for both."""
        copy = Given(self.by, {**self.options, **options}, self.state, self.system)
        copy.options.looked = self.options.looked
        return copy

    def unread(self) -> list[str]:
        """The options given that nothing looked at: the command did not use them."""
        return [key for key, value in self.options.items() if value != "" and key not in self.options.looked]

    @property
    def playing(self) -> System:
        """The rule system the command runs under (`System.command` always gives it)."""
        if self.system is None:
            raise TypeError("these options were read without the rule system they are for")
        return self.system

    # --- the options every command may carry ----------------------------------
    @property
    def flags(self) -> dict[str, str | bool]:
        """The free-form `options:` text."""
        self.options.looked.add("options")
        return self._flags

    @cached_property
    def _flags(self) -> dict[str, str | bool]:
        """The `options:` text, read once; reading it to check its words is not using it."""
        return flags(dict.get(self.options, "options"))

    def entered(self) -> dict[str, Any]:
        return entered(self.options)

    def base(self) -> dict[str, Any]:
        """Fields every action takes: who sent it, who acts, what was entered by hand."""
        fields = {"by": self.by, **self.entered()}
        if self.options.get("actor"):
            fields["actor"] = str(self.options["actor"])
        return fields

    # --- slash options ----------------------------------------------------------
    def has(self, key: str) -> bool:
        return self.options.get(key) not in (None, "")

    def required(self, key: str) -> str:
        value = self.options.get(key)
        if value is None or str(value).strip() == "":
            raise InvalidInput(say("`{name}` is required.", name=key))
        return str(value).strip()

    def text(self, key: str, default: str = "") -> str:
        value = self.options.get(key)
        return default if value in (None, "") else str(value)

    def optional(self, key: str) -> str | None:
        """The option's text, or None when it is missing or empty."""
        return self.text(key) or None

    def integer(self, key: str, low: int, high: int, default: int | None = None) -> int | None:
        if self.options.get(key) is None:
            return default
        return integer(self.options[key], key, low, high)

    def amount(self, key: str = "amount", high: int = 1000, *, zero: bool = False) -> str:
        """A positive number or dice that can come out above 0 (`zero`: or exactly 0)."""
        return amount(self.options.get(key), key, high, zero=zero)

    def count(self, key: str = "amount", high: int = 1000, default: int | None = None) -> int:
        """A whole number of at least 1."""
        if self.options.get(key) in (None, "") and default is not None:
            return default
        return integer(self.options.get(key), key, 1, high)

    # --- the `options:` text ------------------------------------------------------
    def flag(self, *names: str) -> bool:
        """Any of the words given: `adv`, `adv=yes`…"""
        return any(self.flags.get(n) is True or str(self.flags.get(n, "")).lower() in TRUTHY for n in names)

    def word(self, name: str) -> str | None:
        """`name=value`'s value, None for a bare `name` or none at all."""
        value = self.flags.get(name)
        return value if isinstance(value, str) else None

    def number(self, name: str, low: int, high: int, default: int | None = None) -> int | None:
        """`name=N` as a whole number in range; a bare `name` counts as not given."""
        number = flag_number(self.flags, name, low, high)
        return default if number is None else number


Builder = Callable[[Given], Action]
Report = Callable[[Encounter, Given], Text]
# A report between fights: the campaign's stored characters of the system, its system state, its settings.
BetweenReport = Callable[[Sequence[Resting], Mapping[str, Any], dict[str, Any]], Text]


def plain(action: type[Action]) -> Builder:
    """A builder for actions with no fields of their own."""
    return lambda given: action(**given.base())


def _normal(name: str) -> str:
    return "_".join(name.strip().casefold().replace("-", " ").replace("_", " ").split())


def act_key(name: str) -> str:
    """The `Commands.options` key of one of `/act`'s actions: `zero-cost` → `act:zero_cost`."""
    return f"act:{_normal(name)}"


@dataclass(frozen=True)
class Acts:
    """`/act`'s actions: what autocomplete offers, and how each becomes an action.

    `own` holds the actions with their own builder (by name, spaces written as `_`);
    every other name goes to `build`, which may refuse it."""

    choices: tuple[tuple[str, Text | str], ...]  # (value, label)
    build: Builder
    own: Mapping[str, Builder] = field(default_factory=dict)

    def __call__(self, given: Given) -> Action:
        name = _normal(given.required("action"))
        return self.own.get(name, self.build)(given)


@dataclass(frozen=True)
class Commands:
    """A system's slash-level commands, declared: name → builder, `/act`, reports."""

    build: Mapping[str, Builder] = field(default_factory=dict)
    acts: Acts | None = None
    reports: Mapping[str, Report] = field(default_factory=dict)
    # Reports that also answer between fights, from the stored characters (`/plotpoint show`).
    between_reports: Mapping[str, BetweenReport] = field(default_factory=dict)
    # The `options:` words a command reads, where declared: any other is refused, so a typo (`avd`)
    # never rolls as if no option were given. One of `/act`'s actions may be declared as `act:<action>`
    # (`act:move`), else `act` holds the words of them all; an empty list refuses every word.
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def check_options(self, name: str, given: Given) -> None:
        act = _normal(given.text("action")) if name == "act" else ""
        key = act_key(act) if act_key(act) in self.options else name
        known = self.options.get(key)
        if known is None:
            return
        unknown = next((word for word in given._flags if word not in known), None)
        if unknown is None:
            return
        command = _command_label(name, act) if key != name else command_name(name)
        if not known:
            raise InvalidInput(
                say("/{command} takes no options: {option} is not one.", command=command, option=quoted(unknown))
            )
        raise InvalidInput(
            say(
                "Unknown option {option} for /{command}. Options: {known}.",
                option=quoted(unknown),
                command=command,
                known=", ".join(f"`{k}`" for k in known),
            )
        )

    def builder(self, name: str) -> Builder | None:
        if name == "act" and self.acts is not None:
            return self.acts
        return self.build.get(name) or SHARED.get(name)

    def act_choices(self) -> list[tuple[str, Text | str]]:
        return list(self.acts.choices) if self.acts else []

    def groups(self) -> frozenset[str]:
        """The slash command groups this system declares commands in (``plotpoint_spend``
        is ``/plotpoint spend``)."""
        return frozenset(name.split("_")[0] for name in (*self.build, *self.reports) if "_" in name)


def _command_label(name: str, act: str) -> Text | str:
    """`/act action:aim` for one of `/act`'s actions, else the command's own name."""
    return seq(command_name(name), " action:", term(act.replace("_", " "))) if act else command_name(name)


# The commands of play, whose every option is a slash option of its own: one the system's builder never
# looks at would change nothing, so it is refused rather than ignored (`/attack defense:` where attacks
# take no defence).
PLAY_COMMANDS = frozenset({"attack", "act", "damage", "heal", "save", "condition_add", "condition_remove"})


def refuse_unused(name: str, given: Given) -> None:
    """Refuse a play command's option its system's builder did not use."""
    unused = given.unread() if name in PLAY_COMMANDS else []
    if not unused:
        return
    act = _normal(given.text("action")) if name == "act" else ""
    raise InvalidInput(
        say(
            "/{command} does not use {option} in {system}: leave it out.",
            command=_command_label(name, act),
            option=quoted(unused[0] + ":"),
            system=term(given.playing.name),
        )
    )


def not_used(name: str, system_name: str) -> UnknownAction:
    return UnknownAction(
        say("/{command} is not used in {system}.", command=command_name(name), system=term(system_name))
    )


# --- commands on a whole encounter: the core runs them, these are their checks -------
MAX_UNDO = 50


def check_start(by: Actor, system_key: str | None) -> str:
    """`/encounter start`: the GM, and a rule system named or set for the campaign."""
    if not by.is_gm:
        raise NotAllowed(say("Only the GM starts an encounter."))
    if system_key is None:
        raise InvalidInput(
            say("This server has no campaign yet: the GM runs /campaign setup first (or names a system).")
        )
    return system_key


def check_undo(by: Actor, count: int) -> int:
    """`/encounter undo count:N`: the GM, a sane number of actions."""
    if not by.is_gm:
        raise NotAllowed(say("Only the GM can undo."))
    if not 1 <= count <= MAX_UNDO:
        raise InvalidInput(say("Undo between {low} and {high} actions at a time.", low=1, high=MAX_UNDO))
    return count


def check_owner_or_gm(by: Actor, character: Any) -> None:
    """Changing a stored character (anything with a `name` and an `owner_id`): its owner, or the GM.
    An NPC a GM kept (`npc`) is the GMs' alone: whoever kept it has no say once no longer a GM."""
    if by.is_gm:
        return
    if getattr(character, "npc", False):
        raise NotAllowed(say("{name} is an NPC the GM kept: only a GM changes it.", name=user_text(character.name)))
    if character.owner_id != by.user_id:
        raise NotAllowed(say("{name} belongs to another player.", name=user_text(character.name)))


# --- the commands every system shares -----------------------------------------------
@dataclass(frozen=True)
class Stored:
    """A stored character as `/initiative join` needs it."""

    id: int
    name: str
    owner_id: int
    system: str
    sheet: dict[str, Any]
    lasting: dict[str, Any] | None = None  # what it carried out of its last fight (System.carry_in)
    npc: bool = False  # an NPC the GM kept (keep:true), not a hero
    hidden: bool = False  # joins with its numbers hidden from players (a kept NPC: as it last fought)


def _join(given: Given) -> Action:
    character: Stored = given.options["character"]
    if character.npc:
        # Any GM brings back an NPC a GM kept, whoever kept it; nobody else does.
        if not given.by.is_gm:
            raise NotAllowed(
                say("{name} is an NPC the GM kept: only a GM brings it back.", name=user_text(character.name))
            )
    elif character.owner_id != given.by.user_id:
        raise NotAllowed(say("{name} belongs to another player.", name=user_text(character.name)))
    if character.system != given.playing.key:
        raise InvalidInput(
            say(
                "{name} is a {kind} character; this fight is {system}.",
                name=user_text(character.name),
                kind=term(character.system),
                system=term(given.playing.name),
            )
        )
    # An NPC the GM kept (keep:true) comes back as the NPC it was, run by the GM on the threats' side;
    # a hero is a hero whoever plays it, a GM included.
    kept = character.npc
    return AddCombatants(
        by=given.by,
        name=character.name,
        sheet=character.sheet,
        npc=kept,
        controller_id=None if kept else given.by.user_id,
        hidden=character.hidden,
        character_id=character.id,
        lasting=character.lasting,
        surprised=bool(given.options.get("surprised")),
        **given.entered(),
    )


def _add(given: Given) -> Action:
    if not given.by.is_gm:
        raise NotAllowed(say("Only the GM adds NPCs; players use /initiative join."))
    player = given.options.get("player")
    kept: Stored | None = given.options.get("kept")  # keep:true: the NPC stored as the GM's character
    return AddCombatants(
        by=given.by,
        name=given.text("name"),
        sheet=_npc_sheet(given),
        count=given.count("count", 50, default=1),
        side=given.optional("side"),
        hidden=bool(given.options.get("hidden")),
        npc=player is None,
        controller_id=player,
        character_id=kept.id if kept else None,
        lasting=kept.lasting if kept else None,
        surprised=bool(given.options.get("surprised")),
        **given.entered(),
    )


def _npc_sheet(given: Given) -> dict[str, Any]:
    """The stats given, on top of the stored sheet of an NPC the GM kept (it comes back as it left), or of the
    NPC library's stat block when the GM names a template."""
    kept: Stored | None = given.options.get("kept")
    template = given.options.get("template")  # (system key, name, sheet)
    if kept is not None:
        template = (kept.system, kept.name, kept.sheet)
    if template is None:
        return given.playing.parse_sheet(given.text("stats"))
    system_key, name, sheet = template
    if system_key != given.playing.key:
        raise InvalidInput(
            say(
                "{name} is a {kind} stat block; this fight is {system}.",
                name=user_text(name),
                kind=term(system_key),
                system=term(given.playing.name),
            )
        )
    overrides = flags(given.optional("stats"))
    bare = [k for k, v in overrides.items() if v is True]
    if bare:
        raise InvalidInput(say("Write stats as `name=value` ({stat} has no value).", stat=quoted(bare[0])))
    return given.playing.sheet_over(sheet, overrides)


def _choose(given: Given) -> Action:
    if given.state is None or given.state.pending is None:
        raise InvalidInput(say("Nothing is waiting for a choice."))
    return Choose(by=given.by, pending_id=given.state.pending.id, option=given.text("option"), **given.entered())


SHARED: dict[str, Builder] = {
    "initiative_join": _join,
    "initiative_add": _add,
    "initiative_next": lambda given: NextTurn(by=given.by, **given.entered()),
    "initiative_delay": lambda given: DelayTurn(by=given.by, actor=given.optional("combatant")),
    "initiative_remove": lambda given: RemoveCombatant(by=given.by, target=given.text("combatant")),
    "encounter_note": lambda given: Note(by=given.by, text=given.text("text")),
    "choose": _choose,
}
