"""The seed's weapon tables, and range categories."""

from __future__ import annotations

from ...errors import InvalidInput
from ...model import Value
from ...said import N_, joined, say, term
from ...usertext import listed, quoted, user_text

RANGES = (N_("close"), N_("short"), N_("medium"), N_("long"), N_("distant"))
# Translators: the ranges of a shot, nearest first (Close: within reach, not a verb)
SHOWN_RANGES = (N_("Close"), N_("Short"), N_("Medium"), N_("Long"), N_("Distant"))  # capitalised, for extraction


class Weapon(Value):
    name: str
    ranged: bool
    bonus: int
    damage: int
    reach: str = "close"  # the farthest range category it attacks at
    features: tuple[str, ...] = ()
    types: str = ""

    def has(self, feature: str) -> bool:
        return feature in self.features

    @property
    def one_handed(self) -> bool:
        return not self.has("Two-handed")


def _table(ranged: bool, rows: str) -> dict[str, Weapon]:
    table = {}
    for row in rows.strip().splitlines():
        name, bonus, damage, reach, features = (part.strip() for part in row.split("|"))
        types, *rest = [f.strip() for f in features.split(",")]
        table[name.casefold()] = Weapon(
            name=name,
            ranged=ranged,
            bonus=0 if bonus == "-" else int(bonus),
            damage=int(damage),
            reach="close" if reach == "-" else reach.lower(),
            features=tuple(rest),
            types=types,
        )
    return table


MELEE = _table(
    False,
    """
Unarmed          | -  | 1 | -     | B
Knife            | +1 | 1 | -     | S, Light, Throw
Dagger           | +1 | 1 | -     | S/P, Light, Throw
Falchion         | +1 | 2 | -     | S/P
Shortsword       | +2 | 1 | -     | S/P, Parrying
Broadsword       | +2 | 2 | -     | S/P, Parrying
Longsword        | +2 | 2 | -     | S/P, Heavy, Parrying
Two-Handed Sword | +2 | 3 | -     | S/P, Heavy, Two-handed, Parrying
Scimitar         | +1 | 2 | -     | S/P, Parrying
Handaxe          | +2 | 2 | -     | S, Throw
Battleaxe        | +2 | 2 | -     | S, Heavy
Two-Handed Axe   | +2 | 3 | -     | S, Heavy, Two-handed
Mace             | +2 | 1 | -     | B
Morningstar      | +2 | 2 | -     | B
Warhammer        | +2 | 2 | -     | B
Flail            | +1 | 2 | Short | B
Wooden club      | +1 | 1 | -     | B
Large Wooden club| +1 | 2 | -     | B, Heavy, Two-handed
Heavy Warhammer  | +2 | 3 | -     | B, Heavy, Two-handed
Staff            | +1 | 1 | Short | B, Two-handed, Parrying
Short Spear      | +1 | 1 | Short | P, Throw
Long Spear       | +2 | 1 | Short | P, Two-handed
Pike             | +2 | 2 | Short | P, Heavy, Two-handed
Halberd          | +1 | 2 | Short | S/P, Heavy, Two-handed
Trident          | +1 | 2 | Short | P, Two-handed
""",
)

RANGED = _table(
    True,
    """
Rock             | -  | 1 | Medium | B
Knife/Dagger     | +1 | 1 | Medium | S/P
Axe              | +1 | 2 | Medium | S
Spear            | +2 | 1 | Medium | P
Sling            | +1 | 1 | Medium | B, Reload
Short Bow        | +2 | 1 | Medium | P, Reload, Two-handed
Long Bow         | +2 | 1 | Long   | P, Reload, Two-handed
Light Crossbow   | +1 | 2 | Long   | P, Reload, Two-handed
Heavy Crossbow   | +1 | 3 | Long   | P, Reload, Two-handed, Heavy
""",
)

# The tables' weapon names and features as `term` shows them, written out for `pybabel extract`
# (tests/bot/test_catalog.py keeps them in step with the tables).
SHOWN_NAMES = (
    N_("Unarmed"),
    N_("Knife"),
    N_("Dagger"),
    N_("Falchion"),
    N_("Shortsword"),
    N_("Broadsword"),
    N_("Longsword"),
    N_("Two-Handed Sword"),
    N_("Scimitar"),
    N_("Handaxe"),
    N_("Battleaxe"),
    N_("Two-Handed Axe"),
    N_("Mace"),
    N_("Morningstar"),
    N_("Warhammer"),
    N_("Flail"),
    N_("Wooden club"),
    N_("Large Wooden club"),
    N_("Heavy Warhammer"),
    N_("Staff"),
    N_("Short Spear"),
    N_("Long Spear"),
    N_("Pike"),
    N_("Halberd"),
    N_("Trident"),
    N_("Rock"),
    N_("Knife/Dagger"),
    N_("Axe"),
    N_("Spear"),
    N_("Sling"),
    N_("Short Bow"),
    N_("Long Bow"),
    N_("Light Crossbow"),
    N_("Heavy Crossbow"),
)
SHOWN_FEATURES = (
    N_("Heavy"),
    # Translators: a weapon's feature: light in weight
    N_("Light"),
    N_("Parrying"),
    N_("Reload"),
    N_("Throw"),
    N_("Two-handed"),
)

