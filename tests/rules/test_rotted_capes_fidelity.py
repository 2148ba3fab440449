"""Rotted Capes: rules the seed states in one sentence each, checked against that sentence (seed 000):
Unconscious targets, Dodge, Weakened, what ends Charmed and Grappled, Assist, Pace 0, the end of a scene
and a Horde's split attack."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, Choose
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed
from rules.randomness import Chance
from rules.said import english
from rules.system import Resting
from rules.systems.rotted_capes import SYSTEM
from rules.systems.rotted_capes.between import lasting
from rules.systems.rotted_capes.model import Condition
from tests.rules.test_rotted_capes import ALICE, BOB, GM, acting, begin, cmd, end_turn, join, new, run, summary, texts
from tests.rules.test_rotted_capes import who as find


def labels(enc, name):
    return [english(c.label()) for c in find(enc, name).conditions]


# --- Unconscious ---------------------------------------------------------------------------------
def knocked_out_brute():
    """Nova (attack +0) next to a Brute at 0 Stamina, Avoidance and Willpower 15, Fortitude 12."""
    enc = join(new(), "Nova", 15, attack=0)
    enc = begin(join(enc, "Brute", 5, avoidance=15, willpower=15, fortitude=12, stamina=20))
    return run(enc, "damage", target="Brute", amount="25", options="ap")


def test_attacks_on_an_unconscious_target_hit_its_avoidance_and_willpower():
    # "You automatically fail Avoidance and Willpower checks, and attacks against you from within the same
    # area are critical hits."
    enc = knocked_out_brute()
    assert labels(enc, "Brute")[0] == "Unconscious"
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="8")
    assert texts(out)[0].startswith(
        "Nova attacks Brute: d20 8 = 8 vs Avoidance 15: hit (Unconscious: Avoidance fails automatically; in the "
        "same area: critical); 1 = 1 Stamina; critical: 1 Wound"
    )
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="8", defense="willpower")
    assert (
        "vs Willpower 15: hit (Unconscious: Willpower fails automatically; in the same area: critical)"
        in (texts(out)[0])
    )
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="8", options="ranged")
    assert "vs Avoidance 15: hit (Unconscious: Avoidance fails automatically); 1 = 1 Stamina (" in texts(out)[0]
    # Fortitude is not failed automatically, and a natural 1 misses whatever the target
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="8", defense="fortitude")
    assert "vs Fortitude 12: miss" in texts(out)[0]
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="1")
    assert "vs Avoidance 15: natural 1, miss" in texts(out)[0]


# --- Dodge ---------------------------------------------------------------------------------------
def dodging_nova():
    enc = join(new(), "Nova", 15, avoidance=15, stamina=20)
    enc = begin(join(enc, "Sniper", 5, attack=4))
    enc = run(enc, "act", ALICE, action="dodge")
    return end_turn(enc, ALICE).state


def test_dodge_needs_the_dodger_to_see_the_attack_coming():
    # "You must be able to see where the Attack is coming from to benefit from this Action"
    enc = dodging_nova()
    hidden = run(enc, "condition_add", target="Sniper", condition="Hidden")
    out = cmd(hidden, "attack", GM, target="Nova", damage="1", dice="3 17")
    assert "d20 adv (3, 17) 17 + 4 = 21 vs Avoidance 15: hit" in texts(out)[0]
    assert "[adv: attacker hidden]" in texts(out)[0]
    blind = run(enc, "condition_add", target="Nova", condition="Blinded")
    out = cmd(blind, "attack", GM, target="Nova", damage="1", dice="3 17")
    assert "[adv: target blinded]" in texts(out)[0]
    out = cmd(enc, "attack", GM, target="Nova", damage="1", dice="3 17", options="unaware")
    assert "[adv: target cannot see the attacker]" in texts(out)[0]
    # a partial blindness still sees the attack coming
    partial = run(enc, "condition_add", target="Nova", condition="Blinded", tags="Partial")
    out = cmd(partial, "attack", GM, target="Nova", damage="1", dice="3 17")
    assert "d20 dis (3, 17) 3 + 4 + 2 situation = 9 vs Avoidance 15: miss [dis: target dodging]" in texts(out)[0]


# --- Weakened ------------------------------------------------------------------------------------
def weakened_brute(*weaknesses):
    enc = join(new(), "Nova", 15, attack=0)
    enc = begin(join(enc, "Brute", 5, avoidance=10, fortitude=13, willpower=12, stamina=40))
    for tags in weaknesses:
        enc = run(enc, "condition_add", target="Brute", condition="Weakened", tags=tags)
    return enc


def against(enc, defense):
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", defense=defense, dice="1")
    line = texts(out)[0]
    return int(line.split(f"vs {defense.capitalize()} ")[1].split(":")[0])


def test_a_crippling_weakness_halves_the_score():
    # "Severity (Mild = –1, Severe = –4, Crippling = score halved)": 13 halved, rounded down as half
    # Stamina is at the end of a scene
    assert against(weakened_brute("Fortitude, Crippling"), "fortitude") == 6
    assert against(weakened_brute("Fortitude, Severe"), "fortitude") == 9
    assert against(weakened_brute("Fortitude, Mild"), "fortitude") == 12
    assert against(weakened_brute("Fortitude"), "fortitude") == 11


def test_weaknesses_on_two_stats_both_stand_and_on_one_stat_the_higher_penalty_counts():
    # "Multiple instances affecting the same stat do not stack; instead, take the higher Penalty."
    enc = weakened_brute("Fortitude, Severe", "Willpower")
    assert labels(enc, "Brute") == ["Weakened (Fortitude, Severe)", "Weakened (Willpower)"]
    assert (against(enc, "fortitude"), against(enc, "willpower")) == (9, 10)
    for order in (("Fortitude, Severe", "Fortitude, Mild"), ("Fortitude, Mild", "Fortitude, Severe")):
        assert against(weakened_brute(*order), "fortitude") == 9
    # the same weakness again is one instance, with the new duration
    enc = weakened_brute("Fortitude, Mild", "fortitude, mild")
    assert labels(enc, "Brute") == ["Weakened (fortitude, mild)"]


def test_saving_against_one_weakness_leaves_the_other():
    enc = weakened_brute("Willpower")
    enc = run(
        enc, "condition_add", target="Nova", condition="Weakened", tags="Dexterity", duration="save", options="dc=5"
    )
    enc = run(enc, "condition_add", target="Nova", condition="Weakened", tags="Constitution", options="dc=5")
    out = end_turn(enc, ALICE, dice=(15,))
    # a CON save: the Constitution weakness counts on it, then stays
    assert "Nova saves against Weakened (Dexterity): d20 15 − 2 = 13 vs DC 5: success — it ends." in texts(out)
    assert labels(out.state, "Nova") == ["Weakened (Constitution)"]


def test_a_save_names_which_of_several_weaknesses_it_is_against():
    # Each Weakened has its own save ("Multiple instances affecting the same stat do not stack"): a hand-rolled
    # save must say which one it ends.
    enc = begin(join(new(), "Nova", 15, attack=0))
    for stat in ("Dexterity", "Constitution"):
        enc = run(enc, "condition_add", target="Nova", condition="Weakened", tags=stat, duration="save", options="dc=5")
    with pytest.raises(InvalidInput, match="more than once: name the one"):
        cmd(enc, "save", ALICE, kind="weakened", dice="15")
    with pytest.raises(InvalidInput, match="no Weakened"):
        cmd(enc, "save", ALICE, kind="weakened strength", dice="15")
    out = cmd(enc, "save", ALICE, kind="Weakened (Dexterity)", dice="15")
    assert "Nova shakes off Weakened (Dexterity)." in texts(out)
    assert labels(out.state, "Nova") == ["Weakened (Constitution)"]
    out = cmd(enc, "save", ALICE, kind="weakened constitution", dice="15")
    assert labels(out.state, "Nova") == ["Weakened (Dexterity)"]


def doubly_weakened_nova(*weaknesses):
    enc = begin(join(new(), "Nova", 15, attack=0))
    for tags in weaknesses:
        enc = run(enc, "condition_add", target="Nova", condition="Weakened", tags=tags, duration="save", options="dc=5")
    return enc


@pytest.mark.parametrize(
    ("kind", "ends", "left"),
    [
        ("weakened dexterity", "Weakened (Dexterity)", "Weakened (Dexterity, Severe)"),
        ("Weakened (Dexterity)", "Weakened (Dexterity)", "Weakened (Dexterity, Severe)"),
        ("weakened dexterity severe", "Weakened (Dexterity, Severe)", "Weakened (Dexterity)"),
        ("Weakened (Dexterity, Severe)", "Weakened (Dexterity, Severe)", "Weakened (Dexterity)"),
        ("weakened (severe dexterity)", "Weakened (Dexterity, Severe)", "Weakened (Dexterity)"),
        ("weakened severe", "Weakened (Dexterity, Severe)", "Weakened (Dexterity)"),
    ],
)
def test_a_save_names_either_weakness_on_one_stat_as_typed_or_as_shown(kind, ends, left):
    # "another severity, both stand": the plain one is named by its own tags, the Severe one by all of its tags
    # in any order, or by the word only it holds; a label as the bot shows it can be typed back
    enc = doubly_weakened_nova("Dexterity", "Dexterity, Severe")
    out = cmd(enc, "save", ALICE, kind=kind, dice="15")
    assert f"Nova shakes off {ends}." in texts(out)
    assert labels(out.state, "Nova") == [left]


def test_a_save_that_names_no_one_weakness_is_refused_with_an_example_that_names_one():
    enc = doubly_weakened_nova("Dexterity", "Dexterity, Severe")
    for kind in ("weakened", "weakened dex"):
        with pytest.raises(InvalidInput) as refused:
            cmd(enc, "save", ALICE, kind=kind, dice="15")
        assert english(refused.value.said) == (
            "Nova is Weakened more than once: name the one to save against, e.g. weakened Dexterity."
        )
    out = cmd(enc, "save", ALICE, kind="weakened Dexterity", dice="15")  # the example, typed back, is taken
    assert labels(out.state, "Nova") == ["Weakened (Dexterity, Severe)"]
    with pytest.raises(InvalidInput) as refused:
        cmd(enc, "save", ALICE, kind="weakened dexterity -2", dice="15")
    assert english(refused.value.said) == "Nova has no Weakened (dexterity, -2) to save against."
    # the example is a full tag list even where the first tag alone would name both
    enc = doubly_weakened_nova("Severe, Dexterity", "Severe, Strength")
    with pytest.raises(InvalidInput, match="e.g. weakened Severe Dexterity") as refused:
        cmd(enc, "save", ALICE, kind="weakened severe", dice="15")
    out = cmd(enc, "save", ALICE, kind="weakened Severe Dexterity", dice="15")
    assert labels(out.state, "Nova") == ["Weakened (Severe, Strength)"]


def test_a_save_against_weaknesses_alike_in_tags_takes_the_first():
    enc = doubly_weakened_nova()
    nova = find(enc, "Nova")
    twins = (
        Condition(name="Weakened", tags=("Dexterity",), until="save", dc=5),
        Condition(name="Weakened", tags=("dexterity",), until="save", dc=20),
    )
    enc = enc.update(nova.id, conditions=twins)
    for kind in ("weakened", "weakened dexterity"):
        out = cmd(enc, "save", ALICE, kind=kind, dice="15")
        assert "Nova shakes off Weakened (Dexterity)." in texts(out)  # DC 5: the first one's
        assert labels(out.state, "Nova") == ["Weakened (dexterity)"]


def test_an_unleashed_villains_automatic_save_names_one_weakness_the_same_way():
    enc = begin(join(join(new(), "Nova", 15, attack=5), "Dr Rot", 18, stamina=30, wounds=3))
    enc = run(enc, "act", action="unleash", target="Dr Rot").but(pool=1)
    for tags in ("Dexterity", "Dexterity, Severe"):
        enc = run(
            enc, "condition_add", target="Dr Rot", condition="Weakened", tags=tags, duration="save", options="dc=5"
        )
    out = cmd(enc, "save", actor="Dr Rot", kind="Weakened (Dexterity)", options="auto")
    assert "against Weakened (Dexterity) (DC 5) succeeds automatically" in texts(out)[0]
    assert labels(out.state, "Dr Rot") == ["Weakened (Dexterity, Severe)"]


def test_removing_one_of_several_weaknesses_names_it_as_a_save_does():
    enc = doubly_weakened_nova("Dexterity", "Dexterity, Severe", "Strength")
    out = cmd(enc, "condition_remove", target="Nova", condition="Weakened (Dexterity, Severe)")
    assert texts(out) == ["Nova is no longer Weakened (Dexterity, Severe)."]
    assert labels(out.state, "Nova") == ["Weakened (Dexterity)", "Weakened (Strength)"]
    out = cmd(enc, "condition_remove", target="Nova", condition="weakened dexterity")
    assert labels(out.state, "Nova") == ["Weakened (Dexterity, Severe)", "Weakened (Strength)"]
    with pytest.raises(InvalidInput, match="name the one to remove, e.g. weakened Dexterity"):
        cmd(enc, "condition_remove", target="Nova", condition="weakened dex")
    with pytest.raises(InvalidInput, match=r"Nova is not Weakened \(willpower\)"):
        cmd(enc, "condition_remove", target="Nova", condition="weakened willpower")
    out = cmd(enc, "condition_remove", target="Nova", condition="weakened")  # the name alone: all of them
    assert labels(out.state, "Nova") == []


# --- Charmed and Grappled ------------------------------------------------------------------------
def charmed_nova():
    enc = join(new(), "Nova", 15, avoidance=10, stamina=20)
    enc = join(enc, "Bolt", 12, attack=2)
    enc = join(enc, "Siren", 10, attack=4)
    enc = begin(join(enc, "Thug", 8, attack=2))
    return run(enc, "condition_add", target="Nova", condition="Charmed", tags="Seduction", options="source=Siren")


def test_charmed_ends_when_the_charmer_or_an_ally_of_theirs_attacks():
    # "the condition ends if the charmer or their allies attack you"
    enc = charmed_nova()
    out = cmd(enc, "attack", GM, actor="Siren", target="Nova", damage="2", dice="2")
    assert texts(out)[-1] == "Nova is no longer Charmed (Seduction): Siren attacks them."
    assert labels(out.state, "Nova") == []
    out = cmd(enc, "attack", GM, actor="Thug", target="Nova", damage="2", dice="15")
    assert texts(out)[-1] == "Nova is no longer Charmed (Seduction): Thug, an ally of Siren, attacks them."
    # Nova's own side attacking her is no ally of the charmer
    out = cmd(enc, "attack", BOB, actor="Bolt", target="Nova", damage="2", dice="15")
    assert labels(out.state, "Nova") == ["Charmed (Seduction)"]


def test_grappled_ends_when_the_grappler_is_incapacitated():
    # "The condition ends if the grappler is Incapacitated or you break free."
    enc = join(new(), "Nova", 15, attack=0)
    enc = join(enc, "Bolt", 12)
    enc = begin(join(enc, "Brute", 5, avoidance=10, fortitude=30, stamina=20, wounds=1))
    enc = run(enc, "condition_add", target="Nova", condition="Grappled", tags="Tentacle", options="source=Brute")
    enc = run(enc, "condition_add", target="Bolt", condition="Grappled", options="source=Net")
    out = cmd(enc, "damage", GM, target="Brute", amount="0", options="wounds=1")
    assert texts(out)[1:] == ["Nova is no longer Grappled (Tentacle): Brute is Incapacitated."]
    assert labels(out.state, "Nova") == [] and labels(out.state, "Bolt") == ["Grappled"]
    # a grappler knocked out drops what it holds too
    out = cmd(enc, "attack", ALICE, target="Brute", damage="30", dice="15")
    assert texts(out)[1:] == ["Nova is no longer Grappled (Tentacle): Brute is Unconscious."]


# --- Assist --------------------------------------------------------------------------------------
def bolt_assisted_nova():
    """Bolt assists Nova on his turn, which ends: Nova's turn, with advantage to spend."""
    enc = join(new(), "Bolt", 16)
    enc = join(enc, "Nova", 15, attack=0)
    enc = begin(join(enc, "Brute", 5, avoidance=10))
    enc = run(enc, "act", BOB, action="assist", target="Nova")
    return end_turn(enc, BOB).state


