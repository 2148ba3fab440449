"""Playing cards for flip-based systems: a 52-card deck, no jokers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InvalidInput
from .said import say
from .usertext import quoted

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_VALUES = {rank: index + 2 for index, rank in enumerate(RANKS)}
_CARD = re.compile(r"^(10|[2-9JQKA])([CDHS♣♦♥♠])$", re.IGNORECASE)
_SYMBOL_SUITS = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str

    @property
    def value(self) -> int:
        return _VALUES[self.rank]

    @property
    def heart(self) -> bool:
        return self.suit == "H"

    @property
    def code(self) -> str:
        return f"{self.rank}{self.suit}"

    def __str__(self) -> str:
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    @classmethod
    def parse(cls, text: str) -> Card:
        known = _BY_CODE.get(text)
        if known is not None:  # a deck's own code: the rules read the same few cards many times a flip
            return known
        match = _CARD.match(text.strip())
        if not match:
            raise InvalidInput(
                say("{card} is not a card: write rank then suit, e.g. `KH`, `10S`, `4C`.", card=quoted(text, 20))
            )
        rank, suit = match.group(1).upper(), match.group(2).upper()
        return cls(rank, _SYMBOL_SUITS.get(suit, suit))


_BY_CODE = {f"{rank}{suit}": Card(rank, suit) for suit in SUITS for rank in RANKS}


def full_deck() -> list[str]:
    return list(_BY_CODE)


# The most cards one action turns: a 1,000-foot fall (the highest a command takes) flips 400, a deck at a time.
MAX_ENTERED = 8 * 52


def parse_cards(text: str) -> tuple[Card, ...]:
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if len(parts) > MAX_ENTERED:
        raise InvalidInput(say("At most {n} cards can be entered.", n=MAX_ENTERED))
    return tuple(Card.parse(p) for p in parts)
