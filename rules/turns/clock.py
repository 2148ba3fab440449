"""The phase clock: everyone stands on a phase; acting moves you forward.

Phases run 0, 1, 2, …; ten phases make a round. The clock jumps to the next
occupied phase, firing each phase passed on the way (start-of-phase effects,
zero phases). In one phase, combatants act in their tie order; a zero-cost
action sends the actor to the back of the phase. A held combatant leaves the
clock and steps back in just before or after someone, never in the phase the
hold began; holders stepping in at the same moment go as the one who held
first chooses, and first unless they choose otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from ..actions import Action
from ..errors import InvalidInput, NotAllowed, NotYourTurn
from ..model import Encounter, Event, TurnState, Value
from ..said import EMPTY, say, say_plural, seq
from ..text import Text
from .base import (
    MAX_STEPS,
    OrderLine,
    Result,
    TurnStructure,
    Waiting,
    end_turns,
    join_names,
    settle_latecomer,
    start_turn,
    state_of,
)

if TYPE_CHECKING:
    from ..system import System

PHASES_PER_ROUND = 10
WAITS = say("waits")  # ending a turn without an action, unless a system names its own


class ClockEntry(Value):
    cid: str
    phase: int
    key: tuple[float, ...]
    tiebreak: tuple[float, ...] = ()
    back: float = 0  # raised by zero-cost actions: later in the same phase
    held_since: int | None = None
    text: Text = EMPTY
    # A released holder borrows the rank of whoever they step in beside, for
    # this phase only, so they sit right next to them and not after everyone.
    beside: tuple[tuple[float, ...], ...] | None = None
    anchor: float = 0
    # The turn a hold began in, until the holder next moves: holders stepping in at the same moment
    # go in the order they began holding.
    held_turn: int = 0

    def rank(self) -> tuple[tuple[float, ...], ...]:
        return (tuple(-k for k in self.key), tuple(-k for k in self.tiebreak))

    def order(self) -> tuple:
        return (self.phase, self.back, self.beside or self.rank(), self.anchor, self.held_turn)

    def moved(self, phase: int, back: float = 0) -> ClockEntry:
        return self.but(phase=phase, back=back, beside=None, anchor=0, held_turn=0)

    def stepping_in(self, phase: int) -> bool:
        """Released from a hold to act beside someone in `phase`, and not yet acted."""
        return self.beside is not None and self.held_since is None and self.phase == phase


class ClockState(TurnState):
    structure: Literal["clock"] = "clock"
    phase: int = 0
    entries: tuple[ClockEntry, ...] = ()
    current: str | None = None
    backs: int = 0


class Hold(Action):
    kind: ClassVar[str] = "hold"


class Release(Action):
    """A held combatant steps in just before or after `target` (the one
    acting now); without a target, right after whoever is acting, or at once
    when nobody is."""

    kind: ClassVar[str] = "release"
    on_turn: ClassVar[bool] = False
    target: str | None = None
    before: bool = True


def round_of(phase: int) -> int:
    return phase // PHASES_PER_ROUND + 1


class Clock(TurnStructure):
    key = "clock"
    state_type = ClockState

    def __init__(self, idle_cost: int = 1, idle_what: Text = WAITS) -> None:
        # What ending a turn without an action costs: systems name their own
        # "waste the turn" action here.
        self.idle_cost = idle_cost
        self.idle_what = idle_what

    def handlers(self, system: System):
        return {
            Hold: lambda enc, a, ch: self.hold(system, enc, enc.find(a.actor), ch),
            Release: lambda enc, a, ch: self.release(system, enc, a, ch),
        }

    def entry(self, enc: Encounter, cid: str) -> ClockEntry:
        for entry in state_of(enc, ClockState).entries:
            if entry.cid == cid:
                return entry
        raise InvalidInput(say("{who} is not on the clock.", who=enc.get(cid).name))

    def members(self, enc: Encounter, cid: str) -> tuple[str, ...]:
        """Who activates on `cid`'s place on the clock: `cid` alone, unless a system's companions share it."""
        return (cid,)

    def able(self, system, enc: Encounter, cid: str) -> bool:
        """Whether anyone who activates on `cid`'s place can act."""
        return any(system.can_act(enc, enc.get(member)) for member in self.members(enc, cid))

    def _with_entry(self, enc: Encounter, entry: ClockEntry) -> Encounter:
        entries = tuple(entry if e.cid == entry.cid else e for e in state_of(enc, ClockState).entries)
        return enc.but(turns=state_of(enc, ClockState).but(entries=entries))

    # --- membership ----------------------------------------------------------
    def enter(self, system, enc, cids, chance) -> Result:
        events: list[Event] = []
        entries = list(enc.turns.entries)
        for cid in cids:
            (phase, *key), text = system.roll_initiative(enc, enc.get(cid), chance)
            if enc.status == "running":
                phase = max(int(phase), enc.turns.phase)
            entry = ClockEntry(cid=cid, phase=int(phase), key=tuple(key), text=text)
            events.append(Event(kind="roll", text=seq(enc.get(cid).name, ": ", text)))
            tied = [e for e in entries if e.key == entry.key]
            if tied:
                entries, entry, more = settle_latecomer(system, enc, entries, entry, tied, chance)
                events.extend(more)
            entries.append(entry)
        return enc.but(turns=enc.turns.but(entries=tuple(entries))), events

    def leave(self, system, enc, cid, chance) -> Result:
        state = state_of(enc, ClockState)
        enc = enc.but(turns=state.but(entries=tuple(e for e in state.entries if e.cid != cid)))
        if state.current == cid and enc.status == "running":
            return self._next(system, enc, chance)
        if state.current == cid:  # the last one out: nobody's turn until the GM goes on
            enc = enc.but(turns=enc.turns.but(current=None))
        return enc, []

    # --- flow -------------------------------------------------------------------
    def begin(self, system, enc, chance) -> Result:
        if not enc.turns.entries:
            raise InvalidInput(say("Nobody is on the clock yet: add combatants first."))
        enc = enc.but(status="running", round=1, turns=enc.turns.but(phase=0, current=None))
        enc, events = system.on_round_start(enc, chance)
        events = [Event(kind="round", text=say("Round {n}", n=1))] + list(events)
        enc, more = system.on_phase(enc, 0, chance)
        events.extend(more)
        enc, more = self._next(system, enc, chance)
        return enc, events + more

    def queue(self, enc: Encounter) -> list[ClockEntry]:
        return sorted(
            (e for e in state_of(enc, ClockState).entries if e.held_since is None),
            key=ClockEntry.order,
        )

    def _next(self, system, enc, chance) -> Result:
        """Run the clock to the next combatant who can act and open their turn."""
        events: list[Event] = []
        for _ in range(MAX_STEPS):
            queue = [e for e in self.queue(enc) if self.able(system, enc, e.cid)]
            if not queue:
                return enc.but(turns=enc.turns.but(current=None)), events + [
                    Event(kind="info", text=say("Nobody is left on the clock who can act."))
                ]
            nxt = queue[0]
            while enc.turns.phase < nxt.phase:
                enc, more = self._tick(system, enc, chance)
                events.extend(more)
            # Start-of-phase effects may have changed who is first or who can act.
            live = [e for e in self.queue(enc) if self.able(system, enc, e.cid)]
            if not live or live[0].phase > enc.turns.phase:
                continue
            nxt = live[0]
            enc = enc.but(turns=enc.turns.but(current=nxt.cid))
            enc, more, started = start_turn(system, enc, list(self.members(enc, nxt.cid)), chance)
            events.extend(more)
            if started:
                return enc, events
            enc = enc.but(turns=enc.turns.but(current=None))
        raise InvalidInput(say("The clock is stuck: nobody can act."))

    def _tick(self, system, enc, chance) -> Result:
        phase = enc.turns.phase + 1
        events: list[Event] = []
        if phase % PHASES_PER_ROUND == 0:
            enc, more = system.on_round_end(enc, chance)
            events.extend(more)
            enc = enc.but(round=round_of(phase))
            events.append(Event(kind="round", text=say("Round {n}", n=enc.round)))
            enc, more = system.on_round_start(enc, chance)
            events.extend(more)
        enc = enc.but(turns=enc.turns.but(phase=phase))
        enc, more = system.on_phase(enc, phase, chance)
        return enc, events + list(more)

    def acting(self, enc: Encounter) -> tuple[str, ...]:
        current = state_of(enc, ClockState).current
        return (current,) if current else ()

    def waiting(self, system: System, enc: Encounter) -> Waiting:
        # The phase in the title: on a clock, "whose turn" alone does not say when.
        waiting = super().waiting(system, enc)
        if not waiting.cids:
            return waiting
        title = say("{title} — phase {phase}", title=waiting.title, phase=state_of(enc, ClockState).phase)
        return Waiting(title, waiting.cids, waiting.users)

    def advance(self, system, enc: Encounter, cid: str, cost: int, chance, *, what: Text | str = "") -> Result:
        """The actor spends `cost` phases; the clock moves on to whoever is next."""
        state = state_of(enc, ClockState)
        entry = self.entry(enc, cid)
        if cost < 0:
            raise InvalidInput(say("An action cannot cost fewer than {n} phases.", n=0))
        names = self._moving(system, enc, cid)
        who = join_names(names)
        if cost == 0:
            entry = entry.moved(state.phase, back=state.backs + 1)
            enc = enc.but(turns=state.but(backs=state.backs + 1))
            text = say_plural(
                "{who} goes to the back of phase {phase}",
                "{who} go to the back of phase {phase}",
                len(names),
                who=who,
                phase=state.phase,
            )
        else:
            entry = entry.moved(state.phase + cost)
            text = say_plural(
                "{who} next acts in phase {phase}",
                "{who} next act in phase {phase}",
                len(names),
                who=who,
                phase=state.phase + cost,
            )
        enc = self._with_entry(enc, entry)
        events = [Event(kind="info", text=seq(what, ": ", text, ".") if what else seq(text, "."))]
        enc, more = end_turns(system, enc, [cid], chance)
        events.extend(more)
        enc, more = self._next(system, enc, chance)
        return enc, events + more

    def _moving(self, system, enc: Encounter, cid: str) -> list[str]:
        """The names of those whose next activation `cid`'s action moves: whoever can act of those who
        activate on its place (as the turn's title names them), `cid` alone without a companion."""
        place = self.entry(enc, cid).cid
        able = [enc.get(m).name for m in self.members(enc, place) if system.can_act(enc, enc.get(m))]
        return able if len(able) > 1 else [enc.get(cid).name]

    def settle(self, system, enc: Encounter, chance) -> Result:
        """After something out of turn (an interrupt, GM damage): if whoever was
        acting can no longer act, the clock moves on to the next."""
        current = state_of(enc, ClockState).current
        if enc.status != "running" or current is None or self.able(system, enc, current):
            return enc, []
        name = enc.get(current).name
        enc, events = end_turns(system, enc, [current], chance)
        events = [Event(kind="info", text=say("{who} can no longer act: the clock moves on.", who=name))] + list(events)
        enc = enc.but(turns=state_of(enc, ClockState).but(current=None))
        enc, more = self._next(system, enc, chance)
        return enc, events + more

    def push(self, enc: Encounter, cid: str, phases: int) -> Encounter:
        """Move someone who is not acting later on the clock (an interrupt's cost). A holder is
        where the clock is now, and may release no earlier than ``phases`` after it."""
        entry = self.entry(enc, cid)
        if entry.held_since is not None:
            later = entry.moved(max(entry.phase, state_of(enc, ClockState).phase) + phases)
            return self._with_entry(enc, later.but(held_turn=entry.held_turn))
        return self._with_entry(enc, entry.moved(entry.phase + phases))

    def end_turn(self, system, enc, chance) -> Result:
        """Ending a turn without an action costs the structure's idle cost."""
        current = enc.turns.current
        if current is None:  # nobody could act (or nobody was left): the clock looks again
            return self._next(system, enc, chance)
        # the one who takes the idle action: whoever is acting on the current place on the clock
        actor = next(iter(self.acting(enc)), current)
        name = enc.get(actor).name
        what = say("{who} {what} ({cost})", who=name, what=self.idle_what, cost=self.idle_cost)
        enc, events = system.on_idle_turn(enc, actor, chance)
        enc, more = self.advance(system, enc, actor, self.idle_cost, chance, what=what)
        return enc, list(events) + more

    def hold(self, system, enc, combatant, chance) -> Result:
        state = state_of(enc, ClockState)
        entry = self.entry(enc, combatant.id)
        if state.current != entry.cid:
            raise NotYourTurn(say("{who} can only hold on their own turn.", who=combatant.name))
        names = self._moving(system, enc, combatant.id)
        entry = entry.but(held_since=state.phase, held_turn=enc.turn_no)
        enc = self._with_entry(enc, entry)
        enc = enc.but(turns=enc.turns.but(current=None))
        events = [
            Event(
                kind="info",
                text=(
                    say_plural(
                        "{who} holds (from phase {phase}): on someone's "
                        "turn in a later phase, release to act just before them (or after).",
                        "{who} hold (from phase {phase}): on someone's "
                        "turn in a later phase, release to act just before them (or after).",
                        len(names),
                        who=join_names(names),
                        phase=state.phase,
                    )
                ),
            )
        ]
        enc, more = self._next(system, enc, chance)
        return enc, events + more

    def holders(self, enc: Encounter) -> list[ClockEntry]:
        return [e for e in state_of(enc, ClockState).entries if e.held_since is not None]

    def _holder(self, enc: Encounter, action: Release):
        if action.actor:
            return enc.find(action.actor)
        mine = [
            enc.get(e.cid)
            for e in self.holders(enc)
            if action.by.is_gm or enc.get(e.cid).controller_id == action.by.user_id
        ]
        if len(mine) != 1:
            raise InvalidInput(
                say("Name who stops holding (actor:).") if mine else say("None of your combatants is holding.")
            )
        return mine[0]

    def release(self, system, enc, action: Release, chance) -> Result:
        holder = self._holder(enc, action)
        entry = self.entry(enc, holder.id)
        if entry.held_since is None:
            raise InvalidInput(say("{who} is not holding.", who=holder.name))
        if not self.able(system, enc, entry.cid):
            # Knocked out (or worse) while holding: stepping in would open a turn nobody can take.
            raise NotAllowed(say("{who} cannot act now.", who=holder.name))
        names = self._moving(system, enc, holder.id)
        who, count = join_names(names), len(names)
        events: list[Event] = []
        if action.target is None and enc.turns.current is None:
            # Nobody left to step in beside: the clock moves on to the next phase.
            while enc.turns.phase <= entry.held_since or enc.turns.phase < entry.phase:
                enc, more = self._tick(system, enc, chance)
                events.extend(more)
        state = state_of(enc, ClockState)
        if entry.held_since == state.phase:
            raise InvalidInput(
                say(
                    "{who} began holding in phase {phase}: release in a later phase.",
                    who=holder.name,
                    phase=state.phase,
                )
            )
        if state.phase < entry.phase:
            raise InvalidInput(
                say(
                    "{who} was moved back on the clock while holding: release in phase {phase} or later.",
                    who=holder.name,
                    phase=entry.phase,
                )
            )
        if action.target is None and state.current is None:
            enc = self._with_entry(enc, entry.moved(state.phase).but(held_since=None))
            enc = enc.but(turns=enc.turns.but(current=entry.cid))
            events.append(
                Event(
                    kind="info",
                    text=(
                        say_plural(
                            "{who} stops holding and acts in phase {phase}.",
                            "{who} stop holding and act in phase {phase}.",
                            count,
                            who=who,
                            phase=state.phase,
                        )
                    ),
                )
            )
            enc, more, _ = start_turn(system, enc, list(self.members(enc, entry.cid)), chance)
            return enc, events + more
        target = enc.find(action.target) if action.target else enc.get(state.current)
        target_entry = self.entry(enc, target.id)
        # Beside whoever is acting, or beside another holder stepping in at this moment ("come out of his
        # hold based on another character also stopping his hold action").
        joining = target_entry.stepping_in(state.phase) and state.current != target_entry.cid
        if state.current != target_entry.cid and not joining:
            raise InvalidInput(say("Release when {who} is about to act (it is their turn).", who=target.name))
        before = action.before and action.target is not None
        if joining and before and target_entry.held_turn < entry.held_turn:
            # "whoever held first chooses who acts first"
            raise InvalidInput(
                say(
                    "{first} began holding first and chooses who acts first: "
                    "{who} may step in after {first} (options:after).",
                    first=target.name,
                    who=holder.name,
                )
            )
        beside = target_entry.beside or target_entry.rank()
        entry = entry.moved(state.phase, back=target_entry.back).but(
            held_since=None,
            beside=beside,
            anchor=_next_to(state, entry.cid, target_entry, beside, before),
            held_turn=entry.held_turn,
        )
        enc = self._with_entry(enc, entry)
        if before:
            text = say_plural(
                "{who} stops holding and acts before {target}.",
                "{who} stop holding and act before {target}.",
                count,
                who=who,
                target=target.name,
            )
        else:
            text = say_plural(
                "{who} stops holding and acts after {target}.",
                "{who} stop holding and act after {target}.",
                count,
                who=who,
                target=target.name,
            )
        events.append(Event(kind="info", text=text))
        if before and not joining:
            enc = enc.but(turns=enc.turns.but(current=entry.cid))
            enc, more, _ = start_turn(system, enc, list(self.members(enc, entry.cid)), chance)
            events.extend(more)
        return enc, events

    def lines(self, system, enc) -> list[OrderLine]:
        """Who acts when; those who cannot act last, without the phase they
        no longer keep (it would read as a turn to come)."""
        state = state_of(enc, ClockState)
        able, holding, down = [], [], []
        for e in self.queue(enc) + self.holders(enc):
            combatant = enc.get(e.cid)
            cids = self.members(enc, e.cid)
            if enc.status != "setup" and not self.able(system, enc, e.cid):
                down.append(OrderLine(say("dead") if combatant.out else say("down"), cids))
            elif e.held_since is not None and e.phase > max(e.held_since, state.phase):
                note = say("since phase {n}, acts from phase {m}", n=e.held_since, m=e.phase)
                holding.append(OrderLine(say("holding"), cids, note=note))
            elif e.held_since is not None:
                holding.append(OrderLine(say("holding"), cids, note=say("since phase {n}", n=e.held_since)))
            else:
                able.append(OrderLine(say("phase {n}", n=e.phase), cids, current=e.cid == state.current))
        return able + holding + down


def _next_to(state: ClockState, cid: str, target: ClockEntry, beside, before: bool) -> float:
    """The anchor that puts `cid` just before (or after) `target` among those acting beside the same rank in the
    phase: halfway to the next one on that side, so it never lands level with them, or past them."""
    others = [
        e.anchor
        for e in state.entries
        if e.cid not in (cid, target.cid)
        and e.phase == state.phase
        and e.back == target.back
        and (e.beside or e.rank()) == beside
    ]
    if before:
        nearer = [a for a in others if a < target.anchor]
        return (max(nearer) + target.anchor) / 2 if nearer else target.anchor - 0.5
    nearer = [a for a in others if a > target.anchor]
    return (min(nearer) + target.anchor) / 2 if nearer else target.anchor + 0.5
