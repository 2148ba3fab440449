"""Discord's size limits and the bot's own limits on what users type.

Discord's client enforces an option's declared `max_length`, but a client can be
bypassed: the bot checks every text option against the same numbers itself
(`too_long`, called for every command in one place, `bot.app`), and declares them
on every text option when the commands are registered (`declare`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from discord import AppCommandOptionType, app_commands

from rules.commands import MAX_OPTIONS
from rules.errors import InvalidInput
from rules.said import say, term
from rules.system import System
from rules.text import Raw, Text
from rules.usertext import control_refusal

CONTENT_LIMIT = 2000
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
BUTTON_LABEL = 80
FORM_FIELD = 4000  # a form's text field
SELECT_LABEL = 100
SELECT_OPTIONS = 25
CHOICE_NAME = 100  # an autocomplete choice's name
COMMAND_NAME = 32  # a command's, group's or option's name
COMMAND_TEXT = 100  # a command's, group's or option's description
CHOICE_VALUE = 100  # and its value, when a string

NAME = 64
NOTE = 500
STATS = 1000
ENTERED = 400
OTHER = 200

# Option name → longest accepted text. Anything not listed is "other text".
LIMITS = {
    "name": NAME,
    "character": NAME,
    "combatant": NAME,
    "actor": NAME,
    "side": NAME,
    "faction": NAME,
    "weapon": NAME,
    "condition": NAME,
    "text": NOTE,
    "note": NOTE,
    "notes": NOTE,
    "reason": NOTE,
    "stats": STATS,
    "options": MAX_OPTIONS,  # what the rules read (rules.commands.flags): the client counts down to the same
    "settings": MAX_OPTIONS,
    "dice": ENTERED,
    "cards": ENTERED,
    "amount": ENTERED,
    "damage": ENTERED,
    # "target" may name several ("A, B, C" for an area): other text, 200.
}
# Options whose text may run over several lines (a tab or a line break in them is no fault).
LINES = frozenset(("text", "note", "notes", "reason", "stats", "options", "settings"))


def check_form_fits(system: System, sheet: dict[str, Any]) -> None:
    """Refuse a sheet that could not be opened again in its form (``/character edit``): a section's
    field, every key written out, must fit what a form field holds."""
    label = system.overlong_section(sheet, FORM_FIELD)
    if label is not None:
        raise InvalidInput(
            say(
                "{field}: longer than the {n} characters a form field holds, with every key written out.",
                field=term(label),
                n=FORM_FIELD,
            )
        )


def limit_for(option: str) -> int:
    return LIMITS.get(option, OTHER)


def too_long(options: Iterable[tuple[str, Any]], declared: Mapping[str, int] | None = None) -> Text | None:
    """The refusal for the first text option longer than its limit, or holding a control character
    (a NUL, which PostgreSQL cannot store), or None. `declared`: the limits the command registered
    (some tighter than the shared ones, see `declared_limits`)."""
    for name, value in options:
        if not isinstance(value, str):
            continue
        limit = (declared or {}).get(name, limit_for(name))
        if len(value) > limit:
            return say(
                "`{name}` is limited to {limit} characters (you sent {sent}).", name=name, limit=limit, sent=len(value)
            )
        refusal = control_refusal(value, Raw(f"`{name}`"), lines=name in LINES)
        if refusal is not None:
            return refusal
    return None


LIMITS_KEY = "turnkeeper.text_limits"  # where `declare` leaves a command's limits, in its `extras`


def declared_limits(command: Any) -> Mapping[str, int]:
    """The `max_length` each text option of `command` was registered with, by the name Discord sends
    (worked out by `declare`, once, before the bot connects)."""
    extras = getattr(command, "extras", None)
    return extras.get(LIMITS_KEY, {}) if isinstance(extras, dict) else {}


def declare(commands) -> None:
    """Declare every text option's `max_length` (when it has none or a larger one), so
    Discord's client counts down the same limit the bot enforces."""
    for command in commands:
        if isinstance(command, app_commands.Group):
            declare(command.commands)
            continue
        if not isinstance(command, app_commands.Command):
            continue
        # discord.py has no public setter; for a text option min/max_value are its lengths.
        for parameter in command._params.values():
            if parameter.type is AppCommandOptionType.string and not parameter.choices:
                limit = limit_for(parameter.name)
                if parameter.max_value is None or parameter.max_value > limit:
                    parameter.max_value = limit
        command.extras[LIMITS_KEY] = {
            parameter.display_name: int(parameter.max_value)
            for parameter in command._params.values()
            if parameter.type is AppCommandOptionType.string and parameter.max_value is not None
        }


def typed_options(data: Mapping[str, Any] | None) -> list[tuple[str, Any]]:
    """(name, value) of every option in an interaction's data, subcommands included."""
    found: list[tuple[str, Any]] = []
    for option in (data or {}).get("options", []) or []:
        if "options" in option:
            found += typed_options(option)
        elif "value" in option and not option.get("focused"):
            found.append((option["name"], option["value"]))
    return found
