"""Where an action's chance comes from: the encounter's generator and deck,
or the dice and cards a player entered by hand.

An action gets one `Chance`. Every die it rolls takes the next entered value if
there is one, else the generator; every card it flips takes the next entered
card, else the top of the encounter's deck. Entered values that the action did
not need are an error, and so is running out of them: once a player enters dice
(or cards), the action takes all of its dice (or cards) from them, so a typo
cannot silently change the outcome. The same card twice in one flip is refused.

Players and the GM see which results came from entered values (a ✍️ beside
them): while an action runs (`Chance.reporting`), the first "roll" event made
after an entered die or card was used claims that fact (`claim_entered`), unless the action
keeps that fact for a later line of its own (`Chance.shown_later`).
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from typing import Protocol

from . import dice as dicemod
from .cards import Card, full_deck
from .errors import DiceError, InvalidInput
from .rng import Rng
from .said import say, say_plural

DECK_SIZE = 52
_REPORTING: ContextVar[Chance | None] = ContextVar("reporting", default=None)


def claim_entered() -> bool:
    """True once for each result that used entered dice or cards (see the module text)."""
    chance = _REPORTING.get()
    if chance is None or not chance.unreported:
        return False
    chance.unreported = False
    return True


class Sender(Protocol):
    """Who sent the action a chance rolls for (a `rules.model.Actor`)."""

    @property
    def user_id(self) -> int: ...

    @property
    def is_gm(self) -> bool: ...


class Chance:
    def __init__(
        self,
        rng_state: int,
        deck: Sequence[str] = (),
        entered_dice: Iterable[int] = (),
        entered_cards: Iterable[Card] = (),
    ) -> None:
        self.rng = Rng(rng_state)
        self.deck = list(deck)
        self._dice = deque(entered_dice)
        self._cards = deque(entered_cards)
        self.entered_any = bool(self._dice or self._cards)
        self._dice_entered = bool(self._dice)
        self._cards_entered = bool(self._cards)
        self.reshuffled = False
        self.unreported = False  # an entered value was used and no result has shown it yet
        # Who entered the dice, for a system whose rolls may fall to someone other than the sender
        # (a round's end reached by anyone's command); None: not told.
        self.entered_by: Sender | None = None

    def enters_for(self, controller_id: int | None) -> bool:
        """Whether the sender's entered dice roll for a combatant that `controller_id` plays (None: the GM's):
        the GM's dice roll for anyone, a player's only for their own characters."""
        sender = self.entered_by
        return sender is None or sender.is_gm or controller_id == sender.user_id

    def replayed_entered(self) -> None:
        """An entered value kept aside while a choice was asked now decides a result: the next result line
        claims the mark, as one rolled from this chance's own entered dice does."""
        self.unreported = True

    @contextlib.contextmanager
    def shown_later(self):
        """Entered values used inside are shown by a line made later that the caller marks from what it kept
        of them (a hit's damage kept for after the defence): the next result line does not claim them."""
        unreported = self.unreported
        try:
            yield self
        finally:
            self.unreported = unreported

    @contextlib.contextmanager
    def reporting(self):
        token = _REPORTING.set(self)
        try:
            yield self
        finally:
            _REPORTING.reset(token)

    @property
    def rng_state(self) -> int:
        return self.rng.state

    # dice ---------------------------------------------------------------
    def die(self, sides: int) -> int:
        if self._dice:
            value = self._dice.popleft()
            if not 1 <= value <= sides:
                raise DiceError(say("{value} cannot be rolled on a d{sides}.", value=value, sides=sides))
            self.unreported = True
            return value
        if self._dice_entered:
            raise DiceError(
                say(
                    "Too few dice entered: this action rolls more dice than were entered (the next one is a "
                    "d{sides}): enter every die it rolls, in order.",
                    sides=sides,
                )
            )
        return self.rng.randint(1, sides)

    def bots_die(self, sides: int) -> int:
        """A die of someone other than whoever sent this action, who did not enter it when
        it was theirs to enter (an attacker's damage rolled once the target has chosen its
        reaction): the bot rolls it, never taking it from the sender's entered dice."""
        return self.rng.randint(1, sides)

    def roll(self, expr: str) -> dicemod.RollResult:
        return dicemod.evaluate(expr, self.die)

    def pool(self, count: int, sides: int = 6) -> tuple[int, ...]:
        if count > dicemod.MAX_DICE:
            raise DiceError(say("At most {n} dice can be rolled at once.", n=dicemod.MAX_DICE))
        return tuple(self.die(sides) for _ in range(max(0, count)))

    def entered_dice_left(self) -> int:
        return len(self._dice)

    # cards --------------------------------------------------------------
    def flip(self, count: int) -> tuple[Card, ...]:
        if count > DECK_SIZE:
            raise InvalidInput(say("At most {n} cards can be flipped at once.", n=DECK_SIZE))
        turned: list[Card] = []
        for _ in range(max(0, count)):
            turned.append(self._next_card(turned))
        cards = tuple(turned)
        if self._cards_entered:
            seen: set[str] = set()
            for card in cards:
                if card.code in seen:
                    raise InvalidInput(
                        say("{card} was entered twice in one flip: a deck has one of each card.", card=str(card))
                    )
                seen.add(card.code)
        return cards

    def deal(self, count: int) -> tuple[Card, ...]:
        """`count` cards, past one deck if need be (a long fall's damage flips), turned as at a table: the
        deck is shuffled anew each time it runs out. Entered by hand, each card comes at most once between
        two reshuffles; where the first falls depends on how far the table's deck was turned before, so
        any place that fits will do."""
        if not self._cards_entered:
            cards: list[Card] = []
            while len(cards) < count:
                cards += self.flip(min(DECK_SIZE, count - len(cards)))
            return tuple(cards)
        dealt = tuple(self._next_card() for _ in range(max(0, count)))
        again = _too_soon(dealt)
        if again is not None:
            raise InvalidInput(
                say(
                    "{card} was entered again too soon: a deck has one of each card and is reshuffled only when "
                    "it runs out, after {n} cards.",
                    card=str(again),
                    n=DECK_SIZE,
                )
            )
        return dealt

    def _next_card(self, in_hand: Sequence[Card] = ()) -> Card:
        """`in_hand`: the cards this flip has turned so far, which a reshuffle midway leaves out."""
        if self._cards:
            self.unreported = True
            return self._cards.popleft()
        if self._cards_entered:
            raise InvalidInput(
                say(
                    "Too few cards entered: this action flips more cards than were entered: "
                    "enter every card it flips, in order."
                )
            )
        if not self.deck:
            held = {card.code for card in in_hand}
            self.deck = [code for code in full_deck() if code not in held]
            self.rng.shuffle(self.deck)
            self.reshuffled = True
        return Card.parse(self.deck.pop())

    # --------------------------------------------------------------------
    def finish(self) -> None:
        """Refuse leftovers: an entered value the action never used."""
        if self._dice:
            count = len(self._dice)
            raise DiceError(
                say_plural(
                    "{n} entered die was not needed by this action: enter exactly the dice it rolls.",
                    "{n} entered dice were not needed by this action: enter exactly the dice it rolls.",
                    count,
                    n=count,
                )
            )
        if self._cards:
            count = len(self._cards)
            raise InvalidInput(
                say_plural(
                    "{n} entered card was not needed by this action: enter exactly the cards it flips.",
                    "{n} entered cards were not needed by this action: enter exactly the cards it flips.",
                    count,
                    n=count,
                )
            )


def _too_soon(cards: Sequence[Card]) -> Card | None:
    """None when `cards` can come from a deck reshuffled each time it runs out, the first reshuffle
    after 1 to 52 of them (as far as the deck was turned before), the next ones every 52. Else the card
    that comes again too soon where the best such reading breaks down, the latest."""
    latest, card = -1, None
    for first in range(1, min(DECK_SIZE, len(cards)) + 1):
        seen: set[str] = set()
        for i, dealt in enumerate(cards):
            if i >= first and (i - first) % DECK_SIZE == 0:
                seen = set()  # reshuffled
            if dealt.code in seen:
                if i > latest:
                    latest, card = i, dealt
                break
            seen.add(dealt.code)
        else:
            return None
    return card
