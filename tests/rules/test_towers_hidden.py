"""A hidden 99 Towers NPC: players read "?" for its numbers, the GM reads them all.

The Wraith's sheet is made of numbers nothing else in its fight can show (no
card, phase, cost or number of the Hero's): wherever one of them turns up in
what players see, a text leaks it. The same fight with the Wraith in plain
sight must read exactly as it always did: no marks at all.
"""

from __future__ import annotations

import re

from rules.actions import AddCombatants
from rules.engine import apply
from rules.said import english
from rules.secrets import conceal, has_secrets, reveal
from rules.systems.towers import SYSTEM
from tests.rules.derive import changes, derivable
from tests.rules.test_towers_helpers import GM, PLAYER, begin, new, who
from tests.rules.test_towers_helpers import choose as _choose
from tests.rules.test_towers_helpers import command as _command

HERO = (
    "init=2 ss=2 hs=3 pa=4 sa=3 pd=3 id=2 px=2 er=12 ir=1 endurance=2 stun=60 lethal=6 mana=6 "
    'weapons="Longblade: 4+px +1pa; Bolt: 6 sa arcane fire r10"'
)
WRAITH = (
    "init=21 ss=18 hs=16 pa=24 sa=28 pd=26 id=28 px=22 er=17 ir=29 endurance=19 stun=97 lethal=41 "
    'mana=29 susceptible=fire immune=acid weapons="Claws: 3+px; Hex: 4 sa arcane cold r10"'
)
# Its sheet, its Calculated Initiative (2 + 21) and the LETHAL it dies at (−2 × 19): no card
# (2–14), phase (0–32 but these), cost or number of the Hero's. Its Hard Strength (16)
# shows only in unarmed blows, tested on their own below.
SECRETS = {21, 18, 16, 24, 28, 26, 22, 17, 29, 19, 97, 41, 23, 38}
HARD_STRENGTH = 16


def low(count: int) -> str:
    """`count` cards that keep 2 and hold no Heart."""
    return " ".join(["2C"] * count)


def stacked(enc, cards: str):
    """The deck stacked with these cards on top, in order. Entered cards could not repeat 2♣ (a
    deck has one of each), and these flips need dozens of cards that keep 2 and hold no Heart."""
    return enc.but(deck=tuple(enc.deck) + tuple(reversed(cards.split())))


def command(enc, name, by=GM, *, cards="", **options):
    return _command(stacked(enc, cards), name, by, **options)


def choose(enc, option="Flip", cards="", by=PLAYER):
    return _choose(stacked(enc, cards), option, "", by)


def add(enc, name, cards, stats, *, hidden=False, player=False, surprised=False):
    action = AddCombatants(
        by=GM,
        name=name,
        sheet=SYSTEM.parse_sheet(stats),
        npc=not player,
        hidden=hidden,
        controller_id=PLAYER.user_id if player else None,
        surprised=surprised,
    )
    return apply(stacked(enc, cards), action)