# A thrown melee weapon uses its row of the ranged table.
THROWN = {"knife": "knife/dagger", "dagger": "knife/dagger", "handaxe": "axe", "short spear": "spear"}
ALIASES = {"knife": "knife/dagger", "dagger": "knife/dagger", "shortbow": "short bow", "longbow": "long bow"}

# Bows and slings must be reloaded in the turn they shoot; crossbows stay loaded.
KEEPS_LOAD = ("crossbow",)


def _key(name: str) -> str:
    return " ".join((name or "").replace("_", " ").split()).casefold()


def melee_row(name: str) -> Weapon | None:
    """The melee table's row a sheet's `weapon` or `offhand` names, None for any other name."""
    return MELEE.get(_key(name))


def ranged_row(name: str) -> Weapon | None:
    """The ranged table's row a sheet's `ranged` names (or its alias), None for any other name."""
    key = _key(name)
    return RANGED.get(ALIASES.get(key, key))


def find(name: str, *, ranged: bool = False, thrown: bool = False) -> Weapon:
    """A weapon by name: melee table first unless shooting or throwing."""
    key = _key(name)
    if thrown:
        if key not in THROWN and key not in RANGED:
            raise InvalidInput(
                say(
                    "{weapon} cannot be thrown: only weapons with Throw (knife, dagger, handaxe, short spear) or the "
                    "ranged table's rock, axe and spear.",
                    weapon=user_text(name),
                )
            )
        return RANGED[THROWN.get(key, key)]
    if ranged and key in RANGED:
        return RANGED[key]
    if key in MELEE and not ranged:
        return MELEE[key]
    if key in RANGED:
        return RANGED[key]
    if ALIASES.get(key) in RANGED:
        return RANGED[ALIASES[key]]
    if key in MELEE:
        return MELEE[key]
    names = listed(term(w.name) for w in list(MELEE.values()) + list(RANGED.values()))
    raise InvalidInput(say("Unknown weapon {weapon}. Known weapons: {names}.", weapon=quoted(name or ""), names=names))


def sheet_weapon(name: str, field: str) -> Weapon:
    """The sheet's `weapon` or `offhand` from the melee table, its `ranged` from the ranged table (or an alias).

    Both tables hold an axe, a spear and a knife: a melee weapon named from the ranged table would make every
    plain attack a shot, so a name from the other table is refused with the names that fit."""
    key = _key(name)
    shooting = field == "ranged"
    table, other = (RANGED, MELEE) if shooting else (MELEE, RANGED)
    found = ranged_row(name) if shooting else melee_row(name)
    if found:
        return found
    stray = other.get(key if shooting else ALIASES.get(key, key))
    if stray is None:
        names = listed(term(w.name) for w in table.values())
        raise InvalidInput(
            say("Unknown weapon {weapon}. Known weapons: {names}.", weapon=quoted(name or ""), names=names)
        )
    if shooting:
        fits = [RANGED[THROWN[key]]] if key in THROWN else []
    else:
        fits = [w for w in MELEE.values() if any(part in w.name.casefold() for part in _parts(stray))]
    values = dict(weapon=term(stray.name), field=field)
    if fits:
        values["fits"] = joined(N_(" or "), (term(w.name) for w in fits))
        if shooting:
            raise InvalidInput(say("{weapon} is a melee weapon (the melee table): for {field}= use {fits}.", **values))
        raise InvalidInput(say("{weapon} is a thrown weapon (the ranged table): for {field}= use {fits}.", **values))
    values["names"] = listed(term(w.name) for w in table.values())
    if shooting:
        raise InvalidInput(
            say(
                "{weapon} is a melee weapon (the melee table): {field}= takes one of the ranged table: {names}.",
                **values,
            )
        )
    raise InvalidInput(
        say("{weapon} is a ranged weapon (the ranged table): {field}= takes one of the melee table: {names}.", **values)
    )


def _parts(weapon: Weapon) -> list[str]:
    """The words a ranged row shares with its melee weapons: "axe" (Handaxe, Battleaxe…), "knife", "dagger"."""
    return [part.strip() for part in weapon.name.casefold().split("/")]


def keeps_load(weapon: Weapon) -> bool:
    return any(word in weapon.name.casefold() for word in KEEPS_LOAD)


def range_index(name: str) -> int:
    key = (name or "").strip().casefold()
    if key not in RANGES:
        raise InvalidInput(say("Range must be one of: {ranges}.", ranges=listed(term(r) for r in RANGES)))
    return RANGES.index(key)
