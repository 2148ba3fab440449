"""Numbers only the GM may read, inside texts everyone else reads too.

A hidden NPC's stat block and current resources (its defences, Stamina, Wounds,
Toughness, armour, …) appear in the same step-by-step result lines as everybody
else's. A rule system wraps each such number in `secret(...)`; whoever shows the
text decides: `conceal` for the channel and players, `reveal` for the GM.

The marks are two private-use characters, which no keyboard types and the bot
strips from whatever a user does type (`scrub`), so a name can neither fake a
mark nor break one open.
"""

from __future__ import annotations

import re
from typing import Any

from . import usertext

OPEN = "\ue000"
CLOSE = "\ue001"
HIDDEN = "?"

_SPAN = re.compile(f"{OPEN}[^{CLOSE}]*(?:{CLOSE}|$)")
_MARKS = re.compile(f"[{OPEN}{CLOSE}]")


def secret(value: Any, hidden: Any) -> str:
    """`value` as text, marked secret when `hidden` is true or is a hidden combatant."""
    text = str(value)
    if getattr(hidden, "hidden", hidden) is True:
        return f"{OPEN}{_unmark(text)}{CLOSE}"
    return text


def conceal(text: str) -> str:
    """The text as players see it: each secret becomes "?" (a cut-off one hides the rest)."""
    if OPEN not in text:
        return _unmark(text)
    return _unmark(_SPAN.sub(HIDDEN, text))


def reveal(text: str) -> str:
    """The text as the GM sees it: every number shown, the marks gone."""
    return _unmark(text)


def has_secrets(text: str) -> bool:
    return OPEN in text


def _unmark(text: str) -> str:
    # Only the secret marks: the marks of user-typed text (rules.usertext) are for the renderer.
    return _MARKS.sub("", text) if (OPEN in text or CLOSE in text) else text


def scrub(text: str) -> str:
    """Remove every mark, secret or user-text, from text a user typed."""
    return usertext.scrub(_unmark(text))
