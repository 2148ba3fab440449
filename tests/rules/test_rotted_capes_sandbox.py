"""A whole Rotted Capes fight at the rules level: heroes against a Horde and an
Unleashed super-zombie, with Plot Points, a demanding action, expiring
conditions and a death averted; every turn ping lands on the right player.
(tests/golden/rotted-capes.script plays a longer fight through Discord.)"""

from __future__ import annotations

from rules.actions import AddCombatants, Choose, EndEncounter, NextTurn
from rules.engine import apply
from rules.model import Actor
from rules.said import english
from rules.systems.rotted_capes import SYSTEM
from tests.helpers import GM

ALICE = Actor(user_id=11)
BOB = Actor(user_id=12)
OWNER = {"Nova": 11, "Bolt": 12}


class Table:
    def __init__(self) -> None:
        self.enc = SYSTEM.new_encounter(1, 2024)
        self.log: list[str] = []
        self.pings: list[tuple[str, tuple[int, ...]]] = []

    def do(self, action):
        out = apply(self.enc, action)
        self.enc = out.state
        for event in out.events:
            self.log.append(event.text)
            if event.kind == "turn":
                self.pings.append((event.text, event.ping))
        return [e.text for e in out.events]

    def cmd(self, name, by=GM, **options):
        return self.do(SYSTEM.command(name, by, options))

    def choose(self, by, option, dice=()):
        return self.do(Choose(by=by, pending_id=self.enc.pending.id, option=option, dice=dice))

    def get(self, name):
        return self.enc.find(name)


def hero(name, roll, **stats):
    user = OWNER[name]
    return AddCombatants(
        by=Actor(user_id=user),
        name=name,
        sheet={k: str(v) for k, v in stats.items()},
        npc=False,
        controller_id=user,
        dice=(roll,),
    )


