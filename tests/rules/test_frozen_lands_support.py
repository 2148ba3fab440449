"""Shared helpers for the Frozen Lands tests: a small party and a few enemies."""

from __future__ import annotations

from rules.actions import AddCombatants, Choose, EndTurn, NextTurn
from rules.engine import apply
from rules.model import Actor
from rules.systems.frozen_lands import SYSTEM
from rules.systems.frozen_lands import actions as fl  # noqa: F401 (the tests import it from here)
from tests.helpers import GM

ASTRID = Actor(user_id=10)
BJORN = Actor(user_id=11)
USERS = {"Astrid": ASTRID, "Bjorn": BJORN}

ASTRID_SHEET = {
    "body": 3,
    "agility": 3,
    "awareness": 3,
    "soul": 2,
    "melee": 2,
    "marksmanship": 3,
    "mobility": 2,
    "athletics": 1,
    "class_stamina": 4,
    "armour": 1,
    "weapon": "Shortsword",
    "ranged": "Short Bow",
}
BJORN_SHEET = {
    "body": 4,
    "agility": 2,
    "awareness": 2,
    "soul": 2,
    "melee": 3,
    "mobility": 1,
    "class_stamina": 5,
    "armour": 2,
    "weapon": "Battleaxe",
    "shield": True,
}


def new():
    return SYSTEM.new_encounter(1, 7)


def outcome(state, action):
    return apply(state, action)


def act(state, action):
    return apply(state, action).state


def hero(state, name, roll, **sheet):
    by = USERS.get(name, ASTRID)
    base = ASTRID_SHEET if name == "Astrid" else BJORN_SHEET if name == "Bjorn" else {}
    return act(
        state,
        AddCombatants(by=by, name=name, npc=False, controller_id=by.user_id, sheet={**base, **sheet}, dice=(roll,)),
    )


def enemy(state, name, initiative, **sheet):
    return act(state, AddCombatants(by=GM, name=name, sheet={"initiative": initiative, **sheet}))


def begin(state, *gm_dice):
    return act(state, NextTurn(by=GM, dice=tuple(gm_dice)))


def end_turn(state):
    return act(state, EndTurn(by=GM, turn_no=state.turn_no))


def choose(state, option, *dice, by=GM):
    return act(state, Choose(by=by, pending_id=state.pending.id, option=option, dice=tuple(dice)))


def names(state, cids):
    return [state.get(c).name for c in cids]


def current(state):
    return names(state, state.turns.acting)


def get(state, name):
    return state.find(name)


def party(**extra):
    """Astrid (5) and Bjorn (3) against a Wolf (4) and a Bandit (2); players go first."""
    s = new()
    s = hero(s, "Astrid", 5, **extra.get("astrid", {}))
    s = hero(s, "Bjorn", 3, **extra.get("bjorn", {}))
    s = enemy(s, "Wolf", 4, damage=3, defense=1, stamina=6)
    s = enemy(s, "Bandit", 2, damage=4, defense=0, stamina=4)
    return begin(s, 2, 1, 1)
