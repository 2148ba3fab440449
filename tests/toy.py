"""A minimal rule system per turn structure, to test the engine on its own."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar

from bot import command_sets
from rules import registry
from rules.actions import Action
from rules.commands import Commands
from rules.model import Combatant, Encounter, Event, Value
from rules.system import System
from rules.turns.clock import Clock
from rules.turns.factions import Factions
from rules.turns.initiative import Initiative
from rules.turns.seconds import Seconds
from rules.turns.tracks import Tracks


class ToySheet(Value):
    init: int = 0
    hp: int = 10


class ToyCombatant(Combatant):
    sheet: ToySheet = ToySheet()
    hp: int = 10


class Hit(Action):
    kind: ClassVar[str] = "hit"
    target: str
    damage: str = "1d6"


class ToyBase(System):
    sheet_type = ToySheet
    combatant_type = ToyCombatant

    def combatant_fields(self, sheet, action):
        return {"sheet": ToySheet(**sheet), "hp": sheet.get("hp", 10)}

    def roll_initiative(self, enc, combatant, chance):
        value = chance.die(20) + combatant.sheet.init
        return (value,), f"d20 + {combatant.sheet.init} = {value}"

    def can_act(self, enc, combatant):
        return not combatant.out and combatant.hp > 0

    def handlers(self):
        return {Hit: self.hit}

    commands = Commands(
        build={
            "attack": lambda given: Hit(
                target=given.required("target"), damage=given.optional("damage") or "1d6", **given.base()
            ),
        }
    )

    def hit(self, enc, action, chance):
        target = enc.find(action.target)
        roll = chance.roll(action.damage)
        hp = target.hp - roll.total
        enc = enc.update(target.id, hp=hp, out=hp <= 0)
        return enc, [Event(kind="roll", text=f"{action.actor} hits {target.name}: {roll}")]

    def status_line(self, enc, combatant, *, reveal):
        return f"{combatant.hp} hp" if reveal else ""


def encounter_for(turns):
    """An encounter type typed for this structure's state, as real systems declare."""
    return type(
        f"ToyEncounter_{turns.key}",
        (Encounter,),
        {"__annotations__": {"combatants": tuple[ToyCombatant, ...], "turns": turns.state_type}, "combatants": ()},
    )


def make(key: str, turns, **extra):
    attrs = {"key": key, "name": f"Toy {key}", "turns": turns, "encounter_type": encounter_for(turns), **extra}
    cls = type(f"Toy_{key}", (ToyBase,), attrs)
    system = cls()
    registry.register(system)
    return system


@contextmanager
def standing_in_for(key: str) -> Iterator[ToyBase]:
    """The initiative toy under a real system's key (slash options accept only those), for one test."""
    system = make(key, Initiative(), name="Toy")
    # Which command groups each system uses is read once per process: not from the toy.
    command_sets.system_groups.cache_clear()
    try:
        yield system
    finally:
        registry.unregister(key)
        command_sets.system_groups.cache_clear()


INITIATIVE = make("toy-initiative", Initiative())
SECONDS = make("toy-seconds", Seconds())
CLOCK = make("toy-clock", Clock())
FACTIONS = make("toy-factions", Factions(), sides=("players", "gm"), player_side="players")
TRACKS = make("toy-tracks", Tracks())
