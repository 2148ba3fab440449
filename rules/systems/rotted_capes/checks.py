"""Rotted Capes' checks from a stored character's sheet (`/check`): a challenge and a saving throw,
each a d20 + an ability's modifier against the Editor-in-Chief's DC, rolled as a fight rolls a save
(its Advantage and Disadvantage, the Wounded or Exhaustion penalty, the conditions the character
carries). A hero may spend a Plot Point to reroll; the point goes to the Editor-in-Chief's pool."""

from __future__ import annotations

from typing import Any

from ...commands import flag_number
from ...errors import InvalidInput, NotAllowed, Stale
from ...model import Choice
from ...randomness import Chance
from ...said import N_, say, seq, term
from ...system import CheckKind, CheckOutcome, CheckRequest, known_options
from ...text import Text
from ...usertext import listed, mark
from . import between
from .hooks import ABILITIES, d20_check
from .model import MAX_DC, RCCombatant
from .plot import no_points

KINDS = (
    CheckKind(
        key="challenge",
        label=N_("Challenge"),
        help=N_("d20 + an ability's modifier (options: str, dex, con, int, wis or cha) against the DC"),
    ),
    CheckKind(
        key="save",
        label=N_("Saving throw"),
        help=N_("d20 + the save's modifier (Constitution unless the options name another) against the DC"),
    ),
)
ADVANTAGE = ("adv", "advantage")
DISADVANTAGE = ("dis", "disadvantage")
BONUS = "bonus"  # a situational modifier: a Skill Set's Rank Bonus, antibiotics' +5, shadowy light's −2
OPTIONS = ("str", "dex", "con", "int", "wis", "cha", "adv", "dis", "bonus=N")
REROLL = "reroll"
DC_RANGE = (1, MAX_DC)


def check(request: CheckRequest, chance: Chance) -> CheckOutcome:
    c = between.standing(request.who, request.settings)
    ok, line = _rolled(request, c, chance)
    # a success has nothing a reroll could better: the point is offered only on a failure
    offers = (Choice(key=REROLL, label=say("Spend a Plot Point: reroll")),) if not ok and _may_reroll(c) else ()
    return CheckOutcome(lines=(line,), offers=offers)


def check_again(request: CheckRequest, memo: dict[str, Any], offer: str, chance: Chance) -> CheckOutcome:
    """A Plot Point rerolls the check: “You may spend Plot Point rerolling any d20 check”; the reroll
    replaces the result, and only one point goes on a roll, so nothing more is offered."""
    if offer != REROLL:
        raise Stale(say("That check is over: its offer has passed."))
    c = between.standing(request.who, request.settings)
    if not c.holds_points:
        raise NotAllowed(say("Only heroes hold Plot Points; the GM spends from the pool with /plotpoint pool."))
    if c.plot_points <= 0:
        raise NotAllowed(no_points(c))
    left, pool = c.plot_points - 1, int(request.campaign.get("pool", 0)) + 1
    points = dict(who=c.name, left=left, pool=pool)
    spent = say("{who} spends a Plot Point to reroll the d20 ({left} left; pool {pool}).", **points)
    _, line = _rolled(request, c, chance)
    return CheckOutcome(
        lines=(seq("🎭 ", spent), line),
        lasting=request.who.lasting | {"plot_points": left},
        campaign=request.campaign | {"pool": pool},
    )


def _may_reroll(c: RCCombatant) -> bool:
    """Plot Points are a hero's: a companion's are its controller's, a kept NPC's the pool's."""
    return c.holds_points and c.plot_points > 0


def _rolled(request: CheckRequest, c: RCCombatant, chance: Chance) -> tuple[bool, Text]:
    """Whether the check succeeded, and its line."""
    ability, adv, dis, bonus = _options(request)
    dc = _dc(request)
    save = request.kind == "save"
    # "Unconscious: You are unaware of your surroundings, cannot act": no challenge; a save is no act, and
    # a fight rolls the Unconscious's saves too
    if not save and c.has("Unconscious"):
        raise NotAllowed(
            say(
                "{who} is Unconscious and cannot act: no challenge until they wake. Saving throws are still rolled.",
                who=c.name,
            )
        )
    ok, result = d20_check(c, ability, dc, chance, adv, dis, settings=request.settings, save=save, bonus=bonus)
    kind = mark(ability.upper())
    if request.kind == "save":
        return ok, say("{who} {kind} save: {result}", who=c.name, kind=kind, result=result)
    return ok, say("{who} {kind} challenge: {result}", who=c.name, kind=kind, result=result)


def _dc(request: CheckRequest) -> int:
    label = next(k.label for k in KINDS if k.key == request.kind)
    if request.dc is None:
        raise InvalidInput(say("A {kind} needs a DC: the number to reach (`dc:`).", kind=term(label)))
    low, high = DC_RANGE
    if not low <= request.dc <= high:
        raise InvalidInput(say("A DC is between {low} and {high}.", low=low, high=high))
    return request.dc


def _options(request: CheckRequest) -> tuple[str, list[str], list[str], int]:
    """(ability, advantage reasons, disadvantage reasons, situational bonus) from the options."""
    options = request.options
    known_options(options, OPTIONS, say("Rotted Capes"), also=(*ABILITIES, *ADVANTAGE, *DISADVANTAGE, BONUS))
    for key, value in options.items():
        if key != BONUS and value is not True:
            raise InvalidInput(say("`{option}` takes no value.", option=key))
    if options.get(BONUS) is True:
        raise InvalidInput(say("`bonus` takes a whole number, e.g. `bonus=2` or `bonus=-1`."))
    bonus = flag_number(options, BONUS, -20, 20) or 0
    named = sorted({ABILITIES[key] for key in options if key in ABILITIES})
    if len(named) > 1:
        raise InvalidInput(say("A check uses one ability, not {named}.", named=listed(f"`{n}`" for n in named)))
    if not named and request.kind == "challenge":
        raise InvalidInput(
            say(
                "Name the ability the challenge uses in the options: {abilities} (e.g. `options:dex`).",
                abilities=listed(f"`{k}`" for k in OPTIONS[:6]),
            )
        )
    ability = named[0] if named else "con"
    adv = ["advantage"] if any(key in options for key in ADVANTAGE) else []
    dis = ["disadvantage"] if any(key in options for key in DISADVANTAGE) else []
    return ability, adv, dis, bonus
