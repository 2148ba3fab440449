"""The action list and what each action costs on the Combat Clock."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import InvalidInput
from rules.said import N_, Text, joined, say, term
from rules.usertext import quoted

FREE = -1  # free actions do not end the turn
VARIES = -2  # Use a Skill: the GM names the cost


@dataclass(frozen=True, slots=True)
class ActionType:
    key: str
    label: str
    cost: int
    attack: bool = False  # resolved as an attack flip (Attack, Power Attack, Charge, Aid…)
    can_add_shift: bool = True  # Shift Position may be added for +2
    out_of_turn: bool = False  # taken in another's turn (an Opportunity Attack)

    def choice(self) -> Text:
        """The action with its cost, as `/act`'s autocomplete offers it (each a whole phrase to translate)."""
        if self.cost == FREE:
            return say("{action} (free)", action=term(self.label))
        if self.cost == VARIES:
            return say("{action} (GM sets)", action=term(self.label))
        if self.out_of_turn:
            return say("{action} ({cost}, out of turn)", action=term(self.label), cost=self.cost)
        return say("{action} ({cost})", action=term(self.label), cost=self.cost)


ACTIONS: dict[str, ActionType] = {
    a.key: a
    for a in (
        ActionType("aid", N_("Aid"), 3, attack=True),
        ActionType("aim", N_("Aim"), 5),
        ActionType("attack", N_("Attack"), 5, attack=True),
        ActionType("cast", N_("Cast a Spell"), 5),
        ActionType("charge", N_("Charge"), 8, attack=True),
        ActionType("combat move", N_("Combat Move"), 5),
        ActionType("concentrate", N_("Concentrate"), 5),
        ActionType("drop prone", N_("Drop Prone"), 3),
        ActionType("draw weapon", N_("Draw a Weapon"), 6),
        ActionType("escape", N_("Escape"), 5),
        ActionType("forced delay", N_("Forced Delay"), 5, can_add_shift=False),
        ActionType("full defense", N_("Full Defense"), 10),
        ActionType("initiate grapple", N_("Initiate Grapple"), 5),
        ActionType("interact environment", N_("Interact with the Environment"), 5),
        ActionType("interact inventory", N_("Interact with Inventory"), 10),
        ActionType("pick up", N_("Pick up an Object"), 3),
        ActionType("power attack", N_("Power Attack"), 7, attack=True),
        ActionType("reckless move", N_("Reckless Move"), 7),
        ActionType("recover", N_("Recover"), 5),
        ActionType("reload", N_("Reload a Weapon"), 5),
        ActionType("restrain", N_("Restrain"), 5),
        ActionType("reverse grapple", N_("Reverse the Grapple"), 5),
        ActionType("running leap", N_("Running Leap (each half)"), 5),
        ActionType("shake condition", N_("Shake Minor Condition"), 5),
        ActionType("shift position", N_("Shift Position"), 3, can_add_shift=False),
        ActionType("slam", N_("Slam"), 5),
        ActionType("squeeze", N_("Squeeze"), 5),
        ActionType("stand", N_("Stand from Prone"), 4),
        ActionType("throw", N_("Throw"), 5),
        ActionType("use item", N_("Use an Item"), 5),
        ActionType("use skill", N_("Use a Skill"), VARIES),
        ActionType("zero cost", N_("Zero-cost action"), 0, can_add_shift=False),
        ActionType("speak", N_("Speak"), FREE, can_add_shift=False),
        ActionType("drop object", N_("Drop Object"), FREE, can_add_shift=False),
        ActionType("discard chip", N_("Discard Chip to Heal"), FREE, can_add_shift=False),
        ActionType("stance", N_("Dual-Wield Stance"), FREE, can_add_shift=False),
        # Translators: the action of holding one's turn for later (a delay, not a grip)
        ActionType("hold", N_("Hold"), FREE, can_add_shift=False),
        ActionType("release", N_("Release a Hold"), FREE, can_add_shift=False),
        ActionType(
            "opportunity attack", N_("Opportunity Attack"), 3, attack=True, can_add_shift=False, out_of_turn=True
        ),
    )
}

ALIASES = {
    "shift": "shift position",
    "shiftposition": "shift position",
    "step": "shift position",
    "move": "combat move",
    "delay": "forced delay",
    "wait": "forced delay",
    "defend": "full defense",
    "full defence": "full defense",
    "defense": "full defense",
    "stand up": "stand",
    "stand from prone": "stand",
    "prone": "drop prone",
    "draw": "draw weapon",
    "draw a weapon": "draw weapon",
    "leap": "running leap",
    "shake": "shake condition",
    "shake minor condition": "shake condition",
    "grapple": "initiate grapple",
    "interact": "interact environment",
    "interact with the environment": "interact environment",
    "inventory": "interact inventory",
    "interact with inventory": "interact inventory",
    "pickup": "pick up",
    "pick up an object": "pick up",
    "item": "use item",
    "use an item": "use item",
    "skill": "use skill",
    "use a skill": "use skill",
    "cast a spell": "cast",
    "spell": "cast",
    "reload a weapon": "reload",
    "zero": "zero cost",
    "zero-cost": "zero cost",
    "free": "speak",
    "oa": "opportunity attack",
    "opportunity": "opportunity attack",
    "reckless": "reckless move",
    "power": "power attack",
    "unhold": "release",
    "discard chip to heal": "discard chip",
    "shake minor": "shake condition",
    "maintain": "restrain",
    "maintain hold": "restrain",
    "reverse": "reverse grapple",
    "reversal": "reverse grapple",
    "reverse the grapple": "reverse grapple",
    "dual wield": "stance",
    "dual wield stance": "stance",
    "dual wielding": "stance",
}


def action_type(name: str) -> ActionType:
    key = re.sub(r"[^a-z ]+", " ", (name or "").casefold().replace("-", " "))
    key = " ".join(key.split())
    key = ALIASES.get(key, key)
    if key not in ACTIONS:
        raise InvalidInput(
            say(
                "{name} is not a 99 Towers action. Actions: {actions}.",
                name=quoted(name or ""),
                actions=joined(", ", (a.choice() for a in ACTIONS.values())),
            )
        )
    return ACTIONS[key]


SHIFT_ADDED = 2
# The `options:` words that add Shift Position to another action, for SHIFT_ADDED more phases.
SHIFT_WORDS = ("shift_position", "step")
OPPORTUNITY_DELAY = 3


def adds_shift(flags: Mapping[str, Any]) -> bool:
    return any(flags.get(word) for word in SHIFT_WORDS)
