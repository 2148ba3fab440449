"""What a turn holds: a full move (2 zones, 4 sprinting) with no action, or
half a move plus a bonus and a main action, or half a move and two bonus
actions. Movement may be split around the actions."""

from __future__ import annotations

from rules.errors import InvalidInput
from rules.said import N_, say
from rules.text import Text

from .model import FactionsEncounter, Fighter

SPEED = 2


def speed(fighter: Fighter, sprint: bool = False) -> int:
    return SPEED * (2 if sprint or fighter.sprinting else 1)


def acted_yet(fighter: Fighter) -> bool:
    return bool(fighter.mains or fighter.bonuses)


def spend_move(enc: FactionsEncounter, fighter: Fighter, zones: int, sprint: bool) -> FactionsEncounter:
    if zones < 1:
        raise InvalidInput(say("Move at least one zone."))
    full = speed(fighter, sprint)
    limit = full // 2 if acted_yet(fighter) else full
    if fighter.moved + zones > limit:
        acted, sprinted = acted_yet(fighter), sprint or fighter.sprinting
        if acted and sprinted:
            template = N_("{who} can move {n} more zone(s) this turn after taking an action (half speed).")
        elif acted:
            template = N_(
                "{who} can move {n} more zone(s) this turn after taking an action (half speed); sprint to double it."
            )
        elif sprinted:
            template = N_("{who} can move {n} more zone(s) this turn.")
        else:
            template = N_("{who} can move {n} more zone(s) this turn; sprint to double it.")
        raise InvalidInput(say(template, who=fighter.name, n=limit - fighter.moved))
    return enc.update(fighter.id, moved=fighter.moved + zones, sprinting=fighter.sprinting or sprint)


def _check_half_move(fighter: Fighter, main: bool) -> None:
    if fighter.moved > speed(fighter) // 2:
        if main:
            raise InvalidInput(say("{who} moved its full speed this turn: no main action left.", who=fighter.name))
        raise InvalidInput(say("{who} moved its full speed this turn: no bonus action left.", who=fighter.name))


def spend_main(enc: FactionsEncounter, fighter: Fighter) -> FactionsEncounter:
    _check_half_move(fighter, main=True)
    if fighter.mains:
        raise InvalidInput(say("{who} has already used its main action this turn.", who=fighter.name))
    if fighter.bonuses >= 2:
        raise InvalidInput(
            say(
                "{who} took two bonus actions this turn: the second took the place of the main action.",
                who=fighter.name,
            )
        )
    return enc.update(fighter.id, mains=1)


def spend_bonus(enc: FactionsEncounter, fighter: Fighter) -> FactionsEncounter:
    _check_half_move(fighter, main=False)
    if fighter.bonuses + fighter.mains >= 2:
        raise InvalidInput(say("{who} has no bonus action left this turn.", who=fighter.name))
    return enc.update(fighter.id, bonuses=fighter.bonuses + 1)


def summary(fighter: Fighter) -> list[Text]:
    full = speed(fighter)
    limit = full // 2 if acted_yet(fighter) else full
    left = max(0, limit - fighter.moved)
    lines: list[Text]
    if fighter.sprinting:
        lines = [say("Move: {left} zone(s) left ({moved} moved, sprinting)", left=left, moved=fighter.moved)]
    else:
        lines = [say("Move: {left} zone(s) left ({moved} moved)", left=left, moved=fighter.moved)]
    if fighter.moved > full // 2:
        lines.append(say("Actions: none (full move)"))
    else:
        bonus = max(0, 2 - fighter.bonuses - fighter.mains)
        if fighter.mains or fighter.bonuses >= 2:
            lines.append(say("Main action: used · bonus actions left: {n}", n=bonus))
        else:
            lines.append(say("Main action: ready · bonus actions left: {n}", n=bonus))
    if fighter.grabbed_by:
        lines.append(say("Grabbed: can only try to break free (`/act break_free`)"))
    return lines