def fight_steps():
    """(label, step): everything that prints the Wraith's numbers, in one fight.

    The Hero (a player, CI 15) acts in phase 5; the surprised Wraith (CI 23) in phase 10.
    """
    return [
        ("the Hero joins", lambda e: add(e, "Hero", "KH 4C", HERO, player=True)),
        ("the Wraith lurks", lambda e: add(e, "Wraith", low(21), WRAITH, hidden=True, surprised=True)),
        ("begin", begin),
        # Phase 5. Flat-footed: PD 26 − SS 18 = 8 cards; the blade's 7 against ER 17: minimum 1.
        (
            "the Hero cuts the Wraith",
            lambda e: command(
                e, "attack", PLAYER, target="Wraith", weapon="longblade", cards="AH " + low(4) + " " + low(8)
            ),
        ),
        # Phase 10.
        (
            "the Wraith hexes the Hero",
            lambda e: command(
                e, "attack", actor="Wraith", target="Hero", weapon="hex", options="mana=3", cards="AH " + low(27)
            ),
        ),
        ("the Hero flips ID", lambda e: choose(e, cards="9C 3C")),
        # ID 28 cards; fire: 7 − IR 29 → 1, ×2 susceptible.
        (
            "the Hero's Bolt",
            lambda e: command(
                e, "attack", PLAYER, target="Wraith", weapon="bolt", cards="AH " + low(2) + " " + low(28)
            ),
        ),
        # Phase 15.
        ("the Wraith aims", lambda e: command(e, "act", actor="Wraith", action="aim")),
        (
            "the GM sets the Wraith burning",
            lambda e: command(e, "condition_add", target="Wraith", condition="Burning", options="ongoing=3 fire"),
        ),
        ("acid does nothing", lambda e: command(e, "damage", target="Wraith", amount="9", damage_type="acid")),
        ("a fall", lambda e: command(e, "damage", target="Wraith", amount="10 ft", cards=low(4))),
        (
            "the Wraith resists a poison",
            lambda e: command(e, "save", GM, actor="Wraith", kind="endurance", dc=5, cards=low(5) + " AC " + low(18)),
        ),
        (
            "the Hero grapples",
            lambda e: command(
                e, "act", PLAYER, action="initiate grapple", target="Wraith", cards="AH " + low(3) + " " + low(26)
            ),
        ),
        # Phase 20, a zero phase: the Burning, the mana; then the aimed Wraith's turn.
        (
            "the Wraith claws the Hero",
            lambda e: command(e, "attack", actor="Wraith", target="Hero", weapon="claws", cards="AH " + low(23)),
        ),  # grappled: flip−1
        ("the Hero flips PD", lambda e: choose(e, cards="9C 3C 4D")),
        (
            "the GM hurts the Wraith",
            lambda e: command(
                e,
                "damage",
                target="Wraith",
                amount="60",
                damage_type="physical",
                options="lethal=45 flips=2",
                cards=low(2),
            ),
        ),
        ("the GM heals some STUN", lambda e: command(e, "heal", target="Wraith", amount=5)),
        ("the GM heals some LETHAL", lambda e: command(e, "heal", target="Wraith", amount=2, options="lethal")),
        ("a temporary ward", lambda e: command(e, "heal", target="Wraith", amount=7, options="temp")),
        (
            "the Hero strikes the dying Wraith",
            lambda e: command(
                e, "act", PLAYER, action="power attack", target="Wraith", cards="KH " + low(3) + " " + low(26)
            ),
        ),
        # Phase 27; phase 30, a zero phase: the dying Wraith bleeds.
        ("the Hero waits", lambda e: command(e, "act", PLAYER, action="forced delay")),
        ("the GM finishes it", lambda e: command(e, "damage", target="Wraith", amount="100", options="lethal=100")),
    ]


def run(hidden: bool):
    """Each step's texts: its events, its summary, a pending prompt and the turn's summary lines."""
    enc = new()
    steps = []
    for label, step in fight_steps():
        if not hidden and label == "the Wraith lurks":
            step = lambda e: add(e, "Wraith", low(21), WRAITH, surprised=True)  # noqa: E731
        out = step(enc)
        enc = out.state
        lines = [e.said for e in out.events] + [out.summary]
        if enc.pending is not None:
            lines += [enc.pending.prompt, *enc.pending.labels]
        if enc.turns.current:
            lines += SYSTEM.turn_summary(enc, enc.turns.current)
        steps.append((label, lines))
    return enc, steps


def numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", text)}


def test_players_never_read_a_hidden_npcs_numbers():
    enc, steps = run(hidden=True)
    assert enc.find("Wraith").out  # the whole fight ran, to the Wraith's death
    for label, lines in steps:
        for text in lines:
            shown = numbers(conceal(text)) & SECRETS
            assert not shown, f"{label}: {conceal(text)!r} shows {sorted(shown)}"


def test_the_gm_reads_every_hidden_number():
    _, steps = run(hidden=True)
    revealed = set()
    for _, lines in steps:
        for text in lines:
            revealed |= numbers(reveal(text))
            assert reveal(conceal(text)) == conceal(text)  # nothing marked is left for players
    assert SECRETS - {HARD_STRENGTH} <= revealed


def test_the_same_fight_in_plain_sight_has_no_marks():
    _, steps = run(hidden=False)
    for label, lines in steps:
        for text in lines:
            assert not has_secrets(text), f"{label}: {text!r}"


