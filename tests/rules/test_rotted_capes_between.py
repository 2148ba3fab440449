"""Rotted Capes between fights: a hero's Wounds, Plot Points and Exhaustion outlive the fight;
end of scene, Hiatus (Wound Recovery) and a new Issue with the seed's numbers."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, EndEncounter, NextTurn
from rules.carry import handed_back
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed, UnknownAction
from rules.model import Actor
from rules.randomness import Chance
from rules.said import english
from rules.system import CheckRequest, Resting
from rules.systems.rotted_capes import SYSTEM
from rules.systems.rotted_capes.actions import AddCondition, Damage, Heal, PlotSpend
from tests.helpers import GM

ALICE = Actor(user_id=11)
SHEET = {"con": "1", "stamina": "20", "wounds": "3", "fortitude": "10", "dex": "2"}


def new(campaign=None):
    enc = SYSTEM.new_encounter(1, 7, {"offer_plot_disadvantage": False})
    return SYSTEM.campaign_in(enc, campaign) if campaign is not None else enc


def join(enc, name="Nova", lasting=None, roll=10, sheet=SHEET):
    action = AddCombatants(
        by=ALICE,
        name=name,
        sheet=sheet,
        npc=False,
        controller_id=ALICE.user_id,
        character_id=5,
        dice=(roll,),
        lasting=lasting,
    )
    return apply(enc, action).state


def gm(enc, action):
    return apply(enc, action).state


def resting(lasting, name="Nova", sheet=SHEET):
    return Resting(name=name, owner_id=ALICE.user_id, sheet=SYSTEM.parse_sheet(sheet), lasting=lasting)


def rest(kind, *characters, dice=(), campaign=None, **options):
    chance = Chance(3, (), dice)
    outcome = SYSTEM.rest(kind, tuple(characters), campaign or {}, options, chance)
    chance.finish()
    return outcome


def texts(outcome):
    return [e.text for e in outcome.events]


def test_wounds_plot_points_and_the_pool_carry_into_the_next_fight():
    enc = apply(join(new()), NextTurn(by=GM)).state
    enc = gm(enc, Damage(by=GM, target="Nova", amount="12"))  # 12 > Fortitude 10: massive, 1 Wound
    enc = gm(enc, PlotSpend(by=ALICE, use="narrative", actor="Nova", text="a lucky break"))
    enc = gm(enc, AddCondition(by=GM, target="Nova", condition="Weakened", tags="Strength"))
    enc = gm(enc, AddCondition(by=GM, target="Nova", condition="Exhaustion 2"))
    enc = gm(enc, AddCondition(by=GM, target="Nova", condition="Prone"))
    nova = enc.find("Nova")
    assert (nova.wounds, nova.stamina, nova.plot_points, enc.pool) == (2, 8, 0, 1)
    enc = apply(enc, EndEncounter(by=GM)).state
    kept = SYSTEM.lasting(enc, enc.find("Nova"))
    assert kept["wounds"] == 2 and kept["plot_points"] == 0 and kept["exhaustion"] == 2 and kept["stamina"] == 8
    assert kept["conditions"] == [{"name": "Weakened", "tags": ["Strength"]}]  # Prone stays in the fight
    campaign = SYSTEM.campaign_out(enc)
    assert campaign == {"pool": 1}

    later = join(new(campaign), lasting=kept)
    nova = later.find("Nova")
    assert (nova.wounds, nova.max_wounds, nova.stamina, nova.plot_points, later.pool) == (2, 3, 8, 0, 1)
    assert [english(c.label()) for c in nova.conditions] == ["Weakened (Strength)", "Exhaustion 2", "Wounded"]
    assert not nova.has("Prone")


def test_without_lasting_state_a_hero_starts_fresh_and_a_dead_hero_cannot_join():
    nova = join(new()).find("Nova")
    assert (nova.wounds, nova.stamina, nova.plot_points) == (3, 20, 1)
    with pytest.raises(NotAllowed, match="is dead: the GM can set `dead` to no"):
        join(new(), lasting={"dead": True})


def test_unconscious_from_stamina_loss_carries_over_and_a_flaw_lowers_maximum_wounds():
    later = join(new(), lasting={"stamina": 0, "unconscious": True, "wounds": 1, "flaws": 1})
    nova = later.find("Nova")
    assert (nova.stamina, nova.wounds, nova.max_wounds) == (0, 1, 2)
    assert nova.has("Unconscious") and nova.has("Wounded")


def test_a_hero_kept_awake_by_temporary_stamina_leaves_the_fight_unconscious_at_zero_stamina():
    # Temporary Stamina "increases your current Stamina for a limited time": it ends with the fight, and the
    # hero's own 0 Stamina, "Unconscious", is what lasts (half their Stamina back at the end of the scene)
    enc = apply(join(new()), NextTurn(by=GM)).state
    enc = gm(enc, Damage(by=GM, target="Nova", amount="20", flags={"ap": True}))
    enc = gm(enc, Heal(by=GM, target="Nova", amount="5", flags={"temp": True}))
    assert not enc.find("Nova").has("Unconscious")
    enc = apply(enc, EndEncounter(by=GM)).state
    kept = SYSTEM.lasting(enc, enc.find("Nova"))
    assert (kept["stamina"], kept["unconscious"]) == (0, True)


def test_flaws_past_the_sheets_wounds_say_the_maximum_stays_at_one():
    sheet = SYSTEM.parse_sheet(SHEET)
    said = [english(line) for line in SYSTEM.lasting_lines(sheet, {"flaws": 2})]
    assert any("Wounds 1/1; 2 physical flaws (maximum Wounds −2)" in line for line in said), said
    said = [english(line) for line in SYSTEM.lasting_lines(sheet, {"flaws": 3})]
    assert any("Wounds 1/1; 3 physical flaws (maximum Wounds −3, never below 1)" in line for line in said), said


def test_end_of_scene_gives_all_stamina_back_or_half_when_unconscious():
    out = rest(
        "end_scene", resting({"stamina": 3, "wounds": 2}, "Nova"), resting({"stamina": 0, "unconscious": True}, "Bolt")
    )
    assert [r.lasting["stamina"] for r in out.characters] == [20, 10]
    assert texts(out)[1:] == [
        "Nova recovers all of their Stamina (20/20).",
        "Bolt was Unconscious from Stamina loss: half their total Stamina back (10/20).",
    ]
    assert out.characters[0].lasting["wounds"] == 2


def test_one_hiatus_per_wound_before_the_recovery_roll():
    hurt = resting({"wounds": 1})  # 2 Wounds taken: two Hiatuses, then the roll
    first = rest("hiatus", hurt)
    assert first.characters[0].lasting["hiatuses"] == 1
    assert texts(first)[1] == "Nova takes Hiatus 1 of 2 (one per Wound they have) before a Wound Recovery roll."
    # d20 14 + 1 CON = 15 vs DC 15: success (a save takes no Wounded penalty)
    second = rest("hiatus", first.characters[0], dice=(14,))
    state = second.characters[0].lasting
    assert state["wounds"] == 2 and state["hiatuses"] == 0
    assert texts(second)[1] == (
        "Nova CON save (Wound Recovery, 2 Hiatuses taken): d20 14 + 1 = 15 vs DC 15: success, 1 Wound recovered"
        " (2/3 Wounds)."
    )
    assert "dice entered by hand" in texts(second)[0]


def test_no_wounds_means_nothing_to_recover_but_exhaustion_drops():
    out = rest("hiatus", resting({"exhaustion": 2}), resting({"exhaustion": 1}, "Bolt"), unfed="Bolt")
    assert [r.lasting["exhaustion"] for r in out.characters] == [1, 1]
    assert texts(out)[1:] == [
        "Nova has no Wounds to recover; Exhaustion 2 → 1.",
        "Bolt has no Wounds to recover; Exhaustion stays at 1 (no food and drink).",
    ]


def test_failing_by_four_or_less_changes_nothing():
    out = rest("hiatus", resting({"wounds": 2}), dice=(11,))  # 11 + 1 = 12: failed by 3
    assert out.characters[0].lasting["wounds"] == 2
    assert texts(out)[1].endswith("= 12 vs DC 15: failure (failed by 3): no Wound recovered, no further harm.")


def test_failing_by_five_or_more_rolls_on_the_wound_recovery_table():
    out = rest("hiatus", resting({"wounds": 2}), dice=(4, 3))  # 4 + 1 = 5: failed by 10; d6 3 → Constitution
    state = out.characters[0].lasting
    assert state["wounds"] == 2 and state["attribute_losses"] == ["Constitution"]
    assert (
        "failure (failed by 10): no Wound recovered, and a random attribute score is permanently reduced by 1: "
        "d6 3 → Constitution" in texts(out)[1]
    )
    shown = list(map(english, SYSTEM.lasting_lines(out.characters[0].sheet, state)))
    assert "Attribute scores lowered for good: Constitution −1" in shown


def test_a_natural_one_costs_a_wound_and_at_zero_the_hero_dies():
    out = rest("hiatus", resting({"wounds": 2}), dice=(1,))
    assert out.characters[0].lasting["wounds"] == 1
    assert "natural 1: an additional Wound as their condition worsens (1/3 Wounds)" in texts(out)[1]
    last = rest("hiatus", resting({"wounds": 1, "hiatuses": 1}), dice=(1,))
    assert last.characters[0].lasting["dead"] is True
    assert "succumbs to their injuries and dies" in texts(last)[1]


def test_a_natural_one_with_a_physical_condition_heals_a_wound_instead():
    out = rest("hiatus", resting({"wounds": 2}), dice=(1,), flaw="Nova")
    state = out.characters[0].lasting
    assert state["wounds"] == 3 and state["weaknesses"] == ["Physical Condition (Wound Recovery)"]


def test_a_medic_gives_advantage():
    out = rest("hiatus", resting({"wounds": 2}), dice=(4, 17), medic="Nova")
    assert out.characters[0].lasting["wounds"] == 3
    assert "d20 adv (4, 17) 17 + 1 = 18 vs DC 15 [adv: medic]: success" in texts(out)[1]


def test_a_plot_point_ignores_a_failed_roll_and_goes_to_the_pool():
    out = rest("hiatus", resting({"wounds": 2, "plot_points": 2}), dice=(1,), campaign={"pool": 3}, plot_point="Nova")
    state = out.characters[0].lasting
    assert state["wounds"] == 2 and state["plot_points"] == 1 and out.campaign == {"pool": 4}
    assert "spends a Plot Point to ignore it" in texts(out)[1]
    # a roll that fails by 4 or less needs no Plot Point
    mild = rest("hiatus", resting({"wounds": 2, "plot_points": 2}), dice=(12,), plot_point="Nova")
    assert mild.characters[0].lasting["plot_points"] == 2 and mild.campaign == {}
    with pytest.raises(NotAllowed, match="no Plot Point"):
        rest("hiatus", resting({"wounds": 2, "plot_points": 0}), dice=(1,), plot_point="Nova")


def test_rest_options_name_resting_heroes_and_dice_must_all_be_used():
    with pytest.raises(InvalidInput, match="Bolt is not among the resting characters"):
        rest("hiatus", resting({"wounds": 2}), dice=(12,), medic="Bolt")
    with pytest.raises(InvalidInput, match="not needed"):
        rest("hiatus", resting({}), dice=(12,))
    with pytest.raises(UnknownAction, match="Rests: `end_scene`, `hiatus`, `new_issue`"):
        rest("nap", resting({}))


def test_a_new_issue_resets_plot_points_and_empties_the_pool_in_a_fight_and_between_fights():
    """Seed 000: "Plot Points are reset to one at the start of each new Issue." It says nothing of the
    Editor-in-Chief's pool: the bot's default (SYSTEMS.md, README, /help) empties it, and the campaign rest
    and the in-fight `/plotpoint issue` agree."""
    out = rest("new_issue", resting({"plot_points": 0}), resting({"plot_points": 4}, "Bolt"), campaign={"pool": 3})
    assert [r.lasting["plot_points"] for r in out.characters] == [1, 1]
    assert out.campaign == {"pool": 0}
    line = "📰 A new Issue: every hero's Plot Points reset to 1; the Editor-in-Chief's pool is emptied (it held 3)."
    assert texts(out)[0] == line
    fight = apply(join(new({"pool": 3})), SYSTEM.command("plotpoint_issue", GM, {}))
    assert fight.state.pool == 0 and [e.text for e in fight.events] == [line]
    # nothing to empty: nothing said of the pool
    assert texts(rest("new_issue", resting({}), campaign={"pool": 0}))[0] == (
        "📰 A new Issue: every hero's Plot Points reset to 1."
    )
    two = SYSTEM.rest("new_issue", (resting({}),), {}, {}, Chance(1), {"starting_plot_points": 2})
    assert two.characters[0].lasting["plot_points"] == 2


def test_a_campaign_may_keep_the_pool_at_a_new_issue():
    keep = {"empty_pool_at_new_issue": False}
    assert SYSTEM.default_options()["empty_pool_at_new_issue"] is True
    out = SYSTEM.rest("new_issue", (resting({"plot_points": 0}),), {"pool": 3}, {}, Chance(1), keep)
    assert out.campaign == {"pool": 3} and out.characters[0].lasting["plot_points"] == 1
    assert texts(out)[0] == "📰 A new Issue: every hero's Plot Points reset to 1."
    enc = SYSTEM.campaign_in(SYSTEM.new_encounter(1, 7, {"offer_plot_disadvantage": False} | keep), {"pool": 3})
    fight = apply(join(enc), SYSTEM.command("plotpoint_issue", GM, {}))
    assert fight.state.pool == 3 and [e.text for e in fight.events] == texts(out)[:1]


def test_a_pool_emptied_in_a_fight_is_empty_in_the_campaign_after_it():
    """The fight's end writes the pool's change on top of the campaign's: emptied from 3, the campaign's 3 is
    emptied too, and points spent after the new Issue are what the campaign keeps."""
    begun = join(new({"pool": 3}))
    emptied = apply(begun, SYSTEM.command("plotpoint_issue", GM, {})).state
    ended = apply(emptied, EndEncounter(by=GM)).state
    assert handed_back({"pool": 3}, SYSTEM.campaign_out(begun), SYSTEM.campaign_out(ended)) == {"pool": 0}
    spent = gm(emptied, PlotSpend(by=ALICE, use="narrative", actor="Nova", text="a lucky break"))
    assert handed_back({"pool": 3}, SYSTEM.campaign_out(begun), SYSTEM.campaign_out(spent)) == {"pool": 1}


def test_gm_adjustments_are_checked_and_shown():
    sheet = SYSTEM.parse_sheet(SHEET)
    state = SYSTEM.adjust(sheet, {}, "wounds", "1")
    state = SYSTEM.adjust(sheet, state, "conditions", "Weakened (Strength, Mild), Charmed")
    state = SYSTEM.adjust(sheet, state, "exhaustion", "2")
    assert state["conditions"] == [{"name": "Weakened", "tags": ["Strength", "Mild"]}, {"name": "Charmed", "tags": []}]
    with pytest.raises(InvalidInput, match="at most 3"):
        SYSTEM.adjust(sheet, state, "wounds", "4")
    with pytest.raises(InvalidInput, match="between 0 and 6"):
        SYSTEM.adjust(sheet, state, "exhaustion", "7")
    with pytest.raises(InvalidInput, match="does not last"):
        SYSTEM.adjust(sheet, state, "conditions", "Prone")
    assert list(map(english, SYSTEM.lasting_lines(sheet, state))) == [
        "Stamina 20/20",
        "Wounds 1/3 (Wounded −2; Hiatuses towards the next Wound Recovery roll: 0 of 2)",
        "Plot Points 1",  # none stored: the campaign's starting number, as the next fight starts the hero
        "Exhaustion 2",
        "Conditions: Weakened (Strength, Mild), Charmed",
    ]
    assert set(SYSTEM.adjustable()) >= {"wounds", "plot_points", "exhaustion", "stamina", "conditions"}


def test_the_wound_recovery_roll_is_a_constitution_save_with_what_the_hero_carries():
    """Seed 000, Weakened: "a –2 penalty to all rolls, checks … based on the targeted Ability (… Severe = –4)"."""
    weakened = {"wounds": 2, "conditions": [{"name": "Weakened", "tags": ["Constitution", "Severe"]}]}
    # 15 + CON 1 − Severe 4 (weakened, the modifier shown is 1 − 4) = 12: failed by 3; a save takes no
    # Wounded penalty ("a penalty to all challenge rolls and attack rolls")
    out = rest("hiatus", resting(weakened), dice=(15,))
    assert "d20 15 − 3 = 12 vs DC 15: failure (failed by 3)" in texts(out)[1]
    # the same roll as /check's Constitution save of the same hero
    request = CheckRequest(
        kind="save", who=resting(weakened), dc=15, options={}, campaign={}, settings=SYSTEM.default_options()
    )
    check = SYSTEM.roll_check(request, Chance(3, (), (15,)))
    assert "d20 15 − 3 = 12 vs DC 15: failure" in english(check.lines[0])


def test_in_brutal_continuity_the_wound_recovery_roll_takes_the_exhaustion_the_hiatus_leaves():
    # Brutal Continuity: "the penalty also applies to the Hero's saves"; the Hiatus first lowers Exhaustion 3 to 2
    chance = Chance(3, (), (15,))
    tired = resting({"wounds": 2, "exhaustion": 3})
    out = SYSTEM.rest("hiatus", (tired,), {}, {}, chance, {"brutal_continuity": True})
    chance.finish()
    assert "d20 15 + 1 − 2 exhaustion = 14 vs DC 15: failure (failed by 1)" in english(texts(out)[1])


def test_exhaustion_six_or_no_wounds_and_no_stamina_set_between_fights_is_death_and_dead_no_brings_back():
    sheet = SYSTEM.parse_sheet(SHEET)
    exhausted = SYSTEM.fit_lasting(sheet, SYSTEM.adjust(sheet, {}, "exhaustion", "6"))
    assert exhausted["dead"] is True and "Dead" in map(english, SYSTEM.lasting_lines(sheet, exhausted))
    back = SYSTEM.fit_lasting(sheet, SYSTEM.adjust(sheet, exhausted, "dead", "no"))
    assert back["dead"] is False and back["exhaustion"] == 5
    spent = SYSTEM.adjust(sheet, SYSTEM.adjust(sheet, {}, "stamina", "0"), "wounds", "0")
    assert spent["dead"] is True
    assert SYSTEM.adjust(sheet, {}, "wounds", "0").get("dead") is None  # Stamina left: Wounded, not dead
    revived = SYSTEM.fit_lasting(sheet, SYSTEM.adjust(sheet, spent, "dead", "no"))
    assert revived["dead"] is False and revived["wounds"] == 1
    out = rest("end_scene", resting(spent))
    assert out.characters[0].lasting == spent
    assert texts(out)[1] == "Nova is dead: the end of a scene changes nothing."


def test_a_companion_holds_no_plot_points_of_its_own_between_fights():
    rex = resting({"wounds": 2}, "Rex", sheet=SHEET | {"companion_of": "Nova"})
    issue = rest("new_issue", resting({}), rex)
    assert [r.lasting.get("plot_points") for r in issue.characters] == [1, None]
    assert not any("Rex" in text for text in texts(issue))
    with pytest.raises(NotAllowed, match="Rex holds no Plot Points of their own"):
        rest("hiatus", rex, dice=(1,), plot_point="Rex")


def test_the_wound_recovery_tables_edges_fail_by_4_fail_by_5_and_a_1_whatever_the_total():
    """Seed 000, Wound Recovery: "Fail by 4 or less. You do not recover a Wound and suffer no additional adverse
    effects." / "Fail by 5 or more. … permanently reduce a random attribute score by 1." / "Roll a 1 You suffer
    an additional Wound"."""
    by_four = rest("hiatus", resting({"wounds": 2}), dice=(10,))  # 10 + 1 = 11: failed by 4
    assert by_four.characters[0].lasting == {"wounds": 2, "hiatuses": 0}
    by_five = rest("hiatus", resting({"wounds": 2}), dice=(9, 6))  # 9 + 1 = 10: failed by 5; d6 6
    assert by_five.characters[0].lasting["attribute_losses"] == ["Charisma"]
    strong = SHEET | {"con": "16"}  # a 1 + 16 = 17 would pass the DC: the table's row is still "Roll a 1"
    one = rest("hiatus", resting({"wounds": 2}, sheet=strong), dice=(1,))
    assert one.characters[0].lasting["wounds"] == 1


