"""Faction alternation: sides take turns activating one character or passing.

The faction holding the initiative moves first each round (or hands the first
move to another faction before anyone acts). Each character acts once a round.
A faction with nobody left to act this round passes automatically; a faction
with nobody able to act at all (everyone down or surrendered) is left out of
the alternation until someone can act again. The round ends when every
faction still in play has passed in a row. Characters a system names for a
bonus round (an ambush) act alone in round 0, before round 1. A choice left
open at the end of a round (morale) is settled before the next round's first
move is announced, since it decides who is still fighting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from ..actions import Action
from ..errors import InvalidInput, NotAllowed, NotYourTurn
from ..model import Encounter, Event, TurnState
from ..said import EMPTY, say, say_plural
from ..text import Text
from ..usertext import Typed, listed, mark, quoted
from .base import (
    MAX_STEPS,
    OrderLine,
    Result,
    TurnStructure,
    Waiting,
    end_turns,
    named_few,
    new_round,
    start_turn,
    state_of,
)

if TYPE_CHECKING:
    from ..randomness import Chance
    from ..system import System


class FactionState(TurnState):
    structure: Literal["factions"] = "factions"
    holder: Typed | None = None  # faction names, as the GM typed them
    moving: Typed | None = None
    active: str | None = None
    acted: tuple[str, ...] = ()
    passes: int = 0
    bonus: tuple[str, ...] = ()  # who plays the bonus round before round 1
    spent: tuple[str, ...] = ()  # factions already said this round to have nobody left to act


class TakeTurn(Action):
    """The moving faction activates one of its characters."""

    kind: ClassVar[str] = "turn_take"
    on_turn: ClassVar[bool] = False


class PassMove(Action):
    kind: ClassVar[str] = "turn_pass"
    on_turn: ClassVar[bool] = False


class FirstMove(Action):
    """The initiative holder hands the round's first move to another faction."""

    kind: ClassVar[str] = "turn_first"
    on_turn: ClassVar[bool] = False
    faction: str


class HoldInitiative(Action):
    """Before round 1: which faction started the fight and holds the initiative."""

    kind: ClassVar[str] = "turn_initiative"
    gm_only: ClassVar[bool] = True
    needs_running: ClassVar[bool] = False
    on_turn: ClassVar[bool] = False
    faction: str


