"""What a campaign setting may hold, whether it comes from `/campaign setup` or an imported file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import InvalidInput
from rules.said import N_, say
from rules.system import Option

DEFAULT_CHOICE_SECONDS = 120
MAX_REMINDER_MINUTES = 1440
MAX_CHOICE_SECONDS = 86400
MAX_TEXT_SETTING = 100


@dataclass(frozen=True)
class Shared:
    """A setting every system shares, set with /campaign setup's own option `option`, from 0 to `most`."""

    option: str
    help: str
    most: int


# by the key it is stored under
SHARED_OPTIONS = {
    "reminder_minutes": Shared(
        "reminder_minutes", N_("Minutes before an idle turn's player is reminded (0: never)."), MAX_REMINDER_MINUTES
    ),
    "choice_timeout_seconds": Shared(
        "choice_timeout", N_("Seconds before an unanswered choice takes its default."), MAX_CHOICE_SECONDS
    ),
}


def bounded(value: Any, key: str, low: int, high: int) -> int:
    # A bool is an int to Python, not a number to a user.
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidInput(say("`{key}` must be a whole number from {low} to {high}.", key=key, low=low, high=high))
    return value


def typed(value: Any, option: Option, key: str) -> Any:
    """A system setting in its default's type, within its declared range or choices; nothing that could
    ping or link."""
    default = option.default
    if isinstance(default, bool):
        text = str(value).lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise InvalidInput(say("`{key}` is yes or no.", key=key))
    if isinstance(default, int):
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise InvalidInput(say("`{key}` must be a whole number.", key=key)) from None
        low = option.low if option.low is not None else 0 if default >= 0 else -1000
        return bounded(number, key, low, option.high if option.high is not None else 1000)
    text = str(value)
    if option.choices:
        word = text.strip().lower()
        if word not in option.choices:
            raise InvalidInput(say("`{key}` is one of: {choices}.", key=key, choices=", ".join(option.choices)))
        return word
    if len(text) > MAX_TEXT_SETTING:
        raise InvalidInput(say("`{key}` is limited to {n} characters.", key=key, n=MAX_TEXT_SETTING))
    if any(ch in text for ch in "@<>`[]") or "://" in text:
        raise InvalidInput(say("`{key}` cannot hold mentions, links or markup.", key=key))
    return text
