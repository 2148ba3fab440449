"""99 Towers' `options:` words: each command declares those it reads and refuses any other,
so a typo (`avd`) is never rolled as if no option were given."""

from __future__ import annotations

import re

import pytest

from rules.commands import Given
from rules.errors import InvalidInput
from rules.said import english
from rules.systems.towers import SYSTEM
from rules.systems.towers.commands import COMMANDS
from rules.systems.towers.costs import ACTIONS, ALIASES
from rules.systems.towers.sheet import DAMAGE_TYPES
from tests.rules.test_towers_grapple import grappled
from tests.rules.test_towers_helpers import GM, add, begin, command, new, phase_of, texts

FIGHTER = (
    "init=2 ss=2 hs=3 pa=4 pd=3 sa=2 mana=3 er=1 stun=12 lethal=6 endurance=2 px=2 "
    'weapons="Longblade: 4+px +1pa; Pistol: 5 r6"'
)
BANDIT = 'init=1 ss=1 hs=2 pa=3 pd=2 er=1 stun=10 lethal=5 endurance=1 weapons="Club: 2+hs"'


def duel():
    """Fighter CI 15 (phase 5); Bandit CI 10 (phase 10)."""
    enc = add(new(), "Fighter", "KH 4C", FIGHTER).state
    return begin(add(enc, "Bandit", "9D", BANDIT).state).state


def said(outcome) -> str:
    return " ".join(english(text) for text in texts(outcome))


# (command, its other options, the refusal of `options:avd`)
REFUSED = [
    (
        "damage",
        {"target": "Bandit", "amount": "3"},
        "Unknown option `avd` for /damage. Options: `fall`, `lethal`, `flips`, `type`, `physical`, `arcane`, "
        "`none`, `untyped`, `acid`",
    ),
    (
        "heal",
        {"target": "Bandit", "amount": 3},
        "Unknown option `avd` for /heal. Options: `lethal`, `temp`, `temporary`.",
    ),
    ("save", {"actor": "Fighter", "kind": "endurance", "dc": 3}, "Unknown option `avd` for /save. Options: `cards`."),
    (
        "condition_add",
        {"target": "Bandit", "condition": "Burning"},
        "Unknown option `avd` for /condition add. Options: `ongoing`, `minor`, `type`, `physical`",
    ),
    (
        "act",
        {"action": "aim"},
        "Unknown option `avd` for /act action:aim. Options: `shift_position`, `step`, `sa`, `spell`.",
    ),
    (
        "act",
        {"action": "move"},
        "Unknown option `avd` for /act action:move. Options: `shift_position`, `step`, `prone`.",
    ),
    (
        "act",
        {"action": "use a skill"},
        "Unknown option `avd` for /act action:use a skill. Options: `shift_position`, `step`, `cost`, `text`.",
    ),
    (
        "act",
        {"action": "cast"},
        "Unknown option `avd` for /act action:cast. Options: `shift_position`, `step`, `mana`, `spell`.",
    ),
    (
        "act",
        {"action": "shake"},
        "Unknown option `avd` for /act action:shake. Options: `shift_position`, `step`, `condition`.",
    ),
    ("act", {"action": "recover"}, "Unknown option `avd` for /act action:recover. Options: `shift_position`, `step`."),
    (
        "act",
        {"action": "throw"},
        "Unknown option `avd` for /act action:throw. Options: `shift_position`, `step`, `victim`, `willing`, `max`, "
        "`range`",
    ),
    ("act", {"action": "speak"}, "Unknown option `avd` for /act action:speak. Options: `text`."),
    (
        "act",
        {"action": "stance"},
        "Unknown option `avd` for /act action:stance. Options: `stance`, `aggressive`, `defensive`, `none`, "
        "`off`, `drop`.",
    ),
    ("act", {"action": "hold"}, "/act action:hold takes no options: `avd` is not one."),
    (
        "act",
        {"action": "release", "target": "Bandit"},
        "Unknown option `avd` for /act action:release. Options: `after`.",
    ),
    (
        "act",
        {"action": "attack", "target": "Bandit"},
        "Unknown option `avd` for /act action:attack. Options: `weapon`, `shift_position`, `step`, `mana`, `range`",
    ),
    (
        "act",
        {"action": "aid", "target": "Bandit"},
        "Unknown option `avd` for /act action:aid. Options: `ally`, `aid`, `weapon`",
    ),
]


@pytest.mark.parametrize("name, options, refusal", REFUSED)
def test_an_unknown_word_is_refused_with_the_words_the_command_reads(name, options, refusal):
    # Refused while the command is read, before there is an action to apply: nothing changes.
    with pytest.raises(InvalidInput, match=re.escape(refusal)):
        SYSTEM.command(name, GM, {**options, "options": "avd"})
    SYSTEM.command(name, GM, options)  # without the typo the same command is read


def _declared():
    for key, words in COMMANDS.options.items():
        name, _, action = key.partition(":")
        for word in words:
            yield pytest.param(name, action.replace("_", " "), word, id=f"{key}-{word}")


@pytest.mark.parametrize("name, action, word", _declared())
def test_no_declared_word_is_refused(name, action, word):
    given = Given(GM, {"action": action or "pick up!", "options": word}, system=SYSTEM)
    COMMANDS.check_options(name, given)


