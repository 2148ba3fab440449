"""Dice pools: d6s, each 6 a success; stress dice and the conditions they cause."""

from __future__ import annotations

from dataclasses import dataclass

from ...randomness import Chance
from ...secrets import secret
from .model import CONDITIONS, MAX_LEVEL, FrozenCombatant

SUCCESS = 6
EFFECTS = {"exhaustion": "−1 action a round", "dazed": "−1 reaction a round", "fear": "−1 success on every roll"}


@dataclass(frozen=True, slots=True)
class Pool:
    parts: tuple[tuple[str, int], ...]  # ("Melee", 3), ("weapon", 2), ("close range", -3)…
    attribute: str

    @property
    def size(self) -> int:
        return max(0, sum(n for _, n in self.parts))

    def describe(self, hidden=False) -> str:
        """The parts; `hidden` (a hidden roller) keeps their numbers for the GM."""
        shown = [
            f"{label} {secret(n, hidden)}" if i == 0 else f"{'+' if n >= 0 else '−'} {label} {secret(abs(n), hidden)}"
            for i, (label, n) in enumerate(self.parts)
            if n or i == 0
        ]
        return " ".join(shown)


@dataclass(frozen=True, slots=True)
class PoolRoll:
    dice: tuple[int, ...]
    stress: tuple[int, ...]
    fear: int
    crit_faces: tuple[int, ...]

    @property
    def sixes(self) -> int:
        return sum(1 for d in self.dice if d >= SUCCESS)

    @property
    def successes(self) -> int:
        return max(0, self.sixes - self.fear)

    @property
    def wp(self) -> int:
        return sum(1 for d in self.stress if d >= SUCCESS)

    @property
    def criticals(self) -> int:
        return sum(1 for d in self.stress if d in self.crit_faces)

    def text(self, pool: Pool, hidden=False) -> str:
        """The roll; `hidden` (a hidden roller, or True) keeps its pool, dice and Fear for the GM.

        The successes stay public: they are the roll's outcome, not the roller's numbers.
        """
        text = (
            f"{pool.describe(hidden)} = {secret(len(self.dice), hidden)}d6 "
            f"({secret(', '.join(map(str, self.dice)) or '–', hidden)})"
        )
        if self.stress:
            text += (
                f" + stress {secret(len(self.stress), hidden)}d6 ({secret(', '.join(map(str, self.stress)), hidden)})"
            )
        fear = bool(self.fear and self.sixes)
        # With Fear shown, the sixes before it would give its level away.
        text += f" → {secret(self.sixes, hidden) if fear else self.sixes} success{'es' if self.sixes != 1 else ''}"
        if fear:
            text += f" − Fear {secret(self.fear, hidden)} = {self.successes}"
        return text


def crit_faces(enc) -> tuple[int, ...]:
    """A 1 is a critical failure by default; the campaign may count every failure."""
    return (1, 2, 3, 4, 5) if enc.options.get("any_failure_critical") else (1,)


def roll(enc, combatant: FrozenCombatant, pool: Pool, chance: Chance) -> PoolRoll:
    """Roll the pool, then the stress dice (hand-entered dice in that order)."""
    dice = chance.pool(pool.size, 6)
    stress = chance.pool(combatant.stress_dice(), 6) if not combatant.enemy else ()
    return PoolRoll(dice, stress, combatant.fear, crit_faces(enc))


def settle_stress(
    combatant: FrozenCombatant, result: PoolRoll, attribute: str
) -> tuple[FrozenCombatant, list[str], bool]:
    """WP from stress sixes; a critical failure raises the attribute's condition.

    Returns (combatant, notes, broke): `broke` means a condition went over
    level 3, so the character is broken and suffers a critical injury.
    """
    notes: list[str] = []
    hidden = combatant.hidden
    if result.wp:
        combatant = combatant.but(wp=combatant.wp + result.wp)
        notes.append(f"stress success → +{secret(result.wp, hidden)} WP")
    if not result.criticals:
        return combatant, notes, False
    condition = CONDITIONS[attribute]
    level = getattr(combatant, condition)
    crits = result.criticals
    label = condition.capitalize()
    plural = "s" if crits != 1 else ""
    count, shown = secret(crits, hidden), secret(level, hidden)
    if crits <= level:
        combatant = combatant.but(stress=combatant.stress + 1)
        notes.append(
            f"{count} critical failure{plural} ≤ {label} {shown} → +1 Stress ({secret(combatant.stress, hidden)})"
        )
        return combatant, notes, False
    if level + 1 > MAX_LEVEL:
        notes.append(
            f"{count} critical failure{plural} > {label} {shown} → above level {MAX_LEVEL}: broken and a critical "
            "injury"
        )
        return combatant, notes, True
    combatant = combatant.but(**{condition: level + 1})
    if condition == "exhaustion":
        combatant = combatant.but(actions_left=max(0, combatant.actions_left - 1))
    elif condition == "dazed":
        combatant = combatant.but(reactions_left=max(0, combatant.reactions_left - 1))
    notes.append(
        f"{count} critical failure{plural} > {label} {shown} → {label} {secret(level + 1, hidden)} "
        f"({attribute.upper()}: {EFFECTS[condition]})"
    )
    return combatant, notes, False