def test_half_of_an_odd_stamina_at_the_end_of_a_scene_rounds_down():
    odd = SHEET | {"stamina": "15"}
    out = rest("end_scene", resting({"stamina": 0, "unconscious": True}, sheet=odd))
    assert out.characters[0].lasting == {"stamina": 7, "unconscious": False}


def test_plotpoint_show_between_fights_lists_the_stored_heroes_as_the_next_fight_starts_them():
    sheet = SYSTEM.parse_sheet("stamina=20 wounds=3 avoidance=12 fortitude=6")
    stored = [
        Resting(name="Nova", owner_id=11, sheet=sheet, lasting={"plot_points": 0}),
        Resting(name="Bolt", owner_id=12, sheet=sheet, lasting={}),  # not yet in a fight: the campaign's start
        Resting(name="Rex", owner_id=11, sheet=SYSTEM.parse_sheet("stamina=5 wounds=1 companion_of=Nova"), lasting={}),
        Resting(name="Dr Rot", owner_id=1, sheet=sheet, lasting={}, npc=True),  # a kept villain holds none
    ]
    text = SYSTEM.report_between("plotpoint_show", stored, {"pool": 4}, {"starting_plot_points": 2})
    assert english(text) == "🎭 Plot Points: Nova 0, Bolt 2; the Editor-in-Chief's pool: 4."
    assert SYSTEM.report_between("condition_list", stored, {}, {}) is None


