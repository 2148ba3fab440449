"""The actions 99 Towers adds: /act, /attack, GM damage and healing, conditions."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from rules.actions import Action, Anytime, Flags, GmAction
from rules.usertext import Typed


class Act(Action):
    """Any action of the action list (see costs.ACTIONS); cards: those its check flips."""

    kind: ClassVar[str] = "act"
    what: str
    target: Typed | None = None  # a combatant, or what the action is about (`/act action:talk target:…`)
    flags: Flags = Field(default_factory=dict)


class Attack(Action):
    """Attack, Power Attack, Charge or Aid against one target, or an area against several.

    Cards: the attacker's flip first, then each NPC defender's flip in target
    order; a player character's defence flip is asked for separately.
    """

    kind: ClassVar[str] = "attack"
    style: str = "attack"  # attack, power attack, charge, aid
    targets: tuple[str, ...]
    weapon: Typed | None = None
    modifier: int = 0
    damage: int | None = None
    damage_type: Typed | None = None
    defense: str | None = None
    flags: Flags = Field(default_factory=dict)


class OpportunityAttack(Attack):
    """A single melee attack out of turn: the attacker acts 3 phases later."""

    kind: ClassVar[str] = "opportunity_attack"
    on_turn: ClassVar[bool] = False
    style: str = "opportunity attack"


class Damage(GmAction):
    """GM damage: STUN with optional LETHAL, damage flips (cards) and falls."""

    kind: ClassVar[str] = "damage"
    target: str
    stun: int = 0
    lethal: int = 0
    flips: int = 0
    fall_feet: int = 0
    category: str = "none"
    dtype: Typed = ""


class Heal(GmAction):
    kind: ClassVar[str] = "heal"
    target: str
    amount: int
    lethal: bool = False
    temporary: bool = False


class AddCondition(GmAction):
    kind: ClassVar[str] = "condition_add"
    target: str
    name: Typed
    phases: int | None = None
    minor: bool = False
    ongoing: int = 0
    category: str = "none"
    dtype: Typed = ""


class RemoveCondition(GmAction):
    kind: ClassVar[str] = "condition_remove"
    target: str
    name: Typed


class Check(Anytime):
    """An opposed flip outside an attack (a poison's Attack 5 vs Endurance…).

    Cards: the attacking value's flip, then the actor's.
    """

    kind: ClassVar[str] = "save"
    stat: str
    against: int
    flags: Flags = Field(default_factory=dict)
