"""Core conditions: names, durations that end by themselves, and the
penalties and advantage they impose on rolls."""

from __future__ import annotations

import re

from ...errors import InvalidInput
from ...said import N_, joined, say, term
from ...usertext import one_line, quoted
from .model import PACE_CAP, Condition, RCCombatant, RCEncounter

NAMES = (
    N_("Blinded"),
    N_("Charmed"),
    N_("Exhaustion"),
    N_("Frightened"),
    N_("Grappled"),
    N_("Hidden"),
    N_("Ongoing Damage"),
    N_("Prone"),
    N_("Restrained"),
    N_("Stunned"),
    N_("Unconscious"),
    N_("Weakened"),
    N_("Wounded"),
    N_("Incapacitated"),
)
_ALIASES = {
    "ongoing": "Ongoing Damage",
    "ongoingdamage": "Ongoing Damage",
    "exhausted": "Exhaustion",
    "stun": "Stunned",
    "hide": "Hidden",
    "blind": "Blinded",
    "charm": "Charmed",
    "fear": "Frightened",
    "grapple": "Grappled",
    "restrain": "Restrained",
}
# These follow from Stamina and Wounds: the damage rules set and clear them.
DERIVED = ("Unconscious", "Wounded", "Incapacitated")
HELPLESS = ("Unconscious", "Incapacitated")


def canonical(name: str) -> tuple[str, int]:
    """`"exhaustion 2"` → ("Exhaustion", 2); `"stunned"` → ("Stunned", 1)."""
    text = " ".join((name or "").split())
    level = 1
    match = re.match(r"^(.*?)\s+(\d)$", text)
    if match:
        text, level = match.group(1), int(match.group(2))
    key = text.casefold().replace(" ", "")
    for known in NAMES:
        if known.casefold().replace(" ", "") == key:
            return known, level
    if key in _ALIASES:
        return _ALIASES[key], level
    raise InvalidInput(
        say(
            "{name} is not a Rotted Capes condition. Conditions: {names}.",
            name=quoted(text),
            names=joined(", ", map(term, NAMES)),
        )
    )


def parse_duration(text: str | None, enc: RCEncounter, bearer: RCCombatant) -> dict:
    """`"3 rounds"`, `"end of Nova's next turn"`, `"save"`, `"scene"` → Condition fields."""
    text = " ".join((text or "").split()).casefold()
    if not text or text in ("until removed", "none", "permanent"):
        return {"until": "none"}
    if text in ("scene", "end of scene", "until end of scene"):
        return {"until": "scene"}
    if text in ("save", "until saved", "saved"):
        return {"until": "save"}
    match = re.match(r"^(\d{1,2})\s*(rounds?|turns?)?$", text)
    if match:
        return {"until": "rounds", "turns_left": max(1, int(match.group(1)))}
    match = re.match(r"^(?:until\s+)?(?:the\s+)?end of\s+(.+?)(?:'s|’s)?\s+next turn$", text)
    if match:
        who = match.group(1)
        owner = bearer.id if who in ("my", "its", "their", "his", "her", "own") else enc.find(who).id
        return {"until": "turn_end", "owner": owner}
    raise InvalidInput(
        say(
            "Durations: `3 rounds`, `end of <name>'s next turn`, `save` (ends on a successful save), `scene`, or "
            "leave it empty."
        )
    )


def parse_tags(text: str | None) -> tuple[str, ...]:
    return tuple(one_line(t, 30) for t in (text or "").split(",") if t.strip())[:6]


def add(c: RCCombatant, condition: Condition) -> RCCombatant:
    """A condition replaces one of the same name; Exhaustion levels add up."""
    old = c.condition(condition.name)
    if old and condition.name == "Exhaustion":
        condition = condition.but(level=min(6, old.level + condition.level))
    kept = tuple(x for x in c.conditions if x.name != condition.name)
    return c.but(conditions=kept + (condition,))


