"""A whole fight through the engine: passes, a guard, a counter, a morale
check that makes a group surrender, the right faction pinged at every move;
and the slash commands mapped to actions."""

from __future__ import annotations

import pytest

from rules.actions import NextTurn
from rules.engine import apply
from rules.errors import InvalidInput, UnknownAction
from rules.said import english
from rules.systems.factions import SYSTEM
from rules.systems.factions.actions import Attack, Move, OpportunityAttack
from tests.rules.test_factions_helpers import (
    BALTHASAR,
    BALTHASAR_ID,
    GM,
    GM_ID,
    SYBILLA,
    SYBILLA_ID,
    THEOBALD,
    THEOBALD_ID,
    choose,
    end,
    options,
    pass_move,
    seed_cast,
    start,
    take,
    texts,
)

PLAYERS = (BALTHASAR_ID, SYBILLA_ID, THEOBALD_ID)


def pinged(out):
    return [e for e in out.events if e.kind == "turn"][-1].ping


def act(enc, by, **fields):
    return apply(enc, Attack(by=by, **fields))


def test_a_whole_fight():
    out = start(seed_cast())
    assert pinged(out) == (GM_ID,)
    enc = take(out.state, "Bandit 1").state
    # Bandit 1 swings at Sybilla; Theobald steps in to guard her.
    out = act(enc, GM, targets=("Sybilla",), weapon="axe", dice=(5,))
    assert out.state.pending.users == (SYBILLA_ID, BALTHASAR_ID, THEOBALD_ID)
    out = choose(out.state, "Guard: Theobald", by=THEOBALD)
    assert out.state.find("Theobald").grit == 0 and out.state.find("Sybilla").grit == 2
    out = end(out.state)
    assert pinged(out) == PLAYERS

    # Balthasar attacks Bandit 2, who counters: 6 against 2, the bandit falls first.
    enc = take(out.state, "Balthasar", by=BALTHASAR).state
    out = act(enc, BALTHASAR, targets=("Bandit 2",), weapon="sword", dice=(6,))
    out = choose(out.state, "Counter: axe", dice=(2,))
    assert out.state.find("Bandit 2").incapacitated and out.state.find("Balthasar").grit == 3
    out = end(out.state, by=BALTHASAR)
    assert pinged(out) == (GM_ID,)

    enc = take(out.state, "Bandit 3").state
    out = act(enc, GM, targets=("Balthasar",), weapon="axe", dice=(1,))
    # Balthasar has acted: only Sybilla, who could guard him, is asked.
    assert options(out.state.pending) == ("No reaction", "Guard: Sybilla")
    assert out.state.pending.users == (SYBILLA_ID,)
    out = end(choose(out.state, "No reaction", by=SYBILLA).state)
    assert pinged(out) == PLAYERS

    enc = take(out.state, "Sybilla", by=SYBILLA).state
    out = act(enc, SYBILLA, targets=("Bandit Leader",), weapon="musket", dice=(8,))
    out = choose(out.state, "No reaction")
    assert out.state.find("Bandit Leader").incapacitated
    # Sybilla ends her turn: nobody is left on either side, the round ends and the bandits,
    # down to half their numbers, check morale: both fail. The first move of round 2
    # waits for their choices.
    out = apply(out.state, NextTurn(by=SYBILLA))
    assert "gm must pass: nobody left to act." in texts(out)
    # Her command ends the round, but the bandits' morale dice are the GM's: a Roll choice.
    assert out.state.pending.kind == "morale_roll" and out.state.pending.users == (GM_ID,)
    out = choose(out.state, "Roll", dice=(17, 12))
    assert "Morale check for gm: a group WIT save." in texts(out)
    assert out.state.round == 2 and out.state.pending.kind == "morale"
    assert not [e for e in out.events if e.kind == "turn"]
    enc = choose(out.state, "Surrender").state
    out = choose(enc, "Surrender")
    enc = out.state
    assert enc.find("Bandit 1").surrendered and enc.find("Bandit 3").surrendered
    # Nobody among the bandits can act any more: they drop out of the alternation, and the
    # move goes straight to the players without anyone passing by hand.
    assert "The fight is decided: only players still fight. The GM may end it with /encounter end." in texts(out)
    assert pinged(out) == PLAYERS and enc.turns.moving == "players"
    assert english(SYSTEM.status_line(enc, enc.find("Bandit 1"), reveal=False)) == "surrendered"
    # The players pass: as the only faction in play, their pass ends the round.
    out = pass_move(enc, by=SYBILLA)
    assert "Every faction passed in a row: the round ends." in texts(out) and out.state.round == 3
    assert not any("gm must pass" in t for t in texts(out))


