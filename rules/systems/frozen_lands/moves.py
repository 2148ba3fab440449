"""Aim, reload, delayed and out-of-turn actions, and other named actions."""

from __future__ import annotations

from ...actions import Action
from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...randomness import Chance
from ...said import Text, say, seq, term
from ...secrets import secret
from ...usertext import listed, one_line, quoted
from . import pools, weapons
from .actions import Aim, Delay, Interrupt, Other, Release, Reload
from .combat import break_and_injure
from .economy import spend
from .model import ATTRIBUTES, SKILLS, FrozenCombatant, FrozenEncounter


def named(enc: FrozenEncounter, action: Action) -> FrozenCombatant:
    """The combatant named by `actor:`, or else the sender's only character in the fight."""
    if action.actor:
        return enc.find(action.actor)
    if not action.by.is_gm:
        mine = [c for c in enc.combatants if c.controller_id == action.by.user_id and not c.out]
        if len(mine) == 1:
            return mine[0]
    raise InvalidInput(say("Name the character with actor:."))


def aim(enc: FrozenEncounter, action: Aim, chance: Chance):
    combatant = enc.actor(action)
    if combatant.aimed:
        raise NotAllowed(say("{who} is already aiming: the +2 applies to the next ranged attack.", who=combatant.name))
    combatant = spend(enc, combatant, "aim").but(aimed=True)
    return enc.with_combatant(combatant), [
        Event(kind="info", text=say("{who} aims: +2 on the next ranged attack.", who=combatant.name))
    ]


def reload(enc: FrozenEncounter, action: Reload, chance: Chance):
    combatant = enc.actor(action)
    if not combatant.sheet.ranged:
        raise InvalidInput(say("{who} has no ranged weapon on the sheet to reload.", who=combatant.name))
    weapon = weapons.sheet_weapon(combatant.sheet.ranged, "ranged")
    named_weapon = dict(who=combatant.name, weapon=term(weapon.name))
    if not weapon.has("Reload"):
        raise NotAllowed(say("A {weapon} needs no reloading.", weapon=term(weapon.name)))
    if combatant.loaded:
        raise NotAllowed(say("{who}'s {weapon} is already loaded.", **named_weapon))
    combatant = spend(enc, combatant, "reload").but(loaded=True)
    if weapons.keeps_load(weapon):
        text = say("{who} reloads the {weapon} (stays loaded until it shoots).", **named_weapon)
    else:
        text = say("{who} reloads the {weapon} (must shoot this turn).", **named_weapon)
    return enc.with_combatant(combatant), [Event(kind="info", text=text)]


def drop_load(enc: FrozenEncounter, cid: str) -> tuple[FrozenEncounter, list[Event]]:
    """A bow or sling loaded and not shot loses the load when the turn (or the step-in) it was loaded in ends."""
    combatant = enc.get(cid)
    weapon = weapons.ranged_row(combatant.sheet.ranged) if combatant.loaded else None
    if weapon is None or weapons.keeps_load(weapon):
        return enc, []
    text = say(
        "{who}'s {weapon} is no longer loaded: bows and slings shoot in the turn they are loaded.",
        who=combatant.name,
        weapon=term(weapon.name),
    )
    return enc.update(cid, loaded=False), [Event(kind="info", text=text)]


def delay(enc: FrozenEncounter, action: Delay, chance: Chance):
    combatant = enc.actor(action)
    if combatant.enemy:
        raise NotAllowed(say("Enemies do not hold actions; the GM simply acts on their turn."))
    if combatant.held:
        raise NotAllowed(say("{who} already holds a delayed action this round.", who=combatant.name))
    if enc.turns.interjection:
        raise NotAllowed(say("An action can only be delayed on the character's own turn."))
    combatant = spend(enc, combatant, "delay").but(held=True)
    return enc.with_combatant(combatant), [
        Event(
            kind="info",
            text=say(
                "{who} holds a delayed action: /act action:release any time before the round ends, "
                "and it happens right after the turn going on then; unreleased, it is lost at the round's end.",
                who=combatant.name,
            ),
        )
    ]


def release(system, enc: FrozenEncounter, action: Release, chance: Chance):
    combatant = named(enc, action)
    if not combatant.held:
        raise NotAllowed(say("{who} holds no delayed action this round.", who=combatant.name))
    if combatant.broken:
        raise NotAllowed(say("{who} is broken and cannot act.", who=combatant.name))
    enc, events = system.turns.queue_after(system, enc, combatant.id)
    return enc.update(combatant.id, releasing=True), events


