"""Reactions: dodge, counter, hide behind someone, guard, opportunity attacks, stunts."""

from __future__ import annotations

import json

import pytest

from rules.actions import Choose
from rules.engine import apply
from rules.errors import AwaitingChoice, InvalidInput, NotAllowed
from rules.model import Actor
from rules.systems.factions import SYSTEM
from rules.systems.factions.actions import OpportunityAttack
from rules.text import Phrase, Plural, Text, english, walk
from tests.helpers import answer_by_key
from tests.rules.test_factions_helpers import (
    BALTHASAR,
    BALTHASAR_ID,
    GM,
    GM_ID,
    SYBILLA,
    SYBILLA_ID,
    THEOBALD,
    THEOBALD_ID,
    add,
    attack,
    choose,
    give_turn,
    mark_acted,
    new,
    options,
    player,
    seed_cast,
    start,
    texts,
)


def alone(enc, attacker, target):
    """Only the target may react: every other character has acted."""
    return mark_acted(give_turn(enc, attacker), *[c.name for c in enc.combatants if c.name not in (attacker, target)])


def test_the_bandit_dodges_sybillas_musket_with_a_2_against_agi_8():
    enc = alone(start(seed_cast()).state, "Sybilla", "Bandit 1")
    out = attack(enc, SYBILLA, "Bandit 1", "musket")
    pending = out.state.pending
    assert pending.kind == "reaction" and pending.users == (GM_ID,)
    assert options(pending) == (
        "No reaction",
        "Dodge",
        "Counter: axe",
        "Counter: bow",
        "Counter: unarmed",
        "Counter: grapple",
        "Counter: shove",
        "Counter: disarm",
        "Hide behind: Bandit Leader",
        "Hide behind: Bandit 2",
        "Hide behind: Bandit 3",
    )
    # The choice message pings the chooser; the event only points at it, so nobody is pinged twice.
    assert out.events[-1].kind == "choice" and out.events[-1].ping == ()
    # Eleven options are shown as a select menu, not buttons: the pointer names neither.
    assert english(out.events[-1].text) == "Bandit 1 may react: choose below."
    with pytest.raises(AwaitingChoice):
        attack(out.state, SYBILLA, "Bandit 2", "musket")
    with pytest.raises(NotAllowed):
        choose(out.state, "Dodge", by=SYBILLA, dice=(2,))
    out = choose(out.state, "Dodge", dice=(2,))
    assert "Bandit 1 AGI save to dodge: d20 2 vs AGI 8 → pass: the attack misses." in texts(out)
    bandit = out.state.find("Bandit 1")
    assert bandit.health == 8 and bandit.id in out.state.turns.acted  # the dodge spent his turn


def test_a_failed_dodge_is_hit_anyway():
    enc = alone(start(seed_cast()).state, "Sybilla", "Bandit 1")
    out = choose(attack(enc, SYBILLA, "Bandit 1", "musket", dice=(3,)).state, "Dodge", dice=(9,))
    assert out.state.find("Bandit 1").health == 5


def test_theobalds_counter_armour_2_makes_the_bandit_leader_hit_first():
    enc = alone(start(seed_cast()).state, "Theobald", "Bandit Leader")
    out = attack(enc, THEOBALD, "Bandit Leader", "spear", dice=(4,))  # Theobald's own damage die
    assert "Counter: battleaxe" in options(out.state.pending)
    out = choose(out.state, "Counter: battleaxe", dice=(5,))  # the Bandit Leader's
    lines = texts(out)
    assert (
        "Theobald rolls d6 4 → 4 after armour for Bandit Leader; Bandit Leader counters with d8 5 → 3 "
        "after armour for Theobald."
    ) in lines
    assert "Bandit Leader suffers more and is hit first." in lines
    assert "Theobald suffers no damage at all." in lines
    leader, theobald = out.state.find("Bandit Leader"), out.state.find("Theobald")
    assert (leader.health, leader.incapacitated) == (6, True)
    assert (theobald.health, theobald.grit) == (12, 3)
    assert leader.id in out.state.turns.acted


