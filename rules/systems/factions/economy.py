"""What a turn holds: a full move (2 zones, 4 sprinting) with no action, or
half a move plus a bonus and a main action, or half a move and two bonus
actions. Movement may be split around the actions."""

from __future__ import annotations

from rules.errors import InvalidInput

from .model import FactionsEncounter, Fighter

SPEED = 2


def speed(fighter: Fighter, sprint: bool = False) -> int:
    return SPEED * (2 if sprint or fighter.sprinting else 1)


def acted_yet(fighter: Fighter) -> bool:
    return bool(fighter.mains or fighter.bonuses)


def spend_move(enc: FactionsEncounter, fighter: Fighter, zones: int, sprint: bool) -> FactionsEncounter:
    if zones < 1:
        raise InvalidInput("Move at least one zone.")
    full = speed(fighter, sprint)
    limit = full // 2 if acted_yet(fighter) else full
    if fighter.moved + zones > limit:
        why = " after taking an action (half speed)" if acted_yet(fighter) else ""
        raise InvalidInput(
            f"{fighter.name} can move {limit - fighter.moved} more zone(s) this turn{why}"
            f"{'' if sprint or fighter.sprinting else '; sprint to double it'}."
        )
    return enc.update(fighter.id, moved=fighter.moved + zones, sprinting=fighter.sprinting or sprint)


def _check_half_move(fighter: Fighter, what: str) -> None:
    if fighter.moved > speed(fighter) // 2:
        raise InvalidInput(f"{fighter.name} moved its full speed this turn: no {what} left.")


def spend_main(enc: FactionsEncounter, fighter: Fighter) -> FactionsEncounter:
    _check_half_move(fighter, "main action")
    if fighter.mains or fighter.bonuses >= 2:
        raise InvalidInput(f"{fighter.name} has already used its main action this turn.")
    return enc.update(fighter.id, mains=1)


def spend_bonus(enc: FactionsEncounter, fighter: Fighter) -> FactionsEncounter:
    _check_half_move(fighter, "bonus action")
    if fighter.bonuses + fighter.mains >= 2:
        raise InvalidInput(f"{fighter.name} has no bonus action left this turn.")
    return enc.update(fighter.id, bonuses=fighter.bonuses + 1)


def summary(fighter: Fighter) -> list[str]:
    full = speed(fighter)
    limit = full // 2 if acted_yet(fighter) else full
    left = max(0, limit - fighter.moved)
    lines = [f"Move: {left} zone(s) left ({fighter.moved} moved{', sprinting' if fighter.sprinting else ''})"]
    if fighter.moved > full // 2:
        lines.append("Actions: none (full move)")
    else:
        main = "used" if fighter.mains or fighter.bonuses >= 2 else "ready"
        bonus = max(0, 2 - fighter.bonuses - fighter.mains)
        lines.append(f"Main action: {main} · bonus actions left: {bonus}")
    if fighter.grabbed_by:
        lines.append("Grabbed: can only try to break free (`/act break_free`)")
    return lines
