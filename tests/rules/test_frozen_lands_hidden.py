"""Frozen Lands: a hidden NPC's numbers reach the GM only.

Every result text that would show a hidden combatant's stat block or current
resources wraps those numbers in `secret(...)`: the channel reads `conceal(text)`
("?" in their place), the GM reads `reveal(text)`. The same fight with nobody
hidden prints exactly what it printed before, with no marks at all.
"""

from __future__ import annotations

import re

import pytest

from rules.actions import AddCombatants, Choose, EndTurn, NextTurn
from rules.engine import apply
from rules.said import Text, english
from rules.secrets import conceal, has_secrets, reveal
from rules.systems.frozen_lands import SYSTEM
from rules.systems.frozen_lands.model import FrozenCombatant
from rules.systems.frozen_lands.pools import PoolRoll, settle_stress
from tests.rules.derive import changes, derivable
from tests.rules.test_frozen_lands_support import ASTRID, ASTRID_SHEET, BJORN, BJORN_SHEET, GM, fl

SIGRID = ASTRID  # Astrid's player also runs Sigrid, the heavy hitter
# The Shade's stat block: numbers that no die, pool or player sheet below produces.
SHADE = {"initiative": 19, "damage": 37, "defense": 14, "stamina": 187}
# Every number of the Shade's the channel must never read (stat block, Stamina as it
# drops, its damage to the players after their defence rolls and armour).
SHADE_SECRETS = ("19", "37", "29", "14", "187", "178", "170", "151", "146", "36", "35", "34", "27", "25")
SIGRID_SHEET = {
    "body": 5,
    "agility": 3,
    "soul": 2,
    "melee": 20,
    "marksmanship": 20,
    "mobility": 1,
    "class_stamina": 4,
    "weapon": "Two-Handed Sword",
    "ranged": "Long Bow",
    "loaded": True,
    "talents": "attack",
}
# A hidden character-type combatant (added with npc=False): its sheet and pools are secret too.
GHOST = {
    "body": 9,
    "agility": 8,
    "soul": 3,
    "melee": 17,
    "mobility": 15,
    "class_stamina": 30,
    "armour": 16,
    "stress": 30,
    "wp": 44,
    "weapon": "Shortsword",
}
GHOST_SECRETS = ("17", "15", "16", "19", "39", "35", "37", "31", "32", "33", "27", "28", "29", "30")


class Log:
    """Applies actions and keeps every text they show: events, the summary, a pending choice."""

    def __init__(self):
        self.texts: list[Text] = []
        self.known: list[set[int]] = []  # with each text: what its action took from or gave visible combatants
        self.summaries: list[Text] = []

    def do(self, state, action):
        outcome = apply(state, action)
        shown = len(self.texts)
        self.texts += [event.said for event in outcome.events]
        self.summaries.append(outcome.summary)
        pending = outcome.state.pending
        if pending is not None:
            self.texts += [pending.prompt, *pending.labels]
        moved = changes([state, outcome.state], "stamina", "wounds", "stress")
        self.known += [moved] * (len(self.texts) - shown)
        return outcome.state

    def choose(self, state, option, *dice):
        return self.do(state, Choose(by=GM, pending_id=state.pending.id, option=option, dice=tuple(dice)))

    def turn(self, state, name):
        """The turn message's lines for whoever acts now (it must be `name`)."""
        acting = [state.get(c).name for c in state.turns.acting]
        assert acting == [name]
        self.texts += SYSTEM.turn_summary(state, state.find(name).id)
        self.known += [set()] * (len(self.texts) - len(self.known))
        return state

    def end_turn(self, state):
        return self.do(state, EndTurn(by=GM, turn_no=state.turn_no))


def shows(text: str, number: str) -> bool:
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


