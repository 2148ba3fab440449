"""Rotted Capes: demanding actions, conditions and Ongoing Damage, Plot Points,
combat modes and the end of a scene, with hand-entered rolls."""

from __future__ import annotations

import pytest

from rules.actions import Choose
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed
from rules.said import english
from rules.systems.rotted_capes import SYSTEM
from rules.systems.rotted_capes.model import MAX_PLOT_POINTS
from tests.helpers import answer_by_key
from tests.rules.test_rotted_capes import ALICE, BOB, GM, acting, begin, cmd, end_turn, join, new, run, texts, who


def stepaside(**options):
    """The seed's example: Stepaside begins Geospatial Shift; Flaming Fist acts next."""
    enc = new(**options)
    enc = join(enc, "Stepaside", 15, con=1, stamina=30, fortitude=12)
    enc = join(enc, "Flaming Fist", 10, attack=6)
    enc = begin(enc)
    enc = run(enc, "act", ALICE, action="move", options="areas=1")
    out = cmd(enc, "act", ALICE, action="demanding", options='what="Geospatial Shift" interruptible')
    assert "Stepaside begins an interruptible demanding action: Geospatial Shift." in texts(out)[0]
    return end_turn(out.state, ALICE).state


# --- demanding actions -------------------------------------------------------------------
def test_seed_example_ten_stamina_damage_asks_for_dc_ten():
    enc = stepaside()
    out = cmd(enc, "attack", GM, target="Stepaside", damage="10", damage_type="fire", dice="3 15")
    assert (
        "d20 adv (3, 15) 15 + 6 = 21 vs Avoidance 10: hit [adv: target busy with a demanding action]" in texts(out)[0]
    )
    pending = out.state.pending
    assert pending.kind == "interrupt" and pending.context["dc"] == 10
    assert english(pending.prompt) == "Stepaside: Constitution save DC 10 to keep Geospatial Shift going."
    # the choice message pings the player; the result line itself pings nobody
    assert out.events[-1].ping == ()


def test_a_wound_on_an_interruptible_actor_asks_for_dc_25_and_failure_disrupts():
    enc = stepaside()
    out = cmd(enc, "attack", GM, target="Stepaside", damage="13", damage_type="fire", dice="3 15")
    assert out.state.pending.context["dc"] == 25
    out = apply(
        out.state, Choose(by=ALICE, pending_id=out.state.pending.id, option="Roll the Constitution save", dice=(20,))
    )
    assert "d20 20 + 1 = 21 vs DC 25: failure — the action is disrupted" in texts(out)[1]
    assert who(out.state, "Stepaside").demanding is None


def test_the_interrupt_question_is_answered_by_its_key():
    enc = stepaside()
    asked = cmd(enc, "attack", GM, target="Stepaside", damage="13", damage_type="fire", dice="3 15").state
    assert asked.pending.keys == ("roll",)
    out = answer_by_key(asked, "roll", by=ALICE)
    assert any("CON save to keep Geospatial Shift" in line for line in texts(out))


def test_half_the_stamina_damage_sets_a_higher_dc_and_success_keeps_the_action():
    enc = stepaside()
    out = cmd(enc, "damage", target="Stepaside", amount="12")
    assert out.state.pending.context["dc"] == 10
    enc = stepaside()
    enc = enc.update(who(enc, "Stepaside").id, sheet=who(enc, "Stepaside").sheet.but(fortitude=30))
    out = cmd(enc, "damage", target="Stepaside", amount="24")
    assert out.state.pending.context["dc"] == 12
    out = apply(
        out.state, Choose(by=ALICE, pending_id=out.state.pending.id, option="Roll the Constitution save", dice=(11,))
    )
    assert "d20 11 + 1 = 12 vs DC 12: success — still going." in texts(out)[1]
    enc = end_turn(out.state, GM).state
    assert who(enc, "Stepaside").demanding is None


def test_demanding_resolves_at_the_start_of_the_next_turn_on_that_players_turn_ping():
    enc = stepaside()
    out = end_turn(enc, GM)
    resolve = [e for e in out.events if "resolves now" in e.text][0]
    assert resolve.text.startswith("✨ Stepaside's demanding action resolves now: Geospatial Shift. Apply its effect")
    turn = [e for e in out.events if e.kind == "turn"][0]
    assert turn.text == "Stepaside's turn" and turn.ping == (11,) and resolve.ping == ()
    assert who(out.state, "Stepaside").demanding is None


def test_demanding_limits_movement_and_forbids_reactions():
    enc = new()
    enc = join(enc, "Nova", 15)
    enc = begin(join(enc, "Brute", 5))
    enc = run(enc, "act", ALICE, action="move", options="areas=2")
    with pytest.raises(NotAllowed, match="at most 1"):
        cmd(enc, "act", ALICE, action="demanding")
    enc = stepaside()
    assert who(enc, "Stepaside").economy.pace == 0
    with pytest.raises(NotAllowed, match="no reactions|cannot take reactions"):
        cmd(enc, "attack", ALICE, actor="Stepaside", target="Flaming Fist", roll=10)


def test_a_bonus_action_after_a_demanding_action_begins_is_refused_for_that_reason():
    """Seed 000: "You may only take a Bonus Action before you begin your Demanding Action": the Bonus Action was
    never used, so the refusal says why it is gone."""
    enc = begin(join(join(new(), "Nova", 15, attack=5), "Thug", 5))
    enc = run(enc, "act", ALICE, action="demanding", options='what="Teleport"')
    with pytest.raises(NotAllowed, match="A Bonus Action may only come before a demanding action begins"):
        cmd(enc, "attack", ALICE, target="Thug", options="bonus", dice="15 3")


# --- Ready ----------------------------------------------------------------------------------
def test_ready_goes_off_as_a_reaction_or_is_lost():
    enc = stepaside()
    enc = end_turn(enc, GM).state
    enc = run(enc, "act", ALICE, action="ready", options='trigger="if the merc charges, I blast him"')
    enc = end_turn(enc, ALICE).state
    out = cmd(enc, "act", ALICE, actor="Stepaside", action="trigger")
    assert texts(out) == ["Stepaside's readied action goes off: if the merc charges, I blast him."]
    assert who(out.state, "Stepaside").economy.reactions == 0
    out = end_turn(enc, GM)
    assert "Stepaside's readied action (if the merc charges, I blast him) was never triggered and is lost." in texts(
        out
    )


def test_a_triggered_ready_lets_the_declared_attack_go_off_with_the_reserved_reaction():
    """Seed 000: "Your Reaction will then go off when that trigger happens": the attack the Ready declared goes off
    on the Reaction it reserved, and only that one."""
    enc = stepaside()
    enc = end_turn(enc, GM).state
    enc = run(enc, "act", ALICE, action="ready", options='trigger="if the merc charges, I blast him"')
    enc = end_turn(enc, ALICE).state
    enc = run(enc, "act", ALICE, actor="Stepaside", action="trigger")
    out = cmd(enc, "attack", ALICE, actor="Stepaside", target="Flaming Fist", dice="15 3")
    assert "Stepaside attacks Flaming Fist" in texts(out)[0]
    assert who(out.state, "Stepaside").economy.reactions == 0
    with pytest.raises(NotAllowed, match="no reaction left"):
        cmd(out.state, "attack", ALICE, actor="Stepaside", target="Flaming Fist", dice="15 3")


def test_disengaged_movement_provokes_no_opportunity_attack_for_the_rest_of_the_turn():
    """Seed 000: "If you take the Disengage action, your movement doesn't provoke opportunity attacks for the rest
    of the Turn." """
    enc = new()
    enc = join(enc, "Stepaside", 15)
    enc = begin(join(enc, "Brute", 5, attack=3))
    out = cmd(enc, "act", ALICE, action="disengage")
    assert texts(out) == ["Stepaside disengages: moving this turn provokes no opportunity attacks."]
    enc = run(out.state, "act", ALICE, action="move", options="areas=2")
    with pytest.raises(NotAllowed, match="Stepaside disengaged"):
        cmd(enc, "attack", GM, actor="Brute", target="Stepaside", dice="15 3")
    assert who(enc, "Brute").economy.reactions == 1
    # a readied attack is no opportunity attack: it still goes off
    enc = enc.update(who(enc, "Brute").id, ready="if she runs, I swing")
    out = cmd(enc, "attack", GM, actor="Brute", target="Stepaside", dice="15 3")
    assert "Brute attacks Stepaside" in texts(out)[0]
    # the next turn is the Brute's own: its attack is its Action
    enc = end_turn(out.state, ALICE).state
    assert "Brute attacks Stepaside" in texts(cmd(enc, "attack", GM, target="Stepaside", dice="15 3"))[0]


# --- conditions ---------------------------------------------------------------------------------
def test_rounds_count_the_bearers_turns():
    enc = new()
    enc = join(enc, "Nova", 15)
    enc = begin(join(enc, "Brute", 5))
    enc = run(enc, "condition_add", target="Brute", condition="Frightened", duration="2 rounds", tags="Specific Target")
    enc = end_turn(enc, ALICE).state
    enc = end_turn(enc, GM).state  # Brute's first turn
    assert who(enc, "Brute").has("Frightened")
    enc = end_turn(enc, ALICE).state
    out = end_turn(enc, GM)
    assert "Brute is no longer Frightened (Specific Target)." in texts(out)


