"""Turning slash-command options into actions, for every system alike.

The bot's commands are shared by all systems (`/attack`, `/act`, `/damage`…);
each system maps a command name and its raw options to one of its actions via
`System.command`. The helpers here read the options every command shares:
hand-entered dice and cards, and free-form `key=value` flags.
"""

from __future__ import annotations

import re
from typing import Any

from .dice import parse_entered
from .errors import InvalidInput
from .model import Actor

_FLAG = re.compile(r'([A-Za-z_][\w-]*)(?:\s*[=:]\s*("[^"]*"|\'[^\']*\'|[^\s,]+))?')


def entered(options: dict[str, Any]) -> dict[str, Any]:
    """`roll:15`, `dice:"4 6 2"`, `cards:"KH 4C"` → Action fields."""
    dice: tuple[int, ...] = ()
    if options.get("roll") is not None:
        dice = (int(options["roll"]),)
    if options.get("dice"):
        dice = dice + parse_entered(options["dice"])
    cards = tuple(str(options["cards"]).replace(",", " ").split()) if options.get("cards") else ()
    return {"dice": dice, "cards": cards}


def base_fields(by: Actor, options: dict[str, Any]) -> dict[str, Any]:
    fields = {"by": by, **entered(options)}
    if options.get("actor"):
        fields["actor"] = str(options["actor"])
    return fields


def flags(text: str | None) -> dict[str, str | bool]:
    """`adv cover=half range=9` → {"adv": True, "cover": "half", "range": "9"}."""
    result: dict[str, str | bool] = {}
    text = (text or "").strip()
    if len(text) > 300:
        raise InvalidInput("Options are limited to 300 characters.")
    leftover = _FLAG.sub("", text).replace(",", "").strip()
    if leftover:
        raise InvalidInput(f"Could not read `{leftover[:30]}` in the options: write words or `name=value`.")
    for key, value in _FLAG.findall(text):
        result[key.lower().replace("-", "_")] = value.strip("\"'") if value else True
    return result


def integer(value: Any, name: str, low: int = -1000, high: int = 1000) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"`{name}` must be a whole number.") from None
    if not low <= number <= high:
        raise InvalidInput(f"`{name}` must be between {low} and {high}.")
    return number
