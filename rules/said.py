"""How the rules say things: phrases of their own, in English, kept as values.

Each line is `say("{who} attacks {target}", who=…, target=…)`: a `rules.text.Phrase`
whose template is the message id a translation is looked up by (as in gettext and
discord.py's `locale_str`), and whose values are texts in turn (typed names, secret
numbers, other phrases). Whoever shows it renders the tree (`bot.render`); the rules
never flatten it into prose.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .numbers import number
from .text import (
    EMPTY,
    SENTENCE_ENDS,
    Cut,
    NotSaid,
    Phrase,
    Plural,
    Raw,
    Secret,
    Seq,
    Text,
    Typed,
    as_text,
    english,
    fields,
    joined_raw,
    seq,
)

__all__ = [
    "EMPTY",
    "N_",
    "NotSaid",
    "Phrase",
    "Plural",
    "Text",
    "cut",
    "english",
    "joined",
    "joined_lines",
    "say",
    "say_plural",
    "seq",
    "term",
]

_CONVERSIONS: dict[str, Callable[[Any], str]] = {"r": repr, "s": str, "a": ascii}


def say(template: str, /, **values: Any) -> Phrase:
    """The phrase `template` with `values` put in."""
    return Phrase(template, _values(template, values))


def say_plural(singular: str, plural: str, n: int | None, /, **values: Any) -> Phrase:
    """`say(singular)` when n == 1, else `say(plural)`, as one phrase whose form another
    language picks by its own rule for n. n is None for a count kept secret (a hidden NPC's):
    its form must not tell it, so it reads in the plural, and in a language's "other" form."""
    template = singular if n == 1 else plural
    counted = None if n is None else int(n)
    return Phrase(template, _values(template, values), Plural(singular, plural, counted))


def _values(template: str, values: dict[str, Any]) -> tuple[tuple[str, Text], ...]:
    out: dict[str, Text] = {}
    for _, name, spec, conversion in fields(template):
        if name is None or name in out:
            continue
        out[name] = _value(values[name], spec or "", conversion)
    return tuple(out.items())


def _value(value: Any, spec: str, conversion: str | None) -> Text:
    if isinstance(value, Text):
        if spec or conversion:
            raise ValueError(f"a said value that is a text takes no format: {english(value)!r}")
        return value
    if isinstance(value, NotSaid):
        return Typed(format(str(value), spec))
    if conversion:
        value = _CONVERSIONS[conversion](value)
    return Raw(number(value, format(value, spec)))


def N_(word: str) -> str:
    """A word of the rules' vocabulary, written here and said later (`term`): unchanged, only
    marked for `pybabel extract`."""
    return word


def term(word: Any) -> Text:
    """A word of the rules' own vocabulary held in a value (a condition, a weapon from a
    table): said, so it is translated too. Typed text stays as typed."""
    if isinstance(word, Text):
        return word
    if isinstance(word, NotSaid) or not isinstance(word, str):
        return as_text(word)
    if not word:
        return EMPTY
    return say(word.replace("{", "{{").replace("}", "}}"))


def joined(sep: str, parts: Iterable[Any]) -> Text:
    """The parts with `sep` between them; a `sep` that is words (" and ", " or ") is said too."""
    items = list(parts)
    if not any(ch.isalpha() for ch in sep):
        return joined_raw(sep, items)
    out: list[Any] = []
    for index, part in enumerate(items):
        if index:
            out.append(say(sep))
        out.append(part)
    return joined_raw("", out)


def joined_lines(lines: Iterable[Any]) -> Text:
    """Lines shown one under another, put in one (a log's summary, a list in brackets): "; " after
    each, but only a space after one that ends a sentence ("… rest changes nothing."), its stop
    parting it from the next already. An empty line is left out."""
    items = [text for text in map(as_text, lines) if text]
    out: list[Any] = []
    for index, line in enumerate(items):
        if index:
            out.append(" " if _last_character(items[index - 1]) in SENTENCE_ENDS else "; ")
        out.append(line)
    return seq(*out)


def _last_character(text: Text) -> str:
    """The last character of the text's English ("" if it is empty or hidden): a phrase's template
    says whether the line ends a sentence in every language, a typed text as typed."""
    if isinstance(text, Raw | Typed):
        return text.text[-1:]
    if isinstance(text, Secret):
        return ""  # the separator must tell the players nothing of what is hidden
    if isinstance(text, Cut):
        return _last_character(text.text)
    if isinstance(text, Seq):
        return next((last for last in map(_last_character, reversed(text.parts)) if last), "")
    if isinstance(text, Phrase):
        for literal, name, _, _ in reversed(fields(text.template)):
            value = text.value(name) if name is not None else None
            last = _last_character(value) if value is not None else ""
            if last or literal:
                return last or literal[-1]
    return ""


def cut(text: Any, limit: int) -> Text:
    """At most `limit` characters, in whichever language the text is read (cut when it is rendered:
    measuring it here would render it once more on every command)."""
    value = as_text(text)
    if isinstance(value, Cut) and value.limit <= limit:
        return value
    return Cut(value, limit)
