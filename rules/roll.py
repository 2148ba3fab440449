"""A roll of any dice notation outside the rules of a system (`/roll`): each die, the
total, a natural 20 or 1 on a d20, and the reason the roller gave.

The limits are those of every roll in a fight (`rules.dice`), and so is the handling of
dice entered by hand (`rules.randomness.Chance`): all of the roll's dice or none, each
in range, none left over.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .dice import RollResult
from .randomness import Chance
from .said import EMPTY, joined, say, seq
from .text import Text
from .usertext import one_line, quoted

# The breakdown is cut so that the whole line stays one Discord message (2,000 characters) with
# room for a heading, even where every typed character is shown escaped (doubled); the total is
# never cut.
LINE_LIMIT = 1800
WORDS = 100  # the line's own words, the total and a natural 20, in any language
BREAKDOWN_LIMIT = 1000
REASON_LIMIT = 500
STRUCK = "~~"  # around a die or an item the roll dropped (`rules.dice`)


@dataclass(frozen=True, slots=True)
class FreeRoll:
    result: RollResult
    entered: bool  # every die came from the values entered by hand
    said: Text  # the line to show, as the rules said it


def roll(
    expression: str, rng_state: int, *, who: str, reason: str | None = None, entered: Iterable[int] = ()
) -> FreeRoll:
    """Roll `expression` for `who` (a display name, shown as typed); a refusal raises DiceError."""
    entered = tuple(entered)
    who = one_line(who, 64)
    text = one_line(reason, REASON_LIMIT) if reason else ""
    chance = Chance(rng_state, entered_dice=entered)
    result = chance.roll(expression)
    chance.finish()
    line: Text = say(
        "{who} rolls {expression}: {breakdown} = **{total}**",
        who=who,
        expression=quoted(result.expression, len(result.expression)),
        breakdown=breakdown(result.text, room(who, result.expression, text)),
        total=result.total,
    )
    natural = natural_of(result)
    if natural:
        line = seq(line, " ", natural)
    lines = [line]
    if text:
        lines.append(say("Reason: {reason}", reason=text))
    return FreeRoll(result, bool(entered), joined("\n", lines))


def natural_of(result: RollResult) -> Text:
    """A natural 20 or 1 when the roll has one d20 that counts (1d20+5, 2d20kh1), as on a check."""
    if len(result.naturals) != 1:
        return EMPTY
    if result.naturals[0] == 20:
        return say("💥 natural 20!")
    if result.naturals[0] == 1:
        return say("💀 natural 1!")
    return EMPTY


def room(*typed: str) -> int:
    """What the breakdown may take beside the typed parts of the line."""
    return min(BREAKDOWN_LIMIT, LINE_LIMIT - WORDS - 2 * sum(len(part) for part in typed))


def breakdown(text: str, limit: int = BREAKDOWN_LIMIT) -> str:
    """Each die as rolled, cut between dice (a struck-out die stays whole) when too long."""
    if len(text) <= limit:
        return text
    last = cut = text.rfind(", ", 0, limit)
    # A struck-out item of a set (`~~2d6 (3, 4)~~`) has commas inside: the cut goes before it, or, when
    # the first item is struck out and too long, inside it between dice, its strike closed.
    while cut > 0 and text.count(STRUCK, 0, cut) % 2:
        cut = text.rfind(", ", 0, cut)
    cut = cut if cut > 0 else last
    kept = text[:cut] if cut > 0 else text[:limit]
    struck = STRUCK if kept.count(STRUCK) % 2 else ""
    return kept + ", …" + struck + ")" * max(0, kept.count("(") - kept.count(")"))