def test_a_counter_that_hurts_more_lands_first_and_a_survivor_still_strikes_back():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    out = choose(attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(2,)).state, "Counter: axe", dice=(6,))
    balthasar, bandit = out.state.find("Balthasar"), out.state.find("Bandit 1")
    assert "Balthasar suffers more and is hit first." in texts(out)
    assert (balthasar.grit, balthasar.health, balthasar.incapacitated) == (0, 9, True)
    assert bandit.health == 8  # Balthasar went down before his blow landed


def test_a_tie_hits_both_at_once():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    out = choose(attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(3,)).state, "Counter: axe", dice=(3,))
    assert "A tie: both are hit at once." in texts(out)
    assert out.state.find("Balthasar").grit == 0 and out.state.find("Bandit 1").health == 5


def test_a_tie_with_a_hidden_side_does_not_say_so():
    # a tie of what each took after armour, beside the raw die, would give the hidden armour away
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    bandit = enc.find("Bandit 1")
    enc = enc.with_combatant(bandit.but(hidden=True))
    out = choose(attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(3,)).state, "Counter: axe", dice=(3,))
    assert "A tie: both are hit at once." not in texts(out)
    assert "Both strike at once: whoever suffers more after armour is hit first." in texts(out)
    assert out.state.find("Balthasar").grit == 0 and out.state.find("Bandit 1").health == 5


# Seed: "Barriers completely block attacks. If a character peaks behind cover to attack, they can be still
# countered and the barrier only counts as cover." Cover: "The target's armour value is increased by 1 (as
# usual never above 3)". `peek`: the attacker peeks out from behind cover, so a counter meets it as cover.


def test_a_counter_on_an_attacker_peeking_from_cover_meets_the_cover():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    assert SYSTEM.command("attack", BALTHASAR, {"target": "Bandit 1", "options": "peek"}).peek
    out = choose(attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(3,), peek=True).state, "Counter: axe", dice=(4,))
    lines = texts(out)
    assert (
        "Balthasar rolls d6 3 → 3 after armour for Bandit 1; Bandit 1 counters with d6 4 → 3 after armour "
        "for Balthasar."
    ) in lines
    assert "A tie: both are hit at once." in lines  # 4 − cover 1 = 3 against 3
    assert "Balthasar: 4 damage; − armour 1 (cover) = 3; grit soaks 3 (grit 0/3)." in lines
    balthasar, bandit = out.state.find("Balthasar"), out.state.find("Bandit 1")
    assert (balthasar.health, balthasar.incapacitated) == (12, False)
    assert bandit.incapacitated  # his cover is not the attacker's: 3 damage, no armour


def test_without_peek_the_counter_meets_no_cover():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    out = choose(attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(3,)).state, "Counter: axe", dice=(4,))
    lines = texts(out)
    assert "Balthasar suffers more and is hit first." in lines
    assert "Balthasar: 4 damage; grit soaks 3 (grit 0/3); health 12 → 11; critical damage: incapacitated." in lines
    assert out.state.find("Bandit 1").health == 8


def test_a_peeking_attackers_armour_with_cover_never_exceeds_3():
    enc = alone(start(seed_cast()).state, "Theobald", "Bandit 1")
    enc = enc.update(enc.find("Theobald").id, armour=3)
    out = choose(attack(enc, THEOBALD, "Bandit 1", "spear", dice=(2,), peek=True).state, "Counter: axe", dice=(5,))
    lines = texts(out)
    assert "A tie: both are hit at once." in lines  # 5 − armour 3 = 2 against 2, not 5 − 4
    assert "Theobald: 5 damage; − armour 3 (cover) = 2; grit soaks 2 (grit 1/3)." in lines


