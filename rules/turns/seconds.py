"""Initiative with a time budget: every turn has N seconds to spend.

Actions cost seconds. An action longer than the time left uses it all and the
rest is owed by the actor's next turn (carry-over); a turn whose seconds are
all spent ends by itself. Time can also be taken from a turn before the actor
gets to use it (stunned, steering a mount): the system books it with `lose`.
Systems count down their own timed effects through the `on_seconds` hook, on
the actor's own seconds, and may give a combatant a smaller budget through an
optional `seconds_budget(enc, cid)` method, and say why a combatant's turn
passes with `cannot_act_reason(enc, combatant)`. An action carried
into a turn that passes by (the actor is down) is broken off, since its seconds
must follow on; an optional `on_broken_off(enc, cid)` lets the system drop what
hung on it.

A delaying combatant may step back in before their next turn, even in the
middle of someone else's turn: the interrupted combatant then finishes their
turn with the seconds they had left instead of starting a new one. Stepping
back in takes up the turn put off where it stood, in that round or the next;
its start (seconds lost, what the system rolls then) is not done again. The
delayer keeps their place in the order: their next turn comes there. A delay
that runs out unused still lets the turn's seconds pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import model_validator

from ..actions import Action
from ..errors import InvalidInput, NotYourTurn
from ..model import Encounter, Event, Value
from ..said import say
from ..text import Text, as_text
from .base import MAX_STEPS, Result, new_round, start_turn, state_of
from .initiative import Initiative, InitiativeState, stepping_in

if TYPE_CHECKING:
    from ..randomness import Chance
    from ..system import System

DEFAULT_BUDGET = 6
MAX_COST = 60
ACTS = say("acts")  # what spending seconds is, unless named


class Lost(Value):
    """Seconds taken from a combatant's next turn before they can use them."""

    cid: str
    seconds: int
    why: Text
    # False for what a round costs once (steering, a staggered round's stun): what does not fit the turn is
    # not taken from the next one, which pays its own.
    spill: bool = True


class SecondsState(InitiativeState):
    structure: Literal["initiative", "seconds"] = "seconds"
    left: dict[str, int] = {}
    owed: dict[str, int] = {}
    busy: dict[str, Text] = {}  # what the owed seconds are for ("casting")
    full: dict[str, int] = {}  # this turn's budget
    # Seconds left once the turn opened, after those lost before the actor could use them (stunned,
    # steering a mount): an untouched turn still has them all. A turn that opened busy with a carried
    # action holds its full budget here, which it never has left.
    ready: dict[str, int] = {}
    lost: tuple[Lost, ...] = ()
    interrupted: tuple[str, ...] = ()  # the turn stepped in on, in the current slot, which resumes afterwards
    # Delayers who stepped back in and have not finished, the one acting last: one may step in on another.
    stepped_in: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _stored(cls, data: Any) -> Any:
        # Encounters saved while a delayer's place moved kept the round each turn was put off in.
        if isinstance(data, dict) and "put_off" in data:
            data = {k: v for k, v in data.items() if k != "put_off"}
        return data


class Spend(Action):
    """Any action with an explicit cost in seconds."""

    kind: ClassVar[str] = "spend"
    seconds: int
    what: Text = ACTS


