"""The derivation check finds what a player can compute from public lines, and nothing it cannot."""

from __future__ import annotations

import pytest

from tests.rules.derive import derivable


@pytest.mark.parametrize(
    "lines, known, found",
    [
        # the example: the target lost 18, so the total was 18 and the bonus 18 − 7
        (["Shade attacks Nova: 2d6 (3, 4) + ? = ? Stamina; 18 > Fortitude 10"], {18}, 11),
        (["1d6 (3) + ? = ? − DR 5 (kinetic) = 18 Stamina"], set(), 20),
        (["d20 dis (11, 4) 4 + ? = 70 vs Avoidance 15: hit [dis: Plot Point]"], set(), 66),
        (["Hex ? + 1♥ = ? − IR 1 = 4 arcane (cold) STUN"], set(), 4),
        (["Bolt 6 + 1♥ = 7 − IR ? = ? ×2 susceptible = 10 arcane"], set(), 2),
        (["hit: 2 + Shortsword damage ? = ? − defense 1 = 2; ? damage → Stamina 4/6"], set(), 1),
        (["Nemesis Dex check: d6 1 ? = 5 vs DC 3: success."], set(), 4),
        (["Nova attacks: 12 + 3 = 15 vs Avoidance ?: misses by 4"], set(), 19),
        (["Gorgon rolls ?d? (1, 1) → 2 after armour"], set(), 2),
        (["Wraith PD ?: 2♣ 2♣ 2♣ → keep 2 = 2"], set(), 3),
        (["Balthasar → Gorgon: ?d6 (6, 5, 1) halved ×? (smaller attacker) 12 → 3."], set(), 2),
    ],
)
def test_it_derives_what_a_player_can(lines, known, found):
    assert found in derivable(lines, known)


@pytest.mark.parametrize(
    "lines, known, hidden",
    [
        (["Shade attacks Nova: d20 12 + ? = ? vs Avoidance 15: hit; 1d6 (?) + ? = 70 Stamina"], {70}, {53, 65, 67}),
        (["Claws ? + PX ? = ? − ER 12 = 14 physical STUN"], {14}, {3, 22}),
        (["Nemesis: 381 + Strength 3 = 384 vs Toughness ? (hand): > Minimum"], set(), {400}),
        (
            ["Wraith PD ?: ? → keep 2 = 2", "Ghost rolls Mobility ? = ?d6 (?) + stress ?d6 (?) → 0 successes"],
            set(),
            {26, 5},
        ),
    ],
)
def test_it_derives_no_hidden_number_it_cannot(lines, known, hidden):
    assert not hidden & derivable(lines, known)


def test_a_known_number_is_tried_only_for_the_totals_of_its_own_line():
    lines = [("1d6 (3) + ? = ? Stamina", {70}), ("2d6 (2, 3) + ? = ? Stamina", {66})]
    assert {67, 61} <= derivable(lines)
    assert 65 not in derivable(lines)  # 70 − 5: the first hit's loss is no total of the second
