"""The shared slash commands, read as Factions actions (declared as data)."""

from __future__ import annotations

import re

from rules.commands import Acts, Commands, Given, integer, plain
from rules.errors import InvalidInput, UnknownAction
from rules.model import Encounter
from rules.said import N_, say
from rules.turns.factions import FirstMove, HoldInitiative, PassMove, TakeTurn
from rules.usertext import quoted, split_names

from .actions import (
    ApplyDamage,
    Attack,
    BonusAction,
    BreakFree,
    FreeAlly,
    Heal,
    MainAction,
    Move,
    OpportunityAttack,
    PickUp,
    Release,
    Reveal,
    RollSave,
    SetCondition,
    Surrender,
)

ACTS = (
    ("move", N_("Move (options: zones=1 sprint)")),
    ("sprint", N_("Sprint: move at double speed (options: zones=N, default 4)")),
    ("bonus", N_('Bonus action (options: text="opens the door")')),
    ("main", N_('Other main action (options: text="intimidates")')),
    ("disarm", N_("Disarm a nearby character (target; options: take=<weapon>, grab)")),
    ("shove", N_("Shove a nearby character (target)")),
    ("grapple", N_("Grab a nearby character (target)")),
    ("death_blow", N_("Death blow on a nearby incapacitated character (target)")),
    ("opportunity", N_("Opportunity attack (reaction; target; options: weapon=<name>)")),
    ("break_free", N_("Try to break free (a STR save; ends the turn)")),
    ("free", N_("Free a grabbed ally (target; a STR save)")),
    ("release", N_("Let go of whoever you hold")),
    ("pick_up", N_("Pick up a dropped weapon (options: weapon=<name>)")),
    ("surrender", N_("Surrender (spends the turn)")),
    ("reveal", N_("A concealed character is revealed")),
)

# `/act`'s actions that are attacks: each reads every word of ATTACK_WORDS.
ATTACKING_ACTS = ("disarm", "shove", "grapple", "death_blow", "opportunity")
# The `options:` words of every attack: those `_attack` reads, and the `weapon=` its builders pass it.
ATTACK_WORDS = (
    "zones",
    "distance",
    "moving",
    "unseen",
    "dark",
    "cover",
    "peek",
    "impaired",
    "enhanced",
    "unaware",
    "alone",
    "near",
    "neighbours",
    "stunt",
    "split",
    "landed",
    "death_blow",
    "deathblow",
    "take",
    "grab",
    "weapon",
)


def _names(value, state: Encounter | None) -> tuple[str, ...]:
    """`near="Theobald, Sybilla"` → the names, in order; a combatant named "Hansel, Gretel" is one."""
    if not value or value is True:
        return ()
    return split_names(str(value), ",", state.maybe if state is not None else None)[:20]


def _attack(given: Given, targets, weapon, mode, *, opportunity=False, death_blow=False):
    split: tuple[int, ...] = ()
    if written := given.word("split"):
        parts = re.split(r"[,/+ ]+", written.strip())
        split = tuple(integer(p, "split", 1, 100) for p in parts if p)
    stunt = given.word("stunt")
    cls = OpportunityAttack if opportunity else Attack
    return cls(
        **given.base(),
        targets=targets,
        weapon=str(weapon) if weapon and weapon is not True else None,
        mode=mode,
        zones=integer(given.flags.get("zones", given.flags.get("distance", 0)), "zones", 0, 1000),
        unseen=given.flag("unseen", "dark"),
        moving=given.flag("moving"),
        cover=given.flag("cover"),
        peek=given.flag("peek"),
        impaired=given.flag("impaired"),
        enhanced=given.flag("enhanced"),
        unaware=given.flag("unaware"),
        alone=given.flag("alone"),
        near=_names(given.flags.get("near"), given.state),
        death_blow=death_blow or given.flag("death_blow", "deathblow"),
        landed=given.flag("landed"),
        neighbours=integer(given.flags.get("neighbours", 6), "neighbours", 2, 20),
        split=split,
        stunt=stunt[:200] if stunt else None,
        take=given.word("take"),
        grab=given.flag("grab"),
    )


