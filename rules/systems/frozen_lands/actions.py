"""Frozen Lands actions. Each docstring gives the order of hand-entered dice."""

from __future__ import annotations

from typing import ClassVar

from ...actions import Action, Anytime, GmAction
from ...usertext import Typed


class Attack(Action):
    """A character: the attack pool, then its stress dice. An enemy: no dice
    (fixed damage); a character defending rolls on the button click."""

    kind: ClassVar[str] = "attack"
    target: str
    weapon: Typed | None = None
    modifier: int = 0
    damage: int | None = None  # an enemy's damage for this attack, instead of its stat block's
    range: str | None = None
    size: int | None = None
    light: str | None = None  # "dim" or "dark"
    split: int | None = None  # Melee dice for this attack when dual wielding
    thrown: bool = False
    ranged: bool = False


class Move(Action):
    """Dice in order: the disengage Mobility roll (+ stress dice) when enemies are
    close, the stand-up Mobility roll when prone, the jump roll, the cluttered
    zone's Mobility roll."""

    kind: ClassVar[str] = "move"
    to: Typed
    close: int | None = None  # enemies at close range, instead of the tracked count
    jump: str | None = None  # "athletics" or "mobility"


class StandUp(Action):
    """No dice: standing without moving only costs the action."""

    kind: ClassVar[str] = "stand"


class Aim(Action):
    kind: ClassVar[str] = "aim"


class Reload(Action):
    kind: ClassVar[str] = "reload"


class Delay(Action):
    """Hold one action of this round, to release it after some later turn."""

    kind: ClassVar[str] = "delay"


class Release(Action):
    """Take the held action right after the current turn."""

    kind: ClassVar[str] = "release"
    on_turn: ClassVar[bool] = False


class Interrupt(Action):
    """Dice: the AWARENESS roll, then stress dice."""

    kind: ClassVar[str] = "interrupt"
    on_turn: ClassVar[bool] = False


class Other(Action):
    """Any other action (First Aid, Intimidate, a spell…). Dice: the skill roll
    and its stress dice, when a skill is named."""

    kind: ClassVar[str] = "other"
    label: Typed
    skill: str | None = None
    modifier: int = 0


class Engage(Anytime):
    """The GM brings two combatants to close range (melee attacks do it too): before round 1 as well, setting
    up where the fight starts as `place` does. A player's is refused by its handler, which says why."""

    kind: ClassVar[str] = "engage"
    target: str
    apart: bool = False


class SetZone(GmAction):
    kind: ClassVar[str] = "zone"
    name: Typed
    features: tuple[str, ...] = ()


class Place(GmAction):
    kind: ClassVar[str] = "place"
    target: str
    zone: Typed


class Check(Anytime):
    """A roll the GM asks for. Dice: the pool, then stress dice."""

    kind: ClassVar[str] = "save"
    skill: str
    need: int = 1
    modifier: int = 0


class Damage(Action):
    """Dice: those of the amount's expression."""

    kind: ClassVar[str] = "damage"
    gm_only: ClassVar[bool] = True
    on_turn: ClassVar[bool] = False
    target: str
    amount: str
    stress: bool = False
    direct: bool = False  # armour or defense does not apply


class Heal(GmAction):
    kind: ClassVar[str] = "heal"
    target: str
    amount: int = 0
    rest: bool = False
    wounds: int = 0


class AddCondition(GmAction):
    kind: ClassVar[str] = "condition_add"
    target: str
    condition: str
    text: Typed = ""


class RemoveCondition(GmAction):
    kind: ClassVar[str] = "condition_remove"
    target: str
    condition: str
