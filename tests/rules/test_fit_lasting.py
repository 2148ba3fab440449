"""A lasting state fitted to its sheet (System.fit_lasting): a value past the sheet's bound comes down to
what joining a fight and `/character show` read, nothing else changes, and what is fitted passes the
checks `/campaign adjust` makes, which a campaign file's import makes too."""

from __future__ import annotations

import pytest

from rules import registry
from rules.actions import AddCombatants
from rules.engine import apply
from rules.errors import InvalidInput, RulesError
from rules.model import Actor

# Per system: a sheet, a lasting state holding more than it allows, and that state fitted to it.
CASES = {
    "rotted-capes": (
        "stamina=10 wounds=3",
        {"stamina": 20, "wounds": 3, "flaws": 1, "plot_points": 2, "unconscious": False},
        {"stamina": 10, "wounds": 2, "flaws": 1, "plot_points": 2, "unconscious": False},
    ),
    "99-towers": (
        "stun=10 lethal=5 mana=3",
        {"stun": 14, "lethal": 8, "mana": 6, "temp_stun": 4, "dead": False},
        {"stun": 10, "lethal": 5, "mana": 3, "temp_stun": 4, "dead": False},
    ),
    "frozen-lands": (
        "class_stamina=4 body=3",
        {"stamina": 12, "wounds": 1, "stress": 2},
        {"stamina": 7, "wounds": 1, "stress": 2},
    ),
    "factions": (
        "health=8 grit=2",
        {"health": 12, "grit": 5, "incapacitated": False},
        {"health": 8, "grit": 2, "incapacitated": False},
    ),
}


def _import_checks(system, sheet, lasting) -> None:
    """What `/campaign adjust` checks of every number, as an import of the state does."""
    for key, spec in system.adjustable().items():
        if spec.kind == "int" and key in lasting:
            system.adjust(sheet, lasting, key, str(lasting[key]))


@pytest.mark.parametrize("key", sorted(CASES))
def test_a_value_past_the_sheet_comes_down_to_what_the_bot_shows_and_nothing_else_changes(key):
    system = registry.get(key)
    text, held, fitted = CASES[key]
    sheet = system.parse_sheet(text)
    with pytest.raises(InvalidInput, match="at most"):
        _import_checks(system, sheet, held)
    assert system.fit_lasting(sheet, held) == fitted
    _import_checks(system, sheet, fitted)
    assert system.lasting_lines(sheet, fitted) == system.lasting_lines(sheet, held)
    assert system.fit_lasting(sheet, fitted) == fitted  # a fitting state is kept as it is


@pytest.mark.parametrize("key", sorted(CASES))
def test_a_character_joins_a_fight_from_its_fitted_state_as_from_the_state_it_held(key):
    system = registry.get(key)
    text, held, fitted = CASES[key]
    sheet = system.parse_sheet(text)

    def joined(lasting):
        join = AddCombatants(
            by=Actor(user_id=9), name="Ann", npc=False, controller_id=9, character_id=1, sheet=sheet, lasting=lasting
        )
        try:
            enc = apply(system.new_encounter(1, 5), join).state
        except RulesError:  # a system that needs entered dice or cards for initiative
            enc = apply(system.new_encounter(1, 5), join.but(dice=(3,))).state
        return system.lasting(enc, enc.find("Ann"))

    assert joined(held) == joined(fitted)


@pytest.mark.parametrize("key", ["rotted-capes", "fightin-words", "factions", "99-towers", "frozen-lands"])
def test_a_value_left_unsaid_stays_unsaid_and_the_state_given_is_not_changed(key):
    system = registry.get(key)
    sheet = system.parse_sheet({})
    assert system.fit_lasting(sheet, {}) == {}
    held = {"dead": False}
    assert system.fit_lasting(sheet, held) == {"dead": False} and held == {"dead": False}


def test_fightin_words_keeps_no_value_its_sheet_bounds():
    system = registry.get("fightin-words")
    held = {"wounds": 7, "morale_penalties": 4, "conditions": ["confused"]}
    assert system.fit_lasting(system.parse_sheet({}), held) == held


@pytest.mark.parametrize(
    "key, lasting, fitted",
    [
        ("fightin-words", {"morale_penalties": 31, "wounds": []}, {"morale_penalties": 30, "wounds": []}),
        ("frozen-lands", {"stress": 60, "wounds": 51}, {"stress": 50, "wounds": 50}),
        ("rotted-capes", {"plot_points": -2, "hiatuses": 101}, {"plot_points": 0, "hiatuses": 100}),
    ],
)
def test_a_count_play_took_past_what_the_gm_may_set_is_stored_within_it(key, lasting, fitted):
    # a 31st failed veto is more than `/campaign adjust` takes, and a campaign file's import refuses it
    system = registry.get(key)
    sheet = system.parse_sheet("")
    assert system.fit_lasting(sheet, lasting) == fitted


@pytest.mark.parametrize(
    "key, stats, lasting, dead",
    [
        ("factions", "health=8", {"health": 0}, True),
        ("factions", "health=8", {"health": 1}, False),
        ("99-towers", "lethal=6 endurance=2", {"lethal": -4}, True),  # at −2 × Endurance
        ("99-towers", "lethal=6 endurance=2", {"lethal": -3}, False),  # dying, not dead
    ],
)
def test_a_value_set_past_the_death_line_between_fights_is_death_as_in_a_fight(key, stats, lasting, dead):
    # README: Factions "health 0 is death"; 99 Towers "at −2×Endurance → dead"
    system = registry.get(key)
    sheet = system.parse_sheet(stats)
    assert bool(system.fit_lasting(sheet, lasting).get("dead")) is dead
    join = AddCombatants(by=Actor(user_id=1, is_gm=True), name="Syb", sheet=sheet, npc=False, controller_id=2)
    carried = join.but(lasting=lasting, character_id=5)
    if dead:  # a row stored past the line before this was fitted joins no fight either
        with pytest.raises(RulesError, match="is dead: the GM can set `dead` to no"):
            apply(system.new_encounter(1, 7), carried)