def test_until_the_end_of_someones_next_turn():
    enc = new()
    enc = join(enc, "Nova", 15)
    enc = begin(join(enc, "Brute", 5))
    enc = run(
        enc,
        "condition_add",
        ALICE,
        target="Brute",
        condition="Stunned",
        duration="end of Nova's next turn",
        tags="Greater, Sonic",
    )
    enc = end_turn(enc, ALICE).state  # applied during this turn: does not count
    assert who(enc, "Brute").has("Stunned")
    out = cmd(enc, "attack", GM, target="Nova", roll=5, damage="1", dice="2")
    assert "[dis: stunned]" in texts(out)[0]
    enc = end_turn(enc, GM).state
    out = end_turn(enc, ALICE)
    assert "Brute is no longer Stunned (Greater, Sonic)." in texts(out)


def test_a_condition_timed_on_a_dead_combatants_turn_ends_with_the_round():
    enc = new()
    enc = join(join(enc, "Nova", 15), "Bolt", 10)
    enc = begin(join(enc, "Brute", 5))
    enc = run(enc, "condition_add", target="Nova", condition="Stunned", duration="end of Brute's next turn")
    enc = run(enc, "damage", target="Brute", amount="200", options="wounds=20")
    enc = end_turn(enc, ALICE).state
    assert who(enc, "Brute").out and who(enc, "Nova").has("Stunned")
    out = end_turn(enc, BOB)
    assert texts(out)[:2] == ["Nova is no longer Stunned.", "Round 2"]


def test_until_saved_rolls_at_the_end_of_the_bearers_turn():
    enc = new()
    enc = join(enc, "Nova", 15)
    enc = begin(join(enc, "Brute", 5, saves="wis:2"))
    enc = run(
        enc, "condition_add", target="Brute", condition="Charmed", duration="save", options="dc=14 save=wis source=Nova"
    )
    enc = end_turn(enc, ALICE).state
    out = end_turn(enc, GM, dice=(11,))
    assert "Brute saves against Charmed: d20 11 + 2 = 13 vs DC 14: failure." in texts(out)
    enc = end_turn(out.state, ALICE).state
    out = end_turn(enc, GM, dice=(12,))
    assert "Brute saves against Charmed: d20 12 + 2 = 14 vs DC 14: success — it ends." in texts(out)


def test_save_command_can_shake_off_a_condition():
    enc = new()
    enc = join(enc, "Nova", 15, con=2)
    enc = begin(join(enc, "Brute", 5))
    enc = run(enc, "condition_add", target="Nova", condition="Restrained", duration="save", options="dc=12 save=con")
    out = cmd(enc, "save", ALICE, kind="restrained", roll=10)
    assert texts(out) == ["Nova CON save: d20 10 + 2 = 12 vs DC 12: success", "Nova shakes off Restrained."]


def test_condition_list_remove_and_refusals():
    enc = new()
    enc = begin(join(join(enc, "Nova", 15), "Brute", 5))
    enc = run(enc, "condition_add", target="Nova", condition="Grappled", tags="Cable")
    assert report("condition_list", enc, {}) == "**Nova**: Grappled (Cable) — until removed"
    with pytest.raises(InvalidInput, match="not a Rotted Capes condition"):
        cmd(enc, "condition_add", target="Nova", condition="Petrified")
    with pytest.raises(InvalidInput, match="Wounds and Stamina"):
        cmd(enc, "condition_add", target="Nova", condition="Wounded")
    with pytest.raises(NotAllowed):
        cmd(enc, "condition_add", BOB, target="Nova", condition="Prone")
    assert who(enc, "Nova").economy.pace == 0  # "Your Pace becomes 0", in Nova's own turn too
    enc = run(enc, "condition_remove", target="Nova", condition="grappled")
    assert not who(enc, "Nova").conditions
    assert who(enc, "Nova").economy.pace == 4  # free again: the Pace left comes back


def test_exhaustion_stacks_and_six_is_death():
    enc = begin(join(join(new(), "Nova", 15), "Brute", 5))
    enc = run(enc, "condition_add", target="Brute", condition="Exhaustion 2")
    enc = run(enc, "condition_add", target="Brute", condition="Exhaustion 3")
    assert who(enc, "Brute").condition("Exhaustion").level == 5
    out = cmd(enc, "condition_add", target="Brute", condition="Exhaustion")
    assert who(out.state, "Brute").dead and "Exhaustion 6 and dies" in texts(out)[-1]


# --- Ongoing Damage ----------------------------------------------------------------------------
FIRE = {"condition": "Ongoing Damage", "tags": "Engulfed – Fire", "options": "damage=1d6 type=fire dc=12"}


def burning(**stats):
    enc = new()
    enc = join(enc, "Nova", 15)
    enc = join(enc, "Brute", 5, **({"stamina": 40, "stamina_defense": 8, "con": 1} | stats))
    enc = begin(enc)
    return run(enc, "condition_add", target="Brute", **FIRE)


def test_ongoing_damage_ticks_at_start_adds_up_to_massive_and_saves_at_end():
    enc = end_turn(burning(), ALICE, dice=(5,))
    out = enc
    assert (
        "Brute takes fire Ongoing Damage (Engulfed – Fire): 1d6 (5) = 5 Stamina (continuous total 5/8) (Brute: 35/40 "
        "Stamina, 3/3 Wounds)" in texts(out)
    )
    out = end_turn(out.state, GM, dice=(4,))
    assert "Brute saves against Ongoing Damage (Engulfed – Fire): d20 4 + 1 = 5 vs DC 12: failure." in texts(out)
    out = end_turn(out.state, ALICE, dice=(4,))
    assert (
        "1d6 (4) = 4 Stamina; continuous total 9 > Stamina Defense 8 → massive (total resets): 1 Wound" in texts(out)[0]
    )
    brute = who(out.state, "Brute")
    assert (brute.stamina, brute.wounds, brute.ongoing_total) == (31, 2, 0)
    # engulfed in fire: disadvantage on attacks
    hit = cmd(out.state, "attack", GM, target="Nova", damage="1", dice="9 3")
    assert "[dis: engulfed in fire]" in texts(hit)[0]
    out = end_turn(out.state, GM, dice=(11,))
    assert (
        "Brute saves against Ongoing Damage (Engulfed – Fire): d20 11 + 1 = 12 vs DC 12: "
        "success — it ends." in texts(out)
    )


def test_stepping_back_in_from_a_delay_goes_on_with_the_same_turn():
    # "During each round, each combatant gets a turn"; Ongoing Damage: "You take the listed Damage at the start
    # (or end) of your Turn": a delayed turn that resumes is not a second one, with a second tick and Action
    enc = new()
    enc = join(enc, "Nova", 15, stamina=30)
    enc = join(enc, "Bolt", 10)
    enc = join(enc, "Brute", 5, stamina=50)
    enc = run(begin(enc), "condition_add", target="Nova", **FIRE)
    enc = end_turn(end_turn(end_turn(enc, ALICE, dice=(3,)).state, BOB).state, GM, dice=(4,)).state
    assert who(enc, "Nova").stamina == 26 and acting(enc) == ["Nova"]
    enc = run(enc, "attack", ALICE, target="Brute", damage="1", dice="15 15")
    enc = run(enc, "initiative_delay", ALICE)
    out = cmd(enc, "initiative_delay", ALICE)
    assert texts(out) == ["Nova steps back in, interrupting Bolt.", "Nova's turn continues"]
    assert who(out.state, "Nova").stamina == 26 and acting(out.state) == ["Nova"]
    with pytest.raises(NotAllowed):
        cmd(out.state, "attack", ALICE, target="Brute", damage="1", dice="15 15")
    # the turn's end comes once: the save against the fire
    out = end_turn(out.state, ALICE, dice=(15,))
    assert "Nova saves against Ongoing Damage (Engulfed – Fire): d20 15 + 0 = 15 vs DC 12: success — it ends." in (
        texts(out)
    )
    assert acting(out.state) == ["Bolt"]


def test_zombie_continuous_damage_past_stamina_defense_destroys_a_common_z():
    enc = burning(zombie="true", zombie_level="epsilon", wounds=1)
    out = end_turn(enc, ALICE, dice=(6,))
    assert who(out.state, "Brute").ongoing_total == 6
    out = end_turn(out.state, GM)
    out = end_turn(out.state, ALICE, dice=(3,))
    assert (
        "continuous total 9 > Stamina Defense 8 → massive (total resets): 1 Wound; Brute is destroyed" in texts(out)[0]
    )
    assert who(out.state, "Brute").out


