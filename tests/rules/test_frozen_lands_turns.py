"""Frozen Lands: initiative, the alternating track, actions and reactions."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, EndTurn, NextTurn, RemoveCombatant
from rules.errors import AwaitingChoice, DiceError, NotAllowed, NotYourTurn
from rules.said import english
from rules.secrets import conceal, reveal
from rules.systems.frozen_lands import SYSTEM
from tests.helpers import answer_by_key
from tests.rules.test_frozen_lands_support import (
    ASTRID,
    BJORN,
    GM,
    act,
    begin,
    choose,
    current,
    end_turn,
    enemy,
    fl,
    get,
    hero,
    names,
    new,
    outcome,
    party,
)


def four_of_them():
    s = new()
    s = hero(s, "Astrid", 5)
    s = hero(s, "Bjorn", 3)
    s = enemy(s, "Wolf", 4)
    s = enemy(s, "Bear", 2)
    return enemy(s, "Raven", 6)


def test_gm_rolls_players_plus_one_dice_and_goes_first_only_when_it_beats_every_player():
    s = begin(four_of_them(), 6, 1, 1)
    assert s.turns.gm_roll == 6 and s.turns.gm_first
    assert names(s, s.turns.track) == ["Raven", "Astrid", "Wolf", "Bjorn", "Bear"]
    assert current(s) == ["Raven"]
    s = begin(four_of_them(), 5, 2, 1)  # equal to Astrid's 5: not beating her
    assert s.turns.gm_roll == 5 and not s.turns.gm_first
    assert names(s, s.turns.track) == ["Astrid", "Raven", "Bjorn", "Wolf", "Bear"]
    text = outcome(four_of_them(), fl_next(6, 1, 1)).events[0].text
    assert text == "GM initiative: 3d6 (6, 1, 1) → 6; beats every player: the GM side goes first."
    with pytest.raises(DiceError):  # two players: exactly three GM dice
        begin(four_of_them(), 6, 1, 1, 1)


def fl_next(*dice):
    return NextTurn(by=GM, dice=dice)


def test_track_alternates_and_leftover_enemies_act_at_the_end_of_the_round():
    s = begin(four_of_them(), 2, 1, 1)
    seen = []
    for _ in range(5):
        seen.append((s.round, current(s)[0]))
        s = end_turn(s)
    assert seen == [(1, "Astrid"), (1, "Raven"), (1, "Bjorn"), (1, "Wolf"), (1, "Bear")]
    assert s.round == 2 and current(s) == ["Astrid"]


def test_someone_joining_mid_round_costs_nobody_still_to_act_their_turn():
    s = begin(four_of_them(), 2, 1, 1)  # Astrid, Raven, Bjorn, Wolf, Bear
    s = end_turn(end_turn(s))
    assert current(s) == ["Bjorn"]
    s = hero(s, "Sigrid", 6)  # sorts first: before the place the round has reached
    seen = []
    for _ in range(4):
        s = end_turn(s)
        seen.append((s.round, current(s)[0]))
    assert seen == [(1, "Sigrid"), (1, "Wolf"), (1, "Bear"), (2, "Sigrid")]


def test_tied_players_choose_their_order_before_round_one():
    s = new()
    s = hero(s, "Astrid", 4)
    s = hero(s, "Bjorn", 4)
    s = enemy(s, "Wolf", 3)
    o = outcome(s, fl_next(1, 2, 3))
    s = o.state
    assert s.pending.kind == "track_tie" and tuple(map(english, s.pending.labels)) == ("Astrid", "Bjorn")
    assert set(s.pending.users) == {10, 11} and s.round == 0
    assert o.events[-1].ping == (10, 11)
    with pytest.raises(AwaitingChoice):
        act(s, fl.Aim(by=ASTRID))
    s = choose(s, "Bjorn", by=BJORN)
    assert names(s, s.turns.track) == ["Bjorn", "Wolf", "Astrid"]
    assert s.round == 1 and current(s) == ["Bjorn"]


def test_the_tied_players_question_is_answered_by_the_chosen_ones_id():
    s = enemy(hero(hero(new(), "Astrid", 4), "Bjorn", 4), "Wolf", 3)
    s = outcome(s, fl_next(1, 2, 3)).state
    bjorn = s.find("Bjorn").id
    assert s.pending.keys == (s.find("Astrid").id, bjorn)
    o = answer_by_key(s, bjorn, by=BJORN)
    assert "Bjorn goes first among the tied players." in [e.text for e in o.events]
    assert names(o.state, o.state.turns.track) == ["Bjorn", "Wolf", "Astrid"]


def test_a_fourth_action_in_a_round_is_refused_and_actions_refresh_each_round():
    s = party(astrid={"loaded": False})
    s = act(s, fl.Aim(by=ASTRID))
    s = act(s, fl.Reload(by=ASTRID))
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", ranged=True, range="short", dice=(6, 1, 1, 1, 1, 1, 1)))
    assert get(s, "Astrid").actions_left == 0
    with pytest.raises(NotAllowed, match="0 actions left this round"):
        act(s, fl.Move(by=ASTRID, to="Hall"))
    for _ in range(4):
        s = end_turn(s)
    assert s.round == 2 and current(s) == ["Astrid"]
    assert get(s, "Astrid").actions_left == 3


def test_the_same_action_only_once_a_turn_unless_a_talent_allows_it():
    s = party()
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(1, 1, 1, 1)))
    with pytest.raises(NotAllowed, match="already used attack this turn"):
        act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(1, 1, 1, 1)))
    s = party(astrid={"talents": "attack"})
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(1, 1, 1, 1)))
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(1, 1, 1, 1)))
    assert get(s, "Astrid").actions_left == 1


def test_turn_summary_shows_actions_and_reactions_left():
    s = party()
    s = act(s, fl.Aim(by=ASTRID))
    lines = fl_summary(s, "Astrid")
    assert lines[0] == "Actions left: 2 of 3 (used: aim)"
    assert lines[1] == "Reactions left: 2 of 2"


def test_turn_summary_offers_no_out_of_turn_try_without_an_action_left():
    # "this action still count as one of your 3 actions": with none left there is nothing to try.
    s = act(party(), fl.AddCondition(by=GM, target="Astrid", condition="exhaustion", text="3"))
    assert get(s, "Astrid").actions_left == 0
    assert fl_summary(s, "Astrid")[2:] == []
    with pytest.raises(NotAllowed, match="no actions left"):
        act(end_turn(s), fl.Interrupt(by=ASTRID, actor="Astrid", dice=(6, 6, 6)))


def fl_summary(s, name):
    return [english(line) for line in SYSTEM.turn_summary(s, get(s, name).id)]


def test_reactions_are_agility_minus_one_spent_on_defense_and_restored_each_round():
    s = party()  # Astrid AGILITY 3 → 2 reactions; Bjorn AGILITY 2 → 1
    assert get(s, "Astrid").reactions_left == 2 and get(s, "Bjorn").reactions_left == 1
    s = end_turn(s)  # the Wolf's turn
    s = act(s, fl.Attack(by=GM, target="Bjorn"))
    assert tuple(map(english, s.pending.labels)) == ("Dodge", "Block", "No reaction")
    s = choose(s, "Block", 6, 2, 3, by=BJORN)  # Melee 3: one success
    bjorn = get(s, "Bjorn")
    assert bjorn.reactions_left == 0 and bjorn.stamina == 9  # 3 − 1 block − 2 armour = 0
    s = act(s, fl.Attack(by=GM, target="Bjorn", damage=5))  # no reaction left: armour only, no choice
    assert s.pending is None and get(s, "Bjorn").stamina == 6
    for _ in range(3):
        s = end_turn(s)
    assert s.round == 2
    assert get(s, "Astrid").reactions_left == 2 and get(s, "Bjorn").reactions_left == 1


def test_dazed_costs_a_reaction_and_exhaustion_an_action_each_round():
    s = party(astrid={"stress": 0})
    s = act(s, fl.AddCondition(by=GM, target="Astrid", condition="dazed", text="1"))
    s = act(s, fl.AddCondition(by=GM, target="Astrid", condition="exhaustion", text="2"))
    astrid = get(s, "Astrid")
    assert (astrid.actions_left, astrid.reactions_left) == (1, 1)
    for _ in range(4):
        s = end_turn(s)
    astrid = get(s, "Astrid")
    assert (astrid.actions_left, astrid.reactions_left) == (1, 1)


def test_a_failed_out_of_turn_try_costs_its_stress_even_when_a_condition_past_level_three_breaks_too():
    # "If you fail the check you get a point of Stress."
    s = act(party(astrid={"stress": 6}), fl.AddCondition(by=GM, target="Astrid", condition="dazed", text="3"))
    s = end_turn(s)  # the Wolf's turn
    o = outcome(s, fl.Interrupt(by=ASTRID, dice=(1, 2, 3, 1, 1, 1, 1)))
    assert "above level 3: broken and a critical injury; +1 Stress (7); Astrid is broken" in english(o.events[0].text)
    astrid = get(o.state, "Astrid")
    assert (astrid.stress, astrid.stamina, astrid.wounds) == (7, 0, 1)
    assert current(o.state) == ["Wolf"]


def test_removing_a_combatant_mid_interruption_hands_the_turn_back():
    s = end_turn(party())  # the Wolf's turn
    s = act(s, fl.Interrupt(by=ASTRID, actor="Astrid", dice=(6, 1, 1)))
    assert current(s) == ["Astrid"]
    s = act(s, RemoveCombatant(by=GM, target="Astrid"))
    assert current(s) == ["Wolf"] and s.turns.interjection == ""
    s = end_turn(s)
    assert current(s) == ["Bjorn"]


def test_a_queued_delayed_action_of_a_removed_combatant_is_dropped():
    s = act(party(), fl.Delay(by=ASTRID))
    s = end_turn(s)
    s = act(s, fl.Release(by=ASTRID, actor="Astrid"))
    s = act(s, RemoveCombatant(by=GM, target="Astrid"))
    s = end_turn(s)
    assert current(s) == ["Bjorn"] and s.turns.queued == ()


def test_release_and_interrupt_are_refused_when_they_make_no_sense():
    s = party()
    with pytest.raises(NotAllowed, match="holds no delayed action"):
        act(s, fl.Release(by=ASTRID, actor="Astrid"))
    s = act(s, fl.Delay(by=ASTRID))
    with pytest.raises(NotAllowed, match="end this one first"):
        act(s, fl.Release(by=ASTRID, actor="Astrid"))
    with pytest.raises(NotAllowed, match="already Astrid's turn"):
        act(s, fl.Interrupt(by=ASTRID, actor="Astrid", dice=(6, 6, 6)))
    with pytest.raises(NotAllowed, match="not your character"):
        act(s, fl.Interrupt(by=BJORN, actor="Astrid", dice=(6, 6, 6)))


def test_the_gm_still_runs_the_enemy_whose_turn_a_players_out_of_turn_action_interrupts():
    # "If the check succeeds you can execute your action before the action that you are interrupting":
    # the Wolf's turn waits for Bjorn's one action; the GM's /attack is the Wolf's, not Bjorn's.
    s = end_turn(party())  # the Wolf's turn
    s = act(s, fl.Interrupt(by=BJORN, dice=(6, 1)))
    o = outcome(s, fl.Attack(by=GM, target="Astrid"))
    assert english(o.events[0].text).startswith("Wolf attacks Astrid: 3 damage")
    bitten = choose(o.state, "No reaction", by=ASTRID)
    assert get(bitten, "Astrid").stamina == 5  # 7 − (3 − armour 1)
    # Bjorn's out-of-turn action is still his to take; then the Wolf's turn goes on.
    assert current(bitten) == ["Bjorn"] and get(bitten, "Bjorn").actions_left == 3
    bitten = act(bitten, fl.Attack(by=BJORN, target="Wolf", dice=(6, 1, 1, 1, 1)))
    assert get(bitten, "Wolf").stamina == 4 and current(bitten) == ["Wolf"]
    # Named, the Wolf acts too; an enemy whose turn it is not, or another player's character, does not.
    named = act(s, fl.Attack(by=GM, actor="Wolf", target="Bjorn"))
    assert english(named.pending.prompt).startswith("Wolf hits Bjorn for 3")
    with pytest.raises(NotYourTurn, match="It is not Bandit's turn"):
        act(s, fl.Attack(by=GM, actor="Bandit", target="Astrid"))
    with pytest.raises(NotAllowed, match="Wolf is not your character"):
        act(s, fl.Attack(by=BJORN, actor="Wolf", target="Astrid"))
    with pytest.raises(NotYourTurn, match="It is not your turn"):
        act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(6, 6, 6, 6)))
    # The GM may still act for the character stepping in, by name.
    o = outcome(s, fl.Attack(by=GM, actor="Bjorn", target="Wolf", dice=(6, 1, 1, 1, 1)))
    assert english(o.events[0].text).startswith("Bjorn attacks Wolf") and current(o.state) == ["Wolf"]


def test_the_turn_message_names_an_out_of_turn_or_delayed_action_and_what_it_costs():
    s = act(party(), fl.Aim(by=ASTRID))
    s = act(s, fl.Delay(by=ASTRID))
    s = end_turn(s)  # the Wolf's turn
    s = act(s, fl.Interrupt(by=BJORN, dice=(6, 1)))  # no actor: Bjorn's player has one character
    assert english(SYSTEM.turns.waiting(SYSTEM, s).title) == "Bjorn acts out of turn, interrupting Wolf"
    assert SYSTEM.turns.waiting(SYSTEM, s).users == (11,)
    assert fl_summary(s, "Bjorn")[:2] == [
        "Out of turn: one action (one of the 3), then Wolf's turn goes on",
        "Actions left: 3 of 3",
    ]
    s = act(s, fl.Aim(by=BJORN))
    assert english(SYSTEM.turns.waiting(SYSTEM, s).title) == "Wolf's turn"
    s = act(s, fl.Release(by=ASTRID))
    s = end_turn(s)
    assert english(SYSTEM.turns.waiting(SYSTEM, s).title) == "Astrid's delayed action"
    # What Astrid used belongs to her own turn, not to the delayed action.
    assert fl_summary(s, "Astrid")[:2] == [
        "Delayed action: one action, already paid when it was held",
        "Actions left: 1 of 3",
    ]


def test_a_broken_character_is_skipped_with_a_word_saying_why():
    s = end_turn(party())  # the Wolf's turn
    s = act(s, fl.Attack(by=GM, target="Bjorn", damage=20))
    s = choose(s, "No reaction", by=BJORN)
    o = outcome(s, fl_end(s))
    assert "Bjorn's turn is skipped: broken (0 Stamina) until healed." in [e.text for e in o.events]
    assert current(o.state) == ["Bandit"]


def fl_end(s):
    return EndTurn(by=GM, turn_no=s.turn_no)


def test_an_enemy_turn_says_how_it_attacks_without_revealing_a_hidden_enemys_numbers():
    s = end_turn(party())  # the Wolf's turn
    assert fl_summary(s, "Wolf") == ["Attacks with /attack target:… for 3 damage"]
    s = act(s, AddCombatants(by=GM, name="Shade", hidden=True, sheet={"initiative": 1, "damage": 7}))
    shade = SYSTEM.turn_summary(s, get(s, "Shade").id)
    assert [conceal(line) for line in shade] == ["Attacks with /attack target:… for ? damage"]
    assert [reveal(line) for line in shade] == ["Attacks with /attack target:… for 7 damage"]  # the GM still reads it
    assert english(SYSTEM.status_line(s, get(s, "Shade"), reveal=False)) == "unhurt"


def test_thirty_tied_heroes_are_all_offered_and_a_typed_name_picks_that_hero_not_one_whose_name_holds_it():
    """More tied heroes than one menu holds: each is offered (past the menu, /choose reaches them), and
    /choose option:"Hero 2" means Hero 2, even when Hero 27, whose name holds those words, is listed first."""
    s = new()
    for n in [27] + [n for n in range(1, 31) if n != 27]:
        s = hero(s, f"Hero {n}", 5)
    s = begin(s)
    assert s.pending.kind == "track_tie" and len(s.pending.options) == 30
    assert english(s.pending.labels[0]) == "Hero 27"
    s = choose(s, "Hero 2", by=ASTRID)
    assert s.pending.kind == "track_tie" and "Hero 2" not in map(english, s.pending.labels)
    assert "Hero 27" in map(english, s.pending.labels)
