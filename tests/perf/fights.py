"""Running encounters of every system, driven through the stand-in like a GM would.

Each ``Fight`` is one encounter in one channel, set up with the real bot's commands.
Its commands repeat forever: an attack that opens no pending choice and does no
lasting harm (huge pools, armour, flat-footed targets), then the end of the turn.
Who acts next depends on dice and cards, so the bench predicts it with the rules
core itself: the state is stored with its random generator, and applying the same
actions to it gives exactly what the bot will get.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import registry
from rules.actions import Action, EndTurn, NextTurn
from rules.engine import apply
from rules.model import Actor, Encounter
from rules.said import english
from rules.turns.factions import TakeTurn

SYSTEMS = ("rotted-capes", "fightin-words", "factions", "99-towers", "frozen-lands")

ATTACK = "/attack"
NEXT = "/initiative next"
TAKE = "/turn take"
END_TURN = "End turn"


@dataclass(frozen=True)
class Spec:
    """How to set up one system's endless fight and which attack it repeats."""

    combatants: tuple[dict[str, Any], ...]  # /initiative add options
    targets: dict[str, str]  # attacker -> target
    attack_options: dict[str, Any] = field(default_factory=dict)
    before_start: tuple[tuple[str, dict[str, Any]], ...] = ()  # GM commands before round 1


FIGHTER = "reflex=2 dex=1 strength=0 endurance=3 spirit=3 weapon_skill=3 defence=2 weapons='club:1d4'"

SPECS: dict[str, Spec] = {
    # Fortitude above any damage: no massive damage, so no Wounds pile up.
    "rotted-capes": Spec(
        combatants=(
            {
                "name": "Brute",
                "stats": "stamina=1000 wounds=100 avoidance=10 fortitude=1000 attack=5 damage=1d4",
                "roll": 15,
            },
            {
                "name": "Thug",
                "stats": "stamina=1000 wounds=100 avoidance=10 fortitude=1000 attack=5 damage=1d4",
                "roll": 5,
            },
        ),
        targets={"Brute": "Thug", "Thug": "Brute"},
    ),
    # Surprised targets cannot defend (no Block/Dodge/Parry buttons); 1d4 stays under Minimum Toughness.
    "fightin-words": Spec(
        combatants=(
            {"name": "Brute", "stats": FIGHTER, "roll": 6},
            {"name": "Thug", "stats": FIGHTER, "roll": 1},
        ),
        targets={"Brute": "Thug", "Thug": "Brute"},
        attack_options={"options": "surprised"},
    ),
    # Unaware targets cannot react; armour 3 against a d4 and a deep grit buffer.
    "factions": Spec(
        combatants=(
            {"name": "Brute", "side": "gm", "stats": "health=999 grit=999 armour=3 fearless=true weapons='club:d4'"},
            {
                "name": "Thug",
                "side": "players",
                "stats": "health=999 grit=999 armour=3 fearless=true weapons='club:d4'",
            },
        ),
        targets={"Brute": "Thug", "Thug": "Brute"},
        attack_options={"options": "unaware"},
        before_start=(("/turn initiative", {"faction": "gm"}),),
    ),
    # NPC defenders flip no cards of their own (no pending); ER soaks all but 1 STUN a hit.
    "99-towers": Spec(
        combatants=(
            {"name": "Brute", "stats": "init=2 pa=2 pd=2 stun=500 lethal=500 er=30 weapons='Club: 1 melee'"},
            {"name": "Thug", "stats": "init=2 pa=2 pd=2 stun=500 lethal=500 er=30 weapons='Club: 1 melee'"},
        ),
        targets={"Brute": "Thug", "Thug": "Brute"},
    ),
    # A player character rolls a real dice pool against defense 20; enemies hit enemies
    # (a hit on a character would ask for a reaction).
    "frozen-lands": Spec(
        combatants=(
            {
                "name": "Astrid",
                "player": "alice",
                "roll": 5,
                "stats": "body=3 agility=3 mind=2 awareness=3 soul=2 melee=2 mobility=2 class_stamina=4 armour=1 "
                "weapon=Shortsword",
            },
            {"name": "Brute", "stats": "initiative=4 damage=0 defense=20 stamina=200"},
            {"name": "Thug", "stats": "initiative=4 damage=0 defense=20 stamina=200"},
        ),
        targets={"Astrid": "Brute", "Brute": "Thug", "Thug": "Brute"},
    ),
}


