"""The actions Rotted Capes adds to the shared ones. Each docstring gives
the order in which hand-entered dice are used."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from ...actions import Action, Anytime, Flags, GmAction
from ...usertext import Typed


class Attack(Action):
    """d20 (two with advantage or disadvantage), then the damage dice.
    On the actor's turn it uses the Action (`bonus`: the Bonus Action);
    otherwise it needs `reaction` (opportunity attack, readied action)."""

    kind: ClassVar[str] = "attack"
    on_turn: ClassVar[bool] = False
    target: str
    weapon: Typed = ""
    modifier: int | None = None
    damage: str | None = None
    damage_type: str | None = None
    defense: str = "avoidance"
    flags: Flags = Field(default_factory=dict)


class Act(Action):
    """One of the eight actions or a combat-mode command; see `act_choices`."""

    kind: ClassVar[str] = "act"
    on_turn: ClassVar[bool] = False
    action: str
    target: str | None = None
    flags: Flags = Field(default_factory=dict)


class FormHorde(Act):
    """`/act action:horde`: the seed's "If a Horde is formed after combat has started" leaves room for one
    formed before, so the GM may form it during set-up as well (at its lowest member's initiative, as
    SYSTEMS.md has it)."""

    needs_running: ClassVar[bool] = False


class Swap(Anytime):
    """Tied heroes agree on their order (also before round 1)."""

    kind: ClassVar[str] = "initiative_swap"
    target: str


class Damage(Action):
    """GM damage outside an attack: the amount's dice."""

    kind: ClassVar[str] = "damage"
    gm_only: ClassVar[bool] = True
    on_turn: ClassVar[bool] = False
    target: str
    amount: str
    damage_type: str = "kinetic"
    flags: Flags = Field(default_factory=dict)


class Heal(GmAction):
    """Stamina back (`temp`: temporary Stamina, `wounds`: Wounds back)."""

    kind: ClassVar[str] = "heal"
    target: str
    amount: str
    flags: Flags = Field(default_factory=dict)


class Save(Action):
    """d20 (two with advantage or disadvantage)."""

    kind: ClassVar[str] = "save"
    on_turn: ClassVar[bool] = False
    save: str = "con"
    dc: int | None = None
    flags: Flags = Field(default_factory=dict)


class AddCondition(Anytime):
    kind: ClassVar[str] = "condition_add"
    target: str
    condition: str
    duration: str | None = None
    tags: str | None = None
    flags: Flags = Field(default_factory=dict)


class RemoveCondition(Anytime):
    kind: ClassVar[str] = "condition_remove"
    target: str
    condition: str


class ListConditions(Anytime):
    kind: ClassVar[str] = "condition_list"
    target: str | None = None


class PlotShow(Anytime):
    kind: ClassVar[str] = "plotpoint_show"


class PlotSpend(Anytime):
    """`reroll`: the new d20 (two with advantage), then damage dice if it hits;
    `reroll damage`: the damage dice."""

    kind: ClassVar[str] = "plotpoint_spend"
    use: str = "narrative"
    target: str | None = None
    text: Typed = ""


class PlotAward(GmAction):
    kind: ClassVar[str] = "plotpoint_award"
    target: str
    amount: int = 1
    text: Typed = ""


class PlotPool(GmAction):
    kind: ClassVar[str] = "plotpoint_pool"
    amount: int = 1
    text: Typed = ""


class PlotIssue(GmAction):
    kind: ClassVar[str] = "plotpoint_issue"
