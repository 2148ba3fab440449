"""What the rules say, as values: a tree that each medium renders in its own way.

A line is never prose to be parsed again. It is a `Text`:

- `Phrase`: a template of the rules' own (the gettext message id) with named values,
  each of them a `Text` in turn; a plural phrase carries both forms and its count;
- `Typed`: text a user typed (a name, a note), shown exactly as typed;
- `Secret`: a value only the GM may read when `hidden` (a hidden NPC's numbers);
- `Raw`: characters that are no words of the rules (a number, a sign, a roll's faces);
- `Seq`: texts one after the other;
- `Cut`: a text shown in at most so many characters.

`str(text)` is its English with every number shown, for logs and tests. A renderer
(`rules.reading` walks the tree; `bot.render` for Discord) translates, conceals and
escapes while it walks, so no order between them matters.

Flattening a text by accident (``f"{phrase}"``, ``phrase + "…"``, ``phrase == "…"``)
would lose what it is; with `STRICT` on (the tests) it raises, otherwise it gives the
English and the loss shows only as an untranslated line.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from string import Formatter
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from .numbers import number

log = logging.getLogger(__name__)
STRICT = os.environ.get("TURNKEEPER_STRICT_TEXT", "") not in ("", "0")


class Flattened(TypeError):
    """A text value used as a str."""


def _flatten(text: Text, how: str) -> str:
    if STRICT:
        raise Flattened(f"a text value would be flattened by {how}: {english(text)!r}")
    log.warning("a text value was flattened by %s (shown in English): %r", how, english(text))
    return english(text)


class NotSaid(str):
    """A str whose characters are a user's, not the rules' (`rules.usertext.UserText`):
    put into a phrase it becomes `Typed`."""

    __slots__ = ()


class Text:
    """A line, or part of one, as the rules said it (see the module text)."""

    __slots__ = ()

    def __str__(self) -> str:
        return english(self)

    def __format__(self, spec: str) -> str:
        return _flatten(self, "a format string")

    def __add__(self, other: object) -> Text:
        if isinstance(other, Text):
            return seq(self, other)
        if isinstance(other, str):
            return Raw(_flatten(self, "+ with a str") + other)
        return NotImplemented

    def __radd__(self, other: object) -> Text:
        if isinstance(other, str):
            return Raw(other + _flatten(self, "+ with a str"))
        return NotImplemented

    def __bool__(self) -> bool:
        return True

    # Values compare by kind and fields; a str is never equal, and comparing with one is a flattening.
    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__match_args__)  # type: ignore[attr-defined]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            if STRICT:
                raise Flattened(f"a text value compared with a str: {english(self)!r} == {other!r}")
            return False
        return type(other) is type(self) and other._fields() == self._fields()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._fields()))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            from_data, serialization=core_schema.plain_serializer_function_ser_schema(to_data)
        )


@dataclass(frozen=True, slots=True, eq=False)
class Raw(Text):
    text: str

    def __bool__(self) -> bool:
        return bool(self.text)


@dataclass(frozen=True, slots=True, eq=False)
class Typed(Text):
    text: str

    def __bool__(self) -> bool:
        return bool(self.text)


@dataclass(frozen=True, slots=True, eq=False)
class Secret(Text):
    value: Text
    hidden: bool


@dataclass(frozen=True, slots=True)
class Plural:
    """What a translation is asked for a phrase with a count: both English forms, and the count
    (None: a count kept secret, read in the plural and in a language's "other" form)."""

    singular: str
    plural: str
    n: int | None


@dataclass(frozen=True, slots=True, eq=False)
class Phrase(Text):
    template: str  # the English a translation is looked up by
    values: tuple[tuple[str, Text], ...] = ()
    plural: Plural | None = None

    @property
    def asked(self) -> str | Plural:
        """The message id: the template, or both forms for a plural phrase."""
        return self.plural if self.plural is not None else self.template

    def value(self, name: str) -> Text | None:
        return next((v for k, v in self.values if k == name), None)


@dataclass(frozen=True, slots=True, eq=False)
class Seq(Text):
    parts: tuple[Text, ...]

    def __bool__(self) -> bool:
        return any(self.parts)


@dataclass(frozen=True, slots=True, eq=False)
class Cut(Text):
    text: Text
    limit: int

    def __bool__(self) -> bool:
        return bool(self.text) and self.limit > 0


EMPTY = Seq(())


def as_text(value: Any) -> Text:
    """Any value as a text: a text as it is, a typed str as `Typed`, anything else as `Raw`."""
    if isinstance(value, Text):
        return value
    if isinstance(value, NotSaid):
        return Typed(str(value))
    return Raw(value if isinstance(value, str) else number(value, str(value)))


def seq(*parts: Any) -> Text:
    """The parts one after the other; a str part is `Raw` (punctuation, never words to translate)."""
    out: list[Text] = []
    for part in parts:
        if isinstance(part, Text):
            if isinstance(part, Seq):
                out.extend(part.parts)
            elif part or not isinstance(part, Raw):
                out.append(part)
        elif isinstance(part, NotSaid):
            out.append(Typed(str(part)))
        elif isinstance(part, str):
            if part:
                out.append(Raw(part))
        else:
            out.append(Raw(number(part, str(part))))
    return out[0] if len(out) == 1 else Seq(tuple(out))


def joined_raw(sep: str, parts: Iterable[Any]) -> Text:
    """`sep.join(parts)` as a text, `sep` being no words (", ", "\\n")."""
    out: list[Text] = []
    for index, part in enumerate(parts):
        if index and sep:
            out.append(Raw(sep))
        text = as_text(part) if not isinstance(part, str) or isinstance(part, NotSaid) else Raw(part)
        if isinstance(text, Seq):
            out.extend(text.parts)
        elif not (isinstance(text, Raw) and not text.text):
            out.append(text)
    return out[0] if len(out) == 1 else Seq(tuple(out))


# --- English -------------------------------------------------------------------------


def english(text: Any) -> str:
    """The text in English with every number shown (a str stays as it is)."""
    if isinstance(text, str):
        return text
    return "".join(piece for piece, _ in pieces(text, None, reveal=True))


def plain_text(text: Text | str, translate=None, *, reveal: bool = False) -> str:
    """The text as plain characters in the language `translate` gives (a log file, a terminal):
    hidden numbers "?" unless `reveal`."""
    if isinstance(text, str):
        return text
    return "".join(piece for piece, _ in pieces(text, translate, reveal=reveal))


def pieces(text: Text, translate, *, reveal: bool) -> list[tuple[str, bool]]:
    """The text's characters in order, each run with whether a user typed it: every phrase
    in the language `translate` gives (English where it gives None or there is none), each
    hidden secret as "?" unless `reveal`. Every medium renders from these."""
    out: list[tuple[str, bool]] = []
    _collect(text, translate, reveal, out)
    return out


HIDDEN = "?"


def _collect(text: Text, translate, reveal: bool, out: list[tuple[str, bool]]) -> None:
    # One list filled by plain recursion: a line is a tree of a few hundred nodes, rendered on every
    # command. Dispatch on the exact class (no class here has subclasses), and a Raw leaf, the
    # commonest node, is appended where it is met rather than through a call of its own.
    if type(text) is Raw:
        out.append((text.text, False))
    elif type(text) is Phrase:
        _phrase(text, translate, reveal, out)
    elif type(text) is Seq:
        for part in text.parts:
            if type(part) is Raw:
                out.append((part.text, False))
            else:
                _collect(part, translate, reveal, out)
    elif type(text) is Typed:
        out.append((text.text, True))
    elif type(text) is Secret:
        if text.hidden and not reveal:
            out.append((HIDDEN, False))
        else:
            _collect(text.value, translate, reveal, out)
    elif type(text) is Cut:
        left = text.limit
        for piece, typed in pieces(text.text, translate, reveal=reveal):
            if left <= 0:
                break
            out.append((piece[:left], typed))
            left -= len(piece)
    else:
        raise TypeError(f"not a text: {text!r}")


# What ends a sentence (`rules.said.joined_lines` parts lines by it too).
SENTENCE_ENDS = (".", "!", "?")


def _phrase(phrase: Phrase, translate, reveal: bool, out: list[tuple[str, bool]]) -> None:
    wanted = translate(phrase.asked) if translate is not None else None
    template = wanted if wanted is not None else _english_template(phrase)
    values = phrase.values
    for index, (literal, name, _, _) in enumerate(fields(template)):
        if index and literal[:1] == "." and literal[1:2] != "." and _typed_sentence_end(out):
            # Typed words that end a sentence ("Surrender!", "Bob Jr.") end it as typed: the template's
            # full stop after them would read "Surrender!.".
            literal = literal[1:]
        if literal:
            out.append((literal, False))
        if name is not None:
            for key, value in values:
                if key == name:
                    if type(value) is Raw:
                        out.append((value.text, False))
                    else:
                        _collect(value, translate, reveal, out)
                    break


def _typed_sentence_end(out: list[tuple[str, bool]]) -> bool:
    """Whether the last piece is typed text ending in a sentence's stop."""
    return bool(out) and out[-1][1] and out[-1][0].endswith(SENTENCE_ENDS)


def _english_template(phrase: Phrase) -> str:
    if phrase.plural is None:
        return phrase.template
    return phrase.plural.singular if phrase.plural.n == 1 else phrase.plural.plural


Field = tuple[str, str | None, str | None, str | None]
_FIELDS: dict[str, tuple[Field, ...]] = {}


def fields(template: str) -> tuple[Field, ...]:
    """The template's pieces: (literal text, field name, format spec, conversion)."""
    found = _FIELDS.get(template)
    if found is None:
        found = tuple(Formatter().parse(template))
        for _, name, _, _ in found:
            if name is not None and not name.isidentifier():
                raise ValueError(f"a said template names its values: {template!r}")
        if len(_FIELDS) < 8192:
            _FIELDS[template] = found
    return found


def walk(text: Text) -> Iterator[Text]:
    """Every node of the tree, the outer before the inner."""
    yield text
    if isinstance(text, Seq):
        for part in text.parts:
            yield from walk(part)
    elif isinstance(text, Phrase):
        for _, value in text.values:
            yield from walk(value)
    elif isinstance(text, Secret):
        yield from walk(text.value)
    elif isinstance(text, Cut):
        yield from walk(text.text)


def has_secrets(text: Any) -> bool:
    return isinstance(text, Text) and any(isinstance(node, Secret) and node.hidden for node in walk(text))


# --- stored form -----------------------------------------------------------------------
# JSON: a str is Raw, a list is Seq, {"p": template or [singular, plural, n], "v": {…}} a
# phrase, {"u": …} typed, {"s": …, "h": bool} a secret, {"c": …, "n": limit} a cut.


def to_data(text: Text) -> Any:
    if isinstance(text, Raw):
        return text.text
    if isinstance(text, Seq):
        return [to_data(part) for part in text.parts]
    if isinstance(text, Phrase):
        head: Any = text.template if text.plural is None else [text.plural.singular, text.plural.plural, text.plural.n]
        data: dict[str, Any] = {"p": head}
        if text.values:
            data["v"] = {name: to_data(value) for name, value in text.values}
        return data
    if isinstance(text, Typed):
        return {"u": text.text}
    if isinstance(text, Secret):
        return {"s": to_data(text.value), "h": text.hidden}
    if isinstance(text, Cut):
        return {"c": to_data(text.text), "n": text.limit}
    raise TypeError(f"not a text: {text!r}")


def from_data(data: Any) -> Text:
    """A text as stored (`to_data`), or as the rules made it; a line stored as a str, with or without
    the marks texts had before they were values, reads as the same values."""
    if isinstance(data, Text):
        return data
    if isinstance(data, NotSaid):
        return Typed(str(data))
    if isinstance(data, str):
        return _from_stored_str(data)
    if isinstance(data, list):
        return Seq(tuple(from_data(part) for part in data))
    if isinstance(data, dict):
        if "p" in data:
            head = data["p"]
            values = tuple((name, from_data(value)) for name, value in (data.get("v") or {}).items())
            if isinstance(head, list):
                plural = Plural(head[0], head[1], head[2])
                return Phrase(head[1] if plural.n != 1 else head[0], values, plural)
            return Phrase(head, values)
        if "u" in data:
            return Typed(data["u"])
        if "s" in data:
            return Secret(from_data(data["s"]), bool(data.get("h")))
        if "c" in data:
            return Cut(from_data(data["c"]), int(data["n"]))
    raise ValueError(f"not a stored text: {data!r}")


_STORED = '{"t":'
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # made once: two texts are stored per command


def dumps(text: Any) -> str:
    """A text for a str column (a log's summary): JSON, told from a line stored as a bare str."""
    return _COMPACT.encode({"t": to_data(as_text(text))})


def loads(stored: str) -> Text | str:
    """A text stored by `dumps`; a bare str (a constant, its own message id) stays a str."""
    if stored.startswith(_STORED):
        try:
            return from_data(json.loads(stored)["t"])
        except (ValueError, KeyError, TypeError):
            pass
    if _OLD_MARKS.search(stored):
        return _from_stored_str(stored)
    return stored


# Before texts were values, a line was stored as a str with private-use marks around each
# phrase (template, the length of each value, then its English), typed span and secret.
_SECRET_OPEN, _SECRET_CLOSE = "\ue000", "\ue001"
_TYPED_OPEN, _TYPED_CLOSE = "\ue002", "\ue003"
_PHRASE_OPEN, _LENGTHS, _START, _PHRASE_CLOSE, _PLURAL = "\ue010", "\ue011", "\ue012", "\ue013", "\ue014"
_LENGTH_BASE = 0xF0000
_OLD_MARKS = re.compile("[\ue000-\ue003\ue010-\ue014\U000f0000-\U000ffffd]")
_OLD_SPAN = re.compile("(\ue000[^\ue001]*(?:\ue001|$))|(\ue002[^\ue003]*(?:\ue003|$))")


class _Broken(Exception):
    pass


def _from_stored_str(stored: str) -> Text:
    """A line as stored: a bare str, or one stored with marks, read into the same values."""
    if not _OLD_MARKS.search(stored):
        return Raw(stored)
    try:
        return _marked(stored, 0, len(stored))[0]
    except (_Broken, ValueError, IndexError):
        return Raw(_OLD_MARKS.sub("", stored))


def _marked(text: str, at: int, stop: int) -> tuple[Text, int]:
    out: list[Text] = []
    while at < stop:
        begin = text.find(_PHRASE_OPEN, at, stop)
        end = stop if begin < 0 else begin
        out.extend(_spans(text[at:end]))
        if begin < 0:
            break
        phrase, at = _old_phrase(text, begin)
        out.append(phrase)
    return (out[0] if len(out) == 1 else Seq(tuple(out))), stop


def _spans(run: str) -> list[Text]:
    out: list[Text] = []
    last = 0
    for match in _OLD_SPAN.finditer(run):
        if match.start() > last:
            out.append(Raw(_OLD_MARKS.sub("", run[last : match.start()])))
        inner = _OLD_MARKS.sub("", match.group(0))
        out.append(Secret(Raw(inner), True) if match.group(1) else Typed(inner))
        last = match.end()
    if last < len(run):
        out.append(Raw(_OLD_MARKS.sub("", run[last:])))
    return out


def _old_phrase(text: str, at: int) -> tuple[Text, int]:
    head_end = text.find(_LENGTHS, at)
    start = text.find(_START, at)
    if head_end < 0 or start < head_end:
        raise _Broken
    key = text[at + 1 : head_end]
    plural = None
    template = key
    if _PLURAL in key:
        singular, many, n = key.split(_PLURAL)
        plural = Plural(singular, many, int(n) if n else None)
        template = singular if plural.n == 1 else many
    lengths = [ord(ch) - _LENGTH_BASE for ch in text[head_end + 1 : start]]
    values: list[tuple[str, Text]] = []
    cursor, index = start + 1, 0
    for literal, name, _, _ in fields(template):
        if text[cursor : cursor + len(literal)] != literal:
            raise _Broken
        cursor += len(literal)
        if name is None:
            continue
        end = cursor + lengths[index]
        value, _ = _marked(text, cursor, end)
        if name not in dict(values):
            values.append((name, value))
        cursor, index = end, index + 1
    if index != len(lengths) or text[cursor : cursor + 1] != _PHRASE_CLOSE:
        raise _Broken
    return Phrase(template, tuple(values), plural), cursor + 1
