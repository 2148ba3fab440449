"""The one pure transition: apply(state, action, chance) -> Outcome.

Checks run in a fixed order, as a reducer's would: the action is known to the
system → the encounter is in a state that allows it → no choice is pending →
the sender may give it → the actor may act now → apply. A refused action
raises a RulesError and the state is untouched (it is immutable anyway).
"""

from __future__ import annotations

from . import registry
from .actions import Action
from .cards import parse_cards
from .entered import HAND_ENTERED, mark_entered
from .errors import AwaitingChoice, NotAllowed, NotRunning, NotYourTurn
from .model import Actor, Encounter, Outcome
from .randomness import Chance
from .said import cut, say, seq

SUMMARY_LIMIT = 200  # characters of the first line kept for the encounter's log


def chance_for(state: Encounter, action: Action) -> Chance:
    cards = parse_cards(" ".join(action.cards)) if action.cards else ()
    return Chance(state.rng_state, state.deck, action.dice, cards)


def apply(state: Encounter, action: Action, chance: Chance | None = None) -> Outcome:
    system = registry.get(state.system)
    handler = system.handler(action)
    if state.status == "ended":
        raise NotRunning(say("This encounter has ended: start a new one with /encounter start."))
    if action.needs_running and state.status != "running":
        raise NotRunning(say("The fight has not begun: the GM uses /initiative next to start round 1."))
    if state.pending is not None and not action.answers_pending:
        pending = state.pending
        raise AwaitingChoice(say("Waiting for a choice first: {prompt}", prompt=pending.prompt))
    if action.gm_only and not action.by.is_gm:
        raise NotAllowed(say("Only the GM can do that."))
    action = _resolve_actor(system, state, action)
    chance = chance or chance_for(state, action)
    chance.entered_by = action.by  # a system may keep a player's dice for their own characters' rolls
    with chance.reporting():
        new_state, events = handler(state, action, chance)
    chance.finish()
    if new_state.pending is None or new_state.pending == state.pending:
        events = mark_entered(events, chance)
    elif chance.unreported:
        # An action waiting on a choice shows its roll, and the mark, once the choice is made.
        pending = new_state.pending
        new_state = new_state.but(pending=pending.but(context={**pending.context, HAND_ENTERED: True}))
    new_state = new_state.but(rng_state=chance.rng_state, deck=tuple(chance.deck))
    if new_state.pending is not None and new_state.pending != state.pending:
        _check_answerable(system, new_state)
    first = next((e for e in events if e.kind != "turn"), None)
    if first is None:
        summary = action.describe()
    else:
        summary = seq("✍️ ", first.said) if first.entered else first.said
    return Outcome(new_state, tuple(events), cut(summary, SUMMARY_LIMIT))


# How many choices in a row a trial follows down their defaults.
TRIAL_DEPTH = 4


def _check_answerable(system, state: Encounter, depth: int = 0) -> None:
    """A choice may only open if it can be closed: its default, which also answers
    for anyone who does not, must resolve with whatever the action kept for after
    the choice (dice entered with it, say). Trying it on the immutable state is
    cheap and pure; a failure refuses the action that asked, before anything changes."""
    pending = state.pending
    if pending is None:
        return
    trial = Chance(state.rng_state, state.deck)
    after, _ = system.resume(state.but(pending=None), pending, pending.default, trial)
    trial.finish()
    if after.pending is not None and depth < TRIAL_DEPTH:
        _check_answerable(system, after.but(rng_state=trial.rng_state, deck=tuple(trial.deck)), depth + 1)


def acting_for(system, state: Encounter, by: Actor) -> list[str]:
    """Whose turn an action sent without `actor:` takes, the one meant first: the sender's combatants acting
    now (the GM's: all of them, and first an NPC whose turn waits while a player's character steps in)."""
    if state.status != "running":
        return []
    acting = list(system.turns.acting(state))
    if not by.is_gm:
        return [c for c in acting if state.get(c).controller_id == by.user_id]
    # The GM runs the NPCs: a player's out-of-turn action does not make its character the GM's.
    if not any(state.get(c).controller_id is None for c in acting):
        return _gm_paused(system, state) + acting
    return acting


def _gm_paused(system, state: Encounter) -> list[str]:
    """GM-run combatants whose turn waits while someone steps in: still their turn for the GM."""
    if state.status != "running":
        return []
    return [c for c in system.turns.paused(state) if state.get(c).controller_id is None]


def _resolve_actor(system, state: Encounter, action: Action) -> Action:
    """Fill in and check who acts: the sender's own combatant, on its turn."""
    if "actor" not in type(action).model_fields:
        return action
    if action.actor is None:
        if not action.on_turn:
            return action
        mine = acting_for(system, state, action.by)
        if not mine:
            raise NotYourTurn(say("It is not your turn."))
        return action.but(actor=state.get(mine[0]).name)
    combatant = state.find(action.actor)
    if not action.by.is_gm and combatant.controller_id != action.by.user_id:
        raise NotAllowed(say("{who} is not your character.", who=combatant.name))
    acting = system.turns.acting(state) if state.status == "running" else ()
    own_turn = combatant.id in acting or (action.by.is_gm and combatant.id in _gm_paused(system, state))
    if action.on_turn and not own_turn:
        raise NotYourTurn(say("It is not {who}'s turn.", who=combatant.name))
    return action.but(actor=combatant.name)
