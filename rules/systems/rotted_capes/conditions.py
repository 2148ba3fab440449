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
MAX_EXHAUSTION = 6  # the seed's six levels: the sixth is death
# These follow from Stamina and Wounds: the damage rules set and clear them.
DERIVED = ("Unconscious", "Wounded", "Incapacitated")
HELPLESS = ("Unconscious", "Incapacitated")
# A bearer holds one of these per set of tags: Weakened on each stat and severity, Ongoing Damage from each
# source ("on fire or soaked in acid", tagged Engulfed – Fire, Engulfed – Acid, Bleeding…).
BY_TAGS = ("Weakened", "Ongoing Damage")


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
    """A condition replaces one of the same name; Exhaustion levels add up. Weakened and Ongoing Damage replace
    only one with the same tags: on another stat, or at another severity, both Weakened stand, each with its own
    duration, and `weakened` takes the higher penalty ("Multiple instances affecting the same stat do not
    stack"); a fire and an acid each burn, and end, on their own."""
    old = c.condition(condition.name)
    if old and condition.name == "Exhaustion":
        condition = condition.but(level=min(MAX_EXHAUSTION, old.level + condition.level))
    kept = tuple(x for x in c.conditions if not _same(x, condition))
    after = c.but(conditions=kept + (condition,))
    # Pace lost in the bearer's own turn is lost from what is left of it: Restrained at once "Your Pace
    # becomes 0", Exhaustion takes its levels off what remains.
    lost = pace(c) - pace(after)
    if lost > 0:
        e = after.economy
        after = after.but(economy=e.but(pace=0 if held(after) else max(0, e.pace - lost)))
    return after


def replaces(c: RCCombatant, condition: Condition) -> bool:
    """Whether `add` puts `condition` in the place of one `c` holds, rather than beside them all."""
    return replaced(c, condition) is not None


def replaced(c: RCCombatant, condition: Condition) -> Condition | None:
    """The condition `c` holds that `add` puts `condition` in the place of, if any."""
    return next((x for x in c.conditions if _same(x, condition)), None)


def _same(x: Condition, condition: Condition) -> bool:
    """Whether `condition` takes the place of `x`: the same name, and for Weakened and Ongoing Damage the same
    tags."""
    return x.name == condition.name and (condition.name not in BY_TAGS or _tag_set(x) == _tag_set(condition))


def _tag_set(x: Condition) -> frozenset[str]:
    return x.tag_words()


def remove(c: RCCombatant, name: str) -> RCCombatant:
    after = c.but(conditions=tuple(x for x in c.conditions if x.name != name))
    # Pace given back in the bearer's own turn (a grapple escaped) is theirs for the rest of it.
    gained = pace(after) - pace(c)
    if gained > 0:
        e = after.economy
        most = e.pace + gained if e.dashed else pace(after)
        after = after.but(economy=e.but(pace=min(e.pace + gained, most)))
    return after


def helpless(c: RCCombatant) -> bool:
    return any(c.has(name) for name in HELPLESS)


def exhaustion(c: RCCombatant) -> int:
    cond = c.condition("Exhaustion")
    return cond.level if cond else 0


def wound_penalty(c: RCCombatant) -> int:
    """Wounded and Exhaustion do not stack: the larger applies. Zombies feel no wounds."""
    taken = 0 if c.zombie else max(0, c.max_wounds - c.wounds)
    return max(taken, exhaustion(c))


def brutal_penalty(c: RCCombatant, settings) -> int:
    """The optional Brutal Continuity (campaign setting `brutal_continuity`): Exhaustion's penalty "also applies
    to the Hero's saves, defenses, and burnout threshold" (the bot tracks no burnout threshold)."""
    return exhaustion(c) if c.is_hero and settings.get("brutal_continuity", False) else 0


def defense(c: RCCombatant, name: str, settings) -> int:
    """A defense (avoidance, fortitude, willpower) as it stands: the sheet's, less a Weakened on it and
    Brutal Continuity's Exhaustion penalty."""
    score: int = getattr(c.sheet, name)
    return score - weakened(c, name, score) - brutal_penalty(c, settings)


def held(c: RCCombatant) -> bool:
    """Grappled or Restrained: "Your Pace becomes 0", with no Dash or bonus to lift it."""
    return c.has("Grappled") or c.has("Restrained")


def pace(c: RCCombatant) -> int:
    """The sheet's Pace "capped at 5 Areas unless you have a power, feat, or feature that breaks that limit"
    (`pace_uncapped`), less Exhaustion."""
    if held(c):
        return 0
    most = c.sheet.pace if c.sheet.pace_uncapped else min(c.sheet.pace, PACE_CAP)
    return max(0, most - exhaustion(c))