def test_an_assist_spent_on_a_save_is_gone_for_the_next_attack():
    # "gains Advantage on their next attack roll or ability check"
    enc = bolt_assisted_nova()
    enc = run(enc, "condition_add", target="Nova", condition="Ongoing Damage", options="damage=1 type=fire dc=30 end")
    out = end_turn(enc, ALICE, dice=(12, 15))
    assert "Nova saves against Ongoing Damage: d20 adv (12, 15) 15 + 0 = 15 vs DC 30: failure [adv: assisted]." in (
        texts(out)
    )
    enc = out.state
    assert acting(enc) == ["Brute"] and find(enc, "Nova").assisted_by == ()
    out = cmd(enc, "attack", ALICE, actor="Nova", target="Brute", damage="1", dice="17")
    assert texts(out)[0].startswith("Nova attacks Brute: d20 17 = 17 vs Avoidance 10: hit; ")


def test_an_assist_spent_on_the_interrupt_save_is_gone():
    enc = join(new(), "Bolt", 16)
    enc = join(enc, "Nova", 15, con=1)
    enc = begin(join(enc, "Brute", 5, attack=6))
    enc = run(enc, "act", BOB, action="assist", target="Nova")
    enc = end_turn(enc, BOB).state
    enc = run(enc, "act", ALICE, action="demanding", options='what="Shift" interruptible')
    enc = end_turn(enc, ALICE).state
    out = cmd(enc, "attack", GM, target="Nova", damage="4", dice="3 15")
    out = apply(out.state, Choose(by=ALICE, pending_id=out.state.pending.id, option="roll", dice=(4, 18)))
    assert texts(out)[1] == (
        "Nova CON save to keep Shift: d20 adv (4, 18) 18 + 1 = 19 vs DC 10: success [adv: assisted] — still going."
    )
    assert find(out.state, "Nova").assisted_by == ()


