"""The shared slash commands, read as Frozen Lands actions (declared as data)."""

from __future__ import annotations

from typing import Any

from ...commands import Acts, Commands, Given, integer, plain
from ...errors import InvalidInput
from ...said import N_, say, term
from ...usertext import listed, quoted
from . import movement
from .actions import (
    AddCondition,
    Aim,
    Attack,
    Check,
    Damage,
    Delay,
    Engage,
    Heal,
    Interrupt,
    Move,
    Other,
    Place,
    Release,
    Reload,
    RemoveCondition,
    SetZone,
    StandUp,
)
from .checks import MAX_NEEDED

RANGE_WORDS = ("close", "short", "medium", "long", "distant")
SIZE_WORDS = {"large": 1, "huge": 2, "small": -1, "tiny": -2}


def attack(given: Given) -> Attack:
    extra = given.flags
    fields: dict[str, Any] = {"target": given.required("target")}
    if given.has("weapon"):
        fields["weapon"] = given.text("weapon")
    if given.options.get("modifier") is not None:
        fields["modifier"] = given.integer("modifier", -20, 20)
    if given.text("damage").strip():
        fields["damage"] = given.integer("damage", 0, 100)
    ranges = [w for w in RANGE_WORDS if extra.get(w) is True]
    if extra.get("range"):
        fields["range"] = str(extra["range"])
    elif ranges:
        fields["range"] = ranges[0]
    sizes = [SIZE_WORDS[w] for w in SIZE_WORDS if extra.get(w) is True]
    if extra.get("size") not in (None, True):
        size = str(extra["size"]).casefold()
        fields["size"] = SIZE_WORDS[size] if size in SIZE_WORDS else integer(size, "size", -2, 2)
    elif sizes:
        fields["size"] = sizes[0]
    if extra.get("light"):
        fields["light"] = str(extra["light"])
    elif extra.get("dim") or extra.get("dark"):
        fields["light"] = "dim" if extra.get("dim") else "dark"
    if extra.get("split") is not None:
        fields["split"] = integer(extra["split"], "split", 0, 20)
    fields["thrown"] = bool(extra.get("throw") or extra.get("thrown"))
    fields["ranged"] = bool(extra.get("ranged") or extra.get("shoot"))
    return Attack(**given.base(), **fields)


def move(given: Given) -> Move:
    extra = given.flags
    destination = extra.get("to") or given.optional("target")
    if not destination or destination is True:
        raise InvalidInput(say('Say where to move: options:"to=<zone>".'))
    jump = extra.get("jump")
    return Move(
        **given.base(),
        to=str(destination),
        close=given.number("close", 0, 20),
        jump=("athletics" if jump is True else str(jump)) if jump else None,
    )


def other(given: Given) -> Other:
    extra = given.flags
    label = extra.get("label") or extra.get("name")
    if not label or label is True:
        raise InvalidInput(say('Name the action: options:"label=Intimidate skill=persuasion".'))
    return Other(
        **given.base(),
        label=str(label),
        skill=given.word("skill"),
        modifier=integer(extra.get("mod", 0), "mod", -20, 20),
    )


def damage(given: Given) -> Damage:
    typed = given.text("damage_type").strip()
    if typed and typed.casefold() != "stress":
        # Any other word would deal Stamina damage through armour, so a typo (`stres`) is refused.
        raise InvalidInput(
            say(
                "Unknown damage type {kind} for /damage: the only one is `stress` (Stress instead of Stamina).",
                kind=quoted(typed),
            )
        )
    return Damage(
        **given.base(),
        target=given.required("target"),
        amount=given.amount(),
        stress=bool(typed) or bool(given.flags.get("stress")),
        direct=bool(given.flags.get("direct")),
    )


def zone(given: Given) -> SetZone:
    extra = given.flags
    typed = given.optional("target")
    name = extra.get("name") or typed
    if not name or name is True:
        raise InvalidInput(say('Name the zone: options:"name=Hall cluttered dim".'))
    words = [k for k, v in extra.items() if v is True] + str(extra.get("features") or "").split()
    return SetZone(**given.base(), name=str(name), features=movement.parse_features(" ".join(words)))