def test_a_counter_on_a_manoeuvre_from_cover_meets_the_cover_too():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    out = attack(enc, BALTHASAR, "Bandit 1", mode="grapple", peek=True)
    out = choose(out.state, "Counter: axe", dice=(4, 20))  # the counter's damage, then his STR save
    assert "Balthasar: 4 damage; − armour 1 (cover) = 3; grit soaks 3 (grit 0/3)." in texts(out)


def test_hiding_behind_a_willing_ally_makes_them_the_target_and_they_may_react():
    enc = start(seed_cast()).state
    enc = mark_acted(give_turn(enc, "Bandit 1"), "Bandit 2", "Bandit 3", "Bandit Leader", "Theobald")
    out = attack(enc, GM, "Balthasar", "axe")
    assert out.state.pending.users == (BALTHASAR_ID, SYBILLA_ID)
    assert "Guard: Sybilla" in options(out.state.pending)
    out = choose(out.state, "Hide behind: Sybilla", by=BALTHASAR)
    assert out.state.pending.chooser == out.state.find("Sybilla").id
    assert "Hide behind: Balthasar" in options(out.state.pending)  # willing allies, even if they acted
    out = choose(out.state, "Dodge", by=SYBILLA, dice=(4,))
    acted = out.state.turns.acted
    assert out.state.find("Balthasar").id in acted and out.state.find("Sybilla").id in acted
    assert out.state.find("Sybilla").health == 10 and out.state.find("Balthasar").health == 12


def test_a_target_may_hide_behind_an_enemy_an_ally_holds_not_only_one_it_holds_itself():
    # Seed: "It is only possible to hide behind a willing ally or a currently grabbed enemy." Grabbed by
    # anyone: Theobald holds Bandit 1, Sybilla ducks behind him; an enemy nobody holds is no shield.
    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Bandit 1").id, grabbed_by=enc.find("Theobald").id)
    enc = mark_acted(give_turn(enc, "Bandit 2"), "Bandit 3", "Bandit Leader", "Balthasar", "Theobald")
    out = attack(enc, GM, "Sybilla", "axe", dice=(5,))
    assert "Hide behind: Bandit 1" in options(out.state.pending)
    assert "Hide behind: Bandit 3" not in options(out.state.pending)
    out = choose(out.state, "Hide behind: Bandit 1", by=SYBILLA)
    assert "Sybilla hides behind Bandit 1, who becomes the target (they swap places)." in texts(out)
    bandit = out.state.find("Bandit 1")
    assert bandit.health == 3 and bandit.grabbed_by == out.state.find("Theobald").id  # Theobald keeps hold
    assert out.state.find("Sybilla").health == 10
    # Nobody near the target (`alone`): no ally, so no enemy an ally holds, to hide behind.
    lonely = attack(enc, GM, "Sybilla", "axe", dice=(5,), alone=True)
    assert not any(o.startswith("Hide behind") for o in options(lonely.state.pending))


def test_a_nearby_ally_guards_and_takes_the_blow_without_dodging():
    enc = start(seed_cast()).state
    enc = mark_acted(give_turn(enc, "Bandit 1"), "Bandit 2", "Bandit 3", "Bandit Leader", "Balthasar")
    out = attack(enc, GM, "Sybilla", "axe", dice=(5,))
    assert options(out.state.pending)[-1] == "Guard: Theobald"
    assert out.state.pending.users == (SYBILLA_ID, THEOBALD_ID)
    out = choose(out.state, "Guard: Theobald", by=THEOBALD)
    assert "Theobald guards Sybilla and becomes the target." in texts(out)
    assert out.state.find("Theobald").grit == 0 and out.state.find("Sybilla").grit == 2
    assert out.state.find("Theobald").id in out.state.turns.acted
    assert out.state.pending is None


