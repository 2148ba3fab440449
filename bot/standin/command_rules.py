"""Discord's rules for registering application commands (bulk overwrite) and for the choices an
autocomplete answers with, so a command set production would refuse with a 400 fails here too
(https://discord.com/developers/docs/interactions/application-commands#application-command-object)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .form_errors import Problem

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, NUMBER = 3, 4, 10
CHAT_INPUT = 1
MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100  # a choice's name, and its value when a string
MAX_COMMAND_CHARACTERS = 4000
MAX_COMMANDS = 100  # chat-input commands in one scope
MAX_TEXT_OPTION = 6000  # a text option's min_length and max_length
MAX_INT53 = 2**53 - 1  # an integer option's values and choices (Int53Type)
NAME_PUNCTUATION = frozenset("-_'")
# The languages a name, description or choice name may be translated into
# (https://discord.com/developers/docs/reference#locales); Discord refuses any other key, which
# also holds a translation map to the 34 entries its API description allows.
LOCALES = (
    "ar", "bg", "cs", "da", "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr", "he", "hi", "hr", "hu", "id",
    "it", "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro", "ru", "sv-SE", "th", "tr", "uk", "vi", "zh-CN", "zh-TW",
)  # fmt: skip


def _translations(where: str, node: dict[str, Any], key: str) -> list[tuple[str, Any]]:
    """``node``'s ``key`` and each of its translations (``key_localizations``, held to the same rules), by path."""
    localized = node.get(f"{key}_localizations") or {}
    return [(f"{where}.{key}", node.get(key))] + [
        (f"{where}.{key}_localizations.{locale}", text) for locale, text in localized.items()
    ]


def _locale_problems(where: str, node: dict[str, Any], key: str) -> list[Problem]:
    """Each translation of ``node``'s ``key`` is filed under a language Discord has."""
    return [
        Problem(f"{where}.{key}_localizations.{locale}", f"Value must be one of {LOCALES}.")
        for locale in node.get(f"{key}_localizations") or {}
        if locale not in LOCALES
    ]


def _name_problems(where: str, node: dict[str, Any]) -> list[Problem]:
    """A chat-input name and its translations: 1-32 letters, digits, - _ ', in lower case where a letter has one."""
    problems = _locale_problems(where, node, "name")
    for at, name in _translations(where, node, "name"):
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
            problems.append(Problem(at, f"Must be between 1 and {MAX_NAME} in length."))
        elif not all(c.isalnum() or c in NAME_PUNCTUATION for c in name) or name != name.lower():
            problems.append(Problem(at, "Command name is invalid"))
    return problems


def _description_problems(where: str, node: dict[str, Any]) -> list[Problem]:
    return _locale_problems(where, node, "description") + [
        Problem(at, f"Must be between 1 and {MAX_DESCRIPTION} in length.")
        for at, description in _translations(where, node, "description")
        if not isinstance(description, str) or not 1 <= len(description) <= MAX_DESCRIPTION
    ]


def _value_fits(option_type: int, value: Any) -> bool:
    if option_type == STRING:
        return isinstance(value, str) and len(value) <= MAX_CHOICE_TEXT
    if isinstance(value, bool):
        return False
    if option_type == INTEGER:
        return isinstance(value, int) and abs(value) <= MAX_INT53
    return isinstance(value, (int, float))


def choice_problems(where: str, choices: list[dict[str, Any]], option_type: int) -> list[Problem]:
    """An option's fixed choices, or an autocomplete's answer, for an option of ``option_type``."""
    if len(choices) > MAX_CHOICES:
        return [Problem(where, f"Must be {MAX_CHOICES} or fewer in length.")]
    problems = []
    for i, choice in enumerate(choices):
        problems += _locale_problems(f"{where}.{i}", choice, "name")
        for at, name in _translations(f"{where}.{i}", choice, "name"):
            if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_TEXT:
                problems.append(Problem(at, f"Must be between 1 and {MAX_CHOICE_TEXT} in length."))
        if not _value_fits(option_type, choice.get("value")):
            problems.append(Problem(f"{where}.{i}.value", f"Not a valid value for an option of type {option_type}."))
    return problems


def _value_option_problems(where: str, option: dict[str, Any]) -> list[Problem]:
    problems = []
    choices = option.get("choices") or []
    if choices and option.get("autocomplete"):
        problems.append(Problem(f"{where}.autocomplete", "Autocomplete cannot be set with choices"))
    if choices and option.get("type") not in (STRING, INTEGER, NUMBER):
        problems.append(Problem(f"{where}.choices", "Only string, integer and number options take choices."))
    problems += choice_problems(f"{where}.choices", choices, option.get("type", STRING))
    for key, least in (("min_length", 0), ("max_length", 1)):
        length = option.get(key)
        if length is not None and not least <= length <= MAX_TEXT_OPTION:
            problems.append(Problem(f"{where}.{key}", f"Must be between {least} and {MAX_TEXT_OPTION}."))
    low, high = option.get("min_length"), option.get("max_length")
    if low is not None and high is not None and low > high:
        problems.append(Problem(f"{where}.min_length", "Must be less than or equal to max_length."))
    low, high = option.get("min_value"), option.get("max_value")
    if low is not None and high is not None and low > high:
        problems.append(Problem(f"{where}.min_value", "Must be less than or equal to max_value."))
    if option.get("type") == INTEGER:
        for key in ("min_value", "max_value"):
            bound = option.get(key)
            if bound is not None and not _value_fits(INTEGER, bound):
                problems.append(Problem(f"{where}.{key}", f"Must be between {-MAX_INT53} and {MAX_INT53}."))
    problems += _unique_problems(where, option, "channel_types")
    return problems


