"""STUN and LETHAL: how much a hit does, and what it does to the target.

STUN = base + Hearts − Resilience (ER physical, IR arcane, none untyped), at
least 1; susceptibility doubles STUN after Resilience and doubles LETHAL;
immunity stops both. LETHAL = Hearts, never reduced, never more than the STUN
the hit does. Temporary STUN and LETHAL are lost first.

A hidden combatant's Resilience, its STUN and LETHAL and whatever they reveal
are marked `secret`: players read "?", the GM the number.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.model import Value
from rules.said import say, term
from rules.secrets import secret
from rules.usertext import Typed

from .model import TowersCombatant


class Harm(Value):
    """Damage before the target's Resilience and damage types."""

    base: int
    hearts: int = 0
    extra_lethal: int = 0  # LETHAL a GM names outright, on top of Hearts
    category: str = "none"  # physical, arcane or none
    dtype: Typed = ""
    minimum: bool = True  # a hit always does at least 1 STUN
    shown: str = ""  # the base as players should read it, e.g. "Axe 4 + PX 2 = 6"
    secret_base: bool = False  # the base comes from a hidden attacker's sheet: its totals are secret


@dataclass(frozen=True, slots=True)
class Dealt:
    stun: int
    lethal: int
    text: str
    immune: bool = False

    def result(self, state: str) -> str:
        """The damage and the target's new state; immunity is said once, with no state (nothing changed)."""
        return f"{self.text}." if self.immune else f"{self.text} → {state}"


def resilience(target: TowersCombatant, category: str) -> tuple[int, str]:
    if category == "physical":
        return target.sheet.er, "ER"
    if category == "arcane":
        return target.sheet.ir, "IR"
    return 0, ""


def dealt(harm: Harm, target: TowersCombatant) -> Dealt:
    if target.immune_to(harm.dtype):
        text = say("{who} is immune to {dtype}: no damage", who=target.name, dtype=term(harm.dtype))
        return Dealt(0, 0, text, immune=True)
    raw = harm.base + harm.hearts
    base = harm.shown or secret(harm.base, harm.secret_base)
    steps = base + (f" + {harm.hearts}♥ = {secret(raw, harm.secret_base)}" if harm.hearts else "")
    resist, label = resilience(target, harm.category)
    stun = raw - resist
    if target.hidden and label:
        # Always the step, the minimum inside its secret: neither a missing step
        # (0) nor "minimum 1" may tell players anything about the hidden Resilience.
        after = f"{stun}"
        if harm.minimum and stun < 1:
            stun = 1
            after += f" → {say('minimum {n}', n=1)}"
        steps += f" − {term(label)} {secret(resist, target)} = {secret(after, target)}"
    else:
        if resist:
            steps += f" − {term(label)} {resist} = {stun}"
        if harm.minimum and stun < 1:
            stun = 1
            steps += f" → {say('minimum {n}', n=1)}"
    lethal = harm.hearts + harm.extra_lethal
    if target.susceptible_to(harm.dtype):
        stun, lethal = stun * 2, lethal * 2
        steps += f" {say('×2 susceptible = {stun}', stun=secret(stun, target))}"
    stun = max(0, stun)
    text = f"{steps} {kind_of(harm)}"
    if lethal:
        capped = min(lethal, stun)
        if target.hidden:
            # Capped or not would tell how the LETHAL compares with the secret STUN.
            text += f", {say('{n} LETHAL', n=secret(f'{lethal} → {capped}' if capped < lethal else lethal, target))}"
        elif capped < lethal:
            text += f", {say('{n} LETHAL → {capped} (no more than the STUN)', n=lethal, capped=capped)}"
        else:
            text += f", {say('{n} LETHAL', n=lethal)}"
        lethal = capped
    return Dealt(stun, lethal, text)