class Seconds(Initiative):
    key = "seconds"
    state_type = SecondsState

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget

    def handlers(self, system: System):
        return {Spend: lambda enc, a, ch: self.spend(system, enc, enc.find(a.actor).id, a.seconds, ch, what=a.what)}

    def left(self, enc: Encounter, cid: str) -> int:
        return state_of(enc, SecondsState).left.get(cid, 0)

    def owed(self, enc: Encounter, cid: str) -> int:
        return state_of(enc, SecondsState).owed.get(cid, 0)

    def budget_of(self, system: System, enc: Encounter, cid: str) -> int:
        hook = getattr(system, "seconds_budget", None)
        return max(0, min(self.budget, hook(enc, cid))) if hook else self.budget

    def untouched(self, enc: Encounter, cid: str) -> bool:
        """True while the acting combatant has not used any second of this turn (seconds lost
        before they could act, stunned or steering, are not theirs), nor opened it still busy."""
        state = state_of(enc, SecondsState)
        ready = state.ready.get(cid, state.full.get(cid, self.budget))
        return cid in state.acting and state.left.get(cid, 0) == ready > 0

    # --- opening turns ---------------------------------------------------------
    def _advance(self, system, enc, chance, wrap: bool = True) -> Result:
        """Like Initiative, but an interrupted turn resumes and a delay lasts
        until the delayer's own slot comes round again, even into the next round."""
        events: list[Event] = []
        for _ in range(MAX_STEPS):
            state = state_of(enc, SecondsState)
            stepped = tuple(c for c in state.stepped_in if c not in state.acting)
            if stepped or state.interrupted:
                return self._resume(system, enc, stepped, chance, events)
            if state.stepped_in:  # the delayer who stepped in on nobody's turn is done
                state = state.but(stepped_in=())
                enc = enc.but(turns=state)
            index = state.index + 1
            if index >= len(state.slots):
                if not any(system.can_act(enc, c) for c in enc.combatants):
                    return enc.but(turns=state.but(acting=(), interrupted=())), events + [
                        Event(kind="info", text=say("Nobody is left who can act."))
                    ]
                enc = enc.but(turns=state.but(index=-1, acting=()))
                enc, more = new_round(system, enc, chance)
                events.extend(more)
                continue
            slot = state.slots[index]
            lapsed = tuple(c for c in state.delayed if c in slot)
            delayed = tuple(c for c in state.delayed if c not in slot)
            enc = enc.but(turns=state.but(index=index, acting=(), delayed=delayed))
            for cid in lapsed:
                events.append(
                    Event(
                        kind="info",
                        text=say("{who}'s delay runs out: their next turn has come.", who=enc.get(cid).name),
                    )
                )
                # The turn put off passes unused, as an ended turn's unspent seconds do.
                rest = enc.turns.left.get(cid, 0)
                if rest:
                    enc = enc.but(turns=enc.turns.but(left=dict(enc.turns.left) | {cid: 0}))
                    enc, more = system.on_seconds(enc, cid, rest, chance)
                    events.extend(more)
            live = [c for c in slot if system.can_act(enc, enc.get(c))]
            skipped = [c for c in slot if c not in live]
            events.extend(self._skipped(system, enc, skipped))
            enc, more = self._break_off(system, enc, skipped)
            events.extend(more)
            if not live:
                continue
            enc, more, live = start_turn(system, enc, live, chance)
            events.extend(more)
            if live:
                enc = enc.but(turns=enc.turns.but(acting=tuple(live)))
                return self._fill(system, enc, chance, events)
        raise InvalidInput(say("The turn order is stuck: nobody can take a turn."))

    @staticmethod
    def _skipped(system, enc, cids) -> list[Event]:
        """Say whose turn passes by, so nobody waits for someone who is down;
        combatants who left the fight pass silently."""
        events = []
        for cid in cids:
            combatant = enc.get(cid)
            if combatant.out:
                continue
            reason = system.cannot_act_reason(enc, combatant)
            if reason:
                text = say("{who}'s turn passes ({why}).", who=combatant.name, why=reason)
            else:
                text = say("{who}'s turn passes.", who=combatant.name)
            events.append(Event(kind="info", text=text))
        return events

    @staticmethod
    def _break_off(system, enc, cids) -> Result:
        """Seconds owed by those whose turn passes by are not spent in a row with the first ones:
        the action they finish is broken off."""
        state = state_of(enc, SecondsState)
        cut = [c for c in cids if state.owed.get(c)]
        if not cut:
            return enc, []
        events: list[Event] = []
        for cid in cut:
            combatant = enc.get(cid)
            if combatant.out:
                continue
            busy = state.busy.get(cid)
            if busy:
                text = say(
                    "{who} cannot finish what they were doing ({doing}): it is broken off.",
                    who=combatant.name,
                    doing=busy,
                )
            else:
                text = say(
                    "{who} cannot finish the action carried into this turn: it is broken off.", who=combatant.name
                )
            events.append(Event(kind="info", text=text))
        state = state.but(
            owed={k: v for k, v in state.owed.items() if k not in cut},
            busy={k: v for k, v in state.busy.items() if k not in cut},
        )
        enc = enc.but(turns=state)
        hook = getattr(system, "on_broken_off", None)
        if hook:
            for cid in cut:
                enc, more = hook(enc, cid)
                events.extend(more)
        return enc, events

    def _resume(self, system, enc, stepped, chance, events) -> Result:
        """The turn stepped in on goes on once the delayer's ends: the delayer's stepped in on by another
        (the latest first), else the current slot's."""
        state = state_of(enc, SecondsState)
        if stepped:
            back = [stepped[-1]] if system.can_act(enc, enc.get(stepped[-1])) else []
            enc = enc.but(turns=state.but(stepped_in=stepped if back else stepped[:-1], acting=()))
        else:
            slot = state.slots[state.index] if 0 <= state.index < len(state.slots) else ()
            back = [c for c in state.interrupted if c in slot and system.can_act(enc, enc.get(c))]
            enc = enc.but(turns=state.but(stepped_in=(), interrupted=(), acting=()))
        if not back:
            enc, more = self._advance(system, enc, chance)
            return enc, events + more
        enc, more, live = start_turn(system, enc, back, chance, fresh=False)
        events.extend(more)
        enc = enc.but(turns=enc.turns.but(acting=tuple(live)))
        if all(enc.turns.left.get(c, 0) == 0 for c in live):
            enc, more = self.end_turn(system, enc, chance)
            events.extend(more)
        return enc, events

    def _fill(self, system, enc, chance, events, *, fresh: bool = True) -> Result:
        """Give each new actor their budget, minus carried and lost seconds; a turn taken up
        again (`fresh` False) keeps what it had left, minus seconds lost in the meantime."""
        for cid in enc.turns.acting:
            state = state_of(enc, SecondsState)
            if fresh:
                budget = self.budget_of(system, enc, cid)
                state = state.but(left=dict(state.left) | {cid: budget}, full=dict(state.full) | {cid: budget})
                enc = enc.but(turns=state)
            debt = enc.turns.owed.get(cid, 0)
            if debt:
                busy = enc.turns.busy.get(cid)
                enc, more = self._take(system, enc, cid, debt, chance, carried=True)
                spent = debt - enc.turns.owed.get(cid, 0)
                who = enc.get(cid).name
                if busy:
                    text = say("{who} is still busy ({doing}) for {n} s from last turn.", who=who, doing=busy, n=spent)
                else:
                    text = say("{who} is still busy for {n} s from last turn.", who=who, n=spent)
                events.append(Event(kind="info", text=text))
                events.extend(more)
            for lost in [item for item in enc.turns.lost if item.cid == cid]:
                enc = enc.but(turns=enc.turns.but(lost=tuple(i for i in enc.turns.lost if i is not lost)))
                before = enc.turns.left.get(cid, 0)
                enc, more = self._take(
                    system, enc, cid, lost.seconds, chance, carried=False, why=lost.why, spill=lost.spill
                )
                used = before - enc.turns.left.get(cid, 0)
                if used:
                    events.append(Event(kind="info", text=_loses(enc, cid, used, lost.why)))
                events.extend(more)
            state = state_of(enc, SecondsState)
            ready = state.full.get(cid, self.budget) if debt else state.left.get(cid, 0)
            enc = enc.but(turns=state.but(ready=dict(state.ready) | {cid: ready}))
        state = enc.turns
        if state.acting and all(state.left.get(c, 0) == 0 for c in state.acting):
            events.append(Event(kind="info", text=say("No seconds left this turn.")))
            enc, more = self.end_turn(system, enc, chance)
            events.extend(more)
        return enc, events

    def _take(
        self, system, enc, cid, seconds, chance, *, carried: bool, why: Text | str = "", spill: bool = True
    ) -> Result:
        """Use up to `seconds` of the turn; what does not fit waits for the next one."""
        state = state_of(enc, SecondsState)
        left = state.left.get(cid, 0)
        used = min(seconds, left)
        rest = seconds - used
        owed = dict(state.owed)
        lost = state.lost
        if carried:
            owed.pop(cid, None)
            if rest:
                owed[cid] = rest
        elif rest and spill:
            lost = lost + (Lost(cid=cid, seconds=rest, why=why),)
        busy = dict(state.busy) if cid in owed else {k: v for k, v in state.busy.items() if k != cid}
        enc = enc.but(turns=state.but(left=dict(state.left) | {cid: left - used}, owed=owed, lost=lost, busy=busy))
        if used:
            return system.on_seconds(enc, cid, used, chance)
        return enc, []

    # --- spending ----------------------------------------------------------
    def spend(
        self,
        system: System,
        enc: Encounter,
        cid: str,
        seconds: int,
        chance: Chance,
        *,
        what: Text | str = ACTS,
        busy: Text | str = "",
    ) -> Result:
        """Spend seconds; an overrun carries into the next turn and ends this one."""
        state = state_of(enc, SecondsState)
        name = enc.get(cid).name
        if cid not in state.acting:
            raise NotYourTurn(say("It is not {who}'s turn.", who=name))
        if seconds < 0 or seconds > MAX_COST:
            raise InvalidInput(say("An action costs between {low} and {high} seconds.", low=0, high=MAX_COST))
        left = state.left.get(cid, 0)
        used = min(seconds, left)
        owed = seconds - used
        new_owed = dict(state.owed)
        new_busy = dict(state.busy)
        if owed:
            new_owed[cid] = new_owed.get(cid, 0) + owed
            new_busy[cid] = as_text(busy or what)
        enc = enc.but(turns=state.but(left=dict(state.left) | {cid: left - used}, owed=new_owed, busy=new_busy))
        if owed:
            text = say(
                "{who} {what} ({n} s): {left} s left, {owed} s carry into the next turn.",
                who=name,
                what=what,
                n=seconds,
                left=left - used,
                owed=owed,
            )
        else:
            text = say("{who} {what} ({n} s): {left} s left.", who=name, what=what, n=seconds, left=left - used)
        events = [Event(kind="info", text=text)]
        if used:
            enc, more = system.on_seconds(enc, cid, used, chance)
            events.extend(more)
        after = state_of(enc, SecondsState)
        if after.left.get(cid, 0) == 0 and cid in after.acting:
            enc, more = self.end_turn(system, enc, chance)
            events.extend(more)
        return enc, events

    def lose(
        self,
        system: System,
        enc: Encounter,
        cid: str,
        seconds: int,
        why: Text | str,
        chance: Chance,
        *,
        spill: bool = True,
    ) -> Result:
        """Take seconds from a combatant: from this turn if they are acting, else their next; `spill`
        False keeps it to that one turn."""
        if seconds <= 0:
            return enc, []
        state = state_of(enc, SecondsState)
        if cid not in state.acting:
            return enc.but(
                turns=state.but(lost=state.lost + (Lost(cid=cid, seconds=seconds, why=why, spill=spill),))
            ), []
        before = state.left.get(cid, 0)
        enc, events = self._take(system, enc, cid, seconds, chance, carried=False, why=why, spill=spill)
        used = before - state_of(enc, SecondsState).left.get(cid, 0)
        events.insert(0, Event(kind="info", text=_loses(enc, cid, used, why)))
        if state_of(enc, SecondsState).left.get(cid, 0) == 0 and cid in state_of(enc, SecondsState).acting:
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

    # --- delaying ------------------------------------------------------------
    def delay(self, system: System, enc: Encounter, cid: str, chance: Chance) -> Result:
        state = state_of(enc, SecondsState)
        if cid not in state.delayed and cid in state.acting:
            if not self.untouched(enc, cid):
                raise InvalidInput(
                    say(
                        "{who} has already used part of this turn: only an untouched turn can be delayed.",
                        who=enc.get(cid).name,
                    )
                )
            # One who stepped back in and puts the turn off again is no longer stepping in.
            enc = enc.but(turns=state.but(stepped_in=tuple(c for c in state.stepped_in if c != cid)))
        return super().delay(system, enc, cid, chance)

    def _come_back(self, system, enc, cid, chance) -> Result:
        """Step in before whoever is acting, who finishes their turn afterwards. It is the turn put off, taken
        up where it stood (its start is not done again), and the order stays as it was."""
        state = state_of(enc, SecondsState)
        interrupted = tuple(c for c in state.acting if c != cid)
        state = state.but(
            delayed=tuple(c for c in state.delayed if c != cid),
            # A delayer stepped in on is one of `stepped_in`; the slot's turn stays the one to resume.
            interrupted=state.interrupted if state.stepped_in else interrupted,
            stepped_in=state.stepped_in + (cid,),
            acting=(),
        )
        enc = enc.but(turns=state)
        events = [Event(kind="info", text=stepping_in(enc, cid, interrupted), ping=enc.controllers(interrupted))]
        enc, more, live = start_turn(system, enc, [cid], chance, fresh=False)
        events.extend(more)
        enc = enc.but(turns=enc.turns.but(acting=tuple(live)))
        if not live:
            enc, more = self._advance(system, enc, chance)
            return enc, events + more
        return self._fill(system, enc, chance, events, fresh=False)

    def leave(self, system: System, enc: Encounter, cid: str, chance: Chance) -> Result:
        state = state_of(enc, SecondsState)
        enc = enc.but(
            turns=state.but(
                interrupted=tuple(c for c in state.interrupted if c != cid),
                stepped_in=tuple(c for c in state.stepped_in if c != cid),
                lost=tuple(i for i in state.lost if i.cid != cid),
                owed={k: v for k, v in state.owed.items() if k != cid},
            )
        )
        return super().leave(system, enc, cid, chance)


def _loses(enc: Encounter, cid: str, seconds: int, why: Text | str) -> Text:
    return say("{who} loses {n} s ({why}).", who=enc.get(cid).name, n=seconds, why=why)
