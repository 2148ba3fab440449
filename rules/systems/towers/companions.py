"""Animal companions: "You and your animal companion activate simultaneously. You choose a single
action, and either you or your companion executes it."

A companion (`companion_of=<master>` on its sheet) has no place of its own on the Combat Clock: it
activates on its master's, and whichever of the two takes the action moves that one place on. Its
controller is the master's player. A Combat Move or Reckless Move moves both, one after the other;
a chip discarded to heal may heal either; a knocked-out master's companion still acts on the
master's activation. It defends itself like anyone (its own PD and ID, its own defence flip).
"""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.model import Encounter, Event
from rules.said import say, seq
from rules.turns.base import Result, settle_latecomer
from rules.turns.clock import Clock, ClockEntry, ClockState, Release
from rules.usertext import listed

from .initiative import on_its_own
from .model import ENDINGS, TowersCombatant, TowersEncounter, can_act


def attach(enc: TowersEncounter, combatant: TowersCombatant) -> TowersCombatant:
    """A new combatant whose sheet names a master: the master's companion, on the master's side and
    commanded by the master's player."""
    if not combatant.sheet.companion_of:
        return combatant
    master = enc.find(combatant.sheet.companion_of)
    if master.companion_of:
        raise InvalidInput(
            say(
                "{who} is a companion itself: name its master, {master}.",
                who=master.name,
                master=enc.get(master.companion_of).name,
            )
        )
    if combatant.surprised:
        # No place of its own to delay: a surprise said of it alone would be dropped unsaid.
        raise InvalidInput(
            say(
                "{who} activates with {master}: surprise {master} to delay the two of them, "
                "or add {who} without surprised.",
                who=combatant.name,
                master=master.name,
            )
        )
    return combatant.but(companion_of=master.id, side=master.side, controller_id=master.controller_id)


def companions(enc: TowersEncounter, cid: str) -> tuple[TowersCombatant, ...]:
    return tuple(c for c in enc.combatants if c.companion_of == cid)


def pair(enc: TowersEncounter, combatant: TowersCombatant) -> tuple[TowersCombatant, ...]:
    """The master and their companions, the master first: who share one activation."""
    master = enc.get(combatant.companion_of) if combatant.companion_of else combatant
    return (master, *companions(enc, master.id))


def alongside(enc: TowersEncounter, combatant: TowersCombatant) -> tuple[TowersCombatant, ...]:
    """The others of `combatant`'s pair who can act now."""
    return tuple(c for c in pair(enc, combatant) if c.id != combatant.id and can_act(enc, c))


class TowersClock(Clock):
    """The Combat Clock, with a companion on its master's place."""

    def members(self, enc: Encounter, cid: str) -> tuple[str, ...]:
        return (cid, *(c.id for c in companions(_ours(enc), cid)))

    def entry(self, enc: Encounter, cid: str) -> ClockEntry:
        master = _ours(enc).get(cid).companion_of
        return super().entry(enc, master or cid)

    def acting(self, enc: Encounter) -> tuple[str, ...]:
        """Whoever can act of those who activate on the current place: the master, their companion, or both."""
        current = _ours(enc).turns.current
        if current is None:
            return ()
        ours = _ours(enc)
        return tuple(cid for cid in self.members(enc, current) if can_act(ours, ours.get(cid)))

    def enter(self, system, enc, cids, chance) -> Result:
        alone = [cid for cid in cids if not _ours(enc).get(cid).companion_of]
        enc, events = super().enter(system, enc, alone, chance)
        for cid in cids:
            master = _ours(enc).get(cid).companion_of
            if master:
                text = say(
                    "{who} activates with {master}: on each of {master}'s turns, one of the two takes the action.",
                    who=enc.get(cid).name,
                    master=enc.get(master).name,
                )
                events.append(Event(kind="info", text=text))
        return enc, events

    def release(self, system, enc, action: Release, chance) -> Result:
        """A holder stepping in before the one whose turn just opened acts "ahead of" them: their
        activation has not started, so what lasts until it starts (ENDINGS) is back on until it does."""
        put_off = _ours(enc).turns.current
        enc, events = super().release(system, enc, action, chance)
        if put_off is None or _ours(enc).turns.current == put_off:  # nobody put off: after them, or another holder
            return enc, events
        ours = _ours(enc)
        for member in (ours.get(cid) for cid in self.members(ours, put_off)):
            if not member.ended:
                continue
            ours = ours.update(member.id, **dict.fromkeys(member.ended, True))
            what = listed(say(label) for flag, label in ENDINGS if flag in member.ended)
            line = Event(kind="info", text=say("{what} lasts until {who} acts.", what=what, who=member.name))
            at = next((i for i, e in enumerate(events) if e.kind == "turn"), len(events))
            events = [*events[:at], line, *events[at:]]
        return ours, events

    def leave(self, system, enc, cid, chance) -> Result:
        """A master leaving the fight leaves their companions on the clock in their place, acting alone,
        each on a Calculated Initiative of its own."""
        ours = _ours(enc)
        left = companions(ours, cid)
        if not left:
            return super().leave(system, enc, cid, chance)
        events: list[Event] = []
        place = super().entry(enc, cid)
        entries = list(ours.turns.entries)
        for companion in left:
            ours = ours.update(companion.id, companion_of=None)
            line = say("{who} stays in the fight and now acts on its own.", who=companion.name)
            events.append(Event(kind="info", text=line))
            key, text = on_its_own(companion, place.phase, chance)
            entry = place.but(cid=companion.id, key=key, tiebreak=(), text=text)
            events.append(Event(kind="roll", text=seq(companion.name, ": ", text)))
            tied = [e for e in entries if e.key == entry.key and e.cid != cid]
            if tied:
                entries, entry, more = settle_latecomer(system, ours, entries, entry, tied, chance)
                events.extend(more)
            entries.append(entry)
        enc, more = super().leave(system, ours.but(turns=ours.turns.but(entries=tuple(entries))), cid, chance)
        return enc, events + more


def _ours(enc: Encounter) -> TowersEncounter:
    if not isinstance(enc, TowersEncounter) or not isinstance(enc.turns, ClockState):
        raise TypeError("not a 99 Towers encounter")
    return enc
