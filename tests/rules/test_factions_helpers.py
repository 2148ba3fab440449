"""The seed's cast and small drivers shared by the factions tests."""

from __future__ import annotations

from rules.actions import AddCombatants, Choose, NextTurn
from rules.engine import apply
from rules.model import Actor
from rules.said import english
from rules.systems.factions import SYSTEM
from rules.systems.factions.actions import Attack
from rules.turns.factions import HoldInitiative, PassMove, TakeTurn

GM_ID, BALTHASAR_ID, SYBILLA_ID, THEOBALD_ID = 1, 11, 12, 13
GM = Actor(user_id=GM_ID, is_gm=True)


def player(user_id: int) -> Actor:
    return Actor(user_id=user_id)


BALTHASAR, SYBILLA, THEOBALD = player(BALTHASAR_ID), player(SYBILLA_ID), player(THEOBALD_ID)


def attack(enc, by, target, weapon=None, dice=(), **extra):
    """`by` attacks `target` (a name, or several for an area attack)."""
    targets = tuple(target) if isinstance(target, (list, tuple)) else (target,)
    return apply(enc, Attack(by=by, targets=targets, weapon=weapon, dice=dice, **extra))


def new(**options):
    return SYSTEM.new_encounter(GM_ID, rng_state=12345, options=options)


def add(enc, name, stats="", *, user=None, side=None, count=1):
    by = player(user) if user else GM
    action = AddCombatants(
        by=by, name=name, sheet=SYSTEM.parse_sheet(stats), count=count, side=side, npc=user is None, controller_id=user
    )
    return apply(enc, action).state


def seed_cast(enc=None, **options):
    """Balthasar, Sybilla and Theobald against three bandits and their leader."""
    enc = enc or new(**options)
    enc = add(enc, "Balthasar", "weapons='sword:d6' health=12 grit=3", user=BALTHASAR_ID)
    enc = add(enc, "Sybilla", "weapons='dagger:d4, musket:d8:6' health=10 grit=2", user=SYBILLA_ID)
    enc = add(enc, "Theobald", "weapons='spear:d6, sword:d6, dagger:d4' health=12 grit=3 armour=2", user=THEOBALD_ID)
    enc = add(enc, "Bandit Leader", "weapons='battleaxe:d8' health=10")
    enc = add(enc, "Bandit", "weapons='axe:d6, bow:d6:8' agi=8", count=3)
    return enc


def start(enc, holder="gm"):
    enc = apply(enc, HoldInitiative(by=GM, faction=holder)).state
    return apply(enc, NextTurn(by=GM))


def take(enc, name, by=GM, dice=()):
    return apply(enc, TakeTurn(by=by, actor=name, dice=dice))


def end(enc, by=GM):
    return apply(enc, NextTurn(by=by))


def pass_move(enc, by=GM):
    return apply(enc, PassMove(by=by))


def choose(enc, option, by=GM, dice=()):
    return apply(enc, Choose(by=by, pending_id=enc.pending.id, option=option, dice=dice))


def texts(outcome) -> list[str]:
    return [e.text for e in outcome.events]


def options(pending) -> tuple[str, ...]:
    """The choice's options as the buttons read them in English."""
    return tuple(english(o) for o in pending.labels)


def mark_acted(enc, *names):
    """Put characters among those who already took their turn this round."""
    acted = enc.turns.acted + tuple(enc.find(n).id for n in names)
    return enc.but(turns=enc.turns.but(acted=acted))


def give_turn(enc, name):
    """Make it `name`'s turn directly, for tests about one action."""
    fighter = enc.find(name)
    turns = enc.turns.but(moving=fighter.side, active=fighter.id, acted=enc.turns.acted + (fighter.id,))
    return enc.but(turns=turns).update(fighter.id, moved=0, mains=0, bonuses=0, sprinting=False)
