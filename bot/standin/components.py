"""Discord's rules for a message's components (buttons and selects in action rows), so a view
production would answer with a 400 fails against the stand-in too
(https://discord.com/developers/docs/components/reference)."""

from __future__ import annotations

from typing import Any

from .form_errors import Problem
from .records import iter_components

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SELECTS = frozenset((3, 5, 6, 7, 8))  # string, user, role, mentionable, channel
LINK, PREMIUM = 5, 6
MAX_ROWS = 5
MAX_IN_ROW = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_PLACEHOLDER = 150
MAX_OPTIONS = 25
MAX_OPTION_TEXT = 100  # an option's label, value and description


def _text_problems(where: str, value: Any, low: int, high: int) -> list[Problem]:
    if not isinstance(value, str) or not low <= len(value) <= high:
        return [Problem(where, f"Must be between {low} and {high} in length.")]
    return []


def _button_problems(where: str, button: dict[str, Any]) -> list[Problem]:
    style = button.get("style")
    problems = []
    if style not in range(1, 7):
        problems.append(Problem(f"{where}.style", "Value must be one of (1, 2, 3, 4, 5, 6)."))
    if style == LINK:
        if not button.get("url") or button.get("custom_id") is not None:
            problems.append(Problem(where, "A link button needs a url and no custom_id."))
    elif style != PREMIUM:
        problems += _text_problems(f"{where}.custom_id", button.get("custom_id"), 1, MAX_CUSTOM_ID)
    label = button.get("label")
    if label is not None:
        problems += _text_problems(f"{where}.label", label, 0, MAX_BUTTON_LABEL)
    if style != PREMIUM and not label and not button.get("emoji"):
        problems.append(Problem(where, "A button needs a label or an emoji."))
    return problems


def _option_problems(where: str, options: list[dict[str, Any]]) -> list[Problem]:
    problems = []
    for i, option in enumerate(options):
        problems += _text_problems(f"{where}.{i}.label", option.get("label"), 1, MAX_OPTION_TEXT)
        problems += _text_problems(f"{where}.{i}.value", option.get("value"), 1, MAX_OPTION_TEXT)
        if option.get("description") is not None:
            problems += _text_problems(f"{where}.{i}.description", option["description"], 0, MAX_OPTION_TEXT)
    values = [o.get("value") for o in options]
    if len(set(values)) != len(values):
        problems.append(Problem(where, "Select option values must be unique."))
    return problems


def _select_problems(where: str, select: dict[str, Any]) -> list[Problem]:
    problems = _text_problems(f"{where}.custom_id", select.get("custom_id"), 1, MAX_CUSTOM_ID)
    placeholder = select.get("placeholder")
    if placeholder is not None:
        problems += _text_problems(f"{where}.placeholder", placeholder, 0, MAX_PLACEHOLDER)
    low = select.get("min_values", 1)
    high = select.get("max_values", 1)
    if not 0 <= low <= MAX_OPTIONS:
        problems.append(Problem(f"{where}.min_values", f"Must be between 0 and {MAX_OPTIONS}."))
    if not 1 <= high <= MAX_OPTIONS:
        problems.append(Problem(f"{where}.max_values", f"Must be between 1 and {MAX_OPTIONS}."))
    if low > high:
        problems.append(Problem(f"{where}.min_values", "Must be less than or equal to max_values."))
    if select.get("type") == STRING_SELECT:
        options = select.get("options") or []
        if not 1 <= len(options) <= MAX_OPTIONS:
            problems.append(Problem(f"{where}.options", f"Must be between 1 and {MAX_OPTIONS} in length."))
        elif high > len(options):
            problems.append(Problem(f"{where}.max_values", "Must be less than or equal to the number of options."))
        problems += _option_problems(f"{where}.options", options)
    return problems


def _row_problems(where: str, row: dict[str, Any]) -> list[Problem]:
    if row.get("type") != ACTION_ROW:
        return [Problem(f"{where}.type", "A message without the components-v2 flag holds only action rows.")]
    inner = row.get("components") or []
    if not 1 <= len(inner) <= MAX_IN_ROW:
        return [Problem(f"{where}.components", f"Must be between 1 and {MAX_IN_ROW} in length.")]
    problems = []
    if any(c.get("type") in SELECTS for c in inner) and len(inner) > 1:
        problems.append(Problem(f"{where}.components", "A select menu must be alone in its action row."))
    for j, comp in enumerate(inner):
        at = f"{where}.components.{j}"
        if comp.get("type") == BUTTON:
            problems += _button_problems(at, comp)
        elif comp.get("type") in SELECTS:
            problems += _select_problems(at, comp)
        else:
            problems.append(Problem(f"{at}.type", "An action row holds buttons or one select menu."))
    return problems


def component_problems(components: list[dict[str, Any]]) -> list[Problem]:
    """Why Discord would refuse these (classic, action-row) components of a message; [] if it would not."""
    if len(components) > MAX_ROWS:
        return [Problem("components", f"Must be {MAX_ROWS} or fewer in length.")]
    problems = []
    for i, row in enumerate(components):
        problems += _row_problems(f"components.{i}", row)
    ids = [c["custom_id"] for c in iter_components(components) if c.get("custom_id") is not None]
    if len(set(ids)) != len(ids):
        problems.append(Problem("components", "Component custom id cannot be duplicated"))
    return problems