def shade_fight(hidden: bool) -> Log:
    """Attacks on the Shade (melee, ranged, a miss, another enemy's), its attacks on players
    (Dodge, Block, no reaction left, already broken, another enemy), the GM's damage and healing."""
    log = Log()
    s = SYSTEM.new_encounter(1, 7)
    s = log.do(s, AddCombatants(by=ASTRID, name="Astrid", npc=False, controller_id=10, sheet=ASTRID_SHEET, dice=(6,)))
    s = log.do(s, AddCombatants(by=SIGRID, name="Sigrid", npc=False, controller_id=10, sheet=SIGRID_SHEET, dice=(5,)))
    s = log.do(
        s,
        AddCombatants(
            by=BJORN, name="Bjorn", npc=False, controller_id=11, sheet={**BJORN_SHEET, "class_stamina": 41}, dice=(3,)
        ),
    )
    s = log.do(s, AddCombatants(by=GM, name="Wolf", sheet={"initiative": 4, "damage": 3, "defense": 1, "stamina": 6}))
    s = log.do(s, AddCombatants(by=GM, name="Shade", hidden=hidden, sheet=SHADE))
    s = log.do(s, fl_next(2, 1, 1, 1))  # players first: Astrid, Shade, Sigrid, Wolf, Bjorn
    # Astrid: one success, 1 + Shortsword 1 = 2, all stopped by its defense.
    s = log.turn(s, "Astrid")
    s = log.do(s, fl.Attack(by=ASTRID, target="Shade", dice=(6, 1, 1, 1)))
    s = log.end_turn(s)
    # The Shade's turn: its damage against Astrid's Dodge, Bjorn's Block, then no reactions.
    s = log.turn(s, "Shade")
    s = log.do(s, fl.Attack(by=GM, target="Astrid"))
    s = log.choose(s, "Dodge", 6, 6)  # 37 − 2 = 35; armour 1: 34 → broken
    s = log.do(s, fl.Attack(by=GM, target="Astrid"))  # already broken: armour 1: 36, a Wound
    s = log.do(s, fl.Attack(by=GM, target="Bjorn", damage=29))
    s = log.choose(s, "Block", 6, 6, 1)  # 29 − 2 = 27; armour 2: 25 → Stamina 20/45
    s = log.do(s, fl.Attack(by=GM, target="Bjorn"))  # no reactions left: 37 − 2 = 35 → broken
    s = log.end_turn(s)
    # Sigrid: a melee hit (20 + 3 = 23 − 14 = 9 → 178) and a shot (21 + 1 = 22 − 14 = 8 → 170).
    s = log.turn(s, "Sigrid")
    s = log.do(s, fl.Attack(by=SIGRID, target="Shade", dice=(6,) * 20 + (1, 1)))
    # The Shade steps back (a shot at close range would take −3): the GM parts them.
    s = log.do(s, fl.Engage(by=GM, actor="Sigrid", target="Shade", apart=True))
    s = log.do(s, fl.Attack(by=SIGRID, target="Shade", ranged=True, range="short", dice=(6,) * 21 + (1,)))
    s = log.end_turn(s)
    # The Wolf bites the Shade: 3 − 14: no damage.
    s = log.turn(s, "Wolf")
    s = log.do(s, fl.Attack(by=GM, target="Shade"))
    # The GM's tools: damage through defense (33 − 14 = 19 → 151), direct, healing, wounds.
    s = log.do(s, fl.Damage(by=GM, target="Shade", amount="33"))
    s = log.do(s, fl.Damage(by=GM, target="Shade", amount="5", direct=True))  # → 146
    s = log.do(s, fl.Heal(by=GM, target="Shade", amount=200, wounds=1))  # → 187/187
    s = log.do(s, fl.Damage(by=GM, target="Shade", amount="1d6", dice=(6,)))  # 6 − 14: no damage
    s = log.end_turn(s)  # Bjorn is broken: round 2, Astrid too: the Shade
    s = log.turn(s, "Shade")
    s = log.do(s, fl.Attack(by=GM, target="Wolf"))  # 37 − 1 = 36: the Wolf is defeated
    s = log.do(s, fl.Damage(by=GM, target="Shade", amount="200", direct=True))  # defeated
    return log


