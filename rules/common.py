"""Handlers for the actions every system shares: joining, removing, turns,
delays, answering choices, ending the encounter, notes."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from .actions import AddCombatants, Choose, DelayTurn, EndEncounter, EndTurn, NextTurn, Note, RemoveCombatant
from .entered import mark_resumed
from .errors import InvalidInput, NotAllowed, Stale
from .model import Choice, Encounter, Event, Pending
from .said import joined, say, say_plural, seq
from .secrets import conceal, reveal
from .usertext import Typed, listed, mark, name_key, refuse_unshown_name, scrub, user_text

if TYPE_CHECKING:
    from .actions import Action
    from .randomness import Chance
    from .system import Handler, System

MAX_COMBATANTS = 200
MAX_GROUP = 50
MAX_NAME = 60
# The most conditions a combatant gathers by play where their names or tags are free (a 99 Towers condition, a
# Rotted Capes Weakened). A hero's lasting conditions are some of these, and a campaign file's lasting list takes
# at most 50 (bot/transfer.py MAX_LIST): no more than that, so what a fight leaves a hero always imports.
MAX_CONDITIONS = 50


def handlers(system: System) -> dict[type[Action], Handler]:
    """The shared actions, each bound to the system it runs under."""
    return {
        AddCombatants: partial(add, system),
        RemoveCombatant: partial(remove, system),
        NextTurn: partial(next_turn, system),
        EndTurn: partial(end_turn, system),
        DelayTurn: partial(delay, system),
        Choose: partial(choose, system),
        EndEncounter: partial(end, system),
        Note: partial(note, system),
    }


def add(system: System, enc: Encounter, action: AddCombatants, chance: Chance):
    by = action.by
    if not by.is_gm:
        if action.npc or action.count != 1 or action.controller_id != by.user_id or action.hidden:
            raise NotAllowed(say("Players can only join with their own character; the GM adds NPCs."))
    name = " ".join(scrub(action.name or "").split())
    if not name:
        raise InvalidInput(say("A combatant needs a name."))
    refuse_unshown_name(name)
    if len(name) > MAX_NAME:
        raise InvalidInput(say("Names are limited to {n} characters.", n=MAX_NAME))
    if not 1 <= action.count <= MAX_GROUP:
        raise InvalidInput(say("Count must be between {low} and {high}.", low=1, high=MAX_GROUP))
    if len(enc.combatants) + action.count > MAX_COMBATANTS:
        raise InvalidInput(say("An encounter holds at most {n} combatants.", n=MAX_COMBATANTS))
    if not action.npc and action.character_id is not None:
        if any(c.character_id == action.character_id and not c.out for c in enc.combatants):
            raise InvalidInput(say("{name} is already in this encounter.", name=user_text(name)))
    names = [name] if action.count == 1 else _numbered(enc, name, action.count)
    renamed = False
    clash = enc.maybe(name) if action.count == 1 else None
    if clash is not None and action.character_id is not None and clash.character_id != action.character_id:
        # A stored character's name is its player's, unique per player only: two players' Max both
        # fight, the later one under a name of its own for this fight (the link is its character_id).
        names, renamed = [_distinct(enc, name)], True
    for candidate in names:
        if enc.maybe(candidate):
            raise InvalidInput(say("There is already a combatant called {name}.", name=user_text(candidate)))
    if action.lasting is not None and action.count != 1:
        raise InvalidInput(say("Only a single combatant can start from a lasting state."))
    new_ids = []
    for candidate in names:
        cid = f"c{enc.next_id}"
        combatant = system.make_combatant(enc, action, cid, candidate)
        if action.lasting is not None:
            combatant = system.carry_in(combatant, action.lasting)
        enc = enc.but(combatants=enc.combatants + (combatant,), next_id=enc.next_id + 1)
        new_ids.append(cid)
    enc, events = system.turns.enter(system, enc, new_ids, chance)
    who = listed(user_text(n) for n in names)
    if renamed:
        text = say(
            "{name} joins the encounter as {who}: another combatant is already called {name}.",
            name=user_text(name),
            who=who,
        )
    else:
        text = say_plural("{who} joins the encounter.", "{who} join the encounter.", len(names), who=who)
    return enc, [Event(kind="info", text=text)] + events


def remove(system: System, enc: Encounter, action: RemoveCombatant, chance: Chance):
    combatant = enc.find(action.target)
    gone = system.leaving(enc, combatant.id)
    events = [Event(kind="info", text=say("{who} leaves the encounter.", who=combatant.name))]
    # The last one out: there is no next turn to find, so the fight waits for newcomers.
    last = enc.status == "running" and not any(c.id not in gone and not c.out for c in enc.combatants)
    if last:
        events.append(
            Event(
                kind="warning",
                text=say(
                    "Nobody is left in the fight: add combatants with /initiative add or "
                    "/initiative join and the GM goes on with /initiative next, or /encounter end."
                ),
            )
        )
        enc = enc.but(status="setup")
    for cid in gone:
        enc, more = system.turns.leave(system, enc, cid, chance)
        events += more
        enc = enc.but(combatants=tuple(c for c in enc.combatants if c.id != cid))
        if enc.pending and enc.pending.chooser == cid:
            enc = enc.but(pending=None)
    if last:
        enc = enc.but(status="running")
    return system.forget(enc, gone), events


def next_turn(system: System, enc: Encounter, action: NextTurn, chance: Chance):
    if enc.status == "setup":
        if not action.by.is_gm:
            raise NotAllowed(say("Only the GM begins the fight."))
        return system.turns.begin(system, enc, chance)
    system.turns.may_end_turn(enc, action.by.user_id, action.by.is_gm)
    return system.turns.end_turn(system, enc, chance)


def end_turn(system: System, enc: Encounter, action: EndTurn, chance: Chance):
    if action.turn_no != enc.turn_no:
        raise Stale(say("That turn is already over."))
    system.turns.may_end_turn(enc, action.by.user_id, action.by.is_gm)
    return system.turns.end_turn(system, enc, chance)


def delay(system: System, enc: Encounter, action: DelayTurn, chance: Chance):
    if action.actor is not None:
        return system.turns.delay(system, enc, enc.find(action.actor).id, chance)
    # No name: the sender's acting combatant steps out, or their delayed one steps back in.
    by = action.by
    acting = [c for c in system.turns.acting(enc) if by.is_gm or enc.get(c).controller_id == by.user_id]
    delayed = [c for c in getattr(enc.turns, "delayed", ()) if enc.get(c).controller_id == by.user_id]
    pick = acting or delayed
    if not pick:
        raise InvalidInput(say("Name the combatant who delays."))
    return system.turns.delay(system, enc, pick[0], chance)


def choose(system: System, enc: Encounter, action: Choose, chance: Chance):
    pending = enc.pending
    if pending is None or pending.id != action.pending_id:
        raise Stale(say("That choice has already been made."))
    if action.signature is not None and action.signature != pending.signature:
        raise Stale(say("That question is no longer asked: answer the one the fight waits on now."))
    if not action.by.is_gm and not _answers(enc, pending, action.by.user_id, pending.users):
        raise NotAllowed(say("This choice is not yours to make."))
    option: Choice | None
    if action.index is not None:
        if not 0 <= action.index < len(pending.options):
            if action.signature is None:  # a button of an older question (made before questions were signed)
                raise Stale(say("That question is no longer asked: answer the one the fight waits on now."))
            raise InvalidInput(say("Choose one of: {options}.", options=joined(", ", pending.labels)))
        option = pending.options[action.index]
    else:
        # The rules themselves and the autocomplete's values answer with an option's key. A player
        # types what they were shown: an option with a hidden number reads "?" to them, and typed
        # words in an option (a weapon's name) carry no marks on the button.
        typed = scrub(action.option).strip().casefold()
        readings = [(o, reveal(o.label).casefold(), conceal(o.label).casefold()) for o in pending.options]
        option = pending.option(action.option) or next((o for o, *seen in readings if typed in seen), None)
    if option is None:
        raise InvalidInput(say("Choose one of: {options}.", options=joined(", ", pending.labels)))
    owners = pending.owners.get(option.key)
    if owners is not None and not action.by.is_gm and not _answers(enc, pending, action.by.user_id, owners):
        raise NotAllowed(say("“{option}” is another player's call.", option=option.label))
    enc = enc.but(pending=None)
    enc, events = mark_resumed(*system.resume(enc, pending, option.key, chance), pending)
    shown = option.label
    if action.timed_out:
        chosen = say("Chosen: {option} (no answer in time: the default applies).", option=shown)
    else:
        chosen = say("Chosen: {option}.", option=shown)
    return enc, [Event(kind="info", text=chosen), *events]


def _answers(enc: Encounter, pending: Pending, user_id: int, users: tuple[int, ...]) -> bool:
    """Whether `user_id`, who is no GM now, answers as one of `users`: as the player of a combatant
    the question is for. Whoever started the encounter stands in those lists as the address of its
    GM-run combatants (`Encounter.controllers`); for those only a GM answers, not a former one."""
    if user_id not in users:
        return False
    if user_id != enc.gm_id:
        return True
    chooser = next((c for c in enc.combatants if c.id == pending.chooser), None)
    if chooser is not None and chooser.controller_id is None:
        return False
    return any(c.controller_id == user_id for c in enc.combatants)


def end(system: System, enc: Encounter, action: EndEncounter, chance: Chance):
    return enc.but(status="ended", pending=None), [Event(kind="end", text=say("The encounter is over."))]


def note(system: System, enc: Encounter, action: Note, chance: Chance):
    text = " ".join(scrub(action.text).split())[:500]
    if not text:
        raise InvalidInput(say("The note is empty."))
    return enc, [Event(kind="info", text=seq("📝 ", mark(text)))]


def refuse_another_condition(who: Typed, held: int) -> None:
    """Refuses a condition that would stand beside the `held` ones of `who` (not replace one) at the bound."""
    if held >= MAX_CONDITIONS:
        raise InvalidInput(
            say_plural(
                "{who} already has {n} condition: remove one with /condition remove first.",
                "{who} already has {n} conditions: remove one with /condition remove first.",
                held,
                who=who,
                n=held,
            )
        )


def _numbered(enc: Encounter, name: str, count: int) -> list[str]:
    """`Zombie` ×3 → Zombie 1, Zombie 2, Zombie 3, continuing past existing numbers."""
    taken = {name_key(c.name) for c in enc.combatants}
    names: list[str] = []
    n = 1
    while len(names) < count:
        candidate = f"{name} {n}"
        if name_key(candidate) not in taken:
            names.append(candidate)
        n += 1
    return names


def _distinct(enc: Encounter, name: str) -> str:
    """`Max` when a Max already fights → Max (2), or the first number after it not taken."""
    taken = {name_key(c.name) for c in enc.combatants}
    n = 2
    while name_key(f"{name} ({n})") in taken:
        n += 1
    return f"{name} ({n})"
