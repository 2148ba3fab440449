"""Text a user typed (names, notes, weapon names).

A `UserText` is a str: comparisons, lookups and storage see the characters as typed.
Put into a phrase (`rules.said.say`) it becomes a `rules.text.Typed` value, which every
renderer shows literally: a character named ``[Free Nitro](https://…)`` or ``**Bold**``
stays text, and the rules never need to know about Discord.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import AfterValidator

from . import text as _text
from .text import NotSaid, Raw, Text, joined_raw

# What can start markup, a link, a tag or an emoji in a Discord message. Parentheses,
# hyphens and colons alone cannot ("Dr Rot (Unleashed)", "Half-Orc" stay as they are).
_MARKUP = re.compile(r"[\\*_~|`<>#\[\]]|://|^\s*-")
# Private-use code points (U+E000–U+F8FF, planes 15 and 16) mean nothing to anybody reading: nothing
# typed keeps them, and nothing the bot sends may hold one.
# Found by Unicode's own category for them ("Co"), so no such code point is written here either.
FIRST_PRIVATE_USE = 0xE000


def has_private_use(text: str) -> bool:
    return bool(text) and ord(max(text)) >= FIRST_PRIVATE_USE and any(unicodedata.category(c) == "Co" for c in text)


def without_private_use(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) != "Co") if has_private_use(text) else text


def could_be_markup(text: str) -> bool:
    return bool(_MARKUP.search(text))


class UserText(NotSaid):
    """A str a user typed (see the module text)."""

    __slots__ = ()


def user_text(value: Any) -> UserText:
    return value if isinstance(value, UserText) else UserText(scrub(str(value)))


def mark(value: Any) -> _text.Typed:
    """`value` as typed text, for a line built of parts (``seq("Guard: ", mark(name))``)."""
    return _text.Typed(scrub(str(value)))


# A pydantic field type: validated as str, kept as UserText, stored as plain text.
Typed = Annotated[str, AfterValidator(user_text)]


def one_line(value: Any, limit: int | None = None) -> UserText:
    """Typed text with its whitespace collapsed, cut to `limit`."""
    text = " ".join(str(value or "").split())
    return user_text(text if limit is None else text[:limit])


def quoted(value: Any, limit: int = 30) -> Text:
    """Typed text in a code span (a refusal naming what it could not read): shown as typed,
    save that a backtick, which would end the span early, reads as an apostrophe."""
    return Raw("`" + scrub(str(value))[:limit].replace("`", "'") + "`")


def listed(items: Iterable[Any], sep: str = ", ") -> Text:
    """The items with `sep` between them, typed ones kept typed."""
    return joined_raw(sep, list(items))


def scrub(text: str) -> str:
    """Typed text without private-use code points, which mean nothing to anybody reading."""
    return without_private_use(text)
