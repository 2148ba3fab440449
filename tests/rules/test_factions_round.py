"""The round: factions alternate, pass, are passed for, and the round ends."""

from __future__ import annotations

import pytest

from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed, NotYourTurn
from rules.turns.factions import FirstMove
from tests.rules.test_factions_helpers import (
    BALTHASAR_ID,
    GM,
    SYBILLA_ID,
    THEOBALD_ID,
    add,
    end,
    new,
    pass_move,
    player,
    seed_cast,
    start,
    take,
    texts,
)


def moving(enc):
    return enc.turns.moving


def test_the_bandit_round_plays_out_as_the_seed_lists_it():
    out = start(seed_cast())
    enc = out.state
    assert enc.round == 1 and moving(enc) == "gm"
    turn = [e for e in out.events if e.kind == "turn"][-1]
    assert turn.ping == (GM.user_id,)
    assert "Bandit Leader, Bandit 1, Bandit 2, Bandit 3" in turn.text

    # The GM decides to take turn with the bandit leader first.
    enc = take(enc, "Bandit Leader").state
    assert enc.turns.active == enc.find("Bandit Leader").id
    out = end(enc)
    enc = out.state
    assert moving(enc) == "players"
    assert out.events[-1].ping == (BALTHASAR_ID, SYBILLA_ID, THEOBALD_ID)
    # The Players decide to take turn with Sybilla.
    enc = end(take(enc, "Sybilla", by=player(SYBILLA_ID)).state, by=player(SYBILLA_ID)).state
    # The GM takes turn with a bandit.
    enc = end(take(enc, "Bandit 1").state).state
    assert moving(enc) == "players"
    # The Players decide to pass, rather than activating.
    out = pass_move(enc, by=player(BALTHASAR_ID))
    enc = out.state
    assert "players pass." in texts(out) and moving(enc) == "gm" and enc.turns.passes == 1
    # The GM takes turn with another bandit: since he didn't pass, play goes back to the players.
    enc = take(enc, "Bandit 2").state
    assert enc.turns.passes == 0
    enc = end(enc).state
    assert moving(enc) == "players"
    # The Players take turn with Balthasar.
    enc = end(take(enc, "Balthasar", by=player(BALTHASAR_ID)).state, by=player(BALTHASAR_ID)).state
    # The GM takes turn with the last bandit.
    enc = end(take(enc, "Bandit 3").state).state
    assert enc.round == 1 and moving(enc) == "players"
    # The players take turn with Theobald; then the GM must pass, the players must pass: the round ends.
    enc = take(enc, "Theobald", by=player(THEOBALD_ID)).state
    out = end(enc, by=player(THEOBALD_ID))
    lines = texts(out)
    assert lines.index("gm must pass: nobody left to act.") < lines.index("players must pass: nobody left to act.")
    assert "Every faction passed in a row: the round ends." in lines
    assert "Round 2" in lines
    enc = out.state
    assert enc.round == 2 and enc.turns.acted == () and moving(enc) == "gm"


def test_each_character_acts_once_a_round_and_only_on_its_factions_move():
    enc = start(seed_cast()).state
    with pytest.raises(NotYourTurn):
        take(enc, "Sybilla", by=player(SYBILLA_ID))
    enc = end(take(enc, "Bandit 1").state).state
    with pytest.raises(NotAllowed):
        take(enc, "Sybilla", by=player(THEOBALD_ID))
    with pytest.raises(NotYourTurn):
        pass_move(enc.but(turns=enc.turns.but(moving="gm")), by=player(SYBILLA_ID))
    enc = end(take(enc, "Sybilla", by=player(SYBILLA_ID)).state, by=player(SYBILLA_ID)).state
    with pytest.raises(InvalidInput):
        take(enc, "Bandit 1")


def test_the_initiative_holder_may_let_another_faction_move_first():
    enc = start(seed_cast()).state
    with pytest.raises(NotAllowed):
        apply(enc, FirstMove(by=player(SYBILLA_ID), faction="players"))
    out = apply(enc, FirstMove(by=GM, faction="players"))
    assert moving(out.state) == "players"
    assert out.events[-1].ping == (BALTHASAR_ID, SYBILLA_ID, THEOBALD_ID)


def test_incapacitated_and_surrendered_characters_are_passed_over():
    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Bandit 1").id, incapacitated=True).update(enc.find("Bandit 2").id, surrendered=True)
    out = end(take(enc, "Bandit Leader").state)
    assert "Bandit 1" not in out.events[-1].text
    enc = end(take(out.state, "Sybilla", by=player(SYBILLA_ID)).state, by=player(SYBILLA_ID)).state
    assert enc.turns.moving == "gm"
    with pytest.raises(InvalidInput):
        take(enc, "Bandit 1")


def test_more_factions_than_two_alternate_in_turn():
    enc = seed_cast()
    enc = add(enc, "Wolf", "weapons='bite:d6'", side="wolves")
    enc = start(enc).state
    order = []
    for name in ("Bandit 1", "Sybilla", "Wolf"):
        order.append(moving(enc))
        who = player(SYBILLA_ID) if name == "Sybilla" else GM
        enc = end(take(enc, name, by=who).state, by=who).state
    assert order == ["gm", "players", "wolves"]
    assert moving(enc) == "gm"


def test_a_fight_needs_two_factions():
    enc = add(new(), "Balthasar", "", user=BALTHASAR_ID)
    with pytest.raises(InvalidInput):
        start(enc)


def alternate(enc, *names):
    """Each named character takes a turn and ends it, by whoever controls them."""
    players = {"Balthasar": BALTHASAR_ID, "Sybilla": SYBILLA_ID, "Theobald": THEOBALD_ID}
    for name in names:
        who = player(players[name]) if name in players else GM
        enc = end(take(enc, name, by=who).state, by=who).state
    return enc


def test_a_faction_that_has_run_out_is_said_to_pass_once_not_on_every_extra_move():
    # "The GM must pass because all bandits have taken their turn": said when it happens, not again at
    # each of the larger side's remaining moves, though each of those moves still counts as a pass.
    enc = start(add(seed_cast(), "Cutthroat", "weapons='axe:d6'", count=3)).state
    enc = alternate(enc, "Bandit Leader", "Sybilla", "Bandit 1", "Balthasar", "Bandit 2", "Theobald")
    said = []
    for name in ("Bandit 3", "Cutthroat 1", "Cutthroat 2"):
        out = end(take(enc, name).state)
        said += texts(out)
        enc = out.state
        assert moving(enc) == "gm" and enc.turns.passes == 1
    assert said.count("players must pass: nobody left to act.") == 1
    out = end(take(enc, "Cutthroat 3").state)
    assert texts(out)[:2] == ["gm must pass: nobody left to act.", "Every faction passed in a row: the round ends."]
    assert out.state.round == 2
    # A new round: when the players run out again, it is said again.
    enc = out.state
    enc = alternate(enc, "Bandit Leader", "Sybilla", "Bandit 1", "Balthasar", "Bandit 2", "Theobald")
    assert "players must pass: nobody left to act." in texts(end(take(enc, "Bandit 3").state))
