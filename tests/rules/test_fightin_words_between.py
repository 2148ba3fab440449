"""Fightin' Words between fights: wounds with their locations and morale penalties outlive the fight;
a day of sleep heals one wound, a day bedridden Endurance wounds, a calm hour clears morale penalties."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, EndEncounter, NextTurn
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from rules.randomness import Chance
from rules.said import english
from rules.system import Resting
from rules.systems.fightin_words import SYSTEM
from rules.systems.fightin_words.between import ADJUSTABLE, LASTING
from rules.systems.fightin_words.gm import AddCondition, Damage
from tests.helpers import GM

ALICE = Actor(user_id=11)
SHEET = {"endurance": "3", "spirit": "3"}  # the seed's average human: Toughness 9/3, Will 9/3


def join(enc, lasting=None):
    action = AddCombatants(
        by=ALICE,
        name="Jack",
        sheet=SHEET,
        npc=False,
        controller_id=ALICE.user_id,
        character_id=3,
        dice=(4,),
        lasting=lasting,
    )
    return apply(enc, action).state


def new(settings=None):
    return SYSTEM.new_encounter(gm_id=1, rng_state=7, options=settings)


def gm(enc, action):
    return apply(enc, action).state


def resting(lasting, sheet=SHEET, name="Jack"):
    return Resting(name=name, owner_id=11, sheet=SYSTEM.parse_sheet(sheet), lasting=lasting)


def rest(kind, *characters, **options):
    chance = Chance(3)
    out = SYSTEM.rest(kind, tuple(characters), {}, options, chance)
    chance.finish()
    return out


def texts(out):
    return [e.text for e in out.events]


def test_wounds_where_they_landed_and_morale_penalties_carry_into_the_next_fight():
    enc = apply(join(new()), NextTurn(by=GM)).state
    # ≥ 8 (the arm's Toughness is 1 lower): a wound, and the arm is useless
    enc = gm(enc, Damage(by=GM, target="Jack", amount="8", called="arm"))
    enc = gm(enc, Damage(by=GM, target="Jack", amount="5"))  # > 3: wound
    enc = gm(enc, Damage(by=GM, target="Jack", amount="4", type="fear"))  # > Minimum Will 3: a morale penalty
    enc = gm(enc, AddCondition(by=GM, target="Jack", condition="mobility penalty"))
    enc = apply(enc, EndEncounter(by=GM)).state
    kept = SYSTEM.lasting(enc, enc.find("Jack"))
    assert kept["wounds"] == 2 and kept["morale_penalties"] == 1
    assert kept["locations"] == [
        "arm: the arm cannot carry objects, weapons or shields, nor attack unarmed, until healed"
    ]
    assert kept["mobility_penalties"] == 1 and kept["conditions"] == []

    jack = join(new(), lasting=kept).find("Jack")
    assert (jack.wounds, jack.morale_penalties, jack.notes) == (2, 1, tuple(kept["locations"]))
    assert jack.mobility_penalties == 1 and jack.conditions == ()
    assert "T 7/1" in english(SYSTEM.status_line(enc, jack, reveal=True))


def test_a_dead_character_cannot_join():
    with pytest.raises(NotAllowed, match="is dead: the GM can set `dead` to no"):
        join(new(), lasting={"dead": True})


def test_a_day_of_sleep_heals_one_wound_the_unlocated_first():
    arm = "arm: the arm cannot carry objects"
    out = rest("sleep", resting({"wounds": 2, "locations": [arm]}))
    state = out.characters[0].lasting
    assert state["wounds"] == 1 and state["locations"] == [arm]
    assert texts(out) == ["🛌 A day with eight hours' sleep:", "Jack heals 1 wound: 1 wound left, Toughness 8/2."]
    again = rest("sleep", out.characters[0])
    assert again.characters[0].lasting == {"wounds": 0, "locations": []}
    assert texts(again)[1] == f"Jack heals 1 wound: 0 wounds left, Toughness 9/3; healed: {arm}."


def test_a_day_bedridden_heals_endurance_wounds():
    out = rest("bedridden", resting({"wounds": 5}), resting({"wounds": 2}, {"endurance": "4"}, "Tough"))
    assert [r.lasting["wounds"] for r in out.characters] == [2, 0]
    assert texts(out)[1:] == [
        "Jack heals 3 wounds (Endurance 3): 2 wounds left, Toughness 7/1.",
        "Tough heals 2 wounds (Endurance 4): 0 wounds left, Toughness 10/4.",
    ]


def test_a_day_bedridden_heals_located_wounds_too():
    arm = "arm: the arm cannot carry objects"
    out = rest("bedridden", resting({"wounds": 2, "locations": [arm]}))
    assert out.characters[0].lasting == {"wounds": 0, "locations": []}
    assert texts(out)[1] == f"Jack heals 2 wounds (Endurance 3): 0 wounds left, Toughness 9/3; healed: {arm}."


HAND_GRAZE = "hand: −1 to attacks made with this hand"


def test_a_day_of_rest_ends_a_located_effect_that_came_with_no_wound():
    out = rest("sleep", resting({"locations": [HAND_GRAZE]}))
    assert out.characters[0].lasting == {"wounds": 0, "locations": []}
    assert texts(out)[1] == f"Jack has no wounds to heal; healed: {HAND_GRAZE}."
    lines = SYSTEM.lasting_lines(SYSTEM.parse_sheet(SHEET), out.characters[0].lasting)
    assert [english(line) for line in lines] == ["0 wounds: Toughness 9/3"]


def test_a_day_of_sleep_heals_the_unlocated_wound_and_ends_the_effect_that_came_with_none():
    leg = "leg: speed −1 square"
    out = rest("sleep", resting({"wounds": 2, "locations": [leg, HAND_GRAZE]}))
    assert out.characters[0].lasting == {"wounds": 1, "locations": [leg]}
    assert texts(out)[1] == f"Jack heals 1 wound: 1 wound left, Toughness 8/2; healed: {HAND_GRAZE}."


def test_an_infection_heals_nothing_not_even_an_effect_that_came_with_no_wound():
    out = rest("sleep", resting({"wounds": 1, "locations": [HAND_GRAZE]}), infected="Jack")
    assert out.characters[0].lasting == {"wounds": 1, "locations": [HAND_GRAZE]}


def test_the_conditions_help_names_every_lasting_condition():
    assert ADJUSTABLE["conditions"].help == "lasting conditions: " + ", ".join(LASTING)


def test_nothing_to_heal_infection_and_death():
    out = rest(
        "sleep",
        resting({}),
        resting({"wounds": 1}, name="Sick"),
        resting({"wounds": 3, "dead": True}, name="Gone"),
        infected="Sick",
    )
    assert texts(out)[1:] == [
        "Jack has no wounds to heal.",
        "Sick's poison or disease afflicts wounds: no wound heals (1 wound).",
        "Gone is dead: rest changes nothing.",
    ]
    assert [r.lasting.get("wounds", 0) for r in out.characters] == [0, 1, 3]


def test_a_calm_hour_removes_all_morale_penalties_and_insane_confusion():
    out = rest("calm_hour", resting({"morale_penalties": 2, "conditions": ["confused", "disabled"], "wounds": 1}))
    state = out.characters[0].lasting
    assert state == {"morale_penalties": 0, "conditions": ["disabled"], "wounds": 1}
    assert texts(out)[1] == "Jack removes 2 morale penalties: Will 9/3; no longer Confused."


def test_a_dead_characters_calm_hour_changes_nothing():
    out = rest("calm_hour", resting({"morale_penalties": 2, "dead": True}, name="Gone"))
    assert out.characters[0].lasting == {"morale_penalties": 2, "dead": True}
    assert texts(out)[1] == "Gone is dead: a calm hour changes nothing."


def test_gm_adjustments_are_checked_and_shown():
    sheet = SYSTEM.parse_sheet(SHEET)
    state = SYSTEM.adjust(sheet, {}, "wounds", "2")
    state = SYSTEM.adjust(sheet, state, "conditions", "Mobility Penalty, disabled")
    state = SYSTEM.adjust(sheet, state, "morale_penalties", "1")
    assert state == {"wounds": 2, "conditions": ["disabled"], "mobility_penalties": 1, "morale_penalties": 1}
    with pytest.raises(InvalidInput, match="does not last"):
        SYSTEM.adjust(sheet, state, "conditions", "stunned")
    with pytest.raises(InvalidInput, match="whole number"):
        SYSTEM.adjust(sheet, state, "wounds", "many")
    with pytest.raises(InvalidInput, match="no lasting value"):
        SYSTEM.adjust(sheet, state, "stamina", "3")
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, state)] == [
        "2 wounds: Toughness 7/1",
        "1 morale penalty: Will 8/2",
        "1 mobility penalty: −1 Acrobatics, Athletics, Wrestle, Stealth; −½ square of speed",
        "Conditions: disabled",
    ]


def test_mobility_penalties_are_counted_between_fights_and_carried_into_the_next():
    # "Multiple mobility penalties stack."
    sheet = SYSTEM.parse_sheet(SHEET)
    state = SYSTEM.adjust(sheet, {}, "conditions", "mobility penalty, mobility penalty, disabled")
    assert state == {"conditions": ["disabled"], "mobility_penalties": 2}
    assert "2 mobility penalties: −2 Acrobatics, Athletics, Wrestle, Stealth; −1 square of speed" in [
        english(line) for line in SYSTEM.lasting_lines(sheet, state)
    ]
    state = SYSTEM.adjust(sheet, state, "mobility_penalties", "3")
    jack = join(new(), lasting=state).find("Jack")
    assert jack.mobility_penalties == 3
    enc = gm(join(new(), lasting=state), AddCondition(by=GM, target="Jack", condition="mobility penalty"))
    assert SYSTEM.lasting(enc, enc.find("Jack"))["mobility_penalties"] == 4
    # a character stored before penalties were counted, with the condition in its list
    assert join(new(), lasting={"conditions": ["mobility penalty"]}).find("Jack").mobility_penalties == 1


def test_the_gm_sets_the_mobility_penalty_count_of_a_character_stored_before_they_were_counted():
    # The count the GM gives is the count: the penalty an earlier version listed as a condition is not added to it.
    sheet = SYSTEM.parse_sheet(SHEET)
    stored = {"conditions": ["mobility penalty", "disabled"]}
    assert SYSTEM.fit_lasting(sheet, SYSTEM.adjust(sheet, stored, "mobility_penalties", "0")) == {
        "conditions": ["disabled"],
        "mobility_penalties": 0,
    }
    assert SYSTEM.adjust(sheet, stored, "mobility_penalties", "3")["mobility_penalties"] == 3
    # another value set keeps the listed one, counted
    assert SYSTEM.adjust(sheet, stored, "wounds", "1")["mobility_penalties"] == 1


def test_a_dying_characters_raised_dc_carries_into_the_next_fight_until_they_stop_dying():
    enc = gm(join(new()), AddCombatants(by=GM, name="Orc", dice=(1,)))
    enc = gm(enc, NextTurn(by=GM))
    enc = gm(enc, Damage(by=GM, target="Jack", amount="9"))  # ≥ Toughness: dying, DC 4
    enc = gm(enc, NextTurn(by=GM))  # the Orc's turn
    enc = gm(enc, NextTurn(by=GM, dice=(3, 1)))  # round 2: no 10, Endurance 1 + 3 − 1 = 3 fails → DC 5
    assert enc.find("Jack").dying_dc == 5
    kept = SYSTEM.lasting(apply(enc, EndEncounter(by=GM)).state, enc.find("Jack"))
    assert kept["dying"] and kept["dying_dc"] == 5
    assert SYSTEM.fit_lasting(SYSTEM.parse_sheet(SHEET), kept) == kept  # a campaign file carries it as it is
    assert "Dying (DC 5)" in [english(line) for line in SYSTEM.lasting_lines(SYSTEM.parse_sheet(SHEET), kept)]

    jack = join(new(), lasting=kept).find("Jack")
    assert jack.dying and jack.dying_dc == 5
    assert "dying (DC 5)" in english(SYSTEM.status_line(enc, jack, reveal=True))

    stabilised = SYSTEM.adjust(SYSTEM.parse_sheet(SHEET), kept, "dying", "no")
    assert "dying_dc" not in stabilised
    # dying anew, as the GM sets it: the DC starts again at 4
    again = SYSTEM.adjust(SYSTEM.parse_sheet(SHEET), stabilised, "dying", "yes")
    assert join(new(), lasting=again).find("Jack").dying_dc == 4
    # … or at the campaign's first dying DC
    assert join(new({"first_dying_dc": 6}), lasting=again).find("Jack").dying_dc == 6


def test_a_character_carried_in_dying_checks_at_the_start_of_round_1():
    # "must make a DC 4 endurance check every round": round 1 too, for one who comes into the fight dying
    enc = gm(
        join(new(), lasting={"wounds": 1, "dying": True, "dying_dc": 5}), AddCombatants(by=GM, name="Orc", dice=(1,))
    )
    out = apply(enc, NextTurn(by=GM, dice=(3, 3)))
    line = "Jack dying: d10 3 (no 10); Endurance d6 3 + 3 − 1 wound = 5 vs DC 5: holds on."
    assert out.state.round == 1 and line in [english(e.text) for e in out.events]
