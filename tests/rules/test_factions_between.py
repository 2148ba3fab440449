"""Factions between fights: the seed is silent, so SYSTEMS.md's defaults apply as campaign settings:
grit back when the fight ends, health back after a rest."""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, EndEncounter, NextTurn
from rules.engine import apply
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from rules.randomness import Chance
from rules.said import english
from rules.system import Resting
from rules.systems.factions import SYSTEM
from rules.systems.factions.actions import ApplyDamage
from tests.helpers import GM

ALICE = Actor(user_id=11)
SHEET = {"health": "8", "grit": "3"}


def new(**options):
    return SYSTEM.new_encounter(1, 7, options)


def join(enc, lasting=None):
    action = AddCombatants(
        by=ALICE, name="Vex", sheet=SHEET, npc=False, controller_id=ALICE.user_id, character_id=4, lasting=lasting
    )
    return apply(enc, action).state


def hurt(enc, amount):
    enc = apply(enc, AddCombatants(by=GM, name="Bandit", sheet={}, side="gm")).state
    enc = apply(enc, NextTurn(by=GM)).state
    return apply(enc, ApplyDamage(by=GM, target="Vex", amount=amount)).state


def resting(lasting, name="Vex"):
    return Resting(name=name, owner_id=11, sheet=SYSTEM.parse_sheet(SHEET), lasting=lasting)


def rest(*characters, settings=None):
    chance = Chance(3)
    out = SYSTEM.rest("rest", tuple(characters), {}, {}, chance, settings)
    chance.finish()
    return out


def texts(out):
    return [e.text for e in out.events]


def ended(enc):
    return apply(enc, EndEncounter(by=GM)).state


def test_health_carries_over_and_grit_comes_back_at_the_end_of_the_fight():
    enc = ended(hurt(join(new()), "5"))  # grit 3 absorbs 3, 2 reaches health: critical damage
    vex = enc.find("Vex")
    assert (vex.grit, vex.health, vex.incapacitated) == (0, 6, True)
    kept = SYSTEM.lasting(enc, vex)
    assert kept == {"health": 6, "grit": 3, "incapacitated": True, "dead": False}
    assert ({"grit": 1} | kept)["grit"] == 3  # a grit the GM set before the fight comes back too
    later = join(new(), lasting=kept).find("Vex")
    assert (later.health, later.grit, later.incapacitated) == (6, 3, True)


def test_grit_lasts_when_the_campaign_says_so():
    enc = ended(hurt(join(new(grit_back_after_fight=False)), "2"))
    kept = SYSTEM.lasting(enc, enc.find("Vex"))
    assert kept["grit"] == 1 and kept["health"] == 8
    assert join(new(), lasting=kept).find("Vex").grit == 1


def test_a_rest_brings_health_and_grit_back():
    out = rest(resting({"health": 3, "grit": 1, "incapacitated": True}), resting({}, "Fresh"))
    assert out.characters[0].lasting == {"health": 8, "grit": 3, "incapacitated": False}
    assert texts(out) == [
        "🛌 Rest:",
        "Vex: grit back (3/3), health back (3 → 8/8), no longer incapacitated.",
        "Fresh is already at full health and grit.",
    ]


def test_a_campaign_can_keep_health_for_the_gm_to_heal():
    out = rest(resting({"health": 3}), settings={"health_back_after_rest": False})
    assert out.characters[0].lasting == {"health": 3}
    assert texts(out)[1] == "Vex: health stays at 3/8 (the campaign heals health by hand)."


def test_the_dead_stay_dead_and_cannot_join():
    out = rest(resting({"health": 0, "dead": True}))
    assert out.characters[0].lasting["health"] == 0 and texts(out)[1] == "Vex is dead: rest changes nothing."
    with pytest.raises(NotAllowed, match="is dead: the GM can set `dead` to no"):
        join(new(), lasting={"dead": True})


def test_settings_and_adjustments():
    assert SYSTEM.default_options()["grit_back_after_fight"] is True
    assert SYSTEM.default_options()["health_back_after_rest"] is True
    sheet = SYSTEM.parse_sheet(SHEET)
    state = SYSTEM.adjust(sheet, {}, "health", "5")
    state = SYSTEM.adjust(sheet, state, "incapacitated", "yes")
    assert state == {"health": 5, "incapacitated": True}
    with pytest.raises(InvalidInput, match="at most 8"):
        SYSTEM.adjust(sheet, state, "health", "9")
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, state)] == ["Health 5/8", "Grit 3/3", "Incapacitated"]


