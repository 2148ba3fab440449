"""The declared slash commands of every system: one dispatcher, shared checks.

Bad amounts are refused by the shared field readers before any action exists,
so no system can post and record a no-op (an undo would then take it back
instead of the real hit)."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest
from pydantic_core import PydanticKnownError

import rules
from rules import registry
from rules.actions import AddCombatants, DelayTurn, NextTurn
from rules.commands import SHARED, Stored, _bounds, amount, check_owner_or_gm
from rules.dice import check_expression, evaluate
from rules.engine import apply
from rules.errors import DiceError, InvalidInput, NotAllowed, RulesError, UnknownAction
from rules.model import Actor
from rules.said import fields
from rules.system import VALUE_ERRORS
from tests.helpers import GM

ALICE = Actor(user_id=2)
KEYS = list(registry.MODULES)
BAD_DAMAGE = ["-5", "0", "-1d6", "+0", "1d6-10", "0d6", "2d6*0", "-(1d4)", "  -3  "]
BAD_DAMAGE += ["0.5", "1d6//7", "1d6ma0", "(5000)"]  # a total rounded down to 0, or past the cap of a typed number
BAD_HEAL = ["-5", "0", "-1d6", "-1", "0.5", "1/2"]


def system(key):
    return registry.get(key)


def good_damage(key):
    return "4+2" if key == "99-towers" else "1d6+2"


@pytest.mark.parametrize("bad", BAD_DAMAGE)
@pytest.mark.parametrize("key", KEYS)
def test_damage_that_cannot_hurt_is_refused_in_every_system(key, bad):
    with pytest.raises(InvalidInput, match="amount"):
        system(key).command("damage", GM, {"target": "Goblin", "amount": bad})


@pytest.mark.parametrize("bad", BAD_HEAL)
@pytest.mark.parametrize("key", KEYS)
def test_healing_that_cannot_heal_is_refused_in_every_system(key, bad):
    with pytest.raises(InvalidInput, match="amount"):
        system(key).command("heal", GM, {"target": "Goblin", "amount": bad})


@pytest.mark.parametrize("key", KEYS)
def test_real_amounts_still_become_actions(key):
    hurt = system(key).command("damage", GM, {"target": "Goblin", "amount": good_damage(key)})
    healed = system(key).command("heal", GM, {"target": "Goblin", "amount": "3"})
    assert hurt.by == GM and healed.by == GM
    assert type(hurt).__name__ != type(healed).__name__


@pytest.mark.parametrize("key", KEYS)
def test_a_refused_amount_leaves_a_real_encounter_untouched(key):
    rules = system(key)
    enc = rules.new_encounter(GM.user_id, 7)
    enc = apply(enc, AddCombatants(by=GM, name="Goblin", sheet={})).state
    enc = apply(enc, AddCombatants(by=GM, name="Mauve", sheet={}, npc=False, controller_id=ALICE.user_id)).state
    enc = apply(enc, NextTurn(by=GM)).state
    assert enc.status == "running" and enc.pending is None
    with pytest.raises(InvalidInput):
        apply(enc, rules.command("damage", GM, {"target": "Goblin", "amount": "-5"}, enc))
    hurt = apply(enc, rules.command("damage", GM, {"target": "Goblin", "amount": good_damage(key)}, enc))
    assert hurt.state != enc  # the control: a real amount does change the fight


@pytest.mark.parametrize(
    "text",
    ["7", "+7", "2d6", "1d4-1", "4d6kh3", "10 - 1d6", "(1d6)", "(2d6)kh1", "2d6//2", "1d6%4", "1d1000", "100d10"],
)
def test_amounts_that_can_come_out_above_zero_are_kept(text):
    assert amount(text) == text.lstrip("+")


@pytest.mark.parametrize("text", ["0.5", "1d6//7", "1/2", "1d6/7", "1d20%1", "1d6ma0", "(1d6)kh1//7", "(1d4-4)kh1"])
def test_amounts_whose_rounded_down_total_cannot_pass_zero_are_refused(text):
    # the total is rounded down: `0.5` and `1d6//7` always deal 0, and a public no-op would be posted
    with pytest.raises(InvalidInput, match="amount"):
        amount(text)


@pytest.mark.parametrize("text", ["1.5", "1d6*1.5", "2.0"])
def test_an_amount_takes_whole_numbers_only(text):
    with pytest.raises(InvalidInput, match="whole numbers"):
        amount(text)


@pytest.mark.parametrize(
    "text", ["(5000)", "1d1mi5000", "1d6*1000", "1d4+1000", "(2d1000)kh1+1", "1001", "1d1mi99999999"]
)
def test_dice_amounts_are_held_to_the_cap_a_typed_number_is(text):
    with pytest.raises(InvalidInput, match=r"1000\b|1,000,000"):
        amount(text)
    assert amount("1d1000") == "1d1000"


@pytest.mark.parametrize("text", ["٣", "３"])
def test_an_amount_of_other_scripts_digits_is_refused_as_it_is_typed(text):
    with pytest.raises(InvalidInput, match="not a dice expression"):
        amount(text)


@pytest.mark.parametrize(
    "text",
    [
        "1d6//7+1d2",
        "(2d20)kh1-5",
        "2d6ro1mi3",
        "4d6kh3ma4",
        "3d6pl1*2",
        "(1d6, 2d6)kh1",
        "(1d4-2)pl1+2",
        "1d20%7",
        "-1d6%5+3",
        "10/(1d6-3)",
        "1d6//(1d2-3)",
        "2d6ra6",
        "1d3mi2ma5",
        "(1d6+1)kh1*(1d4-2)",
    ],
)
def test_the_bounds_an_amount_is_checked_against_hold_every_roll(text):
    low, high, _ = _bounds(check_expression(text))
    draw = random.Random(text).randint
    for _ in range(300):
        try:
            total = evaluate(text, lambda size: draw(1, size)).total
        except DiceError:
            continue  # a division by zero: refused when rolled
        assert math.floor(low) <= total <= math.floor(high)


def test_zero_is_allowed_only_where_other_options_do_something():
    assert amount("0", zero=True) == "0"
    with pytest.raises(InvalidInput):
        amount("-1", zero=True)
    rotted = system("rotted-capes")
    assert rotted.command("damage", GM, {"target": "Brute", "amount": "0", "options": "wounds=2"}).amount == "0"
    towers = system("99-towers")
    assert towers.command("damage", GM, {"target": "Ogre", "amount": "0", "options": "flips=3"}).flips == 3
    frozen = system("frozen-lands")
    assert frozen.command("heal", GM, {"target": "Astrid", "amount": "0", "options": "rest"}).rest


@pytest.mark.parametrize("key", KEYS)
def test_every_act_offered_by_autocomplete_is_understood(key):
    rules = system(key)
    choices = rules.act_choices()
    assert choices, f"{key} offers no /act choices"
    for value, label in choices:
        assert label
        try:
            action = rules.command("act", GM, {"action": value, "target": "Goblin"})
        except UnknownAction as error:  # pragma: no cover - the failure this test exists for
            pytest.fail(f"{key}: /act action:{value} is offered but unknown: {error}")
        except InvalidInput as error:
            # some actions want more options; never because the action is unknown
            assert "Unknown action" not in str(error) and "not an action" not in str(error), (key, value)
        else:
            assert action.by == GM


@pytest.mark.parametrize("key", KEYS)
def test_commands_a_system_does_not_declare_are_refused_with_its_name(key):
    rules = system(key)
    undeclared = "plotpoint_spend" if key != "rotted-capes" else "turn_take"
    with pytest.raises(UnknownAction, match=f"/{undeclared.replace('_', ' ')} is not used in {rules.name}"):
        rules.command(undeclared, GM, {})
    with pytest.raises(UnknownAction):
        rules.report("plotpoint_show" if key != "rotted-capes" else "nothing", rules.new_encounter(1, 1), {})


def test_factions_turns_go_through_the_declarations():
    factions = system("factions")
    assert factions.command("turn_take", ALICE, {"character": "Sybilla"}).actor == "Sybilla"
    assert factions.command("turn_pass", ALICE, {"dice": "3 4"}).dice == (3, 4)
    assert factions.command("turn_first", GM, {"faction": "bandits"}).faction == "bandits"


def test_only_the_gm_adds_npcs_and_players_join_only_their_own_characters():
    rules = system("rotted-capes")
    with pytest.raises(NotAllowed, match="Only the GM adds NPCs"):
        rules.command("initiative_add", ALICE, {"name": "Max", "player": ALICE.user_id})
    mine = Stored(id=5, name="Nova", owner_id=ALICE.user_id, system="rotted-capes", sheet={})
    theirs = Stored(id=6, name="Bolt", owner_id=99, system="rotted-capes", sheet={})
    other_system = Stored(id=7, name="Ogre", owner_id=ALICE.user_id, system="99-towers", sheet={})
    assert rules.command("initiative_join", ALICE, {"character": mine}).character_id == 5
    with pytest.raises(NotAllowed, match="belongs to another player"):
        rules.command("initiative_join", ALICE, {"character": theirs})
    with pytest.raises(InvalidInput, match="this fight is Rotted Capes"):
        rules.command("initiative_join", ALICE, {"character": other_system})


@pytest.mark.parametrize("key", KEYS)
def test_a_stored_character_joins_as_what_it_was_stored_as_not_as_what_its_owner_is(key):
    hero = Stored(id=5, name="Paragon", owner_id=GM.user_id, system=key, sheet={})
    joined = system(key).command("initiative_join", GM, {"character": hero})
    assert not joined.npc and joined.controller_id == GM.user_id
    kept = Stored(id=6, name="Dr Rot", owner_id=GM.user_id, system=key, sheet={}, npc=True)
    joined = system(key).command("initiative_join", GM, {"character": kept})
    assert joined.npc and joined.controller_id is None and joined.character_id == 6


def test_a_kept_npc_is_any_gms_to_bring_back_and_change_and_nobody_elses():
    rules = system("rotted-capes")
    keeper, co_gm = Actor(user_id=7, is_gm=True), Actor(user_id=8, is_gm=True)
    kept = Stored(id=6, name="Doctor Vile", owner_id=keeper.user_id, system="rotted-capes", sheet={}, npc=True)
    joined = rules.command("initiative_join", co_gm, {"character": kept})
    assert joined.npc and joined.controller_id is None and joined.character_id == 6
    check_owner_or_gm(co_gm, kept)
    stepped_down = Actor(user_id=keeper.user_id)  # kept it as a GM, no longer one
    for who in (stepped_down, ALICE):
        with pytest.raises(NotAllowed, match="only a GM brings it back"):
            rules.command("initiative_join", who, {"character": kept})
        with pytest.raises(NotAllowed, match="only a GM changes it"):
            check_owner_or_gm(who, kept)
    hero = Stored(id=5, name="Nova", owner_id=ALICE.user_id, system="rotted-capes", sheet={})
    check_owner_or_gm(ALICE, hero)


def test_a_sheet_stored_before_a_check_existed_still_comes_into_a_fight():
    # `/character add` took "2d6+3 kinetic" as damage before damage was checked: the hero and the template
    # join as stored; only what is typed now is checked as entered
    rules = system("rotted-capes")
    old = rules.parse_sheet("stamina=12") | {"damage": "2d6+3 kinetic"}
    enc = rules.new_encounter(GM.user_id, 7)
    hero = Stored(id=5, name="Nova", owner_id=ALICE.user_id, system=rules.key, sheet=old)
    enc = apply(enc, rules.command("initiative_join", ALICE, {"character": hero, "roll": 12}, enc)).state
    assert enc.find("Nova").sheet.damage == "2d6+3 kinetic"
    template = {"template": (rules.key, "Brute", old)}
    added = rules.command("initiative_add", GM, template | {"name": "Brute", "stats": "stamina=5", "roll": 3}, enc)
    enc = apply(enc, added).state
    assert enc.find("Brute").sheet.damage == "2d6+3 kinetic" and enc.find("Brute").sheet.stamina == 5
    with pytest.raises(InvalidInput, match="not a dice expression"):
        rules.command("initiative_add", GM, template | {"name": "Ogre", "stats": "damage=fireball"}, enc)


def test_delay_without_a_name_picks_the_senders_acting_combatant_in_the_engine():
    rules = system("fightin-words")
    enc = rules.new_encounter(GM.user_id, 3)
    enc = apply(enc, AddCombatants(by=GM, name="Mauve", sheet={}, npc=False, controller_id=ALICE.user_id)).state
    enc = apply(enc, AddCombatants(by=GM, name="Goblin", sheet={})).state
    enc = apply(enc, NextTurn(by=GM)).state
    acting = enc.get(rules.turns.acting(enc)[0])
    sender = ALICE if acting.controller_id == ALICE.user_id else GM
    delayed = apply(enc, DelayTurn(by=sender)).state
    assert acting.id not in rules.turns.acting(delayed)
    stranger = Actor(user_id=42)
    with pytest.raises(RulesError, match="Name the combatant who delays"):
        apply(enc, DelayTurn(by=stranger))


def test_sheets_and_options_share_one_name_value_reader():
    rules = system("rotted-capes")
    assert rules.parse_sheet('dex=3 dr="fire:10"')["dex"] == 3
    with pytest.raises(InvalidInput, match="write stats as `name=value`"):
        rules.parse_sheet("dex 3")


@pytest.mark.parametrize("kind", sorted(VALUE_ERRORS))
def test_a_sheet_value_error_is_said_with_pydantics_own_template(kind):
    """The templates are written out for the catalog: they must stay pydantic's, or the refusal
    would fall back to an untranslatable message."""
    context = {
        name: "1" if name in ("expected", "error") else 1 for _, name, _, _ in fields(VALUE_ERRORS[kind]) if name
    }
    context = context or None
    assert VALUE_ERRORS[kind] == PydanticKnownError(kind, context).message_template


# Every `name` a command builder reads from `options:` (found in the builders' own source, so a
# new one is covered without this list being kept by hand).
_READ = re.compile(r"""(?:opts|flags)(?:\.get\(|\[)"(\w+)"|given\.(?:word|number|flag)\("(\w+)\"""")
OPTION_NAMES = sorted(
    {a or b for path in Path(rules.__file__).parent.rglob("*.py") for a, b in _READ.findall(path.read_text())}
)


@pytest.mark.parametrize("key", KEYS)
def test_any_option_word_bare_or_with_any_value_builds_an_action_or_is_refused_in_words(key):
    rules_system = system(key)
    state = rules_system.new_encounter(1, 1)
    # (initiative_join takes the stored character the bot read, never typed text)
    names = (*rules_system.commands.build, *SHARED)
    commands = [n for n in names if n != "initiative_join" and rules_system.commands.builder(n)]
    acts = [("act", value) for value, _ in rules_system.act_choices()]
    assert len(OPTION_NAMES) > 20
    for command, action in [(c, None) for c in commands] + acts:
        for name in OPTION_NAMES:
            for written in (name, f"{name}=zz", f"{name}=-1", f"{name}=99999999999"):
                given = {"target": "Goblin", "amount": "3", "options": written} | ({"action": action} if action else {})
                try:
                    rules_system.command(command, GM, given, state)
                except RulesError:
                    pass


@pytest.mark.parametrize(
    "key, stats, refusal",
    [
        (
            "rotted-capes",
            "damage=fireball",
            "Stat `damage`: `fireball` is not a dice expression (try `2d6+3` or `4d6kh3`).",
        ),
        ("rotted-capes", "zombie_level=zed", "Stat `zombie_level`: zombie level must be one of alpha, beta"),
        ("frozen-lands", "weapon=Banana", "Stat `weapon`: Unknown weapon `Banana`. Known weapons: Unarmed,"),
    ],
)
def test_a_sheets_own_check_is_said_in_its_words_not_pydantics(key, stats, refusal):
    with pytest.raises(InvalidInput) as refused:
        system(key).parse_sheet(stats)
    said = str(refused.value)
    assert said.startswith(refusal) and "Value error" not in said and not said.endswith(".."), said


SHEETS = {
    "rotted-capes": "stamina=20 wounds=3 avoidance=12 fortitude=6 attack=5 damage=1d8",
    "fightin-words": "reflex=2 dex=1 strength=1 endurance=2 spirit=2 weapon_skill=3 weapons='club:1d6'",
    "factions": "health=6 grit=2 armour=1 weapons='club:d6'",
    "99-towers": "init=2 pa=3 pd=2 stun=8 lethal=4 weapons='Club: 2 melee'",
    "frozen-lands": "initiative=4 damage=2 defense=1 stamina=6",
}


def fight(key):
    """A and B, the GM's, in round 1."""
    playing = system(key)
    enc = playing.new_encounter(GM.user_id, 7)
    for name, side in (("A", "gm"), ("B", "players")):
        options = {"name": name, "stats": SHEETS[key]} | ({"side": side} if key == "factions" else {})
        enc = apply(enc, playing.command("initiative_add", GM, options, enc)).state
    return apply(enc, NextTurn(by=GM)).state


@pytest.mark.parametrize(
    ("key", "command", "options", "unused"),
    [
        ("factions", "attack", {"target": "B", "damage": "2d6"}, "damage"),
        ("factions", "attack", {"target": "B", "defense": "dodge"}, "defense"),
        ("fightin-words", "attack", {"target": "B", "defense": "parry"}, "defense"),
        ("frozen-lands", "attack", {"target": "B", "defense": "3"}, "defense"),
        ("factions", "save", {"actor": "A", "kind": "wit", "dc": 10}, "dc"),
        ("fightin-words", "condition_add", {"target": "B", "condition": "held", "tags": "Lesser"}, "tags"),
        ("frozen-lands", "act", {"action": "aim", "target": "B"}, "target"),
    ],
)
def test_a_play_option_the_system_does_not_use_is_refused_by_name(key, command, options, unused):
    enc = fight(key)
    label = "act action:aim" if command == "act" else command.replace("_", " ")
    name = system(key).name
    with pytest.raises(InvalidInput, match=re.escape(f"/{label} does not use `{unused}:` in {name}: leave it out.")):
        system(key).command(command, GM, options, enc)


def test_every_option_a_play_command_uses_is_still_taken():
    enc = fight("rotted-capes")
    options = {"target": "B", "weapon": "Fists", "modifier": 2, "damage": "1d6", "damage_type": "fire"}
    system("rotted-capes").command("attack", GM, options | {"defense": "fortitude", "roll": 12}, enc)
