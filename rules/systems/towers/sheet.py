"""A 99 Towers character sheet: Combat Values, Aspects, weapons, damage types.

Weapons are written on one line, `;` between weapons, the name before `:` and
free-order words after it, e.g.
`Heavy Rifle: 7 r12 two-handed; Longblade: 4+px +1pa melee; Bolt of Fire: 6 sa arcane fire`.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from rules.model import Value
from rules.said import N_, Text, joined, say, seq, term
from rules.usertext import Typed, mark, quoted, user_text

CATEGORIES = (N_("physical"), N_("arcane"))  # a weapon's damage category, as the lines say it
NO_CATEGORY = ("none", "untyped")  # the words that clear it

DAMAGE_TYPES = (
    N_("acid"),
    N_("cold"),
    N_("electricity"),
    N_("fire"),
    N_("poison"),
    N_("psychic"),
    N_("lightning"),
    N_("sonic"),
    N_("necrotic"),
    N_("holy"),
)
MAX_WEAPONS = 12

_DAMAGE = re.compile(r"^(\d+)?(?:\+?(px|hs))?(?:\+(\d+))?$")
_CARDS = re.compile(r"^(?:\+?(\d+)\+?(pa|sa)|(pa|sa)\+(\d+)|(pa|sa))$")
_RANGE = re.compile(r"^(?:r|range=?|max=?)(\d+)$")


class Weapon(Value):
    name: Typed
    damage: int = 0
    adds: Literal["", "px", "hs"] = ""  # melee weapons add the wielder's PX; improvised ones Hard Strength
    cards: int = 0  # a profile's `1+PA`: that many more attack cards
    stat: Literal["pa", "sa"] = "pa"
    category: Literal["physical", "arcane", "none"] = "physical"
    dtype: Typed = ""
    range: int = 0  # PA weapons: range increment in spaces; SA: maximum range; 0 = melee
    keywords: tuple[str, ...] = ()
    # An opportunity attack with a ranged weapon strikes with its butt, unarmed: `name` is the weapon's.
    butt: bool = False

    @property
    def melee(self) -> bool:
        return self.range == 0

    @property
    def perception(self) -> bool:
        return "perception" in self.keywords

    @property
    def shown(self) -> Text:
        """The weapon's name in a line: the typed name, or what an opportunity attack strikes with."""
        return say("{weapon} butt (unarmed)", weapon=self.name) if self.butt else mark(self.name)

    def base_damage(self, px: int, hs: int) -> int:
        return self.damage + {"px": px, "hs": hs, "": 0}[self.adds]

    def profile(self) -> Text:
        parts = [seq(str(self.damage), "+", term(self.adds.upper())) if self.adds else seq(str(self.damage))]
        parts.append(term(self.category) if not self.dtype else seq(term(self.category), " (", term(self.dtype), ")"))
        if self.range:
            if self.stat == "pa":
                parts.append(say("range increment {n}", n=self.range))
            else:
                parts.append(say("range {n}", n=self.range))
        return seq(self.shown, " [", joined(", ", parts), "]")


UNARMED = Weapon(name="Unarmed", adds="hs", keywords=("unarmed",))


def stat_label(stat: str) -> Text:
    """A stat as the lines name it: the seed's capitals (PD, SS…), but Endurance, which the seed
    writes out, as a word."""
    return term(N_("Endurance")) if stat == "endurance" else term(stat.upper())


def parse_weapon(text: str) -> Weapon:
    name, _, rest = text.partition(":")
    name = " ".join(name.split())
    if not name:
        raise ValueError(say("a weapon needs a name before `:` (got {text})", text=quoted(text.strip())))
    fields: dict = {"name": name[:40]}
    keywords: list[str] = []
    for word in rest.lower().split():
        if (m := _DAMAGE.match(word)) and any(m.groups()):
            fields["damage"] = int(m.group(1) or 0) + int(m.group(3) or 0)
            fields["adds"] = m.group(2) or ""
        elif m := _CARDS.match(word):
            if m.group(5):
                fields["stat"] = m.group(5)
            else:
                fields["stat"] = m.group(2) or m.group(3)
                fields["cards"] = int(m.group(1) or m.group(4))
        elif m := _RANGE.match(word):
            fields["range"] = int(m.group(1))
        elif word in CATEGORIES:
            fields["category"] = word
        elif word in NO_CATEGORY:
            fields["category"] = "none"
        elif word.startswith("type="):
            fields["dtype"] = word[5:]
        elif word in DAMAGE_TYPES:
            fields["dtype"] = word
        elif word != "melee":
            keywords.append(word)
    fields["keywords"] = tuple(keywords)
    return Weapon(**fields)


