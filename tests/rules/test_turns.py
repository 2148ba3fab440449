"""The five turn structures, driven through the engine with a toy system."""

import hashlib
import json

import pytest

from rules import registry
from rules.actions import AddCombatants, Choose, DelayTurn, EndTurn, NextTurn, RemoveCombatant
from rules.engine import apply
from rules.errors import AwaitingChoice, InvalidInput, NotAllowed, NotRunning, NotYourTurn, Stale, UnknownAction
from rules.model import Actor, Choice, Event
from rules.said import english, seq
from rules.turns.clock import Clock, Hold, Release
from rules.turns.factions import FirstMove, HoldInitiative, PassMove, TakeTurn
from rules.turns.seconds import Spend
from tests import toy
from tests.helpers import GM

ALICE = Actor(user_id=2)
BOB = Actor(user_id=3)


def run(state, *actions):
    for action in actions:
        state = apply(state, action).state
    return state


def names(state, cids):
    return [state.get(c).name for c in cids]


def acting(state):
    return names(state, registry.get(state.system).turns.acting(state))


# --- sorted initiative ---------------------------------------------------------
def test_initiative_sorts_highest_first_and_repeats_each_round():
    s = toy.INITIATIVE.new_encounter(1, 7)
    s = run(
        s,
        AddCombatants(by=ALICE, name="Alice", npc=False, controller_id=2, dice=(12,)),
        AddCombatants(by=GM, name="Orc", count=2, dice=(18, 3)),
        NextTurn(by=GM),
    )
    order = []
    for _ in range(6):
        order.append((s.round, acting(s)[0]))
        s = run(s, NextTurn(by=GM))
    assert order == [(1, "Orc 1"), (1, "Alice"), (1, "Orc 2"), (2, "Orc 1"), (2, "Alice"), (2, "Orc 2")]


def test_joining_mid_combat_is_inserted_by_roll_without_moving_the_current_turn():
    s = toy.INITIATIVE.new_encounter(1, 7)
    s = run(s, AddCombatants(by=GM, name="A", dice=(15,)), AddCombatants(by=GM, name="B", dice=(5,)), NextTurn(by=GM))
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["B"]
    s = run(s, AddCombatants(by=GM, name="C", dice=(10,)))
    assert acting(s) == ["B"]
    s = run(s, NextTurn(by=GM))
    assert (s.round, acting(s)) == (2, ["A"])
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["C"]


def test_only_the_acting_player_or_gm_ends_a_turn_and_stale_buttons_do_nothing():
    s = toy.INITIATIVE.new_encounter(1, 7)
    s = run(
        s,
        AddCombatants(by=ALICE, name="Alice", npc=False, controller_id=2, dice=(12,)),
        AddCombatants(by=BOB, name="Bob", npc=False, controller_id=3, dice=(8,)),
        NextTurn(by=GM),
    )
    with pytest.raises(NotAllowed):
        apply(s, NextTurn(by=BOB))
    turn = s.turn_no
    s2 = apply(s, EndTurn(by=ALICE, turn_no=turn)).state
    assert acting(s2) == ["Bob"]
    with pytest.raises(InvalidInput, match="already over"):
        apply(s2, EndTurn(by=ALICE, turn_no=turn))


def test_players_act_only_for_their_own_character_and_on_its_turn():
    s = toy.INITIATIVE.new_encounter(1, 7)
    s = run(
        s,
        AddCombatants(by=ALICE, name="Alice", npc=False, controller_id=2, dice=(12,)),
        AddCombatants(by=BOB, name="Bob", npc=False, controller_id=3, dice=(8,)),
        NextTurn(by=GM),
    )
    with pytest.raises(NotAllowed):
        apply(s, toy.Hit(by=BOB, actor="Alice", target="Bob", dice=(3,)))
    with pytest.raises(NotYourTurn):
        apply(s, toy.Hit(by=BOB, actor="Bob", target="Alice", dice=(3,)))
    out = apply(s, toy.Hit(by=ALICE, target="Bob", dice=(3,)))
    assert out.state.find("Bob").hp == 7


def test_players_cannot_add_npcs_or_join_for_someone_else():
    s = toy.INITIATIVE.new_encounter(1, 7)
    with pytest.raises(NotAllowed):
        apply(s, AddCombatants(by=ALICE, name="Orc", dice=(3,)))
    with pytest.raises(NotAllowed):
        apply(s, AddCombatants(by=ALICE, name="Bob", npc=False, controller_id=3, dice=(3,)))


