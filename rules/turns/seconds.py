"""Initiative with a time budget: every turn has N seconds to spend.

Actions cost seconds. An action longer than the time left uses it all and the
rest is owed by the actor's next turn (carry-over); a turn whose seconds are
all spent ends by itself. Systems count down their own timed effects through
the `on_seconds` hook, on the actor's own seconds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from ..actions import Action
from ..errors import InvalidInput, NotYourTurn
from ..model import Encounter, Event
from .base import Result, start_turn
from .initiative import Initiative, InitiativeState

if TYPE_CHECKING:
    from ..randomness import Chance
    from ..system import System

DEFAULT_BUDGET = 6


class SecondsState(InitiativeState):
    structure: Literal["initiative", "seconds"] = "seconds"
    left: dict[str, int] = {}
    owed: dict[str, int] = {}


class Spend(Action):
    """Any action with an explicit cost in seconds."""

    kind: ClassVar[str] = "spend"
    seconds: int
    what: str = "acts"


class Seconds(Initiative):
    key = "seconds"
    state_type = SecondsState

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget

    def handlers(self, system: "System"):
        return {Spend: lambda enc, a, ch: self.spend(system, enc, enc.find(a.actor).id, a.seconds, ch, what=a.what)}

    def left(self, enc: Encounter, cid: str) -> int:
        return enc.turns.left.get(cid, 0)

    def _advance(self, system, enc, chance, wrap: bool = True) -> Result:
        """Open turns as Initiative does, then set each new actor's seconds."""
        enc, events = super()._advance(system, enc, chance, wrap)
        return self._fill(system, enc, chance, events)

    def _fill(self, system, enc, chance, events) -> Result:
        state: SecondsState = enc.turns
        left = dict(state.left)
        owed = dict(state.owed)
        exhausted = []
        for cid in state.acting:
            debt = owed.pop(cid, 0)
            spent = min(debt, self.budget)
            if debt > self.budget:
                owed[cid] = debt - self.budget
            left[cid] = self.budget - spent
            if debt:
                events.append(Event(kind="info", text=f"{enc.get(cid).name} is still busy for {spent} s from last turn."))
                enc = enc.but(turns=state.but(left=left, owed=owed))
                enc, more = system.on_seconds(enc, cid, spent, chance)
                events.extend(more)
                state = enc.turns
                left, owed = dict(state.left), dict(state.owed)
            if left[cid] == 0:
                exhausted.append(cid)
        enc = enc.but(turns=state.but(left=left, owed=owed))
        if exhausted and len(exhausted) == len(state.acting):
            events.append(Event(kind="info", text="No seconds left this turn."))
            enc, more = self.end_turn(system, enc, chance)
            events.extend(more)
        return enc, events

    def _come_back(self, system, enc, cid, chance) -> Result:
        enc, events = super()._come_back(system, enc, cid, chance)
        return self._fill(system, enc, chance, events)

    def spend(self, system: "System", enc: Encounter, cid: str, seconds: int, chance: "Chance", *, what: str = "acts") -> Result:
        """Spend seconds; an overrun carries into the next turn and ends this one."""
        state: SecondsState = enc.turns
        name = enc.get(cid).name
        if cid not in state.acting:
            raise NotYourTurn(f"It is not {name}'s turn.")
        if seconds < 0 or seconds > 60:
            raise InvalidInput("An action costs between 0 and 60 seconds.")
        left = state.left.get(cid, 0)
        used = min(seconds, left)
        owed = seconds - used
        new_left = dict(state.left) | {cid: left - used}
        new_owed = dict(state.owed)
        if owed:
            new_owed[cid] = new_owed.get(cid, 0) + owed
        enc = enc.but(turns=state.but(left=new_left, owed=new_owed))
        text = f"{name} {what} ({seconds} s): {left - used} s left"
        if owed:
            text += f", {owed} s carry into the next turn"
        events = [Event(kind="info", text=text + ".")]
        enc, more = system.on_seconds(enc, cid, used, chance)
        events.extend(more)
        if enc.turns.left.get(cid, 0) == 0 and cid in enc.turns.acting:
            enc, more = self.end_turn(system, enc, chance)
            events.extend(more)
        return enc, events

    def end_turn(self, system, enc, chance) -> Result:
        """Unspent seconds still pass: timed effects count them down."""
        events: list[Event] = []
        for cid in enc.turns.acting:
            rest = enc.turns.left.get(cid, 0)
            if rest:
                enc = enc.but(turns=enc.turns.but(left=dict(enc.turns.left) | {cid: 0}))
                enc, more = system.on_seconds(enc, cid, rest, chance)
                events.extend(more)
        enc, more = super().end_turn(system, enc, chance)
        return enc, events + more
