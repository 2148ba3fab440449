"""Damage against Toughness, wounds, dying and death.

Every hit is compared on its own with the Toughness the target had before
the attack (a combo's hits land at once and never add up): more than Minimum
Toughness is a wound, Toughness or more is a wound and Dying. A character who
is wounded while already dying dies.
"""

from __future__ import annotations

from rules.model import Event
from rules.randomness import Chance
from rules.secrets import secret

from .checks import d6_check, signed
from .model import Condition, Fighter
from .sheet import minimum_toughness, pair, toughness
from .tables import LOCATIONS


class Hit:
    """One damage roll landing: its amount and how it was rolled.

    `hidden`: the amount is a secret (a hidden attacker's Strength is in it);
    `text` then already hides it."""

    __slots__ = ("amount", "hidden", "text")

    def __init__(self, amount: int, text: str, hidden: bool = False) -> None:
        self.amount = amount
        self.text = text
        self.hidden = hidden


def fortitude(f: Fighter, dc: int, chance: Chance, *, secret_dc: bool = False) -> tuple[bool, str]:
    """Fortitude check: d6 + Fortitude + scale (scale is added to fortitude).

    A hidden fighter's bonus and total are secret; `secret_dc` when the DC is
    (a hidden attacker's damage)."""
    bonus = f.sheet.fortitude + f.sheet.scale
    die, total, ok = d6_check(chance, bonus, dc)
    return ok, (
        f"Fortitude d6 {die} {secret(signed(bonus), f)} = {secret(total, f)} vs DC {secret(dc, secret_dc)}: "
        f"{'passes' if ok else 'fails'}"
    )


def land(
    enc, cid: str, hits: list[Hit], chance: Chance, *, location: str | None = None, nonlethal: bool = False
) -> tuple[object, list[Event]]:
    """Apply hits that got through, all against the Toughness from before them."""
    target: Fighter = enc.get(cid)
    spot = LOCATIONS.get(location) if location else None
    full = toughness(target) + (spot.toughness if spot else 0)
    least = minimum_toughness(target) + (spot.toughness if spot else 0)
    where = f" ({location})" if location else ""
    wounds, starts_dying, extra = 0, False, []
    conditions = list(target.conditions)
    notes = list(target.notes)
    posture = target.posture
    parts = []
    for hit in hits:
        if hit.amount >= full:
            verdict = "≥ Toughness"
            wounds += 1
            if spot is None or spot.full_dying:
                starts_dying = True
                verdict += ": wound and Dying"
            else:
                verdict += f": wound; {spot.full}" if spot.full else ": wound"
                notes.append(f"{location}: {spot.full}")
                if spot.full_check:
                    ok, text = fortitude(target, hit.amount, chance, secret_dc=hit.hidden)
                    verdict += f"; {text}" + ("" if ok else f" → {spot.full_check}")
                    if not ok and spot.full_check == "fall prone":
                        posture = "prone"
        elif hit.amount > least:
            verdict = "> Minimum"
            if spot is None or spot.minimum_wound:
                wounds += 1
                verdict += ": wound"
            if spot and spot.minimum:
                verdict += f"; {spot.minimum}"
                notes.append(f"{location}: {spot.minimum}")
            if spot and spot.minimum_check:
                ok, text = fortitude(target, hit.amount, chance, secret_dc=hit.hidden)
                verdict += f"; {text}" + ("" if ok else f" → {spot.minimum_check}")
                if not ok and spot.minimum_check.startswith("be Staggered"):
                    conditions.append(Condition(name="staggered", rounds=1))
        else:
            verdict = "≤ Minimum: no wound"
        parts.append(f"{hit.text} vs Toughness {secret(pair(full, least), target)}{where}: {verdict}")
    events = [Event(kind="roll", text=f"{target.name}: " + "; ".join(parts) + ".")]
    was_dying = target.dying
    target = target.but(
        wounds=target.wounds + wounds, conditions=tuple(conditions), notes=tuple(notes[-6:]), posture=posture
    )
    if wounds and was_dying:
        target = _dies(target)
        extra.append(f"{target.name} was wounded while dying and dies.")
    elif starts_dying and nonlethal:
        if not any(c.name == "unconscious" for c in target.conditions):
            target = target.but(conditions=target.conditions + (Condition(name="unconscious"),))
        extra.append(f"{target.name} is knocked unconscious (nonlethal).")
    elif starts_dying and not target.dead:
        target = target.but(dying=True, stable=False, dying_dc=4)
        extra.append(f"{target.name} is Dying: unconscious, an Endurance check each round (DC 4, −1 per wound).")
    if wounds:
        # How many wounds this did is public (each hit's verdict says so); the total and Toughness are not.
        extra.insert(
            0,
            f"{target.name}: {wounds} wound{'s' if wounds != 1 else ''} → {secret(target.wounds, target)} in all, "
            f"Toughness {secret(pair(toughness(target), minimum_toughness(target)), target)}.",
        )
    enc = enc.with_combatant(target)
    events += [Event(kind="info", text=line) for line in extra]
    return enc, events


def _dies(f: Fighter) -> Fighter:
    return f.but(dead=True, dying=False, stable=False, out=True)


def dying_check(enc, cid: str, chance: Chance) -> tuple[object, list[Event]]:
    """Start of a round: d10 (10 stabilises), else Endurance d6 − wounds vs the DC."""
    f: Fighter = enc.get(cid)
    best = 6 + f.sheet.endurance - f.wounds
    if f.dying_dc > best:
        return enc.with_combatant(_dies(f)), [
            Event(kind="info", text=f"{f.name} dies: DC {f.dying_dc} is out of reach.")
        ]
    d10 = chance.die(10)
    if d10 == 10:
        f = f.but(dying=False, stable=True)
        return enc.with_combatant(f), [
            Event(kind="roll", text=f"{f.name} dying: d10 10 → stabilises (still unconscious).")
        ]
    die, total, holds = d6_check(chance, f.sheet.endurance - f.wounds, f.dying_dc)
    hurt = f" − {f.wounds} wound{'s' if f.wounds != 1 else ''}" if f.wounds else ""
    # The dying DC is public (4, +1 a failure); Endurance, the wounds and the total are not.
    text = (
        f"{f.name} dying: d10 {d10} (no 10); Endurance d6 {die} {secret(signed(f.sheet.endurance) + hurt, f)} "
        f"= {secret(total, f)} vs DC {f.dying_dc}"
    )
    if holds:
        return enc, [Event(kind="roll", text=text + ": holds on.")]
    dc = f.dying_dc + 1
    if dc > best:
        return enc.with_combatant(_dies(f.but(dying_dc=dc))), [
            Event(kind="roll", text=text + f": fails; DC {dc} is out of reach → dies.")
        ]
    return enc.with_combatant(f.but(dying_dc=dc)), [Event(kind="roll", text=text + f": fails → DC {dc}.")]