# --- Pace 0 --------------------------------------------------------------------------------------
def exhausted_nova(level=4):
    enc = join(new(), "Nova", 15, pace=4)
    enc = begin(join(enc, "Brute", 5))
    enc = run(enc, "condition_add", target="Nova", condition=f"Exhaustion {level}")
    return end_turn(end_turn(enc, ALICE).state, GM).state


def test_a_pace_worn_to_zero_still_dashes_one_area():
    # "If a creature's [pace] is reduced to 0, they can still move, but their Pace […] is reduced to 0, and
    # they must use the dash action to move 1 area."
    enc = exhausted_nova()
    assert find(enc, "Nova").economy.pace == 0
    out = cmd(enc, "act", ALICE, action="dash")
    assert texts(out) == ["Nova dashes: 1 area of movement left."]
    assert texts(cmd(out.state, "act", ALICE, action="move", options="areas=1")) == ["Nova moves 1 area (0 left)."]
    # Grappled: "Your Pace becomes 0, and you cannot benefit from bonuses to Pace"
    held = run(exhausted_nova(1), "condition_add", target="Nova", condition="Grappled")
    held = end_turn(end_turn(held, ALICE).state, GM).state
    with pytest.raises(NotAllowed, match="held fast"):
        cmd(held, "act", ALICE, action="dash")


