"""Alternating tracks: players and the GM's side take turns down one track.

Players are ordered by their rolls, enemies by their fixed initiative scores.
The GM side goes first only when its roll beats every player's. The track
alternates player and GM; whoever is left over (usually enemies) acts at the
end of the round. Players tied on their roll decide their order themselves
(a choice offered to the tied players before round 1). The order is settled
once, at the start of the fight; newcomers are placed where their value belongs.

Between turns, a combatant may step in for a single action: *now*, pausing
the acting turn until it is done (an out-of-turn action), or *after* the
current turn ends (a delayed action released later in the round).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..errors import InvalidInput, NotAllowed
from ..model import Choice, Encounter, Event, TurnState, Value
from ..said import EMPTY, N_, joined, say
from ..secrets import secret
from ..text import Text, as_text
from ..usertext import listed
from .base import (
    MAX_STEPS,
    OrderLine,
    Result,
    TurnStructure,
    Waiting,
    end_turns,
    named_few,
    new_round,
    settle_latecomer,
    start_turn,
    state_of,
)

if TYPE_CHECKING:
    from ..randomness import Chance
    from ..system import System

TIE_CHOICE = "track_tie"


class TrackEntry(Value):
    cid: str
    player: bool
    value: float
    tiebreak: float = 0
    text: Text = EMPTY


class TrackState(TurnState):
    structure: Literal["tracks"] = "tracks"
    entries: tuple[TrackEntry, ...] = ()
    gm_roll: int | None = None
    gm_first: bool = False
    track: tuple[str, ...] = ()
    index: int = -1
    acting: tuple[str, ...] = ()
    # "now": `acting` interrupted `interrupted`; "after": a released delayed action.
    interjection: Literal["", "now", "after"] = ""
    interrupted: tuple[str, ...] = ()
    queued: tuple[str, ...] = ()


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


def tied_players(entries) -> list[TrackEntry]:
    """The first group of players sharing one roll that nobody has ordered yet."""
    groups: dict[tuple[float, float], list[TrackEntry]] = {}
    for entry in entries:
        if entry.player:
            groups.setdefault((entry.value, entry.tiebreak), []).append(entry)
    for key in sorted(groups, reverse=True):
        if len(groups[key]) > 1:
            return groups[key]
    return []


def why_idle(system, enc, combatant) -> Text:
    """Why someone still in the fight cannot take their turn (a system may say more)."""
    return system.cannot_act_reason(enc, combatant) or say("cannot act")


class Tracks(TurnStructure):
    key = "tracks"
    state_type = TrackState

    def enter(self, system, enc, cids, chance) -> Result:
        state = state_of(enc, TrackState)
        events: list[Event] = []
        entries = list(state.entries)
        for cid in cids:
            combatant = enc.get(cid)
            (value, *rest), text = system.roll_initiative(enc, combatant, chance)
            entry = TrackEntry(cid=cid, player=not combatant.npc, value=value, text=text)
            tied = [e for e in entries if e.player and entry.player and e.value == entry.value]
            # Before the fight the tied players choose (at begin); a latecomer's tie
            # is settled by the system's rule so the running track never waits.
            if tied and enc.status == "running":
                entries, entry, more = settle_latecomer(system, enc, entries, entry, tied, chance)
                events.extend(more)
            entries.append(entry)
            events.append(Event(kind="roll", text=say("{who} initiative: {roll}", who=combatant.name, roll=text)))
        state = state.but(entries=tuple(entries))
        if enc.status == "running" and state.track:
            # The round so far stays as it went; everyone still to act this round (a latecomer too) follows
            # in the new track's order, so nobody behind the current place loses their turn.
            done = state.track[: state.index + 1]
            rest = [cid for cid in build_track(entries, state.gm_first) if cid not in done]
            state = state.but(track=(*done, *rest))
        return enc.but(turns=state), events

    def leave(self, system, enc, cid, chance) -> Result:
        state = state_of(enc, TrackState)
        was_acting = cid in state.acting
        index = state.index
        if cid in state.track and state.track.index(cid) <= index:
            index -= 1
        state = state.but(
            entries=tuple(e for e in state.entries if e.cid != cid),
            track=tuple(c for c in state.track if c != cid),
            acting=tuple(c for c in state.acting if c != cid),
            interrupted=tuple(c for c in state.interrupted if c != cid),
            queued=tuple(c for c in state.queued if c != cid),
            index=index,
        )
        enc = enc.but(turns=state)
        if was_acting and enc.status == "running" and not state.acting:
            if state.interjection:
                return self._after_interjection(system, enc, chance)
            return self._after_turn(system, enc, chance)
        return enc, []

    def gm_roll(self, enc: Encounter, chance: Chance) -> tuple[int, str]:
        players = sum(1 for e in state_of(enc, TrackState).entries if e.player)
        dice = chance.pool(players + 1, 6)
        return max(dice), f"{players + 1}d6 ({', '.join(map(str, dice))}) → {max(dice)}"

    def begin(self, system, enc, chance) -> Result:
        state = state_of(enc, TrackState)
        if not state.entries:
            raise InvalidInput(say("Nobody is on the track yet: add combatants first."))
        roll, text = self.gm_roll(enc, chance)
        best_player = max((e.value for e in state.entries if e.player), default=0)
        gm_first = roll > best_player
        if gm_first:
            line = say("GM initiative: {roll}; beats every player: the GM side goes first.", roll=text)
        else:
            line = say("GM initiative: {roll}; players go first.", roll=text)
        events = [Event(kind="roll", text=line)]
        state = state.but(gm_roll=roll, gm_first=gm_first, index=-1)
        enc = enc.but(status="running", turns=state)
        enc, more = self._settle_ties(system, enc, chance)
        return enc, events + more

    def _settle_ties(self, system, enc, chance) -> Result:
        """Ask tied players for their order, one pick at a time; then start round 1."""
        state = state_of(enc, TrackState)
        tied = tied_players(state.entries)
        if tied:
            # Each option is a tied player's combatant, its name as typed.
            names = [as_text(enc.get(e.cid).name) for e in tied]
            users = enc.controllers([e.cid for e in tied])
            prompt = say(
                "{names} tied on initiative {value:g}: who goes first?",
                names=listed(names),
                value=tied[0].value,
            )
            enc = enc.ask(
                kind=TIE_CHOICE,
                prompt=prompt,
                options=tuple(Choice(key=e.cid, label=name) for e, name in zip(tied, names, strict=True)),
                default=tied[0].cid,
                chooser=tied[0].cid,
                users=users,
                context={"cids": [e.cid for e in tied]},
                rolls=False,
            )
            asked = say("{question} (the tied players choose)", question=prompt)
            return enc, [Event(kind="info", text=asked, ping=users)]
        state = state.but(track=tuple(build_track(list(state.entries), state.gm_first)), index=-1)
        enc = enc.but(turns=state)
        enc, events = new_round(system, enc, chance)
        enc, more = self._advance(system, enc, chance)
        return enc, events + more

    def resume(self, system, enc, pending, option, chance) -> Result:
        if pending.kind != TIE_CHOICE:
            return super().resume(system, enc, pending, option, chance)
        state = state_of(enc, TrackState)
        group = [c for c in pending.context["cids"] if any(e.cid == c for e in state.entries)]
        chosen = option if option in group else None
        if chosen is None:  # gone meanwhile, or asked before options had keys: asked again
            return self._settle_ties(system, enc, chance)
        # The first pick of n rises by n, the next by n-1…: picks keep their order.
        entries = tuple(e.but(tiebreak=e.tiebreak + len(group)) if e.cid == chosen else e for e in state.entries)
        enc = enc.but(turns=state.but(entries=entries))
        enc, events = self._settle_ties(system, enc, chance)
        first = say("{who} goes first among the tied players.", who=enc.get(chosen).name)
        return enc, [Event(kind="info", text=first)] + events

    def acting(self, enc: Encounter) -> tuple[str, ...]:
        return state_of(enc, TrackState).acting

    def paused(self, enc: Encounter) -> tuple[str, ...]:
        state = state_of(enc, TrackState)
        return state.interrupted if state.interjection == "now" else ()

    def waiting(self, system: System, enc: Encounter) -> Waiting:
        """The turn message says when someone steps in, so nobody mistakes it for their own turn."""
        state = state_of(enc, TrackState)
        if not state.interjection:
            return super().waiting(system, enc)
        cids = state.acting
        names = named_few(enc.get(c).name for c in cids) or say("nobody")
        if state.interjection == "now":
            paused = named_few(enc.get(c).name for c in state.interrupted)
            if paused:
                title = say("{who} acts out of turn, interrupting {paused}", who=names, paused=paused)
            else:
                title = say("{who} acts out of turn", who=names)
        else:
            title = say("{who}'s delayed action", who=names)
        return Waiting(title, cids, enc.controllers(cids))

    def end_turn(self, system, enc, chance) -> Result:
        state = state_of(enc, TrackState)
        if state.interjection:
            return self._after_interjection(system, enc, chance)
        enc, events = end_turns(system, enc, state.acting, chance)
        enc, more = self._after_turn(system, enc, chance)
        return enc, events + more

    # --- stepping in between turns ------------------------------------------------
    def interject_now(self, system, enc, cid: str) -> Result:
        """`cid` acts at once; the acting turn waits until that action is done."""
        state = state_of(enc, TrackState)
        name = enc.get(cid).name
        if state.interjection:
            busy = listed(enc.get(c).name for c in state.acting)
            raise NotAllowed(say("{who} is already acting out of turn: wait until that action is done.", who=busy))
        if cid in state.acting:
            raise NotAllowed(say("It is already {who}'s turn.", who=name))
        if not state.acting:
            raise NotAllowed(say("Nobody is acting right now, so there is no turn to interrupt."))
        interrupted = state.acting
        enc = enc.but(
            turn_no=enc.turn_no + 1, turns=state.but(acting=(cid,), interrupted=interrupted, interjection="now")
        )
        names = listed(enc.get(c).name for c in interrupted)
        return enc, [
            Event(
                kind="turn",
                text=say("{who} acts out of turn, interrupting {names}: one action", who=name, names=names),
                ping=enc.controllers([cid]),
            )
        ]

    def queue_after(self, system, enc, cid: str) -> Result:
        """`cid` takes one action as soon as the current turn ends."""
        state = state_of(enc, TrackState)
        name = enc.get(cid).name
        if cid in state.queued:
            raise NotAllowed(say("{who}'s delayed action is already waiting for this turn to end.", who=name))
        if cid in state.acting:
            raise NotAllowed(
                say("{who} is acting now: the delayed action comes after a turn, so end this one first.", who=name)
            )
        enc = enc.but(turns=state.but(queued=state.queued + (cid,)))
        # An out-of-turn action is not a turn: the delayed one waits for the turn it interrupted.
        following = state.interrupted if state.interjection == "now" else state.acting
        current = listed(enc.get(c).name for c in following) or say("the current turn")
        queued = say("{who}'s delayed action happens right after {current}'s turn.", who=name, current=current)
        return enc, [Event(kind="info", text=queued)]

    def _after_interjection(self, system, enc, chance) -> Result:
        state = state_of(enc, TrackState)
        if state.interjection == "now":
            back = tuple(c for c in state.interrupted if system.can_act(enc, enc.get(c)))
            enc = enc.but(turns=state.but(acting=back, interrupted=(), interjection=""))
            if back:
                enc = enc.but(turn_no=enc.turn_no + 1)
                names = joined(N_(" and "), (enc.get(c).name for c in back))
                continues = say("{who}'s turn continues", who=names)
                return enc, [Event(kind="turn", text=continues, ping=enc.controllers(back))]
            return self._after_turn(system, enc, chance)
        enc = enc.but(turns=state.but(acting=(), interjection=""))
        return self._after_turn(system, enc, chance)

    def _after_turn(self, system, enc, chance) -> Result:
        """Released delayed actions first, then the next place on the track."""
        events: list[Event] = []
        state = state_of(enc, TrackState)
        while state.queued:
            cid, rest = state.queued[0], state.queued[1:]
            enc = enc.but(turns=state.but(queued=rest))
            state = enc.turns
            if system.can_act(enc, enc.get(cid)):
                enc = enc.but(turn_no=enc.turn_no + 1, turns=state.but(acting=(cid,), interjection="after"))
                events.append(
                    Event(
                        kind="turn",
                        text=say("{who} takes the delayed action", who=enc.get(cid).name),
                        ping=enc.controllers([cid]),
                    )
                )
                return enc, events
        enc, more = self._advance(system, enc, chance)
        return enc, events + more

    def _advance(self, system, enc, chance) -> Result:
        events: list[Event] = []
        for _ in range(MAX_STEPS):
            state = state_of(enc, TrackState)
            index = state.index + 1
            if index >= len(state.track):
                if not any(system.can_act(enc, c) for c in enc.combatants):
                    return enc.but(turns=state.but(acting=())), events
                # A new round runs the whole track in its order again, latecomers in their places.
                track = tuple(build_track(list(state.entries), state.gm_first))
                enc = enc.but(turns=state.but(track=track, index=-1, acting=()))
                enc, more = new_round(system, enc, chance)
                events.extend(more)
                continue
            cid = state.track[index]
            enc = enc.but(turns=state.but(index=index, acting=()))
            combatant = enc.get(cid)
            if not system.can_act(enc, combatant):
                if not combatant.out:
                    why = why_idle(system, enc, combatant)
                    skipped = say("{who}'s turn is skipped: {why}.", who=combatant.name, why=why)
                    events.append(Event(kind="info", text=skipped))
                continue
            enc, more, live = start_turn(system, enc, [cid], chance)
            events.extend(more)
            if live:
                return enc.but(turns=enc.turns.but(acting=tuple(live))), events
        raise InvalidInput(say("The track is stuck: nobody can take a turn."))

    def lines(self, system, enc) -> list[OrderLine]:
        state = state_of(enc, TrackState)
        by_cid = {e.cid: e for e in state.entries}
        cids = state.track or tuple(
            e.cid for e in sorted(state.entries, key=lambda e: (e.value, e.tiebreak), reverse=True)
        )
        return [
            OrderLine(
                secret(f"{by_cid[c].value:g}", enc.get(c)),
                (c,),
                current=c in state.acting,
                note=EMPTY if by_cid[c].player else say("GM"),
            )
            for c in cids
        ]

    def swap(self, enc: Encounter, first: str, second: str) -> Encounter:
        """Tied players choose their order: exchange two players' places."""
        state = state_of(enc, TrackState)
        by_cid = {e.cid: e for e in state.entries}
        a, b = by_cid[first], by_cid[second]
        entries = tuple(
            e.but(tiebreak=b.tiebreak, value=b.value)
            if e.cid == first
            else e.but(tiebreak=a.tiebreak, value=a.value)
            if e.cid == second
            else e
            for e in state.entries
        )
        track = tuple(second if c == first else first if c == second else c for c in state.track)
        return enc.but(turns=state.but(entries=entries, track=track))
