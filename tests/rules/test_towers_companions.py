"""99 Towers animal companions (seed 003, "Pets and Companions"): "You and your animal companion activate
simultaneously. You choose a single action, and either you or your companion executes it." """

from __future__ import annotations

import pytest

from rules.actions import NextTurn, RemoveCombatant
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed, NotYourTurn
from rules.model import Actor
from rules.said import english
from rules.systems.towers import SYSTEM
from tests.rules.test_towers_helpers import GM, PLAYER, add, begin, command, new, phase_of, texts, who

TONY = 'init=2 ss=2 hs=3 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 weapons="Longblade: 4+px +1pa" px=2'
REX = 'companion_of=Tony init=3 ss=1 pa=3 pd=3 stun=8 lethal=4 weapons="Bite: 3+hs"'
BANDIT = 'init=1 ss=1 hs=2 pa=3 pd=2 er=1 stun=10 lethal=5 endurance=1 weapons="Club: 2+hs"'
OTHER_PLAYER = Actor(user_id=3)


def fight(*, start=True):
    """Tony (Alice's, CI 15: phase 5) with Rex, his companion added by the GM; a Bandit (CI 12: phase 8)."""
    enc = add(new(), "Tony", "KH 4C", TONY, player=True).state
    enc = add(enc, "Rex", "", REX).state
    enc = add(enc, "Bandit", "JD", BANDIT).state
    return begin(enc).state if start else enc


def acting(enc):
    return [enc.get(cid).name for cid in SYSTEM.turns.acting(enc)]


def test_a_companion_draws_no_initiative_and_is_its_masters_players():
    out = add(add(new(), "Tony", "KH 4C", TONY, player=True).state, "Rex", "", REX)
    rex, tony = out.state.find("Rex"), out.state.find("Tony")
    assert [e.cid for e in out.state.turns.entries] == [tony.id]
    assert "Rex activates with Tony: on each of Tony's turns, one of the two takes the action." in map(
        english, texts(out)
    )
    assert (rex.companion_of, rex.side, rex.controller_id) == (tony.id, tony.side, PLAYER.user_id)


def test_master_and_companion_activate_together_and_either_takes_the_one_action():
    enc = fight()
    assert acting(enc) == ["Tony", "Rex"]
    assert english(SYSTEM.turns.waiting(SYSTEM, enc).title) == "Tony, Rex's turn — phase 5"
    out = command(enc, "act", by=PLAYER, action="recover", actor="Rex")
    assert "Recover (5): Tony and Rex next act in phase 10." in map(english, texts(out))
    enc = out.state
    assert who(enc) == "Bandit" and phase_of(enc, "Tony") == 10
    with pytest.raises(NotYourTurn):
        command(enc, "act", by=PLAYER, action="recover", actor="Tony")
    enc = command(enc, "act", action="recover").state  # the Bandit, to phase 13
    assert acting(enc) == ["Tony", "Rex"] and enc.turns.phase == 10


def test_only_the_masters_player_commands_the_companion():
    enc = fight()
    with pytest.raises(NotAllowed):
        command(enc, "act", by=OTHER_PLAYER, action="recover", actor="Rex")
    assert who(command(enc, "act", by=PLAYER, action="recover", actor="Rex").state) == "Bandit"


def test_a_combat_move_moves_both_for_one_action():
    enc = fight()
    out = command(enc, "act", by=PLAYER, action="move", actor="Tony")
    lines = [english(t) for t in texts(out)]
    assert lines[:3] == [
        "Tony moves up to Speed.",
        "Rex moves too, up to Speed, after Tony.",
        "Combat Move (5): Tony and Rex next act in phase 10.",
    ]
    assert not out.state.find("Rex").flat_footed


def test_a_reckless_move_by_the_companion_moves_the_master_recklessly_too():
    out = command(fight(), "act", by=PLAYER, action="reckless move", actor="Rex")
    assert "Tony moves too, after Rex: up to double Speed, (flip−1) on opposed checks until next acting." in map(
        english, texts(out)
    )
    assert out.state.find("Rex").reckless and out.state.find("Tony").reckless
    assert phase_of(out.state, "Tony") == 12


def test_a_knocked_out_masters_companion_still_acts_on_the_masters_activation():
    enc = fight()
    enc = command(enc, "damage", target="Tony", amount="30").state
    assert enc.find("Tony").unconscious
    assert acting(enc) == ["Rex"]  # the turn stays with the pair
    enc = command(enc, "act", by=PLAYER, action="recover", actor="Rex").state
    enc = command(enc, "act", action="recover").state  # the Bandit
    assert acting(enc) == ["Rex"] and enc.turns.phase == 10
    lines = SYSTEM.turns.lines(SYSTEM, enc)
    assert [enc.get(c).name for c in lines[0].cids] == ["Tony", "Rex"] and lines[0].current
    out = apply(enc, NextTurn(by=PLAYER))  # End turn: the companion takes the Forced Delay
    assert "Rex takes a Forced Delay (5): Rex next acts in phase 15." in map(english, texts(out))