def stored_before_keys(state):
    """The state as it was stored before options had keys: each option its label alone (default
    and owners by label too), and what each offers kept by label."""
    data = state.model_dump(mode="json")
    pending = state.pending
    label = {key: english(text) for key, text in zip(pending.keys, pending.labels, strict=True)}
    data["pending"] = {
        **{k: v for k, v in data["pending"].items() if k != "former_signature"},
        "options": list(label.values()),
        "default": label[pending.default],
        "owners": {label[k]: v for k, v in pending.owners.items()},
    }
    context = data["pending"]["context"]
    context["offered"] = {label[k]: v for k, v in context["offered"].items()}
    return type(state).model_validate_json(json.dumps(data))


def templates(text: Text) -> list[str | Plural]:
    """Every template said in `text`."""
    return [node.asked for node in walk(text) if isinstance(node, Phrase)]


def test_a_reaction_asked_before_options_had_keys_is_answered_as_the_same_option():
    enc = start(seed_cast()).state
    enc = mark_acted(give_turn(enc, "Bandit 1"), "Bandit 2", "Bandit 3", "Bandit Leader", "Balthasar")
    asked = attack(enc, GM, "Sybilla", "axe", dice=(5,)).state
    assert templates(asked.pending.labels[-1]) == ["Guard: {who}"]
    stored = stored_before_keys(asked)
    assert options(stored.pending) == options(asked.pending)
    assert stored.pending.default == "none" and stored.pending.signature != asked.pending.signature
    for state in (asked, stored):
        index = options(state.pending).index("Guard: Theobald")
        out = apply(state, Choose(by=GM, pending_id=state.pending.id, index=index, signature=state.pending.signature))
        assert "Theobald guards Sybilla and becomes the target." in texts(out)
    out = apply(stored, Choose(by=GM, pending_id=stored.pending.id, option="Dodge"))
    assert any("to dodge" in line for line in texts(out))


def test_a_reaction_is_answered_by_its_key():
    enc = start(seed_cast()).state
    enc = mark_acted(give_turn(enc, "Bandit 1"), "Bandit 2", "Bandit 3", "Bandit Leader", "Balthasar")
    asked = attack(enc, GM, "Sybilla", "axe", dice=(5,)).state
    guard = f"guard:{asked.find('Theobald').id}"
    assert guard in asked.pending.keys and "none" in asked.pending.keys
    out = apply(asked, Choose(by=GM, pending_id=asked.pending.id, option=guard))
    assert "Theobald guards Sybilla and becomes the target." in texts(out)


def test_unaware_targets_cannot_react_and_concealed_attackers_allow_no_reaction():
    enc = alone(start(seed_cast()).state, "Sybilla", "Bandit 1")
    out = attack(enc, SYBILLA, "Bandit 1", "musket", unaware=True, dice=(3,))
    assert out.state.pending is None and out.state.find("Bandit 1").health == 5
    enc = give_turn(start(seed_cast()).state, "Sybilla")
    enc = enc.update(enc.find("Sybilla").id, concealed=True)
    out = attack(enc, SYBILLA, "Bandit 1", "musket", dice=(3,))
    assert out.state.pending is None
    assert "Sybilla is revealed by the attack." in texts(out)
    assert not out.state.find("Sybilla").concealed


