"""Rotted Capes Horde rules: one opportunity attack per member with a shrinking
bonus, and area attacks that hit every member."""

from __future__ import annotations

import pytest

from rules.errors import NotAllowed
from tests.rules.test_rotted_capes import ALICE, GM, begin, cmd, end_turn, join, new, run, texts


def fight(zombies=6, **thug):
    """Nova (initiative 20) against a horde of identical thugs (initiative 5)."""
    enc = join(new(), "Nova", 20, avoidance=15, fortitude=6, stamina=40, wounds=3, attack=5)
    stats = {"avoidance": 10, "fortitude": 5, "stamina": 6, "wounds": 2, "attack": 2, "damage": "1d6"} | thug
    enc = begin(join(enc, "Thug", 5, count=zombies, **stats))
    return run(enc, "act", GM, action="horde", target="Thug")


def horde(enc):
    return enc.find("Thug Horde")


def test_a_horde_can_be_formed_before_round_one_at_its_lowest_members_initiative():
    """The seed speaks of a Horde "formed after combat has started" (the lowest member's initiative); formed during
    set-up, SYSTEMS.md's default holds: the lowest member's initiative too."""
    enc = join(new(), "Nova", 10, avoidance=15)
    enc = join(enc, "Thug", (16, 15, 14, 13, 12, 3), count=6, dex=1, avoidance=10, wounds=2, attack=2)
    with pytest.raises(NotAllowed, match="Only the GM changes combat modes"):
        cmd(enc, "act", ALICE, action="horde", target="Thug")
    out = cmd(enc, "act", GM, action="horde", target="Thug")
    assert texts(out) == ["6 creatures form Thug Horde at Thug 6's initiative: +10 to hit and damage."]
    enc = out.state
    assert [[enc.get(c).name for c in s] for s in enc.turns.slots] == [["Nova"], ["Thug Horde"]]
    assert horde(enc).horde == tuple(f"Thug {i}" for i in range(1, 7)) and horde(enc).economy.reactions == 6
    enc = end_turn(begin(enc)).state
    assert [enc.get(c).name for c in enc.turns.acting] == ["Thug Horde"]
    out = cmd(enc, "attack", GM, target="Nova", dice="10 3")
    assert "d20 10 + 2 + 10 horde = 22 vs Avoidance 15: hit" in texts(out)[0]


def test_a_horde_has_one_reaction_per_member_and_gets_them_back_on_its_turn():
    enc = fight()
    assert horde(enc).economy.reactions == 6
    texts_ = []
    for _ in range(6):
        out = cmd(enc, "attack", GM, actor="Thug Horde", target="Nova", options="reaction", dice="1")
        texts_.append(texts(out)[0])
        enc = out.state
    with pytest.raises(NotAllowed):
        cmd(enc, "attack", GM, actor="Thug Horde", target="Nova", options="reaction", dice="1")
    assert horde(enc).economy.reactions == 0
    enc = end_turn(enc).state  # Nova's turn ends: the horde's turn
    assert horde(enc).economy.reactions == 6 and horde(enc).economy.opportunity == 0


def test_each_opportunity_attack_after_the_first_loses_one_members_bonus():
    enc = fight()
    out = cmd(enc, "attack", GM, actor="Thug Horde", target="Nova", options="reaction", dice="10 3")
    assert texts(out)[0] == (
        "Thug Horde attacks Nova: d20 10 + 2 + 10 horde (1st opportunity attack) = 22 vs "
        "Avoidance 15: hit; 1d6 (3) + 10 horde = 13 Stamina; 13 > Fortitude 6 → massive: 1 Wound "
        "(Nova: 27/40 Stamina, 2/3 Wounds)"
    )
    out = cmd(out.state, "attack", GM, actor="Thug Horde", target="Nova", options="reaction", dice="10 1")
    assert texts(out)[0] == (
        "Thug Horde attacks Nova: d20 10 + 2 + 8 horde (2nd opportunity attack) = 20 vs "
        "Avoidance 15: hit; 1d6 (1) + 8 horde = 9 Stamina; 9 > Fortitude 6 → massive: 1 Wound "
        "(Nova: 18/40 Stamina, 1/3 Wounds)"
    )
    enc = out.state
    for _ in range(3):
        enc = run(enc, "attack", GM, actor="Thug Horde", target="Nova", options="reaction", dice="1")
    out = cmd(enc, "attack", GM, actor="Thug Horde", target="Nova", options="reaction", dice="19", damage="1")
    # sixth: 10 − 5 × 2 = no bonus left, never below 0
    assert texts(out)[0].startswith("Thug Horde attacks Nova: d20 19 + 2 = 21 vs Avoidance 15: hit")
    assert "horde" not in texts(out)[0]


