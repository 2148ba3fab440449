"""What damage does once it lands: armour, grit, critical damage, death.

Armour (plus 1 for cover, never above 3) reduces each hit; grit soaks what
is left first; anything that reaches health is critical damage and
incapacitates (a campaign may allow a STR save to shrug it off); health 0
kills. Direct damage skips armour and grit.

A hidden target's armour, grit and health are secret, and so is what is left of
a hit after its armour; its steps are always written out (armour 0, no grit),
so that a missing step does not tell either.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.model import Event
from rules.said import N_, joined, say, seq
from rules.secrets import secret
from rules.text import Text

from .model import FactionsEncounter, Fighter
from .saves import Dice, save

MAX_ARMOUR = 3


def armour_of(target: Fighter, cover: bool) -> int:
    return min(MAX_ARMOUR, target.armour + (1 if cover else 0))


def after_armour(target: Fighter, amount: int, *, cover: bool = False, direct: bool = False) -> int:
    """The damage a hit deals once armour has had its say (used to order counters)."""
    return max(0, amount) if direct else max(0, amount - armour_of(target, cover))


@dataclass(frozen=True, slots=True)
class Harm:
    enc: FactionsEncounter
    events: list[Event]
    knocked_out: bool  # now incapacitated or dead: a counter it owed never lands


def harm(
    enc: FactionsEncounter,
    cid: str,
    amount: int,
    chance: Dice,
    *,
    cover: bool = False,
    direct: bool = False,
    source: Text | str = "",
    by_enemy: bool = True,
) -> Harm:
    """`source`: where the damage comes from, said after it (a roll, `(d4, shoved by a larger foe)`);
    `by_enemy`: an enemy deals it, so it ends a surrender ("harmed by the enemy")."""
    target = enc.get(cid)
    hidden = target.hidden

    def shown(value: int) -> Text:
        return secret(value, target)

    steps: list[Text] = [say("{n} damage {source}", n=amount, source=source) if source else say("{n} damage", n=amount)]
    if direct:
        dealt = max(0, amount)
        steps.append(say("direct"))
    else:
        armour = armour_of(target, cover)
        dealt = max(0, amount - armour)
        if armour or hidden:
            template = N_("− armour {armour} (cover) = {dealt}") if cover else N_("− armour {armour} = {dealt}")
            steps.append(say(template, armour=shown(armour), dealt=shown(dealt)))
    grit, health = target.grit, target.health
    if not direct and dealt and (grit or hidden):
        soaked = min(grit, dealt)
        grit -= soaked
        steps.append(
            say(
                "grit soaks {soaked} (grit {grit}/{most})",
                soaked=shown(soaked),
                grit=shown(grit),
                most=shown(target.max_grit),
            )
        )
        to_health = dealt - soaked
    else:
        to_health = dealt
    changes: dict = {"grit": grit}
    if by_enemy and target.surrendered and dealt:
        changes["surrendered"] = False
        steps.append(say("harmed while surrendering: fights on"))
    events: list[Event] = []
    knocked_out = False
    if to_health > 0:
        health = max(0, health - to_health)
        changes["health"] = health
        steps.append(say("health {before} → {after}", before=shown(target.health), after=shown(health)))
        if health == 0:
            changes.update(dead=True, out=True, incapacitated=False, grabbed_by=None)
            steps.append(say("dead"))
            knocked_out = True
        elif not target.incapacitated:
            resisted = None
            if enc.options.get("critical_str_save"):
                resisted = save(enc, target, "str", chance, say("against critical damage"))
            if resisted is not None and resisted.passed:
                steps.append(say("critical damage resisted ({save})", save=resisted.text))
            else:
                if resisted is not None:
                    steps.append(resisted.text)
                changes.update(incapacitated=True)
                steps.append(say("critical damage: incapacitated"))
                knocked_out = True
    elif dealt == 0:
        steps.append(say("no harm"))
    enc = enc.update(cid, **changes)
    if knocked_out:
        enc = release_holds(enc, cid)
    events.append(Event(kind="roll", text=seq(target.name, ": ", joined("; ", steps), ".")))
    return Harm(enc, events, knocked_out)


def slain(enc: FactionsEncounter, cid: str) -> FactionsEncounter:
    """Killed outright by a death blow: out of the fight, holding nobody and held by nobody."""
    enc = enc.update(cid, dead=True, out=True, incapacitated=False, health=0, grabbed_by=None)
    return release_holds(enc, cid)


def release_holds(enc: FactionsEncounter, cid: str) -> FactionsEncounter:
    """A grabber who goes down lets go of whoever it held."""
    for other in enc.combatants:
        if other.grabbed_by == cid:
            enc = enc.update(other.id, grabbed_by=None)
    return enc
