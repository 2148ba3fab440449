"""The GM's tools: zones, placing, closing in, checks, damage, healing, conditions."""

from __future__ import annotations

from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...randomness import Chance
from ...said import EMPTY, Text, joined, say, say_plural, seq, term
from ...secrets import secret
from ...usertext import listed, mark, one_line
from . import health, pools
from .actions import AddCondition, Check, Damage, Engage, Heal, Place, RemoveCondition, SetZone
from .combat import break_and_injure
from .model import MAX_LEVEL, FrozenEncounter, Zone
from .moves import named, skill_pool

LEVELLED = ("exhaustion", "dazed", "fear")
CONDITION_NAMES = {
    "exhausted": "exhaustion",
    "exhaustion": "exhaustion",
    "dazed": "dazed",
    "fear": "fear",
    "afraid": "fear",
    "prone": "prone",
    "injury": "injury",
    "critical": "injury",
    "wound": "injury",
}


def set_zone(enc: FrozenEncounter, action: SetZone, chance: Chance):
    name = one_line(action.name, 40)
    if not name:
        raise InvalidInput(say('A zone needs a name: options:"name=Hall cluttered dim".'))
    zone = Zone(name=name, features=action.features)
    zones = tuple(z for z in enc.zones if z.name.casefold() != name.casefold()) + (zone,)
    shown = listed(term(f) for f in action.features) if action.features else say("no features")
    return enc.but(zones=zones), [Event(kind="info", text=say("Zone {zone}: {features}.", zone=name, features=shown))]


def place(enc: FrozenEncounter, action: Place, chance: Chance):
    combatant = enc.find(action.target)
    zone = enc.zone(action.zone)
    if enc.zones and zone is None:
        raise InvalidInput(
            say("There is no zone called {zone}: add it with /act action:zone first.", zone=mark(action.zone[:30]))
        )
    name = zone.name if zone else one_line(action.zone, 40)
    for other in combatant.engaged:
        if any(c.id == other for c in enc.combatants):
            enc = enc.update(other, engaged=tuple(c for c in enc.get(other).engaged if c != combatant.id))
    enc = enc.update(combatant.id, zone=name, engaged=())
    return enc, [Event(kind="info", text=say("{who} is in {zone}.", who=combatant.name, zone=name))]


def engage(enc: FrozenEncounter, action: Engage, chance: Chance, *, apart: bool = False):
    # Who stands at close range is the GM's call: a player's move away from it rolls to disengage.
    if not action.by.is_gm:
        raise NotAllowed(
            say("Only the GM sets who is at close range; to get away, move (`/act action:move`) and roll to disengage.")
        )
    first = named(enc, action)
    second = enc.find(action.target)
    if first.id == second.id:
        raise InvalidInput(say("Name two different combatants."))
    pair = dict(first=first.name, second=second.name)
    if apart:
        enc = enc.update(first.id, engaged=tuple(c for c in first.engaged if c != second.id))
        enc = enc.update(second.id, engaged=tuple(c for c in second.engaged if c != first.id))
        return enc, [Event(kind="info", text=say("{first} and {second} are no longer at close range.", **pair))]
    enc = enc.update(first.id, engaged=tuple(dict.fromkeys(first.engaged + (second.id,))))
    enc = enc.update(second.id, engaged=tuple(dict.fromkeys(second.engaged + (first.id,))))
    return enc, [Event(kind="info", text=say("{first} and {second} are at close range.", **pair))]