def fl_next(*dice):
    return NextTurn(by=GM, dice=dice)


def ghost_fight(hidden: bool) -> Log:
    """A hidden combatant with a character sheet: its pools, stress dice, WP, armour, Stamina, Stress."""
    log = Log()
    s = SYSTEM.new_encounter(1, 7)
    s = log.do(s, AddCombatants(by=ASTRID, name="Astrid", npc=False, controller_id=10, sheet=ASTRID_SHEET, dice=(5,)))
    s = log.do(s, AddCombatants(by=GM, name="Ghost", npc=False, hidden=hidden, sheet=GHOST, dice=(6,)))
    s = log.do(s, AddCombatants(by=GM, name="Wolf", sheet={"initiative": 4, "damage": 3, "defense": 1, "stamina": 6}))
    s = log.do(s, fl_next(2, 1, 1))  # Ghost, Wolf, Astrid
    s = log.turn(s, "Ghost")
    # Melee 17 + Shortsword 2 = 19 dice, then 27 stress dice (one 6: +1 WP).
    s = log.do(s, fl.Attack(by=GM, target="Wolf", dice=(6, 6) + (2,) * 17 + (6,) + (3,) * 26))
    s = log.do(s, fl.Other(by=GM, actor="Ghost", label="Scout", skill="mobility", dice=(6,) + (2,) * 14 + (4,) * 27))
    # Away from the Wolf: Mobility 15 + 27 stress dice, no success: +1 Stress (31), no action left.
    s = log.do(s, fl.Move(by=GM, to="Hall", dice=(2,) * 15 + (4,) * 27))
    s = log.end_turn(s)
    s = log.turn(s, "Wolf")
    s = log.do(s, fl.Attack(by=GM, target="Ghost"))
    s = log.choose(s, "Dodge", *((2,) * 15 + (3,) * 28))  # Mobility 15, 28 stress dice: no success
    s = log.do(s, fl.Damage(by=GM, target="Ghost", amount="20"))  # 20 − armour 16 = 4 → 35/39
    s = log.do(s, fl.Damage(by=GM, target="Ghost", amount="1", stress=True))  # Stress 32
    s = log.do(s, fl.Heal(by=GM, target="Ghost", amount=2))  # 37/39
    s = log.end_turn(s)
    s = log.turn(s, "Astrid")
    s = log.do(s, fl.Attack(by=ASTRID, target="Ghost", dice=(6, 6, 6, 1)))  # 3 + 1 = 4
    s = log.choose(s, "No reaction")  # 4 − armour 16: no damage
    s = log.end_turn(s)
    s = log.turn(s, "Ghost")  # round 2: 29 stress dice
    s = log.end_turn(s)
    # Out of turn in the Wolf's turn: AWARENESS 2 + 29 stress dice, no success: Stress 33.
    s = log.do(s, fl.Interrupt(by=GM, actor="Ghost", dice=(3, 3) + (4,) * 29))
    # Conditions: levels, critical failures on stress dice, breaking, Wounds, Fear on a roll.
    s = log.do(s, fl.AddCondition(by=GM, target="Ghost", condition="dazed", text="2"))
    s = log.do(
        s, fl.Check(by=GM, actor="Ghost", skill="perception", need=1, dice=(1, 1, 1) + (4,) * 27)
    )  # 30 stress dice
    s = log.do(s, fl.AddCondition(by=GM, target="Ghost", condition="fear", text="4"))  # broken, Wound 1
    s = log.do(s, fl.AddCondition(by=GM, target="Ghost", condition="injury", text="cracked ribs"))
    s = log.do(s, fl.Check(by=GM, actor="Ghost", skill="mobility", need=1, dice=(6,) + (2,) * 14 + (4,) * 30))
    s = log.do(s, fl.RemoveCondition(by=GM, target="Ghost", condition="injury"))
    s = log.do(s, fl.Heal(by=GM, target="Ghost", amount=3, rest=True))
    return log