def interrupt(system, enc: FrozenEncounter, action: Interrupt, chance: Chance):
    """Once a round: an AWARENESS roll; success acts at once, failure is 1 Stress."""
    combatant = named(enc, action)
    if combatant.enemy:
        raise NotAllowed(say("Only characters act out of turn."))
    if combatant.out_of_turn_tried:
        raise NotAllowed(say("{who} has already tried an out-of-turn action this round.", who=combatant.name))
    if combatant.broken:
        raise NotAllowed(say("{who} is broken and cannot act.", who=combatant.name))
    if combatant.actions_left < 1:
        raise NotAllowed(
            say("{who} has no actions left this round: an out-of-turn action is one of the 3.", who=combatant.name)
        )
    state = enc.turns
    if combatant.id in state.acting:
        raise NotAllowed(say("It is already {who}'s turn.", who=combatant.name))
    if state.interjection or not state.acting:
        raise NotAllowed(say("There is no turn to interrupt right now."))
    pool = pools.Pool(((say("AWARENESS"), combatant.sheet.awareness),), "awareness")
    result = pools.roll(enc, combatant, pool, chance)
    combatant, notes, broke = pools.settle_stress(combatant.but(out_of_turn_tried=True), result, "awareness")
    tried = say("{who} tries to act out of turn: {roll}", who=combatant.name, roll=result.text(pool, combatant))
    text = pools.with_notes(tried, notes)
    failed = result.successes < 1
    if failed:
        # The failed check's Stress is owed even when a condition past level 3 breaks the character too.
        combatant = combatant.stressed(1)
    stress = secret(combatant.stress, combatant)
    if broke:
        if failed:
            text = seq(text, "; ", say("+1 Stress ({stress})", stress=stress))
        enc, more = break_and_injure(enc.with_combatant(combatant), combatant.id)
        return enc, [Event(kind="roll", text=seq(text, "; ", more), ping=(enc.gm_id,))]
    if failed:
        failure = say("failure: +1 Stress ({stress}).", stress=stress)
        return enc.with_combatant(combatant), [Event(kind="roll", text=seq(text, "; ", failure))]
    enc, events = system.turns.interject_now(system, enc.with_combatant(combatant), combatant.id)
    acts = say("success: acts now (one of the 3 actions).")
    return enc, [Event(kind="roll", text=seq(text, "; ", acts))] + events


def other(enc: FrozenEncounter, action: Other, chance: Chance):
    combatant = enc.actor(action)
    label = one_line(action.label, 40)
    if not label:
        raise InvalidInput(say("Name the action with options:\"label='First Aid'\"."))
    paid = spend(enc, combatant, label.casefold())
    text = seq(combatant.name, ": ", label)
    if action.skill:
        pool, attribute = skill_pool(enc, combatant, action.skill, action.modifier)
        result = pools.roll(enc, paid, pool, chance)
        paid, notes, broke = pools.settle_stress(paid, result, attribute)
        text = pools.with_notes(seq(text, " — ", result.text(pool, paid)), notes)
        if broke:
            enc, more = break_and_injure(enc.with_combatant(paid), paid.id)
            return enc, [Event(kind="roll", text=seq(text, "; ", more), ping=(enc.gm_id,))]
    return enc.with_combatant(paid), [Event(kind="roll" if action.skill else "info", text=seq(text, "."))]


def skill_pool(enc: FrozenEncounter, combatant, name: str, modifier: int = 0):
    """A skill's dice, or an attribute's for an attribute check."""
    key = name.strip().casefold()
    if key in SKILLS:
        parts: list[tuple[Text, int]] = [(term(key.capitalize()), getattr(combatant.sheet, key))]
        attribute = SKILLS[key]
    elif key in ATTRIBUTES:
        parts = [(term(key.upper()), getattr(combatant.sheet, key))]
        attribute = key
    else:
        raise InvalidInput(
            say(
                "Unknown skill {skill}. Skills: {skills}; attributes: {attributes}.",
                skill=quoted(name, 20),
                skills=listed(term(s) for s in SKILLS),
                attributes=listed(term(a) for a in ATTRIBUTES),
            )
        )
    if key == "perception" and enc.feature(combatant, "dim"):
        parts.append((say("dimly lit zone"), -2))
    if modifier:
        parts.append((say("modifier"), modifier))
    return pools.Pool(tuple(parts), attribute), attribute