def test_a_chip_discarded_heals_the_master_or_the_companion_only():
    enc = fight()
    out = command(enc, "act", by=PLAYER, action="discard chip", target="Rex")
    # How much a chip heals is in the seed's chapter on Fate and Chance, which it does not hold: the line
    # says the GM heals it, so the table does not read "healing Rex" as done while Rex's STUN stays put.
    assert english(texts(out)[0]) == (
        "Tony: Discard Chip to Heal (free), for Rex: how much it heals is the GM's call (/heal)."
    )
    assert out.state.find("Rex") == enc.find("Rex")
    out = command(enc, "act", by=PLAYER, action="discard chip", options='text="for the road"')
    assert english(texts(out)[0]) == (
        "Tony: Discard Chip to Heal (free): for the road. How much it heals is the GM's call (/heal)."
    )
    with pytest.raises(InvalidInput) as refused:
        command(enc, "act", by=PLAYER, action="discard chip", target="Bandit")
    assert english(refused.value.said) == "A chip Tony discards heals only Tony, Rex."


def test_the_tracker_and_the_turn_show_the_companion_with_its_master():
    enc = fight()
    line = SYSTEM.turns.lines(SYSTEM, enc)[0]
    assert [enc.get(c).name for c in line.cids] == ["Tony", "Rex"] and line.current
    rex = enc.find("Rex")
    assert "Tony's companion" in english(SYSTEM.status_line(enc, rex, reveal=True))
    summary = [english(t) for t in SYSTEM.turn_summary(enc, rex.id)]
    assert any(t.startswith("Activates with Tony: one action for the two of you") for t in summary)


def test_a_companion_defends_itself_and_its_players_flip_is_asked():
    enc = command(fight(), "act", by=PLAYER, action="recover", actor="Tony").state  # the Bandit's turn
    assert not enc.find("Rex").flat_footed  # the pair has acted
    enc = command(enc, "attack", target="Rex").state
    assert enc.pending is not None and enc.pending.kind == "defense"
    assert enc.pending.chooser == enc.find("Rex").id and enc.pending.users == (PLAYER.user_id,)
    assert "Flip PD 3" in english(enc.pending.prompt)


def test_the_pair_holds_together():
    enc = command(fight(), "act", by=PLAYER, action="hold", actor="Rex").state
    assert who(enc) == "Bandit"
    entry = SYSTEM.turns.entry(enc, enc.find("Tony").id)
    assert entry.held_since == 5
    enc = command(enc, "act", by=PLAYER, action="release", actor="Rex", target="Bandit").state
    assert acting(enc) == ["Tony", "Rex"]


def test_a_companion_needs_its_master_in_the_fight_and_a_master_of_its_own():
    enc = fight(start=False)
    with pytest.raises(InvalidInput):
        add(enc, "Fido", "", "companion_of=Nobody")
    with pytest.raises(InvalidInput) as refused:
        add(enc, "Flea", "", "companion_of=Rex")
    assert english(refused.value.said) == "Rex is a companion itself: name its master, Tony."


def test_a_companion_joining_mid_fight_acts_on_its_masters_next_activation():
    enc = add(new(), "Tony", "KH 4C", TONY, player=True).state
    enc = begin(add(enc, "Bandit", "JD", BANDIT).state).state
    enc = add(enc, "Rex", "", REX).state
    assert acting(enc) == ["Tony", "Rex"]


def test_a_master_leaving_leaves_the_companion_in_their_place():
    enc = command(fight(), "act", by=PLAYER, action="recover", actor="Tony").state  # the Bandit's turn
    out = apply(enc, RemoveCombatant(by=GM, target="Tony"))
    assert "Rex stays in the fight and now acts on its own." in map(english, texts(out))
    enc = out.state
    assert enc.find("Rex").companion_of is None and phase_of(enc, "Rex") == 10
    enc = command(enc, "act", action="recover").state
    assert acting(enc) == ["Rex"]