def remove(c: RCCombatant, name: str) -> RCCombatant:
    return c.but(conditions=tuple(x for x in c.conditions if x.name != name))


def helpless(c: RCCombatant) -> bool:
    return any(c.has(name) for name in HELPLESS)


def exhaustion(c: RCCombatant) -> int:
    cond = c.condition("Exhaustion")
    return cond.level if cond else 0


def wound_penalty(c: RCCombatant) -> int:
    """Wounded and Exhaustion do not stack: the larger applies. Zombies feel no wounds."""
    taken = 0 if c.zombie else max(0, c.max_wounds - c.wounds)
    return max(taken, exhaustion(c))


def pace(c: RCCombatant) -> int:
    if c.has("Grappled") or c.has("Restrained"):
        return 0
    return max(0, min(c.sheet.pace, PACE_CAP) - exhaustion(c))


def weakened(c: RCCombatant, stat: str) -> int:
    """Penalty to a defense or ability named in a Weakened tag (−2; Mild −1, Severe −4)."""
    cond = c.condition("Weakened")
    if not cond or not cond.tagged(stat):
        return 0
    if cond.tagged("severe"):
        return 4
    if cond.tagged("mild"):
        return 1
    return 2


def dr_penalty(c: RCCombatant) -> int:
    """An acid engulfing can eat armour: a `DR -2` tag lowers every DR by 2."""
    for cond in c.conditions:
        for tag in cond.tags:
            match = re.search(r"dr\s*-\s*(\d+)", tag.casefold())
            if match:
                return int(match.group(1))
    return 0


def _own_rolls(c: RCCombatant) -> tuple[list[str], list[str]]:
    """Advantage and disadvantage this combatant's conditions put on all its rolls."""
    dis: list[str] = []
    if c.has("Stunned"):
        dis.append(N_("stunned"))
    if c.has("Frightened"):
        dis.append(N_("frightened"))
    return [], dis


def attack_sources(
    enc: RCEncounter, attacker: RCCombatant, target: RCCombatant, *, melee: bool, defense: str
) -> tuple[list[str], list[str], int]:
    """(advantage reasons, disadvantage reasons, flat modifier) from tracked state."""
    adv, dis = _own_rolls(attacker)
    flat = 0
    if attacker.has("Blinded"):
        if attacker.condition("Blinded").tagged("partial"):
            flat -= 2
        else:
            dis.append(N_("attacker blinded"))
    if target.has("Blinded"):
        if target.condition("Blinded").tagged("partial"):
            flat += 2
        else:
            adv.append(N_("target blinded"))
    if attacker.has("Restrained"):
        dis.append(N_("attacker restrained"))
    if target.has("Restrained"):
        adv.append(N_("target restrained"))
    stunned = target.condition("Stunned")
    if stunned and stunned.tagged("greater"):
        adv.append(N_("target greatly stunned"))
    if attacker.has("Prone") and melee:
        dis.append(N_("attacker prone"))
    if target.has("Prone") and melee:
        adv.append(N_("target prone"))
    if attacker.has("Hidden"):
        adv.append(N_("attacker hidden"))
    if target.has("Hidden"):
        dis.append(N_("target hidden"))
    engulfed = attacker.condition("Ongoing Damage")
    if engulfed and engulfed.tagged("engulfed") and engulfed.tagged("fire"):
        dis.append(N_("engulfed in fire"))
    if target.demanding is not None:
        adv.append(N_("target busy with a demanding action"))
    if target.dodging and defense == "avoidance" and not helpless(target) and pace(target) > 0:
        dis.append(N_("target dodging"))
    if attacker.assisted_by:
        adv.append(N_("assisted"))
    return adv, dis, flat


def save_sources(c: RCCombatant) -> tuple[list[str], list[str]]:
    adv, dis = _own_rolls(c)
    if c.assisted_by:
        adv.append(N_("assisted"))
    return adv, dis