class Factions(TurnStructure):
    key = "factions"
    state_type = FactionState

    def handlers(self, system: System):
        return {
            TakeTurn: lambda enc, a, ch: self.take(system, enc, a, ch),
            PassMove: lambda enc, a, ch: self.pass_move(system, enc, a, ch),
            FirstMove: lambda enc, a, ch: self.first_move(system, enc, a, ch),
            HoldInitiative: lambda enc, a, ch: self.hold_initiative(enc, a),
        }

    # --- factions present --------------------------------------------------
    def factions(self, enc: Encounter) -> list[str]:
        """Every side still on the field, the initiative holder first."""
        seen: list[str] = []
        for combatant in enc.combatants:
            if not combatant.out and combatant.side not in seen:
                seen.append(combatant.side)
        holder = state_of(enc, FactionState).holder
        if holder in seen:
            seen.remove(holder)
            seen.insert(0, holder)
        return seen

    def in_play(self, system: System, enc: Encounter) -> list[str]:
        """Factions that take moves: someone in them can act (this round or a later one)."""
        able = {c.side for c in enc.combatants if system.can_act(enc, c)}
        return [f for f in self.factions(enc) if f in able]

    def ready(self, system: System, enc: Encounter, faction: str) -> list[str]:
        state = state_of(enc, FactionState)
        return [
            c.id
            for c in enc.combatants
            if c.side == faction
            and c.id not in state.acted
            and system.can_act(enc, c)
            and (not state.bonus or c.id in state.bonus)
        ]

    def faction_users(self, enc: Encounter, faction: str | None) -> tuple[int, ...]:
        return enc.controllers([c.id for c in enc.combatants if c.side == faction and not c.out])

    # --- membership --------------------------------------------------------------
    def enter(self, system, enc, cids, chance) -> Result:
        sides = list(dict.fromkeys(enc.get(c).side for c in cids))
        return enc, [Event(kind="info", text=say("Faction: {sides}.", sides=listed(sides)))]

    def leave(self, system, enc, cid, chance) -> Result:
        state = state_of(enc, FactionState)
        if state.active == cid:
            enc = enc.but(turns=state.but(active=None))
            return self._next_faction(system, enc, chance, passed=False)
        # The moving faction may have lost the last character it could take a turn with.
        rest = enc.but(combatants=tuple(c for c in enc.combatants if c.id != cid))
        return self.settle(system, rest, chance)

    # --- flow --------------------------------------------------------------------
    def begin(self, system, enc, chance) -> Result:
        factions = self.factions(enc)
        if len(factions) < 2:
            raise InvalidInput(say("A fight needs at least two factions: add combatants on both sides."))
        events: list[Event] = []
        holder = enc.turns.holder
        if holder not in factions:
            holder = chance.rng.choice(sorted(factions))
            events.append(
                Event(
                    kind="info",
                    text=say(
                        "Nobody clearly started the fight: {faction} hold the initiative (drawn at random).",
                        faction=holder,
                    ),
                )
            )
        enc = enc.but(status="running", turns=enc.turns.but(holder=holder))
        bonus = tuple(getattr(system, "bonus_round", lambda enc: ())(enc))
        if bonus:
            names = listed(enc.get(c).name for c in bonus)
            enc = enc.but(turns=enc.turns.but(bonus=bonus, moving=holder))
            events.append(Event(kind="round", text=say("Bonus round: only {names} can act", names=names)))
            # A round for the system too (round 0): what it counts from, it counts from here.
            enc, more = system.on_round_start(enc, chance)
            events.extend(more)
            enc, more = self._open_move(system, enc, chance)
            return enc, events + more
        enc, more = self._new_round(system, enc, chance)
        return enc, events + more

    def _new_round(self, system, enc, chance) -> Result:
        enc = enc.but(turns=enc.turns.but(acted=(), passes=0, active=None, moving=enc.turns.holder, bonus=(), spent=()))
        enc, events = new_round(system, enc, chance)
        if enc.pending is not None:
            return enc, events  # the system calls open_round once the choice is made
        enc, more = self._open_move(system, enc, chance)
        return enc, events + more

    def open_round(self, system: System, enc: Encounter, chance: Chance) -> Result:
        """Announce the round's first move, held back while a round-end choice was open."""
        return self._open_move(system, enc, chance)

    def settle(self, system: System, enc: Encounter, chance: Chance) -> Result:
        """Pass for the moving faction if nobody in it can act any more (someone in
        it surrendered or reacted between turns)."""
        state = state_of(enc, FactionState)
        if enc.status != "running" or state.active or enc.pending is not None:
            return enc, []
        if state.moving in self.in_play(system, enc) and self.ready(system, enc, state.moving):
            return enc, []
        return self._open_move(system, enc, chance)

    def _open_move(self, system, enc, chance) -> Result:
        """Announce the moving faction, passing for it when nobody can act."""
        events: list[Event] = []
        for _ in range(MAX_STEPS):
            state = state_of(enc, FactionState)
            playing = self.in_play(system, enc)
            if not playing:
                enc = enc.but(turns=state.but(moving=None))
                return enc, events + [
                    Event(
                        kind="warning",
                        text=say(
                            "Nobody is able to act: the GM ends the fight (/encounter end), or changes a condition "
                            "and passes (/turn pass)."
                        ),
                    )
                ]
            if state.moving not in playing:
                enc = enc.but(turns=state.but(moving=self._after(system, enc, state.moving)))
                continue
            if self.ready(system, enc, state.moving):
                enc = enc.but(turn_no=enc.turn_no + 1)
                waiting = self.waiting(system, enc)
                events.append(Event(kind="turn", text=waiting.title, ping=waiting.users))
                return enc, events
            # Said once, when the faction runs out: its later passes this round are no news.
            if state.moving not in state.spent:
                events.append(
                    Event(kind="info", text=say("{faction} must pass: nobody left to act.", faction=state.moving))
                )
                enc = enc.but(turns=state.but(spent=state.spent + (state.moving,)))
            enc, more, ended = self._count_pass(system, enc, chance)
            events.extend(more)
            if ended:
                return enc, events
        raise InvalidInput(say("The round is stuck: no faction can act."))

    def _after(self, system, enc: Encounter, faction: str | None) -> str | None:
        """The next faction in play after this one, in the tracker's order."""
        order = self.factions(enc)
        playing = self.in_play(system, enc)
        if not playing:
            return None
        if faction not in order:
            return playing[0]
        start = order.index(faction)
        return next(f for step in range(1, len(order) + 1) if (f := order[(start + step) % len(order)]) in playing)

    def _count_pass(self, system, enc, chance):
        state = state_of(enc, FactionState)
        passes = state.passes + 1
        if passes >= len(self.in_play(system, enc)):
            enc = enc.but(turns=state.but(passes=passes))
            enc, events = self._new_round(system, enc, chance)
            passed = Event(kind="info", text=say("Every faction passed in a row: the round ends."))
            return enc, [passed] + events, True
        enc = enc.but(turns=state.but(passes=passes, moving=self._after(system, enc, state.moving)))
        return enc, [], False

    def _next_faction(self, system, enc, chance, passed: bool) -> Result:
        state = state_of(enc, FactionState)
        enc = enc.but(turns=state.but(active=None, moving=self._after(system, enc, state.moving)))
        return self._open_move(system, enc, chance)

    def round_label(self, enc: Encounter) -> Text:
        return say("bonus round (ambush)") if state_of(enc, FactionState).bonus else super().round_label(enc)

    def acting(self, enc: Encounter) -> tuple[str, ...]:
        active = state_of(enc, FactionState).active
        return (active,) if active else ()

    def waiting(self, system: System, enc: Encounter) -> Waiting:
        state = state_of(enc, FactionState)
        if state.active:
            title = say("{who}'s turn", who=enc.get(state.active).name)
            return Waiting(title, (state.active,), enc.controllers([state.active]))
        if state.moving is None:
            return Waiting(say("Nobody is able to act"), (), ())
        ready = self.ready(system, enc, state.moving)
        names = named_few(enc.get(c).name for c in ready) or say("nobody")
        users = self.faction_users(enc, state.moving)
        title = say("{faction} to move: take a turn with {names}, or pass", faction=state.moving, names=names)
        return Waiting(title, tuple(ready), users)

    def may_move(self, enc: Encounter, user_id: int, is_gm: bool) -> None:
        if is_gm:
            return
        moving = state_of(enc, FactionState).moving
        if moving is None:
            raise NotYourTurn(say("Nobody is able to act: only the GM can pass now."))
        if user_id not in self.faction_users(enc, moving):
            raise NotYourTurn(say("Not your move: the move is with {faction}.", faction=moving))

    def take(self, system, enc, action: TakeTurn, chance) -> Result:
        state = state_of(enc, FactionState)
        if state.active:
            raise NotYourTurn(say("{who} is still taking a turn: end it first.", who=enc.get(state.active).name))
        combatant = enc.find(action.actor or "")
        if combatant.side != state.moving:
            raise NotYourTurn(
                say(
                    "The move is with {moving}, not {faction} ({who}'s faction).",
                    moving=state.moving or say("nobody"),
                    faction=combatant.side,
                    who=combatant.name,
                )
            )
        if combatant.id in state.acted:
            raise InvalidInput(say("{who} has already acted this round.", who=combatant.name))
        if not system.can_act(enc, combatant):
            why = system.cannot_act_reason(enc, combatant)
            if why is None:
                raise InvalidInput(say("{who} cannot act.", who=combatant.name))
            raise InvalidInput(say("{who} cannot act ({why}).", who=combatant.name, why=why))
        if state.bonus and combatant.id not in state.bonus:
            names = listed(enc.get(c).name for c in state.bonus)
            raise InvalidInput(
                say_plural(
                    "Only {names} acts in the bonus round.",
                    "Only {names} act in the bonus round.",
                    len(state.bonus),
                    names=names,
                )
            )
        if not action.by.is_gm and combatant.controller_id != action.by.user_id:
            raise NotAllowed(say("{who} is not your character.", who=combatant.name))
        # A faction that ran out and has someone back (revived, newly joined) will be told again.
        spent = tuple(f for f in state.spent if f != combatant.side)
        enc = enc.but(turns=state.but(active=combatant.id, acted=state.acted + (combatant.id,), passes=0, spent=spent))
        enc, events, live = start_turn(system, enc, [combatant.id], chance)
        if not live:
            enc, more = self._next_faction(system, enc, chance, passed=False)
            events.extend(more)
        return enc, events

    def fallen(self, system, enc: Encounter, chance: Chance) -> Result:
        """A character taken down during its own turn (an opportunity attack as it moved, the GM's
        damage) does not go on: "their turn resumes if they are still alive and conscious"."""
        active = state_of(enc, FactionState).active
        if enc.status != "running" or active is None or enc.pending is not None:
            return enc, []
        if system.can_act(enc, enc.get(active)):
            return enc, []
        text = say("{who} can no longer act: their turn ends.", who=enc.get(active).name)
        enc, events = self.end_turn(system, enc, chance)
        return enc, [Event(kind="info", text=text), *events]

    def end_turn(self, system, enc, chance) -> Result:
        state = state_of(enc, FactionState)
        if not state.active:
            raise InvalidInput(say("Nobody is taking a turn: take a turn with a character or pass."))
        enc, events = end_turns(system, enc, [state.active], chance)
        enc, more = self._next_faction(system, enc, chance, passed=False)
        return enc, events + more

    def may_end_turn(self, enc: Encounter, user_id: int, is_gm: bool) -> None:
        if state_of(enc, FactionState).active is None:
            raise InvalidInput(say("Nobody is taking a turn: take a turn with a character or pass."))
        super().may_end_turn(enc, user_id, is_gm)

    def pass_move(self, system, enc, action: PassMove, chance) -> Result:
        state = state_of(enc, FactionState)
        if state.active:
            raise NotYourTurn(say("{who} is taking a turn: end it before passing.", who=enc.get(state.active).name))
        self.may_move(enc, action.by.user_id, action.by.is_gm)
        events = [Event(kind="info", text=say("{faction} pass.", faction=state.moving))]
        enc, more, ended = self._count_pass(system, enc, chance)
        events.extend(more)
        if not ended:
            enc, more = self._open_move(system, enc, chance)
            events.extend(more)
        return enc, events

    def first_move(self, system, enc, action: FirstMove, chance) -> Result:
        state = state_of(enc, FactionState)
        if state.acted or state.passes or state.active:
            raise InvalidInput(say("The first move can only be handed over before anyone acts this round."))
        if not action.by.is_gm and action.by.user_id not in self.faction_users(enc, state.holder):
            raise NotAllowed(
                say("Only {faction}, who hold the initiative, choose who moves first.", faction=state.holder)
            )
        faction = _match(action.faction, self.in_play(system, enc))
        enc = enc.but(turns=state.but(moving=faction))
        enc, events = self._open_move(system, enc, chance)
        handed = say("{holder} let {faction} move first.", holder=state.holder, faction=faction)
        return enc, [Event(kind="info", text=handed)] + events

    def hold_initiative(self, enc, action: HoldInitiative) -> Result:
        if enc.status != "setup":
            raise InvalidInput(say("The initiative is settled once the fight has begun."))
        faction = _match(action.faction, self.factions(enc))
        return enc.but(turns=enc.turns.but(holder=faction)), [
            Event(kind="info", text=say("Initiative: {faction} (they started the fight).", faction=faction))
        ]

    def spend_reaction(self, enc: Encounter, cid: str) -> Encounter:
        """A reaction uses up the character's turn for the round."""
        state = state_of(enc, FactionState)
        if cid in state.acted:
            raise InvalidInput(say("{who} has already acted this round and cannot react.", who=enc.get(cid).name))
        return enc.but(turns=state.but(acted=state.acted + (cid,)))

    def lines(self, system, enc) -> list[OrderLine]:
        """One line per character, faction by faction, marking who acts now (or,
        at a faction's move, whom it can take a turn with, once no choice is
        open); the dead and fled stay listed, struck out."""
        state = state_of(enc, FactionState)
        lines = []
        for faction in self.factions(enc):
            members = [c for c in enc.combatants if c.side == faction]
            members.sort(key=lambda c: c.out)
            note = say("holds the initiative") if faction == state.holder else EMPTY
            moving = enc.status == "running" and enc.pending is None and faction == state.moving
            ready = self.ready(system, enc, faction) if moving and not state.active else ()
            for index, member in enumerate(members):
                current = enc.status == "running" and member.id == state.active or member.id in ready
                # A faction is named as typed.
                shown = note if index == 0 else EMPTY
                lines.append(OrderLine(mark(faction), (member.id,), current=current, note=shown))
        return lines


def _match(name: str, factions: list[str]) -> str:
    key = (name or "").strip().casefold()
    for faction in factions:
        if faction.casefold() == key:
            return faction
    raise InvalidInput(
        say("No faction called {name}: factions are {factions}.", name=quoted(name or ""), factions=listed(factions))
    )