def test_continuous_damage_takes_one_wound_from_an_epsilon_zombie_with_more_it_does_not_destroy_it():
    """ "Once a Zombie suffers enough total Damage by continuous Damage to bypass their Stamina Defense, they
    suffer 1 wound of Damage": the zombies' own rule, not the instant destruction of their massive damage."""
    enc = burning(zombie="true", zombie_level="epsilon", wounds=3)
    out = end_turn(enc, ALICE, dice=(6,))
    out = end_turn(end_turn(out.state, GM).state, ALICE, dice=(3,))
    assert (
        "continuous total 9 > Stamina Defense 8 → massive (total resets): 1 Wound (Brute: 2/3 Wounds)"
        in (texts(out)[0])
    )
    brute = who(out.state, "Brute")
    assert (brute.wounds, brute.out, brute.ongoing_total) == (2, False, 0)
    # massive damage from an attack still destroys it outright
    out = cmd(out.state, "damage", target="Brute", amount="12")
    assert "12 > Fortitude" in texts(out)[0] and "Brute is destroyed" in texts(out)[0]


def test_a_common_zombie_makes_no_save_against_ongoing_damage():
    """ "A zombie lacks the survival instinct to put out a fire or remove acids eating away at them"."""
    enc = burning(zombie="true", zombie_level="epsilon", wounds=1, stamina_defense=20)
    enc = end_turn(enc, ALICE, dice=(2,)).state
    out = end_turn(enc, GM)  # no die: no save is rolled
    assert "Brute is a common zombie: it does not shake off Ongoing Damage (Engulfed – Fire) (no save)." in texts(out)
    assert who(out.state, "Brute").has("Ongoing Damage")
    # and the condition says so from the start, not "until a DC 12 CON save"
    assert report("condition_list", out.state, {}) == (
        "**Brute**: Ongoing Damage (Engulfed – Fire) — 1d6 fire, until removed (a common zombie makes no save)"
    )


def test_a_super_zombie_still_saves_against_ongoing_damage():
    """ "Super Z's, on the other hand, have the cunning to remove dangerous conditions from their bodies"."""
    enc = burning(zombie="true", zombie_level="alpha", wounds=3, stamina_defense=20)
    enc = end_turn(enc, ALICE, dice=(2,)).state
    out = end_turn(enc, GM, dice=(15,))
    assert (
        "Brute saves against Ongoing Damage (Engulfed – Fire): d20 15 + 1 = 16 vs DC 12: success — it ends."
        in texts(out)
    )
    assert not who(out.state, "Brute").has("Ongoing Damage")


def burning_and_soaked(**stats):
    """Brute on fire (1d6, DC 12) and soaked in acid (1d4, DC 14): two sources, each its own condition."""
    out = cmd(
        burning(**stats),
        "condition_add",
        target="Brute",
        condition="Ongoing Damage",
        tags="Engulfed – Acid",
        options="damage=1d4 type=acid dc=14",
    )
    assert "replaces" not in texts(out)[0]
    return out.state


def ongoing_labels(enc, name):
    return [english(x.label()) for x in who(enc, name).conditions if x.name == "Ongoing Damage"]


def test_fire_and_acid_each_tick_and_save_and_add_up_to_one_continuous_total():
    """ "All continuous Damage you suffer during a scene is cumulative, regardless of the source"; each
    condition ends on its own save."""
    enc = burning_and_soaked()
    assert ongoing_labels(enc, "Brute") == ["Ongoing Damage (Engulfed – Fire)", "Ongoing Damage (Engulfed – Acid)"]
    out = end_turn(enc, ALICE, dice=(5, 3))
    assert texts(out)[:2] == [
        "Brute takes fire Ongoing Damage (Engulfed – Fire): 1d6 (5) = 5 Stamina (continuous total 5/8) (Brute: 35/40 "
        "Stamina, 3/3 Wounds)",
        "Brute takes acid Ongoing Damage (Engulfed – Acid): 1d4 (3) = 3 Stamina (continuous total 8/8) (Brute: 32/40 "
        "Stamina, 3/3 Wounds)",
    ]
    out = end_turn(out.state, GM, dice=(15, 4))
    assert "Brute saves against Ongoing Damage (Engulfed – Fire): d20 15 + 1 = 16 vs DC 12: success — it ends." in (
        texts(out)
    )
    assert "Brute saves against Ongoing Damage (Engulfed – Acid): d20 4 + 1 = 5 vs DC 14: failure." in texts(out)
    assert ongoing_labels(out.state, "Brute") == ["Ongoing Damage (Engulfed – Acid)"]
    # the acid alone burns on, and its damage adds to what the fire left in the total
    out = end_turn(out.state, ALICE, dice=(2,))
    assert (
        "1d4 (2) = 2 Stamina; continuous total 10 > Stamina Defense 8 → massive (total resets): 1 Wound"
        in (texts(out)[0])
    )
    assert who(out.state, "Brute").ongoing_total == 0


def test_one_ongoing_damage_is_removed_or_saved_against_by_its_tags_and_the_name_alone_removes_all():
    enc = burning_and_soaked()
    out = cmd(enc, "condition_remove", target="Brute", condition="Ongoing Damage (Engulfed – Fire)")
    assert texts(out) == ["Brute is no longer Ongoing Damage (Engulfed – Fire)."]
    assert ongoing_labels(out.state, "Brute") == ["Ongoing Damage (Engulfed – Acid)"]
    out = cmd(enc, "condition_remove", target="Brute", condition="ongoing damage acid")
    assert ongoing_labels(out.state, "Brute") == ["Ongoing Damage (Engulfed – Fire)"]
    with pytest.raises(InvalidInput, match="more than once: name the one to save against"):
        cmd(enc, "save", actor="Brute", kind="ongoing damage")
    out = cmd(enc, "save", actor="Brute", kind="ongoing damage acid", dice="14")
    assert "Brute shakes off Ongoing Damage (Engulfed – Acid)." in texts(out)
    assert ongoing_labels(out.state, "Brute") == ["Ongoing Damage (Engulfed – Fire)"]
    out = cmd(enc, "condition_remove", target="Brute", condition="Ongoing Damage")
    assert ongoing_labels(out.state, "Brute") == []


def test_a_fire_held_beside_acid_still_hampers_attacks():
    """Engulfed – Fire: "Disadvantage on attacks", whichever Ongoing Damage came first."""
    enc = burning_and_soaked()
    enc = run(enc, "condition_remove", target="Brute", condition="Ongoing Damage (Engulfed – Fire)")
    enc = run(enc, "condition_add", target="Brute", **FIRE)
    assert ongoing_labels(enc, "Brute") == ["Ongoing Damage (Engulfed – Acid)", "Ongoing Damage (Engulfed – Fire)"]
    enc = end_turn(enc, ALICE, dice=(1, 1)).state
    hit = cmd(enc, "attack", GM, target="Nova", damage="1", dice="9 3")
    assert "[dis: engulfed in fire]" in texts(hit)[0]


def test_a_hero_the_first_ongoing_damage_leaves_dying_takes_no_more_and_is_asked_once():
    enc = new()
    enc = join(enc, "Nova", 15, stamina=3, wounds=1, stamina_defense=4)
    enc = begin(join(enc, "Brute", 5))
    for tags, kind in (("Engulfed – Fire", "fire"), ("Engulfed – Acid", "acid")):
        options = f"damage=5 type={kind} dc=12"
        enc = run(enc, "condition_add", target="Nova", condition="Ongoing Damage", tags=tags, options=options)
    enc = end_turn(enc, ALICE).state
    out = end_turn(enc, GM)
    said = [english(x) for x in texts(out)]
    assert sum("Ongoing Damage (Engulfed" in line for line in said) == 1
    assert sum("is at 0 Wounds and 0 Stamina" in line for line in said) == 1
    assert out.state.pending.kind == "death" and who(out.state, "Nova").ongoing_total == 0


def test_a_stored_fight_with_one_ongoing_damage_loads_and_takes_a_second_beside_it():
    stored = burning().model_dump_json()  # as fights were stored when a bearer held one Ongoing Damage
    enc = run(
        SYSTEM.load(stored),
        "condition_add",
        target="Brute",
        condition="Ongoing Damage",
        tags="Bleeding",
        options="damage=1 dc=10",
    )
    enc = SYSTEM.load(enc.model_dump_json())
    assert ongoing_labels(enc, "Brute") == ["Ongoing Damage (Engulfed – Fire)", "Ongoing Damage (Bleeding)"]


# --- Plot Points ----------------------------------------------------------------------------------
def plotted():
    enc = SYSTEM_NEW()
    enc = join(enc, "Nova", 15, avoidance=12, attack=5)
    enc = join(enc, "Bolt", 12)
    enc = join(enc, "Brute", 5, attack=4, avoidance=10)
    return begin(enc)


def SYSTEM_NEW():
    return new(offer_plot_disadvantage=True)


