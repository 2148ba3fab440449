"""Morale at the end of the round, surrendering, and the ambush's bonus round."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants
from rules.engine import apply
from rules.errors import InvalidInput
from rules.said import english
from rules.systems.factions import SYSTEM
from rules.systems.factions.actions import Attack, BonusAction, Heal, Move, SetCondition, Surrender
from rules.turns.factions import PassMove
from tests.helpers import answer_by_key
from tests.rules.test_factions_helpers import (
    BALTHASAR_ID,
    GM,
    GM_ID,
    SYBILLA,
    SYBILLA_ID,
    THEOBALD_ID,
    add,
    choose,
    end,
    mark_acted,
    new,
    pass_move,
    player,
    seed_cast,
    start,
    take,
    texts,
)


def down(enc, *names):
    for name in names:
        enc = apply(enc, SetCondition(by=GM, target=name, condition="incapacitated")).state
    return enc


def test_a_group_at_half_its_numbers_checks_morale_and_the_failures_surrender_or_flee():
    enc = start(seed_cast()).state
    enc = down(enc, "Bandit 1", "Bandit 2")
    enc = pass_move(enc).state  # gm pass
    out = apply(enc, PassMove(by=GM, dice=(15, 4)))  # the GM passes for the players: the round ends, morale is checked
    lines = texts(out)
    assert "Morale check for gm: a group WIT save." in lines
    assert "Bandit Leader WIT save (morale): d20 15 vs WIT 10 → fail: breaks." in lines
    assert "Bandit 3 WIT save (morale): d20 4 vs WIT 10 → pass: immune to morale for the rest of the fight." in lines
    assert lines.index("Morale check for gm: a group WIT save.") < lines.index("Round 2")
    enc = out.state
    assert enc.pending.kind == "morale" and enc.pending.users == (GM_ID,)
    assert enc.find("Bandit 3").morale_immune
    fled = choose(enc, "Flee").state
    assert fled.find("Bandit Leader").fled and fled.find("Bandit Leader").out
    surrendered = choose(enc, "Surrender").state
    leader = surrendered.find("Bandit Leader")
    assert leader.surrendered and not SYSTEM.can_act(surrendered, leader)


def test_the_morale_questions_are_answered_by_their_keys():
    enc = start(seed_cast()).state
    enc = pass_move(down(enc, "Bandit 1", "Bandit 2")).state
    asked = pass_move(enc, by=SYBILLA).state  # the players pass: the round ends, the GM's dice are awaited
    assert asked.pending.kind == "morale_roll" and asked.pending.keys == ("roll",)
    broke = answer_by_key(asked, "roll").state
    assert broke.pending.kind == "morale" and broke.pending.keys == ("surrender", "flee")
    cid = broke.pending.context["queue"][0]
    assert answer_by_key(broke, "flee").state.get(cid).fled
    assert answer_by_key(broke, "surrender").state.get(cid).surrendered


def test_no_check_when_the_group_was_already_at_half_when_the_round_began():
    enc = start(seed_cast()).state
    enc = down(enc, "Bandit 1", "Bandit 2")
    enc = pass_move(enc).state
    enc = apply(enc, PassMove(by=GM, dice=(15, 4))).state  # the GM passes for the players
    enc = choose(enc, "Surrender").state
    enc = pass_move(enc).state
    out = pass_move(enc, by=SYBILLA)
    assert not any("Morale" in t for t in texts(out))


def test_a_lone_character_at_half_health_checks_morale_and_the_fearless_never_do():
    enc = add(seed_cast(), "Wolf", "weapons='bite:d6' health=8 wit=6", side="wolves")
    enc = start(enc).state
    enc = enc.update(enc.find("Wolf").id, health=4)
    enc = pass_move(enc).state
    enc = pass_move(enc, by=SYBILLA).state
    out = apply(enc, PassMove(by=GM, dice=(9,)))
    assert "Wolf WIT save (morale): d20 9 vs WIT 6 → fail: breaks." in texts(out)
    fearless = add(seed_cast(), "Golem", "health=8 fearless=true", side="golems")
    fearless = start(fearless).state
    fearless = fearless.update(fearless.find("Golem").id, health=3)
    fearless = pass_move(pass_move(fearless).state, by=SYBILLA).state
    out = pass_move(fearless)
    assert not any("Morale" in t for t in texts(out))


def test_surrender_spends_the_turn_on_turn_or_off_it():
    enc = start(seed_cast()).state
    enc = take(enc, "Bandit 1").state
    out = apply(enc, Surrender(by=GM))
    assert out.state.find("Bandit 1").surrendered and out.state.turns.active is None
    assert out.state.turns.moving == "players"
    off = apply(out.state, Surrender(by=GM, actor="Bandit 2"))
    assert off.state.find("Bandit 2").id in off.state.turns.acted
    with pytest.raises(InvalidInput):
        apply(off.state, Surrender(by=GM, actor="Bandit 2"))
    with pytest.raises(InvalidInput, match="waits for the next round"):
        apply(mark_acted(off.state, "Bandit 3"), Surrender(by=GM, actor="Bandit 3"))


def test_surrender_takes_the_whole_turn_so_not_after_acting_in_it():
    # Seed 002 l.135: "Characters can spend their turn to surrender [...] Their turn is wasted".
    enc = take(start(seed_cast()).state, "Bandit 1").state
    for done in (BonusAction(by=GM, text="draws a knife"), Move(by=GM, zones=1)):
        acted = apply(enc, done).state
        with pytest.raises(InvalidInput, match="already acted this turn"):
            apply(acted, Surrender(by=GM))
        assert not acted.find("Bandit 1").surrendered


def test_concealed_characters_play_a_bonus_round_and_their_targets_cannot_react():
    enc = seed_cast()
    enc = add(enc, "Shade", "weapons='knife:d4' concealed=true", user=THEOBALD_ID + 1)
    out = start(enc)
    assert "Bonus round: only Shade can act" in texts(out)
    assert "gm must pass: nobody left to act." in texts(out)
    enc = out.state
    assert enc.round == 0 and enc.turns.moving == "players"
    with pytest.raises(InvalidInput):
        take(enc, "Sybilla", by=SYBILLA)
    shade = player(THEOBALD_ID + 1)
    enc = take(enc, "Shade", by=shade).state
    out = apply(enc, Attack(by=shade, targets=("Bandit 1",), dice=(3,)))
    assert out.state.pending is None and out.state.find("Bandit 1").health == 5
    assert not out.state.find("Shade").concealed
    out = end(out.state, by=shade)
    assert "Round 1" in texts(out) and out.state.round == 1 and out.state.turns.moving == "gm"


def test_status_line_and_turn_summary():
    enc = start(seed_cast()).state
    enc = take(enc, "Bandit 1").state
    theobald = enc.find("Theobald")
    assert english(SYSTEM.status_line(enc, theobald, reveal=True)) == "health 12/12 · grit 3/3 · armour 2"
    assert english(SYSTEM.status_line(enc, enc.find("Bandit 1"), reveal=False)) == "acting"
    assert [english(line) for line in SYSTEM.turn_summary(enc, enc.find("Bandit 1").id)] == [
        "Move: 2 zone(s) left (0 moved)",
        "Main action: ready · bonus actions left: 2",
        "Weapons: axe (d6), bow (d6, range 8), unarmed (d4)",
    ]
    # At a faction's move, the turn message lists what each ready character carries, nothing more.
    assert [english(line) for line in SYSTEM.turn_summary(enc, theobald.id)] == [
        "Weapons: spear (d6), sword (d6), dagger (d4), unarmed (d4)"
    ]
    enc = end(enc).state
    assert english(SYSTEM.status_line(enc, enc.find("Bandit 1"), reveal=False)) == "acted"


def join_carried(enc, name, stats, lasting, user=None):
    action = AddCombatants(
        by=GM, name=name, sheet=SYSTEM.parse_sheet(stats), npc=user is None, controller_id=user, lasting=lasting
    )
    return apply(enc, action).state


def test_wounds_carried_into_the_fight_are_no_loss_in_its_first_round():
    # "Groups must make a morale check if they were reduced to half or less their original numbers in the
    # past round. Characters fighting alone must make a morale check if they were reduced to half or less
    # their maximum health in the past round."
    enc = join_carried(new(), "Sybilla", "health=8 weapons='dagger:d4'", {"health": 3}, user=SYBILLA.user_id)
    enc = add(enc, "Bandit", "weapons='axe:d6'", count=2)
    for name in ("Thug 1", "Thug 2"):
        enc = join_carried(enc, name, "weapons='axe:d6'", {"health": 5, "incapacitated": True})
    enc = start(enc).state
    enc = pass_move(enc).state
    out = pass_move(enc, by=SYBILLA)
    assert "Round 2" in texts(out) and out.state.pending is None
    assert not [line for line in texts(out) if line.startswith("Morale check")]


def test_an_ambushs_bonus_round_counts_with_round_1_for_morale():
    enc = add(seed_cast(), "Shade", "weapons='knife:d4' concealed=true", user=THEOBALD_ID + 1)
    enc = start(enc).state
    assert enc.round == 0
    enc = down(enc, "Bandit 1", "Bandit 2")  # taken down in the bonus round
    enc = end(take(enc, "Shade", by=player(THEOBALD_ID + 1)).state, by=player(THEOBALD_ID + 1)).state
    assert enc.round == 1
    enc = pass_move(enc).state
    out = apply(enc, PassMove(by=GM, dice=(15, 4)))
    assert "Morale check for gm: a group WIT save." in texts(out)


def test_a_grabbed_character_who_breaks_surrenders_for_it_cannot_flee_while_held():
    # Seed: those who fail a morale check "must surrender or retreat"; "Grabbed characters can't act,
    # and can only spend their turn to attempt to break free", and only the grabber moves them ("moving
    # together with the grabbed character"): held, they cannot retreat, so they surrender.
    enc = start(seed_cast()).state
    enc = down(enc, "Bandit 1", "Bandit 2")
    enc = enc.update(enc.find("Bandit Leader").id, grabbed_by=enc.find("Theobald").id)
    enc = pass_move(enc).state
    out = apply(enc, PassMove(by=GM, dice=(15, 16)))  # both bandits standing break
    lines = texts(out)
    assert "Bandit Leader failed the morale check but, held by Theobald, cannot flee: they surrender." in lines
    leader = out.state.find("Bandit Leader")
    assert leader.surrendered and not leader.fled and leader.grabbed_by == out.state.find("Theobald").id
    # the free bandit still chooses
    assert out.state.pending.kind == "morale" and out.state.pending.keys == ("surrender", "flee")
    assert out.state.pending.context["queue"] == [out.state.find("Bandit 3").id]
    alone = apply(enc, PassMove(by=GM, dice=(15, 4)))  # only the held leader breaks: nothing left to ask
    assert alone.state.pending is None and alone.state.find("Bandit Leader").surrendered
    assert "Round 2" in texts(alone)


def test_a_character_whose_holder_flees_first_may_flee_in_turn():
    enc = start(seed_cast()).state
    enc = down(enc, "Bandit 1", "Bandit 2")
    enc = enc.update(enc.find("Bandit 3").id, grabbed_by=enc.find("Bandit Leader").id)
    enc = pass_move(enc).state
    enc = apply(enc, PassMove(by=GM, dice=(15, 16))).state
    freed = choose(enc, "Flee").state  # the leader, first in the queue, flees and lets go
    assert freed.find("Bandit 3").grabbed_by is None
    assert freed.pending.kind == "morale" and freed.pending.keys == ("surrender", "flee")
    assert choose(freed, "Flee").state.find("Bandit 3").fled


def test_a_large_groups_morale_question_keeps_its_dice_count_and_how_to_answer():
    enc = new()
    enc = add(enc, "Sybilla", "weapons='dagger:d4' health=10", user=SYBILLA_ID)
    name = "Bandit Captain of the Northern Marches"
    enc = add(enc, name, "weapons='axe:d6' health=2", count=30)
    enc = start(enc).state
    enc = pass_move(down(enc, *(f"{name} {i}" for i in range(1, 16)))).state
    asked = pass_move(enc, by=SYBILLA).state  # the round ends: fifteen saves wait for the GM's dice
    prompt = english(asked.pending.prompt)
    assert '15 d20. Press Roll, or enter the dice: /choose option:Roll dice:"…".' in prompt
    assert f"{name} 16, {name} 17" in prompt and "and 10 more" in prompt


def _round_of_passes(enc, dice=()):
    """The wolves pass, then the GM passes for the players too: the round ends."""
    return apply(pass_move(enc).state, PassMove(by=GM, dice=dice))


@pytest.mark.parametrize("passed_before", [True, False])
def test_one_who_passed_morale_is_not_subject_to_it_again_in_the_fight(passed_before):
    # Seed 002 l.131: "those who pass aren't subject to morale for the remainder of the stretch".
    enc = add(new(), "Balthasar", "weapons='sword:d6' health=12", user=BALTHASAR_ID)
    enc = add(enc, "Wolf", "weapons='bite:d6' health=8 wit=6", side="wolves")
    enc = start(enc, holder="wolves").state
    wolf = enc.find("Wolf").id
    enc = enc.update(wolf, health=4)  # half its health in round 1
    out = _round_of_passes(enc, dice=(3,))
    assert "Wolf WIT save (morale): d20 3 vs WIT 6 → pass: immune to morale for the rest of the fight." in texts(out)
    enc = out.state.update(wolf, morale_immune=passed_before)
    enc = apply(enc, Heal(by=GM, target="Wolf", amount="4")).state
    enc = _round_of_passes(enc).state  # round 2: healed back to 8
    enc = enc.update(wolf, health=3)  # half its health again in round 3
    out = _round_of_passes(enc)
    if passed_before:
        assert out.state.pending is None and not any("Morale" in line for line in texts(out))
    else:  # the same drop in a wolf that never passed calls for its save
        assert out.state.pending.kind == "morale_roll"
