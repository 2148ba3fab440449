"""What the rules say, kept within reach of whoever shows it in another language.

The rules write their lines in English, but never as finished English that only
English can show: each phrase is `say("{who} attacks {target}", who=…, target=…)`.
The result is a str that reads as the English line once its marks are gone, so
the rules go on joining, appending and formatting lines as before, yet it carries
its template and the length of every value it put in. Whoever shows the line
(`bot/render.py`) can therefore put each phrase into the reader's language with
`render(text, translate)`: `translate` gets the English template (the message id,
as in gettext and discord.py's `locale_str`) and gives back a template in the
reader's language, or None to keep the English. Values that are phrases
themselves are translated the same way; typed text and secret numbers pass through
untouched, for the renderer to escape and conceal after.

A marked phrase is OPEN, the template (for a plural: the singular, PLURAL, the plural,
PLURAL, n), LENGTHS, one character per value giving its
length, START, the English, CLOSE. The marks are private-use characters: nobody
types them (`rules.usertext.scrub` removes them from typed text) and nothing shows
them (`english` and `render` remove them). A line that was cut through a phrase
still shows its English; only its translation is lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from string import Formatter
from typing import Any, NamedTuple

OPEN = "\ue010"
LENGTHS = "\ue011"
START = "\ue012"
CLOSE = "\ue013"
PLURAL = "\ue014"
_BASE = 0xF0000  # a length n is chr(_BASE + n), in the private-use plane 15
_LONGEST = 0xFFFD  # plane 15 ends at U+FFFFD

MARKS = f"{OPEN}{LENGTHS}{START}{CLOSE}{PLURAL}"
_HEADER = re.compile(f"{OPEN}[^{START}]*{START}")
_CLOSE = re.compile(CLOSE)
_CONVERSIONS = {"r": repr, "s": str, "a": ascii}


class Plural(NamedTuple):
    """What `translate` is asked for a phrase said with `say_plural`."""

    singular: str
    plural: str
    n: int | None  # None: a count kept secret


Translate = Callable[["str | Plural"], "str | None"]


@lru_cache(maxsize=4096)
def fields(template: str) -> tuple[tuple[str, str | None, str, str | None], ...]:
    """The template's pieces: (literal text, field name, format spec, conversion)."""
    pieces = tuple(Formatter().parse(template))
    for _, name, _, _ in pieces:
        if name is not None and not name.isidentifier():
            raise ValueError(f"a said template names its values: {template!r}")
    return pieces


def say(template: str, /, **values: Any) -> str:
    """The English of `template` with `values` put in, marked so it can be translated."""
    return _said(template, template, values)


def say_plural(singular: str, plural: str, n: int | None, /, **values: Any) -> str:
    """`say(singular)` when n == 1, else `say(plural)`, marked as one phrase whose form another
    language picks by its own rule for n. n is None for a count kept secret (a hidden NPC's): its
    form must not tell it, so it reads in the plural, and in a language's "other" form."""
    key = f"{singular}{PLURAL}{plural}{PLURAL}{'' if n is None else int(n)}"
    return _said(singular if n == 1 else plural, key, values)


def N_(word: str) -> str:
    """A word of the rules' vocabulary, written here and said later (`term`): unchanged, only
    marked for `pybabel extract`."""
    return word


def _said(template: str, key: str, values: dict[str, Any]) -> str:
    english: list[str] = []
    lengths: list[str] = []
    for literal, name, spec, conversion in fields(template):
        english.append(literal)
        if name is None:
            continue
        value = values[name]
        if conversion:
            value = _CONVERSIONS[conversion](value)
        shown = format(value, spec or "")
        if len(shown) > _LONGEST:
            return english_of(template, values)
        english.append(shown)
        lengths.append(chr(_BASE + len(shown)))
    return f"{OPEN}{key}{LENGTHS}{''.join(lengths)}{START}{''.join(english)}{CLOSE}"


def english_of(template: str, values: dict[str, Any]) -> str:
    return english(template.format(**values))


class NotSaid(str):
    """A str whose words are not the rules' own, such as a name a user typed
    (`rules.usertext.UserText`): `term` leaves it as it is."""

    __slots__ = ()


