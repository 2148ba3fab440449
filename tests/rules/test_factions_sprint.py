"""`/act action:sprint`: a whole turn's move at double speed, in one action."""

from __future__ import annotations

import pytest

from rules.engine import apply
from rules.errors import InvalidInput
from rules.systems.factions import SYSTEM
from tests.rules.test_factions_helpers import GM, give_turn, seed_cast, start


def sprinting_turn():
    enc = start(seed_cast()).state
    return give_turn(enc, "Bandit Leader")


def test_sprint_moves_four_zones_by_default_and_is_offered_by_autocomplete():
    assert "sprint" in [value for value, _ in SYSTEM.act_choices()]
    out = apply(sprinting_turn(), SYSTEM.command("act", GM, {"action": "sprint"}))
    assert [e.text for e in out.events][0] == "Bandit Leader moves 4 zone(s) (sprinting)."
    assert out.state.find("Bandit Leader").moved == 4


def test_a_shorter_sprint_leaves_room_and_a_longer_one_is_refused():
    out = apply(sprinting_turn(), SYSTEM.command("act", GM, {"action": "Sprint", "options": "zones=2"}))
    assert out.state.find("Bandit Leader").moved == 2
    with pytest.raises(InvalidInput, match="can move 2 more zone"):
        apply(out.state, SYSTEM.command("act", GM, {"action": "sprint", "options": "zones=3"}))
    with pytest.raises(InvalidInput, match="between 1 and 8"):
        SYSTEM.command("act", GM, {"action": "sprint", "options": "zones=0"})
