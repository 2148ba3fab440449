"""The shared slash commands, read as Rotted Capes actions (declared as data)."""

from __future__ import annotations

from ...commands import Acts, Commands, Given
from . import between, gm, moves, plot
from .actions import (
    Act,
    AddCondition,
    Attack,
    Damage,
    FormHorde,
    Heal,
    PlotAward,
    PlotIssue,
    PlotPool,
    PlotSpend,
    RemoveCondition,
    Save,
    Swap,
)
from .model import MAX_DC, rc_encounter


def attack(given: Given) -> Attack:
    return Attack(
        **given.base(),
        target=given.required("target"),
        weapon=given.text("weapon"),
        modifier=given.integer("modifier", -50, 100),
        damage=given.optional("damage"),
        damage_type=given.optional("damage_type"),
        defense=given.text("defense", "avoidance"),
        flags=given.flags,
    )


def damage(given: Given) -> Damage:
    wounding = given.flag("crit") or bool(given.number("wounds", 0, 20))  # Wounds even with an amount of 0
    return Damage(
        **given.base(),
        target=given.required("target"),
        amount=given.amount(zero=wounding),
        damage_type=given.text("damage_type", "kinetic"),
        flags=given.flags,
    )


def act(given: Given, kind: type[Act] = Act) -> Act:
    return kind(**given.base(), action=given.required("action"), target=given.optional("target"), flags=given.flags)


COMMANDS = Commands(
    options={
        "attack": (
            "adv",
            "dis",
            "ranged",
            "same_area",
            "beyond_range",
            "in_melee",
            "cover",
            "unseen",
            "unaware",
            "dark",
            "squeezed",
            "shadowy",
            "ap",
            "bonus",
            "reaction",
            "free",
            "unleashed",
            "split",
            "area",
        ),
        "save": ("adv", "dis", "auto", "unleashed"),
        "damage": ("crit", "wounds", "ap", "ongoing"),
        "heal": ("temp", "wounds"),
        "condition_add": ("level", "dc", "damage", "type", "end", "source", "by", "save"),
        "act:demanding": ("what", "interruptible"),
        "act:hide": ("dc", "adv", "dis"),
        "act:ready": ("trigger",),
        "act:move": ("areas",),
        "act:horde": ("name",),
        "act:danger_zone": ("middle", "end"),
        **{
            f"act:{name}": ()
            for name in (
                *("assist", "dash", "disengage", "dodge", "trigger", "stand", "prone", "swap"),
                *("second_wind", "unleash", "end_scene"),
            )
        },
    },
    build={
        "attack": attack,
        "damage": damage,
        "heal": lambda given: Heal(
            **given.base(), target=given.required("target"), amount=given.amount(), flags=given.flags
        ),
        "save": lambda given: Save(
            **given.base(), save=given.required("kind"), dc=given.integer("dc", 1, MAX_DC), flags=given.flags
        ),
        "condition_add": lambda given: AddCondition(
            **given.base(),
            target=given.required("target"),
            condition=given.required("condition"),
            duration=given.options.get("duration"),
            tags=given.options.get("tags"),
            flags=given.flags,
        ),
        "condition_remove": lambda given: RemoveCondition(
            **given.base(), target=given.required("target"), condition=given.required("condition")
        ),
        "plotpoint_spend": lambda given: PlotSpend(
            **given.base(), use=given.text("use", "narrative"), target=given.optional("target"), text=given.text("text")
        ),
        "plotpoint_award": lambda given: PlotAward(
            **given.base(),
            target=given.required("target"),
            amount=given.count("amount", 10, default=1),
            text=given.text("text"),
        ),
        "plotpoint_pool": lambda given: PlotPool(
            **given.base(), amount=given.count("amount", 100, default=1), text=given.text("text")
        ),
        "plotpoint_issue": lambda given: PlotIssue(**given.base()),
    },
    acts=Acts(
        choices=tuple(moves.CHOICES),
        build=act,
        own={
            "swap": lambda given: Swap(**given.base(), target=given.required("target")),
            "horde": lambda given: act(given, FormHorde),
        },
    ),
    reports={
        "plotpoint_show": lambda enc, given: plot.balances(rc_encounter(enc)),
        "condition_list": lambda enc, given: gm.conditions_text(rc_encounter(enc), given.optional("target")),
    },
    between_reports={"plotpoint_show": between.plot_points},
)