def test_checks_run_in_order_unknown_then_running_then_turn():
    s = toy.INITIATIVE.new_encounter(1, 7)
    with pytest.raises(UnknownAction):
        apply(s, Spend(by=GM, seconds=2))
    with pytest.raises(NotRunning):
        apply(s, toy.Hit(by=GM, target="x"))


def test_delay_steps_out_and_back_in_front_of_the_current_actor():
    s = toy.INITIATIVE.new_encounter(1, 7)
    s = run(
        s,
        AddCombatants(by=GM, name="A", dice=(15,)),
        AddCombatants(by=GM, name="B", dice=(10,)),
        AddCombatants(by=GM, name="C", dice=(5,)),
        NextTurn(by=GM),
    )
    s = run(s, DelayTurn(by=GM, actor="A"))
    assert acting(s) == ["B"]
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["C"]
    out = apply(s, DelayTurn(by=GM, actor="A"))
    assert acting(out.state) == ["A"]
    assert any("interrupting C" in e.text for e in out.events)
    s = run(out.state, NextTurn(by=GM))
    assert acting(s) == ["C"]


def test_dead_combatants_are_skipped_and_removal_passes_the_turn():
    s = toy.INITIATIVE.new_encounter(1, 7)
    s = run(
        s,
        AddCombatants(by=GM, name="A", dice=(15,)),
        AddCombatants(by=GM, name="B", dice=(10,)),
        AddCombatants(by=GM, name="C", dice=(5,)),
        NextTurn(by=GM),
    )
    s = run(s, toy.Hit(by=GM, target="B", damage="20"))
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["C"]
    s = run(s, RemoveCombatant(by=GM, target="C"))
    assert acting(s) == ["A"] and s.round == 2


# --- seconds -------------------------------------------------------------------------
def test_seconds_carry_over_and_the_turn_ends_by_itself():
    s = toy.SECONDS.new_encounter(1, 7)
    s = run(s, AddCombatants(by=GM, name="A", dice=(15,)), AddCombatants(by=GM, name="B", dice=(10,)), NextTurn(by=GM))
    assert s.turns.left["c1"] == 6
    s = run(s, Spend(by=GM, seconds=4, what="attacks"))
    assert s.turns.left["c1"] == 2 and acting(s) == ["A"]
    s = run(s, Spend(by=GM, seconds=3, what="runs"))
    assert acting(s) == ["B"] and s.turns.owed == {"c1": 1}
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["A"] and s.turns.left["c1"] == 5 and s.turns.owed == {}


# --- phase clock (seed 003: Tony, N 2, King and Four) ---------------------------------
class ClockSystem(toy.ToyBase):
    """Calculated Initiative as seed 003 defines it, to test the clock on its own."""

    key = "toy-seed-clock"
    name = "Toy clock"
    turns = Clock()
    encounter_type = toy.encounter_for(turns)

    def roll_initiative(self, enc, combatant, chance):
        n = combatant.sheet.init
        cards = chance.flip(n)
        ci = max(c.value for c in cards) + n
        phase = max(0, 20 - ci) + (10 if combatant.name.endswith("(surprised)") else 0)
        return (phase, ci, n), f"CI {ci} → phase {phase}"


CLOCK_SEED = registry.register(ClockSystem())


def test_tony_acts_in_phase_5_or_15_when_surprised_and_shift_position_moves_him_to_18():
    s = CLOCK_SEED.new_encounter(1, 3)
    s = run(
        s,
        AddCombatants(by=GM, name="Tony", sheet={"init": 2}, cards=("KH", "4C")),
        AddCombatants(by=GM, name="Tony (surprised)", sheet={"init": 2}, cards=("KS", "4D")),
    )
    assert [e.phase for e in s.turns.entries] == [5, 15]
    s = run(s, NextTurn(by=GM))
    assert acting(s) == ["Tony"] and s.turns.phase == 5
    s = run(s, RemoveCombatant(by=GM, target="Tony"))
    assert acting(s) == ["Tony (surprised)"] and s.turns.phase == 15 and s.round == 2
    tony = s.find("Tony (surprised)")
    out = Clock().advance(
        CLOCK_SEED, s, tony.id, 3, __import__("rules.randomness", fromlist=["Chance"]).Chance(1), what="Shift Position"
    )
    assert out[0].turns.phase == 18 and Clock().entry(out[0], tony.id).phase == 18


