"""Frozen Lands: a whole fight through the engine, and the slash-command mapping."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants
from rules.errors import InvalidInput, UnknownAction
from rules.said import english
from rules.systems.frozen_lands import SYSTEM
from tests.rules.test_frozen_lands_support import (
    ASTRID,
    BJORN,
    GM,
    act,
    choose,
    current,
    end_turn,
    fl,
    get,
    outcome,
    party,
)


def test_a_full_fight_with_out_of_turn_and_delayed_actions_a_block_a_broken_character_and_stress():
    s = party(bjorn={"stress": 2})
    assert [s.get(c).name for c in s.turns.track] == ["Astrid", "Wolf", "Bjorn", "Bandit"]
    # Round 1, Astrid: holds an action, then strikes the Wolf.
    s = act(s, fl.Delay(by=ASTRID))
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(6, 6, 1, 1)))
    assert get(s, "Wolf").stamina == 4
    s = end_turn(s)
    # The Wolf's turn: Bjorn cuts in out of turn (AWARENESS 2).
    s = act(s, fl.Interrupt(by=BJORN, actor="Bjorn", dice=(6, 1)))
    assert current(s) == ["Bjorn"]
    o = outcome(s, fl.Attack(by=BJORN, target="Wolf", dice=(6, 1, 1, 1, 1)))  # 1 + Battleaxe 2 − 1 = 2
    s = o.state
    assert get(s, "Wolf").stamina == 2 and current(s) == ["Wolf"]
    # The Wolf bites Bjorn, who blocks with his shield.
    s = act(s, fl.Attack(by=GM, target="Bjorn"))
    s = choose(s, "Block", 6, 6, 2, by=BJORN)
    assert get(s, "Bjorn").stamina == 9 and get(s, "Bjorn").reactions_left == 0
    # Astrid releases her delayed action: it comes right after the Wolf's turn.
    s = act(s, fl.Release(by=ASTRID, actor="Astrid"))
    s = end_turn(s)
    assert current(s) == ["Astrid"]
    s = act(s, fl.Attack(by=ASTRID, target="Wolf", dice=(6, 1, 1, 1)))
    assert get(s, "Wolf").stamina == 1 and current(s) == ["Bjorn"]
    # Bjorn's own turn: two actions left after acting out of turn.
    assert get(s, "Bjorn").actions_left == 2
    s = act(s, fl.Attack(by=BJORN, target="Wolf", dice=(6, 6, 1, 1, 1)))
    assert get(s, "Wolf").out
    s = end_turn(s)
    # The Bandit breaks Astrid, then wounds her.
    s = act(s, fl.Attack(by=GM, target="Astrid", damage=10))
    s = choose(s, "No reaction", by=ASTRID)
    assert get(s, "Astrid").broken
    o = outcome(s, fl.Attack(by=GM, target="Astrid", damage=4))
    s = o.state
    assert get(s, "Astrid").wounds == 1 and o.events[0].ping == (1,)
    s = act(s, fl.AddCondition(by=GM, target="Astrid", condition="injury", text="cracked skull"))
    s = end_turn(s)
    # Round 2: Astrid is broken and skipped, the Wolf is out: Bjorn acts.
    assert s.round == 2 and current(s) == ["Bjorn"]
    s = act(s, fl.Damage(by=GM, target="Bjorn", amount="1", stress=True))  # Stress 3 > SOUL 2: one stress die
    o = outcome(s, fl.Attack(by=BJORN, target="Bandit", dice=(6, 2, 2, 2, 2, 1)))
    assert "+ stress 1d6 (1)" in o.events[0].text and "→ Exhaustion 1 (BODY: −1 action a round)" in o.events[0].text
    s = o.state
    bjorn = get(s, "Bjorn")
    assert bjorn.exhaustion == 1 and bjorn.actions_left == 1 and get(s, "Bandit").stamina == 1
    assert [english(line) for line in SYSTEM.turn_summary(s, bjorn.id)[:2]] == [
        "Actions left: 1 of 2 (used: attack)",
        "Reactions left: 1 of 1",
    ]
    assert (
        english(SYSTEM.status_line(s, get(s, "Astrid"), reveal=True))
        == "Stamina 0/7 · Wounds 1 · Stress 0 · WP 0 · broken"
    )
    assert (
        english(SYSTEM.status_line(s, bjorn, reveal=True))
        == "Stamina 9/9 · Wounds 0 · Stress 3 (1 stress die) · WP 0 · Exhaustion 1"
    )
    assert english(SYSTEM.status_line(s, get(s, "Bandit"), reveal=False)) == "badly hurt"
    # The tracker strikes a defeated enemy's name through, which a screen reader does not say: the line does.
    assert english(SYSTEM.status_line(s, get(s, "Wolf"), reveal=True)) == "defeated · Stamina 0/6 · dmg 3 · def 1"


def command(name, by=GM, **options):
    return SYSTEM.command(name, by, options)


def test_slash_commands_map_to_actions():
    a = command("attack", ASTRID, target="Wolf", weapon="Long Bow", options="long large dim", dice="6 6 1")
    assert isinstance(a, fl.Attack) and (a.range, a.size, a.light, a.weapon) == ("long", 1, "dim", "Long Bow")
    assert a.dice == (6, 6, 1)
    a = command("attack", ASTRID, target="Wolf", options="split=2")
    assert a.split == 2 and not a.ranged
    a = command("attack", ASTRID, target="Wolf", options="throw", weapon="Dagger")
    assert a.thrown
    with pytest.raises(InvalidInput, match="Unknown option `shot` for /attack. Options: `ranged`, `shoot`"):
        command("attack", ASTRID, target="Wolf", options="shot")
    a = command("attack", GM, actor="Wolf", target="Astrid", damage="5")
    assert a.damage == 5 and a.actor == "Wolf"
    m = command("act", ASTRID, action="move", options="to=Hall close=2 jump")
    assert isinstance(m, fl.Move) and (m.to, m.close, m.jump) == ("Hall", 2, "athletics")
    z = command("act", GM, action="zone", options="name=Yard cluttered dim")
    assert isinstance(z, fl.SetZone) and z.features == ("cluttered", "dim")
    assert isinstance(command("act", ASTRID, action="interrupt", actor="Astrid"), fl.Interrupt)
    o = command("act", ASTRID, action="other", options="label=First skill=healing")
    assert (o.label, o.skill) == ("First", "healing")
    d = command("damage", target="Astrid", amount="3", damage_type="stress")
    assert d.stress and d.amount == "3"
    h = command("heal", target="Astrid", amount=2, options="rest wounds=1")
    assert (h.amount, h.rest, h.wounds) == (2, True, 1)
    c = command("save", ASTRID, actor="Astrid", kind="perception", dc=2)
    assert isinstance(c, fl.Check) and (c.skill, c.need) == ("perception", 2)
    assert command("save", ASTRID, actor="Astrid", kind="perception").need == 1
    with pytest.raises(InvalidInput, match="`dc` must be between 1 and 20"):
        command("save", ASTRID, actor="Astrid", kind="perception", dc=0)
    assert command("save", ASTRID, actor="Astrid", kind="perception", options="mod=-1").modifier == -1
    with pytest.raises(InvalidInput, match="Unknown option `bonus` for /save. Options: `mod`, `modifier`"):
        command("save", ASTRID, actor="Astrid", kind="perception", options="bonus=1")
    with pytest.raises(InvalidInput, match="Unknown option `stres` for /damage. Options: `stress`, `direct`"):
        command("damage", target="Astrid", amount="2", options="stres")
    # A typo in the damage type is refused too, rather than dealing Stamina damage instead of Stress.
    with pytest.raises(InvalidInput, match="Unknown damage type `stres` for /damage: the only one is `stress`"):
        command("damage", target="Astrid", amount="2", damage_type="stres")
    assert command("damage", target="Astrid", amount="2", damage_type=" Stress ").stress
    with pytest.raises(InvalidInput, match="Unknown option `wound` for /heal. Options: `rest`, `wounds`"):
        command("heal", target="Astrid", amount="2", options="wound=1")
    with pytest.raises(InvalidInput, match="Unknown option `lvl` for /condition add. Options: `level`"):
        command("condition_add", target="Astrid", condition="dazed", options="lvl=2")
    with pytest.raises(InvalidInput, match="Unknown option `too` for /act action:move. Options: `to`, `close`"):
        command("act", ASTRID, action="move", options="too=Hall")
    with pytest.raises(InvalidInput, match="/act action:aim takes no options: `ranged` is not one."):
        command("act", ASTRID, action="aim", options="ranged")
    assert command("act", ASTRID, action="other", options="label='First Aid' skill=healing").label == "First Aid"
    c = command("condition_add", target="Astrid", condition="injury", tags="broken arm")
    assert c.text == "broken arm"
    with pytest.raises(UnknownAction):
        command("plotpoint_spend")
    with pytest.raises(InvalidInput, match="Unknown action"):
        command("act", action="dance")


def test_sheet_validation():
    with pytest.raises(InvalidInput, match="Unknown weapon"):
        SYSTEM.combatant_fields(SYSTEM.parse_sheet("weapon=Lightsaber"), _npc(False))
    fields = SYSTEM.combatant_fields(SYSTEM.parse_sheet("body=4 class_stamina=5 agility=4"), _npc(False))
    assert fields["stamina"] == 9 and fields["reactions_left"] == 3
    fields = SYSTEM.combatant_fields(SYSTEM.parse_sheet("stamina=8 initiative=3"), _npc(True))
    assert fields["stamina"] == 8 and fields["enemy"]


def _npc(npc):
    return AddCombatants(by=GM, name="X", npc=npc)


@pytest.mark.parametrize(
    "lower",
    [
        fl.AddCondition(by=GM, target="Astrid", condition="exhaustion", text="0"),
        fl.RemoveCondition(by=GM, target="Astrid", condition="exhaustion"),
    ],
    ids=["add at a lower level", "remove"],
)
def test_lowering_exhaustion_mid_round_gives_back_no_actions_however_the_gm_does_it(lower):
    s = party()
    assert current(s) == ["Astrid"] and get(s, "Astrid").actions_left == 3
    s = act(s, fl.AddCondition(by=GM, target="Astrid", condition="exhaustion", text="2"))
    assert get(s, "Astrid").actions_left == 1
    s = act(s, lower)
    assert get(s, "Astrid").exhaustion == 0 and get(s, "Astrid").actions_left == 1
