"""A whole 99 Towers fight, three rounds and more, checked line by line.

Tony (a player character) holds and steps in before the Boss, lands a critical
on the Bandit, flips his own defences, cuts the fleeing Bandit down with an
opportunity attack, and the Bandit bleeds out at the zero phase of round 3.
"""

from __future__ import annotations

from test_towers_helpers import full_fight, phase_of, who

GOLDEN = """\
## Tony joins
info: Tony joins the encounter.
roll: Tony: Initiative ⟨2⟩: K♥ 4♣ → keep K = 13 + N 2 = CI 15 → phase 5
## Bandit joins
info: Bandit joins the encounter.
roll: Bandit: Initiative ⟨1⟩: 9♦ → keep 9 = 9 + N 1 = CI 10 → phase 10
## Boss joins
info: Boss joins the encounter.
roll: Boss: Initiative ⟨2⟩: Q♠ 5♦ → keep Q = 12 + N 2 = CI 14 → phase 6
## begin
round: Round 1
turn: Tony's turn @2
## Tony holds
info: Tony holds (from phase 5): release before or after someone in a later phase.
turn: Boss's turn @1
## Tony steps in before the Boss
info: Tony stops holding and acts before Boss.
turn: Tony's turn @2
## Tony shoots the Bandit: a critical
roll: Tony: Attack with Heavy Rifle on Bandit — PA 4: K♥ 9♥ 3♣ 5♠ → keep K = 13 (2♥)
roll: Bandit PD 2 − SS 1 flat-footed = 1: 7♦ → keep 7 = 7 → 13 vs 7: critical hit
info: 7 + 2♥ = 9 − ER 1 = 8 physical STUN, 2 LETHAL → Bandit: STUN 10 → 2/10, LETHAL 3 → 1/3 — wounded
info: Attack (5): Tony next acts in phase 11.
turn: Boss's turn @1
## the Boss swings at Tony
roll: Boss: Attack with Axe on Tony — PA 4: 10♣ 4♣ 3♦ 2♠ → keep 10 = 10
info: Tony: Boss's Axe comes in at 10. Flip PD 3: 3 cards. @2
## Tony flips his defence
info: Chosen: Flip.
roll: Tony PD 3: Q♣ 5♥ 2♦ → keep Q = 12 → 10 vs 12: miss
info: Attack (5): Boss next acts in phase 11.
round: Round 2
turn: Bandit's turn @1
## Tony's opportunity attack on the fleeing Bandit
roll: Tony: Opportunity Attack with Knife on Bandit — PA 4: A♥ 2♥ 3♣ 4♣ → keep A = 14 (2♥)
roll: Bandit PD 2 − SS 1 flat-footed = 1: 5♦ → keep 5 = 5 → 14 vs 5: critical hit
info: 3 + 2♥ = 5 − ER 1 = 4 physical STUN, 2 LETHAL → Bandit: STUN 2 → 0/10, LETHAL 1 → -1/3 — dying, unconscious and prone
info: Tony's opportunity attack costs 3 phases: next acts in phase 14.
turn: Boss's turn @1
## the Boss power-attacks Tony
roll: Boss: Power Attack with Axe on Tony — PA 4 (power attack (flip−1)): J♥ 4♦ 2♣ → keep J = 11 (1♥)
info: Tony: Boss's Axe comes in at 11. Flip PD 3: 3 cards. @2
## Tony flips his defence
info: Chosen: Flip.
roll: Tony PD 3: 9♣ 3♠ 2♥ → keep 9 = 9 → 11 vs 9: critical hit
info: 9 + 1♥ = 10 − ER 1 = 9 physical STUN, 1 LETHAL → Tony: STUN 12 → 3/12, LETHAL 6 → 5/6 — wounded
info: Power Attack (7): Boss next acts in phase 18.
turn: Tony's turn @2
## Tony recovers
info: Tony: Recover: STUN +2 (Endurance). Tony: STUN 3 → 5/12
info: Recover (5): Tony next acts in phase 19.
info: Boss: Power Attack penalty ends.
turn: Boss's turn @1
## the Boss attacks again
roll: Boss: Attack with Axe on Tony — PA 4: 5♣ 4♣ 3♣ 2♣ → keep 5 = 5
info: Tony: Boss's Axe comes in at 5. Flip PD 3: 3 cards. @2
## Tony flips his defence
info: Chosen: Flip.
roll: Tony PD 3: K♣ 2♦ 3♦ → keep K = 13 → 5 vs 13: miss
info: Attack (5): Boss next acts in phase 23.
turn: Tony's turn @2
## Tony shoots the Boss
roll: Tony: Attack with Heavy Rifle on Boss — PA 4: Q♥ 10♠ 4♠ 3♦ → keep Q = 12 (1♥)
roll: Boss PD 3: 8♣ 7♣ 6♣ → keep 8 = 8 → 12 vs 8: critical hit
info: 7 + 1♥ = 8 − ER 1 = 7 physical STUN, 1 LETHAL → Boss: STUN 12 → 5/12, LETHAL 5 → 4/5 — wounded
info: Attack (5): Tony next acts in phase 24.
round: Round 3
info: Phase 20 (zero phase): Bandit is dying and loses 1 LETHAL. Bandit: STUN 0 → 0/10, LETHAL -1 → -2/3 — dead (LETHAL -2 ≤ -2 × Endurance 1)
turn: Boss's turn @1
## the Boss goes on Full Defense
info: Boss: goes on Full Defense: +1 (shift+1) on defence flips until next acting.
info: Full Defense (10): Boss next acts in phase 33.
turn: Tony's turn @2
## Tony aims
info: Tony: aims: (flip+1) on the next PA attack.
info: Aim (5): Tony next acts in phase 29.
turn: Tony's turn @2
## Tony fires at the defending Boss
roll: Tony: Attack with Heavy Rifle on Boss — PA 4 (aim (flip+1)): A♠ 2♣ 3♣ 4♣ 5♣ → keep A = 14
roll: Boss PD 3 (full defense (shift+1)): 9♦ 8♦ 7♦ → keep 9 = 9 + 1 = 10 → 14 vs 10: hit
info: 7 − ER 1 = 6 physical STUN → Boss: STUN 5 → 0/12 — unconscious and prone
info: Attack (5): Tony next acts in phase 34.
round: Round 4
turn: Tony's turn @2
"""


def transcript() -> str:
    lines = []
    for label, out in full_fight():
        lines.append(f"## {label}")
        for event in out.events:
            ping = f" @{','.join(map(str, event.ping))}" if event.ping else ""
            lines.append(f"{event.kind}: {event.text}{ping}")
    return "\n".join(lines) + "\n"


def test_the_fight_matches_the_golden_transcript():
    assert transcript() == GOLDEN


def test_the_fight_ends_as_the_story_says():
    *_, (label, last) = full_fight()
    enc = last.state
    assert enc.round == 4 and enc.turns.phase == 34 and who(enc) == "Tony"
    tony, bandit, boss = enc.find("Tony"), enc.find("Bandit"), enc.find("Boss")
    assert (tony.stun, tony.lethal) == (5, 5)
    assert bandit.out and bandit.lethal == -2
    assert boss.unconscious and boss.prone and (boss.stun, boss.lethal) == (0, 4)
    assert phase_of(enc, "Boss") == 33


def test_every_turn_pings_only_the_one_who_acts():
    for label, out in full_fight():
        for event in out.events:
            if event.kind == "turn":
                name = event.text.split("'s turn")[0]
                expected = (2,) if name == "Tony" else (1,)
                assert event.ping == expected, label
