"""The typed state of a factions fight: characters and the encounter."""

from __future__ import annotations

import re

from rules.actions import Action
from rules.errors import InvalidInput
from rules.model import Combatant, Encounter
from rules.said import joined, say
from rules.turns.factions import Factions, FactionState
from rules.usertext import Typed, quoted

from .sheet import SIZES, UNARMED, UNARMED_WORDS, Weapon

# The two sides every fight has; any other name the GM gives is a faction of its own (bandits, wolves…).
SIDES = ("players", "gm")
_FACTION = re.compile(r"^[\w][\w' -]{0,29}$")


def faction_named(name: str) -> str:
    """The faction `name` names, as a fight and a kept NPC's lasting state hold it; InvalidInput if it names none."""
    side = str(name).strip()
    if not _FACTION.match(side):
        raise InvalidInput(say("A faction name is 1–30 letters, digits, spaces, ' or -."))
    return side.casefold() if side.casefold() in SIDES else side


class Fighter(Combatant):
    strength: int = 10
    agility: int = 10
    wits: int = 10
    health: int = 8
    max_health: int = 8
    grit: int = 0
    max_grit: int = 0
    armour: int = 0
    size: str = "medium"
    weapons: tuple[Weapon, ...] = ()
    dropped: tuple[Typed, ...] = ()  # weapons lost to a disarm until picked up
    fearless: bool = False
    concealed: bool = False
    incapacitated: bool = False
    dead: bool = False
    fled: bool = False
    surrendered: bool = False
    morale_immune: bool = False
    grabbed_by: str | None = None
    health_at_round_start: int = 8
    # what the current turn has used
    moved: int = 0
    sprinting: bool = False
    mains: int = 0
    bonuses: int = 0
    deviated: bool = False  # its ranged blast missed this turn: `landed` resolves it without another main action

    @property
    def size_rank(self) -> int:
        return SIZES.index(self.size)

    @property
    def standing(self) -> bool:
        """Still fighting: neither gone, nor down, nor surrendered."""
        return not self.out and not self.incapacitated and not self.surrendered

    def weapon(self, name: str | None) -> Weapon:
        """The named weapon in hand; no name means the first one, else unarmed."""
        held = [w for w in self.weapons if w.name not in self.dropped]
        if not name:
            return held[0] if held else UNARMED
        key = name.strip().casefold()
        # A weapon on the sheet is used as written, even one called `fist`: bare hands come only after.
        for weapon in self.weapons:
            if weapon.name.casefold() == key:
                if weapon.name in self.dropped:
                    raise InvalidInput(
                        say(
                            "{who} dropped the {weapon}: pick it up first (`/act pick_up`).",
                            who=self.name,
                            weapon=weapon.name,
                        )
                    )
                return weapon
        if key in UNARMED_WORDS:
            return UNARMED
        known = joined(", ", (w.name for w in held)) or say("none")
        raise InvalidInput(
            say(
                "{who} has no weapon called {name} (weapons: {known}; or `unarmed`).",
                who=self.name,
                name=quoted(name),
                known=known,
            )
        )

    def held(self) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons if w.name not in self.dropped) + (UNARMED,)


def fighter(combatant: Combatant) -> Fighter:
    """A combatant of a factions fight as the fighter it is."""
    if not isinstance(combatant, Fighter):
        raise TypeError(f"not a factions fighter: {combatant.id}")
    return combatant


class FactionsEncounter(Encounter):
    combatants: tuple[Fighter, ...] = ()
    turns: FactionState = FactionState()
    standing_at_round_start: dict[str, int] = {}

    def get(self, cid: str) -> Fighter:
        return fighter(super().get(cid))

    def find(self, name: str) -> Fighter:
        return fighter(super().find(name))

    def actor(self, action: Action) -> Fighter:
        """The fighter who acts (the engine names it for every action taken on a turn)."""
        if not action.actor:
            raise InvalidInput(say("Name the character (the `actor` option)."))
        return self.find(action.actor)

    def members(self, faction: str) -> list[Fighter]:
        return [c for c in self.combatants if c.side == faction]

    def standing_count(self, faction: str) -> int:
        return sum(1 for c in self.members(faction) if c.standing)


def factions_encounter(enc: Encounter) -> FactionsEncounter:
    """The encounter the shared turn structure hands back, as the factions encounter it is."""
    if not isinstance(enc, FactionsEncounter):
        raise TypeError(f"not a factions encounter: {enc.system}")
    return enc


# One stateless instance: the system's turn structure, also used to spend reactions.
TURNS = Factions()