def test_pace_lost_in_the_bearers_own_turn_is_lost_from_what_is_left():
    # Restrained: "Your Pace becomes 0"; Exhaustion's levels come off the Pace
    enc = exhausted_nova(1)  # Pace 3, Nova's turn
    enc = run(enc, "act", ALICE, action="move", options="areas=1")
    held = run(enc, "condition_add", target="Nova", condition="Restrained")
    with pytest.raises(NotAllowed, match="Nova has no Pace left this turn"):
        cmd(held, "act", ALICE, action="move", options="areas=1")
    with pytest.raises(NotAllowed, match="held fast"):
        cmd(held, "act", ALICE, action="dash")
    tired = run(enc, "condition_add", target="Nova", condition="Exhaustion 1")  # Pace 3 → 2: 2 left → 1
    assert find(tired, "Nova").economy.pace == 1
    with pytest.raises(NotAllowed, match="only 1 area of Pace left"):
        cmd(tired, "act", ALICE, action="move", options="areas=2")


def test_a_prone_character_with_pace_zero_cannot_stand():
    # "If your Pace is 0, you're stuck crawling unless a power helps you out."
    enc = run(exhausted_nova(), "act", ALICE, action="prone")
    with pytest.raises(NotAllowed, match="Pace is 0: they are stuck on the ground unless a power helps them up"):
        cmd(enc, "act", ALICE, action="stand")
    grappled = run(exhausted_nova(1), "condition_add", target="Nova", condition="Grappled")
    grappled = run(grappled, "act", ALICE, action="prone")
    with pytest.raises(NotAllowed, match="/encounter note"):
        cmd(grappled, "act", ALICE, action="stand")
    standing = run(exhausted_nova(1), "act", ALICE, action="prone")
    assert texts(cmd(standing, "act", ALICE, action="stand")) == ["Nova stands up (2 areas of Pace; 1 left)."]