def test_commands_map_to_actions():
    attack = SYSTEM.command(
        "attack",
        GM,
        {
            "actor": "Bandit 1",
            "target": "Knight, Squire",
            "weapon": "bite",
            "options": 'zones=1 cover split=1/1 stunt="drops the shield"',
            "dice": "3 4",
        },
    )
    assert isinstance(attack, Attack) and attack.targets == ("Knight", "Squire") and attack.split == (1, 1)
    assert attack.zones == 1 and attack.cover and attack.stunt == "drops the shield" and attack.dice == (3, 4)
    grapple = SYSTEM.command("act", GM, {"action": "grapple", "target": "Bandit 1"})
    assert grapple.mode == "grapple"
    opportunity = SYSTEM.command("attack", GM, {"actor": "Bandit 1", "target": "Sybilla", "options": "opportunity"})
    assert isinstance(opportunity, OpportunityAttack)
    move = SYSTEM.command("act", GM, {"action": "move", "options": "zones=2 sprint"})
    assert isinstance(move, Move) and move.zones == 2 and move.sprint
    with pytest.raises(InvalidInput, match="Unknown option `zone` for /act action:move. Options: `zones`, `sprint`"):
        SYSTEM.command("act", GM, {"action": "move", "options": "zone=2"})
    with pytest.raises(InvalidInput, match="/act action:break free takes no options: `now` is not one."):
        SYSTEM.command("act", GM, {"action": "break free", "options": "now"})
    assert SYSTEM.command("save", GM, {"actor": "Sybilla", "kind": "AGI", "roll": 4}).attribute == "agi"
    with pytest.raises(UnknownAction):
        SYSTEM.command("act", GM, {"action": "fly"})
    # a typo is refused, not rolled as if no option were given
    with pytest.raises(InvalidInput, match="Unknown option `zonse` for /attack. Options: `zones`"):
        SYSTEM.command("attack", GM, {"target": "Sybilla", "options": "zonse=6 unaware"})
    with pytest.raises(InvalidInput, match="Unknown option `drect` for /damage. Options: `direct`, `cover`"):
        SYSTEM.command("damage", GM, {"target": "Sybilla", "amount": "3", "options": "drect"})
    assert SYSTEM.command("heal", GM, {"target": "Sybilla", "amount": "2", "options": "grit"}).grit
    with pytest.raises(InvalidInput, match="Unknown option `grt` for /heal. Options: `grit`"):
        SYSTEM.command("heal", GM, {"target": "Sybilla", "amount": "2", "options": "grt"})
    assert SYSTEM.command("save", GM, {"kind": "wit", "options": "why=fear"}).why == "fear"
    with pytest.raises(InvalidInput, match="Unknown option `wy` for /save. Options: `why`"):
        SYSTEM.command("save", GM, {"kind": "wit", "options": "wy=fear"})
    with pytest.raises(InvalidInput, match="Unknown option `bye` for /condition add. Options: `by`"):
        SYSTEM.command("condition_add", GM, {"target": "Sybilla", "condition": "grappled", "options": "bye=Bandit"})
    with pytest.raises(InvalidInput):
        SYSTEM.command("save", GM, {"kind": "luck"})


def test_a_sheet_rejects_bad_stats():
    with pytest.raises(InvalidInput):
        SYSTEM.parse_sheet("armour=4")
    with pytest.raises(InvalidInput):
        SYSTEM.parse_sheet("weapons='bow:d7'")
    with pytest.raises(InvalidInput):
        SYSTEM.parse_sheet("size=huge")
    assert SYSTEM.parse_sheet("str=14 weapons='bow:d6:8'")["str"] == 14


def test_a_superscript_range_is_refused_as_any_unreadable_part():
    with pytest.raises(InvalidInput, match="Could not read `²` in weapon `bow`"):
        SYSTEM.parse_sheet("weapons='bow:d6:²'")


@pytest.mark.parametrize(
    "weapons, part",
    [("bite:d6:great:great", "great"), ("bomb:d6:2:blast:Blast", "Blast"), ("bow:d6:8:10", "10"), ("axe:d6:d8", "d8")],
)
def test_a_weapon_part_given_twice_is_refused(weapons, part):
    with pytest.raises(InvalidInput) as refused:
        SYSTEM.parse_sheet(f"weapons='{weapons}'")
    name = weapons.split(":")[0]
    assert english(refused.value.said) == (
        f"Stat `weapons`: `{part}` in weapon `{name}` repeats a part given before: write each part once, "
        "e.g. `bow:d6:8` (name, damage die, range in zones, then `blast` or `great`)."
    )
    # A sheet stored before the check still reads (the last part given wins, as it did).
    assert SYSTEM.parse_sheet({"weapons": weapons}, entered=False)["weapons"] == weapons


def test_a_weapons_refusal_is_one_sentence_with_one_full_stop():
    with pytest.raises(InvalidInput) as refused:
        SYSTEM.parse_sheet("weapons='bite:d7'")
    assert english(refused.value.said) == (
        "Stat `weapons`: Could not read `d7` in weapon `bite`: write e.g. `bow:d6:8` "
        "(name, damage die, range in zones, then `blast` or `great`)."
    )


def test_rolled_healing_shows_its_dice_as_damage_does():
    enc = start(seed_cast()).state
    hurt = SYSTEM.command("damage", GM, {"target": "Bandit Leader", "amount": "6", "options": "direct"}, enc)
    enc = apply(enc, hurt).state
    healed = apply(enc, SYSTEM.command("heal", GM, {"target": "Bandit Leader", "amount": "1d4", "dice": "3"}, enc))
    assert english(healed.events[-1].text) == "Bandit Leader heals (1d4 (3) = 3): health 4 → 7/10."
    grit = apply(enc, SYSTEM.command("heal", GM, {"target": "Bandit Leader", "amount": "2", "options": "grit"}, enc))
    assert "(" not in english(grit.events[-1].text)  # a typed number has no dice to show
