"""A stored character's saves (`/check`), rolled as a fight rolls them (`saves.rolled`): a d20 at or
under the attribute passes, a natural 20 fails while the campaign keeps `nat20_fails`.

The seed's saves take no target number and no modifier: the attribute is the target. Besides the
three saves it names two uses outside a blow: a long chase (a group AGI save: those who pass escape)
and morale (a group WIT save: those who fail surrender or retreat; the fearless are immune). The
lasting state decides who may roll: the dead roll nothing, and only a character still fighting makes
a morale save, as in a fight. Nothing a save does is carried: a check changes no lasting value."""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput, Stale
from rules.randomness import Chance
from rules.said import N_, say, seq, term
from rules.system import CheckKind, CheckOutcome, CheckRequest, known_options
from rules.text import Text
from rules.usertext import one_line

from .saves import rolled
from .sheet import FactionsSheet

KINDS = (
    CheckKind(
        key="str",
        label=N_("STR save"),
        help=N_("d20 at or under STR: resist a disarm, shove or grab, break free, free an ally"),
        dc=False,
    ),
    CheckKind(
        key="agi",
        label=N_("AGI save"),
        help=N_("d20 at or under AGI: dodge, keep one's seat on a moving mount"),
        dc=False,
    ),
    CheckKind(
        key="wit",
        label=N_("WIT save"),
        help=N_("d20 at or under WIT: hit when it is hard (unseen, far, moving)"),
        dc=False,
    ),
    CheckKind(
        key="chase",
        label=N_("Chase"),
        help=N_("AGI save in a long chase: a pass escapes, a failure is reached"),
        dc=False,
    ),
    CheckKind(
        key="morale",
        label=N_("Morale"),
        help=N_("WIT save: a failure surrenders or retreats; the fearless are immune"),
        dc=False,
    ),
)

ATTRIBUTE = {"str": "str", "agi": "agi", "wit": "wit", "chase": "agi", "morale": "wit"}
OPTIONS = ("why",)  # what the save is for, as the GM's `/save why:` writes it


def check(request: CheckRequest, chance: Chance) -> CheckOutcome:
    kind = next(k for k in KINDS if k.key == request.kind)
    who = request.who
    if who.lasting.get("dead"):
        raise InvalidInput(say("{who} is dead: the dead roll no saves.", who=who.name))
    if request.dc is not None:
        raise InvalidInput(
            say("The {kind} rolls under the character's attribute: it takes no DC.", kind=term(kind.label))
        )
    why = _why(request.options)
    sheet = FactionsSheet.model_validate(who.sheet)
    if kind.key == "morale":
        # As at a round's end: the fearless and those no longer fighting make no morale save.
        if sheet.fearless:
            return CheckOutcome(lines=(say("{who} is immune to fear, hence to morale: no save.", who=who.name),))
        if who.lasting.get("incapacitated"):
            raise InvalidInput(
                say("{who} is incapacitated: only those still fighting make a morale save.", who=who.name)
            )
    attribute = ATTRIBUTE[kind.key]
    nat20_fails = bool(request.settings.get("nat20_fails", True))
    result = rolled(who.name, getattr(sheet, attribute), attribute, chance, nat20_fails, why or _default_why(kind.key))
    return CheckOutcome(lines=(seq(result.text, "."),) + _consequence(kind.key, who.name, result.passed))


def check_again(request: CheckRequest, memo: dict[str, Any], offer: str, chance: Chance) -> CheckOutcome:
    # The seed offers nothing after a save (no reroll, no point to spend).
    raise Stale(say("That check is over: its offer has passed."))


def _why(options: dict[str, Any]) -> Text | str:
    known_options(options, tuple(f"{key}=…" for key in OPTIONS), say("save"))
    why = options.get("why", "")
    if why is True:
        raise InvalidInput(say('`why` takes what the save is for, e.g. `why="to climb the wall"`.'))
    return one_line(why, 80) if why else ""


def _default_why(kind: str) -> Text | str:
    if kind == "chase":
        return say("to escape")
    if kind == "morale":
        return say("(morale)")
    return ""


def _consequence(kind: str, who: str, passed: bool) -> tuple[Text, ...]:
    if kind == "chase":
        return (say("{who} escapes.", who=who) if passed else say("{who} is reached by the pursuers.", who=who),)
    if kind == "morale":
        if passed:
            # "not subject to morale for the remainder of the stretch" is marked by a fight's own round-end
            # save (morale.py); a check records nothing, so its line promises no immunity.
            return (say("{who} holds: does not surrender or retreat.", who=who),)
        return (say("{who} breaks: surrenders or retreats.", who=who),)
    return ()
