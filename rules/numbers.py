"""Numbers as lines write them: below zero with the minus sign (U+2212), where a hyphen reads as a dash."""

from __future__ import annotations

from typing import Any

MINUS = "\u2212"


def number(value: Any, written: str) -> str:
    """`written`, the value formatted, with the minus sign where it is a number below zero ("LETHAL −1/5")."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
        return written.replace("-", MINUS, 1)
    return written


def modifier(value: int) -> str:
    """A modifier in a roll's parts: `+2`, `−1`."""
    return number(value, f"{value:+d}")


def added(value: int) -> str:
    """A modifier after a die, apart from it: `+ 2`, `− 1`."""
    return f"+ {value}" if value >= 0 else f"{MINUS} {-value}"