def test_clock_ties_zero_cost_and_hold_release():
    s = CLOCK_SEED.new_encounter(1, 3)
    s = run(
        s,
        AddCombatants(by=GM, name="A", sheet={"init": 3}, cards=("KH", "2C", "3C")),  # CI 16 → 4
        AddCombatants(by=GM, name="B", sheet={"init": 2}, cards=("AH", "2D")),  # CI 16 → 4, lower N
        NextTurn(by=GM),
    )
    assert acting(s) == ["A"]
    s = run(s, Hold(by=GM, actor="A"))
    assert acting(s) == ["B"]
    with pytest.raises(InvalidInput, match="later phase"):
        apply(s, Release(by=GM, actor="A", target="B"))
    s = run(s, NextTurn(by=GM))  # B waits a phase → 5
    assert acting(s) == ["B"] and s.turns.phase == 5
    s = run(s, Release(by=GM, actor="A", target="B", before=True))
    assert acting(s) == ["A"]


# --- factions (seed 002: the bandit round) ----------------------------------------------
def bandits():
    s = toy.FACTIONS.new_encounter(1, 11)
    for name, user in (("Balthasar", 2), ("Sybilla", 3), ("Theobald", 4)):
        s = run(s, AddCombatants(by=Actor(user_id=user), name=name, npc=False, controller_id=user, side="players"))
    s = run(
        s,
        AddCombatants(by=GM, name="Bandit leader", side="gm"),
        AddCombatants(by=GM, name="Bandit", count=3, side="gm"),
        HoldInitiative(by=GM, faction="gm"),
        NextTurn(by=GM),
    )
    return s


def test_the_bandit_round_plays_as_the_seed_lists_it():
    s = bandits()
    players = Actor(user_id=3)
    assert s.turns.moving == "gm" and s.round == 1
    steps = [
        TakeTurn(by=GM, actor="Bandit leader"),
        EndTurn,
        TakeTurn(by=players, actor="Sybilla"),
        EndTurn,
        TakeTurn(by=GM, actor="Bandit 1"),
        EndTurn,
        PassMove(by=players),
        TakeTurn(by=GM, actor="Bandit 2"),
        EndTurn,
        TakeTurn(by=Actor(user_id=2), actor="Balthasar"),
        EndTurn,
        TakeTurn(by=GM, actor="Bandit 3"),
        EndTurn,
        TakeTurn(by=Actor(user_id=4), actor="Theobald"),
    ]
    for step in steps:
        s = run(s, EndTurn(by=GM, turn_no=s.turn_no) if step is EndTurn else step)
        assert s.round == 1
    out = apply(s, EndTurn(by=GM, turn_no=s.turn_no))
    texts = [e.text for e in out.events]
    assert "gm must pass: nobody left to act." in texts
    assert "players must pass: nobody left to act." in texts
    assert out.state.round == 2 and out.state.turns.moving == "gm" and out.state.turns.acted == ()


def test_a_pass_then_a_take_does_not_end_the_round_and_wrong_faction_is_refused():
    s = bandits()
    with pytest.raises(NotYourTurn):
        apply(s, TakeTurn(by=Actor(user_id=2), actor="Balthasar"))
    with pytest.raises(NotYourTurn):
        apply(s, PassMove(by=Actor(user_id=2)))
    s = run(s, PassMove(by=GM))
    assert s.turns.moving == "players" and s.turns.passes == 1
    s = run(s, TakeTurn(by=Actor(user_id=2), actor="Balthasar"), EndTurn(by=GM, turn_no=s.turn_no + 1))
    assert s.turns.passes == 0 and s.round == 1


def test_holder_may_hand_the_first_move_over():
    s = bandits()
    with pytest.raises(NotAllowed):
        apply(s, FirstMove(by=Actor(user_id=2), faction="players"))
    s = run(s, FirstMove(by=GM, faction="players"))
    assert s.turns.moving == "players"