@pytest.mark.parametrize("name", [*ACTIONS, *ALIASES])
def test_every_name_of_an_action_has_the_words_of_that_action(name):
    spelled = " ".join(name.replace("-", " ").split())
    with pytest.raises(InvalidInput, match=f"/act action:{re.escape(spelled)}"):
        SYSTEM.command("act", GM, {"action": name, "target": "Bandit", "options": "avd"})


def test_an_action_written_otherwise_is_checked_against_the_words_of_all_actions():
    # `pick up!` is Pick Up to the actions, but no declared name: every /act word is still known.
    with pytest.raises(InvalidInput, match=re.escape("Unknown option `avd` for /act. Options: `ally`, `aid`")):
        SYSTEM.command("act", GM, {"action": "pick up!", "options": "avd"})
    assert SYSTEM.command("act", GM, {"action": "pick up!", "options": "text=Key"}).what == "pick up"


# --- the words at work: each still does what it did ------------------------------------------
@pytest.mark.parametrize(
    "action, options, line",
    [
        ("aim", "sa", "Fighter aims: (flip+1) on the next SA attack."),
        ("aim", "spell", "Fighter aims: (flip+1) on the next SA attack."),
        ("move", "prone", "Fighter moves and drops prone at the end (free)."),
        ("cast", "mana=1 spell=Fireball", "Fighter casts Fireball (1 mana, 2 left)."),
        ("reload", "text=Pistol", "Fighter: Reload a Weapon: Pistol."),
        ("drop object", "text=Pistol", "Fighter: Drop Object (free): Pistol."),
        ("use a skill", "cost=3 text=Climb", "Fighter: Use a Skill: Climb."),
    ],
)
def test_the_words_of_an_action_still_work(action, options, line):
    assert said(command(duel(), "act", action=action, options=options)).startswith(line)


def test_step_and_shift_position_still_add_shift_position():
    for word in ("step", "shift_position"):
        out = command(duel(), "act", action="recover", options=word)
        assert phase_of(out.state, "Fighter") == 5 + 5 + 2


def test_shake_names_the_condition_with_condition():
    enc = command(duel(), "condition_add", target="Fighter", condition="Dazed", tags="minor").state
    enc = command(enc, "condition_add", target="Fighter", condition="Slowed", tags="minor").state
    out = command(enc, "act", action="shake", options="condition=Slowed")
    assert [c.name for c in out.state.find("Fighter").conditions] == ["Dazed"]


def test_a_throw_still_reads_its_victim_and_the_modifiers():
    out = command(grappled(), "act", action="throw", options="victim=Bandit willing flip=1", cards="2C 3C 4C 5C 6C")
    assert "GM" in said(out) and "Bandit (willing) lands on their feet" in said(out)


def test_the_words_of_damage_still_work():
    enc = duel()
    out = command(enc, "damage", target="Bandit", amount="3", options="lethal=1 flips=1 arcane cold", cards="2C")
    assert "3 STUN and 1 damage flips: 2♣ → 0♥" in said(out)
    assert (out.state.find("Bandit").stun, out.state.find("Bandit").lethal) == (10 - 3, 5 - 1)  # arcane: IR 0
    assert "Fall of 10 feet" in said(
        command(enc, "damage", target="Bandit", amount="10", options="fall", cards="2C 3C 4C 5C")
    )
    built = SYSTEM.command("damage", GM, {"target": "Bandit", "amount": "2", "options": "type=radiant untyped"})
    assert (built.category, built.dtype) == ("none", "radiant")
    built = SYSTEM.command("damage", GM, {"target": "Bandit", "amount": "2", "options": "none physical"})
    assert (built.category, built.dtype) == ("physical", "")


@pytest.mark.parametrize("kind", DAMAGE_TYPES)
def test_every_damage_type_is_still_a_word_of_damage_and_condition_add(kind):
    assert SYSTEM.command("damage", GM, {"target": "Bandit", "amount": "2", "options": kind}).dtype == kind
    condition = {"target": "Bandit", "condition": "Burning", "options": f"ongoing=1 {kind}"}
    assert SYSTEM.command("condition_add", GM, condition).dtype == kind


def test_a_bare_flips_is_one_damage_flip_and_no_damage_type():
    built = SYSTEM.command("damage", GM, {"target": "Bandit", "amount": "0", "options": "flips"})
    assert (built.flips, built.dtype) == (1, "")


def test_the_words_of_heal_condition_add_and_save_still_work():
    enc = command(duel(), "damage", target="Bandit", amount="5", options="lethal=2").state
    assert command(enc, "heal", target="Bandit", amount=1, options="lethal").state.find("Bandit").lethal == 4
    assert command(enc, "heal", target="Bandit", amount=2, options="temporary").state.find("Bandit").temp_stun == 2
    assert command(enc, "heal", target="Bandit", amount=2, options="temp lethal").state.find("Bandit").temp_lethal == 2
    out = command(enc, "condition_add", target="Bandit", condition="Burning", options="ongoing=2 minor physical fire")
    assert said(out) == "Bandit: Burning (minor); 2 physical STUN at each zero phase."
    out = command(enc, "save", actor="Fighter", kind="endurance", dc=1, options="cards='2C 9D 3H'")
    assert "2♣" in said(out) and "→ resisted" in said(out)