def test_spending_a_plot_point_gives_the_attacker_disadvantage():
    enc = plotted()
    enc = end_turn(enc, ALICE).state
    enc = end_turn(enc, BOB).state
    out = cmd(enc, "attack", GM, target="Nova", damage="1d6", dice="18 3")
    pending = out.state.pending
    assert pending.kind == "plot_disadvantage" and pending.users == (11,) and out.events[0].ping == ()
    assert texts(out) == [
        "⏳ Brute attacks Nova: the roll waits while Nova's player decides whether to spend a Plot Point (1 left) for "
        "disadvantage."
    ]
    out = apply(out.state, Choose(by=ALICE, pending_id=pending.id, option="Spend a Plot Point: disadvantage"))
    assert "d20 dis (18, 3) 3 + 4 = 7 vs Avoidance 12: miss [dis: Plot Point]" in texts(out)[-1]
    assert who(out.state, "Nova").plot_points == 0 and out.state.pool == 1
    asked = cmd(enc, "attack", GM, target="Nova", damage="1d6", dice="18 5").state
    out2 = apply(asked, Choose(by=ALICE, pending_id=asked.pending.id, option="No"))
    assert "d20 18 + 4 = 22 vs Avoidance 12: hit; 1d6 (5) = 5 Stamina" in texts(out2)[-1]


def test_the_plot_point_question_is_answered_by_its_key():
    enc = end_turn(end_turn(plotted(), ALICE).state, BOB).state
    asked = cmd(enc, "attack", GM, target="Nova", damage="1d6", dice="18 3").state
    assert asked.pending.keys == ("plot", "no") and asked.pending.default == "no"
    out = answer_by_key(asked, "plot", by=ALICE)
    assert "[dis: Plot Point]" in texts(out)[-1] and who(out.state, "Nova").plot_points == 0


def test_reroll_replaces_the_last_roll_once():
    enc = plotted()
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1d6", dice="2")
    assert "miss" in texts(out)[0]
    out = cmd(out.state, "plotpoint_spend", ALICE, use="reroll", dice="15 4")
    assert texts(out)[0] == "🎭 Nova spends a Plot Point to reroll the d20 (0 left; pool 1)."
    assert "d20 15 + 5 = 20 vs Avoidance 10: hit; 1d6 (4) = 4 Stamina" in texts(out)[1]
    assert who(out.state, "Brute").stamina == 6 and who(out.state, "Nova").plot_points == 0
    enc = run(out.state, "plotpoint_award", target="Nova", amount=2)
    with pytest.raises(NotAllowed, match="only one per die roll"):
        cmd(enc, "plotpoint_spend", ALICE, use="reroll", dice="18 6")
    # "only one Plot Point can be used on any single die roll"; "rerolling any d20 check or damage roll": the
    # damage is a roll of its own, and the rerolled d20's damage has had no point spent on it
    out = cmd(enc, "plotpoint_spend", ALICE, use="reroll damage", dice="6")
    assert texts(out)[0] == "🎭 Nova spends a Plot Point to reroll the damage roll (1 left; pool 2)."
    assert "d20 15 + 5 = 20 vs Avoidance 10: hit; 1d6 (6) = 6 Stamina" in texts(out)[1]
    assert who(out.state, "Brute").stamina == 4
    with pytest.raises(NotAllowed, match="only one per die roll"):
        cmd(out.state, "plotpoint_spend", ALICE, use="reroll damage", dice="1")
    with pytest.raises(NotAllowed, match="only one per die roll"):
        cmd(out.state, "plotpoint_spend", ALICE, use="reroll", dice="18 6")


def test_a_d20_reroll_after_a_damage_reroll_would_roll_that_damage_again():
    enc = run(plotted(), "plotpoint_award", target="Nova")
    enc = run(enc, "attack", ALICE, target="Brute", damage="1d6", dice="15 1")
    enc = run(enc, "plotpoint_spend", ALICE, use="reroll damage", dice="2")
    with pytest.raises(NotAllowed, match="would roll its damage again"):
        cmd(enc, "plotpoint_spend", ALICE, use="reroll", dice="20 6")


def test_reroll_damage_keeps_the_d20_and_undoes_the_old_damage():
    enc = plotted()
    enc = run(enc, "attack", ALICE, target="Brute", damage="1d6", dice="15 1")
    assert who(enc, "Brute").stamina == 9
    out = cmd(enc, "plotpoint_spend", ALICE, use="reroll damage", dice="6")
    assert "d20 15 + 5 = 20 vs Avoidance 10: hit; 1d6 (6) = 6 Stamina" in texts(out)[1]
    assert who(out.state, "Brute").stamina == 4


def test_a_hide_roll_is_rerolled_and_its_action_spent_once():
    # "Reroll: You may spend Plot Point rerolling any d20 check or damage roll": Hide is a Dexterity check
    enc = plotted()
    out = cmd(enc, "act", ALICE, action="hide", options="dc=12", dice="5")
    assert texts(out) == ["Nova tries to hide: d20 5 + 0 = 5 vs 12: spotted"]
    out = cmd(out.state, "plotpoint_spend", ALICE, use="reroll", dice="18")
    assert texts(out) == [
        "🎭 Nova spends a Plot Point to reroll the d20 (0 left; pool 1).",
        "Nova tries to hide: d20 18 + 0 = 18 vs 12: hidden (advantage on attacks; attacking reveals them)",
    ]
    nova = who(out.state, "Nova")
    assert nova.has("Hidden") and not nova.economy.action and nova.plot_points == 0
    with pytest.raises(NotAllowed, match="only one per die roll"):
        cmd(run(out.state, "plotpoint_award", target="Nova"), "plotpoint_spend", ALICE, use="reroll", dice="2")


def test_the_gms_damage_roll_against_a_hero_is_rerolled_by_that_hero():
    enc = plotted()
    out = cmd(enc, "damage", target="Nova", amount="2d6", dice="6 5")
    assert who(out.state, "Nova").stamina == 0
    with pytest.raises(NotAllowed, match="give them a Plot Point"):
        cmd(out.state, "plotpoint_spend", BOB, use="reroll", dice="1 1")
    out = cmd(out.state, "plotpoint_spend", ALICE, use="reroll", dice="1 2")
    assert texts(out)[0] == "🎭 Nova spends a Plot Point to reroll the damage roll (0 left; pool 1)."
    assert "Nova takes kinetic damage: 2d6 (1, 2) = 3" in texts(out)[1]
    assert who(out.state, "Nova").stamina == 7 and out.state.pool == 1
    with pytest.raises(NotAllowed, match="only one per die roll"):
        cmd(run(out.state, "plotpoint_award", target="Nova"), "plotpoint_spend", ALICE, use="reroll", dice="1 1")
    # a flat amount is no roll: nothing to reroll
    enc = run(enc, "damage", target="Nova", amount="4")
    with pytest.raises(InvalidInput, match="no roll to reroll"):
        cmd(enc, "plotpoint_spend", ALICE, use="reroll damage", dice="1")


def test_a_reroll_is_the_rollers_or_its_targets_an_ally_helps_by_aid():
    # "Aid another: ... allowing them to spend that Plot Point as if it were theirs"
    enc = plotted()
    enc = run(enc, "attack", ALICE, target="Brute", damage="1d6", dice="2")
    with pytest.raises(NotAllowed, match="Bolt"):
        cmd(enc, "plotpoint_spend", BOB, use="reroll", dice="15 4")
    enc = run(enc, "plotpoint_spend", BOB, use="aid", target="Nova")
    out = cmd(enc, "plotpoint_spend", ALICE, use="reroll", dice="15 4")
    assert texts(out)[0] == "🎭 Nova spends a Plot Point to reroll the d20 (1 left; pool 1)."


def test_a_player_with_two_heroes_spends_the_one_the_roll_concerns():
    enc = begin(join(join(join(SYSTEM_NEW(), "Stepaside", 15), "Nova", 12), "Brute", 5))
    enc = run(enc, "damage", target="Nova", amount="1d6", dice="6")
    out = cmd(enc, "plotpoint_spend", ALICE, use="reroll", dice="1")
    assert texts(out)[0] == "🎭 Nova spends a Plot Point to reroll the damage roll (0 left; pool 1)."
    assert who(out.state, "Stepaside").plot_points == 1


def test_a_hero_rerolls_their_initiative_before_the_fight_begins_and_once():
    # Initiative: "each player ... makes a Dexterity check"; "Reroll: You may spend Plot Point rerolling any d20
    # check or damage roll"
    enc = join(join(SYSTEM_NEW(), "Brute", 12), "Nova", 3, dex=2)
    out = cmd(enc, "plotpoint_spend", ALICE, use="reroll", dice="14")
    assert texts(out) == [
        "🎭 Nova spends a Plot Point to reroll the d20 (0 left; pool 1).",
        "Nova initiative: d20 14 + 2 = 16",
    ]
    assert [[out.state.get(c).name for c in s] for s in out.state.turns.slots] == [["Nova"], ["Brute"]]
    assert [e.key for e in out.state.turns.entries] == [(16,), (12,)]
    with pytest.raises(NotAllowed, match="only one per die roll"):
        cmd(run(out.state, "plotpoint_award", target="Nova"), "plotpoint_spend", ALICE, use="reroll", dice="20")
    # once the fight begins the order is fixed: the roll is no longer the last one
    with pytest.raises(InvalidInput, match="no roll to reroll"):
        cmd(begin(enc), "plotpoint_spend", ALICE, use="reroll", dice="14")