def check(enc: FrozenEncounter, action: Check, chance: Chance):
    combatant = named(enc, action)
    if combatant.enemy:
        raise NotAllowed(say("Enemies have no skills to roll: the GM decides."))
    if action.need < 1:
        raise InvalidInput(say("A roll needs at least 1 success."))
    pool, attribute = skill_pool(enc, combatant, action.skill, action.modifier)
    result = pools.roll(enc, combatant, pool, chance)
    combatant, notes, broke = pools.settle_stress(combatant, result, attribute)
    passed = result.successes >= action.need
    rolled = dict(who=combatant.name, roll=result.text(pool, combatant), need=action.need)
    if passed:
        text = say("{who} rolls {roll}, needs {need} → success", **rolled)
    else:
        text = say("{who} rolls {roll}, needs {need} → failure", **rolled)
    line = pools.with_notes(text, notes)
    enc = enc.with_combatant(combatant)
    if broke:
        enc, more = break_and_injure(enc, combatant.id)
        return enc, [Event(kind="roll", text=seq(line, "; ", more), ping=(enc.gm_id,))]
    return enc, [Event(kind="roll", text=seq(line, "."))]


def damage(enc: FrozenEncounter, action: Damage, chance: Chance):
    target = enc.find(action.target)
    if target.out:
        raise NotAllowed(say("{who} is out of the fight.", who=target.name))
    rolled = chance.roll(action.amount)
    amount = max(0, rolled.total)
    shown = str(amount) if rolled.text.strip() == str(rolled.total) else f"{rolled.text} = {amount}"
    if action.stress:
        if target.enemy:
            raise NotAllowed(say("Enemies do not take Stress."))
        target = target.stressed(amount)
        stress = secret(target.stress, target)
        return enc.with_combatant(target), [
            Event(
                kind="info",
                text=say(
                    "{who} takes {amount} Stress (Stress {stress}).", who=target.name, amount=shown, stress=stress
                ),
            )
        ]
    reduce = 0 if action.direct else (target.sheet.defense if target.enemy else target.sheet.armour)
    after = max(0, amount - reduce)
    target, text, wounded = health.hurt(target, after)
    enc = enc.with_combatant(target)
    # A hidden target's defense or armour is shown (as "?") even at 0, so that its absence tells nothing.
    cut: Text = EMPTY
    if reduce or (target.hidden and not action.direct):
        by = secret(reduce, target)
        label = say("defense {defense}", defense=by) if target.enemy else say("armour {armour}", armour=by)
        cut = seq(" − ", label, " = ", secret(after, target))
    line = say("{who} takes {amount}{cut}: {result}", who=target.name, amount=shown, cut=cut, result=text)
    if wounded:
        return enc, [Event(kind="roll", text=seq(line, "; ", health.injury_hint(target.name)), ping=(enc.gm_id,))]
    return enc, [Event(kind="roll", text=seq(line, "."))]


def heal(enc: FrozenEncounter, action: Heal, chance: Chance):
    target = enc.find(action.target)
    if action.amount < 0 or action.wounds < 0:
        raise InvalidInput(say("Healing cannot be negative."))
    parts: list[Text] = []
    if action.amount:
        target = health.heal(target, action.amount)
        if target.enemy and target.stamina > 0:
            target = target.but(out=False)
        parts.append(health.stamina_text(target))
    if action.wounds:
        healed = min(action.wounds, target.wounds)
        wounds = target.wounds - healed
        target = target.but(wounds=wounds, injuries=target.injuries[:wounds])
        # How many were healed is capped by the Wounds there were: a hidden target's count is secret.
        counts = dict(healed=secret(healed, target), wounds=secret(wounds, target))
        known = None if target.hidden else healed
        parts.append(
            say_plural(
                "{healed} Wound healed (Wounds {wounds})", "{healed} Wounds healed (Wounds {wounds})", known, **counts
            )
        )
    if action.rest:
        target = target.but(stress=0)
        parts.append(say("rested: Stress 0"))
    if not parts:
        raise InvalidInput(say("Give an amount of Stamina, wounds=N, or rest."))
    line = seq(target.name, ": ", joined("; ", parts), ".")
    return enc.with_combatant(target), [Event(kind="info", text=line)]


def _condition(name: str) -> str:
    key = name.strip().casefold()
    if key not in CONDITION_NAMES:
        raise InvalidInput(
            say("Conditions: exhaustion, dazed, fear (with a level), prone, injury (the GM's critical-injury result).")
        )
    return CONDITION_NAMES[key]