def test_the_horde_turn_resets_the_bonus_and_its_own_attack_has_the_full_bonus():
    enc = fight()
    enc = run(enc, "attack", GM, actor="Thug Horde", target="Nova", options="reaction", dice="1")
    enc = run(enc, "attack", GM, actor="Thug Horde", target="Nova", options="reaction", dice="1")
    assert horde(enc).economy.opportunity == 2
    enc = end_turn(enc).state
    out = cmd(enc, "attack", GM, target="Nova", dice="1")
    assert "+ 10 horde = " in texts(out)[0] and "opportunity" not in texts(out)[0]
    assert horde(enc).economy.reactions == 6


def test_an_area_attack_hits_every_member_and_the_horde_dissolves_below_five():
    enc = fight(zombies=6, stamina=6)
    # 5 damage, no massive: each member at 1 Stamina, nobody falls
    out = cmd(enc, "attack", ALICE, target="Thug Horde", damage="5", roll=15, options="area")
    line = texts(out)[0]
    assert line.startswith(
        "Nova attacks Thug Horde: d20 15 + 5 = 20 vs Avoidance 10: hit; 5 = 5; area, every member: "
        "Thug 1: Stamina · Thug 2: Stamina"
    )
    assert line.endswith("(Thug Horde: 6 members, each 1/6 Stamina, 2/2 Wounds)")
    enc = out.state
    assert horde(enc).horde_wear == (1, 0, 2, 0)
    # a single attack takes out the front member: the next one steps forward as worn as the area left it
    out = cmd(enc, "attack", GM, actor="Nova", target="Thug Horde", damage="1", roll=15, options="free")
    assert "5 left in the horde, now +8 to hit and damage" in texts(out)[0]
    assert horde(out.state).stamina == 1
    # another area attack: everyone down at once, nothing left of the horde
    enc = end_turn(out.state).state
    enc = end_turn(enc).state
    out = cmd(enc, "attack", ALICE, target="Thug Horde", damage="1", roll=15, options="area")
    assert "Thug 2: Stamina; Thug 2 is Unconscious" in texts(out)[0]
    assert "Thug 6: Stamina; Thug 6 is Unconscious" in texts(out)[0]
    assert texts(out)[1] == "Thug Horde is wiped out."


def test_an_area_attack_with_massive_damage_takes_out_several_members_and_breaks_the_horde():
    enc = fight(zombies=6, stamina=20, wounds=1)
    out = cmd(enc, "attack", ALICE, target="Thug Horde", damage="8", roll=15, options="area")
    lines = texts(out)
    assert lines[0] == (
        "Nova attacks Thug Horde: d20 15 + 5 = 20 vs Avoidance 10: hit; 8 = 8; area, every member: "
        + " · ".join(
            f"Thug {i}: Stamina; 8 > Fortitude 5 → massive: 1 Wound; Thug {i} is Incapacitated" for i in range(1, 7)
        )
    )
    assert lines[1] == "Thug Horde is wiped out."


def test_an_area_attack_that_drops_the_horde_below_five_splits_it():
    enc = fight(zombies=6, stamina=6, wounds=2)
    # weaken the front member only, with an ordinary attack
    enc = run(enc, "attack", ALICE, target="Thug Horde", damage="5", roll=15)
    enc = end_turn(enc).state
    enc = end_turn(enc).state
    # 2 damage: the front member (1 Stamina) falls Unconscious, the others stay standing at 4
    out = cmd(enc, "attack", ALICE, target="Thug Horde", damage="2", roll=15, options="area")
    assert texts(out)[0].endswith("; 5 left in the horde, now +8 to hit and damage")
    h = horde(out.state)
    assert h.horde == ("Thug 2", "Thug 3", "Thug 4", "Thug 5", "Thug 6") and h.stamina == 4


def test_area_against_a_lone_target_changes_nothing():
    enc = join(new(), "Nova", 20, attack=5)
    enc = begin(join(enc, "Brute", 5, avoidance=15, fortitude=4, stamina=20, wounds=3))
    plain = texts(cmd(enc, "attack", ALICE, target="Brute", damage="6", roll=15))
    area = texts(cmd(enc, "attack", ALICE, target="Brute", damage="6", roll=15, options="area"))
    assert plain == area


def test_a_horde_may_attack_for_damage_0_while_its_bonus_adds_to_it():
    out = cmd(fight(), "attack", GM, actor="Thug Horde", target="Nova", options="reaction", dice="10", damage="0")
    assert "hit; 0 + 10 horde = 10 Stamina" in texts(out)[0]
