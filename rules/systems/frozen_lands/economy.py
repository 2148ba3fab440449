"""Three actions a round, reactions, and the once-a-turn rule."""

from __future__ import annotations

from ...errors import NotAllowed
from ...said import EMPTY, N_, Text, say, say_plural, seq, term
from ...usertext import mark
from .model import FrozenCombatant, FrozenEncounter

# The actions the rules name themselves; any other is one a player named (`Other`'s label).
OWN_ACTIONS = (N_("attack"), N_("move"), N_("stand"), N_("aim"), N_("reload"), N_("delay"))


def action_word(action: str) -> Text:
    """An action's name as a line shows it: the rules' own word (said), or the player's."""
    return term(action) if action in OWN_ACTIONS else mark(action)


def interjecting(enc: FrozenEncounter, combatant: FrozenCombatant) -> bool:
    return bool(enc.turns.interjection) and combatant.id in enc.turns.acting


def taking_delayed(enc: FrozenEncounter, combatant: FrozenCombatant) -> bool:
    """The released delayed action is the one being taken now: an out-of-turn action while it waits is not it."""
    return combatant.releasing and enc.turns.interjection == "after" and combatant.id in enc.turns.acting


def spend(
    enc: FrozenEncounter, combatant: FrozenCombatant, action: str, cost: int = 1, *, repeat_ok: bool = False
) -> FrozenCombatant:
    """Pay for an action or refuse it. Enemies are not limited (the GM runs them)."""
    if combatant.enemy:
        return combatant
    name = combatant.name
    if combatant.broken:
        raise NotAllowed(say("{who} is broken and cannot act until healed.", who=name))
    stepping_in = interjecting(enc, combatant)
    if stepping_in and combatant.interject_spent:
        raise NotAllowed(say("{who} has taken the one action of this interruption: end it to go on.", who=name))
    if taking_delayed(enc, combatant):
        # The delayed action was paid for when it was held.
        return combatant.but(
            releasing=False, held=False, interject_spent=True, actions_left=combatant.actions_left - (cost - 1)
        )
    if not stepping_in and action in combatant.used and not repeat_ok and not combatant.talent_allows(action):
        raise NotAllowed(
            say(
                "{who} has already used {action} this turn: the same action only once a turn.",
                who=name,
                action=action_word(action),
            )
        )
    if combatant.actions_left < cost:
        left = combatant.actions_left
        why = seq(" (", say("Exhaustion {level}", level=combatant.exhaustion), ")") if combatant.exhaustion else EMPTY
        values = dict(who=name, left=left, why=why, action=action_word(action), cost=cost)
        raise NotAllowed(
            say_plural(
                "{who} has {left} action left this round{why}: {action} needs {cost}. "
                "Actions come back at the start of the round.",
                "{who} has {left} actions left this round{why}: {action} needs {cost}. "
                "Actions come back at the start of the round.",
                left,
                **values,
            )
        )
    return combatant.but(
        actions_left=combatant.actions_left - cost,
        used=combatant.used if stepping_in else combatant.used + (action,),
        interject_spent=stepping_in,
    )


def refresh_round(combatant: FrozenCombatant) -> FrozenCombatant:
    return combatant.but(
        actions_left=combatant.max_actions(),
        reactions_left=combatant.max_reactions(),
        out_of_turn_tried=False,
        held=False,
        releasing=False,
        interject_spent=False,
    )


def fresh_turn(combatant: FrozenCombatant) -> FrozenCombatant:
    return combatant.but(used=(), attacked_with=(), split_rest=None)
