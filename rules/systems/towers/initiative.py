"""Calculated Initiative, the first phase, and the tie order.

Flip Initiative ⟨N⟩ cards, keep the highest, add N: the Calculated Initiative
(CI), fixed for the encounter. First phase = 20 − CI (CI 20 or more: phase 0),
+10 when surprised. Ties in a phase: higher CI, higher N, higher Soft
Strength, then a flip-off whose result holds for the whole encounter.
"""

from __future__ import annotations

from rules.model import Event
from rules.said import N_, Text, joined, say, seq
from rules.secrets import Secret, secret
from rules.usertext import listed

from .flips import flip
from .model import TowersCombatant, TowersEncounter

START = 20
MAX_FLIPOFF_ROUNDS = 20


def _flipped(combatant: TowersCombatant, chance) -> tuple[int, dict[str, Secret]]:
    """The Calculated Initiative, and its N, cards and CI as the line shows them."""
    n = combatant.sheet.init
    result = flip(chance, n)
    ci = result.value + n
    # A hidden combatant's N and CI are secret; its phase (the clock) is not, and tells CI below 20:
    # so its cards are secret too, or their number (N) and the kept one (CI − N) would tell N.
    shown = {"n": secret(n, combatant), "cards": secret(result.text(), combatant), "ci": secret(ci, combatant)}
    return ci, shown


def calculated(enc: TowersEncounter, combatant: TowersCombatant, chance) -> tuple[tuple[float, ...], Text]:
    ci, shown = _flipped(combatant, chance)
    offset = START - min(ci, START)
    text: Text = say("Initiative ⟨{n}⟩: {cards} + N {n} = CI {ci} → phase {phase}", phase=offset, **shown)
    if combatant.surprised:
        delay = int(enc.options.get("surprise_phases", 10))
        offset += delay
        text = seq(text, say(", surprised +{delay} → phase {phase}", delay=delay, phase=offset))
    phase = offset
    if enc.status == "running":
        # Joining a running fight: the first phase counts from now.
        phase = enc.turns.phase + offset
        text = seq(text, " ", say("from now (phase {now}) → phase {phase}", now=enc.turns.phase, phase=phase))
    return (phase, ci, combatant.sheet.init, combatant.sheet.ss), text


def on_its_own(combatant: TowersCombatant, phase: int, chance) -> tuple[tuple[float, ...], Text]:
    """A companion whose master has left: it never flipped (it activated on its master's CI), so it flips
    its own Initiative now; that CI, with its own N and Soft Strength, breaks its ties in a phase (the
    seed's tie order is each character's own), while its place on the clock stays the pair's."""
    ci, shown = _flipped(combatant, chance)
    text = say("Initiative ⟨{n}⟩: {cards} + N {n} = CI {ci}, in its place (phase {phase})", phase=phase, **shown)
    return (ci, combatant.sheet.init, combatant.sheet.ss), text


def settle_ties(enc: TowersEncounter, tied: list, chance) -> tuple[list, list[Event]]:
    """Flip-off: whoever still shares a result with someone turns another card.

    Earlier results are kept and only extended, so an order once settled
    holds for the encounter even when a newcomer ties with it.
    """
    entries = {e.cid: e for e in tied}
    lines: list[Text] = []
    for _ in range(MAX_FLIPOFF_ROUNDS):
        unsettled = [
            e
            for e in entries.values()
            if not e.tiebreak
            or any(o.cid != e.cid and o.tiebreak[: len(e.tiebreak)] == e.tiebreak for o in entries.values())
        ]
        if not unsettled:
            break
        drawn: list[Text] = []
        for entry in unsettled:
            card = chance.flip(1)[0]
            entries[entry.cid] = entry.but(tiebreak=entry.tiebreak + (float(card.value),))
            drawn.append(seq(enc.get(entry.cid).name, " ", str(card)))
        lines.append(listed(drawn))
    ordered = sorted(entries.values(), key=lambda e: tuple(-k for k in e.tiebreak))
    names = joined(N_(" then "), (enc.get(e.cid).name for e in ordered))
    # A tie is an equality: with a hidden combatant in it, that there was one at all tells its CI, N and
    # SS to whoever knows another's in the tie. The whole line is the GM's then; the order shows in play.
    hidden = any(enc.get(e.cid).hidden for e in tied)
    key = [_n(value) for value in tied[0].key[:3]]
    tie = say(
        "Tie at CI {ci}, N {n}, SS {ss}: flip-off {cards}", ci=key[0], n=key[1], ss=key[2], cards=listed(lines, "; ")
    )
    text = secret(say("{tie} → {order} for this encounter.", tie=tie, order=names), hidden)
    return [entries[e.cid] for e in tied], [Event(kind="roll", text=text)]


def _n(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