def test_character_show_gives_a_hero_the_plot_points_plotpoint_show_gives_them_where_none_are_stored():
    """/character show and /plotpoint show count a hero's Plot Points alike: stored, else the campaign's
    starting number. An NPC the GM kept and a companion hold none (the pool's, the controller's)."""
    sheet = SYSTEM.parse_sheet("stamina=20 wounds=3 avoidance=12 fortitude=6")
    settings = {"starting_plot_points": 2}
    assert "Plot Points 2" in map(english, SYSTEM.lasting_lines(sheet, {}, settings=settings))
    assert "Plot Points 0" in map(english, SYSTEM.lasting_lines(sheet, {"plot_points": 0}, settings=settings))
    assert "Plot Points 1" in map(english, SYSTEM.lasting_lines(sheet, {}))  # the seed's one
    kept = SYSTEM.lasting_lines(sheet, {}, npc=True, settings=settings)
    pet = SYSTEM.lasting_lines(SYSTEM.parse_sheet("stamina=5 wounds=1 companion_of=Nova"), {}, settings=settings)
    assert not any("Plot Points" in english(line) for line in kept + pet)
    assert "Plot Points 2" not in map(english, SYSTEM.lasting_lines(sheet, {"dead": True}, settings=settings))
    stored = [Resting(name="Nova", owner_id=11, sheet=sheet, lasting={})]
    assert english(SYSTEM.report_between("plotpoint_show", stored, {}, settings)).startswith("🎭 Plot Points: Nova 2;")


def test_plotpoint_show_between_fights_leaves_out_a_dead_hero_rather_than_refusing():
    sheet = SYSTEM.parse_sheet("stamina=20 wounds=3 avoidance=12 fortitude=6")
    stored = [
        Resting(name="Nova", owner_id=11, sheet=sheet, lasting={"dead": True, "plot_points": 2}),
        Resting(name="Bolt", owner_id=12, sheet=sheet, lasting={}),
    ]
    text = SYSTEM.report_between("plotpoint_show", stored, {"pool": 1}, {})
    assert english(text) == "🎭 Plot Points: Bolt 1; the Editor-in-Chief's pool: 1."
