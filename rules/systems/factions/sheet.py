"""A character sheet: three roll-under attributes, health, grit, armour,
size and the weapons a character carries.

Weapons are written on one line so that `/character add` can take them:
`weapons="sword:d6, bow:d6:8, firebomb:d6:2:blast, greataxe:d8:great"` —
name, damage die, then in any order a range (a number of zones; none means
melee), `blast`, and `great` for a two-handed weapon.
"""

from __future__ import annotations

import builtins
import re

from pydantic import Field, ValidationInfo, field_validator

from rules.entering import entered
from rules.errors import InvalidInput
from rules.model import Value
from rules.said import N_, joined, say, seq, term
from rules.secrets import secret
from rules.text import Raw, Text
from rules.usertext import Typed, mark, quoted, user_text

SIZES = (N_("tiny"), N_("small"), N_("medium"), N_("large"), N_("massive"))

UNARMED_NAME = "unarmed"
UNARMED_WORDS = (UNARMED_NAME, "fist", "fists")  # what an attack may name for bare hands, after the sheet's weapons
_DIE = re.compile(r"^d(4|6|8|10|12|20)$")


class Weapon(Value):
    name: Typed
    die: int = 6
    range: int = 0  # 0: a melee weapon
    blast: bool = False
    great: bool = False  # needs both hands: a grabbing character cannot wield it

    @property
    def ranged(self) -> bool:
        return self.range > 0

    @property
    def label(self) -> Text:
        """The weapon's name as shown: typed, save bare hands, which are the rules' word."""
        return say("unarmed") if self.name == UNARMED_NAME else mark(self.name)

    def describe(self, hidden: object = False) -> Text:
        """`hidden`: the wielder, whose sheet's die and range are secret if it is hidden."""
        extras: list[Text] = [say("range {zones}", zones=secret(self.range, hidden))] if self.ranged else []
        extras += [say("blast")] if self.blast else []
        extras += [say("great")] if self.great else []
        shown = seq(", ", joined(", ", extras)) if extras else ""
        return seq(self.label, " (d", self.die_shown(self.die, hidden), shown, ")")

    def die_shown(self, die: int, hidden: object = False) -> Text:
        """The die rolled with this weapon: secret when it is the hidden wielder's own
        sheet die (unarmed, or an impaired d4 or enhanced d12 that differs, is no secret)."""
        own = die == self.die and self.name != UNARMED_NAME
        return secret(die, hidden) if own else Raw(builtins.str(die))


UNARMED = Weapon(name=UNARMED_NAME, die=4)


def parse_weapons(text: builtins.str, typed_now: bool = False) -> tuple[Weapon, ...]:
    """`typed_now`: typed now, so a part given twice is refused; a sheet stored before that check reads as it
    did, the last of the two winning (rules/entering.py)."""
    weapons: list[Weapon] = []
    for chunk in (text or "").replace(";", ",").split(","):
        parts = [p.strip() for p in chunk.split(":") if p.strip()]
        if not parts:
            continue
        name = parts[0]
        if len(name) > 30:
            raise InvalidInput(say("Weapon names are limited to 30 characters ({name}).", name=f"`{name[:30]}…`"))
        if name.casefold() == UNARMED_NAME:
            # The rules' bare hands roll d4 whatever a sheet says: a weapon of that name could not be used as written.
            raise InvalidInput(
                say("{name} is the rules' word for bare hands (d4): give the weapon another name.", name=f"`{name}`")
            )
        if any(w.name.casefold() == name.casefold() for w in weapons):
            # An attack names its weapon: the second of two of one name could never be the one used.
            raise InvalidInput(say("{name} is named twice: give each weapon its own name.", name=f"`{name}`"))
        die, rng, blast, great = 6, 0, False, False
        given: set[builtins.str] = set()
        for part in parts[1:]:
            low = part.lower()
            kind = "die" if _DIE.match(low) else "range" if low.isascii() and low.isdigit() else low
            if typed_now and kind in given:
                # `great:great` or a second die or range: one of the two would be dropped without a word.
                raise InvalidInput(
                    say(
                        "{part} in weapon {name} repeats a part given before: write each part once, e.g. "
                        "`bow:d6:8` (name, damage die, range in zones, then `blast` or `great`).",
                        part=quoted(part, 20),
                        name=f"`{name}`",
                    )
                )
            given.add(kind)
            if _DIE.match(low):
                die = int(low[1:])
            elif low.isascii() and low.isdigit():  # `²` passes isdigit() but not int()
                rng = int(low)
            elif low == "blast":
                blast = True
            elif low == "great":
                great = True
            else:
                raise InvalidInput(
                    say(
                        "Could not read {part} in weapon {name}: write e.g. `bow:d6:8` "
                        "(name, damage die, range in zones, then `blast` or `great`).",
                        part=quoted(part, 20),
                        name=f"`{name}`",
                    )
                )
        if rng > 100:
            raise InvalidInput(say("{name}: a range is at most 100 zones.", name=user_text(name)))
        weapons.append(Weapon(name=name, die=die, range=rng, blast=blast, great=great))
    if len(weapons) > 10:
        raise InvalidInput(say("A character carries at most 10 weapons."))
    return tuple(weapons)


class FactionsSheet(Value):
    str: int = Field(10, ge=1, le=20, description=N_("Strength: STR saves roll a d20 at or under it"))
    agi: int = Field(10, ge=1, le=20, description=N_("Agility: AGI saves (dodge, chase) roll at or under it"))
    wit: int = Field(10, ge=1, le=20, description=N_("Wits: WIT saves (hard shots, morale) roll at or under it"))
    health: int = Field(8, ge=1, le=999, description=N_("Health: damage reaching it incapacitates; 0 is death"))
    grit: int = Field(0, ge=0, le=999, description=N_("Grit: a buffer damage takes first (0 for mooks)"))
    armour: int = Field(0, ge=0, le=3, description=N_("Armour: taken off each hit's damage"))
    size: builtins.str = Field("medium", description=N_("Size: tiny, small, medium, large or massive"))
    weapons: builtins.str = Field(
        "", description=N_("Weapons: name:die[:range][:blast][:great], comma-separated, e.g. bow:d6:8")
    )
    fearless: bool = Field(False, description=N_("Immune to fear, hence to morale"))
    concealed: bool = Field(False, description=N_("Launches an ambush: plays the bonus round"))

    @field_validator("size")
    @classmethod
    def _size(cls, value: builtins.str) -> builtins.str:
        value = value.strip().lower()
        if value not in SIZES:
            raise ValueError(say("size must be one of {sizes}", sizes=joined(", ", (term(size) for size in SIZES))))
        return value

    @field_validator("weapons")
    @classmethod
    def _weapons(cls, value: builtins.str, info: ValidationInfo) -> builtins.str:
        parse_weapons(value, entered(info))  # its refusal is a sentence of its own, said as it is
        return value
