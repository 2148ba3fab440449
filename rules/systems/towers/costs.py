"""The action list and what each action costs on the Combat Clock."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.errors import InvalidInput
from rules.said import say, term
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

    def shown_cost(self) -> str:
        if self.cost == FREE:
            return "free"
        if self.cost == VARIES:
            return "GM sets"
        return str(self.cost)


ACTIONS: dict[str, ActionType] = {
    a.key: a
    for a in (
        ActionType("aid", "Aid", 3, attack=True),
        ActionType("aim", "Aim", 5),
        ActionType("attack", "Attack", 5, attack=True),
        ActionType("cast", "Cast a Spell", 5),
        ActionType("charge", "Charge", 8, attack=True),
        ActionType("combat move", "Combat Move", 5),
        ActionType("concentrate", "Concentrate", 5),
        ActionType("drop prone", "Drop Prone", 3),
        ActionType("draw weapon", "Draw a Weapon", 6),
        ActionType("escape", "Escape", 5),
        ActionType("forced delay", "Forced Delay", 5, can_add_shift=False),
        ActionType("full defense", "Full Defense", 10),
        ActionType("initiate grapple", "Initiate Grapple", 5),
        ActionType("interact environment", "Interact with the Environment", 5),
        ActionType("interact inventory", "Interact with Inventory", 10),
        ActionType("pick up", "Pick up an Object", 3),
        ActionType("power attack", "Power Attack", 7, attack=True),
        ActionType("reckless move", "Reckless Move", 7),
        ActionType("recover", "Recover", 5),
        ActionType("reload", "Reload a Weapon", 5),
        ActionType("restrain", "Restrain", 5),
        ActionType("reverse grapple", "Reverse the Grapple", 5),
        ActionType("running leap", "Running Leap (each half)", 5),
        ActionType("shake condition", "Shake Minor Condition", 5),
        ActionType("shift position", "Shift Position", 3, can_add_shift=False),
        ActionType("slam", "Slam", 5),
        ActionType("squeeze", "Squeeze", 5),
        ActionType("stand", "Stand from Prone", 4),
        ActionType("throw", "Throw", 5),
        ActionType("use item", "Use an Item", 5),
        ActionType("use skill", "Use a Skill", VARIES),
        ActionType("zero cost", "Zero-cost action", 0, can_add_shift=False),
        ActionType("speak", "Speak", FREE, can_add_shift=False),
        ActionType("drop object", "Drop Object", FREE, can_add_shift=False),
        ActionType("discard chip", "Discard Chip to Heal", FREE, can_add_shift=False),
        ActionType("stance", "Dual-Wield Stance", FREE, can_add_shift=False),
        ActionType("hold", "Hold", FREE, can_add_shift=False),
        ActionType("release", "Release a Hold", FREE, can_add_shift=False),
        ActionType("opportunity attack", "Opportunity Attack (3, out of turn)", 3, attack=True, can_add_shift=False),
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
                actions=", ".join(term(a.label) for a in ACTIONS.values()),
            )
        )
    return ACTIONS[key]


SHIFT_ADDED = 2
OPPORTUNITY_DELAY = 3