def dash_pace(c: RCCombatant) -> int:
    """Areas a Dash adds: the Pace again. Exhaustion that wears a Pace down to 0 still leaves a Dash of
    1 area ("they can still move … they must use the dash action to move 1 area"); a creature with no
    Pace on its sheet, or held fast, gets none."""
    if held(c) or pace(c) or not c.sheet.pace:
        return pace(c)
    return 1


def weakened(c: RCCombatant, stat: str, score: int) -> int:
    """Penalty to `score`, the defense or ability modifier a Weakened tag names: −2, Mild −1, Severe −4,
    Crippling halves it. Several on one stat do not stack: the highest penalty counts."""
    return max((_weakness(x, score) for x in c.conditions if x.name == "Weakened" and x.tagged(stat)), default=0)


def _weakness(x: Condition, score: int) -> int:
    if x.tagged("crippling"):
        # rounded down, as half Stamina at the end of a scene is; halving a score at 0 or below would raise it
        return max(0, score - score // 2)
    if x.tagged("severe"):
        return 4
    if x.tagged("mild"):
        return 1
    return 2


def knocked_out(c: RCCombatant) -> bool:
    """Unconscious from Stamina loss; a power or a knockout that imposed it names its source."""
    knocked = c.condition("Unconscious")
    return knocked is not None and not knocked.source and c.current_stamina == 0


def scene_stamina(most: int, knocked: bool) -> int:
    """The Stamina a scene's end leaves: "you recover all of your Stamina. If you are Unconscious at the end
    of a scene due to stamina loss […] you regain half your total Stamina instead" (rounded down)."""
    return most // 2 if knocked else most


def dr_penalty(c: RCCombatant) -> tuple[int, str]:
    """An acid engulfing can eat armour: a `DR -2` tag lowers every DR by 2. Two such tags do not stack: the
    larger counts, as for Weakened ("Multiple instances affecting the same stat do not stack").
    Returns the penalty and the condition whose tag it is (0 and "" without one)."""
    found = (
        (int(match.group(1)), cond.name)
        for cond in c.conditions
        for tag in cond.tags
        if (match := re.search(r"dr\s*-\s*(\d+)", tag.casefold()))
    )
    return max(found, key=lambda pair: pair[0], default=(0, ""))


def _own_rolls(c: RCCombatant) -> tuple[list[str], list[str]]:
    """Advantage and disadvantage this combatant's conditions put on all its rolls."""
    dis: list[str] = []
    if c.has("Stunned"):
        dis.append(N_("stunned"))
    if c.has("Frightened"):
        dis.append(N_("frightened"))
    return [], dis


def attack_sources(
    enc: RCEncounter, attacker: RCCombatant, target: RCCombatant, *, melee: bool, defense: str, unaware: bool
) -> tuple[list[str], list[str], int]:
    """(advantage reasons, disadvantage reasons, flat modifier) from tracked state; `unaware`: the target
    cannot see the attacker."""
    adv, dis = _own_rolls(attacker)
    flat = 0
    blinded = attacker.condition("Blinded")
    if blinded is not None:
        if blinded.tagged("partial"):
            flat -= 2
        else:
            dis.append(N_("attacker blinded"))
    blinded = target.condition("Blinded")
    if blinded is not None:
        if blinded.tagged("partial"):
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
    if any(x.name == "Ongoing Damage" and x.tagged("engulfed fire") for x in attacker.conditions):
        dis.append(N_("engulfed in fire"))
    if target.demanding is not None:
        adv.append(N_("target busy with a demanding action"))
    dodges = target.dodging and defense == "avoidance" and not helpless(target) and pace(target) > 0
    if dodges and sees(target, attacker) and not unaware:
        dis.append(N_("target dodging"))
    if attacker.assisted_by:
        adv.append(N_("assisted"))
    return adv, dis, flat


def sees(c: RCCombatant, other: RCCombatant) -> bool:
    """Whether `c` can see where `other`'s attack comes from (Dodge: "You must be able to see where the
    Attack is coming from"): not when `other` is Hidden, nor when `c` is Blinded (a Partial tag still sees)."""
    blinded = c.condition("Blinded")
    return not other.has("Hidden") and (blinded is None or blinded.tagged("partial"))


def save_sources(c: RCCombatant) -> tuple[list[str], list[str]]:
    adv, dis = _own_rolls(c)
    if c.assisted_by:
        adv.append(N_("assisted"))
    return adv, dis
