"""Rotted Capes: a hidden NPC's numbers never reach the players, and the GM still reads them.

Shade, the hidden NPC, has numbers no die and no hero's sheet here produces (737 Stamina,
83 Wounds, Avoidance 143…). Every path that prints them is driven twice: with Shade hidden,
`conceal` (what the channel reads) must show none of them and `reveal` (what the GM reads)
must show them all; with Shade visible the same texts carry no secret marks at all.
"""

from __future__ import annotations

import re

import pytest

from rules.actions import AddCombatants, Choose, NextTurn
from rules.engine import apply
from rules.said import english
from rules.secrets import conceal, has_secrets, reveal
from rules.systems.rotted_capes import SYSTEM
from rules.text import Text
from tests.rules.derive import changes, derivable
from tests.rules.test_rotted_capes import ALICE, GM

# Shade's sheet: every number distinctive, none of them a die face or a hero's number below
SHADE = {
    "stamina": 737,
    "wounds": 83,
    "avoidance": 143,
    "fortitude": 129,
    "willpower": 147,
    "stamina_defense": 171,
    "dr": "energy:31",
    "attack": 53,
    "damage": "1d6+67",
    "dex": 31,
    "init": 13,
    "con": 23,
    "saves": "wis:37",
}
# Nova hits hard and never takes massive damage, so her own (public) numbers stay far from Shade's
NOVA = {"dex": 60, "avoidance": 15, "fortitude": 500, "stamina": 400, "wounds": 3, "attack": 140}
SHEET_NUMBERS = {737, 83, 143, 129, 147, 171, 31, 53, 67, 23, 37, 44}  # 44: dex + init


class Fight:
    """Nova against Shade; records every text the fight shows and every state Shade was in."""

    def __init__(
        self, hidden: bool, shade: dict | None = None, name: str = "Shade", side: str | None = None, **options
    ):
        self.hidden = hidden
        self.name = name
        self.texts: list[Text] = []
        self.known: list[set[int]] = []  # with each text: what its action took from or gave visible combatants
        self.states = []
        self.public: set[int] = set()  # numbers the channel may read although Shade's state holds them too
        self.extra: set[int] = set()  # Shade's numbers that are in no field (damage after its DR, a DC from it)
        enc = SYSTEM.new_encounter(1, 99, {"offer_plot_disadvantage": False} | options)
        self.enc = enc
        self.add(
            AddCombatants(
                by=ALICE,
                name="Nova",
                sheet={k: str(v) for k, v in NOVA.items()},
                npc=False,
                controller_id=ALICE.user_id,
                dice=(15,),
            )
        )
        sheet = {k: str(v) for k, v in (shade or SHADE).items()}
        self.add(AddCombatants(by=GM, name=name, sheet=sheet, hidden=hidden, side=side, dice=(5,)))

    # driving the fight ---------------------------------------------------------------
    def add(self, action):
        return self.record(apply(self.enc, action))

    def cmd(self, name, by=GM, **options):
        return self.record(apply(self.enc, SYSTEM.command(name, by, options)))

    def next(self, by=GM, dice=()):
        return self.record(apply(self.enc, NextTurn(by=by, dice=tuple(dice))))

    def choose(self, option, by=GM, dice=()):
        return self.record(
            apply(self.enc, Choose(by=by, pending_id=self.enc.pending.id, option=option, dice=tuple(dice)))
        )

    def record(self, outcome):
        before, shown = self.enc, len(self.texts)
        self.enc = outcome.state
        self.texts += [e.said for e in outcome.events] + [outcome.summary]
        if outcome.state.pending is not None:
            self.texts += [outcome.state.pending.prompt, *outcome.state.pending.labels]
        self.look()
        moved = changes([before, self.enc], "stamina", "temp_stamina", "wounds")
        self.known += [moved] * (len(self.texts) - shown)
        return outcome

    def look(self):
        """What the tracker and the turn message show of whoever acts, and the read-only reports."""
        enc = self.enc
        self.states.append(enc)
        for cid in enc.turns.acting:
            self.texts += SYSTEM.turn_summary(enc, cid)
        self.texts += [SYSTEM.report(name, enc, {}) for name in ("plotpoint_show", "condition_list")]

    @property
    def shade(self):
        return self.enc.find(self.name)

    # what must stay secret -----------------------------------------------------------
    def forbidden(self) -> set[int]:
        numbers = set(SHEET_NUMBERS) | self.extra
        for enc in self.states:
            c = enc.maybe(self.name)
            if c is None:
                continue
            numbers |= {
                c.stamina,
                c.max_stamina,
                c.temp_stamina,
                c.wounds,
                c.max_wounds,
                c.ongoing_total,
                c.plot_points,
            }
            numbers |= {e.key[0] for e in enc.turns.entries if enc.get(e.cid).name.startswith(self.name)}
        # small numbers are die faces and counts anyone may read
        return {int(n) for n in numbers if n >= 20} - self.public


