"""Shared slash commands → Fightin' Words actions (declared as data)."""

from __future__ import annotations

import re

from rules.actions import Action
from rules.commands import Acts, Commands, Given, integer
from rules.errors import InvalidInput
from rules.model import Encounter
from rules.said import say
from rules.usertext import quoted, split_names

from .attack import Attack
from .gm import AddCondition, Check, Damage, Heal, RemoveCondition
from .model import SCALE_HIGH, SCALE_LOW
from .moves import Act
from .tables import ACTIONS

_MOD = re.compile(r"^\s*([+-]?\d+)\s*/\s*([+-]?\d+)\s*$")
FLAT_FOOTED = ("flat_footed", "flatfooted", "surprised", "surprise")
COLLISION = ("with", "object", "speed", "crushed")  # `/damage amount:collision`'s own words


def modifier(text: str) -> tuple[int, int]:
    """`+1/0` → (1, 0): X to the attack roll, Y to the defence DC."""
    match = _MOD.match(str(text))
    if not match:
        raise InvalidInput(say("Write modifiers as `+X/+Y`, e.g. `mod=+1/0` or `mod=-1/-1`."))
    return integer(match.group(1), "X", -20, 20), integer(match.group(2), "Y", -20, 20)


def _targets(text: str | None, repeat: int | None, state: Encounter | None = None) -> tuple[str, ...]:
    # A combatant named "Hansel, Gretel" is one target, not two.
    names = split_names(str(text or ""), ",", state.maybe if state is not None else None)
    if not names:
        raise InvalidInput(say("Name a target."))
    if repeat:
        if len(names) != 1:
            raise InvalidInput(
                say("`combo=N` repeats one target N times; to split a combo, list the targets, one per attack.")
            )
        names = names * repeat
    return names


def attack(given: Given) -> Action:
    opts = given.flags
    x = y = given.integer("modifier", -20, 20) or 0
    if "mod" in opts:
        dx, dy = modifier(str(opts["mod"]))
        x, y = x + dx, y + dy
    distance = given.number("range", 0, 100_000)
    if distance is None:
        distance = given.number("distance", 0, 100_000)
    area = bool(opts.get("area"))
    repeat = given.number("combo", 1, 10)
    if area and repeat:
        raise InvalidInput(
            say("An area attack is one attack: list everyone in the area as targets, without `combo=N`.")
        )
    fields = dict(
        targets=_targets(given.options.get("target"), repeat, given.state),
        weapon=given.optional("weapon") or given.word("weapon"),
        x=x,
        y=y,
        damage=given.optional("damage"),
        called=str(opts["called"]).casefold() if "called" in opts else None,
        distance=distance,
        cover=str(opts.get("cover", "none")).casefold(),
        concealed=bool(opts.get("concealed")),
        invisible=bool(opts.get("invisible")),
        speed=given.number("speed", 0, 10_000) or 0,
        flanked=bool(opts.get("flanked")),
        flat_footed=any(opts.get(k) for k in FLAT_FOOTED),
        cost=given.number("cost", 0, 60),
        nonlethal=bool(opts.get("nonlethal")) or given.text("damage_type").casefold() == "nonlethal",
        area=area,
        fast=given.number("fast", 0, 10_000) or 0,
    )
    return Attack(**given.base(), **fields)


def act(given: Given) -> Action:
    return Act(
        **given.base(),
        action=given.required("action"),
        target=given.optional("target"),
        seconds=given.number("seconds", 0, 60),
        what=given.word("what"),
        spell=given.word("spell"),
        delay=given.number("delay", 1, 600),
        larger=given.number("larger", 0, 10) or 0,
    )


def collision(given: Given) -> Action:
    """`/damage amount:collision options:"speed=10 with=Orc"` (or `object=N`, an object's scale; `crushed`)."""
    typed = given.text("damage_type").strip().casefold()
    stray = next((word for word in given.flags if word not in (*COLLISION, "nonlethal")), None)
    if stray is None and typed not in ("", "nonlethal"):
        stray = typed
    if stray is not None:
        raise InvalidInput(
            say(
                "A collision deals the seed's damage: {option} does not go with `amount:collision`.",
                option=quoted(stray),
            )
        )
    speed = given.number("speed", 0, 10_000)
    other = given.word("with")
    scale = given.number("object", SCALE_LOW, SCALE_HIGH)
    if speed is None or (other is None) == (scale is None):
        raise InvalidInput(
            say(
                "For a collision, give the fastest mover's speed in squares per second and what the target "
                "hits: options `speed=10 with=Orc` (another combatant) or `speed=10 object=2` "
                "(the scale of an object not in the fight)."
            )
        )
    return Damage(
        **given.base(),
        target=given.text("target"),
        collision=True,
        other=other,
        object_scale=scale,
        speed=speed,
        crushed=given.flag("crushed"),
        nonlethal=bool(given.flags.get("nonlethal")) or typed == "nonlethal",
    )


def damage(given: Given) -> Action:
    opts = given.flags
    if given.text("amount").strip().casefold() == "collision":
        return collision(given)
    stray = next((word for word in COLLISION if word in opts), None)
    if stray is not None:
        raise InvalidInput(say("{option} is for a collision: `amount:collision`.", option=quoted(stray)))
    height = given.number("height", 0, 100_000)
    if height is None and given.text("amount").strip().casefold().startswith("fall"):
        raise InvalidInput(say("For a fall, give the height in metres: options `height=20 surface=concrete`."))
    typed = opts.get("type")
    kind = (given.text("damage_type") or (typed if isinstance(typed, str) else "")).strip().casefold() or None
    if opts.get("morale") and not kind:
        kind = "morale"
    return Damage(
        **given.base(),
        target=given.text("target"),
        amount="" if height is not None else given.amount(),
        type=kind,
        called=str(opts["called"]).casefold() if "called" in opts else None,
        nonlethal=bool(opts.get("nonlethal")) or kind == "nonlethal",
        height=height,
        surface=str(opts.get("surface", "hard")),
    )


COMMANDS = Commands(
    # Every `options:` word each builder above reads: any other (a typo) is refused with the list.
    options={
        "attack": (
            "combo",
            "mod",
            "range",
            "distance",
            "weapon",
            "called",
            "cover",
            "concealed",
            "invisible",
            "speed",
            "flanked",
            *FLAT_FOOTED,
            "cost",
            "nonlethal",
            "area",
            "fast",
        ),
        "save": ("bonus",),
        "damage": ("height", "surface", "type", "morale", "called", "nonlethal", *COLLISION),
        "heal": ("morale",),
        "act": ("seconds", "what", "spell", "delay", "larger"),
        "condition_add": (),
    },
    build={
        "attack": attack,
        "damage": damage,
        "heal": lambda given: Heal(
            **given.base(),
            target=given.text("target"),
            amount=given.count("amount", 100, default=1),
            morale=bool(given.flags.get("morale")),
        ),
        "save": lambda given: Check(
            **given.base(),
            stat=given.text("kind"),
            dc=given.integer("dc", -20, 100),
            bonus=given.number("bonus", -20, 20) or 0,
        ),
        "condition_add": lambda given: AddCondition(
            **given.base(),
            target=given.text("target"),
            condition=given.text("condition"),
            duration=given.optional("duration"),
        ),
        "condition_remove": lambda given: RemoveCondition(
            **given.base(), target=given.text("target"), condition=given.text("condition")
        ),
    },
    acts=Acts(choices=tuple((key, timed.label) for key, timed in ACTIONS.items()), build=act),
)