def kind_of(harm: Harm) -> str:
    """`physical (fire) STUN`: the STUN's category and damage type, those it has."""
    category = term(harm.category) if harm.category != "none" else ""
    if category and harm.dtype:
        return say("{category} ({dtype}) STUN", category=category, dtype=term(harm.dtype))
    if category:
        return say("{category} STUN", category=category)
    if harm.dtype:
        return say("({dtype}) STUN", dtype=term(harm.dtype))
    return say("STUN")


def take(target: TowersCombatant, stun: int, lethal: int) -> tuple[TowersCombatant, str]:
    """Apply STUN and LETHAL, temporary first; report the new state."""
    from_temp = min(target.temp_stun, stun)
    new_stun = max(0, target.stun - (stun - from_temp))
    temp_lethal_used = min(target.temp_lethal, lethal)
    new_lethal = target.lethal - (lethal - temp_lethal_used)
    after = target.but(
        stun=new_stun,
        temp_stun=target.temp_stun - from_temp,
        lethal=new_lethal,
        temp_lethal=target.temp_lethal - temp_lethal_used,
    )
    if after.unconscious and not target.unconscious:
        after = after.but(prone=True)
    if after.health <= after.death_at:
        after = after.but(out=True)
    return after, condition_text(target, after)


def condition_text(before: TowersCombatant, after: TowersCombatant) -> str:
    def n(value: int) -> str:
        return secret(value, after)

    parts = []
    stun_changed = before.stun != after.stun or before.temp_stun != after.temp_stun
    lethal_changed = before.lethal != after.lethal or before.temp_lethal != after.temp_lethal
    if stun_changed or not lethal_changed:
        line = say("STUN {was} → {now}/{most}", was=n(before.stun), now=n(after.stun), most=n(after.sheet.stun))
        if before.temp_stun != after.temp_stun:
            line += f" {say('(temporary {was} → {now})', was=n(before.temp_stun), now=n(after.temp_stun))}"
        parts.append(line)
    if lethal_changed:
        line = say("LETHAL {was} → {now}/{most}", was=n(before.lethal), now=n(after.lethal), most=n(after.sheet.lethal))
        if before.temp_lethal != after.temp_lethal:
            line += f" {say('(temporary {was} → {now})', was=n(before.temp_lethal), now=n(after.temp_lethal))}"
        parts.append(line)
    new = [s for s in after.states() if s not in before.states()]
    if after.out and not before.out:
        new = [
            say(
                "dead (LETHAL {lethal} ≤ -2 × Endurance {endurance})",
                lethal=n(after.health),
                endurance=n(after.sheet.endurance),
            )
        ]
    else:
        if "unconscious" in new:
            new = [say("unconscious and prone") if s == "unconscious" else s for s in new if s != "prone"]
        if after.dying:
            # A dying character's table needs the line they must not cross.
            where = n(after.death_at)
            if "dying" in new:
                new = [say("dying (dies at LETHAL {at})", at=where) if s == "dying" else s for s in new]
            else:
                new = [say("still dying (dies at LETHAL {at})", at=where)] + new
    text = f"{after.name}: " + ", ".join(parts)
    if new:
        text += " — " + ", ".join(term(s) for s in new)
    return text


def heal(target: TowersCombatant, stun: int = 0, lethal: int = 0) -> tuple[TowersCombatant, str]:
    """Healing never restores temporary values and never passes the maximum."""
    after = target.but(
        stun=max(target.stun, min(target.sheet.stun, target.stun + stun)),
        lethal=max(target.lethal, min(target.sheet.lethal, target.lethal + lethal)),
    )

    def n(value: int) -> str:
        return secret(value, target)

    text = f"{target.name}: " + say(
        "STUN {was} → {now}/{most}", was=n(target.stun), now=n(after.stun), most=n(after.sheet.stun)
    )
    if lethal:
        text += ", " + say(
            "LETHAL {was} → {now}/{most}", was=n(target.lethal), now=n(after.lethal), most=n(after.sheet.lethal)
        )
    if target.unconscious and not after.unconscious:
        text += f" — {say('conscious again (still prone)')}"
    return after, text
