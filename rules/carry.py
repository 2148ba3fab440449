"""What a fight hands back to its campaign: what the fight itself changed, and nothing else.

The campaign goes on while a fight runs: a rest, an adjustment or a check may change a character
who is fighting, or the campaign's own state (an Editor-in-Chief's pool). At the fight's end, a
value the fight left as it found it stays as it is stored now; only what the fight changed is
written. A count the campaign keeps (a pool) takes the fight's change on top of its changes
meanwhile, since both happened."""

from __future__ import annotations

from typing import Any


def changed(start: dict[str, Any] | None, end: dict[str, Any]) -> dict[str, Any]:
    """The values at the fight's end that differ from those as it began (None: not known, and then
    the fight's values all count)."""
    if start is None:
        return dict(end)
    return {key: value for key, value in end.items() if key not in start or start[key] != value}


def written(stored: dict[str, Any], start: dict[str, Any] | None, end: dict[str, Any]) -> dict[str, Any]:
    """A character's values the fight's end writes: those the fight changed, and those not stored yet
    (a default the character is shown with from then on)."""
    return changed(start, end) | {key: value for key, value in end.items() if key not in stored}


def after(stored: dict[str, Any], start: dict[str, Any] | None, end: dict[str, Any]) -> dict[str, Any]:
    """A character's stored values once the fight's end is written: what it changed, and without what it
    took away (a value held as it began and gone at its end: a condition's DC once the condition is over)."""
    gone = set() if start is None else start.keys() - end.keys()
    return {key: value for key, value in stored.items() if key not in gone} | written(stored, start, end)


def handed_back(stored: dict[str, Any], start: dict[str, Any] | None, end: dict[str, Any]) -> dict[str, Any]:
    """The campaign-level values a fight writes: those it changed, a count by as much as it changed."""
    written: dict[str, Any] = {}
    for key, value in changed(start, end).items():
        before, now = (start or {}).get(key), stored.get(key)
        if all(_count(x) for x in (before, value, now)):
            written[key] = max(0, now + value - before)
        else:
            written[key] = value
    return written


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0
