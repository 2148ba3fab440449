"""Actions every rule system understands, and the base all actions share.

An action says who sent it (`by`), which combatant acts (`actor`, when there is
one) and any dice or cards entered by hand. Its class variables tell the engine
which checks apply, so the order of checks lives in one place (engine.apply).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from .model import Actor, Value
from .said import joined, seq, term
from .text import Text
from .usertext import Typed

# The `options:` words as read (`rules.commands.flags`): a value is text the user typed.
Flags = dict[str, Typed | bool]


class Action(Value):
    kind: ClassVar[str] = "action"
    gm_only: ClassVar[bool] = False
    needs_running: ClassVar[bool] = True  # refused before round 1
    on_turn: ClassVar[bool] = True  # the actor must be one whose turn it is
    answers_pending: ClassVar[bool] = False  # allowed while a choice is open

    by: Actor
    actor: str | None = None
    dice: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()

    def describe(self) -> Text:
        return seq("/", command_name(self.kind))


class Anytime(Action):
    """An action not tied to the actor's turn (reactions, bookkeeping, checks)."""

    on_turn: ClassVar[bool] = False
    needs_running: ClassVar[bool] = False


class GmAction(Anytime):
    """A GM tool: damage, healing, conditions, settings of the fight."""

    gm_only: ClassVar[bool] = True


class AddCombatants(Anytime):
    """A player's character joins, or the GM adds NPCs (a count makes a group)."""

    kind: ClassVar[str] = "initiative_add"

    name: str
    sheet: dict[str, Any] = Field(default_factory=dict)
    count: int = 1
    side: str | None = None
    npc: bool = True
    hidden: bool = False
    controller_id: int | None = None
    character_id: int | None = None
    surprised: bool = False
    # a stored character's lasting state from earlier fights (System.carry_in); None: fresh from the sheet
    lasting: dict[str, Any] | None = None


class RemoveCombatant(GmAction):
    kind: ClassVar[str] = "initiative_remove"
    target: str


class NextTurn(Action):
    """Begin round 1, or end the current turn (its controller or the GM)."""

    kind: ClassVar[str] = "initiative_next"
    needs_running: ClassVar[bool] = False
    on_turn: ClassVar[bool] = False


class EndTurn(Action):
    """The End-turn button: bound to one turn, so a late double click is harmless."""

    kind: ClassVar[str] = "end_turn"
    on_turn: ClassVar[bool] = False
    turn_no: int


class DelayTurn(Action):
    """Step out of the order now; run again later to come back in."""

    kind: ClassVar[str] = "initiative_delay"
    on_turn: ClassVar[bool] = False


class Choose(Anytime):
    """Answer the choice the encounter is waiting on."""

    kind: ClassVar[str] = "choose"
    answers_pending: ClassVar[bool] = True
    pending_id: int
    option: str = ""
    # A button answers by position, bound to the exact question it was made for.
    index: int | None = None
    signature: str | None = None
    timed_out: bool = False


class EndEncounter(GmAction):
    kind: ClassVar[str] = "encounter_end"
    answers_pending: ClassVar[bool] = True


class Note(Anytime):
    """A narrative ruling: logged, not adjudicated."""

    kind: ClassVar[str] = "note"
    text: str


def command_name(name: str) -> Text:
    """`initiative_join` as its slash command reads, `initiative join`: each word said, as the
    command tree says it (its names come from the same catalog)."""
    return joined(" ", (term(word) for word in name.split("_")))
