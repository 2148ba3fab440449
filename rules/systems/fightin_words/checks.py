"""/check: a stored character's checks, rolled as the fight rolls them (its sheet and what it
carries between fights): a stat or a skill against a DC, and opposed Will (a veto) or Initiative
checks, whose ties roll again."""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput, NotAllowed, Stale
from rules.randomness import Chance
from rules.said import N_, say, term
from rules.system import CheckKind, CheckOutcome, CheckRequest, Resting, known_options
from rules.text import Text
from rules.usertext import quoted

from . import initiative
from .between import carry_in
from .gm import SKILL, roll_check, stat_key
from .model import Fighter, Sheet
from .sheet import minimum_will, pair, will

# --- /check: a stored character's checks out of (or beside) a fight ----------------------

MAX_REROLLS = 50  # an opposed tie that survives this many rerolls is left to the GM

STAT_KINDS = ("reflex", "dex", "strength", "endurance", "spirit", "fortitude", "will")

KINDS = (
    CheckKind(key="reflex", label=N_("Reflex"), help=N_("d6 + Reflex vs DC (catch a ledge when falling: DC 4)")),
    CheckKind(key="dex", label=N_("Dex"), help=N_("d6 + Dexterity vs DC")),
    CheckKind(key="strength", label=N_("Strength"), help=N_("d6 + Strength vs DC")),
    CheckKind(key="endurance", label=N_("Endurance"), help=N_("d6 + Endurance vs DC")),
    CheckKind(key="spirit", label=N_("Spirit"), help=N_("d6 + Spirit vs DC")),
    CheckKind(
        key="fortitude",
        label=N_("Fortitude"),
        help=N_("d6 + Fortitude + scale vs DC (a poison's Fort DC, a called shot's damage)"),
    ),
    CheckKind(
        key="will",
        label=N_("Will"),
        help=N_("d6 + Will (less morale penalties) vs DC, or opposed (a veto); ties roll again"),
        opposed=True,
    ),
    CheckKind(
        key="initiative",
        label=N_("Initiative"),
        help=N_("d6 + Reflex + Dex: who does something first; ties roll again"),
        opposed=True,
        dc=False,
    ),
    CheckKind(
        key="skill",
        label=N_("Skill"),
        help=N_('d6 + a skill\'s bonus vs DC: options:"skill=medicine bonus=2"'),
    ),
)

OPTIONS = {
    "reflex": ("bonus",),
    "dex": ("bonus",),
    "strength": ("bonus",),
    "endurance": ("bonus",),
    "spirit": ("bonus",),
    "fortitude": ("bonus",),
    "will": ("bonus", "veto"),
    "initiative": (),
    "skill": ("skill", "bonus"),
}


def check(request: CheckRequest, chance: Chance) -> CheckOutcome:
    kind = request.kind
    options = _options(request)
    if kind == "initiative":
        if request.dc is not None:
            raise InvalidInput(
                say("Initiative is not rolled against a DC: roll it against another character (`against:`).")
            )
    elif request.dc is None and request.against is None:
        if kind == "will":
            raise InvalidInput(say("A Will check needs a DC (`dc:`) or another character to oppose (`against:`)."))
        raise InvalidInput(say("The {kind} check needs a DC (`dc:`).", kind=_label(kind)))
    if request.dc is not None and request.against is not None:
        raise InvalidInput(say("Give a DC or another character (`against:`), not both."))
    who = _fighter(request.who, "c0")
    if options["veto"] and request.against is None:
        raise InvalidInput(say("A veto opposes the acting character: name them with `against:`."))
    if options["veto"] and will(who) <= 0:
        raise NotAllowed(say("{who} has zero Will and cannot attempt to veto.", who=who.name))
    if request.against is None:
        if kind == "initiative":
            _, line = _roll(kind, who, options, chance)
        else:
            _, line = roll_check(who, _stat(kind, options), options["bonus"], request.dc, chance)
        return CheckOutcome(lines=(line,))
    other = _fighter(request.against, "c1")
    if _same(request.who, request.against):
        raise InvalidInput(say("A character cannot oppose themselves."))
    return _opposed(request, who, other, options, chance)


def check_again(request: CheckRequest, memo: dict[str, Any], offer: str, chance: Chance) -> CheckOutcome:
    # Every check here is settled by its own roll (a tie rerolls at once): nothing is offered afterwards.
    raise Stale(say("That check offers nothing more: roll a new one with /check."))


