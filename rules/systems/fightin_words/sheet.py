"""Numbers derived from a sheet and a fighter's wounds and conditions."""

from __future__ import annotations

from rules.errors import InvalidInput, NotAllowed
from rules.said import N_, say, term
from rules.text import Text
from rules.usertext import listed, mark, quoted

from .model import UNARMED, Fighter, Weapon, parse_weapons

HELPLESS = (N_("helpless"), N_("unconscious"), N_("sleeping"), N_("broken"), N_("paralyzed"))


def toughness(f: Fighter) -> int:
    """6 + 3×scale + Endurance + Defence, −1 per wound; Defence never below +0
    (natural armour takes over from a 'negative' armour)."""
    s = f.sheet
    return 6 + 3 * s.scale + s.endurance + max(0, s.defence) - f.wounds


def minimum_toughness(f: Fighter) -> int:
    return toughness(f) - 6


def will(f: Fighter) -> int:
    """Spirit + 6 + modifiers, −1 per morale penalty; never below 0."""
    s = f.sheet
    return max(0, s.spirit + 6 + s.will_bonus - f.morale_penalties)


def minimum_will(f: Fighter) -> int:
    return will(f) - 6


def pair(score: int, minimum: int) -> str:
    """`9/3`, or `4/−2` with a minimum below zero, as Toughness and Will are written."""
    return f"{score}/{minimum}" if minimum >= 0 else f"{score}/−{-minimum}"


def has(f: Fighter, name: str) -> bool:
    return any(c.name == name for c in f.conditions)


def unconscious(f: Fighter) -> bool:
    return f.dying or f.stable or has(f, "unconscious")


def helpless(f: Fighter) -> bool:
    return unconscious(f) or any(has(f, name) for name in HELPLESS)


def can_defend(f: Fighter) -> str:
    """Why this fighter cannot make defence rolls now, or '' if they can."""
    if f.dead:
        return "dead"
    if helpless(f):
        return "helpless"
    if has(f, "flat-footed"):
        return "flat-footed"
    return ""


def can_act(f: Fighter) -> bool:
    return not f.out and not f.dead and not helpless(f)


def cannot_act_reason(f: Fighter) -> Text:
    if f.dead:
        return say("dead")
    if f.dying:
        return say("dying")
    if f.stable:
        return say("stable but unconscious")
    if has(f, "broken"):
        return say("Broken")
    return term(next((c.name for c in f.conditions if c.name in HELPLESS), "helpless"))


def refuse_if_down(f: Fighter) -> None:
    """One down on their own turn (a GM's /damage or /condition) "cannot take any actions"."""
    if not can_act(f):
        raise NotAllowed(say("{who} cannot act ({why}).", who=f.name, why=cannot_act_reason(f)))


def weapons(f: Fighter) -> tuple[Weapon, ...]:
    return parse_weapons(f.sheet.weapons)


def weapon(f: Fighter, name: str | None) -> Weapon:
    known = weapons(f)
    if not name:
        return known[0] if known else UNARMED
    key = name.strip().casefold()
    for candidate in known + (UNARMED,):
        if candidate.name.casefold() == key:
            return candidate
    for candidate in known:
        if candidate.name.casefold().startswith(key):
            return candidate
    names = listed(weapon_name(w) for w in known + (UNARMED,))
    raise InvalidInput(
        say(
            "{who} has no weapon called {name}. Their weapons: {weapons}.",
            who=f.name,
            name=quoted(name),
            weapons=names,
        )
    )


def weapon_name(w: Weapon) -> Text:
    """A weapon's name as the lines show it: as typed, save the bare hands, which are the rules' word."""
    return term(str(w.name)) if w == UNARMED else mark(w.name)


def skill(f: Fighter, w: Weapon) -> int:
    s = f.sheet
    if w.magic:
        return s.magic_skill
    return s.ranged_skill if w.ranged else s.weapon_skill


def dodge(f: Fighter) -> int:
    """The Dodge bonus: the Reflex skill, unless the sheet gives its own."""
    return f.sheet.reflex if f.sheet.dodge is None else f.sheet.dodge


def parry(f: Fighter) -> int:
    """The Parry bonus: the Weapon Skill, unless the sheet gives its own."""
    return f.sheet.weapon_skill if f.sheet.parry is None else f.sheet.parry


def melee_bonus_damage(f: Fighter) -> int:
    """Melee damage adds Strength and three times the wielder's scale."""
    return f.sheet.strength + 3 * f.sheet.scale
