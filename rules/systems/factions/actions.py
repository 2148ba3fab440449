"""The actions of a factions fight, beyond the generic ones.

Each docstring lists the order of the dice the action rolls, so players can
enter them by hand (`dice:"5 4"`).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from rules.actions import Action, GmAction
from rules.said import seq
from rules.text import Text
from rules.usertext import Typed


class Attack(Action):
    """A main action: damage, or a non-lethal disarm, shove or grapple.

    Dice, in order: the attacker's WIT save to hit when one is needed (unseen
    target; ranged beyond half range or while moving); a missed ranged blast
    then rolls d<neighbours> for the zone it lands in. Then the damage dice,
    target by target (a blast rolls once for every target). When nobody can
    react, everything follows at once, a target's STR save included (a
    manoeuvre's, or against critical damage) when the sender rolls it: the
    GM rolls anyone's, a player only their own characters' (another's is the
    bot's); when a reaction is asked, the damage dice entered here wait for
    it and the reacting side's rolls are made when it is chosen."""

    kind: ClassVar[str] = "attack"
    targets: tuple[str, ...]
    weapon: Typed | None = None
    mode: Literal["damage", "disarm", "shove", "grapple"] = "damage"
    zones: int = 0  # distance to the target; 0 is nearby
    unseen: bool = False
    moving: bool = False
    cover: bool = False
    peek: bool = False  # the attacker peeks out from behind cover: a counter meets the cover
    impaired: bool = False
    enhanced: bool = False
    unaware: bool = False
    alone: bool = False  # no ally stands near the target: nobody is offered the guard
    near: tuple[str, ...] = ()  # the allies near the target (positions are not tracked): only they guard or shield
    death_blow: bool = False
    landed: bool = False  # a deviated blast resolved where it fell: no save to hit
    neighbours: int = 6
    split: tuple[int, ...] = ()  # dice per target when a larger attacker spreads a melee attack
    stunt: Typed | None = None
    take: Typed | None = None  # disarm: which of the target's weapons
    grab: bool = False  # disarm: the attacker has a free hand and takes the dropped weapon

    def describe(self) -> Text:
        return seq("/attack")


class OpportunityAttack(Attack):
    """A reaction against a nearby enemy moving away: spends the attacker's turn
    for the round. Dice as for an attack."""

    kind: ClassVar[str] = "opportunity_attack"
    on_turn: ClassVar[bool] = False


class Move(Action):
    """Move some zones: 2 in a turn (4 sprinting), or 1 (2) with actions."""

    kind: ClassVar[str] = "move"
    zones: int = 1
    sprint: bool = False


class BonusAction(Action):
    """Pick up, draw, open a door, say a few words…"""

    kind: ClassVar[str] = "bonus_action"
    text: Typed = ""


class MainAction(Action):
    """Any other main action: distract, intimidate, use a medicine box…"""

    kind: ClassVar[str] = "main_action"
    text: Typed = ""


class PickUp(Action):
    """A bonus action: take back a weapon dropped to a disarm."""

    kind: ClassVar[str] = "pick_up"
    weapon: Typed | None = None


class BreakFree(Action):
    """A grabbed character spends its whole turn on a STR save. Dice: d20."""

    kind: ClassVar[str] = "break_free"


class FreeAlly(Action):
    """A main action: a STR save to free a grabbed ally. Dice: d20."""

    kind: ClassVar[str] = "free_ally"
    target: str


class Release(Action):
    """Let go of the character one is holding."""

    kind: ClassVar[str] = "release"


class Surrender(Action):
    """Throw the weapons away: spends the character's turn (its current turn,
    or, if it has not acted this round, its turn for the round)."""

    kind: ClassVar[str] = "surrender"
    on_turn: ClassVar[bool] = False


class Reveal(Action):
    """A concealed character is seen (noise, moving in the open…)."""

    kind: ClassVar[str] = "reveal"
    on_turn: ClassVar[bool] = False


class RollSave(Action):
    """A STR, AGI or WIT save the GM asks for. Dice: d20."""

    kind: ClassVar[str] = "save"
    on_turn: ClassVar[bool] = False
    attribute: Literal["str", "agi", "wit"]
    why: Typed = ""


class ApplyDamage(Action):
    """The GM deals damage outside an attack. Dice: the amount's expression."""

    kind: ClassVar[str] = "damage"
    gm_only: ClassVar[bool] = True
    on_turn: ClassVar[bool] = False
    target: str
    amount: str
    direct: bool = False
    cover: bool = False


class Heal(Action):
    kind: ClassVar[str] = "heal"
    gm_only: ClassVar[bool] = True
    on_turn: ClassVar[bool] = False
    target: str
    amount: str
    grit: bool = False  # restore grit instead of health


class SetCondition(GmAction):
    """The GM marks or clears incapacitated, concealed, surrendered, grabbed, immune."""

    kind: ClassVar[str] = "condition"
    target: str
    condition: str
    on: bool = True
    by_whom: str | None = None  # grabbed: who holds the target