# --- tracks (seed 004) ---------------------------------------------------------------------
class TrackSystem(toy.ToyBase):
    key = "toy-seed-tracks"
    name = "Toy tracks"
    turns = toy.Tracks()
    encounter_type = toy.encounter_for(turns)

    def roll_initiative(self, enc, combatant, chance):
        if combatant.npc:
            return (combatant.sheet.init,), f"score {combatant.sheet.init}"
        value = chance.die(6)
        return (value,), f"d6 {value}"

    def order_ties(self, enc, tied, chance):
        # Whoever stood there first keeps the front.
        settled = [e.but(tiebreak=len(tied) - i) for i, e in enumerate(tied)]
        names = ", ".join(enc.get(e.cid).name for e in tied)
        return settled, [[e.cid] for e in settled], [Event(kind="info", text=f"tie settled: {names}")]


TRACK_SEED = registry.register(TrackSystem())


def track_fight(gm_dice):
    s = TRACK_SEED.new_encounter(1, 5)
    s = run(
        s,
        AddCombatants(by=ALICE, name="Alice", npc=False, controller_id=2, dice=(5,)),
        AddCombatants(by=BOB, name="Bob", npc=False, controller_id=3, dice=(3,)),
        AddCombatants(by=GM, name="Wolf", sheet={"init": 4}),
        AddCombatants(by=GM, name="Bear", sheet={"init": 2}),
        AddCombatants(by=GM, name="Raven", sheet={"init": 6}),
        NextTurn(by=GM, dice=gm_dice),
    )
    return s


def test_gm_goes_first_only_when_its_roll_beats_every_player():
    s = track_fight((6, 1, 1))
    assert s.turns.gm_first and names(s, s.turns.track) == ["Raven", "Alice", "Wolf", "Bob", "Bear"]
    s = track_fight((5, 2, 1))  # a tie with Alice's 5 does not beat her
    assert not s.turns.gm_first and names(s, s.turns.track) == ["Alice", "Raven", "Bob", "Wolf", "Bear"]


def test_a_player_joining_a_running_track_on_a_taken_roll_is_placed_by_the_tie_rule():
    s = track_fight((1, 1, 1))
    out = apply(s, AddCombatants(by=Actor(user_id=4), name="Cara", npc=False, controller_id=4, dice=(5,)))
    assert out.state.pending is None and "tie settled: Alice, Cara" in [e.text for e in out.events]
    tiebreaks = {out.state.get(e.cid).name: e.tiebreak for e in out.state.turns.entries}
    assert tiebreaks["Alice"] > tiebreaks["Cara"]
    assert names(out.state, out.state.turns.track)[:3] == ["Alice", "Raven", "Cara"]


# --- pending choices --------------------------------------------------------------------------
class AskSystem(toy.ToyBase):
    key = "toy-ask"
    name = "Toy ask"
    turns = toy.Initiative()
    encounter_type = toy.encounter_for(turns)

    def hit(self, enc, action, chance):
        target = enc.find(action.target)
        users = (target.controller_id,) if target.controller_id else ()
        enc = enc.ask(
            kind="dodge",
            prompt=f"{target.name}: dodge?",
            options=(Choice(key="dodge", label="Dodge"), Choice(key="take", label="Take it")),
            default="take",
            chooser=target.id,
            users=users,
            context={"target": target.id},
        )
        return enc, [Event(kind="info", text="dodge?", ping=users)]

    def resume_dodge(self, enc, pending, option, chance):
        if option == "dodge":
            return enc, [Event(kind="info", text="dodged")]
        return enc.update(pending.context["target"], hp=0, out=True), [Event(kind="info", text="hit")]


ASK = registry.register(AskSystem())


def orc_hits_alice():
    """The Orc's turn, and its hit asks Alice how she takes it."""
    s = ASK.new_encounter(1, 5)
    return run(
        s,
        AddCombatants(by=GM, name="Orc", dice=(15,)),
        AddCombatants(by=ALICE, name="Alice", npc=False, controller_id=2, dice=(5,)),
        NextTurn(by=GM),
        toy.Hit(by=GM, target="Alice"),
    )


def test_pending_choice_blocks_other_actions_and_only_the_chooser_or_gm_answers():
    s = orc_hits_alice()
    assert s.pending and s.pending.users == (2,)
    with pytest.raises(AwaitingChoice):
        apply(s, NextTurn(by=GM))
    with pytest.raises(NotAllowed):
        apply(s, Choose(by=BOB, pending_id=s.pending.id, option="Dodge"))
    out = apply(s, Choose(by=ALICE, pending_id=s.pending.id, option="dodge"))
    assert out.state.pending is None and "dodged" in [e.text for e in out.events]
    timed = apply(s, Choose(by=GM, pending_id=s.pending.id, option=s.pending.default, timed_out=True))
    assert timed.state.find("Alice").out


