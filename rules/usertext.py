"""Text a user typed (names, notes, weapon names), marked wherever the rules repost it.

The rules build their result lines with f-strings such as ``f"{c.name} attacks"``.
A `UserText` keeps its characters as typed (comparisons, lookups and storage see
plain text), but when it is formatted into a line it wraps itself in two
private-use characters. Whoever shows the line (`bot/render.py`) then shows what
lies between the marks literally: a character named ``[Free Nitro](https://…)``
or ``**Bold**`` stays text, and the rules never need to know about Discord.

Only text that could read as markup is marked: an ordinary name formats exactly
as a plain string would, so the lines of everyday fights do not change.

A user cannot type the marks themselves: `scrub` removes them from typed text
(the bot calls it, with the secret marks of `rules.secrets`, on every input).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator

from . import said

OPEN = "\ue002"
CLOSE = "\ue003"

# What can start markup, a link, a tag or an emoji in a Discord message. Parentheses,
# hyphens and colons alone cannot ("Dr Rot (Unleashed)", "Half-Orc" stay unmarked).
_MARKUP = re.compile(r"[\\*_~|`<>#\[\]]|://|^\s*-")
_SPAN = re.compile(f"{OPEN}([^{CLOSE}]*)(?:{CLOSE}|$)")
_MARKS = re.compile(f"[{OPEN}{CLOSE}{said.MARKS}]")


def could_be_markup(text: str) -> bool:
    return bool(_MARKUP.search(text))


def mark(value: Any) -> str:
    """`value` as text, marked as typed by a user when it could read as markup.

    For the places that build text without an f-string (``"Guard: " + mark(name)``)."""
    text = scrub(str(value))
    return f"{OPEN}{text}{CLOSE}" if could_be_markup(text) else text


class UserText(said.NotSaid):
    """A str that marks itself when formatted into a line (see the module text)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return mark(format(str(self), spec))


def user_text(value: Any) -> UserText:
    return value if isinstance(value, UserText) else UserText(scrub(str(value)))


# A pydantic field type: validated as str, kept as UserText, stored as plain text.
Typed = Annotated[str, AfterValidator(user_text)]


def one_line(value: Any, limit: int | None = None) -> UserText:
    """Typed text with its whitespace collapsed, cut to `limit`, still marked (str methods
    and slices give back a plain str, which would lose the mark)."""
    text = " ".join(str(value or "").split())
    return user_text(text if limit is None else text[:limit])


def quoted(value: Any, limit: int = 30) -> str:
    """Typed text in a code span (a refusal naming what it could not read): shown as typed,
    save that a backtick, which would end the span early, reads as an apostrophe."""
    return "`" + scrub(str(value))[:limit].replace("`", "'") + "`"


def listed(items, sep: str = ", ") -> str:
    """`sep.join(items)` with each item formatted, so typed ones stay marked."""
    return sep.join(f"{item}" for item in items)


def spans(text: str, literal, other=lambda part: part) -> str:
    """`text` with each marked span passed through `literal` and the rest through `other`."""
    if OPEN not in text:
        return other(text)
    out, last = [], 0
    for match in _SPAN.finditer(text):
        out.append(other(text[last : match.start()]))
        out.append(literal(match.group(1)))
        last = match.end()
    out.append(other(text[last:]))
    return "".join(out)


def plain(text: str) -> str:
    """The text in English with the marks gone, for places that show no markup (button labels, images)."""
    return scrub(text)


def scrub(text: str) -> str:
    """The text without marks of any kind: typed text, said phrases (read in English)."""
    if said.OPEN in text or said.CLOSE in text:
        text = said.english(text)
    return _MARKS.sub("", text) if _MARKS.search(text) else text
