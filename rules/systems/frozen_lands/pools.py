"""Dice pools: d6s, each 6 a success; stress dice and the conditions they cause."""

from __future__ import annotations

from dataclasses import dataclass

from ...randomness import Chance
from ...said import Text, joined, say, say_plural, seq, term
from ...secrets import secret
from ...text import as_text
from .model import CONDITIONS, MAX_LEVEL, FrozenCombatant

SUCCESS = 6
EFFECTS = {
    "exhaustion": say("−1 action a round"),
    "dazed": say("−1 reaction a round"),
    "fear": say("−1 success on every roll"),
}


@dataclass(frozen=True, slots=True)
class Pool:
    parts: tuple[tuple[Text, int], ...]  # ("Melee", 3), ("weapon", 2), ("close range", -3)…: said
    attribute: str
    # The last part is the GM's alone, what it is and its sign too: a hidden target's size ("large target").
    # The pool's count and its dice then stay the GM's as well, or counting them would tell it.
    veiled: bool = False

    @property
    def size(self) -> int:
        return max(0, sum(n for _, n in self.parts))

    def describe(self, hidden: object = False) -> Text:
        """The parts; `hidden` (a hidden roller) keeps their numbers for the GM."""
        last = len(self.parts) - 1
        shown = [
            seq(label, " ", secret(n, hidden))
            if i == 0
            else seq("+ ", secret(seq(label, " ", as_text(n)), True))
            if self.veiled and i == last
            else seq("+" if n >= 0 else "−", " ", label, " ", secret(abs(n), hidden))
            for i, (label, n) in enumerate(self.parts)
            if n or i == 0
        ]
        return joined(" ", shown)


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

    def text(self, pool: Pool, hidden: object = False) -> Text:
        """The roll; `hidden` (a hidden roller, or True) keeps its pool, dice and Fear for the GM.

        The successes stay public: they are the roll's outcome, not the roller's numbers.
        """
        faces = ", ".join(map(str, self.dice)) or "–"
        counted = True if pool.veiled else hidden
        parts: list[Text | str] = [
            pool.describe(hidden),
            " = ",
            secret(len(self.dice), counted),
            "d6 (",
            secret(faces, counted),
            ")",
        ]
        if self.stress:
            stress = say(
                "stress {count}d6 ({dice})",
                count=secret(len(self.stress), hidden),
                dice=secret(", ".join(map(str, self.stress)), hidden),
            )
            parts += [" + ", stress]
        fear = bool(self.fear and self.sixes)
        # With Fear shown, the sixes before it would give its level away.
        sixes = secret(self.sixes, hidden) if fear else self.sixes
        parts += [" → ", say_plural("{n} success", "{n} successes", self.sixes, n=sixes)]
        if fear:
            parts += [" − ", say("Fear {level}", level=secret(self.fear, hidden)), " = ", str(self.successes)]
        return seq(*parts)


def with_notes(text: Text, notes: list[Text]) -> Text:
    """The line, then each note after "; "."""
    return seq(text, *(seq("; ", note) for note in notes))


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
) -> tuple[FrozenCombatant, list[Text], bool]:
    """WP from stress sixes; a critical failure raises the attribute's condition.

    Returns (combatant, notes, broke): `broke` means a condition went over
    level 3, so the character is broken and suffers a critical injury.
    """
    notes: list[Text] = []
    hidden = combatant.hidden
    if result.wp:
        combatant = combatant.but(wp=combatant.wp + result.wp)
        notes.append(say("stress success → +{wp} WP", wp=secret(result.wp, hidden)))
    if not result.criticals:
        return combatant, notes, False
    condition = CONDITIONS[attribute]
    level = getattr(combatant, condition)
    crits = result.criticals
    values = dict(count=secret(crits, hidden), condition=term(condition.capitalize()), level=secret(level, hidden))
    counted = None if hidden else crits  # a hidden count's form must not tell it either
    if crits <= level:
        combatant = combatant.stressed(1)
        stress = secret(combatant.stress, hidden)
        notes.append(
            say_plural(
                "{count} critical failure ≤ {condition} {level} → +1 Stress ({stress})",
                "{count} critical failures ≤ {condition} {level} → +1 Stress ({stress})",
                counted,
                stress=stress,
                **values,
            )
        )
        return combatant, notes, False
    if level + 1 > MAX_LEVEL:
        notes.append(
            say_plural(
                "{count} critical failure > {condition} {level} → above level {most}: broken and a critical injury",
                "{count} critical failures > {condition} {level} → above level {most}: broken and a critical injury",
                counted,
                most=MAX_LEVEL,
                **values,
            )
        )
        return combatant, notes, True
    combatant = combatant.but(**{condition: level + 1})
    if condition == "exhaustion":
        combatant = combatant.but(actions_left=max(0, combatant.actions_left - 1))
    elif condition == "dazed":
        combatant = combatant.but(reactions_left=max(0, combatant.reactions_left - 1))
    raised = dict(new=secret(level + 1, hidden), attribute=term(attribute.upper()), effect=EFFECTS[condition])
    notes.append(
        say_plural(
            "{count} critical failure > {condition} {level} → {condition} {new} ({attribute}: {effect})",
            "{count} critical failures > {condition} {level} → {condition} {new} ({attribute}: {effect})",
            counted,
            **values,
            **raised,
        )
    )
    return combatant, notes, False