FIGHTS = [(shade_fight, SHADE_SECRETS), (ghost_fight, GHOST_SECRETS)]


@pytest.mark.parametrize("fight, secrets", FIGHTS, ids=["shade", "ghost"])
def test_players_never_read_a_hidden_combatants_numbers(fight, secrets):
    log = fight(True)
    for text in log.texts + log.summaries:
        public = conceal(text)
        leaked = [n for n in secrets if shows(public, n)]
        assert not leaked, f"{leaked} in the public text {public!r}"


@pytest.mark.parametrize("fight, secrets", FIGHTS, ids=["shade", "ghost"])
def test_players_cannot_derive_a_hidden_number(fight, secrets):
    """No sum, difference or margin of the public lines, nor what a visible combatant lost, gives one away.

    Except what cannot be hidden (rules/secrets.py): the damage a hidden attacker lands on a visible one.
    Bjorn's Stamina shows his loss, his armour and his defence successes are his own, so the damage before
    armour (27) follows, and from it the Shade's 29 (27 + his 2 successes; the check does not tie the
    hidden cut to the successes it equals, a player would)."""
    log = fight(True)
    derived = {str(n) for n in derivable([(conceal(t), known) for t, known in zip(log.texts, log.known, strict=True)])}
    landed = {"27"} if fight is shade_fight else set()
    assert landed <= derived  # the check sees it: it can fail
    assert not (derived - landed) & set(secrets), sorted((derived - landed) & set(secrets))


@pytest.mark.parametrize("fight, secrets", FIGHTS, ids=["shade", "ghost"])
def test_the_gm_reads_every_hidden_number(fight, secrets):
    log = fight(True)
    gm = "\n".join(reveal(text) for text in log.texts)
    public = "\n".join(conceal(text) for text in log.texts)
    assert [n for n in secrets if not shows(gm, n)] == []
    assert public.count("?") >= len(secrets)


@pytest.mark.parametrize("fight", [shade_fight, ghost_fight], ids=["shade", "ghost"])
def test_the_gm_reads_exactly_what_an_unhidden_fight_shows_and_that_has_no_marks(fight):
    hidden, plain = fight(True), fight(False)
    assert not any(has_secrets(text) for text in plain.texts + plain.summaries)
    assert any(has_secrets(text) for text in hidden.texts)
    assert [reveal(text) for text in hidden.texts] == [english(text) for text in plain.texts]
    # The summary is cut at 200 characters, marks included: compare the beginnings.
    assert len(hidden.summaries) == len(plain.summaries)
    for secret_one, plain_one in zip(hidden.summaries, plain.summaries):
        assert english(plain_one).startswith(reveal(secret_one))


def public_lines(log: Log, start: str) -> list[str]:
    return [conceal(t) for t in log.texts if conceal(t).startswith(start)]


