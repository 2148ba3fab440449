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
from rules.said import EMPTY, Text, joined, say, seq, term
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
    shown: Text = EMPTY  # the base as players should read it, e.g. "Axe 4 + PX 2 = 6"
    secret_base: bool = False  # the base comes from a hidden attacker's sheet: its totals are secret


@dataclass(frozen=True, slots=True)
class Dealt:
    stun: int
    lethal: int
    text: Text
    immune: bool = False

    def result(self, state: Text) -> Text:
        """The damage and the target's new state; immunity is said once, with no state (nothing changed)."""
        return seq(self.text, ".") if self.immune else seq(self.text, " → ", state)


def resilience(target: TowersCombatant, category: str) -> tuple[int, str]:
    if category == "physical":
        return target.sheet.er, "ER"
    if category == "arcane":
        return target.sheet.ir, "IR"
    return 0, ""


def dealt(harm: Harm, target: TowersCombatant) -> Dealt:
    if target.immune_to(harm.dtype):
        immune = say("{who} is immune to {dtype}: no damage", who=target.name, dtype=term(harm.dtype))
        return Dealt(0, 0, immune, immune=True)
    raw = harm.base + harm.hearts
    steps: Text = harm.shown or secret(harm.base, harm.secret_base)
    if harm.hearts:
        steps = seq(steps, f" + {harm.hearts}♥ = ", secret(raw, harm.secret_base))
    resist, label = resilience(target, harm.category)
    stun = raw - resist
    if target.hidden and label:
        # Always the step, the minimum inside its secret: neither a missing step
        # (0) nor "minimum 1" may tell players anything about the hidden Resilience.
        after: Text = seq(str(stun))
        if harm.minimum and stun < 1:
            stun = 1
            after = seq(after, " → ", say("minimum {n}", n=1))
        steps = seq(steps, " − ", term(label), " ", secret(resist, target), " = ", secret(after, target))
    else:
        if resist:
            steps = seq(steps, " − ", term(label), f" {resist} = {stun}")
        if harm.minimum and stun < 1:
            stun = 1
            steps = seq(steps, " → ", say("minimum {n}", n=1))
    lethal = harm.hearts + harm.extra_lethal
    if target.susceptible_to(harm.dtype):
        stun, lethal = stun * 2, lethal * 2
        steps = seq(steps, " ", say("×2 susceptible = {stun}", stun=secret(stun, target)))
    stun = max(0, stun)
    text = seq(steps, " ", kind_of(harm))
    if lethal:
        capped = min(lethal, stun)
        if target.hidden:
            # Capped or not would tell how the LETHAL compares with the secret STUN.
            shown = secret(f"{lethal} → {capped}" if capped < lethal else lethal, target)
            text = seq(text, ", ", say("{n} LETHAL", n=shown))
        elif capped < lethal:
            text = seq(text, ", ", say("{n} LETHAL → {capped} (no more than the STUN)", n=lethal, capped=capped))
        else:
            text = seq(text, ", ", say("{n} LETHAL", n=lethal))
        lethal = capped
    return Dealt(stun, lethal, text)


def kind_of(harm: Harm) -> Text:
    """`physical (fire) STUN`: the STUN's category and damage type, those it has."""
    category = term(harm.category) if harm.category != "none" else None
    if category is not None and harm.dtype:
        return say("{category} ({dtype}) STUN", category=category, dtype=term(harm.dtype))
    if category is not None:
        return say("{category} STUN", category=category)
    if harm.dtype:
        return say("({dtype}) STUN", dtype=term(harm.dtype))
    return say("STUN")


def take(target: TowersCombatant, stun: int, lethal: int) -> tuple[TowersCombatant, Text]:
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


def condition_text(before: TowersCombatant, after: TowersCombatant) -> Text:
    def n(value: int) -> Text:
        return secret(value, after)

    parts: list[Text] = []
    stun_changed = before.stun != after.stun or before.temp_stun != after.temp_stun
    lethal_changed = before.lethal != after.lethal or before.temp_lethal != after.temp_lethal
    if stun_changed or not lethal_changed:
        line: Text = say("STUN {was} → {now}/{most}", was=n(before.stun), now=n(after.stun), most=n(after.sheet.stun))
        if before.temp_stun != after.temp_stun:
            line = seq(line, " ", say("(temporary {was} → {now})", was=n(before.temp_stun), now=n(after.temp_stun)))
        parts.append(line)
    if lethal_changed:
        line = say("LETHAL {was} → {now}/{most}", was=n(before.lethal), now=n(after.lethal), most=n(after.sheet.lethal))
        if before.temp_lethal != after.temp_lethal:
            line = seq(line, " ", say("(temporary {was} → {now})", was=n(before.temp_lethal), now=n(after.temp_lethal)))
        parts.append(line)
    new = [s for s in after.states() if s not in before.states()]
    shown: list[Text] = []
    if after.out and not before.out:
        shown = [
            say(
                "dead (LETHAL {lethal} ≤ −2 × Endurance {endurance})",
                lethal=n(after.health),
                endurance=n(after.sheet.endurance),
            )
        ]
    else:
        if after.dying and "dying" not in new:
            # A dying character's table needs the line they must not cross.
            shown.append(say("still dying (dies at LETHAL {at})", at=n(after.death_at)))
        for state in new:
            if state == "unconscious":
                shown.append(say("unconscious and prone"))
            elif state == "prone" and "unconscious" in new:
                continue
            elif state == "dying" and after.dying:
                shown.append(say("dying (dies at LETHAL {at})", at=n(after.death_at)))
            else:
                shown.append(term(state))
    text = seq(after.name, ": ", joined(", ", parts))
    if shown:
        text = seq(text, " — ", joined(", ", shown))
    return text


def heal(target: TowersCombatant, stun: int = 0, lethal: int = 0) -> tuple[TowersCombatant, Text]:
    """Healing never restores temporary values and never passes the maximum."""
    after = target.but(
        stun=max(target.stun, min(target.sheet.stun, target.stun + stun)),
        lethal=max(target.lethal, min(target.sheet.lethal, target.lethal + lethal)),
    )

    def n(value: int) -> Text:
        return secret(value, target)

    text = seq(
        target.name,
        ": ",
        say("STUN {was} → {now}/{most}", was=n(target.stun), now=n(after.stun), most=n(after.sheet.stun)),
    )
    if lethal:
        text = seq(
            text,
            ", ",
            say("LETHAL {was} → {now}/{most}", was=n(target.lethal), now=n(after.lethal), most=n(after.sheet.lethal)),
        )
    if target.unconscious and not after.unconscious:
        text = seq(text, " — ", say("conscious again (still prone)"))
    return after, text