def test_each_result_line_hides_what_it_must():
    _, steps = run(hidden=True)
    seen = {label: [conceal(t) for t in lines] for label, lines in steps}

    def line(label: str, start: str) -> str:
        found = [t for t in seen[label] if t.startswith(start)]
        assert found, f"{label}: no line starts {start!r} in {seen[label]}"
        return found[0]

    def twos(count: int) -> str:
        return " ".join(["2♣"] * count)

    assert line("the Wraith lurks", "Wraith: Initiative") == (
        "Wraith: Initiative ⟨?⟩: ? + N ? = CI ? → phase 0, surprised +10 → phase 10"
    )  # 21 cards would tell N
    assert line("the Hero cuts the Wraith", "Wraith PD") == (
        "Wraith PD ? − SS ? flat-footed = ?: ? → keep 2 = 2 → 14 vs 2: critical hit"
    )
    assert line("the Hero cuts the Wraith", "Longblade") == (
        "Longblade 4 + PX 2 = 6 + 1♥ = 7 − ER ? = ? physical STUN, ? LETHAL "
        "→ Wraith: STUN ? → ?/?, LETHAL ? → ?/? — wounded"
    )
    assert line("the Wraith hexes the Hero", "Wraith: Attack") == (
        "Wraith: Attack with Hex on Hero (3 mana, ? left) — SA ?: ? → keep A = 14 (1♥)"
    )
    assert line("the Hero flips ID", "Hex") == (
        "Hex ? + 1♥ = ? − IR 1 = 4 arcane (cold) STUN, 1 LETHAL → Hero: STUN 60 → 56/60, LETHAL 6 → 5/6 — wounded"
    )
    assert line("the Hero's Bolt", "Wraith ID") == "Wraith ID ?: ? → keep 2 = 2 → 14 vs 2: critical hit"
    assert line("the Hero's Bolt", "Bolt") == (
        "Bolt 6 + 1♥ = 7 − IR ? = ? ×2 susceptible = ? arcane (fire) STUN, ? LETHAL "
        "→ Wraith: STUN ? → ?/?, LETHAL ? → ?/?"
    )
    assert line("acid does nothing", "Wraith is immune") == "Wraith is immune to acid: no damage."
    assert line("a fall", "Fall") == (
        "Fall of 10 feet: 10 physical STUN and 4 damage flips: 2♣ 2♣ 2♣ 2♣ → 0♥. "
        "Wraith takes 10 − ER ? = ? physical STUN → Wraith: STUN ? → ?/?"
    )
    assert line("the Wraith resists a poison", "Attack 5") == (
        f"Attack 5: {twos(5)} → keep 2 = 2 vs Wraith Endurance ?: ? → keep A = 14 → resisted"
    )
    assert line("the Hero grapples", "Hero: Grapple Test") == (
        "Hero: Grapple Test: Hero PA 4: A♥ 2♣ 2♣ 2♣ → keep A = 14; Wraith PD ?: ? → keep 2 = 2; "
        "14 vs 2: Wraith is grappled."
    )
    assert line("the Hero grapples", "Phase 20: Burning") == (
        "Phase 20: Burning: 3 ×2 susceptible = ? (fire) STUN → Wraith: STUN ? → ?/?"
    )
    assert line("the Hero grapples", "Phase 20 (zero phase)") == "Phase 20 (zero phase): Wraith regains mana: ? → ?/?."
    assert line("the Hero grapples", "Aiming") == "Aiming: (flip+1) on the next PA attack (at most +?)."
    assert line("the Wraith claws the Hero", "Wraith: Attack") == (
        "Wraith: Attack with Claws on Hero — PA ? (aim (flip+1); grappled (flip−1)): ? → keep A = 14 (1♥)"
    )
    # The Hero's own numbers stay: the STUN he loses is his to know.
    assert line("the Hero flips PD", "Claws") == (
        "Claws ? + PX ? = ? + 1♥ = ? − ER 12 = 14 physical STUN, 1 LETHAL → Hero: STUN 56 → 42/60, LETHAL 5 → 4/6"
    )
    assert line("the GM hurts the Wraith", "60 STUN") == (
        "60 STUN and 2 damage flips: 2♣ 2♣ → 0♥. Wraith takes 60 − ER ? = ? physical STUN, ? LETHAL "
        "→ Wraith: STUN ? → ?/?, LETHAL ? → ?/? — dying (dies at LETHAL ?)"
    )
    assert line("the GM heals some STUN", "Healing") == "Healing: Wraith: STUN ? → ?/?"
    assert line("the GM heals some LETHAL", "Healing") == "Healing: Wraith: STUN ? → ?/?, LETHAL ? → ?/?"
    assert line("a temporary ward", "Wraith") == "Wraith: temporary STUN ? gained."
    assert line("the Hero strikes the dying Wraith", "Longblade") == (
        "Longblade 4 + PX 2 + Power Attack 2 = 8 + 1♥ = 9 − ER ? = ? physical STUN, ? LETHAL "
        "→ Wraith: STUN ? → ?/? (temporary ? → ?), LETHAL ? → ?/? — still dying (dies at LETHAL ?)"
    )
    assert line("the Hero waits", "Phase 30 (zero phase): Wraith is dying") == (
        "Phase 30 (zero phase): Wraith is dying and loses 1 LETHAL. "
        "Wraith: LETHAL ? → ?/? — still dying (dies at LETHAL ?)"
    )
    assert line("the GM finishes it", "Wraith takes") == (
        "Wraith takes 100 STUN, ? LETHAL → Wraith: STUN ? → ?/?, LETHAL ? → ?/? — dead (LETHAL ? ≤ −2 × Endurance ?)"
    )


