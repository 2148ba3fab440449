"""What a Fightin' Words character sheet holds and what the bot tracks live."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from rules.dice import check_expression
from rules.entering import entered
from rules.errors import InvalidInput
from rules.model import Combatant, Encounter, Value
from rules.said import N_, say
from rules.turns.seconds import SecondsState
from rules.usertext import Typed, quoted

REACHES = ("close", "standard", "long")
MOBILITY = "mobility penalty"  # counted on the fighter, not kept as a condition


class Weapon(Value):
    name: Typed
    damage: str
    reach: str = "standard"  # melee weapons
    increment: int | None = None  # ranged weapons: metres per range increment
    magic: bool = False

    @property
    def ranged(self) -> bool:
        return self.increment is not None


UNARMED = Weapon(name="unarmed", damage="1d4", reach="close")


def parse_weapons(text: str) -> tuple[Weapon, ...]:
    """`arming sword:1d8; heavy crossbow:1d10:15; firebolt:2d6:20:magic`."""
    weapons = []
    for part in re.split(r"[;|]", text or ""):
        bits = [b.strip() for b in part.split(":")]
        if not bits or not bits[0]:
            continue
        if len(bits) < 2 or not bits[1]:
            raise InvalidInput(
                say(
                    "Weapon {weapon} needs a damage expression: write `name:damage[:reach or range in m][:magic]`, "
                    'e.g. `weapons="arming sword:1d8;heavy crossbow:1d10:15"`.',
                    weapon=quoted(bits[0]),
                )
            )
        weapon = {"name": bits[0], "damage": bits[1]}
        for extra in bits[2:]:
            word = extra.lower()
            if word == "magic":
                weapon["magic"] = True
            # ASCII digits only: `²` passes isdigit() but not int()
            elif word.rstrip("m").isascii() and word.rstrip("m").isdigit():
                weapon["increment"] = max(1, int(word.rstrip("m")))
            elif word and word.split()[0] in REACHES:
                weapon["reach"] = word
            elif word:
                raise InvalidInput(
                    say(
                        "{extra} in weapon {weapon} is neither a reach (close, standard, long N), "
                        "a range increment in metres, nor `magic`.",
                        extra=quoted(extra, 20),
                        weapon=quoted(bits[0]),
                    )
                )
        weapons.append(Weapon(**weapon))
    return tuple(weapons)


# Far past any creature the seed describes: the bounds keep initiative keys and sums exact (as floats too).
LOW, HIGH = -1000, 1000
SCALE_LOW, SCALE_HIGH = -5, 10


class Sheet(Value):
    reflex: int = Field(0, ge=LOW, le=HIGH, description=N_("Reflex: initiative, Dodge and Reflex checks"))
    dex: int = Field(0, ge=LOW, le=HIGH, description=N_("Dexterity: added to initiative"))
    strength: int = Field(3, ge=LOW, le=HIGH, description=N_("Strength: added to melee damage"))
    endurance: int = Field(3, ge=LOW, le=HIGH, description=N_("Endurance: adds to Toughness; dying checks"))
    spirit: int = Field(3, ge=LOW, le=HIGH, description=N_("Spirit: Will is Spirit + 6; Broken checks"))
    scale: int = Field(0, ge=SCALE_LOW, le=SCALE_HIGH, description=N_("size: −1 cat, 0 human, 1 horse… up to 10"))
    # best Defence bonus (armour, natural, durability…): they do not stack
    defence: int = Field(
        0, ge=LOW, le=HIGH, description=N_("best Defence bonus (armour, natural…), added to Toughness")
    )
    # Discipline and other Will modifiers
    will_bonus: int = Field(0, ge=LOW, le=HIGH, description=N_("Will modifiers such as Discipline"))
    weapon_skill: int = Field(0, ge=LOW, le=HIGH, description=N_("Weapon Skill bonus: melee attacks and Parry"))
    ranged_skill: int = Field(0, ge=LOW, le=HIGH, description=N_("Ranged Skill bonus: ranged attacks"))
    magic_skill: int = Field(0, ge=LOW, le=HIGH, description=N_("Magic Skill bonus: attack spells"))
    block: int = Field(0, ge=LOW, le=HIGH, description=N_("Block defence bonus (Shield Use)"))
    # The seed rolls Dodge with the Reflex skill and Parry with Weapon Skill: these only override them.
    dodge: int | None = Field(None, ge=LOW, le=HIGH, description=N_("Dodge defence bonus (empty: Reflex)"))
    parry: int | None = Field(None, ge=LOW, le=HIGH, description=N_("Parry defence bonus (empty: Weapon Skill)"))
    fortitude: int = Field(0, ge=LOW, le=HIGH, description=N_("Fortitude bonus (checks add scale)"))
    weapons: str = Field("", description=N_("name:damage[:reach or range in m][:magic]; several split by ;"))

    @field_validator("weapons")
    @classmethod
    def _weapons(cls, value: str, info: ValidationInfo) -> str:
        # A refusal (a RulesError) passes through whole: the sheet says its own sentence, full stop included.
        weapons = parse_weapons(value)
        if entered(info):
            # refused as the sheet is entered, not on the first hit: a weapon's damage is rolled only when it hits
            for weapon in weapons:
                check_expression(weapon.damage)
        return value

    @field_validator("scale")
    @classmethod
    def _scale(cls, value: int) -> int:
        if not -1 <= value <= 10:
            raise ValueError(say("scale runs from -1 (cat) to 10"))
        return value


class Condition(Value):
    name: str
    rounds: int | None = None  # None: until removed (or until its own rule ends it)
    note: str = ""
    # Put on after the bearer's turn this round: its rounds count from the bearer's next turn,
    # so the end of this round does not take one off ("staggered for one round" must cost a turn).
    waiting: bool = False


class DelayedEffect(Value):
    """Something that goes off after a number of its owner's own seconds."""

    what: Typed
    seconds: int  # still to run, counting the casting seconds not yet spent
    delay: int
    target: str | None = None


class Fighter(Combatant):
    sheet: Sheet = Sheet()
    wounds: int = 0
    morale_penalties: int = 0
    mobility_penalties: int = 0  # "Multiple mobility penalties stack"
    dying: bool = False
    dying_dc: int = 4
    stable: bool = False  # stabilised: unconscious, no longer dying
    dead: bool = False
    broken_dc: int = 10
    posture: Literal["standing", "crouching", "prone"] = "standing"
    aimed: bool = False
    mounted: bool = False
    conditions: tuple[Condition, ...] = ()
    effects: tuple[DelayedEffect, ...] = ()
    notes: tuple[str, ...] = ()  # lasting called-shot effects the GM applies (speed, grip…)

    @model_validator(mode="before")
    @classmethod
    def _counted_mobility(cls, data: Any) -> Any:
        # A fight stored before mobility penalties were counted holds one as a condition.
        if not isinstance(data, dict) or not data.get("conditions"):
            return data
        conditions = tuple(data["conditions"])
        kept = tuple(c for c in conditions if (c.get("name") if isinstance(c, dict) else c.name) != MOBILITY)
        if len(kept) == len(conditions):
            return data
        return data | {"conditions": kept, "mobility_penalties": data.get("mobility_penalties", 0) + 1}


class FightEncounter(Encounter):
    combatants: tuple[Fighter, ...] = ()
    turns: SecondsState