def test_a_hero_joining_mid_fight_rerolls_their_initiative_into_its_place():
    enc = plotted()
    enc = join(enc, "Stepaside", 1)
    assert [[enc.get(c).name for c in s] for s in enc.turns.slots][-1] == ["Stepaside"]
    with pytest.raises(NotAllowed, match="neither Bolt's"):
        cmd(enc, "plotpoint_spend", BOB, use="reroll", dice="13")
    out = cmd(enc, "plotpoint_spend", ALICE, actor="Stepaside", use="reroll", dice="13")
    slots = [[out.state.get(c).name for c in s] for s in out.state.turns.slots]
    assert slots == [["Nova"], ["Stepaside"], ["Bolt"], ["Brute"]]
    assert acting(out.state) == ["Nova"] and who(out.state, "Stepaside").plot_points == 0


def test_a_hero_rerolls_the_damage_an_attack_deals_them():
    enc = end_turn(end_turn(plotted(), ALICE).state, BOB).state
    asked = cmd(enc, "attack", GM, target="Nova", damage="1d6", dice="18 6").state
    enc = apply(asked, Choose(by=ALICE, pending_id=asked.pending.id, option="No")).state
    assert who(enc, "Nova").stamina == 4
    out = cmd(enc, "plotpoint_spend", ALICE, use="reroll damage", dice="1")
    assert "d20 18 + 4 = 22 vs Avoidance 12: hit; 1d6 (1) = 1 Stamina" in texts(out)[1]
    assert who(out.state, "Nova").stamina == 9


def test_aid_another_once_per_scene_and_narrative_uses():
    enc = plotted()
    enc = run(enc, "plotpoint_spend", ALICE, use="aid", target="Bolt")
    assert (who(enc, "Nova").plot_points, who(enc, "Bolt").plot_points) == (0, 2)
    enc = run(enc, "plotpoint_spend", BOB, use="aid", target="Nova")
    with pytest.raises(NotAllowed, match="already given"):
        cmd(run(enc, "plotpoint_award", target="Bolt"), "plotpoint_spend", BOB, use="aid", target="Nova")
    out = cmd(enc, "plotpoint_spend", BOB, use="alter scene", text="the floor gives out under the Brute")
    assert texts(out) == [
        "🎭 Bolt spends a Plot Point to alter a scene: the floor gives out under the Brute (0 left; pool 1)."
    ]
    with pytest.raises(NotAllowed, match="no Plot Points"):
        cmd(out.state, "plotpoint_spend", BOB, use="endure")


def test_award_pool_show_and_new_issue():
    enc = plotted()
    enc = run(enc, "plotpoint_spend", ALICE, use="negate flaw")
    enc = run(enc, "plotpoint_award", target="Bolt", amount=2, text="tagline")
    assert report("plotpoint_show", enc, {}) == "🎭 Plot Points: Nova 0, Bolt 3; the Editor-in-Chief's pool: 1."
    enc = run(enc, "plotpoint_pool", amount=1, text="the Brute shrugs it off")
    assert enc.pool == 0
    with pytest.raises(NotAllowed, match="pool holds 0"):
        cmd(enc, "plotpoint_pool", amount=1)
    with pytest.raises(NotAllowed):
        cmd(enc, "plotpoint_award", ALICE, target="Nova")
    enc = run(enc, "plotpoint_issue")
    assert (who(enc, "Nova").plot_points, who(enc, "Bolt").plot_points) == (1, 1)


def test_no_award_nor_aid_takes_a_hero_past_the_most_plot_points_a_hero_holds():
    # refused rather than cut down: the GM sees why and may award fewer, and the giver keeps the point
    enc = SYSTEM_NEW()
    enc = join(enc, "Nova", 15, plot_points=MAX_PLOT_POINTS - 5)
    enc = join(enc, "Bolt", 12, plot_points=MAX_PLOT_POINTS)
    enc = begin(enc)
    with pytest.raises(NotAllowed, match="Bolt holds 100 Plot Points; a hero holds at most 100"):
        cmd(enc, "plotpoint_spend", ALICE, use="aid", target="Bolt")
    with pytest.raises(NotAllowed, match="Nova holds 95 Plot Points; a hero holds at most 100"):
        cmd(enc, "plotpoint_award", target="Nova", amount=6)
    enc = run(enc, "plotpoint_award", target="Nova", amount=5)
    assert (who(enc, "Nova").plot_points, who(enc, "Bolt").plot_points) == (MAX_PLOT_POINTS, MAX_PLOT_POINTS)
    with pytest.raises(NotAllowed, match="Nova holds 100"):
        cmd(enc, "plotpoint_award", target="Nova")
    # with room again, the same aid goes through
    enc = run(enc, "plotpoint_spend", BOB, use="narrative")
    enc = run(enc, "plotpoint_spend", ALICE, use="aid", target="Bolt")
    assert (who(enc, "Nova").plot_points, who(enc, "Bolt").plot_points) == (MAX_PLOT_POINTS - 1, MAX_PLOT_POINTS)


# --- Horde -------------------------------------------------------------------------------------------
def horde(count=6):
    enc = new()
    enc = join(enc, "Nova", 15, avoidance=25, fortitude=40, stamina=40)
    enc = join(
        enc,
        "Zombie",
        (9, 7, 12, 3, 8, 11)[:count],
        count=count,
        zombie="true",
        attack=1,
        damage="1d6",
        fortitude=5,
        wounds=1,
    )
    enc = begin(enc)
    return run(enc, "act", action="horde", target="Zombie")


def test_a_horde_is_named_as_any_combatant_is():
    # a zero-width space in the typed name, a name holding a comma: compared as everywhere in a fight
    enc = join(new(), "Nova", 15)
    zombie = dict(zombie="true", attack=1, damage="1d6", fortitude=5, wounds=1)
    enc = begin(join(enc, "Zom\u200bbie", (9, 7, 12, 3, 8, 11), count=6, **zombie))
    formed = run(enc, "act", action="horde", target="zombie")
    assert len(who(formed, "zombie Horde").horde) == 6
    enc = join(join(new(), "Nova", 15), "Salt, Pepper", 9, **zombie)
    enc = begin(join(enc, "Ghoul", (7, 6, 5, 4), count=4, **zombie))
    targets = "Salt, Pepper, Ghoul 1, Ghoul 2, Ghoul 3, Ghoul 4"
    formed = run(enc, "act", action="horde", target=targets, options="name=Pack")
    assert len(who(formed, "Pack").horde) == 5


def test_a_horde_of_six_attacks_at_plus_ten_at_its_lowest_members_initiative():
    enc = horde()
    zh = who(enc, "Zombie Horde")
    assert len(zh.horde) == 6
    assert [[enc.get(c).name for c in s] for s in enc.turns.slots] == [["Nova"], ["Zombie Horde"]]
    assert [e.key for e in enc.turns.entries] == [(15,), (3,)]
    enc = end_turn(enc, ALICE).state
    out = cmd(enc, "attack", GM, target="Nova", dice="9")
    assert "d20 9 + 1 + 10 horde = 20 vs Avoidance 25: miss" in texts(out)[0]
    out = cmd(enc, "attack", GM, target="Nova", dice="14 2")
    assert "d20 14 + 1 + 10 horde = 25 vs Avoidance 25: hit; 1d6 (2) + 10 horde = 12 Stamina" in texts(out)[0]
    out = cmd(enc, "attack", GM, target="Nova", dice="14", options="split=3")
    assert "d20 14 + 1 + 4 horde = 19 vs Avoidance 25: miss" in texts(out)[0]


def test_attacks_against_a_horde_take_out_one_member_and_it_splits_below_five():
    enc = horde()
    out = cmd(enc, "attack", ALICE, target="Zombie Horde", damage="6", roll=15)
    assert texts(out)[0] == (
        "Nova attacks Zombie Horde: d20 15 = 15 vs Avoidance 10: hit; 6 = 6; 6 > Fortitude 5 → massive: "
        "Zombie 1 is destroyed; 5 left in the horde, now +8 to hit and damage"
    )
    enc = out.state
    enc = end_turn(enc, ALICE).state
    enc = end_turn(enc, GM).state
    out = cmd(enc, "attack", ALICE, target="Zombie Horde", damage="6", roll=15)
    assert texts(out)[0].endswith("Zombie 2 is destroyed; 4 left, too few for a horde")
    assert "The horde breaks up: Zombie 3, Zombie 4, Zombie 5, Zombie 6 act on its initiative, together." in texts(out)
    enc = out.state
    assert [[enc.get(c).name for c in s] for s in enc.turns.slots] == [
        ["Nova"],
        ["Zombie 3", "Zombie 4", "Zombie 5", "Zombie 6"],
    ]
    enc = end_turn(enc, ALICE).state
    assert acting(enc) == ["Zombie 3", "Zombie 4", "Zombie 5", "Zombie 6"]