def parse_weapons(text: str) -> tuple[Weapon, ...]:
    parts = [p for p in (text or "").split(";") if p.strip()]
    if len(parts) > MAX_WEAPONS:
        raise ValueError(say("at most {n} weapons", n=MAX_WEAPONS))
    return tuple(parse_weapon(p) for p in parts)


def words(text: str) -> tuple[str, ...]:
    return tuple(w for w in re.split(r"[\s,;]+", (text or "").lower()) if w)


def damage_words(found, category: str, skip: tuple[str, ...] = ()) -> tuple[str, str]:
    """(category, damage type) from words such as `arcane cold`: `physical` or
    `arcane` names the category, `none`/`untyped` clears it, and any other word
    not in `skip` is the damage type (the last one wins)."""
    dtype = ""
    for word in found:
        if word in CATEGORIES:
            category = word
        elif word in NO_CATEGORY:
            category = "none"
        elif word not in skip:
            dtype = word
    return category, user_text(dtype)


class TowersSheet(Value):
    init: int = Field(1, ge=0, le=30, description=N_("Initiative ⟨N⟩: cards flipped for initiative, then added"))
    ss: int = Field(1, ge=0, le=30, description=N_("Soft Strength: added to PD once you have acted; breaks ties"))
    hs: int = Field(1, ge=0, le=30, description=N_("Hard Strength: unarmed damage, grapples"))
    pa: int = Field(2, ge=0, le=30, description=N_("Physical Attack: cards flipped to attack with a weapon"))
    sa: int = Field(0, ge=0, le=30, description=N_("Spell Attack: cards flipped to attack with a spell"))
    pd: int = Field(2, ge=0, le=30, description=N_("Physical Defense: cards flipped against a PA attack"))
    id: int = Field(2, ge=0, le=30, description=N_("Intangible Defense: cards flipped against a spell"))
    px: int = Field(0, ge=0, le=30, description=N_("Physical Damage: added to a melee weapon's damage"))
    er: int = Field(0, ge=0, le=30, description=N_("External Resilience: taken off physical STUN"))
    ir: int = Field(0, ge=0, le=30, description=N_("Internal Resilience: taken off arcane STUN"))
    endurance: int = Field(1, ge=0, le=30, description=N_("External Endurance: STUN healed by Recover; resists poison"))
    stun: int = Field(10, ge=1, le=500, description=N_("STUN at full health (0: unconscious)"))
    lethal: int = Field(5, ge=1, le=500, description=N_("LETHAL at full health (0: disabled, below 0: dying)"))
    size: int = Field(0, ge=-4, le=4, description=N_("Size rank: -4 minuscule, 0 medium, 4 colossal"))
    mana: int = Field(0, ge=0, le=30, description=N_("Mana pool of a caster (0: none)"))
    weapons: str = Field(
        "", description=N_("Weapons, `;` between them, e.g. `Rifle: 7 r12; Knife: 2+px +1pa; Bolt: 6 sa arcane fire`")
    )
    immune: str = Field("", description=N_("Damage types that harm it not at all, e.g. `fire poison`"))
    susceptible: str = Field("", description=N_("Damage types that harm it double, e.g. `cold`"))
    companion_of: str = Field("", description=N_("An animal companion: its master's name, whose activations it shares"))

    @field_validator("weapons")
    @classmethod
    def _weapons(cls, value: str) -> str:
        parse_weapons(value)
        return value
