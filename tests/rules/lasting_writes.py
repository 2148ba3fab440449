"""Every lasting state a system writes, whatever writes it, for the tests that check what those states hold
(tests/rules/test_lasting_keys.py) and that a campaign file carries them (tests/bot/test_transfer.py).

The states are those the real functions write: fights (GM commands, then the fighters' every number and
yes/no changed one at a time, so that a key written only sometimes is written), rests of every kind with
their options (one after the other, as a campaign takes them), checks of every kind, `/campaign adjust`
of every value, and the fitting to the sheet every stored state goes through."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import product
from typing import Any

from rules.actions import AddCombatants, Choose, NextTurn
from rules.engine import apply
from rules.errors import RulesError
from rules.model import Actor, Encounter
from rules.randomness import Chance
from rules.system import CheckRequest, Resting, System
from tests.helpers import GM

PLAYER = Actor(user_id=9)
FIGHTERS = ("Ann", "Orc")  # a hero, and an NPC the GM keeps
# GM commands each system reads its own way: one a system refuses is left out of its fight.
COMMANDS: tuple[tuple[str, dict[str, Any]], ...] = (
    *(("damage", {"amount": str(n)}) for n in (3, 8)),
    ("damage", {"amount": "5", "options": "lethal=3"}),
    ("heal", {"amount": "4", "options": "temp"}),
    ("heal", {"amount": "4", "options": "temp lethal"}),
    *(
        ("condition_add", {"condition": name})
        for name in ("confused", "cursed", "weakened", "dazed", "fear", "exhaustion", "unconscious")
    ),
    *(("damage", {"amount": str(n)}) for n in (20, 100)),
)
NUMBERS = (0, 1, 3)
SEEDS = range(12)  # the dice of each rest and check: enough for a Wound Recovery's natural 1
RESTS_IN_A_ROW = 3
# Options a check may take, across the systems; one a check refuses is left out of it.
CHECK_OPTIONS: tuple[dict[str, Any], ...] = ({}, {"dex": True}, {"veto": True}, {"skill": "medicine"})
DCS = (None, 1, 4, 15)


# --- fights ---------------------------------------------------------------------------------------------
def fight(system: System) -> Encounter:
    enc = system.new_encounter(1, 5)
    hero = AddCombatants(by=PLAYER, name="Ann", npc=False, controller_id=PLAYER.user_id, character_id=1)
    for join in (hero, hero.but(by=GM, name="Orc", npc=True, controller_id=None, character_id=2)):
        try:
            enc = apply(enc, join).state
        except RulesError:  # initiative rolled from entered dice or cards
            enc = apply(enc, join.but(dice=(3,))).state
    return settled(apply(enc, NextTurn(by=GM)).state)


def settled(enc: Encounter) -> Encounter:
    """The fight with every question answered as its default answers it."""
    while enc.pending is not None:
        enc = apply(enc, Choose(by=GM, pending_id=enc.pending.id, option=enc.pending.default, timed_out=True)).state
    return enc


def fought(system: System) -> Iterator[dict[str, Any]]:
    """What the fighters carry out of a fight after each of the GM's commands, and with each of their numbers
    and yes/no fields changed."""
    enc = fight(system)
    for name, options in COMMANDS:
        for target in FIGHTERS:
            try:
                enc = settled(apply(enc, system.command(name, GM, options | {"target": target}, enc)).state)
            except RulesError:
                continue
            yield from (system.lasting(enc, enc.find(who)) for who in FIGHTERS)
    for who in FIGHTERS:
        c = enc.find(who)
        for field in type(c).model_fields:
            for value in _others(getattr(c, field)):
                yield system.lasting(enc, c.but(**{field: value}))


def _others(value: Any) -> tuple[Any, ...]:
    if isinstance(value, bool):
        return (not value,)
    if isinstance(value, int):
        return tuple(n for n in NUMBERS if n != value)
    return ()


# --- between fights -------------------------------------------------------------------------------------
def resting(system: System, state: dict[str, Any], name: str = "Ann", character_id: int = 1) -> Resting:
    sheet = system.parse_sheet({})
    return Resting(name=name, owner_id=PLAYER.user_id, sheet=sheet, lasting=state, character_id=character_id)


def rested(system: System, states: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every rest, with none, each and all of its options, taken a few times in a row."""
    for kind, rest in system.rests().items():
        keys = [option.key for option in rest.options]
        for chosen in ([], *([key] for key in keys), keys):
            options = {key: True for key in chosen}
            for state, seed in product(states, SEEDS):
                yield from _rests(system, kind, resting(system, state), options, seed)


def _rests(system: System, kind: str, who: Resting, options: dict[str, Any], seed: int) -> Iterator[dict[str, Any]]:
    for _ in range(RESTS_IN_A_ROW):
        try:
            who = system.rest(kind, (who,), {}, options, Chance(seed)).characters[0]
        except RulesError:  # an option that does not apply to this character (no Plot Point to spend)
            return
        yield who.lasting


def checked(system: System, states: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every check, with what it offers next taken, by each character against another or a DC."""
    other = resting(system, {}, "Bo", 2)
    for kind, state, options, dc in product(system.check_kinds(), states, CHECK_OPTIONS, DCS):
        for against in (None, other) if kind.opposed else (None,):
            request = CheckRequest(kind=kind.key, who=resting(system, state), dc=dc, against=against, options=options)
            yield from _outcomes(system, request)


def _outcomes(system: System, request: CheckRequest) -> Iterator[dict[str, Any]]:
    for seed in SEEDS:
        chance = Chance(seed)
        try:
            outcome = system.roll_check(request, chance)
            again = [system.roll_check_again(request, outcome.memo, offer.key, chance) for offer in outcome.offers]
        except RulesError:  # a check this character may not roll, or an option or DC it does not take
            return
        for done in (outcome, *again):
            yield from (state for state in (done.lasting, done.against_lasting) if state is not None)


def adjusted(system: System, states: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Each value the GM may set, set on each state (`/campaign adjust`, `/character edit`)."""
    sheet = system.parse_sheet({})
    for state in states:
        for key, spec in system.adjustable().items():
            for typed in _as_typed(spec):
                try:
                    yield system.adjust(sheet, state, key, typed)
                except RulesError:
                    continue


def _as_typed(spec) -> tuple[str, ...]:
    if spec.kind == "bool":
        return ("yes", "no")
    if spec.kind == "list":
        return ("",)
    if spec.kind == "text":
        return ("bandits", "GM")
    return tuple(str(n) for n in {spec.minimum or 0, 0, 1, spec.maximum or 0})


def distinct(states) -> list[dict[str, Any]]:
    return list({json.dumps(state, sort_keys=True): state for state in states}.values())


def written(system: System) -> list[dict[str, Any]]:
    """Every lasting state the system's fights, rests, checks and adjustments write, as each writes it and
    as it is stored (fitted to the sheet)."""
    sheet = system.parse_sheet({})
    fights = distinct(fought(system))
    states = distinct([*fights, *rested(system, fights), *checked(system, fights)])
    states = distinct([*states, *adjusted(system, states)])
    return distinct([*states, *(system.fit_lasting(sheet, state) for state in states)])
