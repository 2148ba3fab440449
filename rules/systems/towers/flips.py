"""Card flips: turn N cards, keep the highest, shift the kept value.

(flip±X) changes how many cards are turned (never fewer than one);
(shift±X) is added to the kept card. Every flip keeps all its cards, because
Hearts count over every card turned, not only the kept one.
"""

from __future__ import annotations

from rules.cards import Card
from rules.model import Value
from rules.numbers import modifier
from rules.randomness import Chance
from rules.said import EMPTY, Text, joined, say, seq, term
from rules.secrets import has_secrets, secret


class Mods(Value):
    """Flip and shift modifiers, with the reasons shown to players."""

    flip: int = 0
    shift: int = 0
    notes: tuple[Text, ...] = ()

    def plus(self, flip: int = 0, shift: int = 0, why: Text | str = "") -> Mods:
        if not flip and not shift:
            return self
        parts: list[Text] = []
        if flip:
            parts.append(say("flip{n}", n=modifier(flip)))
        if shift:
            parts.append(say("shift{n}", n=modifier(shift)))
        # `why` is said by the caller (or typed, a weapon's name).
        note = seq(why, " (", joined(", ", parts), ")") if why else joined(", ", parts)
        return Mods(flip=self.flip + flip, shift=self.shift + shift, notes=self.notes + (note,))

    def __add__(self, other: Mods) -> Mods:
        return Mods(flip=self.flip + other.flip, shift=self.shift + other.shift, notes=self.notes + other.notes)

    def text(self) -> Text:
        return joined("; ", self.notes)


class Flip(Value):
    cards: tuple[str, ...]  # card codes, e.g. "KH"
    kept: str
    shift: int = 0

    @property
    def value(self) -> int:
        return Card.parse(self.kept).value

    @property
    def total(self) -> int:
        return self.value + self.shift

    @property
    def hearts(self) -> int:
        return sum(1 for code in self.cards if Card.parse(code).heart)

    def text(self, hidden: bool = False) -> Text:
        """The cards and the one kept; `hidden`: the cards secret, since how many there are is the stat."""
        shown = secret(" ".join(str(Card.parse(code)) for code in self.cards), hidden)
        kept = Card.parse(self.kept)
        line = say("{cards} → keep {rank} = {value}", cards=shown, rank=kept.rank, value=kept.value)
        if self.shift:
            return seq(line, f" {'+' if self.shift > 0 else '−'} {abs(self.shift)} = {self.total}")
        return line


def damage_cards(chance: Chance, count: int) -> tuple[str, ...]:
    """Every card of a damage flip, whose hearts all count. A long fall flips 2 per 5 feet, past one deck:
    the cards go on from the encounter's deck, shuffled anew each time it runs out, as at a table
    (`Chance.deal`)."""
    return tuple(card.code for card in chance.deal(count))


def card_count(base: int, mods: Mods) -> int:
    return max(1, base + mods.flip)


NO_MODS = Mods()


def flip(chance: Chance, base: int, mods: Mods = NO_MODS) -> Flip:
    """Turn `base` cards adjusted by the flip modifiers; keep the highest."""
    cards = chance.flip(card_count(base, mods))
    kept = max(cards, key=lambda card: card.value)
    return Flip(cards=tuple(c.code for c in cards), kept=kept.code, shift=mods.shift)


def resist(chance: Chance, attack: int, base: int, mods: Mods = NO_MODS) -> tuple[Flip, Flip, bool]:
    """An effect's Attack flip, then the resisting flip: (effect, resisting, resisted).

    The effect attacks as an attack does, hitting on an equal value, so resisting takes a higher one."""
    effect = flip(chance, attack)
    mine = flip(chance, base, mods)
    return effect, mine, mine.total > effect.total


def described(label: Text | str, base: int | Text, mods: Mods, result: Flip) -> Text:
    """`PA 3 (aim: flip+1): K♥ 4♣ 2♦ 7♠ → keep K = 13`.

    `base` may come marked secret (a hidden combatant's value): then so do the cards, one per point of
    it (and of the flip modifiers), or counting them would tell it; the kept card shows."""
    why = seq(" (", mods.text(), ")") if mods.notes else EMPTY
    return seq(term(label), " ", base, why, ": ", result.text(hidden=has_secrets(base)))