def test_a_horde_needs_five_identical_members():
    enc = new()
    enc = join(enc, "Nova", 15)
    enc = begin(join(enc, "Zombie", 5, count=4))
    with pytest.raises(InvalidInput, match="at least 5"):
        cmd(enc, "act", action="horde", target="Zombie")
    with pytest.raises(NotAllowed):
        cmd(enc, "act", ALICE, action="horde", target="Zombie")


# --- Unleashed, Danger Zone, end of scene ---------------------------------------------------
def villain(**stats):
    enc = new()
    enc = join(enc, "Nova", 15, attack=5)
    enc = join(enc, "Dr Rot", 18, **({"stamina": 30, "wounds": 3, "avoidance": 12} | stats))
    enc = begin(enc)
    return run(enc, "act", action="unleash", target="Dr Rot")


def test_unleashed_gets_an_extra_turn_at_initiative_minus_ten_and_double_stamina():
    enc = villain()
    rot = who(enc, "Dr Rot")
    assert (rot.stamina, rot.max_stamina, rot.economy.reactions) == (60, 60, 2)
    assert [[enc.get(c).name for c in s] for s in enc.turns.slots] == [["Dr Rot"], ["Nova"], ["Dr Rot (Unleashed)"]]
    assert [e.key for e in enc.turns.entries] == [(18,), (15,), (8,)]
    enc = end_turn(enc, GM).state
    enc = end_turn(enc, ALICE).state
    assert acting(enc) == ["Dr Rot (Unleashed)"]
    assert SYSTEM_STATUS(enc, "Dr Rot (Unleashed)") == "extra turn of Dr Rot"
    out = cmd(enc, "attack", GM, target="Nova", dice="3 17 2", options="unleashed", damage="1d4")
    assert "d20 adv (3, 17) 17" in texts(out)[0]
    with pytest.raises(NotAllowed, match="already used this round"):
        cmd(
            out.state,
            "attack",
            GM,
            actor="Dr Rot",
            target="Nova",
            dice="3 17",
            options="unleashed reaction",
            damage="1d4",
        )


def test_the_unleashed_advantage_serves_a_save_or_defense_check_once_a_round_shared_with_attacks():
    """ "Once per round, the villain may roll with Advantage on any attack, defense, or saving throw": one
    advantage a round, on a /save (a defense check is a /save against Avoidance or Willpower) or an /attack."""
    enc = villain()
    out = cmd(enc, "save", GM, actor="Dr Rot", kind="con", dc=15, dice="3 17", options="unleashed")
    assert "d20 adv (3, 17) 17" in texts(out)[0] and "[adv: Unleashed]" in texts(out)[0]
    for name, more in (("save", dict(kind="avoidance", dc=15)), ("attack", dict(target="Nova", damage="1d4"))):
        with pytest.raises(NotAllowed, match="already used this round's Unleashed advantage"):
            cmd(out.state, name, GM, actor="Dr Rot", dice="3 17 2", options="unleashed", **more)
    with pytest.raises(NotAllowed, match="Nova is not Unleashed"):
        cmd(enc, "save", GM, actor="Nova", kind="con", dc=15, dice="3 17", options="unleashed")
    attacked = run(enc, "attack", GM, target="Nova", dice="3 17 2", options="unleashed", damage="1d4")
    with pytest.raises(NotAllowed, match="already used this round's Unleashed advantage"):
        cmd(attacked, "save", GM, actor="Dr Rot", kind="willpower", dc=15, dice="3 17", options="unleashed")
    enc = out.state
    for _ in range(3):  # Dr Rot, Nova, the extra turn: round 2 gives it back
        enc = end_turn(enc, GM).state
    out = cmd(enc, "save", GM, actor="Dr Rot", kind="avoidance", dc=15, dice="3 17", options="unleashed")
    assert "d20 adv (3, 17) 17" in texts(out)[0]


def unleashed_shifting(pool=0):
    """Dr Rot, Unleashed, begins an interruptible demanding action; on Nova's turn it is hit for 4."""
    enc = run(villain(con=1), "act", GM, action="demanding", options='what="Doom Ray" interruptible')
    enc = end_turn(enc, GM).state.but(pool=pool)
    return cmd(enc, "attack", ALICE, target="Dr Rot", damage="4", dice="15 15")


def test_an_unleashed_villain_rolls_the_save_to_keep_its_action_with_its_advantage():
    """ "Once per round, the villain may roll with Advantage on any attack, defense, or saving throw": the
    Constitution save that keeps an interruptible action going is one."""
    out = unleashed_shifting()
    assert out.state.pending.keys == ("roll", "unleashed")  # no point in the pool: no automatic success
    out = apply(out.state, Choose(by=GM, pending_id=out.state.pending.id, option="unleashed", dice=(3, 17)))
    assert (
        "Dr Rot CON save to keep Doom Ray: d20 adv (3, 17) 17 + 1 = 18 vs DC 10: success [adv: Unleashed]"
        in (texts(out)[1])
    )
    # the round's advantage is spent: the next hit's save offers only the plain roll, and /save refuses it
    assert who(out.state, "Dr Rot").unleashed_adv_round == out.state.round
    again = cmd(out.state, "damage", target="Dr Rot", amount="4")
    assert again.state.pending.keys == ("roll",)


def test_an_unleashed_villain_may_succeed_automatically_on_the_save_to_keep_its_action():
    """ "Once per round, the Editor-in-Chief may use a plot point to have the villain automatically succeed in a
    saving throw"."""
    out = unleashed_shifting(pool=1)
    assert out.state.pending.keys == ("roll", "unleashed", "auto")
    with pytest.raises(NotAllowed):
        apply(out.state, Choose(by=ALICE, pending_id=out.state.pending.id, option="auto"))
    out = answer_by_key(out.state, "auto")
    assert texts(out)[1:] == [
        "🎭 The Editor-in-Chief spends a Plot Point from the pool: Dr Rot's CON save to keep Doom Ray (DC 10) "
        "succeeds automatically — still going (pool 0)."
    ]
    rot = who(out.state, "Dr Rot")
    assert rot.demanding is not None and rot.unleashed_save_round == out.state.round and out.state.pool == 0
    # once a round: the next damage's save does not offer it again (the advantage is still there)
    again = cmd(out.state.but(pool=1), "damage", target="Dr Rot", amount="4")
    assert again.state.pending.keys == ("roll", "unleashed")


def test_a_removed_unleashed_villain_takes_its_extra_turn_with_it():
    enc = end_turn(villain(), GM).state  # Nova's turn
    out = cmd(enc, "initiative_remove", combatant="Dr Rot")
    assert [c.name for c in out.state.combatants] == ["Nova"]
    enc = end_turn(out.state, ALICE).state
    assert acting(enc) == ["Nova"] and enc.round == 2


def test_an_extra_turn_is_not_unleashed_again_and_a_chain_saved_before_leaves_whole():
    enc = villain()
    with pytest.raises(InvalidInput, match="extra turn of an Unleashed villain"):
        cmd(enc, "act", GM, action="unleash", target="Dr Rot (Unleashed)")
    # a state saved while an extra turn could still be Unleashed: its own extra turn leaves with the villain
    extra = enc.find("Dr Rot (Unleashed)")
    chained = extra.but(id=f"c{enc.next_id}", name="Dr Rot (Unleashed) (Unleashed)", echo_of=extra.id)
    enc = enc.but(combatants=enc.combatants + (chained,), next_id=enc.next_id + 1)
    assert SYSTEM.leaving(enc, enc.find("Dr Rot").id) == (enc.find("Dr Rot").id, extra.id, chained.id)


def test_a_condition_timed_on_a_removed_combatants_turn_ends_with_the_round():
    enc = new()
    enc = join(join(enc, "Nova", 15), "Bolt", 10)
    enc = begin(join(enc, "Brute", 5))
    enc = run(enc, "condition_add", target="Nova", condition="Stunned", duration="end of Brute's next turn")
    enc = run(enc, "initiative_remove", combatant="Brute")
    assert "Stunned" in report("condition_list", enc, {}) and "until the end of the round" in report(
        "condition_list", enc, {}
    )
    enc = end_turn(enc, ALICE).state
    out = end_turn(enc, BOB)
    assert texts(out)[:2] == ["Nova is no longer Stunned.", "Round 2"]


def SYSTEM_STATUS(enc, name):
    from rules.systems.rotted_capes import SYSTEM

    return english(SYSTEM.status_line(enc, enc.find(name), reveal=True))


def report(name, enc, options):
    """A read-only report, in English."""
    return english(SYSTEM.report(name, enc, options))


def test_unleashed_zombie_gains_two_wounds_and_a_second_wind():
    enc = villain(zombie="true", zombie_level="alpha", wounds=4)
    assert who(enc, "Dr Rot").wounds == 6
    enc = run(enc, "damage", target="Dr Rot", amount="0", options="wounds=4")
    out = cmd(enc, "act", action="second wind", roll=3)
    assert texts(out) == ["Dr Rot catches a second wind: 1d4 (3) → 3 Wounds back (5/6 Wounds)."]
    with pytest.raises(NotAllowed, match="already used"):
        cmd(out.state, "act", actor="Dr Rot", action="second wind", roll=3)