def add_condition(enc: FrozenEncounter, action: AddCondition, chance: Chance):
    target = enc.find(action.target)
    condition = _condition(action.condition)
    text = one_line(action.text, 200)
    if condition == "prone":
        if target.prone:
            raise NotAllowed(say("{who} is already prone.", who=target.name))
        return enc.update(target.id, prone=True), [Event(kind="info", text=say("{who} is prone.", who=target.name))]
    if target.enemy:
        raise NotAllowed(say("Enemies only take the prone condition; the rest belong to characters."))
    if condition == "injury":
        if not text:
            raise InvalidInput(say('Write the critical-injury result in tags:, e.g. tags:"broken ribs".'))
        if not target.unrecorded_injuries:
            raise NotAllowed(say("{who} has no Wound waiting for a critical injury.", who=target.name))
        target = target.but(injuries=target.injuries + (text,))
        return enc.with_combatant(target), [
            Event(kind="info", text=say("{who}'s critical injury: {injury}.", who=target.name, injury=text))
        ]
    level = getattr(target, condition)
    try:
        new = int(text) if text else level + 1
    except ValueError:
        raise InvalidInput(say("The level goes in tags:, e.g. tags:2.")) from None
    if new < 0:
        raise InvalidInput(say("A level cannot be negative."))
    if new > MAX_LEVEL:
        enc = enc.with_combatant(target.but(**{condition: MAX_LEVEL}))
        enc, more = break_and_injure(enc, target.id)
        above = say(
            "{who}: {condition} above level {level}",
            who=target.name,
            condition=term(condition.capitalize()),
            level=MAX_LEVEL,
        )
        return enc, [Event(kind="info", text=seq(above, "; ", more), ping=(enc.gm_id,))]
    return _set_level(enc, target, condition, new)


def _set_level(enc, target, condition, new):
    # A higher level costs this round's actions or reactions at once; a lower one, like a removed
    # condition, does not hand back those already lost (it counts from the next round).
    lost = max(0, new - getattr(target, condition))
    target = target.but(**{condition: new})
    if condition == "exhaustion":
        target = target.but(actions_left=max(0, target.actions_left - lost))
    elif condition == "dazed":
        target = target.but(reactions_left=max(0, target.reactions_left - lost))
    return enc.with_combatant(target), [
        Event(
            kind="info",
            text=say(
                "{who}: {condition} {level}.",
                who=target.name,
                condition=term(condition.capitalize()),
                level=secret(new, target),
            ),
        )
    ]


def remove_condition(enc: FrozenEncounter, action: RemoveCondition, chance: Chance):
    target = enc.find(action.target)
    condition = _condition(action.condition)
    if condition == "prone":
        if not target.prone:
            raise NotAllowed(say("{who} is not prone.", who=target.name))
        return enc.update(target.id, prone=False), [
            Event(kind="info", text=say("{who} is no longer prone.", who=target.name))
        ]
    if condition == "injury":
        if not target.injuries:
            raise NotAllowed(say("{who} has no recorded critical injury.", who=target.name))
        gone = target.injuries[-1]
        target = target.but(injuries=target.injuries[:-1], wounds=max(0, target.wounds - 1))
        return enc.with_combatant(target), [
            Event(
                kind="info",
                text=say(
                    "{who} recovers from {injury} (Wounds {wounds}).",
                    who=target.name,
                    injury=gone,
                    wounds=secret(target.wounds, target),
                ),
            )
        ]
    if getattr(target, condition) == 0:
        raise NotAllowed(say("{who} has no {condition}.", who=target.name, condition=term(condition)))
    # Clearing a condition does not hand back actions or reactions already lost this round.
    target = target.but(**{condition: 0})
    return enc.with_combatant(target), [
        Event(
            kind="info",
            text=say("{who}: {condition} removed.", who=target.name, condition=term(condition.capitalize())),
        )
    ]