def term(word: Any) -> str:
    """A word of the rules' own vocabulary held in a value (a condition, a weapon from a
    table): said, so it is translated too. Typed text stays as typed."""
    if isinstance(word, NotSaid) or not isinstance(word, str) or not word or OPEN in word:
        return word if isinstance(word, str) else str(word)
    return say(word.replace("{", "{{").replace("}", "}}"))


def joined(sep: str, parts: Iterable[Any]) -> str:
    """`sep.join(parts)` where `sep` is itself words (" and ", " or "): said too."""
    items = [f"{part}" for part in parts]
    if not items:
        return ""
    return f"{say(sep) if any(ch.isalpha() for ch in sep) else sep}".join(items)


def cut(text: str, limit: int) -> str:
    """At most `limit` characters of English: the text as said when its English fits, else its
    English cut (a phrase cut through could not be read in another language anyway)."""
    shown = english(text)
    return text if len(shown) <= limit else shown[:limit]


def english(text: str) -> str:
    """The text as the rules wrote it in English: the phrases' marks gone."""
    if OPEN not in text and CLOSE not in text:
        return text
    return _CLOSE.sub("", _HEADER.sub("", text))


class _Broken(Exception):
    """A marked phrase that was cut or changed after it was said."""


def render(text: str, translate: Translate | None = None) -> str:
    """The text with every phrase in the language `translate` gives (English without one)."""
    if OPEN not in text:
        return english(text)
    if translate is None:
        return english(text)
    try:
        shown, end = _render(text, 0, translate, until=None)
    except _Broken:
        return english(text)
    return shown


def _render(text: str, at: int, translate: Translate, until: int | None) -> tuple[str, int]:
    """Render text[at:until] (the whole rest when `until` is None)."""
    stop = len(text) if until is None else until
    out: list[str] = []
    while at < stop:
        begin = text.find(OPEN, at, stop)
        if begin < 0:
            out.append(english(text[at:stop]))
            break
        out.append(english(text[at:begin]))
        shown, at = _phrase(text, begin, translate)
        out.append(shown)
    return "".join(out), stop


def _phrase(text: str, at: int, translate: Translate) -> tuple[str, int]:
    """The phrase starting at text[at] (an OPEN) in the reader's language, and where it ends."""
    head_end = text.find(LENGTHS, at)
    start = text.find(START, at)
    if head_end < 0 or start < head_end:
        raise _Broken
    template, asked = _key(text[at + 1 : head_end])
    lengths = [ord(ch) - _BASE for ch in text[head_end + 1 : start]]
    try:
        pieces = fields(template)
    except ValueError:
        raise _Broken from None
    values: dict[str, str] = {}
    english_parts: list[str] = []
    cursor, index = start + 1, 0
    for literal, name, _, _ in pieces:
        if text[cursor : cursor + len(literal)] != literal:
            raise _Broken
        english_parts.append(literal)
        cursor += len(literal)
        if name is None:
            continue
        if index >= len(lengths):
            raise _Broken
        end = cursor + lengths[index]
        shown, _ = _render(text, cursor, translate, until=end)
        values.setdefault(name, shown)
        english_parts.append(shown)
        cursor, index = end, index + 1
    if index != len(lengths) or text[cursor : cursor + 1] != CLOSE:
        raise _Broken
    wanted = translate(asked)
    if wanted is None:
        return "".join(english_parts), cursor + 1
    return _fill(wanted, values), cursor + 1


def _key(header: str) -> tuple[str, str | Plural]:
    """The English template a phrase's header says it used, and what `translate` is asked."""
    if PLURAL not in header:
        return header, header
    try:
        singular, plural, n = header.split(PLURAL)
        asked = Plural(singular, plural, int(n) if n else None)
    except ValueError:
        raise _Broken from None
    return (singular if asked.n == 1 else plural), asked


def _fill(template: str, values: dict[str, str]) -> str:
    """A translated template with the (already rendered) values put in by name."""
    out: list[str] = []
    for literal, name, _, _ in Formatter().parse(template):
        out.append(literal)
        if name is not None:
            out.append(values.get(name, ""))
    return "".join(out)


def templates(text: str) -> list[str | Plural]:
    """Every template said in `text`, each phrase after the phrases inside it (for catalogs and tests)."""
    found: list[str | Plural] = []

    def collect(template: str | Plural) -> None:
        found.append(template)
        return None

    render(text, lambda template: collect(template))
    return found