def test_danger_zone_takes_turns_in_the_middle_and_at_the_end():
    enc = new()
    enc = join(enc, "Nova", 15)
    enc = join(enc, "Bolt", 10)
    enc = join(enc, "Brute", 5)
    enc = begin(enc)
    out = cmd(enc, "act", action="danger zone", options="middle end")
    enc = out.state
    assert [enc.get(s[0]).name for s in enc.turns.slots] == [
        "Nova",
        "Bolt",
        "Danger Zone (middle)",
        "Brute",
        "Danger Zone (end)",
    ]
    with pytest.raises(InvalidInput, match="already has its `end` turn"):
        cmd(enc, "act", action="danger zone", options="end")
    enc = end_turn(end_turn(enc, ALICE).state, BOB).state
    assert acting(enc) == ["Danger Zone (middle)"]
    with pytest.raises(InvalidInput):
        cmd(enc, "attack", ALICE, actor="Nova", target="Danger Zone (middle)", roll=5)


def test_end_of_scene_restores_stamina_half_if_unconscious_and_resets_limits():
    enc = plotted()
    enc = run(enc, "damage", target="Nova", amount="20")
    enc = run(enc, "damage", target="Bolt", amount="4")
    enc = run(enc, "plotpoint_spend", BOB, use="aid", target="Nova")
    enc = run(enc, "condition_add", target="Brute", condition="Frightened", duration="scene")
    out = cmd(enc, "act", action="end scene")
    nova, bolt = who(out.state, "Nova"), who(out.state, "Bolt")
    assert (nova.stamina, nova.has("Unconscious")) == (5, False)
    assert bolt.stamina == 10 and not bolt.aided_this_scene
    assert not who(out.state, "Brute").conditions


def test_the_end_of_a_scene_ends_a_zombies_scene_long_conditions_too():
    enc = burning(zombie="true", zombie_level="delta", wounds=3, stamina_defense=20)
    enc = end_turn(enc, ALICE, dice=(2,)).state
    enc = run(enc, "condition_add", target="Brute", condition="Stunned", tags="Lesser, Sonic", duration="scene")
    out = cmd(enc, "act", action="end scene")
    brute = who(out.state, "Brute")
    assert not brute.has("Stunned") and brute.has("Ongoing Damage")
    assert brute.ongoing_total == 0


def test_unconscious_combatants_pass_their_turn():
    enc = plotted()
    enc = run(enc, "damage", target="Bolt", amount="10")
    out = end_turn(enc, ALICE)
    assert "Bolt is Unconscious: the turn passes." not in texts(out)
    assert acting(out.state) == ["Brute"]


# --- smaller rules -------------------------------------------------------------------------------
def test_seed_example_standing_up_costs_half_the_pace():
    enc = new()
    enc = join(enc, "Nova", 15, pace=4)
    enc = begin(join(enc, "Brute", 5))
    enc = run(enc, "act", ALICE, action="prone")
    out = cmd(enc, "act", ALICE, action="stand")
    assert texts(out) == ["Nova stands up (2 areas of Pace; 2 left)."]
    with pytest.raises(InvalidInput, match="not Prone"):
        cmd(out.state, "act", ALICE, action="stand")


def test_grappled_pace_is_zero_and_a_dodger_without_pace_loses_the_benefit():
    enc = new()
    enc = join(enc, "Nova", 15, avoidance=15)
    enc = begin(join(enc, "Brute", 5, attack=4))
    enc = run(enc, "act", ALICE, action="dodge")
    enc = run(enc, "condition_add", target="Nova", condition="Grappled", tags="Tentacle")
    enc = end_turn(enc, ALICE).state
    out = cmd(enc, "attack", GM, target="Nova", damage="1", roll=12)
    assert "d20 12 + 4 = 16 vs Avoidance 15: hit" in texts(out)[0]
    enc = end_turn(enc, GM).state
    assert who(enc, "Nova").economy.pace == 0


def test_weakened_defense_and_exhaustion_pace():
    enc = new()
    enc = join(enc, "Nova", 15, attack=5, pace=5)
    enc = begin(join(enc, "Brute", 5, avoidance=15))
    enc = run(enc, "condition_add", target="Brute", condition="Weakened", tags="Avoidance, Severe")
    out = cmd(enc, "attack", ALICE, target="Brute", damage="1", roll=6)
    assert "d20 6 + 5 = 11 vs Avoidance 11: hit" in texts(out)[0]
    enc = run(enc, "condition_add", target="Nova", condition="Exhaustion 2")
    enc = end_turn(end_turn(enc, ALICE).state, GM).state
    assert who(enc, "Nova").economy.pace == 3


def test_a_hit_absorbed_by_dr_still_interrupts_at_dc_ten():
    enc = stepaside()
    enc = enc.update(who(enc, "Stepaside").id, sheet=who(enc, "Stepaside").sheet.but(dr="all:20"))
    out = cmd(enc, "attack", GM, target="Stepaside", damage="5", dice="3 15")
    assert "5 = 5 − DR 20 (all) = 0 Stamina" in texts(out)[0]
    assert out.state.pending.context["dc"] == 10


def test_healing_wakes_and_wounds_heal_the_wounded_condition():
    enc = begin(join(join(new(), "Nova", 15, stamina=10, fortitude=4), "Brute", 5))
    enc = run(enc, "damage", target="Nova", amount="12")
    nova = who(enc, "Nova")
    assert nova.has("Unconscious") and nova.has("Wounded")
    enc = run(enc, "heal", target="Nova", amount="1d4", roll=3)
    assert not who(enc, "Nova").has("Unconscious") and who(enc, "Nova").stamina == 3
    out = cmd(enc, "heal", target="Nova", amount="5", options="wounds")
    assert texts(out) == ["Nova recovers 1 Wound: 5 = 5 (3/10 Stamina, 3/3 Wounds)."]
    assert not who(out.state, "Nova").has("Wounded")


def test_an_incapacitated_hero_with_ongoing_damage_takes_it_and_passes():
    enc = new()
    enc = join(enc, "Nova", 15)
    enc = join(enc, "Bolt", 12, stamina=30, fortitude=40)
    enc = begin(join(enc, "Brute", 5))
    enc = run(enc, "damage", target="Bolt", amount="0", options="wounds=3")
    enc = run(enc, "condition_add", target="Bolt", condition="Ongoing Damage", options="damage=2 type=acid dc=15")
    out = end_turn(enc, ALICE, dice=(3,))
    assert "Bolt saves against Ongoing Damage: d20 3 + 0 = 3 vs DC 15: failure." in texts(out)
    assert "Bolt is Incapacitated: the turn passes." in texts(out)
    assert acting(out.state) == ["Brute"] and who(out.state, "Bolt").stamina == 28


def test_unleashed_brute_keeps_its_stamina_and_may_auto_save_with_the_pool():
    enc = villain(brute="true")
    assert who(enc, "Dr Rot").stamina == 30
    with pytest.raises(NotAllowed, match="pool has no Plot Point"):
        cmd(enc, "save", actor="Dr Rot", kind="con", dc=15, options="auto")
    enc = enc.but(pool=1)
    out = cmd(enc, "save", actor="Dr Rot", kind="con", dc=15, options="auto")
    assert texts(out) == [
        "🎭 The Editor-in-Chief spends a Plot Point from the pool: Dr Rot's CON save (DC 15) succeeds automatically "
        "(pool 0)."
    ]
    with pytest.raises(NotAllowed, match="already used this round"):
        cmd(out.state.but(pool=1), "save", actor="Dr Rot", kind="con", dc=15, options="auto")


def test_a_save_can_be_rerolled_with_a_plot_point():
    enc = begin(join(join(new(), "Nova", 15, con=1), "Brute", 5))
    enc = run(enc, "condition_add", target="Nova", condition="Stunned", duration="save", options="dc=13", tags="Lesser")
    out = cmd(enc, "save", ALICE, kind="stunned", dice="4 9")
    assert "d20 dis (4, 9) 4 + 1 = 5 vs DC 13: failure" in texts(out)[0]
    out = cmd(out.state, "plotpoint_spend", ALICE, use="reroll", dice="17 15")
    assert texts(out)[1:] == [
        "Nova CON save: d20 dis (17, 15) 15 + 1 = 16 vs DC 13: success [dis: stunned]",
        "Nova shakes off Stunned (Lesser).",
    ]


def test_bad_sheets_are_refused_with_a_clear_message():
    with pytest.raises(InvalidInput, match="dr"):
        join(new(), "Brute", 5, dr="lasers:5")
    with pytest.raises(InvalidInput, match="Unknown stat"):
        join(new(), "Brute", 5, strength=5)
    with pytest.raises(InvalidInput, match="zombie level"):
        join(new(), "Brute", 5, zombie_level="kappa")
    with pytest.raises(InvalidInput, match="damage type must be one of"):
        join(new(), "Brute", 5, damage_type="laser")