def test_a_companion_left_alone_flips_its_own_initiative_for_its_ties_and_shows_that_ci():
    # Seed: Initiative is each character's own flip, "his Calculated Initiative", and ties in a phase go by "the
    # higher Calculated Initiative", then "the higher Initiative <N>", then "the higher Soft Strength". Rex never
    # flipped (it activated with Tony): on its own, it flips its Initiative ⟨3⟩ and keeps the pair's place.
    enc = add(new(), "Tony", "AH 4C", TONY, player=True).state  # CI 16: phase 4
    enc = add(enc, "Rex", "", REX).state
    enc = begin(add(enc, "Bandit", "JD", BANDIT).state).state
    enc = command(enc, "act", by=PLAYER, action="recover", actor="Tony").state  # the Bandit's turn
    out = apply(enc, RemoveCombatant(by=GM, target="Tony"))
    enc, rex = out.state, out.state.find("Rex")
    entry = SYSTEM.turns.entry(enc, rex.id)
    assert entry.key[1:] == (3, 1) and phase_of(enc, "Rex") == 9  # Rex's N and SS, not Tony's 2 and 2
    ci = int(entry.key[0])
    line = next(english(t) for t in texts(out) if "Initiative" in english(t))
    assert line.startswith("Rex: Initiative ⟨3⟩: ") and line.endswith(f"+ N 3 = CI {ci}, in its place (phase 9)")
    assert ci != 16 and f"CI {ci}" in english(SYSTEM.status_line(enc, rex, reveal=True))


def test_a_companion_mid_running_leap_makes_the_pairs_next_action_the_leap():
    enc = command(fight(), "act", by=PLAYER, action="running leap", actor="Rex").state
    enc = command(enc, "act", action="recover").state  # the Bandit
    assert acting(enc) == ["Tony", "Rex"] and enc.find("Rex").leaping
    for refused in (
        lambda: command(enc, "act", by=PLAYER, action="recover", actor="Tony"),
        lambda: command(enc, "act", by=PLAYER, action="running leap", actor="Tony"),
        lambda: command(enc, "act", by=PLAYER, action="hold", actor="Tony"),
        lambda: command(enc, "attack", by=PLAYER, actor="Tony", target="Bandit"),
    ):
        with pytest.raises(NotAllowed) as said:
            refused()
        assert english(said.value.said) == (
            "Rex is mid Running Leap: the leap is the one action Rex and Tony share now "
            "(/act action:running leap actor:Rex)."
        )
    out = command(enc, "act", by=PLAYER, action="running leap", actor="Rex")
    assert "Running Leap, the leap (5): Tony and Rex next act in phase 15." in map(english, texts(out))
    assert not out.state.find("Rex").leaping


def test_the_pairs_forced_delay_loses_the_companions_leap():
    enc = command(fight(), "act", by=PLAYER, action="running leap", actor="Rex").state
    enc = command(enc, "act", action="recover").state  # the Bandit
    out = apply(enc, NextTurn(by=PLAYER))  # End turn: Tony takes the Forced Delay for the two
    lines = [english(t) for t in texts(out)]
    assert "Rex wastes the turn: the leap of the Running Leap is lost." in lines
    assert "Tony takes a Forced Delay (5): Tony and Rex next act in phase 15." in lines
    assert not out.state.find("Rex").leaping


def test_a_free_action_by_either_rules_out_the_pairs_delay_in_that_phase():
    enc = command(fight(), "act", by=PLAYER, action="speak", actor="Rex").state
    with pytest.raises(NotAllowed) as refused:
        apply(enc, NextTurn(by=PLAYER))
    assert english(refused.value.said).startswith("Rex has taken a free or zero-cost action in phase 5")
    with pytest.raises(NotAllowed):
        command(enc, "act", by=PLAYER, action="forced delay", actor="Tony")
    assert who(command(enc, "act", by=PLAYER, action="recover", actor="Tony").state) == "Bandit"


def test_the_pairs_hold_and_release_name_the_two():
    out = command(fight(), "act", by=PLAYER, action="hold", actor="Rex")
    assert english(texts(out)[0]).startswith("Tony and Rex hold (from phase 5)")
    out = command(out.state, "act", by=PLAYER, action="release", actor="Rex", target="Bandit")
    assert "Tony and Rex stop holding and act before Bandit." in map(english, texts(out))


def test_a_companion_cannot_be_surprised_apart_from_its_master():
    # "If some combatants are not aware … they will automatically be delayed by 10 phases": a companion has
    # no place of its own to delay ("You and your animal companion activate simultaneously"), so a
    # surprise on it alone is refused rather than dropped unsaid; its master's surprise delays the pair.
    enc = add(new(), "Tony", "KH 4C", TONY, player=True).state
    with pytest.raises(InvalidInput, match="Rex activates with Tony: surprise Tony"):
        add(enc, "Rex", "", REX, surprised=True)
    enc = add(add(new(), "Tony", "KH 4C", TONY, player=True, surprised=True).state, "Rex", "", REX).state
    assert phase_of(enc, "Tony") == 15  # 5 + 10
    assert SYSTEM.turns.entry(enc, enc.find("Rex").id).phase == 15
