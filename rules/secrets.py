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

A `rules.text.Secret` value carries the number and whether it is hidden; each renderer
shows it or "?" for its reader, so a name can neither fake a secret nor break one open.
"""

from __future__ import annotations

from typing import Any

from .text import HIDDEN, Secret, as_text, english, has_secrets, pieces

__all__ = ["HIDDEN", "conceal", "has_secrets", "lands_in_sight", "reveal", "secret"]


def secret(value: Any, hidden: Any) -> Secret:
    """`value` as a text, secret when `hidden` is true or is a hidden combatant."""
    return Secret(as_text(value), getattr(hidden, "hidden", hidden) is True)


def lands_in_sight(source: Any, target: Any) -> bool:
    """Whether a hidden `source`'s number (damage, healing) lands on a visible `target`, whose
    tracker shows the result to everyone: then the total shows and the faces or cards in it hide."""
    return getattr(source, "hidden", False) is True and getattr(target, "hidden", False) is not True


def conceal(text: Any) -> str:
    """The text in English as players see it: each hidden number is "?"."""
    if isinstance(text, str):
        return text
    return "".join(piece for piece, _ in pieces(text, None, reveal=False))


def reveal(text: Any) -> str:
    """The text in English as the GM sees it: every number shown."""
    return english(text)