def numbers_in(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", text)}


# --- the fights -----------------------------------------------------------------------------
def attacked(hidden):
    """Nova attacks Shade against each defense: massive, DR, a miss, a critical, a Plot Point reroll."""
    f = Fight(hidden)
    f.next()  # round 1: Nova (initiative 75) before Shade (d20 5 + 44 = 49)
    f.cmd("attack", ALICE, target="Shade", damage="1d6+300", dice="10 4")  # 150 vs Avoidance 143; 304 massive
    f.cmd(  # free: the GM rules Nova's powers cost no Action, and enters them
        "attack",
        GM,
        actor="Nova",
        target="Shade",
        damage="1d6+300",
        damage_type="fire",
        defense="fortitude",
        dice="12 5",
        options="free",
    )  # 305 − DR 31 = 274 > Fortitude 129
    f.cmd(
        "attack", GM, actor="Nova", target="Shade", defense="willpower", dice="2", options="free"
    )  # 142 vs Willpower 147
    f.cmd(
        "attack", GM, actor="Nova", target="Shade", damage="1d6", damage_type="cold", dice="20 1", options="free"
    )  # critical
    f.cmd("plotpoint_spend", ALICE, use="reroll", dice="15 2")
    f.cmd("attack", GM, actor="Nova", target="Shade", damage="1d6+300", options="free ap", dice="10 6")  # ignores DR
    f.public |= {304, 305, 306}  # the damage Nova rolls: hers to read
    f.extra |= {274, 49, 49 - 44}
    expected = {
        "Avoidance 143",
        "Fortitude 129",
        "Willpower 147",
        "DR 31 (energy) = 274",
        "274 > Fortitude 129",
        "/737 Stamina",
        "82/83 Wounds",
        "Shade initiative: d20 5 + 44 = 49",
    }
    return f, expected


def resources(hidden):
    """Temporary Stamina, the GM's damage and healing, continuous damage, status at the end of the scene."""
    f = Fight(hidden)
    f.next()
    f.cmd("heal", target="Shade", amount="500", options="temp")
    f.cmd("attack", ALICE, target="Shade", damage="1d6+300", dice="10 4")  # 304 absorbed: 196 temp left
    f.cmd("heal", target="Shade", amount="50", options="temp")  # replacing 196
    f.cmd("damage", target="Shade", amount="100", damage_type="fire")  # 100 − DR 31 = 69, 50 absorbed
    f.cmd("damage", target="Shade", amount="90", options="ongoing")  # continuous total 90/171
    f.cmd("damage", target="Shade", amount="95", options="ongoing")  # 185 > 171: massive
    f.cmd("damage", target="Shade", amount="3", options="crit wounds=2")
    f.cmd("heal", target="Shade", amount="1000")  # back to 737: the gain tells what was missing
    f.cmd("heal", target="Shade", amount="50", options="wounds")
    f.cmd("damage", target="Shade", amount="400")
    f.cmd("act", action="end scene")
    f.public |= {500, 50, 90, 95, 304, 1000, 400}
    f.extra |= {69, 185, 196}
    expected = {
        "+500 temp",
        "replacing 196",
        "DR 31 (energy) = 69",
        "continuous total 90/171",
        "continuous total 185 > Stamina Defense 171",
        "recovers 207 Stamina",
        "Shade 737/737 Stamina",
    }
    return f, expected


def saves(hidden):
    """Saves by the GM's command, at the end of Shade's turn, Ongoing Damage, and Shade's own actions."""
    f = Fight(hidden)
    f.next()
    f.cmd("save", actor="Shade", kind="con", dc=15, dice="8")  # 8 + 23 = 31
    f.cmd("save", actor="Shade", kind="wis", dc=50, dice="9")  # 9 + 37 = 46
    f.cmd("condition_add", target="Shade", condition="Ongoing Damage", options="damage=100 type=fire dc=12")
    f.cmd("condition_add", target="Shade", condition="Frightened", duration="save", options="dc=40")
    f.next(ALICE)  # Shade's turn: the Ongoing Damage ticks (100 − DR 31 = 69)
    f.cmd("act", action="hide", options="dc=30", dice="4 6")  # frightened: disadvantage; 4 + 31 = 35
    f.cmd("act", action="move", options="areas=2")
    f.cmd("act", action="prone")
    f.cmd("act", action="stand")
    f.next(dice=(7, 6, 2, 4))  # saves against Ongoing Damage and Frightened, both at disadvantage
    f.public |= {100}
    f.extra |= {8 + 23, 9 + 37, 4 + 31, 6 + 23, 2 + 23, 69}
    expected = {
        "d20 8 + 23 = 31 vs DC 15",
        "d20 9 + 37 = 46 vs DC 50",
        "= 69 Stamina (continuous total 69/171)",
        "+ 31 = 35 vs 30",
        "6 + 23 = 29 vs DC 12",
        "2 + 23 = 25 vs DC 40",
    }
    return f, expected


def shade_attacks(hidden):
    """Shade attacks Nova: its modifier, damage bonus and totals; with a wound penalty; a Plot Point prompt."""
    f = Fight(hidden, offer_plot_disadvantage=True)
    f.next()
    f.next(ALICE)  # Shade's turn
    f.cmd("attack", target="Nova", dice="12 3")  # 12 + 53 = 65 vs Avoidance 15; 3 + 67 = 70
    f.choose("No", by=ALICE)
    f.cmd("damage", target="Shade", amount="0", options="wounds=2")
    f.cmd("attack", target="Nova", modifier=57, damage="2d6+61", dice="11 4 2 3", options="reaction")
    f.choose("Spend a Plot Point: disadvantage", by=ALICE)  # 4 + 57 − 2 = 59 vs 15; 2 + 3 + 61 = 66
    f.public |= {70, 66}  # the damage Nova takes: her tracker shows it
    f.extra |= {65, 57, 61, 59}
    expected = {"d20 12 + 53 = 65", "1d6 (3) + 67 = 70", "+ 57 − 2 wounds/exhaustion = 59", "2d6 (2, 3) + 61 = 66"}
    return f, expected


def interrupted(hidden):
    """Shade's interruptible demanding action: the DC comes from damage after its DR."""
    f = Fight(hidden)
    f.next()
    f.next(ALICE)
    f.cmd("act", action="demanding", options='what="Dark Rite" interruptible')
    f.next()  # Nova's turn
    f.cmd("attack", ALICE, target="Shade", damage="1d6+100", damage_type="fire", dice="10 4 4")  # 104 − 31 = 73: DC 36
    f.choose("Roll the Constitution save", dice=(9,))  # 9 + 23 = 32 vs 36
    f.public |= {104}
    f.extra |= {73, 36, 32}
    expected = {"DR 31 (energy) = 73", "Constitution save DC 36", "d20 9 + 23 = 32 vs DC 36: failure"}
    return f, expected


def unleashed(hidden):
    """Unleashed: the extra turn's initiative, doubled Stamina, the second wind, the villain's turn summary."""
    f = Fight(hidden)
    f.next()
    f.cmd("act", action="unleash", target="Shade")  # 737 → 1474, extra turn at 49 − 10 = 39
    f.cmd("damage", target="Shade", amount="0", options="wounds=3")
    f.next(ALICE)  # Shade
    f.cmd("act", action="second wind", roll=3)
    f.next()  # the Unleashed extra turn
    f.cmd("act", action="dash")
    f.next()
    f.extra |= {39, 1474}
    expected = {
        "extra turn at initiative 39",
        "fixed at 39",
        "3 Wounds back (1474/1474 Stamina, 83/83 Wounds)",
        "dashes: 8 areas",
    }
    return f, expected


def zombie(hidden):
    """A hidden zombie: only massive damage and criticals hurt it; its Wounds and Fortitude stay secret."""
    f = Fight(
        hidden,
        shade={
            "zombie": "true",
            "zombie_level": "alpha",
            "wounds": 83,
            "avoidance": 143,
            "fortitude": 129,
            "dex": 31,
            "init": 13,
        },
    )
    f.next()
    f.cmd("attack", ALICE, target="Shade", damage="1d6+300", dice="10 4")
    f.cmd("attack", GM, actor="Nova", target="Shade", damage="1d6", dice="10 4", options="free")
    f.cmd("attack", GM, actor="Nova", target="Shade", damage="1d6", damage_type="psychic", dice="10 4", options="free")
    f.public |= {304}
    expected = {"304 > Fortitude 129", "82/83 Wounds", "Avoidance 143"}
    return f, expected


def secret_ally(hidden):
    """A hidden NPC on the heroes' side: its Stamina (it holds no Plot Points: they are the players' heroes')."""
    f = Fight(hidden, shade={**SHADE, "plot_points": 77}, side="heroes", offer_plot_disadvantage=True)
    f.add(AddCombatants(by=GM, name="Brute", sheet={"attack": "2", "damage": "1d4"}, dice=(1,)))
    f.next()
    f.next(ALICE)
    f.cmd("condition_add", target="Shade", condition="Stunned", duration="1 round")
    f.next()  # Brute
    f.cmd("attack", target="Shade", dice="20 3")  # no question: Shade has no Plot Point to spend
    assert f.enc.pending is None and f.shade.plot_points == 0
    expected = {"Avoidance 143", "734/737 Stamina"}
    return f, expected


def shade_hits_through_armour(hidden):
    """Shade hits Bulwark, whose DR and low Fortitude make every step after the total public:
    Bulwark's tracker tells the table what it lost, so the total shows and the die hides with the bonus."""
    f = Fight(hidden)
    f.add(
        AddCombatants(
            by=ALICE,
            name="Bulwark",
            sheet={"dr": "kinetic:7", "fortitude": "30", "stamina": "900", "avoidance": "12", "dex": "1"},
            npc=False,
            controller_id=ALICE.user_id,
            dice=(1,),
        )
    )
    f.next()
    f.next(ALICE)  # Shade's turn
    f.cmd("attack", target="Bulwark", dice="12 3")  # 12 + 53 = 65 vs 12; 3 + 67 = 70 − DR 7 = 63 > Fortitude 30
    f.cmd("attack", target="Bulwark", damage="2d6+61", dice="11 6 2", options="free")  # 11 + 53 = 64; 6 + 2 + 61 = 69
    f.public |= {70, 63, 69, 62}  # what Bulwark lost, and the totals it follows from
    f.extra |= {65, 64, 61}
    expected = {
        "1d6 (3) + 67 = 70 − DR 7 (kinetic) = 63 Stamina; 63 > Fortitude 30 → massive",
        "2d6 (6, 2) + 61 = 69 − DR 7 (kinetic) = 62",
    }
    return f, expected


FIGHTS = [
    attacked,
    resources,
    saves,
    shade_attacks,
    interrupted,
    unleashed,
    zombie,
    secret_ally,
    shade_hits_through_armour,
]


# --- the checks -------------------------------------------------------------------------------
@pytest.mark.parametrize("fight", FIGHTS, ids=lambda f: f.__name__)
def test_players_never_read_a_hidden_npcs_numbers(fight):
    f, _ = fight(True)
    forbidden = f.forbidden()
    assert {737, 143} <= forbidden or fight is zombie
    for text in f.texts:
        shown = conceal(text)
        assert not numbers_in(shown) & forbidden, f"{shown!r} shows {sorted(numbers_in(shown) & forbidden)}"


@pytest.mark.parametrize("fight", FIGHTS, ids=lambda f: f.__name__)
def test_players_cannot_derive_a_hidden_number(fight):
    """No sum, difference or margin of the public lines, nor what a visible combatant lost, gives one away."""
    f, _ = fight(True)
    derived = derivable([(conceal(t), known) for t, known in zip(f.texts, f.known, strict=True)])
    assert not derived & f.forbidden(), sorted(derived & f.forbidden())


@pytest.mark.parametrize("fight", FIGHTS, ids=lambda f: f.__name__)
def test_the_gm_still_reads_a_hidden_npcs_numbers(fight):
    f, expected = fight(True)
    gm = "\n".join(reveal(t) for t in f.texts)
    for words in expected:
        assert words in gm
    assert any(has_secrets(t) for t in f.texts)


@pytest.mark.parametrize("fight", FIGHTS, ids=lambda f: f.__name__)
def test_a_visible_npcs_texts_carry_no_marks(fight):
    f, expected = fight(False)
    assert not [t for t in f.texts if has_secrets(t)]
    everyone = "\n".join(map(english, f.texts))
    for words in expected:
        assert words in everyone  # what the hidden fight hides, the visible one shows as before


def test_a_hidden_attacker_shows_its_d20_and_hides_its_bonus_and_the_damage_dice_of_a_known_total():
    """Nova's tracker tells everyone she lost 70: with the die face shown, 70 − 3 would be the bonus."""
    f = Fight(True)
    f.next()
    f.next(ALICE)
    out = f.cmd("attack", target="Nova", dice="12 3")
    assert conceal(out.events[0].said) == (
        "Shade attacks Nova: d20 12 + ? = ? vs Avoidance 15: hit; "
        "1d6 (?) + ? = 70 Stamina (Nova: 330/400 Stamina, 3/3 Wounds)"
    )
    assert reveal(out.events[0].said) == (
        "Shade attacks Nova: d20 12 + 53 = 65 vs Avoidance 15: hit; 1d6 (3) + 67 = 70 Stamina "
        "(Nova: 330/400 Stamina, 3/3 Wounds)"
    )


def test_a_hidden_target_shows_the_dr_step_even_without_dr():
    """Otherwise the missing step would tell the players it has no DR against that damage."""
    f = Fight(True)
    f.next()
    out = f.cmd("attack", ALICE, target="Shade", damage="1d6+10", dice="20 4")
    assert conceal(out.events[0].said) == (
        "Nova attacks Shade: d20 20 + 140 = 160 vs Avoidance ?: natural 20, critical hit; "
        "1d6 (4) + 10 = 14 − DR ? = ? Stamina; critical: 1 Wound (Shade: ?/? Stamina, ?/? Wounds)"
    )
    assert "− DR 0 = 14 Stamina" in reveal(out.events[0].said)
    visible = Fight(False)
    visible.next()
    out = visible.cmd("attack", ALICE, target="Shade", damage="1d6+10", dice="20 4")
    assert "1d6 (4) + 10 = 14 Stamina; critical" in out.events[0].text


def test_the_turn_summary_and_tracker_line_of_a_hidden_npc():
    f = Fight(True)
    f.next()
    f.next(ALICE)
    lines = SYSTEM.turn_summary(f.enc, f.shade.id)
    assert conceal(lines[0]).startswith("Pace ? areas left")
    assert english(SYSTEM.status_line(f.enc, f.shade, reveal=False)) == "unhurt"
    gm_line = SYSTEM.status_line(f.enc, f.shade, reveal=True)
    assert reveal(gm_line) == "737/737 Stamina, 83/83 Wounds" and conceal(gm_line) == "?/? Stamina, ?/? Wounds"


def test_a_hidden_horde_hides_its_members_numbers_but_not_its_size():
    enc = SYSTEM.new_encounter(1, 99, {"offer_plot_disadvantage": False})
    enc = apply(
        enc,
        AddCombatants(
            by=ALICE,
            name="Nova",
            sheet={k: str(v) for k, v in NOVA.items()},
            npc=False,
            controller_id=ALICE.user_id,
            dice=(15,),
        ),
    ).state
    sheet = {
        "zombie": "true",
        "wounds": "83",
        "fortitude": "129",
        "avoidance": "143",
        "attack": "53",
        "damage": "1d6+67",
    }
    enc = apply(
        enc, AddCombatants(by=GM, name="Rotter", sheet=sheet, count=6, hidden=True, dice=(9, 7, 12, 3, 8, 11))
    ).state
    enc = apply(enc, NextTurn(by=GM)).state
    formed = apply(enc, SYSTEM.command("act", GM, {"action": "horde", "target": "Rotter"}))
    hit = apply(
        formed.state, SYSTEM.command("attack", ALICE, {"target": "Rotter Horde", "damage": "1d6+300", "dice": "10 4"})
    )
    enc = apply(hit.state, NextTurn(by=ALICE)).state
    struck = apply(enc, SYSTEM.command("attack", GM, {"target": "Nova", "dice": "12 3"}))
    shown = [conceal(e.said) for out in (formed, hit, struck) for e in out.events]
    assert "6 creatures form Rotter Horde at Rotter 4's initiative: +10 to hit and damage." in shown
    assert any("d20 12 + ? + 8 horde = ? vs Avoidance 15: hit; 1d6 (?) + ? + 8 horde = 78 Stamina" in t for t in shown)
    assert any(
        "vs Avoidance ?: hit; 1d6 (4) + 300 = 304 − DR ? = ?; ? > Fortitude ? → massive: Rotter 1 is destroyed; 5 "
        "left in the horde, now +8 to hit and damage" in t
        for t in shown
    )
    gm = "\n".join(reveal(e.said) for out in (formed, hit, struck) for e in out.events)
    assert "d20 12 + 53 + 8 horde = 73" in gm and "1d6 (3) + 67 + 8 horde = 78" in gm and "Avoidance 143" in gm
    for text in shown:
        assert not numbers_in(text) & {53, 67, 73, 83, 129, 143}
    assert not derivable(shown, {78}) & {53, 67, 73, 83, 129, 143}