def place(given: Given) -> Place:
    zone_name = given.word("zone")
    if not zone_name:
        raise InvalidInput(say('Say which zone: options:"zone=Hall".'))
    return Place(**given.base(), target=given.required("target"), zone=zone_name)


def unknown(given: Given):
    choice = given.text("action").strip().casefold()
    raise InvalidInput(
        say(
            "Unknown action {action}. Actions: {actions}.",
            action=quoted(choice, 20),
            actions=listed(term(v) for v, _ in ACT_CHOICES),
        )
    )


def heal(given: Given) -> Heal:
    extra = given.flags
    rest, wounds = bool(extra.get("rest")), integer(extra.get("wounds", 0), "wounds", 0, 50)
    # Resting or healing wounds does something with no Stamina; Stamina alone must be at least 1.
    stamina = given.integer("amount", 0, 200, default=0) if rest or wounds else given.count("amount", 200)
    return Heal(**given.base(), target=given.required("target"), amount=stamina, rest=rest, wounds=wounds)


ACT_CHOICES = (
    (N_("move"), N_("Move to a zone (to=<zone> close=N jump)")),
    (N_("stand"), N_("Stand up")),
    (N_("aim"), N_("Aim (+2 on the next ranged attack)")),
    (N_("reload"), N_("Reload")),
    (N_("delay"), N_("Delay an action")),
    (N_("release"), N_("Release the delayed action")),
    (N_("interrupt"), N_("Act out of turn (AWARENESS roll)")),
    (N_("other"), N_("Another action (label=… skill=…)")),
    (N_("engage"), N_("GM: bring the actor and the target to close range")),
    (N_("part"), N_("GM: the actor and the target no longer at close range")),
    (N_("zone"), N_("GM: define a zone (name=… cluttered dim dark cramped)")),
    (N_("place"), N_("GM: put the target in a zone (zone=…)")),
)

COMMANDS = Commands(
    options={
        "attack": (
            "ranged",
            "shoot",
            "throw",
            "thrown",
            "range",
            *RANGE_WORDS,
            "size",
            *SIZE_WORDS,
            "light",
            "dim",
            "dark",
            "split",
        ),
        "damage": ("stress", "direct"),
        "heal": ("rest", "wounds"),
        "save": ("mod", "modifier"),
        "condition_add": ("level",),
        "act:move": ("to", "close", "jump"),
        "act:other": ("label", "name", "skill", "mod"),
        "act:place": ("zone",),
        "act:zone": ("name", "features", *movement.FEATURES),
        **{f"act:{name}": () for name in ("stand", "aim", "reload", "delay", "release", "interrupt", "engage", "part")},
    },
    build={
        "attack": attack,
        "damage": damage,
        "heal": heal,
        "save": lambda given: Check(
            **given.base(),
            skill=given.required("kind"),
            need=integer(given.options.get("dc", 1), "dc", 1, MAX_NEEDED),
            modifier=integer(given.flags.get("mod", given.flags.get("modifier", 0)), "mod", -20, 20),
        ),
        "condition_add": lambda given: AddCondition(
            **given.base(),
            target=given.required("target"),
            condition=given.required("condition"),
            text=str(given.options.get("tags") or given.flags.get("level") or ""),
        ),
        "condition_remove": lambda given: RemoveCondition(
            **given.base(), target=given.required("target"), condition=given.required("condition")
        ),
    },
    acts=Acts(
        choices=ACT_CHOICES,
        build=unknown,
        own={
            "move": move,
            "stand": plain(StandUp),
            "aim": plain(Aim),
            "reload": plain(Reload),
            "delay": plain(Delay),
            "release": plain(Release),
            "interrupt": plain(Interrupt),
            "other": other,
            "engage": lambda given: Engage(**given.base(), target=given.required("target"), apart=False),
            "part": lambda given: Engage(**given.base(), target=given.required("target"), apart=True),
            "zone": zone,
            "place": place,
        },
    ),
)
