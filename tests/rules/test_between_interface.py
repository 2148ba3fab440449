"""What every system's between-fights hooks promise the campaign code: JSON-ready lasting state,
rests that quote the seed, adjustable values that `adjust` accepts, and joining from a lasting state."""

from __future__ import annotations

import json

import pytest

from rules import registry
from rules.actions import AddCombatants
from rules.engine import apply
from rules.errors import InvalidInput, RulesError
from rules.model import Actor
from rules.randomness import Chance
from rules.said import english
from rules.system import Resting
from tests.helpers import GM

KEYS = ["rotted-capes", "fightin-words", "factions", "99-towers", "frozen-lands"]
SAMPLE = {"int": "0", "bool": "no", "list": "", "text": "heroes"}  # a side, and a faction too


@pytest.mark.parametrize("key", KEYS)
def test_every_system_declares_rests_that_quote_the_seed(key):
    system = registry.get(key)
    rests = system.rests()
    assert rests
    for name, rest in rests.items():
        assert rest.key == name and rest.label and ("“" in rest.rule or "seed says nothing" in rest.rule)


@pytest.mark.parametrize("key", KEYS)
def test_a_fresh_character_rests_and_is_shown(key):
    system = registry.get(key)
    sheet = system.parse_sheet({})
    fresh = Resting(name="Ann", owner_id=5, sheet=sheet, lasting={})
    for kind, rest in system.rests().items():
        if rest.dice:
            continue
        out = system.rest(kind, (fresh,), {}, {}, Chance(1))
        assert len(out.characters) == 1 and out.characters[0].name == "Ann"
        json.dumps(out.characters[0].lasting)
        assert out.events[0].text.startswith(("🛌", "📰"))
    assert system.lasting_lines(sheet, {})


@pytest.mark.parametrize("key", KEYS)
def test_every_adjustable_value_can_be_set_and_is_checked(key):
    system = registry.get(key)
    sheet = system.parse_sheet({})
    for name, spec in system.adjustable().items():
        assert spec.key == name and spec.help
        state = system.adjust(sheet, {}, name, SAMPLE[spec.kind])
        assert name in state
        json.dumps(state)
        system.lasting_lines(sheet, state)
    with pytest.raises(InvalidInput):
        system.adjust(sheet, {}, "no_such_value", "1")


# States that read a line of their own beyond a flag set alone: a dying DC raised, a waking time rolled.
MORE_STATES = {"fightin-words": [{"dying": True, "dying_dc": 6}, {"stable": True, "waking_in": 2}]}


@pytest.mark.parametrize("key", KEYS)
def test_lasting_lines_are_items_of_a_list_not_sentences(key):
    # `/character show` lists them one under another and `/campaign adjust` puts them in one line after
    # "; " (`joined_lines`): "Dead; Health 0/12", never "Dead.; Health 0/12".
    system = registry.get(key)
    sheet = system.parse_sheet({})
    flags = [{name: True} for name, spec in system.adjustable().items() if spec.kind == "bool"]
    for state in [{}, *flags, *MORE_STATES.get(key, [])]:
        for line in system.lasting_lines(sheet, state):
            assert not english(line).endswith((".", "!")), (state, english(line))


@pytest.mark.parametrize("key", KEYS)
def test_lasting_state_leaves_an_encounter_as_json_and_joins_the_next(key):
    system = registry.get(key)
    enc = system.new_encounter(1, 5)
    player = Actor(user_id=9)
    join = AddCombatants(by=player, name="Ann", npc=False, controller_id=9, character_id=1)
    try:
        enc = apply(enc, join).state
    except RulesError:  # a system that needs entered dice or cards for initiative
        enc = apply(enc, join.but(dice=(3,))).state
    kept = system.lasting(enc, enc.find("Ann"))
    assert kept and json.loads(json.dumps(kept)) == kept
    assert kept.keys() <= system.adjustable().keys() | system.lasting_flags()  # what an import takes
    again = system.new_encounter(1, 5)
    again = system.campaign_in(again, system.campaign_out(enc))
    try:
        joined = apply(again, join.but(lasting=kept)).state
    except RulesError:
        joined = apply(again, join.but(lasting=kept, dice=(3,))).state
    assert system.lasting(joined, joined.find("Ann")) == kept


def test_a_group_cannot_start_from_one_lasting_state():
    system = registry.get("rotted-capes")
    enc = system.new_encounter(1, 5)
    with pytest.raises(InvalidInput, match="single combatant"):
        apply(enc, AddCombatants(by=GM, name="Zombie", count=2, lasting={"wounds": 1}, dice=(3, 3)))


def test_rest_kinds_are_found_by_key_or_label_and_unknown_ones_refused():
    system = registry.get("99-towers")
    assert system.rest_kind("Five minutes out of combat").key == "five_minutes"
    assert system.rest_kind("eight hours").key == "eight_hours"
    with pytest.raises(RulesError, match="Rests: `five_minutes`, `eight_hours`"):
        system.rest_kind("nap")


def joined(system, enc, action):
    try:
        return apply(enc, action).state
    except RulesError:  # a system that needs entered dice or cards for initiative
        return apply(enc, action.but(dice=(3,))).state


@pytest.mark.parametrize("key", [k for k in KEYS if k != "factions"])  # Factions keeps a faction of its own
def test_a_kept_npc_comes_back_on_the_side_it_fought_on(key):
    system = registry.get(key)
    ally = AddCombatants(by=GM, name="Ally", npc=True, character_id=7, sheet={}, side="heroes")
    first = joined(system, system.new_encounter(1, 5), ally)
    decided = system.joined_lasting(first, first.find("Ally"))
    assert decided == {"side": "heroes"}
    assert decided.keys() <= system.adjustable().keys()  # what an import takes
    back = joined(system, system.new_encounter(1, 5), ally.but(side=None, lasting=decided))
    assert back.find("Ally").side == "heroes"
    named = joined(system, system.new_encounter(1, 5), ally.but(side="threats", lasting=decided))
    assert system.joined_lasting(named, named.find("Ally")) == {"side": "threats"}  # the GM's side wins
    # The GM sets it between fights like any lasting value; /character show names a side other than the usual.
    sheet = system.parse_sheet({})
    assert system.adjust(sheet, {}, "side", " Threats ", npc=True) == {"side": "threats"}
    with pytest.raises(InvalidInput, match="Side must be one of"):
        system.adjust(sheet, {}, "side", "bandits", npc=True)
    assert "Side: heroes" in map(english, system.lasting_lines(sheet, {"side": "heroes"}, npc=True))
    assert not any("Side" in english(line) for line in system.lasting_lines(sheet, {"side": "threats"}, npc=True))
    # A hero keeps no side: it joins the heroes each time.
    hero = joined(system, system.new_encounter(1, 5), AddCombatants(by=GM, name="Ann", npc=False, controller_id=9))
    assert system.joined_lasting(hero, hero.find("Ann")) == {}
