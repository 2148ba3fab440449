"""Typed names: one comparison key everywhere, names holding "and" or a comma, names that show nothing,
control characters, and two players' characters of one name in one fight."""

from __future__ import annotations

import unicodedata

import pytest

from rules import registry
from rules.actions import AddCombatants
from rules.engine import apply
from rules.errors import InvalidInput, UnknownCombatant
from rules.model import Actor
from rules.said import english
from rules.system import Resting, chosen_names
from rules.usertext import isolated, name_key, quoted, split_names, visible
from tests.helpers import GM

NFC = unicodedata.normalize("NFC", "Café")
NFD = unicodedata.normalize("NFD", "Café")
ALICE = Actor(user_id=11)
BOB = Actor(user_id=12)
STATS = {
    "99-towers": "init=2 ss=2 hs=3 pa=4 pd=3 px=2 er=1 endurance=2 stun=14 lethal=5 weapons='Axe: 4+px'",
    "fightin-words": "reflex=3 dex=1 strength=3 endurance=3 spirit=3 weapon_skill=3 ranged_skill=1 block=1 "
    "defence=2 weapons='arming sword:1d8'",
    "factions": "agi=8 health=10 grit=2 weapons='axe:d6'",
    "rotted-capes": "stamina=5",
}


def fight(key: str, *names: str):
    system = registry.get(key)
    enc = system.new_encounter(1, 99)
    for name in names:
        enc = apply(enc, AddCombatants(by=GM, name=name, sheet=system.parse_sheet(STATS[key]))).state
    return system, enc


# --- one key ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        (NFC, NFD),
        ("B\u200bob", "bob"),
        ("Big  Bad", "big bad"),
        ("\ufeffＮｏｖａ", "nova"),  # a byte-order mark, full-width letters
        ("Hero\ufe0f", "HERO"),  # a variation selector
    ],
)
def test_names_that_read_alike_have_one_key(typed, stored):
    assert name_key(typed) == name_key(stored)


def test_the_key_is_the_stored_key_of_before_for_a_name_with_nothing_drawn_as_nothing():
    # Rows stored with the former key (NFKC, trimmed, casefolded) are found by the same key.
    for name in ("Café", NFD, "Straße", "İlker", "Ǆemal", "ﬁre Ⅻ", "Dr Rot (Unleashed)", "ضياء", "שלום"):
        assert name_key(name) == unicodedata.normalize("NFKC", name).strip().casefold()


def test_a_name_of_invisible_characters_shows_nothing():
    for blank in ("\u200b", "\u3164", "\u115f", "\u1160", "\uffa0", "\u200b \u2060"):
        assert not visible(blank)
    assert visible("\u0600")  # an Arabic number sign is drawn
    assert visible("Bob")


@pytest.mark.parametrize("name", [NFD, "  café ", "CAFE\u0301"])
def test_a_combatant_is_found_by_its_name_in_either_normal_form(name):
    _, enc = fight("rotted-capes", NFC)
    assert enc.find(name).name == NFC


def test_a_combatant_is_found_across_spaces_and_zero_width_characters():
    _, enc = fight("rotted-capes", "Big Bad", "Bob")
    assert enc.find("big  bad").name == "Big Bad"
    assert enc.find("B\u200bob").name == "Bob"


@pytest.mark.parametrize(("first", "second"), [(NFC, NFD), ("Bob", "B\u200bob"), ("Bob", "\u202eBob")])
def test_a_look_alike_name_does_not_join_twice(first, second):
    system, enc = fight("rotted-capes", first)
    with pytest.raises(InvalidInput, match="already a combatant"):
        apply(enc, AddCombatants(by=GM, name=second, sheet=system.parse_sheet("stamina=5")))


def test_a_group_is_numbered_past_look_alike_numbers():
    system, enc = fight("rotted-capes", "Zombie\u200b 1")
    out = apply(enc, AddCombatants(by=GM, name="Zombie", count=2, sheet=system.parse_sheet("stamina=5")))
    assert [c.name for c in out.state.combatants[1:]] == ["Zombie 2", "Zombie 3"]


@pytest.mark.parametrize("blank", ["\u200b", "\u3164", "\u115f\u1160", "\uffa0"])
def test_a_name_that_shows_nothing_is_refused(blank):
    system, enc = fight("rotted-capes")
    with pytest.raises(InvalidInput, match="character that shows"):
        apply(enc, AddCombatants(by=GM, name=blank, sheet=system.parse_sheet("stamina=5")))


def test_a_name_with_a_control_character_is_refused():
    system, enc = fight("rotted-capes")
    with pytest.raises(InvalidInput, match=r"control character \(U\+0000\)"):
        apply(enc, AddCombatants(by=GM, name="No\x00va", sheet=system.parse_sheet("stamina=5")))


# --- names holding a separator --------------------------------------------------------------------
def test_split_names_keeps_a_known_name_whole_and_splits_around_it():
    known = {"salt and pepper", "brute", "hansel, gretel"}.__contains__

    def split(text, separator=r",|\band\b"):
        return split_names(text, separator, lambda name: known(name_key(name)))

    assert split("Salt and Pepper") == ("Salt and Pepper",)
    assert split("Salt and Pepper and Brute") == ("Salt and Pepper", "Brute")
    assert split("Brute, Hansel, Gretel", ",") == ("Brute", "Hansel, Gretel")
    # past what is known, every separator splits, so that the piece refused is the unknown one
    assert split("Salt and Pepper, Gobbo and Brute") == ("Salt and Pepper", "Gobbo", "Brute")
    assert split_names("A and B", r",|\band\b") == ("A", "B")