def _opposed(
    request: CheckRequest, who: Fighter, other: Fighter, options: dict[str, Any], chance: Chance
) -> CheckOutcome:
    """Both roll; "In cases of a tie, roll again." — as often as it takes, every roll shown."""
    lines: list[Text] = []
    for _ in range(MAX_REROLLS):
        mine, line = _roll(request.kind, who, options, chance)
        lines.append(line)
        theirs, line = _roll(request.kind, other, {"bonus": 0, "skill": None, "veto": False}, chance)
        lines.append(line)
        if mine != theirs:
            break
        lines.append(say("Tie at {total}: both roll again.", total=mine))
    else:
        lines.append(say("Still tied after {n} rolls: the GM decides.", n=MAX_REROLLS))
        return CheckOutcome(lines=tuple(lines))
    winner, loser = (who, other) if mine > theirs else (other, who)
    if not options["veto"]:
        lines.append(
            say("{winner} wins ({high} to {low}).", winner=winner.name, high=max(mine, theirs), low=min(mine, theirs))
        )
        return CheckOutcome(lines=tuple(lines))
    if winner is who:
        lines.append(
            say(
                "{who}'s veto holds ({high} to {low}): {other}'s turn is skipped.",
                who=who.name,
                other=other.name,
                high=mine,
                low=theirs,
            )
        )
        return CheckOutcome(lines=tuple(lines))
    # "If the acting character wins, he has control for the turn and the vetoing character takes a morale penalty."
    hurt = who.but(morale_penalties=who.morale_penalties + 1)
    lines.append(
        say(
            "{who}'s veto fails ({low} to {high}): {other} keeps control; {who} takes a morale penalty, Will {will}.",
            who=who.name,
            other=other.name,
            low=mine,
            high=theirs,
            will=pair(will(hurt), minimum_will(hurt)),
        )
    )
    lasting = dict(request.who.lasting) | {"morale_penalties": hurt.morale_penalties}
    return CheckOutcome(lines=tuple(lines), lasting=lasting)


def _roll(kind: str, f: Fighter, options: dict[str, Any], chance: Chance) -> tuple[int, Text]:
    if kind == "initiative":
        total, line = initiative.check(f, chance)
        return total, say("{who} Initiative: {roll}.", who=f.name, roll=line)
    return roll_check(f, _stat(kind, options), options["bonus"], None, chance)


def _stat(kind: str, options: dict[str, Any]) -> str:
    if kind != "skill":
        return kind
    if not options["skill"]:
        raise InvalidInput(say('Name the skill and give its bonus: `options:"skill=medicine bonus=2"`.'))
    return str(options["skill"])


def _options(request: CheckRequest) -> dict[str, Any]:
    known_options(request.options, OPTIONS[request.kind], _label(request.kind))
    raw = request.options.get("bonus", 0)
    try:
        bonus = int(str(raw).replace("−", "-").replace("+", ""))
    except ValueError:
        raise InvalidInput(say("The bonus must be a whole number, e.g. `bonus=2` or `bonus=-1`.")) from None
    if raw is True or not -20 <= bonus <= 20:
        raise InvalidInput(say("The bonus must be a whole number, e.g. `bonus=2` or `bonus=-1`."))
    skill = request.options.get("skill")
    if skill is True or (skill and not SKILL.fullmatch(stat_key(str(skill)))):
        raise InvalidInput(say("A skill's name is a word or two, e.g. `skill=medicine`."))
    if skill and stat_key(str(skill)) in STAT_KINDS:
        raise InvalidInput(
            say("{stat} is on the sheet: roll `kind:{key}`.", stat=quoted(str(skill)), key=stat_key(str(skill)))
        )
    return {
        "bonus": bonus,
        "skill": stat_key(str(skill)) if skill else None,
        "veto": request.options.get("veto") is True,
    }


def _label(kind: str) -> Text:
    return term(next(k.label for k in KINDS if k.key == kind))


def _same(one: Resting, other: Resting) -> bool:
    """Two players may both have a *Max*: a stored character is its id, or else its owner's name for it."""
    if one.character_id is not None and other.character_id is not None:
        return one.character_id == other.character_id
    return one.owner_id == other.owner_id and one.name.casefold() == other.name.casefold()


def _fighter(r: Resting, cid: str) -> Fighter:
    """The stored character as the fight would see it: its sheet and what it carries."""
    f = carry_in(Fighter(id=cid, name=r.name, sheet=Sheet(**r.sheet)), r.lasting)
    if f.dying or f.stable or "unconscious" in {c.name for c in f.conditions}:
        raise NotAllowed(say("{who} is unconscious and makes no checks.", who=f.name))
    return f