def test_the_gm_reads_the_lines_in_full():
    _, steps = run(hidden=True)
    shown = {label: [reveal(t) for t in lines] for label, lines in steps}
    assert (
        "Wraith PD 26 − SS 18 flat-footed = 8: " + " ".join(["2♣"] * 8) + " → keep 2 = 2 → 14 vs 2: critical hit"
        in shown["the Hero cuts the Wraith"]
    )
    assert (
        "Claws 3 + PX 22 = 25 + 1♥ = 26 − ER 12 = 14 physical STUN, 1 LETHAL → Hero: STUN 56 → 42/60, "
        "LETHAL 5 → 4/6" in shown["the Hero flips PD"]
    )
    assert (
        "60 STUN and 2 damage flips: 2♣ 2♣ → 0♥. Wraith takes 60 − ER 17 = 43 physical STUN, 45 → 43 LETHAL "
        "→ Wraith: STUN 87 → 44/97, LETHAL 38 → −5/41 — dying (dies at LETHAL −38)" in shown["the GM hurts the Wraith"]
    )
    assert "Phase 20 (zero phase): Wraith regains mana: 26 → 27/29." in shown["the Hero grapples"]
    assert (
        "Longblade 4 + PX 2 = 6 + 1♥ = 7 − ER 17 = -10 → minimum 1 physical STUN, 1 LETHAL "
        "→ Wraith: STUN 97 → 96/97, LETHAL 41 → 40/41 — wounded" in shown["the Hero cuts the Wraith"]
    )


def test_recover_and_unarmed_blows_hide_endurance_and_hard_strength():
    enc = add(new(), "Hero", "KH 4C", HERO, player=True).state
    enc = add(enc, "Wraith", low(21), WRAITH, hidden=True).state
    enc = begin(enc).state  # the Wraith first, in phase 0
    assert who(enc) == "Wraith"
    enc = command(enc, "damage", target="Wraith", amount="50", damage_type="physical").state
    out = command(enc, "act", actor="Wraith", action="recover")
    assert conceal(out.events[0].said) == "Wraith recovers STUN = Endurance ?: STUN ? → ?/?."
    assert reveal(out.events[0].said) == "Wraith recovers STUN = Endurance 19: STUN 64 → 83/97."
    enc = out.state
    assert who(enc) == "Wraith"  # phase 5, before the Hero (CI 23 against 15)
    out = command(enc, "attack", actor="Wraith", target="Hero", weapon="unarmed", cards="AH " + low(23))
    out = choose(out.state, cards="9C")
    damage = out.events[2].said
    assert conceal(damage).startswith("Unarmed HS ? + 1♥ = ? − ER 12 = 5 physical STUN")
    assert reveal(damage).startswith("Unarmed HS 16 + 1♥ = 17 − ER 12 = 5 physical STUN")


def test_a_tie_with_a_hidden_npc_keeps_its_initiative_secret():
    twin = "init=21 ss=18 stun=10"
    for hidden in (True, False):
        enc = add(new(), "Wraith", low(21), WRAITH, hidden=hidden).state
        out = add(enc, "Twin", low(21) + " KD 3C", twin)
        tie = out.events[-1].said
        if hidden:  # the Twin's N 21 is public: that they tied at all tells the Wraith's too, and its SS
            assert conceal(tie) == "?"  # wholly secret: the channel leaves it out
            assert reveal(tie) == (
                "Tie at CI 23, N 21, SS 18: flip-off Wraith K♦, Twin 3♣ → Wraith then Twin for this encounter."
            )
        else:
            assert not has_secrets(tie) and english(tie).startswith("Tie at CI 23, N 21, SS 18: flip-off")