def _unique_problems(where: str, node: dict[str, Any], key: str) -> list[Problem]:
    """A list of ``node`` that names each value once (``uniqueItems`` in Discord's API description)."""
    values = node.get(key) or []
    if len(set(values)) != len(values):
        return [Problem(f"{where}.{key}", "Must hold each value once.")]
    return []


def _options_problems(where: str, options: list[dict[str, Any]], depth: int) -> list[Problem]:
    """A command's or a subcommand's options: subcommands (and groups) or value options, not both."""
    if len(options) > MAX_OPTIONS:
        return [Problem(f"{where}.options", f"Must be {MAX_OPTIONS} or fewer in length.")]
    problems = []
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(Problem(f"{where}.options", "Option names must be unique"))
    kinds = {o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options}
    if len(kinds) > 1:
        problems.append(Problem(f"{where}.options", "Subcommands cannot be mixed with other options"))
    seen_optional = False
    for i, option in enumerate(options):
        at = f"{where}.options.{i}"
        problems += _name_problems(at, option)
        problems += _description_problems(at, option)
        kind = option.get("type")
        if kind == SUB_COMMAND_GROUP:
            if depth > 0 or any(o.get("type") != SUB_COMMAND for o in option.get("options") or []):
                problems.append(Problem(f"{at}.type", "A subcommand group sits at the top and holds subcommands."))
            problems += _options_problems(at, option.get("options") or [], depth + 1)
        elif kind == SUB_COMMAND:
            problems += _options_problems(at, option.get("options") or [], 2)
        else:
            if option.get("required"):
                if seen_optional:
                    problems.append(
                        Problem(f"{at}.required", "Required options must be placed before non-required options")
                    )
            else:
                seen_optional = True
            problems += _value_option_problems(at, option)
    return problems


def _texts(node: dict[str, Any], locale: str | None) -> Iterator[str]:
    """Every name, description and choice name/value of a command, as ``locale`` shows them."""
    for key in ("name", "description"):
        localized = (node.get(f"{key}_localizations") or {}).get(locale) if locale else None
        yield localized or str(node.get(key) or "")
    for choice in node.get("choices") or []:
        localized = (choice.get("name_localizations") or {}).get(locale) if locale else None
        yield localized or str(choice.get("name") or "")
        yield str(choice.get("value"))
    for option in node.get("options") or []:
        yield from _texts(option, locale)


def _locales(node: dict[str, Any]) -> set[str]:
    found = set(node.get("name_localizations") or {}) | set(node.get("description_localizations") or {})
    for choice in node.get("choices") or []:
        found |= set(choice.get("name_localizations") or {})
    for option in node.get("options") or []:
        found |= _locales(option)
    return found


def command_characters(command: dict[str, Any]) -> int:
    """The most characters the command has in any one locale (Discord holds each locale to 4000)."""
    return max(sum(len(t) for t in _texts(command, locale)) for locale in [None, *_locales(command)])


def command_problems(where: str, command: dict[str, Any]) -> list[Problem]:
    if command.get("type", CHAT_INPUT) != CHAT_INPUT:
        name = command.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
            return [Problem(f"{where}.name", f"Must be between 1 and {MAX_NAME} in length.")]
        return []
    problems = _name_problems(where, command)
    problems += _description_problems(where, command)
    for key in ("contexts", "integration_types"):
        if command.get(key) == []:  # null means every one: an empty list, none
            problems.append(Problem(f"{where}.{key}", "Must be 1 or more in length."))
        problems += _unique_problems(where, command, key)
    problems += _options_problems(where, command.get("options") or [], 0)
    if command_characters(command) > MAX_COMMAND_CHARACTERS:
        problems.append(Problem(where, f"Command exceeds maximum size ({MAX_COMMAND_CHARACTERS})"))
    return problems


def command_set_problems(commands: list[dict[str, Any]]) -> list[Problem]:
    """Why Discord would refuse this bulk overwrite; [] if it would take it."""
    problems = []
    keys = [(c.get("name"), c.get("type", CHAT_INPUT)) for c in commands]
    if len(set(keys)) != len(keys):
        problems.append(Problem("", "Application command names must be unique"))
    if sum(1 for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT) > MAX_COMMANDS:
        problems.append(Problem("", f"Maximum number of application commands reached ({MAX_COMMANDS})"))
    for i, command in enumerate(commands):
        problems += command_problems(str(i), command)
    return problems