# --- end of scene --------------------------------------------------------------------------------
def test_only_unconscious_from_stamina_loss_halves_stamina_at_the_end_of_a_scene():
    # "If you are Unconscious at the end of a scene due to stamina loss […] you regain half your total
    # Stamina instead."
    enc = join(new(), "Nova", 15, stamina=20)
    enc = begin(join(enc, "Brute", 5, stamina=9))
    enc = run(enc, "damage", target="Nova", amount="4")
    enc = run(enc, "condition_add", target="Nova", condition="Unconscious", options="source='Sleep Gas'")
    enc = run(enc, "damage", target="Brute", amount="9")
    assert labels(enc, "Brute") == ["Unconscious"]
    rested = run(enc, "act", GM, action="end scene")
    assert (find(rested, "Nova").stamina, find(rested, "Brute").stamina) == (20, 4)
    # the rest between fights reads the same rule
    for name, back in (("Nova", 20), ("Brute", 4)):
        c = find(enc, name)
        state = lasting(enc, c)
        r = Resting(name=name, owner_id=11, sheet=c.sheet.model_dump(), lasting=state)
        assert SYSTEM.rest("end_scene", (r,), {}, {}, Chance(1)).characters[0].lasting["stamina"] == back


# --- Horde ---------------------------------------------------------------------------------------
def horde_turn():
    enc = join(new(), "Nova", 15, avoidance=10, stamina=40)
    enc = join(enc, "Bolt", 14, avoidance=10, stamina=40)
    enc = begin(join(enc, "Zombie", 3, count=6, zombie="true", attack=1, damage="1d6", fortitude=5, wounds=1))
    enc = run(enc, "act", action="horde", target="Zombie")
    enc = end_turn(end_turn(enc, ALICE).state, BOB).state
    assert acting(enc) == ["Zombie Horde"]
    return enc


