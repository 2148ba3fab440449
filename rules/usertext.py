"""Text a user typed (names, notes, weapon names).

A `UserText` is a str: comparisons, lookups and storage see the characters as typed.
Put into a phrase (`rules.said.say`) it becomes a `rules.text.Typed` value, which every
renderer shows literally: a character named ``[Free Nitro](https://…)`` or ``**Bold**``
stays text, and the rules never need to know about Discord.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Annotated, Any

from pydantic import AfterValidator

from . import text as _text
from .errors import InvalidInput
from .said import say, say_plural
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
    save that a backtick, which would end the span early, reads as an apostrophe. Nothing in a
    code span is markup, so a renderer leaves it as it is (`bot.render.neutralise`)."""
    text = scrub(str(value))
    if len(text) > limit:
        text = text[: limit - 1] + "…"  # cut, and seen to be: the refusal names a longer word than it shows
    return Raw("`" + isolated(without_controls(text).replace("`", "'")) + "`")


def without_controls(text: str) -> str:
    """Text on one line, each control character (a NUL, an escape) drawn as U+FFFD: a file's keys may hold
    them, and a message shows none of them (PostgreSQL could not even store a NUL)."""
    return "".join(" " if c in "\t\n\r" else "\ufffd" if unicodedata.category(c) == "Cc" else c for c in text)


def listed(items: Iterable[Any], sep: str = ", ") -> Text:
    """The items with `sep` between them, typed ones kept typed."""
    return joined_raw(sep, list(items))


def listed_first(items: Iterable[Any], shown: int) -> Text:
    """The first ``shown`` items listed, and how many more there are: a long list kept inside a message."""
    items = list(items)
    first = listed(items[:shown])
    more = len(items) - shown
    if more > 0:
        return say_plural("{names} and {n} more", "{names} and {n} more", more, names=first, n=more)
    return first


def scrub(text: str) -> str:
    """Typed text without private-use code points, which mean nothing to anybody reading."""
    return without_private_use(text)


# Unicode's Default_Ignorable_Code_Point: characters drawn as nothing at all. The format characters
# (category Cf) are found by category, save those drawn as a sign (an Arabic number sign, an
# interlinear annotation mark, a hieroglyph format control); the others are listed (Hangul fillers,
# variation selectors, tags).
_IGNORABLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\U000e0000-\U000e0fff]")
_SHOWN_FORMAT = re.compile(
    "[\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f]"
)


def _without_ignorable(text: str) -> str:
    if text.isascii():
        return text
    text = _IGNORABLE.sub("", text)
    return "".join(c for c in text if unicodedata.category(c) != "Cf" or _SHOWN_FORMAT.match(c))


@functools.lru_cache(maxsize=8192)
def name_key(name: str) -> str:
    """The one form names are compared in, in an encounter and in the database alike: what reads
    alike is one name. Compatibility forms fold (NFKC: "Café" composed or not, full-width
    letters), characters drawn as nothing go (a zero-width space makes no second "Bob"), runs of
    spaces are one, and case does not count. For a name with none of those characters drawn as nothing
    it is the key stored names had before (NFKC, casefolded, trimmed), so stored rows are found as before."""
    text = unicodedata.normalize("NFKC", _without_ignorable(name)).casefold()
    return " ".join(_without_ignorable(text).split())


def visible(name: str) -> bool:
    """Whether a name shows anything at all: one of zero-width spaces or Hangul fillers shows blank."""
    return bool(name_key(name))


def control_character(text: str, *, lines: bool = False) -> str | None:
    """The first control character in `text` (a NUL, an escape), None when there is none.
    `lines`: text that may run over several lines, where a tab or a line break is no fault."""
    allowed = "\t\n\r" if lines else ""
    return next((c for c in text if unicodedata.category(c) == "Cc" and c not in allowed), None)


def control_refusal(text: str, what: Any, *, lines: bool = False) -> Text | None:
    """The refusal of text a user typed (or a file holds) with a control character in it, None when it
    has none: nothing shows one, and a NUL cannot even be stored in PostgreSQL's text. `what` names the
    text ("`name`")."""
    found = control_character(text, lines=lines)
    if found is None:
        return None
    return say("{what}: a control character ({code}) cannot be stored.", what=what, code=f"U+{ord(found):04X}")


def refuse_controls(text: str, what: Any, *, lines: bool = False) -> None:
    refusal = control_refusal(text, what, lines=lines)
    if refusal is not None:
        raise InvalidInput(refusal)


def refuse_unshown_name(name: str) -> None:
    """A typed name (a combatant's, a stored character's, a template's) must show: no control
    character, and at least one character that is drawn."""
    refuse_controls(name, say("The name"))
    if not visible(name):
        raise InvalidInput(say("A name needs at least one character that shows."))


# What makes text run right to left, or sets the direction of what follows: a right-to-left letter,
# a mark, an embedding, an override or an isolate.
_BIDI = frozenset(("R", "AL", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"))
FSI, PDI = "\u2068", "\u2069"


@functools.lru_cache(maxsize=8192)
def isolated(text: str) -> str:
    """Typed text that could turn a line around (a right-to-left override, a Hebrew name), set apart
    as a bidirectional isolate: it reads as typed, and what stands beside it in the line as written.
    A closing isolate with no opening one of its own would close the set-apart early, so it goes:
    alone it changes nothing; an isolate the text opens and never closes is closed at its end, or the
    closing mark would pair with it and leave the set-apart open to the end of the line. (Embeddings
    and overrides need no closing: an isolate's end closes every one opened inside it.)"""
    if text.isascii() or not any(unicodedata.bidirectional(c) in _BIDI for c in text):
        return text
    kept, depth = [], 0
    for c in text:
        if c in "\u2066\u2067\u2068":
            depth += 1
        elif c == PDI:
            if not depth:
                continue
            depth -= 1
        kept.append(c)
    return FSI + "".join(kept) + PDI * depth + PDI


def split_names(text: str, separator: str, known: Callable[[str], object] | None = None) -> tuple[str, ...]:
    """The names listed in `text`, split at the regular expression `separator` ("A, B", "A and B").
    With `known` (a name's combatant, or None: `Encounter.maybe`), a name that holds a separator itself
    ("Salt and Pepper", "Hansel, Gretel") stays whole: the text is split only between names that are
    known, and past the last known name at every separator (so that the piece refused is the unknown one)."""
    whole = text.strip()
    if not whole:
        return ()
    pieces = re.split(f"({separator})", whole)
    plain = tuple(p.strip() for p in pieces[::2] if p.strip())
    if known is None or len(plain) < 2:
        return plain
    # Piece boundaries are the even indices; best[i] is a reading of pieces[:i] as known names.
    best: dict[int, tuple[str, ...]] = {0: ()}
    for end in range(1, len(pieces) + 1, 2):
        for start in range(0, end, 2):
            if start not in best:
                continue
            name = "".join(pieces[start:end]).strip()
            if name and known(name):
                best[end + 1] = best[start] + (name,)
                break
    reached = max(best)
    return best[reached] + tuple(p.strip() for p in pieces[reached::2] if p.strip())