def test_the_shades_lines_as_the_channel_reads_them():
    log = shade_fight(True)
    assert public_lines(log, "Shade initiative") == ["Shade initiative: fixed score ?"]
    assert "Attacks with /attack target:… for ? damage" in [conceal(t) for t in log.texts]
    assert public_lines(log, "Astrid attacks Shade") == [
        "Astrid attacks Shade with Shortsword: Melee 2 + Shortsword 2 = 4d6 (6, 1, 1, 1) → 1 success; "
        "hit: 1 + Shortsword damage 1 = 2 − defense ? = ?; no damage"
    ]
    assert public_lines(log, "Shade hits Astrid") == [
        "Shade hits Astrid for ?: spend a reaction (2 left) on a defense roll? "
        "Dodge rolls Mobility (2 dice), Block rolls Melee (2 dice)."
    ]
    assert public_lines(log, "Astrid: Dodge") == [
        "Astrid: Dodge: Mobility 2 = 2d6 (6, 6) → 2 successes → damage ? − ? = ?; armour 1: ? − 1 = ?; "
        "? damage → Stamina 0/7: broken (cannot act until healed; every further hit is a Wound)"
    ]
    assert public_lines(log, "Shade attacks Bjorn")[-1].startswith(
        "Shade attacks Bjorn: ? damage; no reactions left; armour 2: ? − 2 = ?; ? damage → Stamina 0/45"
    )
    sigrid = public_lines(log, "Sigrid attacks") + public_lines(log, "Sigrid shoots")
    assert len(sigrid) == 2
    assert sigrid[0].endswith(
        "→ 20 successes; hit: 20 + Two-Handed Sword damage 3 = 23 − defense ? = ?; ? damage → Stamina ?/?"
    )
    assert sigrid[1].endswith(
        "→ 21 successes; hit: 21 + Long Bow damage 1 = 22 − defense ? = ?; ? damage → Stamina ?/?"
    )
    assert public_lines(log, "Wolf attacks Shade") == ["Wolf attacks Shade: 3 damage − defense ? = ?; no damage"]
    assert public_lines(log, "Shade attacks Wolf") == [
        "Shade attacks Wolf: ? damage − defense 1 = ?; ? damage → Stamina 0/6: defeated"
    ]
    assert public_lines(log, "Shade takes") == [
        "Shade takes 33 − defense ? = ?: ? damage → Stamina ?/?.",
        "Shade takes 5: ? damage → Stamina ?/?.",
        "Shade takes 1d6 (6) = 6 − defense ? = ?: no damage.",
        "Shade takes 200: ? damage → Stamina ?/?: defeated.",
    ]
    assert public_lines(log, "Shade: ") == ["Shade: Stamina ?/?; ? Wounds healed (Wounds ?)."]


def test_the_ghosts_lines_as_the_channel_reads_them():
    log = ghost_fight(True)
    assert public_lines(log, "Ghost attacks Wolf") == [
        "Ghost attacks Wolf with Shortsword: Melee ? + Shortsword ? = ?d6 (?) + stress ?d6 (?) → 2 successes; "
        "stress success → +? WP; hit: 2 + Shortsword damage ? = ? − defense 1 = ?; ? damage → Stamina 4/6"
    ]
    assert public_lines(log, "Wolf hits Ghost") == [
        "Wolf hits Ghost for 3: spend a reaction (7 left) on a defense roll? "
        "Dodge rolls Mobility (? dice), Block rolls Melee (? dice) (+ ? stress dice)."
    ]
    assert public_lines(log, "Ghost: Dodge") == [
        "Ghost: Dodge: Mobility ? = ?d6 (?) + stress ?d6 (?) → 0 successes → damage 3 − 0 = 3; "
        "armour ?: 3 − ? = ?; no damage"
    ]
    assert public_lines(log, "Ghost moves") == [
        "Ghost moves to Hall; disengage from 1 close enemy: Mobility ? = ?d6 (?) + stress ?d6 (?) → 0 successes, "
        "needs 1 → failure; +1 Stress (?); no action left for the extra move: stays put."
    ]
    assert public_lines(log, "Ghost tries") == [
        "Ghost tries to act out of turn: AWARENESS ? = ?d6 (?) + stress ?d6 (?) → 0 successes; failure: +1 Stress (?)."
    ]
    assert public_lines(log, "Ghost takes") == [
        "Ghost takes 20 − armour ? = ?: ? damage → Stamina ?/?.",
        "Ghost takes 1 Stress (Stress ?).",
    ]
    assert public_lines(log, "Reactions left").count("Reactions left: 7 of ?") == 2  # the Ghost's two turns
    assert "? stress dice, out-of-turn try available" in [conceal(t) for t in log.texts]
    assert public_lines(log, "Ghost: Dazed") == ["Ghost: Dazed ?."]
    assert public_lines(log, "Ghost rolls") == [
        "Ghost rolls Perception ? = ?d6 (?) + stress ?d6 (?) → 0 successes, needs 1 → failure; "
        "? critical failures > Dazed ? → Dazed ? (AWARENESS: −1 reaction a round).",
        "Ghost rolls Mobility ? = ?d6 (?) + stress ?d6 (?) → ? success − Fear ? = 0, needs 1 → failure.",
    ]
    assert public_lines(log, "Ghost: Fear")[0].startswith(
        "Ghost: Fear above level 3; Ghost is broken (cannot act until healed; every further hit is a Wound) "
        "and suffers a critical injury (Wounds ?)"
    )
    assert public_lines(log, "Ghost recovers") == ["Ghost recovers from cracked ribs (Wounds ?)."]
    assert public_lines(log, "Ghost: Stamina") == ["Ghost: Stamina ?/?.", "Ghost: Stamina ?/?; rested: Stress 0."]