def test_a_horde_splits_its_attack_between_two_targets():
    # "Hordes may attack one or two targets […] if the Horde is splitting its attacks on two targets this
    # bonus is split by the number of creatures attacking each target."
    enc = horde_turn()
    out = cmd(enc, "attack", GM, target="Nova", dice="14 2", options="split=4")
    assert texts(out)[0].startswith("Zombie Horde attacks Nova: d20 14 + 1 + 6 horde = 21 vs Avoidance 10: hit")
    enc = out.state
    assert summary(enc, find(enc, "Zombie Horde").id)[1] == (
        "Split attack: 2 members left to attack a second target (no Action)"
    )
    with pytest.raises(NotAllowed, match="goes at another target than Nova"):
        cmd(enc, "attack", GM, target="Nova", dice="14 2", options="split=2")
    with pytest.raises(NotAllowed, match="has only 2 members left to attack a second target"):
        cmd(enc, "attack", GM, target="Bolt", dice="14 2", options="split=3")
    out = cmd(enc, "attack", GM, target="Bolt", dice="14 2", options="split=2")
    assert texts(out)[0].startswith("Zombie Horde attacks Bolt: d20 14 + 1 + 2 horde = 17 vs Avoidance 10: hit")
    with pytest.raises(NotAllowed, match="already used their Action"):
        cmd(out.state, "attack", GM, target="Bolt", dice="14 2", options="split=1")
    # an attack with every member leaves none for a second target
    whole = cmd(horde_turn(), "attack", GM, target="Nova", dice="14 2").state
    with pytest.raises(NotAllowed, match="already used their Action"):
        cmd(whole, "attack", GM, target="Bolt", dice="14 2", options="split=1")


def test_initiative_is_a_dexterity_check_with_the_rollers_conditions_and_wounds():
    # Initiative is "a Dexterity check"; the surprised are "Stunned (Lesser, Surprise)": "Disadvantage on all
    # rolls"; Wounded: a "penalty to all challenge rolls".
    out = apply(new(), AddCombatants(by=GM, name="Guard", sheet={"dex": "2"}, dice=(14, 5), surprised=True))
    assert "Guard initiative: d20 dis (14, 5) 5 + 2 = 7 [dis: stunned]" in texts(out)
    hero = AddCombatants(
        by=ALICE,
        name="Nova",
        sheet={"dex": "2", "wounds": "3"},
        npc=False,
        controller_id=ALICE.user_id,
        dice=(14,),
        lasting={"wounds": 1, "exhaustion": 3},
    )
    assert "Nova initiative: d20 14 + 2 − 3 wounds/exhaustion = 13" in texts(apply(new(), hero))