@pytest.mark.parametrize(
    ("target", "targets"),
    [("Salt and Pepper", ("Salt and Pepper",)), ("salt and pepper and brute", ("salt and pepper", "brute"))],
)
def test_99_towers_targets_a_name_holding_and(target, targets):
    system, enc = fight("99-towers", "Salt and Pepper", "Brute", "Hansel, Gretel")
    action = system.command("attack", GM, {"actor": "Brute", "target": target}, enc)
    assert action.targets == targets
    assert system.command("attack", GM, {"actor": "Brute", "target": "Hansel, Gretel"}, enc).targets == (
        "Hansel, Gretel",
    )


@pytest.mark.parametrize("key", ["fightin-words", "factions"])
def test_a_name_holding_a_comma_is_one_target(key):
    system, enc = fight(key, "Hansel, Gretel", "Brute", "Witch")
    assert system.command("attack", GM, {"actor": "Brute", "target": "Hansel, Gretel"}, enc).targets == (
        "Hansel, Gretel",
    )
    assert system.command("attack", GM, {"actor": "Brute", "target": "Witch, Hansel, Gretel"}, enc).targets == (
        "Witch",
        "Hansel, Gretel",
    )


# --- two players' Max --------------------------------------------------------------------------------
def _join(enc, system, by, character_id, name="Max"):
    return apply(
        enc,
        AddCombatants(
            by=by,
            name=name,
            sheet=system.parse_sheet("stamina=5"),
            npc=False,
            controller_id=by.user_id,
            character_id=character_id,
            dice=(10,),
        ),
    )


def test_two_players_characters_of_one_name_both_join():
    system, enc = fight("rotted-capes")
    enc = _join(enc, system, ALICE, 1).state
    out = _join(enc, system, BOB, 2)
    second = out.state.combatants[-1]
    assert (second.name, second.character_id, second.controller_id) == ("Max (2)", 2, BOB.user_id)
    assert out.events[0].text == "Max joins the encounter as Max (2): another combatant is already called Max."
    third = _join(out.state, system, Actor(user_id=13), 3, "max").state.combatants[-1]
    assert third.name == "max (3)"


def test_the_same_character_does_not_join_twice():
    system, enc = fight("rotted-capes")
    enc = _join(enc, system, ALICE, 1).state
    with pytest.raises(InvalidInput, match="already in this encounter"):
        _join(enc, system, ALICE, 1)


def test_an_npc_of_a_taken_name_is_still_refused():
    system, enc = fight("rotted-capes")
    enc = _join(enc, system, ALICE, 1).state
    with pytest.raises(InvalidInput, match="already a combatant called max"):
        apply(enc, AddCombatants(by=GM, name="max", sheet=system.parse_sheet("stamina=5")))


# --- refusals and rest options ------------------------------------------------------------------------
def test_a_refusal_quotes_a_name_unescaped_and_isolated():
    _, enc = fight("rotted-capes", "Orc")
    with pytest.raises(UnknownCombatant) as refused:
        enc.find("a__b")
    assert "`a__b`" in english(refused.value.said)
    assert english(quoted("\u202eGoblin")) == "`\u2068\u202eGoblin\u2069`"


def test_isolated_sets_apart_only_what_could_turn_a_line():
    assert isolated("Goblin") == "Goblin"
    assert isolated("Café") == "Café"
    assert isolated("שלום") == "\u2068שלום\u2069"
    # a stray closing isolate would end the set-apart early: it goes
    assert isolated("\u2069\u202eX") == "\u2068\u202eX\u2069"
    assert isolated("\u2067a\u2069b") == "\u2068\u2067a\u2069b\u2069"
    # isolates opened and left open are closed before the set-apart ends, or it would run to the line's end
    assert isolated("\u2067\u2067Brute") == "\u2068\u2067\u2067Brute\u2069\u2069\u2069"
    assert isolated("\u2067a\u2069\u2066b") == "\u2068\u2067a\u2069\u2066b\u2069\u2069"


def _resting(*names):
    return tuple(Resting(name=n, owner_id=i, sheet={}, lasting={}) for i, n in enumerate(names))


def test_a_character_named_all_is_picked_alone():
    characters = _resting("All", "Nova")
    assert chosen_names({"medic": "All"}, "medic", characters) == {"all"}
    assert chosen_names({"medic": True}, "medic", characters) == {"all", "nova"}
    assert chosen_names({"medic": "all"}, "medic", _resting("Max", "Nova")) == {"max", "nova"}


def test_rest_options_pick_names_as_a_fight_does():
    characters = _resting(NFC, "Hansel, Gretel", "Big Bad")
    assert chosen_names({"medic": f"{NFD}, Hansel, Gretel"}, "medic", characters) == {NFC.casefold(), "hansel, gretel"}
    assert chosen_names({"medic": "big  bad"}, "medic", characters) == {"big bad"}
    with pytest.raises(InvalidInput, match="not among the resting"):
        chosen_names({"medic": "Gobbo"}, "medic", characters)