def test_a_character_who_has_acted_is_hit_at_once():
    enc = mark_acted(
        give_turn(start(seed_cast()).state, "Theobald"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader"
    )
    out = attack(enc, THEOBALD, "Bandit 2", "spear", dice=(1,))
    assert out.state.pending is None and out.state.find("Bandit 2").health == 7


def test_an_opportunity_attack_spends_the_attackers_turn():
    enc = start(seed_cast()).state
    enc = mark_acted(give_turn(enc, "Balthasar"), "Sybilla", "Theobald", "Bandit 2", "Bandit 3", "Bandit Leader")
    out = apply(enc, OpportunityAttack(by=GM, actor="Bandit 1", targets=("Balthasar",), weapon="axe", dice=(2,)))
    assert "opportunity attack" in texts(out)[0]
    assert out.state.find("Bandit 1").id in out.state.turns.acted
    assert out.state.find("Balthasar").grit == 1
    with pytest.raises(InvalidInput, match="already acted"):
        apply(out.state, OpportunityAttack(by=GM, actor="Bandit 1", targets=("Balthasar",), weapon="axe", dice=(2,)))


def test_an_attack_stunt_accepted_replaces_the_attack():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    enc = enc.update(enc.find("Bandit 1").id, health=3)
    out = attack(
        enc, BALTHASAR, "Bandit 1", "sword", stunt="disarmed and incapacitated until the end of the stretch", dice=(2,)
    )
    assert out.state.pending.kind == "stunt" and options(out.state.pending) == ("Accept", "Take the attack")
    accepted = choose(out.state, "Accept")
    assert accepted.state.pending is None and accepted.state.find("Bandit 1").health == 3
    assert "accepts: disarmed and incapacitated" in texts(accepted)[1]
    refused = choose(out.state, "Take the attack")
    assert refused.state.pending.kind == "reaction"
    hit = choose(refused.state, "No reaction")
    assert hit.state.find("Bandit 1").health == 1


def test_an_attack_stunt_is_answered_by_its_key():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    asked = attack(enc, BALTHASAR, "Bandit 1", "sword", stunt="knocked prone", dice=(2,)).state
    assert asked.pending.keys == ("accept", "refuse") and asked.pending.default == "refuse"
    assert "accepts: knocked prone" in texts(answer_by_key(asked, "accept"))[1]
    assert answer_by_key(asked, "refuse").state.pending.kind == "reaction"


def test_nobody_reacts_twice_to_one_attack_and_only_one_target_counters_a_blast():
    enc = seed_cast()
    from tests.rules.test_factions_helpers import add

    enc = add(enc, "Alchemist", "weapons='firebomb:d6:2:blast'")
    enc = start(enc).state
    enc = mark_acted(give_turn(enc, "Alchemist"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")
    out = attack(enc, GM, ["Balthasar", "Sybilla"], "firebomb", dice=(5,))
    out = choose(out.state, "Counter: sword", by=BALTHASAR, dice=(1,))
    assert out.state.pending.chooser == out.state.find("Sybilla").id
    assert not any(o.startswith("Counter") for o in options(out.state.pending))
    assert not any(o.endswith("Balthasar") for o in options(out.state.pending))
    out = choose(out.state, "No reaction", by=SYBILLA)
    # one blast roll (5) for both, then Balthasar's counter (1): he suffers more, is hit first and goes down
    balthasar, sybilla = out.state.find("Balthasar"), out.state.find("Sybilla")
    assert (balthasar.grit, balthasar.health, balthasar.incapacitated) == (0, 10, True)
    assert (sybilla.grit, sybilla.health, sybilla.incapacitated) == (0, 7, True)
    assert out.state.find("Alchemist").health == 8


# Seed: "Non-lethal attacks […] can be dodged and countered and can be used to counter. If a normal attack is
# countered by a non-lethal attack, or viceversa, the non-lethal attack is resolved last. If a non-lethal attack
# is countered by a non-lethal attack, the counter is resolved last."


def test_a_nearby_attacker_may_be_countered_with_a_grapple_a_shove_or_a_disarm():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    near = options(attack(enc, BALTHASAR, "Bandit 1", "sword").state.pending)
    assert {"Counter: axe", "Counter: grapple", "Counter: shove", "Counter: disarm"} <= set(near)
    enc = alone(start(seed_cast()).state, "Sybilla", "Bandit 1")
    far = options(attack(enc, SYBILLA, "Bandit 1", "musket", zones=2).state.pending)
    assert "Counter: bow" in far and not {"Counter: grapple", "Counter: shove", "Counter: disarm"} & set(far)


def test_a_larger_attacker_cannot_be_countered_with_a_manoeuvre():
    # Seed: "Larger characters can't be disarmed, shoved, or grabbed by smaller characters."
    enc = add(seed_cast(), "Ogre", "size=large health=20 weapons='club:d8'")
    enc = alone(start(enc).state, "Ogre", "Bandit 1")
    offered = options(attack(enc, GM, "Bandit 1", "club").state.pending)
    assert "Counter: axe" in offered and not any(o in offered for o in ("Counter: grapple", "Counter: disarm"))


def test_a_blow_countered_by_a_grapple_lands_first_and_the_grapple_after():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    enc = enc.update(enc.find("Bandit 1").id, grit=3, max_grit=3)
    enc = enc.update(enc.find("Balthasar").id, strength=1)
    out = choose(attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(2,)).state, "Counter: grapple")
    lines = texts(out)
    assert "Bandit 1 counters with a grapple: it is resolved last." in lines
    hit = lines.index("Bandit 1: 2 damage; grit soaks 2 (grit 1/3).")
    resist = next(i for i, line in enumerate(lines) if line.startswith("Balthasar STR save to resist"))
    assert hit < resist and "→ fail" in lines[resist]
    assert out.state.find("Balthasar").grabbed_by == out.state.find("Bandit 1").id
    assert out.state.find("Bandit 1").id in out.state.turns.acted


def test_a_counterer_taken_down_by_the_blow_never_grapples():
    enc = alone(start(seed_cast()).state, "Balthasar", "Bandit 1")
    out = choose(attack(enc, BALTHASAR, "Bandit 1", "sword", dice=(2,)).state, "Counter: grapple")
    assert "Bandit 1 is down: the grapple fails." in texts(out)
    assert out.state.find("Balthasar").grabbed_by is None


def test_a_grapple_countered_by_a_disarm_is_resolved_before_the_counter():
    enc = alone(start(seed_cast()).state, "Theobald", "Bandit 1")
    enc = enc.update(enc.find("Theobald").id, strength=1)
    out = attack(enc, THEOBALD, "Bandit 1", mode="grapple")
    out = choose(out.state, "Counter: disarm", dice=(5,))  # the bandit's STR save against the grapple
    lines = texts(out)
    resisted = lines.index("Bandit 1 resists the grapple.")
    disarm = next(i for i, line in enumerate(lines) if line.startswith("Theobald STR save to resist"))
    assert resisted < disarm
    assert out.state.find("Theobald").dropped == ("spear",)


def test_a_non_lethal_counter_fails_when_the_attack_grabs_the_counterer_first():
    enc = alone(start(seed_cast()).state, "Theobald", "Bandit 1")
    out = attack(enc, THEOBALD, "Bandit 1", mode="grapple")
    out = choose(out.state, "Counter: shove", dice=(15,))
    lines = texts(out)
    assert "Bandit 1 STR save to resist: d20 15 vs STR 10 → fail." in lines
    assert "Bandit 1 is held by Theobald and cannot act: the shove fails." in lines
    assert out.state.find("Bandit 1").grabbed_by == out.state.find("Theobald").id


def test_an_npcs_choice_is_any_current_gms_and_not_a_former_gms_who_started_the_fight():
    enc = alone(start(seed_cast()).state, "Sybilla", "Bandit 1")
    asked = attack(enc, SYBILLA, "Bandit 1", "musket").state
    assert asked.pending.users == (GM_ID,)  # whoever started the fight is still the one asked
    stepped_down = Actor(user_id=GM_ID)  # the GM role taken from them since
    with pytest.raises(NotAllowed, match="not yours to make"):
        choose(asked, "Dodge", by=stepped_down, dice=(2,))
    # ... even while playing a character of their own in the fight
    playing = seed_cast(add(new(), "Mauve", "agi=8 weapons='axe:d6'", user=GM_ID))
    playing = attack(alone(start(playing).state, "Sybilla", "Bandit 1"), SYBILLA, "Bandit 1", "musket").state
    with pytest.raises(NotAllowed, match="not yours to make"):
        choose(playing, "Dodge", by=stepped_down, dice=(2,))
    co_gm = Actor(user_id=99, is_gm=True)  # a GM who did not start it answers for the bandit
    out = choose(asked, "Dodge", by=co_gm, dice=(2,))
    assert "Bandit 1 AGI save to dodge: d20 2 vs AGI 8 → pass: the attack misses." in texts(out)


def test_a_larger_guard_or_shield_cannot_be_grabbed_shoved_or_disarmed_by_the_smaller_attacker():
    # Seed: "Larger characters can't be disarmed, shoved, or grabbed by smaller characters." A larger ally
    # who guards (or is hidden behind) becomes the target of the manoeuvre, which then does nothing.
    enc = add(seed_cast(), "Troll", "size=large health=30 str=1 weapons='club:d8'", user=THEOBALD_ID + 7)
    enc = start(enc).state
    enc = mark_acted(give_turn(enc, "Bandit 1"), "Bandit 2", "Bandit 3", "Bandit Leader", "Balthasar", "Theobald")
    asked = attack(enc, GM, "Sybilla", mode="grapple").state
    guarded = choose(asked, "Guard: Troll", by=player(THEOBALD_ID + 7))
    assert "Troll is larger than Bandit 1: it cannot be disarmed, shoved or grabbed." in texts(guarded)
    assert guarded.state.find("Troll").grabbed_by is None
    assert not any("STR save" in line for line in texts(guarded))
    hidden = choose(asked, "Hide behind: Troll", by=SYBILLA)
    shielded = choose(hidden.state, "No reaction", by=player(THEOBALD_ID + 7))
    assert "Troll is larger than Bandit 1: it cannot be disarmed, shoved or grabbed." in texts(shielded)
    assert shielded.state.find("Troll").grabbed_by is None


def test_with_more_allies_near_than_one_menu_holds_every_guard_is_offered_after_the_targets_reactions():
    """Thirty militiamen (the GM's) stand by Sybilla: each may guard her and she may hide behind each. Nothing is
    dropped (the menu shows the first 25, /choose reaches the rest), and the target's own reactions and the
    guards (each an ally's own call) come before the cover that does not fit: a long list of names to hide
    behind does not push them out of the menu."""
    enc = add(seed_cast(), "Militia", "weapons='club:d4'", side="players", count=30)
    enc = give_turn(start(enc).state, "Bandit 1")
    pending = attack(enc, GM, "Sybilla", "axe").state.pending
    shown = options(pending)
    allies = ["Balthasar", "Theobald"] + [f"Militia {n}" for n in range(1, 31)]
    assert shown[:2] == ("No reaction", "Dodge")
    guards = [o for o in shown if o.startswith("Guard: ")]
    hides = [o for o in shown if o.startswith("Hide behind: ")]
    assert sorted(guards) == sorted(f"Guard: {a}" for a in allies)
    assert sorted(hides) == sorted(f"Hide behind: {a}" for a in allies)
    named = [o for o in shown if o not in guards and o not in hides]
    assert named == list(shown[: len(named)])
    # 8 reactions of her own and 32 guards: no room is left in a menu of 25 for cover, which comes last.
    assert len(named) + len(guards) > 25 and list(shown) == named + guards + hides
    out = choose(attack(enc, GM, "Sybilla", "axe").state, "Guard: Militia 30")
    assert "Militia 30 guards Sybilla and becomes the target." in texts(out)


def test_with_a_dozen_allies_near_the_menu_keeps_every_guard_and_fills_what_is_left_with_cover():
    enc = add(seed_cast(), "Militia", "weapons='club:d4'", side="players", count=12)
    shown = options(attack(give_turn(start(enc).state, "Bandit 1"), GM, "Sybilla", "axe").state.pending)
    menu = shown[:25]
    assert len(shown) == 8 + 14 + 14  # her own reactions, a guard and a cover for each ally
    assert sum(o.startswith("Guard: ") for o in menu) == 14 and menu[:2] == ("No reaction", "Dodge")
    assert sum(o.startswith("Hide behind: ") for o in menu) == 3