def test_a_second_weakness_is_announced_as_itself_not_as_the_first():
    enc = weakened_brute("Fortitude, Severe")
    out = cmd(
        enc, "condition_add", target="Brute", condition="Weakened", tags="Dexterity", duration="save", options="dc=13"
    )
    said = english(texts(out)[0])
    assert said.startswith("Brute is Weakened (Dexterity)") and "DC 13" in said and "Fortitude" not in said, said
    more = cmd(out.state, "condition_add", target="Brute", condition="Exhaustion 2")
    again = cmd(more.state, "condition_add", target="Brute", condition="Exhaustion 1")
    assert "Exhaustion 3" in english(texts(again)[0])  # levels add up, and the sum is said


# --- what a save is against -----------------------------------------------------------------------
def test_a_save_of_no_ability_defense_or_held_condition_is_refused_with_what_is_accepted():
    # The README's /save: an ability's save (Constitution unless another is named), a defense check such as
    # `kind:avoidance dc:15`, or a condition's own save (`kind:stunned`). A made-up kind rolled "BANANA save" +0.
    enc = begin(join(new(), "Nova", 15, con=1, saves="wis:2"))
    enc = run(enc, "condition_add", target="Nova", condition="Stunned", tags="Lesser", duration="save", options="dc=13")
    for typo in ("banana", "strawberry", "dexx"):
        with pytest.raises(InvalidInput) as refused:
            cmd(enc, "save", ALICE, kind=typo, dc=12, dice="15 15")
        said = str(refused.value)
        assert typo in said
        for accepted in ("str", "dex", "con", "int", "wis", "cha", "avoidance", "fortitude", "willpower", "stunned"):
            assert accepted in said
    assert (
        "Nova WIS save: d20 dis (15, 15) 15 + 2"  # named as a condition's save= names it
        in texts(cmd(enc, "save", ALICE, kind="wisdom", dc=12, dice="15 15"))[0]
    )
    assert "Nova AVOIDANCE save" in texts(cmd(enc, "save", ALICE, kind="avoidance", dc=12, dice="15 15"))[0]


def test_a_save_against_a_condition_not_held_is_refused():
    # "kind:stunned rolls against a condition's own DC": without one to save against, it rolled "STUNNED save" +0.
    enc = begin(join(new(), "Nova", 15, con=1))
    with pytest.raises(InvalidInput, match="Nova has no Stunned to save against"):
        cmd(enc, "save", ALICE, kind="stunned", dc=12, dice="15")
    enc = run(enc, "condition_add", target="Nova", condition="Stunned", duration="1 round")
    with pytest.raises(InvalidInput, match="Nova has no Stunned to save against"):
        cmd(enc, "save", ALICE, kind="stunned", dc=12, dice="15")


def test_a_condition_saved_against_by_no_ability_is_refused():
    # "a Constitution save unless `save=wis` names another": `save=banana` rolled a "BANANA save" +0 each turn.
    enc = begin(join(new(), "Nova", 15, con=1, saves="wis:2"))
    with pytest.raises(InvalidInput, match="banana is not an ability.*`str`, `dex`, `con`, `int`, `wis`, `cha`"):
        cmd(enc, "condition_add", target="Nova", condition="Stunned", duration="save", options="dc=13 save=banana")
    enc = run(enc, "condition_add", target="Nova", condition="Stunned", duration="save", options="dc=13 save=wisdom")
    assert find(enc, "Nova").conditions[0].save == "wis"


# --- attack modifiers and boundaries met every fight ----------------------------------------------
def test_an_unused_assist_lapses_at_the_start_of_the_helpers_next_turn():
    # seed 000 line 361: "gains Advantage on their next attack roll or ability check, as long as they make the
    # check before the start of your next turn"
    enc = bolt_assisted_nova()
    assert find(enc, "Nova").assisted_by == (find(enc, "Bolt").id,)
    enc = end_turn(end_turn(enc, ALICE).state).state  # Nova's turn passes unused, then the Brute's
    assert acting(enc) == ["Bolt"] and find(enc, "Nova").assisted_by == ()
    enc = end_turn(enc, BOB).state
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="11")
    assert texts(out)[0].startswith("Nova attacks Brute: d20 11 = 11 vs Avoidance 10: hit")


