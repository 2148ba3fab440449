"""Sorted initiative: a fixed order of slots, highest first, repeated each round.

A slot usually holds one combatant; a system's tie rule may put several in one
slot (tied threats act together). Tie results are stored in each entry's
`tiebreak`, so the order never changes once settled. Newcomers are rolled and
inserted where their key belongs; a combatant who delays steps out and may
come back in front of whoever is acting.
"""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING, Literal

from ..errors import InvalidInput, NotYourTurn
from ..model import Encounter, Event, TurnState, Value
from ..said import EMPTY, say
from ..secrets import secret
from ..text import Text
from ..usertext import listed
from .base import MAX_STEPS, OrderLine, Result, TurnStructure, end_turns, new_round, start_turn, state_of

if TYPE_CHECKING:
    from ..randomness import Chance
    from ..system import System


class Entry(Value):
    cid: str
    key: tuple[float, ...]
    tiebreak: tuple[float, ...] = ()
    text: Text = EMPTY

    @property
    def sort_key(self) -> tuple:
        return (self.key, self.tiebreak)


class InitiativeState(TurnState):
    structure: Literal["initiative", "seconds"] = "initiative"
    entries: tuple[Entry, ...] = ()
    slots: tuple[tuple[str, ...], ...] = ()
    index: int = -1
    delayed: tuple[str, ...] = ()
    acting: tuple[str, ...] = ()


