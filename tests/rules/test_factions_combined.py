"""Rules of the factions seed where they combine: more than two factions, reactions out of turn, morale."""

from __future__ import annotations

from rules.engine import apply
from rules.systems.factions.actions import ApplyDamage, Move, OpportunityAttack
from tests.rules.test_factions_helpers import (
    BALTHASAR,
    GM,
    GM_ID,
    SYBILLA,
    THEOBALD,
    add,
    attack,
    choose,
    end,
    give_turn,
    mark_acted,
    options,
    pass_move,
    seed_cast,
    start,
    take,
    texts,
)


def with_wolves(**options):
    return add(seed_cast(**options), "Wolf", "weapons='bite:d6'", side="wolves")


def test_three_factions_end_the_round_only_once_all_three_pass_in_a_row():
    # "When all factions pass consecutively, the round ends."
    enc = start(with_wolves()).state
    enc = pass_move(enc).state
    enc = pass_move(enc, by=SYBILLA).state
    enc = end(take(enc, "Wolf").state).state  # the wolves did not pass: the count starts again
    enc = pass_move(enc).state
    out = pass_move(enc, by=SYBILLA)
    # "The GM must pass because all bandits have taken their turn": the wolf has, and its pass counts.
    assert texts(out)[:3] == [
        "players pass.",
        "wolves must pass: nobody left to act.",
        "Every faction passed in a row: the round ends.",
    ]
    assert out.state.round == 2


def test_hiding_behind_an_ally_who_has_taken_their_turn_leaves_them_no_reaction():
    # "They can perform their own reaction if they haven't taken their turn yet."
    enc = mark_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Theobald")
    out = attack(enc, GM, "Sybilla", "axe", dice=(4,))
    out = choose(out.state, "Hide behind: Theobald", by=SYBILLA)
    assert options(out.state.pending) == ("No reaction", "Guard: Balthasar")
    assert out.state.pending.users == (BALTHASAR.user_id,)
    out = choose(out.state, "No reaction", by=BALTHASAR)
    assert out.state.find("Theobald").grit == 1 and out.state.find("Sybilla").health == 10


def test_the_mover_under_an_opportunity_attack_cannot_react_but_an_ally_may_guard():
    # A mover is taking their turn: no reaction of their own; "A character who is nearby the target of an
    # attack can react by guarding them."
    enc = start(seed_cast()).state
    enc = end(take(enc, "Bandit Leader").state).state
    enc = take(enc, "Balthasar", by=BALTHASAR).state
    enc = apply(enc, Move(by=BALTHASAR, zones=1)).state
    out = apply(enc, OpportunityAttack(by=GM, actor="Bandit 1", targets=("Balthasar",), weapon="axe", dice=(6,)))
    assert options(out.state.pending) == ("No reaction", "Guard: Sybilla", "Guard: Theobald")
    out = choose(out.state, "Guard: Theobald", by=THEOBALD)
    assert "Theobald guards Balthasar and becomes the target." in texts(out)
    assert out.state.find("Theobald").id in out.state.turns.acted
    assert out.state.find("Balthasar").health == 12 and out.state.turns.active == out.state.find("Balthasar").id


def test_a_lone_wolf_among_three_factions_checks_morale_at_half_health():
    # "Characters fighting alone must make a morale check if they were reduced to half or less their maximum
    # health in the past round." (Its critical damage is resisted, a campaign option, so it still fights.)
    enc = start(with_wolves(critical_str_save=True)).state
    enc = apply(enc, ApplyDamage(by=GM, target="Wolf", amount="4", dice=(3,))).state
    enc = pass_move(pass_move(enc).state, by=SYBILLA).state
    out = pass_move(enc)
    assert out.state.pending.kind == "morale_roll" and out.state.pending.users == (GM_ID,)
    out = choose(out.state, "Roll", dice=(14,))
    assert "Wolf WIT save (morale): d20 14 vs WIT 10 → fail: breaks." in texts(out)