def test_dead_set_to_no_brings_the_character_back_with_1_health():
    sheet = SYSTEM.parse_sheet(SHEET)
    dead = SYSTEM.fit_lasting(sheet, SYSTEM.adjust(sheet, {}, "health", "0"))
    assert dead["dead"] is True
    back = SYSTEM.fit_lasting(sheet, SYSTEM.adjust(sheet, dead, "dead", "no"))
    assert back["dead"] is False and back["health"] == 1
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, back)] == ["Health 1/8", "Grit 3/3"]
    join(new(), lasting=back)  # no longer refused
    # Only bringing the dead back raises health: a living character's health stays as set.
    assert SYSTEM.adjust(sheet, {"health": 4, "dead": False}, "dead", "no")["health"] == 4


# --- the faction a kept NPC fought for ------------------------------------------------------------------
def keep_chief(enc, side=None, lasting=None):
    """Chief, an NPC the GM keeps (a stored character), added or brought back."""
    action = AddCombatants(by=GM, name="Chief", sheet={}, side=side, npc=True, character_id=9, lasting=lasting)
    return apply(enc, action).state


def test_a_kept_npc_comes_back_to_the_faction_it_fought_for():
    first = keep_chief(new(), side="bandits")
    kept = SYSTEM.lasting(first, first.find("Chief"))
    assert kept["faction"] == "bandits"
    again = keep_chief(new(), lasting=kept)
    assert again.find("Chief").side == "bandits"
    assert SYSTEM.lasting(again, again.find("Chief")) == kept
    # Kept without a side, it fought for the GM and comes back so.
    plain = keep_chief(new())
    assert keep_chief(new(), lasting=SYSTEM.lasting(plain, plain.find("Chief"))).find("Chief").side == "gm"


def test_a_side_the_gm_names_wins_over_the_kept_faction_and_is_kept_next():
    again = keep_chief(new(), side="wolves", lasting={"faction": "bandits"})
    assert again.find("Chief").side == "wolves"
    assert SYSTEM.lasting(again, again.find("Chief"))["faction"] == "wolves"
    # Joining decided it, not the fight (whose end writes only what it changed): it is stored as Chief joins.
    assert SYSTEM.joined_lasting(again, again.find("Chief")) == {"faction": "wolves"}


def test_a_hero_keeps_no_faction_and_joins_the_players():
    enc = join(new())
    assert enc.find("Vex").side == "players" and "faction" not in SYSTEM.lasting(enc, enc.find("Vex"))
    assert SYSTEM.joined_lasting(enc, enc.find("Vex")) == {}


def test_the_gm_sets_a_kept_npcs_faction_between_fights_as_a_side_is_named():
    sheet = SYSTEM.parse_sheet({})
    assert SYSTEM.adjust(sheet, {}, "faction", " GM ", npc=True) == {"faction": "gm"}
    state = SYSTEM.adjust(sheet, {"health": 3}, "faction", "wolves", npc=True)
    assert state == {"health": 3, "faction": "wolves"}
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, state, npc=True)] == ["Health 3/8", "Faction wolves"]
    with pytest.raises(InvalidInput, match="faction name"):
        SYSTEM.adjust(sheet, {}, "faction", "<@&123> everyone!", npc=True)


def test_a_players_character_stored_with_a_faction_still_joins_the_players():
    # Players' characters join faction `players` (README); only an NPC the GM kept keeps a faction of its own.
    # /campaign adjust refuses one on a player's character (tests/e2e/test_factions.py); a file imported from
    # before kept NPCs were marked may still carry one, which is neither read nor shown.
    assert join(new(), lasting={"faction": "bandits"}).find("Vex").side == "players"
    sheet = SYSTEM.parse_sheet({})
    assert [english(line) for line in SYSTEM.lasting_lines(sheet, {"health": 3, "faction": "bandits"})] == [
        "Health 3/8"
    ]