def test_golden_encounter():
    t = Table()
    t.do(hero("Nova", 14, dex=2, con=1, attack=6, damage="1d8+4", avoidance=14, fortitude=8, stamina=20, wounds=3))
    t.do(hero("Bolt", 16, attack=5, damage="1d8+2", avoidance=13, fortitude=6, stamina=12, wounds=2))
    t.do(
        AddCombatants(
            by=GM,
            name="Zombie",
            count=6,
            dice=(10, 9, 8, 7, 6, 11),
            sheet={
                "zombie": "true",
                "wounds": "1",
                "fortitude": "5",
                "avoidance": "10",
                "attack": "2",
                "damage": "1d6",
            },
        )
    )
    t.do(
        AddCombatants(
            by=GM,
            name="Dr Rot",
            dice=(12,),
            sheet={
                "zombie": "true",
                "zombie_level": "alpha",
                "wounds": "3",
                "fortitude": "10",
                "avoidance": "14",
                "attack": "7",
                "damage": "2d8",
            },
        )
    )
    assert "Tied heroes (Nova, Bolt) may agree on their order with /act action:swap." in t.log
    t.cmd("act", BOB, actor="Bolt", action="swap", target="Nova")
    t.do(NextTurn(by=GM))
    assert (
        t.cmd("act", action="horde", target="Zombie")[0]
        == "6 creatures form Zombie Horde at Zombie 5's initiative: +10 to hit and damage."
    )
    t.cmd("act", action="unleash", target="Dr Rot")
    order = [[t.enc.get(c).name for c in s] for s in t.enc.turns.slots]
    assert order == [["Bolt"], ["Nova"], ["Dr Rot"], ["Zombie Horde"], ["Dr Rot (Unleashed)"]]

    # Round 1 — Bolt hits the horde and blinds Dr Rot for a round
    assert t.cmd("attack", BOB, target="Zombie Horde", dice="15 6")[0] == (
        "Bolt attacks Zombie Horde: d20 15 + 5 = 20 vs Avoidance 10: hit; 1d8 (6) + 2 = 8; 8 > Fortitude 5 → massive: "
        "Zombie 1 is destroyed; 5 left in the horde, now +8 to hit and damage"
    )
    t.cmd("condition_add", BOB, target="Dr Rot", condition="Blinded", duration="1 round", tags="Flash")
    t.do(NextTurn(by=BOB))
    # Nova begins an interruptible demanding action
    t.cmd("act", ALICE, action="demanding", options='what="Solar Flare" interruptible')
    t.do(NextTurn(by=ALICE))
    # Dr Rot attacks the busy Nova while blinded: advantage and disadvantage already cancel,
    # so a Plot Point would change nothing and none is offered
    lines = t.cmd("attack", GM, target="Nova", dice="15 2 3")
    assert lines[0] == (
        "Dr Rot attacks Nova: d20 15 + 7 = 22 vs Avoidance 14: hit [adv: target busy with a demanding action; "
        "dis: attacker blinded; they cancel: one d20]; 2d8 (2, 3) = 5 Stamina (Nova: 15/20 Stamina, 3/3 Wounds)"
    )
    assert t.enc.pending.kind == "interrupt" and t.enc.pending.context["dc"] == 10
    assert (
        t.choose(ALICE, "Roll the Constitution save", dice=(12,))[-1]
        == "Nova CON save to keep Solar Flare: d20 12 + 1 = 13 vs DC 10: success — still going."
    )
    assert t.do(NextTurn(by=GM))[0] == "Dr Rot is no longer Blinded (Flash)."
    # the horde mauls Bolt (who keeps his Plot Point)
    t.cmd("attack", GM, target="Bolt", dice="12 4")
    t.choose(BOB, "No")
    assert "1d6 (4) + 8 horde = 12 Stamina; 12 > Fortitude 6 → massive: 1 Wound; Bolt is Unconscious" in t.log[-1]
    t.do(NextTurn(by=GM))
    # Dr Rot's Unleashed turn: an Unconscious hero in the same area takes a critical
    t.cmd("attack", GM, actor="Dr Rot", target="Bolt", dice="10 3 3")
    lines = t.choose(BOB, "No")
    assert "(Unconscious in the same area: critical)" in lines[1] and "critical: 1 Wound" in lines[1]
    death = t.enc.pending
    assert death.kind == "death" and tuple(map(english, death.labels)) == (
        "Spend own Plot Point",
        "Nova spends a Plot Point",
        "Accept a physical flaw",
        "Blaze of glory",
    )
    assert (
        t.choose(BOB, "Spend own Plot Point")[-1]
        == "🎭 A Plot Point saves Bolt from death: 1 Wound, Unconscious (pool 1)."
    )
    t.do(NextTurn(by=GM))

    # Round 2 — the demanding action resolves; Bolt is down and passes
    assert any(line.startswith("✨ Nova's demanding action resolves now: Solar Flare.") for line in t.log)
    assert t.enc.round == 2 and [t.enc.get(c).name for c in t.enc.turns.acting] == ["Nova"]
    line = t.cmd("attack", ALICE, target="Dr Rot", dice="20 8")[0]
    assert line.endswith(
        "1d8 (8) + 4 = 12; 12 > Fortitude 10 → massive, critical + massive: 2 Wounds (Dr Rot: 3/5 Wounds)"
    )
    t.cmd("plotpoint_award", target="Nova", text="tagline")
    t.do(NextTurn(by=ALICE))
    assert (
        t.cmd("act", action="second wind", roll=2)[0]
        == "Dr Rot catches a second wind: 1d4 (2) → 2 Wounds back (5/5 Wounds)."
    )
    assert (
        english(SYSTEM.report("plotpoint_show", t.enc, {}))
        == "🎭 Plot Points: Nova 2, Bolt 0; the Editor-in-Chief's pool: 1."
    )
    t.do(NextTurn(by=GM))
    t.do(EndEncounter(by=GM))

    expected = [
        ("Bolt's turn", (12,)),
        ("Nova's turn", (11,)),
        ("Dr Rot's turn", (1,)),
        ("Zombie Horde's turn", (1,)),
        ("Dr Rot (Unleashed)'s turn", (1,)),
        ("Nova's turn", (11,)),
        ("Dr Rot's turn", (1,)),
        ("Zombie Horde's turn", (1,)),
    ]
    assert t.pings == expected
    assert t.enc.status == "ended"
