"""A whole 99 Towers fight, three rounds, checked line by line: the story of
tests/golden/99-towers.script without Discord.

Tony (a player character) holds and steps in before the Boss, lands the seed's
critical on the Bandit, flips real cards for his defence, and strikes the fleeing
Bandit with the butt of his rifle (an opportunity attack); Mira (another
player) trades blows with the Boss; the dying Bandit bleeds at the zero phase of
round 3; Tony's aimed shot from the second range increment drops the Boss.
"""

from __future__ import annotations

from tests.rules.test_towers_helpers import BOB, GM, PLAYER, full_fight, phase_of, who

GOLDEN = """\
## Tony joins
info: Tony joins the encounter.
roll: Tony: Initiative ⟨2⟩: K♥ 4♣ → keep K = 13 + N 2 = CI 15 → phase 5
## Mira joins
info: Mira joins the encounter.
roll: Mira: Initiative ⟨1⟩: J♦ → keep J = 11 + N 1 = CI 12 → phase 8
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
info: Tony holds (from phase 5): on someone's turn in a later phase, release to act just before them (or after).
turn: Boss's turn @1
## Tony steps in before the Boss
info: Tony stops holding and acts before Boss.
turn: Tony's turn @2
## Tony shoots the Bandit: a critical
roll: Tony: Attack with Heavy Rifle on Bandit — PA 4: K♥ 9♥ 3♣ 5♠ → keep K = 13 (2♥)
roll: Bandit PD 2 − SS 1 flat-footed = 1: 7♦ → keep 7 = 7 → 13 vs 7: critical hit
info: Heavy Rifle 7 + 2♥ = 9 − ER 1 = 8 physical STUN, 2 LETHAL → Bandit: STUN 10 → 2/10, LETHAL 3 → 1/3 — wounded
info: Attack (5): Tony next acts in phase 11.
turn: Boss's turn @1
## the Boss power-attacks Tony
roll: Boss: Power Attack with Axe on Tony — PA 4 (power attack (flip−1)): J♥ 4♦ 2♣ → keep J = 11 (1♥)
info: Tony flips PD 3 (3 cards): see the Flip button.
## Tony flips real cards
info: Chosen: Flip.
roll: Tony PD 3: 9♣ 3♠ 2♥ → keep 9 = 9 → 11 vs 9: critical hit
info: Axe 4 + PX 2 + Power Attack 2 = 8 + 1♥ = 9 − ER 1 = 8 physical STUN, 1 LETHAL → Tony: STUN 12 → 4/12, LETHAL 6 → 5/6 — wounded
info: Power Attack (7): Boss next acts in phase 13.
turn: Mira's turn @3
## Mira cuts the Boss
roll: Mira: Attack with Longblade on Boss — PA 3 (Longblade (flip+1)): 10♠ 8♥ 2♣ 3♦ → keep 10 = 10 (1♥)
roll: Boss PD 3 (after a power attack (flip−1)): 7♣ 5♠ → keep 7 = 7 → 10 vs 7: critical hit
info: Longblade 4 + PX 1 = 5 + 1♥ = 6 − ER 1 = 5 physical STUN, 1 LETHAL → Boss: STUN 14 → 9/14, LETHAL 5 → 4/5 — wounded
info: Attack (5): Mira next acts in phase 13.
round: Round 2
turn: Bandit's turn @1
## Tony's opportunity attack on the fleeing Bandit
roll: Tony: Opportunity Attack with Heavy Rifle butt (unarmed) on Bandit — PA 4: A♥ 2♥ 3♣ 4♣ → keep A = 14 (2♥)
roll: Bandit PD 2 − SS 1 flat-footed = 1: 5♦ → keep 5 = 5 → 14 vs 5: critical hit
info: Heavy Rifle butt (unarmed) HS 2 + 2♥ = 4 − ER 1 = 3 physical STUN, 2 LETHAL → Bandit: STUN 2 → 0/10, LETHAL 1 → −1/3 — dying (dies at LETHAL −4), unconscious and prone
info: Tony's opportunity attack costs 3 phases: next acts in phase 14.
info: Bandit can no longer act: the clock moves on.
info: Boss: Power Attack penalty ends.
turn: Boss's turn @1
## the Boss attacks Mira
roll: Boss: Attack with Axe on Mira — PA 4: K♥ 9♣ 3♠ 2♦ → keep K = 13 (1♥)
info: Mira flips PD 3 (3 cards): see the Flip button.
## the bot flips Mira's defence
info: Chosen: Flip.
roll: Mira PD 3: 3♠ Q♥ 7♣ → keep Q = 12 → 13 vs 12: critical hit
info: Axe 4 + PX 2 = 6 + 1♥ = 7 − ER 1 = 6 physical STUN, 1 LETHAL → Mira: STUN 14 → 8/14, LETHAL 7 → 6/7 — wounded
info: Attack (5): Boss next acts in phase 18.
turn: Mira's turn @3
## Mira steps and attacks
roll: Mira: Shift Position + Attack with Longblade on Boss — PA 3 (Longblade (flip+1)): 6♠ 4♥ 3♣ 2♣ → keep 6 = 6 (1♥)
roll: Boss PD 3: 8♦ 2♦ 9♣ → keep 9 = 9 → 6 vs 9: miss
info: Shift Position + Attack (7): Mira next acts in phase 20.
turn: Tony's turn @2
## Tony recovers
info: Tony recovers STUN = Endurance 2: STUN 4 → 6/12.
info: Recover (5): Tony next acts in phase 19.
turn: Boss's turn @1
## the Boss goes on Full Defense
info: Boss goes on Full Defense: (flip+1) on defence flips and no other action until next acting.
info: Full Defense (10): Boss next acts in phase 28.
turn: Tony's turn @2
## Tony aims
info: Tony aims: (flip+1) on the next PA attack.
info: Aim (5): Tony next acts in phase 24.
round: Round 3
info: Phase 20 (zero phase): Bandit is dying and loses 1 LETHAL. Bandit: LETHAL −1 → −2/3 — still dying (dies at LETHAL −4)
turn: Mira's turn @3
## Mira attacks the defending Boss
roll: Mira: Attack with Longblade on Boss — PA 3 (Longblade (flip+1)): Q♦ 5♣ 4♠ 3♠ → keep Q = 12
roll: Boss PD 3 (full defense (flip+1)): 9♥ 8♠ 7♠ 2♠ → keep 9 = 9 → 12 vs 9: hit
info: Longblade 4 + PX 1 = 5 − ER 1 = 4 physical STUN → Boss: STUN 9 → 5/14
info: Attack (5): Mira next acts in phase 25.
turn: Tony's turn @2
## Tony fires from 14 spaces
roll: Tony: Attack with Heavy Rifle on Boss — PA 4 (aim (flip+1); range 14 = increment 2 (shift−1)): A♠ 2♣ 3♣ 4♣ 5♣ → keep A = 14 − 1 = 13
roll: Boss PD 3 (full defense (flip+1)): J♦ 8♦ 7♦ 2♦ → keep J = 11 → 13 vs 11: hit
info: Heavy Rifle 7 − ER 1 = 6 physical STUN → Boss: STUN 5 → 0/14 — unconscious and prone
info: Attack (5): Tony next acts in phase 29.
turn: Mira's turn @3
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
    assert enc.round == 3 and enc.turns.phase == 25 and who(enc) == "Mira"
    tony, mira, bandit, boss = (enc.find(n) for n in ("Tony", "Mira", "Bandit", "Boss"))
    assert (tony.stun, tony.lethal) == (6, 5)
    assert (mira.stun, mira.lethal) == (8, 6)
    assert bandit.dying and not bandit.out and bandit.lethal == -2 and bandit.death_at == -4
    assert boss.unconscious and boss.prone and (boss.stun, boss.lethal) == (0, 4)
    assert phase_of(enc, "Tony") == 29


def test_every_turn_pings_only_the_one_who_acts_and_nothing_else_pings():
    owners = {"Tony": PLAYER.user_id, "Mira": BOB.user_id}
    turns = 0
    for label, out in full_fight():
        for event in out.events:
            if event.kind == "turn":
                turns += 1
                name = event.text.split("'s turn")[0]
                assert event.ping == (owners.get(name, GM.user_id),), label
            else:
                assert not event.ping, (label, event.text)
    assert turns == 14