def test_only_a_greater_stun_gives_attackers_advantage_and_a_stunned_attacker_has_disadvantage():
    # seed 000 lines 880-881: "Lesser: You have Disadvantage on all rolls, cannot take Reactions.
    # Greater: As lesser additionally drop what's in your hands and all attacks on you have Advantage."
    enc = begin(join(join(new(), "Nova", 15, attack=2), "Brute", 5, avoidance=15))
    lesser = run(enc, "condition_add", target="Brute", condition="Stunned", tags="Lesser")
    out = cmd(lesser, "attack", ALICE, target="Brute", damage="1", dice="9")
    assert "d20 9 + 2 = 11 vs Avoidance 15: miss" in texts(out)[0]
    greater = run(enc, "condition_add", target="Brute", condition="Stunned", tags="Greater")
    out = cmd(greater, "attack", ALICE, target="Brute", damage="1", dice="9 16")
    assert "d20 adv (9, 16) 16 + 2 = 18 vs Avoidance 15: hit" in texts(out)[0]
    assert "[adv: target greatly stunned]" in texts(out)[0]
    stunned = run(enc, "condition_add", target="Nova", condition="Stunned", tags="Lesser")
    out = cmd(stunned, "attack", ALICE, target="Brute", damage="1", dice="16 9")
    assert "d20 dis (16, 9) 9 + 2 = 11 vs Avoidance 15: miss [dis: stunned]" in texts(out)[0]


def test_a_restrained_attacker_has_disadvantage():
    # seed 000 line 873: "Restrained: Your Pace becomes 0, attacks against you have Advantage, and your attacks
    # have Disadvantage."
    enc = begin(join(join(new(), "Nova", 15, attack=2), "Brute", 5, avoidance=15))
    enc = run(enc, "condition_add", target="Nova", condition="Restrained")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="16 9")
    assert "d20 dis (16, 9) 9 + 2 = 11 vs Avoidance 15: miss [dis: attacker restrained]" in texts(out)[0]


@pytest.mark.parametrize(
    ("option", "why"),
    [
        ("same_area", "ranged at a target in your area"),
        ("beyond_range", "beyond range"),
        ("in_melee", "target engaged in melee"),
    ],
)
def test_the_ranged_modifiers_give_a_ranged_attack_disadvantage_and_leave_a_melee_one_alone(option, why):
    # seed 000 lines 458-461: "You suffer Disadvantage on attack rolls when attempting to hit a target with a
    # ranged attack under the following conditions: The target is within your area. The target is beyond your
    # weapon's or power's maximum range. The target is engaged in melee combat."
    enc = begin(join(join(new(), "Nova", 15, attack=2), "Brute", 5, avoidance=15))
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="16 9", options=f"ranged {option}")
    assert f"d20 dis (16, 9) 9 + 2 = 11 vs Avoidance 15: miss [dis: {why}]" in texts(out)[0]
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="16", options=option)
    assert "d20 16 + 2 = 18 vs Avoidance 15: hit" in texts(out)[0] and "dis:" not in texts(out)[0]


def test_attacking_a_target_you_cannot_see_is_at_disadvantage():
    # seed 000 line 469: "When you attack a target you can't see, you have Disadvantage on the attack roll."
    enc = begin(join(join(new(), "Nova", 15, attack=2), "Brute", 5, avoidance=15))
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="16 9", options="unseen")
    assert "d20 dis (16, 9) 9 + 2 = 11 vs Avoidance 15: miss [dis: unseen target]" in texts(out)[0]


def test_damage_equal_to_fortitude_is_not_massive_one_more_is():
    # seed 000 line 560: "You deal 1 Wound of Damage any time an attack deals more stamina damage after Damage
    # Reduction (DR) than your target's Fortitude defense."
    enc = begin(join(join(new(), "Nova", 15, attack=2), "Brute", 5, avoidance=10, fortitude=8, stamina=30, dr="all:2"))
    out = cmd(enc, "attack", ALICE, target="Brute", damage="10", dice="12")
    assert texts(out)[0].endswith("10 = 10 − DR 2 (all) = 8 Stamina (Brute: 22/30 Stamina, 3/3 Wounds)")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="11", dice="12")
    assert texts(out)[0].endswith(
        "11 = 11 − DR 2 (all) = 9 Stamina; 9 > Fortitude 8 → massive: 1 Wound (Brute: 21/30 Stamina, 2/3 Wounds)"
    )