class Initiative(TurnStructure):
    key = "initiative"
    state_type = InitiativeState

    # --- membership ------------------------------------------------------
    def enter(self, system: System, enc: Encounter, cids: list[str], chance: Chance) -> Result:
        state = state_of(enc, InitiativeState)
        events: list[Event] = []
        entries = list(state.entries)
        for cid in cids:
            key, text = system.roll_initiative(enc, enc.get(cid), chance)
            entries.append(Entry(cid=cid, key=tuple(key), text=text))
            events.append(Event(kind="roll", text=say("{who} initiative: {roll}", who=enc.get(cid).name, roll=text)))
        if enc.status == "running":
            enc, more = self._insert(system, enc, entries, cids, chance)
        else:
            enc, more = self._rebuild(system, enc, entries, chance)
        return enc, events + more

    def _group_ties(self, system, enc, entries, chance):
        """Sort entries and let the system settle equal keys: (entries, slots, events)."""
        ordered: list[Entry] = []
        slots: list[list[str]] = []
        events: list[Event] = []
        entries = sorted(entries, key=lambda e: e.key, reverse=True)
        for _, group in groupby(entries, key=lambda e: e.key):
            group = list(group)
            if len(group) == 1:
                ordered.extend(group)
                slots.append([group[0].cid])
                continue
            settled, group_slots, more = system.order_ties(enc, group, chance)
            ordered.extend(settled)
            slots.extend(group_slots)
            events.extend(more)
        return ordered, slots, events

    def _rebuild(self, system, enc, entries, chance) -> Result:
        ordered, slots, events = self._group_ties(system, enc, entries, chance)
        state = enc.turns.but(entries=tuple(ordered), slots=tuple(tuple(s) for s in slots))
        return enc.but(turns=state), events

    def _insert(self, system, enc, entries, new_cids, chance) -> Result:
        """Place newcomers without disturbing the running order or the current slot."""
        state = state_of(enc, InitiativeState)
        by_cid = {e.cid: e for e in entries}
        slots = [list(s) for s in state.slots]
        events: list[Event] = []
        current = set(state.slots[state.index]) if 0 <= state.index < len(state.slots) else set()
        for cid in new_cids:
            newcomer = by_cid[cid]
            tied = [i for i, s in enumerate(slots) if by_cid[s[0]].key == newcomer.key]
            if tied:
                group = [by_cid[c] for i in tied for c in slots[i]] + [newcomer]
                settled, group_slots, more = system.order_ties(enc, group, chance)
                events.extend(more)
                by_cid.update({e.cid: e for e in settled})
                slots[tied[0] : tied[-1] + 1] = group_slots
                continue
            position = next(
                (i for i, s in enumerate(slots) if by_cid[s[0]].sort_key < newcomer.sort_key),
                len(slots),
            )
            slots.insert(position, [cid])
        index = next((i for i, s in enumerate(slots) if current and current & set(s)), state.index)
        ordered = [by_cid[c] for s in slots for c in s]
        state = state.but(entries=tuple(ordered), slots=tuple(tuple(s) for s in slots), index=index)
        return enc.but(turns=state), events

    def leave(self, system: System, enc: Encounter, cid: str, chance: Chance) -> Result:
        state = state_of(enc, InitiativeState)
        was_acting = cid in state.acting
        slots = []
        index = state.index
        for i, slot in enumerate(state.slots):
            rest = tuple(c for c in slot if c != cid)
            if rest:
                slots.append(rest)
            elif i < state.index or (i == state.index and was_acting):
                index -= 1
        state = state.but(
            entries=tuple(e for e in state.entries if e.cid != cid),
            slots=tuple(slots),
            index=index,
            delayed=tuple(c for c in state.delayed if c != cid),
            acting=tuple(c for c in state.acting if c != cid),
        )
        enc = enc.but(turns=state)
        if was_acting and not state.acting and enc.status == "running":
            return self._advance(system, enc, chance)
        return enc, []

    # --- flow --------------------------------------------------------------
    def begin(self, system: System, enc: Encounter, chance: Chance) -> Result:
        if not state_of(enc, InitiativeState).slots:
            raise InvalidInput(say("Nobody is in the initiative order yet: add combatants first."))
        enc = enc.but(status="running", turns=state_of(enc, InitiativeState).but(index=-1))
        enc, events = new_round(system, enc, chance)
        enc, more = self._advance(system, enc, chance, wrap=False)
        return enc, events + more

    def acting(self, enc: Encounter) -> tuple[str, ...]:
        return state_of(enc, InitiativeState).acting

    def end_turn(self, system: System, enc: Encounter, chance: Chance) -> Result:
        enc, events = end_turns(system, enc, state_of(enc, InitiativeState).acting, chance)
        enc, more = self._advance(system, enc, chance)
        return enc, events + more

    def _advance(self, system, enc, chance, wrap: bool = True) -> Result:
        events: list[Event] = []
        for _ in range(MAX_STEPS):
            state = state_of(enc, InitiativeState)
            index = state.index + 1
            if index >= len(state.slots):
                if not any(system.can_act(enc, c) for c in enc.combatants):
                    return enc.but(turns=state.but(acting=())), events + [
                        Event(kind="info", text=say("Nobody is left who can act."))
                    ]
                enc = enc.but(turns=state.but(index=-1, delayed=(), acting=()))
                enc, more = new_round(system, enc, chance)
                events.extend(more)
                continue
            enc = enc.but(turns=state.but(index=index, acting=()))
            slot = [c for c in state.slots[index] if c not in state.delayed and system.can_act(enc, enc.get(c))]
            if not slot:
                continue
            enc, more, live = start_turn(system, enc, slot, chance)
            events.extend(more)
            if live:
                return enc.but(turns=enc.turns.but(acting=tuple(live))), events
        raise InvalidInput(say("The turn order is stuck: nobody can take a turn."))

    def delay(self, system: System, enc: Encounter, cid: str, chance: Chance) -> Result:
        state = state_of(enc, InitiativeState)
        name = enc.get(cid).name
        if cid in state.delayed:
            return self._come_back(system, enc, cid, chance)
        if cid not in state.acting:
            raise NotYourTurn(say("{who} can only delay on their own turn.", who=name))
        unit = system.acts_with(enc, cid)
        state = state.but(delayed=state.delayed + unit, acting=tuple(c for c in state.acting if c not in unit))
        enc = enc.but(turns=state)
        who = enc.get(unit[0]).name
        events = [Event(kind="info", text=say("{who} delays: use /initiative delay again to step back in.", who=who))]
        if state.acting:
            return enc, events
        enc, more = self._advance(system, enc, chance)
        return enc, events + more

    def _come_back(self, system, enc, cid, chance) -> Result:
        """A delayed combatant steps in now, in front of whoever is acting."""
        state = state_of(enc, InitiativeState)
        interrupted = state.acting
        unit = system.acts_with(enc, cid)
        slots = [tuple(c for c in s if c not in unit) for s in state.slots]
        index = state.index
        removed_before = sum(1 for i, s in enumerate(state.slots) if set(s) <= set(unit) and i < index)
        slots = [s for s in slots if s]
        index -= removed_before
        slots.insert(max(index, 0), unit)
        delayed = tuple(c for c in state.delayed if c not in unit)
        state = state.but(slots=tuple(slots), index=max(index, 0), delayed=delayed)
        enc = enc.but(turns=state)
        events = [Event(kind="info", text=stepping_in(enc, unit[0], interrupted), ping=enc.controllers(interrupted))]
        # Only a turn already begun is delayed, and a delay ends with the round: this is the rest of that turn,
        # not another with its own start-of-turn effects and a fresh Action.
        enc, more, live = start_turn(
            system, enc, [c for c in unit if c == cid or system.can_act(enc, enc.get(c))], chance, fresh=False
        )
        enc = enc.but(turns=enc.turns.but(acting=tuple(live)))
        return enc, events + more

    def lines(self, system: System, enc: Encounter) -> list[OrderLine]:
        state = state_of(enc, InitiativeState)
        by_cid = {e.cid: e for e in state.entries}
        lines = []
        for slot in state.slots:
            entry = by_cid[slot[0]]
            # A slot of hidden NPCs alone keeps its initiative total from players.
            label = secret("/".join(_number(k) for k in entry.key[:1]), all(enc.get(c).hidden for c in slot))
            note = say("delayed") if all(c in state.delayed for c in slot) else EMPTY
            lines.append(OrderLine(label, tuple(slot), current=bool(set(slot) & set(state.acting)), note=note))
        return lines

    # --- for systems ---------------------------------------------------------
    def reorder(self, enc: Encounter, first: str, second: str) -> Encounter:
        """Swap two adjacent-in-value slots (e.g. tied heroes choosing their order)."""
        state = state_of(enc, InitiativeState)
        slots = list(state.slots)
        a = next(i for i, s in enumerate(slots) if first in s)
        b = next(i for i, s in enumerate(slots) if second in s)
        slots[a], slots[b] = slots[b], slots[a]
        by_cid = {e.cid: e for e in state.entries}
        ta, tb = by_cid[first].tiebreak, by_cid[second].tiebreak
        entries = tuple(
            e.but(tiebreak=tb) if e.cid == first else e.but(tiebreak=ta) if e.cid == second else e
            for e in state.entries
        )
        return enc.but(turns=state.but(slots=tuple(slots), entries=entries))


def stepping_in(enc: Encounter, cid: str, interrupted) -> Text:
    """A delayed combatant's return, naming whom it interrupts."""
    who = enc.get(cid).name
    if not interrupted:
        return say("{who} steps back in.", who=who)
    names = listed(enc.get(c).name for c in interrupted)
    return say("{who} steps back in, interrupting {names}.", who=who, names=names)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
