"""What every turn structure offers the engine, and the shared turn start."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TypeVar

from ..errors import InvalidInput, NotAllowed
from ..model import Encounter, Event, Pending, TurnState
from ..said import EMPTY, say, term
from ..text import Text, as_text
from ..usertext import listed, listed_first

if TYPE_CHECKING:
    from ..actions import Action
    from ..randomness import Chance
    from ..system import System

Result = tuple[Encounter, list[Event]]
S = TypeVar("S", bound=TurnState)

# A runaway loop (everyone skipped forever) must end; no real round needs more.
MAX_STEPS = 1_000


@dataclass(frozen=True, slots=True)
class OrderLine:
    """One line of the tracker: a label (initiative, phase…) and who stands there."""

    label: Text
    cids: tuple[str, ...]
    current: bool = False
    note: Text = EMPTY


@dataclass(frozen=True, slots=True)
class Waiting:
    """Whom the encounter waits for now: shown and pinged by the turn message."""

    title: Text
    cids: tuple[str, ...]
    users: tuple[int, ...]


def state_of(enc: Encounter, kind: type[S]) -> S:
    """The encounter's turn state, as the structure running it keeps it."""
    state = enc.turns
    if not isinstance(state, kind):
        raise TypeError(f"the encounter's turns are a {type(state).__name__}, not a {kind.__name__}")
    return state


class TurnStructure:
    key: ClassVar[str]
    state_type: ClassVar[type[TurnState]]

    def initial(self) -> TurnState:
        return self.state_type(structure=self.key)

    def handlers(self, system: System) -> dict[type[Action], Callable[..., Result]]:
        """Actions this structure adds to every system using it."""
        return {}

    # membership
    def enter(self, system: System, enc: Encounter, cids: list[str], chance: Chance) -> Result:
        raise NotImplementedError

    def leave(self, system: System, enc: Encounter, cid: str, chance: Chance) -> Result:
        raise NotImplementedError

    # flow
    def begin(self, system: System, enc: Encounter, chance: Chance) -> Result:
        raise NotImplementedError

    def acting(self, enc: Encounter) -> tuple[str, ...]:
        """Combatants who may take their turn's actions right now."""
        raise NotImplementedError

    def paused(self, enc: Encounter) -> tuple[str, ...]:
        """Combatants whose turn waits while someone steps in out of turn: still their turn."""
        return ()

    def waiting(self, system: System, enc: Encounter) -> Waiting:
        cids = self.acting(enc)
        names = named_few(enc.get(c).name for c in cids) or say("nobody")
        return Waiting(say("{who}'s turn", who=names), cids, enc.controllers(cids))

    def end_turn(self, system: System, enc: Encounter, chance: Chance) -> Result:
        raise NotImplementedError

    def may_end_turn(self, enc: Encounter, user_id: int, is_gm: bool) -> None:
        """Refuse an End turn from someone who controls none of the acting combatants."""
        if is_gm:
            return
        acting = self.acting(enc)
        if not any(enc.get(c).controller_id == user_id for c in acting):
            raise NotAllowed(say("Only the acting combatant's player or the GM can end this turn."))

    def round_label(self, enc: Encounter) -> Text:
        return say("round {n}", n=enc.round) if enc.round else say("choosing the order")

    def delay(self, system: System, enc: Encounter, cid: str, chance: Chance) -> Result:
        raise InvalidInput(say("{system} has no delayed turns.", system=term(system.name)))

    def lines(self, system: System, enc: Encounter) -> list[OrderLine]:
        raise NotImplementedError

    def resume(self, system: System, enc: Encounter, pending: Pending, option: str, chance: Chance) -> Result:
        raise InvalidInput(say("Nothing is waiting for that choice."))


def settle_latecomer(system: System, enc: Encounter, entries: list, entry, tied: list, chance: Chance):
    """A newcomer tied with entries already placed: the system's tie rule orders the
    group. Returns the entries with the tied ones replaced, the newcomer's settled
    entry, and the tie events."""
    settled, _, events = system.order_ties(enc, tied + [entry], chance)
    by_cid = {e.cid: e for e in settled}
    return [by_cid.get(e.cid, e) for e in entries], by_cid[entry.cid], events


def start_turn(
    system: System, enc: Encounter, cids, chance: Chance, *, fresh: bool = True
) -> tuple[Encounter, list[Event], list[str]]:
    """Open a turn for these combatants: start-of-turn effects, then the ping.

    Returns the combatants still able to act after their start-of-turn effects
    (ongoing damage can take someone out before they act).
    """
    enc = enc.but(turn_no=enc.turn_no + 1)
    events: list[Event] = []
    if fresh:
        for cid in cids:
            enc, more = system.on_turn_start(enc, cid, chance)
            events.extend(more)
    live = [cid for cid in cids if system.can_act(enc, enc.get(cid))]
    if live:
        names = join_names([enc.get(c).name for c in live])
        text = say("{who}'s turn", who=names) if fresh else say("{who}'s turn continues", who=names)
        events.append(Event(kind="turn", text=text, ping=enc.controllers(live)))
    return enc, events, live


# A waiting title (the turn message's heading, a reminder) names the first few of a shared turn, as many as
# the turn message has fields for (`bot.render.add_turn_fields`): forty long names would run past what one
# message holds, cutting off its heading and round. The tracker lists them all.
NAMED_WAITING = 10


def named_few(names: Iterable[str]) -> Text:
    """The first NAMED_WAITING names, and how many more there are (typed names stay typed)."""
    return listed_first(names, NAMED_WAITING)


def join_names(names: list[str]) -> Text:
    """ "A", "A and B", "A, B and C" (typed names stay typed)."""
    if len(names) == 1:
        return as_text(names[0])
    return say("{names} and {last}", names=listed(names[:-1]), last=as_text(names[-1]))


def end_turns(system: System, enc: Encounter, cids, chance: Chance) -> Result:
    events: list[Event] = []
    for cid in cids:
        enc, more = system.on_turn_end(enc, cid, chance)
        events.extend(more)
    return enc, events


def new_round(system: System, enc: Encounter, chance: Chance) -> Result:
    events: list[Event] = []
    if enc.round >= 1:
        enc, more = system.on_round_end(enc, chance)
        events.extend(more)
    enc = enc.but(round=enc.round + 1)
    events.append(Event(kind="round", text=say("Round {n}", n=enc.round)))
    enc, more = system.on_round_start(enc, chance)
    events.extend(more)
    return enc, events