@dataclass(frozen=True)
class Step:
    label: str  # what the figures are reported under
    command: str | None  # slash command path; None: click the End turn button
    options: dict[str, Any]
    action: Action  # what the bot applies for it


class Fight:
    def __init__(self, key: str, channel: str, gm_id: int) -> None:
        self.key = key
        self.channel = channel
        self.spec = SPECS[key]
        self.system = registry.get(key)
        self.gm = Actor(user_id=gm_id, is_gm=True)
        self.state: Encounter | None = None
        self.start: Encounter | None = None  # the state at round 1, for replays
        self._position = 0  # place in the repeating cycle of commands

    def __repr__(self) -> str:
        return f"<Fight {self.key} #{self.channel}>"

    @property
    def labels(self) -> tuple[str, ...]:
        return (TAKE, ATTACK, END_TURN) if self.key == "factions" else (ATTACK, NEXT)

    def setup(self) -> list[tuple[str, dict[str, Any]]]:
        """GM commands that bring the fight to round 1."""
        commands = [("/encounter start", {"system": self.key})]
        commands += [("/initiative add", dict(options)) for options in self.spec.combatants]
        commands += list(self.spec.before_start)
        commands.append((NEXT, {}))
        return commands

    def load(self, data: dict[str, Any]) -> None:
        self.state = self.system.load(data)
        self._position = 0
        if self.key == "factions" and self.state.turns.active:
            self._position = 1
        if self.start is None:
            self.start = self.state

    def replay(self) -> Fight:
        """A copy of this fight back at its start (long runs would wear the fighters down)."""
        copy = Fight(self.key, self.channel, self.gm.user_id)
        copy.load(self.start.model_dump(mode="json"))
        return copy

    def plan(self, count: int, *, buttons: bool = False) -> list[Step]:
        """The next ``count`` steps, followed to their end."""
        steps = []
        for _ in range(count):
            step = self.next_step(buttons=buttons)
            self.advance(step)
            steps.append(step)
        return steps

    def next_step(self, *, buttons: bool = True) -> Step:
        """The command to send now. ``buttons=False`` ends faction turns with /initiative next,
        for batches sent before the turn message (and its button) exists."""
        state = self.state
        labels = self.labels
        label = labels[self._position % len(labels)]
        if label == TAKE:
            moving = state.turns.moving
            ready = self.system.turns.ready(self.system, state, moving)
            name = state.get(ready[0]).name
            return Step(TAKE, TAKE, {"character": name}, TakeTurn(by=self.gm, actor=name))
        if label == ATTACK:
            acting = self.system.turns.acting(state)
            attacker = state.get(acting[0]).name
            options = {"target": self.spec.targets[attacker], **self.spec.attack_options}
            return Step(ATTACK, ATTACK, options, self.system.command("attack", self.gm, options))
        if label == END_TURN:
            if buttons:
                return Step(END_TURN, None, {}, EndTurn(by=self.gm, turn_no=state.turn_no))
            return Step(END_TURN, NEXT, {}, NextTurn(by=self.gm))
        return Step(NEXT, NEXT, {}, NextTurn(by=self.gm))

    def advance(self, step: Step) -> None:
        """The bot applied ``step``: follow it."""
        outcome = apply(self.state, step.action)
        if outcome.state.pending is not None:
            raise AssertionError(f"{self}: {step.label} opened a choice: {english(outcome.state.pending.prompt)}")
        self.state = outcome.state
        self._position += 1
