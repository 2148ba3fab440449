"""Rotted Capes: where the seed's rules combine (seed 000), each test quoting the sentences it checks:
a demanding action under Ongoing Damage and on a zombie, Wounds from criticals and massive damage,
penalties and advantage from several sources, surprise, and escaping death."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, Choose
from rules.engine import apply
from rules.errors import NotAllowed
from rules.said import english
from rules.systems.rotted_capes import SYSTEM
from tests.helpers import answer_by_key
from tests.rules.test_rotted_capes import ALICE, GM, begin, cmd, end_turn, join, new, run, texts, who


def said(outcome):
    return [english(line) for line in texts(outcome)]


def answer(outcome, *dice, by=ALICE):
    return apply(outcome.state, Choose(by=by, pending_id=outcome.state.pending.id, option="roll", dice=dice))


# --- a demanding action and damage -------------------------------------------------------------
def shifting(*ongoing, **stats):
    """Nova, under the `ongoing` Ongoing Damage (tags, options), begins an interruptible demanding action."""
    enc = new()
    enc = join(enc, "Nova", 15, **({"con": 1, "stamina": 40, "fortitude": 12, "stamina_defense": 30} | stats))
    enc = begin(join(enc, "Brute", 5))
    for tags, options in ongoing:
        enc = run(enc, "condition_add", target="Nova", condition="Ongoing Damage", tags=tags, options=options)
    return run(enc, "act", ALICE, action="demanding", options='what="Shift" interruptible')


FIRE_END = ("Engulfed - Fire", "damage=4 type=fire dc=12 end")
ACID_END = ("Engulfed - Acid", "damage=6 type=acid dc=12 end")


def test_each_ongoing_damage_at_the_end_of_the_turn_asks_its_own_save():
    # "You must make a new saving throw each time you take Damage."; two sources each tick ("a fire and an
    # acid each burn")
    out = end_turn(shifting(FIRE_END, ACID_END), ALICE, dice=(15, 15))
    assert out.state.pending.context["dc"] == 10
    out = answer(out, 15)
    assert "Nova CON save to keep Shift: d20 15 + 1 = 16 vs DC 10: success — still going." in said(out)
    assert out.state.pending is not None and out.state.pending.kind == "interrupt"
    assert english(out.state.pending.prompt) == "Nova: Constitution save DC 10 to keep Shift going."
    out = answer(out, 2)
    assert "Nova CON save to keep Shift: d20 2 + 1 = 3 vs DC 10: failure — the action is disrupted" in (said(out)[1])
    assert who(out.state, "Nova").demanding is None and out.state.pending is None


def test_a_first_failed_save_leaves_no_second_to_make():
    # "If you fail any of these saves, the Action is disrupted and does not complete."
    out = answer(end_turn(shifting(FIRE_END, ACID_END), ALICE, dice=(15, 15)), 2)
    assert who(out.state, "Nova").demanding is None and out.state.pending is None


def test_ongoing_damage_passing_the_continuous_total_is_a_wound_and_asks_dc_25():
    # "Once the total Damage exceeds your Stamina Defense, you suffer Massive Damage"; "If you suffer a Wound,
    # the DC is set to 25."
    out = end_turn(shifting(FIRE_END, ACID_END, stamina_defense=8), ALICE, dice=(15, 15))
    assert "continuous total 10 > Stamina Defense 8 → massive (total resets): 1 Wound" in said(out)[2]
    assert out.state.pending.context["dc"] == 10
    out = answer(out, 15)
    assert out.state.pending.context["dc"] == 25


def test_temporary_stamina_absorbs_ongoing_damage_which_still_counts_and_still_interrupts():
    # "Any stamina damage you take is first subtracted from this buffer"; massive and the DC come from the
    # damage after DR
    enc = run(shifting(FIRE_END), "heal", target="Nova", amount="10", options="temp")
    out = end_turn(enc, ALICE, dice=(15,))
    assert (
        "Nova takes fire Ongoing Damage (Engulfed - Fire): 4 = 4 Stamina (4 absorbed by temporary Stamina)"
        in (said(out)[0])
    )
    nova = who(out.state, "Nova")
    assert (nova.stamina, nova.temp_stamina, nova.ongoing_total) == (40, 6, 4)
    assert out.state.pending.context["dc"] == 10


def super_z_shifting(**stats):
    """Titan, a Delta-level Super-Z, begins an interruptible demanding action; Nova attacks it next."""
    enc = join(new(), "Nova", 15, attack=5)
    z = {"zombie": "true", "zombie_level": "delta", "fortitude": 10, "avoidance": 10, "wounds": 3, "con": 2}
    enc = begin(join(enc, "Titan", 16, **(z | stats)))
    enc = run(enc, "act", GM, action="demanding", options='what="Quake" interruptible')
    return end_turn(enc, GM).state


def test_a_super_zombie_wounded_during_an_interruptible_action_saves_at_dc_25():
    # "If you are hit or suffer Damage while performing an Interruptible action: You must make a Constitution
    # saving throw […] If you suffer a Wound, the DC is set to 25." — no exception for zombies
    out = cmd(super_z_shifting(), "attack", ALICE, target="Titan", damage="15", dice="12 12")
    assert "15 > Fortitude 10 → massive: 1 Wound (Titan: 2/3 Wounds)" in said(out)[0]
    assert out.state.pending.kind == "interrupt" and out.state.pending.context["dc"] == 25
    out = answer(out, 12, by=GM)
    assert "Titan CON save to keep Quake: d20 12 + 2 = 14 vs DC 25: failure — the action is disrupted" in (said(out)[1])


def test_a_super_zombie_hit_without_a_wound_still_saves_at_dc_10():
    # "If you are hit […]": a zombie has no Stamina to lose, so the DC stays at 10
    out = cmd(super_z_shifting(), "attack", ALICE, target="Titan", damage="5", dice="12 12")
    assert "no effect (zombies are hurt only by massive damage and criticals)" in said(out)[0]
    assert out.state.pending.context["dc"] == 10


def test_a_common_zombie_destroyed_mid_action_is_asked_nothing():
    out = cmd(super_z_shifting(zombie_level="epsilon"), "attack", ALICE, target="Titan", damage="15", dice="12 12")
    assert "Titan is destroyed" in said(out)[0] and out.state.pending is None


def test_a_plot_point_rerolls_a_failed_save_to_keep_the_action_going():
    # "Reroll: You may spend Plot Point rerolling any d20 check"; "only one Plot Point can be used on any single
    # die roll"
    out = answer(end_turn(shifting(FIRE_END, plot_points=1), ALICE, dice=(15,)), 2)
    assert who(out.state, "Nova").demanding is None
    out = cmd(out.state, "plotpoint_spend", ALICE, use="reroll", dice="12")
    assert said(out) == [
        "🎭 Nova spends a Plot Point to reroll the d20 (0 left; pool 1).",
        "Nova CON save to keep Shift: d20 12 + 1 = 13 vs DC 10: success — still going.",
    ]
    assert who(out.state, "Nova").demanding is not None
    enc = run(out.state, "plotpoint_award", target="Nova", amount=1)
    with pytest.raises(NotAllowed, match="only one per die roll"):
        cmd(enc, "plotpoint_spend", ALICE, use="reroll", dice="12")


def test_a_rerolled_first_save_still_leaves_the_second_damages_save():
    out = answer(end_turn(shifting(FIRE_END, ACID_END, plot_points=1), ALICE, dice=(15, 15)), 2)
    out = cmd(out.state, "plotpoint_spend", ALICE, use="reroll", dice="12")
    assert out.state.pending.kind == "interrupt" and out.state.pending.context["dc"] == 10


def test_a_super_zombie_burning_and_soaked_takes_one_wound_when_the_total_passes_its_stamina_defense():
    # "All continuous Damage you suffer during a scene is cumulative, regardless of the source"; "Once a Zombie
    # suffers enough total Damage by continuous Damage to bypass their Stamina Defense, they suffer 1 wound"
    enc = join(new(), "Nova", 15)
    z = {"zombie": "true", "zombie_level": "delta", "wounds": 3, "stamina_defense": 8}
    enc = begin(join(enc, "Titan", 5, **z))
    for tags, options in (
        ("Engulfed - Fire", "damage=4 type=fire dc=12"),
        ("Engulfed - Acid", "damage=6 type=acid dc=12"),
    ):
        enc = run(enc, "condition_add", target="Titan", condition="Ongoing Damage", tags=tags, options=options)
    out = end_turn(enc, ALICE)
    assert "(continuous total 4/8): no Wound until the total passes its Stamina Defense" in said(out)[0]
    assert (
        "continuous total 10 > Stamina Defense 8 → massive (total resets): 1 Wound (Titan: 2/3 Wounds)"
        in (said(out)[1])
    )


# --- Wounds ------------------------------------------------------------------------------------
def brute_target(**stats):
    enc = join(new(), "Nova", 15, attack=5)
    return begin(join(enc, "Brute", 5, **({"avoidance": 10, "fortitude": 10, "stamina": 40} | stats)))


def test_a_critical_that_is_massive_through_temporary_stamina_deals_two_wounds():
    # "If you roll a critical hit and deal enough Stamina damage to bypass your target's Fortitude Defense, you
    # deal 2 Wounds"; massive counts the damage after DR, before the temporary buffer takes it
    enc = run(brute_target(), "heal", target="Brute", amount="20", options="temp")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="15", dice="20")
    assert (
        "15 = 15 Stamina (15 absorbed by temporary Stamina); 15 > Fortitude 10 → massive, critical + massive: "
        in (said(out)[0])
    )
    brute = who(out.state, "Brute")
    assert (brute.stamina, brute.temp_stamina, brute.wounds) == (40, 5, 1)


def test_new_temporary_stamina_replaces_the_old_even_when_smaller():
    # "gaining new Temporary Stamina automatically removes any remaining from the previous effect"
    enc = run(
        run(brute_target(), "heal", target="Brute", amount="20", options="temp"),
        "heal",
        target="Brute",
        amount="5",
        options="temp",
    )
    out = cmd(enc, "attack", ALICE, target="Brute", damage="8", dice="12")
    assert "8 = 8 Stamina (5 absorbed by temporary Stamina) (Brute: 37/40 Stamina, 3/3 Wounds)" in said(out)[0]


def test_temporary_stamina_wakes_a_hero_knocked_out_by_stamina_loss_until_it_is_spent():
    # "When you gain Temporary Stamina, it increases your current Stamina"; "Once you reach 0 Stamina, you are
    # Unconscious"
    enc = run(brute_target(), "damage", target="Nova", amount="10", options="ap")
    assert who(enc, "Nova").has("Unconscious")
    out = cmd(enc, "heal", target="Nova", amount="5", options="temp")
    nova = who(out.state, "Nova")
    assert not nova.has("Unconscious") and not nova.out
    assert "(0/10 Stamina +5 temp, 3/3 Wounds)" in said(out)[0]
    out = cmd(out.state, "damage", target="Nova", amount="5", options="ap")
    assert who(out.state, "Nova").has("Unconscious")
    assert "Nova is Unconscious" in said(out)[0]
    # a power's Unconscious is not Stamina's to end
    enc = run(brute_target(), "condition_add", target="Brute", condition="Unconscious", tags="Knocked Out")
    enc = run(enc, "heal", target="Brute", amount="5", options="temp")
    assert who(enc, "Brute").has("Unconscious")


def test_an_unconscious_target_in_the_same_area_takes_a_critical_and_massive_two_wounds():
    # "attacks against you from within the same area are critical hits" + massive damage
    enc = run(brute_target(stamina=10, fortitude=30), "damage", target="Brute", amount="10")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="31", dice="5")
    assert (
        "(Unconscious in the same area: critical); 31 = 31 Stamina; 31 > Fortitude 30 → massive, critical + "
        in (said(out)[0])
    )
    assert who(out.state, "Brute").wounds == 1


def test_the_wounded_penalty_and_exhaustion_do_not_add_up():
    # "these penalties do not stack with Exhaustion": the larger applies
    enc = run(brute_target(), "damage", target="Nova", amount="0", options="wounds=2")
    enc = run(enc, "condition_add", target="Nova", condition="Exhaustion 1")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="10")
    assert "d20 10 + 5 − 2 wounds/exhaustion = 13" in said(out)[0]
    enc = run(enc, "condition_add", target="Nova", condition="Exhaustion 2")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="10")
    assert "d20 10 + 5 − 3 wounds/exhaustion = 12" in said(out)[0]


def test_the_wounded_and_exhaustion_penalties_fall_on_attacks_and_challenges_not_on_saves():
    # Wounded: "a penalty to all challenge rolls and attack rolls"; Exhaustion: "applies to all challenge and
    # attack roles"; only the optional Brutal Continuity says "the penalty also applies to the Hero's saves"
    enc = run(brute_target(), "damage", target="Nova", amount="0", options="wounds=2")
    enc = run(enc, "condition_add", target="Nova", condition="Exhaustion 1")
    out = cmd(enc, "save", ALICE, kind="con", dc=10, dice="10")
    assert "Nova CON save: d20 10 + 0 = 10 vs DC 10: success" in said(out)[0]
    enc = run(enc, "condition_add", target="Nova", condition="Ongoing Damage", options="damage=1 type=fire dc=12")
    out = end_turn(enc, ALICE, dice=(12,))
    assert "Nova saves against Ongoing Damage: d20 12 + 0 = 12 vs DC 12: success — it ends." in said(out)


def brutal(**hero):
    """Nova (Exhaustion 2 and 1 Wound lost) against a Brute, in a campaign playing Brutal Continuity."""
    enc = join(new(brutal_continuity=True), "Nova", 15, **({"attack": 5, "avoidance": 15, "fortitude": 8} | hero))
    enc = begin(join(enc, "Brute", 5, avoidance=10, fortitude=10, stamina=40))
    enc = run(enc, "damage", target="Nova", amount="0", options="wounds=1")
    return run(enc, "condition_add", target="Nova", condition="Exhaustion 2")


def test_brutal_continuity_puts_the_exhaustion_penalty_on_a_heros_saves_and_defenses():
    # "When playing in the Brutal Continuity, the penalty also applies to the Hero's saves, defenses, and burnout
    # threshold"; Wounded's penalty stays on "challenge rolls and attack rolls"
    assert SYSTEM.default_options()["brutal_continuity"] is False
    enc = brutal()
    out = cmd(enc, "save", ALICE, kind="con", dc=10, dice="11")
    assert "Nova CON save: d20 11 + 0 − 2 exhaustion = 9 vs DC 10: failure" in said(out)[0]
    out = cmd(enc, "attack", GM, actor="Brute", target="Nova", damage="1d8", dice="13 7")
    assert "vs Avoidance 13: hit" in said(out)[0]
    assert "7 > Fortitude 6 → massive: 1 Wound" in said(out)[0]
    out = cmd(enc, "attack", GM, actor="Brute", target="Nova", defense="willpower", damage="1d4", dice="8 1")
    assert "vs Willpower 8: hit" in said(out)[0]
    # the hero's own attack keeps the larger of its Wounded and Exhaustion penalties, as ever
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1d4", dice="10 1")
    assert "d20 10 + 5 − 2 wounds/exhaustion = 13 vs Avoidance 10" in said(out)[0]


def test_brutal_continuity_is_off_by_default_and_spares_the_threats():
    enc = brutal()
    enc = run(enc, "condition_add", target="Brute", condition="Exhaustion 3")
    out = cmd(enc, "save", GM, actor="Brute", kind="con", dc=10, dice="10")
    assert "Brute CON save: d20 10 + 0 = 10 vs DC 10: success" in said(out)[0]
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1d4", dice="10 1")
    assert "vs Avoidance 10" in said(out)[0]
    enc = join(new(), "Nova", 15, avoidance=15)
    enc = run(begin(join(enc, "Brute", 5)), "condition_add", target="Nova", condition="Exhaustion 2")
    out = cmd(enc, "save", ALICE, kind="con", dc=10, dice="10")
    assert "Nova CON save: d20 10 + 0 = 10 vs DC 10: success" in said(out)[0]
    out = cmd(enc, "attack", GM, actor="Brute", target="Nova", damage="1d4", dice="13 1")
    assert "vs Avoidance 15: miss" in said(out)[0]


# --- advantage and disadvantage ----------------------------------------------------------------
def test_any_advantage_and_any_disadvantage_cancel_however_many_of_each():
    enc = run(brute_target(), "condition_add", target="Brute", condition="Prone")
    enc = run(enc, "condition_add", target="Brute", condition="Restrained")
    enc = run(enc, "condition_add", target="Nova", condition="Stunned", tags="Lesser")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", dice="10")
    assert "[adv: target restrained, target prone; dis: stunned; they cancel: one d20]" in said(out)[0]


def test_a_dodger_grappled_to_pace_zero_loses_the_dodge():
    # Dodge: "you lose this benefit if you are incapacitated or your Pace drops to 0"
    enc = join(new(), "Nova", 15, avoidance=15, stamina=20)
    enc = begin(join(enc, "Sniper", 5, attack=4))
    enc = end_turn(run(enc, "act", ALICE, action="dodge"), ALICE).state
    out = cmd(enc, "attack", GM, target="Nova", damage="1", dice="3 17")
    assert "[dis: target dodging]" in said(out)[0]
    enc = run(enc, "condition_add", target="Nova", condition="Grappled")
    out = cmd(enc, "attack", GM, target="Nova", damage="1", dice="17")
    assert "d20 17 + 4 = 21 vs Avoidance 15: hit;" in said(out)[0]


def test_a_plot_point_for_disadvantage_cancels_the_demanding_advantage_and_goes_to_the_pool():
    # "Grant the Editor-in-Chief Disadvantage"; "When you spend a Plot Point, it is handed over to the
    # Editor-in-Chief"; "Attackers gain Advantage when targeting you during this time."
    enc = join(new(offer_plot_disadvantage=True), "Nova", 15, avoidance=15, stamina=20, plot_points=1)
    enc = begin(join(enc, "Brute", 5, attack=4))
    enc = end_turn(run(enc, "act", ALICE, action="demanding", options='what="Shift"'), ALICE).state
    asked = cmd(enc, "attack", GM, target="Nova", damage="1", dice="17")
    out = answer_by_key(asked.state, "plot", by=ALICE)
    assert (
        "d20 17 + 4 = 21 vs Avoidance 15: hit [adv: target busy with a demanding action; dis: Plot Point; "
        in (said(out)[2])
    )
    assert out.state.pool == 1 and who(out.state, "Nova").plot_points == 0
    out = cmd(out.state, "plotpoint_pool", amount=1, text="the floor gives way")
    assert out.state.pool == 0


# --- surprise ----------------------------------------------------------------------------------
def test_a_surprised_combatant_cannot_react_before_its_first_turn_ends():
    # "Stunned (Lesser, Surprise) until the end of your first Turn"; Lesser: "cannot take Reactions"
    enc = join(new(), "Nova", 15, attack=5)
    enc = begin(join(enc, "Brute", (5, 5), surprised=True))
    with pytest.raises(NotAllowed, match="Brute is Stunned and cannot take reactions"):
        cmd(enc, "attack", GM, actor="Brute", target="Nova", options="reaction", damage="3", dice="10 10")
    enc = end_turn(end_turn(enc, ALICE).state, GM).state
    assert not who(enc, "Brute").has("Stunned")
    out = cmd(enc, "attack", GM, actor="Brute", target="Nova", options="reaction", damage="3", dice="10")
    assert said(out)[0].startswith("Brute attacks Nova: d20 10 = 10")


# --- escaping death ----------------------------------------------------------------------------
def last_wound_hero(points):
    """Nova, down to her last Wound (a flaw took the others), at 2 Stamina with `points` Plot Points."""
    enc = join(new(), "Nova", 15, stamina=2, wounds=1, fortitude=20, plot_points=points)
    return end_turn(begin(join(enc, "Brute", 5, attack=5)), ALICE).state


def test_a_hero_with_no_wound_left_to_lose_and_no_plot_point_can_still_be_struck_down():
    # "you are dead unless […] a Plot Point; […] Alternatively, you may escape death by accepting a physical
    # flaw and having your maximum wounds reduced by 1": with one Wound at most, there is none to lose
    out = cmd(last_wound_hero(0), "attack", GM, target="Nova", damage="10", dice="20")
    assert out.state.pending.kind == "death"
    assert out.state.pending.keys == ("blaze", "die") and out.state.pending.default == "die"
    dead = answer_by_key(out.state, "die", by=ALICE)
    assert said(dead)[1] == "☠️ Nova dies."
    assert who(dead.state, "Nova").dead and who(dead.state, "Nova").out


def test_a_hero_with_no_wound_left_to_lose_is_offered_the_plot_point_and_the_blaze():
    out = cmd(last_wound_hero(1), "attack", GM, target="Nova", damage="10", dice="20")
    assert out.state.pending.keys == ("own", "blaze", "die") and out.state.pending.default == "own"
    saved = answer_by_key(out.state, "own", by=ALICE)
    nova = who(saved.state, "Nova")
    assert (nova.wounds, nova.stamina, nova.plot_points, saved.state.pool) == (1, 0, 0, 1)


def test_surprised_tied_threats_and_a_surprised_pet_shake_it_off_at_the_end_of_their_shared_turn():
    # "If your threats are tied, they all act simultaneously"; pets "go on the same Initiative" as their
    # controller; each surprised one is Stunned "until the end of your first Turn"
    enc = join(new(), "Nova", 15)
    enc = join(enc, "Zombie", (8, 8, 8, 8), count=2, surprised=True)
    pet = AddCombatants(
        by=ALICE, name="Rex", sheet={"companion_of": "Nova"}, npc=False, controller_id=11, surprised=True
    )
    enc = begin(apply(enc, pet).state)
    out = end_turn(enc, ALICE)
    assert "Rex is no longer Stunned (Lesser, Surprise)." in said(out)
    assert who(out.state, "Zombie 1").has("Stunned") and who(out.state, "Zombie 2").has("Stunned")
    out = end_turn(out.state, GM)
    assert {
        "Zombie 1 is no longer Stunned (Lesser, Surprise).",
        "Zombie 2 is no longer Stunned (Lesser, Surprise).",
    } <= (set(said(out)))