def test_an_enemy_not_hidden_shows_its_numbers_to_everyone():
    log = shade_fight(False)
    plain = "\n".join(map(english, log.texts))
    assert "Shade initiative: fixed score 19" in plain
    assert "Shade takes 33 − defense 14 = 19: 19 damage → Stamina 151/187." in plain
    assert "Shade attacks Wolf: 37 damage − defense 1 = 36; 36 damage → Stamina 0/6: defeated" in plain


def shot_at_giant(hidden: bool, **options) -> Text:
    """Sigrid's shot at a large enemy (its sheet's size 2): the shot's line."""
    log = Log()
    s = SYSTEM.new_encounter(1, 7)
    s = log.do(s, AddCombatants(by=SIGRID, name="Sigrid", npc=False, controller_id=10, sheet=SIGRID_SHEET, dice=(6,)))
    giant = {"initiative": 1, "damage": 5, "defense": 2, "stamina": 30, "size": 2}
    s = log.do(s, AddCombatants(by=GM, name="Giant", hidden=hidden, sheet=giant))
    s = log.do(s, fl_next(2, 1))
    s = log.turn(s, "Sigrid")
    s = log.do(s, fl.Attack(by=SIGRID, target="Giant", ranged=True, range="short", **options))
    return log.texts[-1]


def test_a_hidden_enemys_size_and_the_pool_it_makes_are_the_gms():
    public, gm = conceal(shot_at_giant(True)), reveal(shot_at_giant(True))
    assert "Marksmanship 20 + Long Bow 2 + ? = ?d6 (?) → " in public, public
    assert "target" not in public and "24" not in public
    assert "Marksmanship 20 + Long Bow 2 + large target 2 = 24d6 (" in gm, gm
    seen = conceal(shot_at_giant(False))
    assert "Marksmanship 20 + Long Bow 2 + large target 2 = 24d6 (" in seen, seen
    # A size the player names is theirs to read.
    named = conceal(shot_at_giant(True, size=-1))
    assert "Marksmanship 20 + Long Bow 2 − small target 1 = 21d6 (" in named, named


@pytest.mark.parametrize("dazed", [1, 0])
def test_the_form_of_a_hidden_count_of_critical_failures_does_not_tell_it(dazed):
    """The count of a hidden combatant's critical failures reads "?": "? critical failure" would tell it was one."""
    ghost = FrozenCombatant(id="g", name="Ghost", hidden=True, dazed=dazed)
    one_critical = PoolRoll(dice=(2,), stress=(1, 4), fear=0, crit_faces=(1,))
    _, notes, _ = settle_stress(ghost, one_critical, "awareness")
    assert [conceal(note).split(" ≤ ")[0].split(" > ")[0] for note in notes] == ["? critical failures"]
    assert [reveal(note).split(" ")[0] for note in notes] == ["1"]  # the GM reads the count, in the plural too
