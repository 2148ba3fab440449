"""Alternating tracks: players and the GM's side take turns down one track.

Players are ordered by their rolls, enemies by their fixed initiative scores.
The GM side goes first only when its roll beats every player's. The track
alternates player and GM; whoever is left over (usually enemies) acts at the
end of the round. The order is settled once, at the start of the fight;
newcomers are placed where their value belongs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..errors import InvalidInput
from ..model import Encounter, Event, TurnState, Value
from .base import MAX_STEPS, OrderLine, Result, TurnStructure, end_turns, new_round, start_turn

if TYPE_CHECKING:
    from ..randomness import Chance
    from ..system import System


class TrackEntry(Value):
    cid: str
    player: bool
    value: float
    tiebreak: float = 0
    text: str = ""


class TrackState(TurnState):
    structure: Literal["tracks"] = "tracks"
    entries: tuple[TrackEntry, ...] = ()
    gm_roll: int | None = None
    gm_first: bool = False
    track: tuple[str, ...] = ()
    index: int = -1
    acting: tuple[str, ...] = ()


def build_track(entries: list[TrackEntry], gm_first: bool) -> list[str]:
    """Alternate the two sides, each in descending order; leftovers at the end."""
    def order(items):
        return [e.cid for e in sorted(items, key=lambda e: (e.value, e.tiebreak), reverse=True)]

    players = order([e for e in entries if e.player])
    enemies = order([e for e in entries if not e.player])
    first, second = (enemies, players) if gm_first else (players, enemies)
    track: list[str] = []
    for i in range(max(len(first), len(second))):
        if i < len(first):
            track.append(first[i])
        if i < len(second):
            track.append(second[i])
    pairs = min(len(first), len(second))
    # Past the pairs, the longer side's rest keeps its order at the round's end.
    return track[: 2 * pairs] + (first[pairs:] + second[pairs:])


class Tracks(TurnStructure):
    key = "tracks"
    state_type = TrackState

    def enter(self, system, enc, cids, chance) -> Result:
        state: TrackState = enc.turns
        events: list[Event] = []
        entries = list(state.entries)
        for cid in cids:
            combatant = enc.get(cid)
            (value, *rest), text = system.roll_initiative(enc, combatant, chance)
            entry = TrackEntry(cid=cid, player=not combatant.npc, value=value, text=text)
            tied = [e for e in entries if e.player and entry.player and e.value == entry.value]
            if tied:
                settled, _, more = system.order_ties(enc, tied + [entry], chance)
                events.extend(more)
                by_cid = {e.cid: e for e in settled}
                entries = [by_cid.get(e.cid, e) for e in entries]
                entry = by_cid[cid]
            entries.append(entry)
            events.append(Event(kind="roll", text=f"{combatant.name} initiative: {text}"))
        state = state.but(entries=tuple(entries))
        if enc.status == "running":
            current = state.acting
            track = build_track(entries, state.gm_first)
            index = track.index(current[0]) if current else state.index
            state = state.but(track=tuple(track), index=index)
        return enc.but(turns=state), events

    def leave(self, system, enc, cid, chance) -> Result:
        state: TrackState = enc.turns
        was_acting = cid in state.acting
        index = state.index
        if cid in state.track and state.track.index(cid) <= index:
            index -= 1
        state = state.but(
            entries=tuple(e for e in state.entries if e.cid != cid),
            track=tuple(c for c in state.track if c != cid),
            acting=tuple(c for c in state.acting if c != cid),
            index=index,
        )
        enc = enc.but(turns=state)
        if was_acting and enc.status == "running":
            return self._advance(system, enc, chance)
        return enc, []

    def gm_roll(self, enc: Encounter, chance: "Chance") -> tuple[int, str]:
        players = sum(1 for e in enc.turns.entries if e.player)
        dice = chance.pool(players + 1, 6)
        return max(dice), f"{players + 1}d6 ({', '.join(map(str, dice))}) → {max(dice)}"

    def begin(self, system, enc, chance) -> Result:
        state: TrackState = enc.turns
        if not state.entries:
            raise InvalidInput("Nobody is on the track yet: add combatants first.")
        roll, text = self.gm_roll(enc, chance)
        best_player = max((e.value for e in state.entries if e.player), default=0)
        gm_first = roll > best_player
        events = [Event(kind="roll", text=f"GM initiative: {text}; "
                        + ("beats every player: the GM side goes first." if gm_first else "players go first."))]
        state = state.but(gm_roll=roll, gm_first=gm_first, track=tuple(build_track(list(state.entries), gm_first)), index=-1)
        enc = enc.but(status="running", turns=state)
        enc, more = new_round(system, enc, chance)
        events.extend(more)
        enc, more = self._advance(system, enc, chance)
        return enc, events + more

    def acting(self, enc: Encounter) -> tuple[str, ...]:
        return enc.turns.acting

    def end_turn(self, system, enc, chance) -> Result:
        enc, events = end_turns(system, enc, enc.turns.acting, chance)
        enc, more = self._advance(system, enc, chance)
        return enc, events + more

    def _advance(self, system, enc, chance) -> Result:
        events: list[Event] = []
        for _ in range(MAX_STEPS):
            state: TrackState = enc.turns
            index = state.index + 1
            if index >= len(state.track):
                if not any(system.can_act(enc, c) for c in enc.combatants):
                    return enc.but(turns=state.but(acting=())), events
                enc = enc.but(turns=state.but(index=-1, acting=()))
                enc, more = new_round(system, enc, chance)
                events.extend(more)
                continue
            cid = state.track[index]
            enc = enc.but(turns=state.but(index=index, acting=()))
            if not system.can_act(enc, enc.get(cid)):
                continue
            enc, more, live = start_turn(system, enc, [cid], chance)
            events.extend(more)
            if live:
                return enc.but(turns=enc.turns.but(acting=tuple(live))), events
        raise InvalidInput("The track is stuck: nobody can take a turn.")

    def lines(self, system, enc) -> list[OrderLine]:
        state: TrackState = enc.turns
        by_cid = {e.cid: e for e in state.entries}
        cids = state.track or tuple(e.cid for e in sorted(state.entries, key=lambda e: e.value, reverse=True))
        return [
            OrderLine(f"{by_cid[c].value:g}", (c,), current=c in state.acting, note="" if by_cid[c].player else "GM")
            for c in cids
        ]

    def swap(self, enc: Encounter, first: str, second: str) -> Encounter:
        """Tied players choose their order: exchange two players' places."""
        state: TrackState = enc.turns
        by_cid = {e.cid: e for e in state.entries}
        a, b = by_cid[first], by_cid[second]
        entries = tuple(
            e.but(tiebreak=b.tiebreak, value=b.value) if e.cid == first
            else e.but(tiebreak=a.tiebreak, value=a.value) if e.cid == second else e
            for e in state.entries
        )
        track = tuple(second if c == first else first if c == second else c for c in state.track)
        return enc.but(turns=state.but(entries=entries, track=track))