def test_a_hidden_defender_asked_to_flip_reads_its_numbers_only_for_the_gm():
    enc = add(new(), "Hero", "KH 4C", HERO, player=True, hidden=True).state
    enc = add(enc, "Wraith", low(21), WRAITH).state
    enc = begin(enc).state
    out = command(enc, "attack", actor="Wraith", target="Hero", weapon="claws", cards="AH " + low(23))
    prompt = out.state.pending.prompt
    assert "Flip PD ? − SS ? flat-footed = ?: ? card." in conceal(prompt)
    assert "Flip PD 3 − SS 2 flat-footed = 1: 1 card." in reveal(prompt)
    assert conceal(out.events[-1].said) == "Hero flips PD ? − SS ? flat-footed = ? (? card): see the Flip button."


def test_the_gm_reads_what_the_table_read_before():
    """Revealed, each text is the plain one, but for a capped LETHAL, which reads shorter."""
    _, hidden = run(hidden=True)
    _, plain = run(hidden=False)
    for (label, secret_lines), (_, plain_lines) in zip(hidden, plain, strict=True):
        for text, before in zip(secret_lines, plain_lines, strict=True):
            before = reveal(before).replace("45 LETHAL → 43 (no more than the STUN)", "45 → 43 LETHAL")
            assert reveal(text) == before, label


def test_no_resistance_is_a_secret_too():
    """Without Resilience the step still shows, so "no ER step" cannot give away ER 0."""
    for hidden in (True, False):
        enc = add(new(), "Hero", "KH 4C", HERO, player=True).state
        enc = add(enc, "Shade", "9D", "init=1 ss=1 pd=1 er=0 stun=50", hidden=hidden).state
        enc = begin(enc).state
        out = command(enc, "attack", PLAYER, target="Shade", weapon="longblade", cards="QC " + low(4) + " 3D")
        text = out.events[2].said
        if hidden:
            assert conceal(text) == "Longblade 4 + PX 2 = 6 − ER ? = ? physical STUN → Shade: STUN ? → ?/?"
            assert reveal(text) == "Longblade 4 + PX 2 = 6 − ER 0 = 6 physical STUN → Shade: STUN 50 → 44/50"
        else:
            assert english(text) == "Longblade 4 + PX 2 = 6 physical STUN → Shade: STUN 50 → 44/50"


def derivations() -> tuple[set[int], set[int]]:
    """What the players can compute from the public lines (each step with what the Hero lost or regained),
    and the totals the Wraith's blows land on the Hero with."""
    enc, lines = new(), []
    for _, step in fight_steps():
        before, out = enc, step(enc)
        enc = out.state
        shown = [e.said for e in out.events] + [out.summary]
        if enc.pending is not None:
            shown += [enc.pending.prompt, *enc.pending.labels]
        if enc.turns.current:
            shown += SYSTEM.turn_summary(enc, enc.turns.current)
        moved = changes([before, enc], "stun", "lethal", "temp_stun", "temp_lethal", "mana")
        lines += [(conceal(text), moved) for text in shown]
    return derivable(lines), {4, 5, 25, 26}


def test_players_cannot_derive_a_hidden_number():
    """The Wraith's sheet stays out of reach of any sum, difference or margin of the public lines.

    One thing cannot be hidden in 99 Towers: a hidden attacker's damage against a visible hero. The hero's
    tracker shows what it lost, its resistance is its own, and the Hearts flipped (the extra damage and
    LETHAL) lie face up: Hex 4 (+ 1♥ = 5) and Claws + PX = 25 (+ 1♥ = 26) follow, whatever the line prints.
    What it hides stays hidden: how the Claws' 25 splits into the weapon's 3 and PX 22."""
    derived, weapon_totals = derivations()
    assert weapon_totals <= derived  # the check sees them: it can fail
    assert not (derived - weapon_totals) & SECRETS, sorted((derived - weapon_totals) & SECRETS)
    assert 22 not in derived