def test_each_question_takes_a_new_number_so_an_answer_to_an_earlier_one_is_refused():
    s = orc_hits_alice()
    first = s.pending.id
    s = run(s, Choose(by=ALICE, pending_id=first, option="Dodge"), toy.Hit(by=GM, target="Alice"))
    assert s.pending.id == first + 1 and s.next_pending == first + 2
    with pytest.raises(Stale):
        apply(s, Choose(by=ALICE, pending_id=first, option="Take it"))


def test_an_option_is_chosen_by_its_label_as_shown_or_by_its_key_and_a_refusal_lists_the_labels():
    s = orc_hits_alice()
    for typed in ("Take it", " take IT ", "take"):
        out = apply(s, Choose(by=ALICE, pending_id=s.pending.id, option=typed))
        assert out.state.find("Alice").out and out.events[0].text == "Chosen: Take it."
    with pytest.raises(InvalidInput, match="Choose one of: Dodge, Take it."):
        apply(s, Choose(by=ALICE, pending_id=s.pending.id, option="parry"))


def test_a_questions_signature_is_made_of_its_keys_not_its_words():
    pending = orc_hits_alice().pending
    options = tuple(o.but(label=seq("«", o.label, "»")) for o in pending.options)
    assert pending.but(prompt="«Alice : esquive ?»", options=options).signature == pending.signature
    rekeyed = (pending.options[0].but(key="duck"),) + pending.options[1:]
    assert pending.but(options=rekeyed).signature != pending.signature
    assert pending.but(id=pending.id + 1).signature != pending.signature
    # Another attack asked under the same number after an undo is another question.
    assert pending.but(context={**pending.context, "attack": "another"}).signature != pending.signature


def test_a_question_stored_before_options_had_keys_loads_and_is_answered():
    s = orc_hits_alice()
    data = s.model_dump(mode="json")
    data["pending"] |= {"options": ["Dodge", "Take it"], "default": "Take it", "owners": {"Dodge": [2]}}
    data["pending"]["users"] = [2, 3]
    del data["pending"]["former_signature"]
    stored = type(s).model_validate_json(json.dumps(data))
    pending = stored.pending
    labels = tuple(english(label) for label in pending.labels)
    assert pending.keys == labels == ("Dodge", "Take it") and pending.default == "Take it"
    assert pending.owners == {"Dodge": (2,)}
    # Its buttons were posted with the signature of its id, kind, prompt and options as they were.
    posted = repr((pending.id, pending.kind, data["pending"]["prompt"], ("Dodge", "Take it")))
    signature = hashlib.blake2s(posted.encode(), digest_size=4).hexdigest()
    assert pending.signature == signature
    assert type(s).model_validate_json(stored.model_dump_json()).pending.signature == signature
    clicked = apply(stored, Choose(by=ALICE, pending_id=pending.id, index=1, signature=signature))
    assert clicked.state.find("Alice").out and clicked.events[0].text == "Chosen: Take it."
    with pytest.raises(NotAllowed, match="another player's call"):
        apply(stored, Choose(by=BOB, pending_id=pending.id, option="dodge"))
    timed = apply(stored, Choose(by=GM, pending_id=pending.id, option=pending.default, timed_out=True))
    assert timed.state.find("Alice").out


def test_an_option_owned_by_one_player_is_refused_to_the_others():
    s = ASK.new_encounter(1, 5)
    s = run(
        s,
        AddCombatants(by=GM, name="Orc", dice=(15,)),
        AddCombatants(by=ALICE, name="Alice", npc=False, controller_id=2, dice=(5,)),
        NextTurn(by=GM),
    )
    s = run(s, toy.Hit(by=GM, target="Alice"))
    s = s.but(pending=s.pending.but(users=(2, 3), owners={"dodge": (2,)}))
    with pytest.raises(NotAllowed, match="another player's call"):
        apply(s, Choose(by=BOB, pending_id=s.pending.id, option="Dodge"))
    assert apply(s, Choose(by=BOB, pending_id=s.pending.id, option="Take it")).state.find("Alice").out
    assert apply(s, Choose(by=ALICE, pending_id=s.pending.id, option="Dodge")).state.pending is None