def attack(given: Given):
    state = given.state
    targets = split_names(given.required("target"), ",", state.maybe if state is not None else None)
    mode = next((m for m in ("disarm", "shove", "grapple") if given.flag(m)), "damage")
    return _attack(
        given,
        targets,
        given.optional("weapon") or given.flags.get("weapon"),
        mode,
        opportunity=given.flag("opportunity"),
    )


def manoeuvre(act: str):
    """Attacks named as actions: they need a target."""

    def build(given: Given):
        target = given.optional("target")
        if not target:
            raise InvalidInput(say("`{act}` needs a target.", act=act))  # the command's own word, as typed
        mode = act if act in ("disarm", "shove", "grapple") else "damage"
        return _attack(
            given,
            (target,),
            given.flags.get("weapon"),
            mode,
            opportunity=act == "opportunity",
            death_blow=act == "death_blow",
        )

    return build


def free(given: Given):
    target = given.optional("target")
    if not target:
        raise InvalidInput(say("Name the ally to free (the `target` option)."))
    return FreeAlly(**given.base(), target=target)


def unknown(given: Given):
    act = given.required("action").lower().replace(" ", "_").replace("-", "_")
    raise UnknownAction(
        say("{act} is not an action here. Try: {acts}.", act=quoted(act), acts=", ".join(a for a, _ in ACTS))
    )


def save(given: Given):
    kind = given.required("kind").lower()[:3]
    if kind not in ("str", "agi", "wit"):
        raise InvalidInput(say("Saves here are `str`, `agi` or `wit`."))
    return RollSave(**given.base(), attribute=kind, why=given.word("why") or "")


def condition(on: bool):
    def build(given: Given):
        return SetCondition(
            **given.base(),
            target=given.required("target"),
            condition=given.required("condition"),
            on=on,
            by_whom=given.word("by"),
        )

    return build


COMMANDS = Commands(
    options={
        "attack": (*ATTACK_WORDS, "opportunity", "disarm", "shove", "grapple"),
        **{f"act:{act}": ATTACK_WORDS for act in ATTACKING_ACTS},
        "damage": ("direct", "cover"),
        "heal": ("grit",),
        "save": ("why",),
        "condition_add": ("by",),
        "act:move": ("zones", "sprint"),
        "act:sprint": ("zones",),
        "act:bonus": ("text",),
        "act:main": ("text",),
        "act:pick_up": ("weapon",),
        **{f"act:{name}": () for name in ("break_free", "release", "surrender", "reveal", "free")},
    },
    build={
        "attack": attack,
        "damage": lambda given: ApplyDamage(
            **given.base(),
            target=given.required("target"),
            amount=given.amount(),
            direct=given.flag("direct"),
            cover=given.flag("cover"),
        ),
        "heal": lambda given: Heal(
            **given.base(), target=given.required("target"), amount=given.amount(), grit=given.flag("grit")
        ),
        "save": save,
        "condition_add": condition(True),
        "condition_remove": condition(False),
        # /turn: this system's turn structure, factions taking turns
        "turn_take": lambda given: TakeTurn(by=given.by, actor=given.text("character")),
        "turn_pass": lambda given: PassMove(by=given.by, **given.entered()),
        "turn_first": lambda given: FirstMove(by=given.by, faction=given.text("faction")),
        "turn_initiative": lambda given: HoldInitiative(by=given.by, faction=given.text("faction")),
    },
    acts=Acts(
        choices=ACTS,
        build=unknown,
        own={
            **{act: manoeuvre(act) for act in ATTACKING_ACTS},
            "break_free": plain(BreakFree),
            "release": plain(Release),
            "surrender": plain(Surrender),
            "reveal": plain(Reveal),
            "move": lambda given: Move(
                **given.base(), zones=integer(given.flags.get("zones", 1), "zones", 1, 8), sprint=given.flag("sprint")
            ),
            "sprint": lambda given: Move(
                **given.base(), zones=integer(given.flags.get("zones", 4), "zones", 1, 8), sprint=True
            ),
            "bonus": lambda given: BonusAction(**given.base(), text=given.word("text") or ""),
            "main": lambda given: MainAction(**given.base(), text=given.word("text") or ""),
            "pick_up": lambda given: PickUp(**given.base(), weapon=given.word("weapon")),
            "free": free,
        },
    ),
)
