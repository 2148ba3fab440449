"""Numbers only the GM may read, inside texts everyone else reads too.

A hidden NPC's stat block and current resources (its defences, Stamina, Wounds,
Toughness, armour, …) appear in the same step-by-step result lines as everybody
else's. A rule system wraps each such number in `secret(...)`; whoever shows the
text decides: `conceal` for the channel and players, `reveal` for the GM.

Hiding a number is not enough when the others in its sum stay in sight: players
subtract, and count. The rule every system follows:
- a sum with exactly one hidden operand never shows both its other operands and
  its result (`1d6 (3) + ? = 70` gives the `?` away);
- a hidden combatant's total that lands on a visible one (its damage to a hero) is
  public anyway, since the hero's tracker shows what it lost: the dice faces that
  went into it are hidden with the bonus (`lands_in_sight`: `2d6 (?) + ? = 18`,
  where the total may then show), so the bonus cannot be told from the luck;
- a hidden number of dice or cards hides what was rolled or flipped too, or
  counting them tells it (99 Towers: one card per point of the stat);
- a comparison of a hidden number with a visible one (`vs`, `>`) shows only a bound
  and may stay, but an equality (a tie with a visible combatant) or a margin
  ("misses by 3") must not, unless only a sum of hidden numbers follows from it
  (a Fightin' Words initiative tie with a hero tells Reflex + Dex, never either).
Where the luck lies face up by the rules (99 Towers' Hearts, which also count as
LETHAL; a Frozen Lands player's own defence successes) or there is none (a fixed
damage), a hidden attacker's damage against a visible target follows from what the
target lost, whatever a line prints; its split into weapon and stat stays hidden.
`tests/rules/derive.py` checks all this on every hidden fight of every system.

The marks are two private-use characters, which no keyboard types and the bot
strips from whatever a user does type (`scrub`), so a name can neither fake a
mark nor break one open.
"""

from __future__ import annotations

import re
from typing import Any

OPEN = "\ue000"
CLOSE = "\ue001"
HIDDEN = "?"

_SPAN = re.compile(f"{OPEN}[^{CLOSE}]*(?:{CLOSE}|$)")
_MARKS = re.compile(f"[{OPEN}{CLOSE}]")


def secret(value: Any, hidden: Any) -> str:
    """`value` as text, marked secret when `hidden` is true or is a hidden combatant."""
    text = str(value)
    if getattr(hidden, "hidden", hidden) is True:
        return f"{OPEN}{scrub(text)}{CLOSE}"
    return text


def lands_in_sight(source: Any, target: Any) -> bool:
    """Whether a hidden `source`'s number (damage, healing) lands on a visible `target`, whose
    tracker shows the result to everyone: then the total shows and the faces or cards in it hide."""
    return getattr(source, "hidden", False) is True and getattr(target, "hidden", False) is not True


def conceal(text: str) -> str:
    """The text as players see it: each secret becomes "?" (a cut-off one hides the rest)."""
    if OPEN not in text:
        return scrub(text)
    return scrub(_SPAN.sub(HIDDEN, text))


def reveal(text: str) -> str:
    """The text as the GM sees it: every number shown, the marks gone."""
    return scrub(text)


def has_secrets(text: str) -> bool:
    return OPEN in text


def scrub(text: str) -> str:
    """Remove the marks, e.g. from text a user typed."""
    return _MARKS.sub("", text) if (OPEN in text or CLOSE in text) else text
