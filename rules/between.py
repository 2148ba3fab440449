"""Helpers the systems' between-fight modules share: setting an adjustable
lasting value from what a GM typed, reading it back against the sheet, the
dead staying out of fights and rests, and building a rest's outcome."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import InvalidInput, NotAllowed
from .model import Event
from .said import say, seq, term
from .system import Adjustable, Rest, Resting, RestOutcome, whole_number, yes_no
from .text import Text
from .usertext import listed, quoted

MAX_ENTRIES = 20


def split_entries(text: str) -> list[str]:
    """Commas separate entries, except inside parentheses (a condition's tags)."""
    text = str(text or "")
    parts, depth, start = [], 0, 0
    if "(" in text or ")" in text:
        for at, ch in enumerate(text):
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch == "," and depth <= 0:
                parts.append(text[start:at])
                start = at + 1
        parts.append(text[start:])
    else:  # an import reads thousands of entries: most have no tags
        parts = text.split(",")
    return [p.strip() for p in parts if p.strip()][:MAX_ENTRIES]


def set_value(
    system_name: Text | str,
    table: dict[str, Adjustable],
    state: dict[str, Any],
    key: str,
    value: Any,
    entries: Callable[[str, list[str]], list[Any]] | None = None,
) -> dict[str, Any]:
    """`state` with `key` set from the GM's text, checked against its Adjustable."""
    spec = table.get(str(key or "").strip().lower().replace(" ", "_").replace("-", "_"))
    if spec is None:
        raise InvalidInput(
            say(
                "{system} keeps no lasting value called {key}. Values: {values}.",
                system=term(system_name),
                key=quoted(str(key)),
                values=listed(term(name) for name in table),
            )
        )
    if spec.kind == "bool":
        return state | {spec.key: yes_no(spec.key, value)}
    if spec.kind == "list":
        items = split_entries(value)
        return state | {spec.key: entries(spec.key, items) if entries else [i[:80] for i in items]}
    return state | {spec.key: whole_number(spec.key, value, spec.minimum, spec.maximum)}


def kept(state: dict[str, Any], key: str, full: int) -> int:
    """A lasting value from 0 up to the sheet's `full`; one never recorded is full."""
    return max(0, min(int(state.get(key, full)), full))


def at_most_sheet(new: dict[str, Any], view: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """`new` if none of these values passes its sheet maximum (`max_<name>` in `view`)."""
    for name in names:
        if name in new and new[name] > view[f"max_{name}"]:
            raise InvalidInput(
                say(
                    "`{key}` can be at most {most} (the sheet's {stat}).",
                    key=name,
                    most=view[f"max_{name}"],
                    stat=term(name),
                )
            )
    return new


def refuse_dead(name: str, state: dict[str, Any]) -> None:
    """A dead character (by a fight or the GM's /campaign adjust) joins no fight and makes no check until the GM
    says so."""
    if state.get("dead"):
        raise NotAllowed(say("{name} is dead: the GM can set `dead` to no to bring them back.", name=name))


def dead_rest(r: Resting, rest: Text | str = "rest") -> tuple[dict[str, Any], Text] | None:
    """A dead character's rest result (nothing changes), or None for the living."""
    if r.lasting.get("dead"):
        return dict(r.lasting), say("{name} is dead: {rest} changes nothing.", name=r.name, rest=term(rest))
    return None


def heading(rest: Rest, chance) -> Text:
    if chance.entered_any:
        return seq("🛌 ", say("{rest} (dice entered by hand):", rest=term(rest.label)))
    return seq("🛌 ", term(rest.label), ":")


def outcome(
    characters: Sequence[Resting], results: Sequence[tuple], campaign: dict[str, Any], head: Text
) -> RestOutcome:
    """One event for the rest, then one per character. A result is (new lasting, text)
    or (new lasting, text, event kind), e.g. "roll" when dice were rolled."""
    events = [Event(kind="info", text=head)]
    events += [Event(kind=r[2] if len(r) > 2 else "info", text=r[1]) for r in results]
    rested = tuple(c.but(lasting=r[0]) for c, r in zip(characters, results))
    return RestOutcome(characters=rested, campaign=dict(campaign), events=tuple(events))