def test_every_command_refuses_a_damage_type_the_seed_does_not_know():
    enc = begin(join(join(new(), "Nova", 15), "Brute", 5, damage_type=" FIRE "))
    assert enc.combatants[-1].sheet.damage_type == "fire"
    known = "Damage type must be one of: cold, cosmic, electricity, fire"
    with pytest.raises(InvalidInput, match=known):
        cmd(enc, "attack", GM, target="Brute", damage="1", damage_type="laser")
    with pytest.raises(InvalidInput, match=known):
        cmd(enc, "damage", target="Nova", amount="3", damage_type="laser")
    with pytest.raises(InvalidInput, match=known):
        cmd(enc, "condition_add", target="Nova", condition="Ongoing Damage", options="damage=1d6 type=laser")


def test_read_only_reports_and_the_spend_menu_values():
    enc = plotted()
    assert report("plotpoint_show", enc, {}) == "🎭 Plot Points: Nova 1, Bolt 1; the Editor-in-Chief's pool: 0."
    enc = run(enc, "condition_add", target="Brute", condition="Prone")
    assert report("condition_list", enc, {}) == "**Brute**: Prone — until removed"
    # Wound Recovery is rolled between fights: a point spent on it in a fight changed nothing
    with pytest.raises(InvalidInput, match="kind:hiatus"):
        cmd(enc, "plotpoint_spend", ALICE, use="ignore_recovery")
    out = cmd(enc, "plotpoint_spend", ALICE, use="narrative")
    assert texts(out) == ["🎭 Nova spends a Plot Point to shape the story (0 left; pool 1)."]
    with pytest.raises(InvalidInput, match="buttons"):
        cmd(enc, "plotpoint_spend", ALICE, use="escape_death")
    enc = run(
        enc, "attack", ALICE, target="Brute", damage="1d6", dice="15 1 3"
    )  # advantage (prone): two d20s, then the 1d6
    out = cmd(enc, "plotpoint_spend", ALICE, use="reroll", text="the damage", dice="5")
    assert "1d6 (5) = 5 Stamina" in texts(out)[1]


def test_ongoing_damage_of_bracketed_dice_ticks_and_the_fight_goes_on():
    # `(1d6)kh1` once stopped every turn change: the tick's roll failed inside the evaluator
    enc = begin(join(join(new(), "Nova", 15), "Brute", 5, stamina=40))
    enc = run(
        enc, "condition_add", target="Brute", condition="Ongoing Damage", options="damage=(2d6)kh1 type=fire dc=12"
    )
    out = end_turn(enc, ALICE, dice=(2, 5))
    assert "Brute takes fire Ongoing Damage: (2d6)kh1 (~~2~~, 5) = 5 Stamina" in texts(out)[0]
    assert who(out.state, "Brute").stamina == 35
    assert end_turn(out.state, GM, dice=(4,)).state.round == 2


@pytest.mark.parametrize(
    ("damage", "refusal"),
    [
        ("-50", "between 1 and 1000"),
        ("0", "between 1 and 1000"),
        ("1d6-100", "above 0"),
        ("1d6pl1//7", "above 0"),
        ("0.5", "whole numbers"),
        ("(5000)", "1000"),
    ],
)
def test_an_attack_damage_that_cannot_hurt_is_refused_as_a_damage_amount_is(damage, refusal):
    enc = begin(join(join(new(), "Nova", 15), "Brute", 5))
    with pytest.raises(InvalidInput, match=refusal):
        cmd(enc, "attack", GM, actor="Brute", target="Nova", damage=damage, roll=15, options="free")
    hit = cmd(enc, "attack", GM, actor="Brute", target="Nova", damage="(1d6)kh1", dice="15 4", options="free")
    assert "(1d6)kh1 (4) = 4" in texts(hit)[0]


def _engulfed():
    enc = begin(join(join(new(), "Nova", 15, dr="physical:6", fortitude=20, stamina=30), "Super-Z", 5))
    return run(
        enc, "condition_add", GM, target="Nova", condition="Ongoing Damage", tags="Engulfed, Fire", options="damage=3"
    )


def test_a_condition_that_replaces_another_of_its_name_says_so():
    # the same fire again, hotter, takes the first one's place (its tags name its source), and the GM is told
    out = cmd(
        _engulfed(),
        "condition_add",
        GM,
        target="Nova",
        condition="Ongoing Damage",
        tags="Engulfed, Fire",
        options="damage=2d6 type=fire",
    )
    assert texts(out)[0].endswith(". It replaces the Ongoing Damage (Engulfed, Fire) they had.")
    nova = who(out.state, "Nova")
    assert [english(x.label()) for x in nova.conditions] == ["Ongoing Damage (Engulfed, Fire)"]
    assert nova.conditions[0].damage == "2d6"
    # a Stunned of other tags replaces the one held: a bearer is stunned once
    enc = run(out.state, "condition_add", GM, target="Nova", condition="Stunned", tags="Lesser")
    out = cmd(enc, "condition_add", GM, target="Nova", condition="Stunned", tags="Greater")
    assert texts(out)[0].endswith(". It replaces the Stunned (Lesser) they had.")


def test_the_same_condition_again_or_more_exhaustion_replaces_nothing_said():
    again = cmd(
        _engulfed(),
        "condition_add",
        GM,
        target="Nova",
        condition="Ongoing Damage",
        tags="Engulfed, Fire",
        options="damage=3",
    )
    assert "replaces" not in texts(again)[0]
    enc = run(_engulfed(), "condition_add", GM, target="Nova", condition="Exhaustion")
    more = cmd(enc, "condition_add", GM, target="Nova", condition="Exhaustion")
    assert texts(more) == ["Nova has Exhaustion 2 until removed."]


def test_the_dr_line_shows_the_full_dr_and_what_the_acid_cut_from_it():
    """Seed 000: "A Super-Z sprays you with acid: Ongoing Damage (Engulfed – Acid, DR -2 to armor)": the damage line
    says the DR that counts, the DR on the sheet and the cut, so the GM sees where the smaller number comes from."""
    enc = begin(join(join(new(), "Nova", 15, dr="physical:4", fortitude=20, stamina=30), "Super-Z", 5))
    tags = "Engulfed – Acid, DR -2 to armor"
    enc = run(enc, "condition_add", GM, target="Nova", condition="Ongoing Damage", tags=tags, options="damage=1")
    out = cmd(enc, "damage", GM, target="Nova", amount="10", damage_type="kinetic")
    assert texts(out)[0].startswith(
        "Nova takes kinetic damage: 10 = 10 − DR 2 (physical 4, −2 from Ongoing Damage) = 8"
    )
    # a cut that eats the whole DR still shows, where no DR at all shows no step
    enc = run(enc, "condition_add", GM, target="Nova", condition="Weakened", tags="Fortitude, DR -5")
    out = cmd(enc, "damage", GM, target="Nova", amount="10", damage_type="kinetic")
    assert texts(out)[0].startswith("Nova takes kinetic damage: 10 = 10 − DR 0 (physical 4, −5 from Weakened) = 10")
    out = cmd(enc, "damage", GM, target="Nova", amount="10", damage_type="fire")
    assert texts(out)[0].startswith("Nova takes fire damage: 10 = 10 Stamina")


def test_two_dr_penalties_do_not_stack_the_larger_counts():
    # "Engulfed – Acid (DR penalty)": the larger of two penalties counts, whichever condition came first
    enc = run(_engulfed(), "condition_add", GM, target="Nova", condition="Weakened", tags="Fortitude, DR -1")
    enc = run(
        enc,
        "condition_add",
        GM,
        target="Nova",
        condition="Ongoing Damage",
        tags="Engulfed, Acid, DR -4",
        options="damage=1 type=acid",
    )
    out = cmd(enc, "damage", GM, target="Nova", amount="10", damage_type="kinetic")
    assert texts(out)[0].startswith(
        "Nova takes kinetic damage: 10 = 10 − DR 2 (physical 6, −4 from Ongoing Damage) = 8 Stamina"
    )


def test_a_source_typed_with_a_hyphen_is_the_one_printed_with_a_dash():
    """Discord users type "Engulfed - Fire" for the label's "Engulfed – Fire": the same source."""
    enc = burning_and_soaked()
    out = cmd(enc, "condition_remove", target="Brute", condition="Ongoing Damage (Engulfed - Fire)")
    assert ongoing_labels(out.state, "Brute") == ["Ongoing Damage (Engulfed – Acid)"]
    out = cmd(
        enc,
        "condition_add",
        target="Brute",
        condition="Ongoing Damage",
        tags="Engulfed - Acid",
        options="damage=2d4 type=acid dc=14",
    )
    assert texts(out)[0].endswith(". It replaces the Ongoing Damage (Engulfed – Acid) they had.")
    assert ongoing_labels(out.state, "Brute") == [
        "Ongoing Damage (Engulfed – Fire)",
        "Ongoing Damage (Engulfed - Acid)",
    ]
