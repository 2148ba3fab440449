"""Non-lethal attacks and holds: disarm, shove, grapple, breaking free.

The target resists with a STR save, except that a smaller target cannot
resist a larger attacker at all (it may still dodge or counter).
"""

from __future__ import annotations

from rules.errors import InvalidInput, NotAllowed
from rules.model import Event
from rules.randomness import Chance
from rules.said import N_, joined, say, seq
from rules.usertext import quoted

from . import economy
from .harm import harm
from .model import FactionsEncounter, Fighter
from .saves import Dice, save
from .sheet import Weapon

RESISTS = {
    "disarm": N_("{target} resists the disarm."),
    "shove": N_("{target} resists the shove."),
    "grapple": N_("{target} resists the grapple."),
}

LARGER = N_("{target} is larger than {attacker}: it cannot be disarmed, shoved or grabbed.")


def _resists(enc, attacker: Fighter, target: Fighter, chance: Dice, events: list[Event]) -> bool:
    if target.size_rank < attacker.size_rank:
        events.append(
            Event(
                kind="info",
                text=say(
                    "{target} is smaller than {attacker} and cannot resist with a STR save.",
                    target=target.name,
                    attacker=attacker.name,
                ),
            )
        )
        return False
    resist = save(enc, target, "str", chance, say("to resist"))
    events.append(Event(kind="roll", text=seq(resist.text, ".")))
    return resist.passed


def apply_manoeuvre(
    enc: FactionsEncounter,
    mode: str,
    attacker_id: str,
    target_id: str,
    take: str | None,
    chance: Dice,
    own: Dice | None = None,
    *,
    grab: bool = False,
):
    """Dice: the target's STR save (none if it is smaller); a larger shover's d4
    direct damage, from the attacker's own dice (`own`) when it has some. `grab`: a disarming
    attacker with a free hand takes the weapon that falls."""
    attacker: Fighter = enc.get(attacker_id)
    target: Fighter = enc.get(target_id)
    if target.size_rank > attacker.size_rank:
        # Declared on one no larger, it fell on a larger guard or shield: "Larger characters can't be
        # disarmed, shoved, or grabbed by smaller characters."
        return enc, [Event(kind="info", text=say(LARGER, target=target.name, attacker=attacker.name))]
    events: list[Event] = []
    if _resists(enc, attacker, target, chance, events):
        events.append(Event(kind="info", text=say(RESISTS[mode], target=target.name)))
        return enc, events
    if mode == "disarm":
        held = [w for w in target.weapons if w.name not in target.dropped]
        if not held:
            events.append(Event(kind="info", text=say("{target} holds no weapon to drop.", target=target.name)))
            return enc, events
        chosen = next((w for w in held if take and w.name.casefold() == take.strip().casefold()), None)
        if take and chosen is None:
            chosen = held[0]
            events.append(
                Event(
                    kind="warning",
                    text=say(
                        "{target} holds no {asked}: the {weapon} falls instead.",
                        target=target.name,
                        asked=quoted(take),
                        weapon=chosen.name,
                    ),
                )
            )
        chosen = chosen or held[0]
        enc, text = _drop(enc, attacker, target, chosen, grab)
        events.append(Event(kind="info", text=text))
    elif mode == "shove":
        steps = attacker.size_rank - target.size_rank
        if steps > 0:
            zones = 2 ** (steps - 1)
            bruise = (own or chance).die(4)
            events.append(
                Event(
                    kind="info",
                    text=say(
                        "{attacker} hurls {target} {zones} zone(s) away (into any hazard there).",
                        attacker=attacker.name,
                        target=target.name,
                        zones=zones,
                    ),
                )
            )
            hit = harm(
                enc,
                target.id,
                bruise,
                chance,
                direct=True,
                source=say("(d4, shoved by a larger foe)"),
                by_enemy=attacker.side != target.side,
            )
            enc = hit.enc
            events.extend(hit.events)
        else:
            events.append(
                Event(
                    kind="info",
                    text=say(
                        "{attacker} shoves {target} half a zone (into any hazard there).",
                        attacker=attacker.name,
                        target=target.name,
                    ),
                )
            )
    else:
        enc = enc.update(target.id, grabbed_by=attacker.id)
        events.append(
            Event(
                kind="info",
                text=say(
                    "{attacker} grabs {target}, who cannot act except to try to break free.",
                    attacker=attacker.name,
                    target=target.name,
                ),
            )
        )
    return enc, events


def _drop(enc: FactionsEncounter, attacker: Fighter, target: Fighter, weapon: Weapon, grab: bool):
    """The disarmed weapon falls, or the attacker grabs it: "If the attacker has a free hand, they
    can grab the weapon." An attack names its weapon, so one of a name the attacker carries stays down."""
    values = {"target": target.name, "weapon": weapon.name, "attacker": attacker.name}
    if grab and not any(w.name.casefold() == weapon.name.casefold() for w in attacker.weapons):
        enc = enc.update(target.id, weapons=tuple(w for w in target.weapons if w.name != weapon.name))
        enc = enc.update(attacker.id, weapons=attacker.weapons + (weapon,))
        return enc, say("{target} drops the {weapon}: {attacker} grabs it.", **values)
    enc = enc.update(target.id, dropped=target.dropped + (weapon.name,))
    if grab:
        template = N_(
            "{target} drops the {weapon}: {attacker} already carries a weapon of that name and cannot grab it."
        )
    else:
        template = N_("{target} drops the {weapon}.")
    return enc, say(template, **values)


def break_free(enc: FactionsEncounter, action, chance: Chance):
    """The grabbed character's whole turn: a STR save. Dice: d20."""
    fighter: Fighter = enc.actor(action)
    if not fighter.grabbed_by:
        raise InvalidInput(say("{who} is not held by anyone.", who=fighter.name))
    if fighter.mains or fighter.bonuses or fighter.moved:
        raise InvalidInput(say("Breaking free takes {who}'s whole turn.", who=fighter.name))
    holder: Fighter = enc.get(fighter.grabbed_by)
    if fighter.size_rank < holder.size_rank:
        raise NotAllowed(
            say(
                "{who} is smaller than {holder} and cannot break free with a STR save: an ally may help.",
                who=fighter.name,
                holder=holder.name,
            )
        )
    attempt = save(enc, fighter, "str", chance, say("to break free of {holder}", holder=holder.name))
    events = [Event(kind="roll", text=attempt.text + (say(": free!") if attempt.passed else say(": still held.")))]
    if attempt.passed:
        enc = enc.update(fighter.id, grabbed_by=None)
    return enc, events


def pinned(enc: FactionsEncounter, fighter: Fighter) -> bool:
    """Held by a larger grabber: a grabbed character's turn can only go to breaking free, which
    a smaller one cannot attempt, so it has no turn to take until an ally frees it."""
    holder = fighter.grabbed_by
    return holder is not None and fighter.size_rank < enc.get(holder).size_rank


def free_ally(enc: FactionsEncounter, action, chance: Chance):
    """A main action: the helper's STR save frees a grabbed ally. Dice: d20."""
    helper: Fighter = enc.actor(action)
    ally: Fighter = enc.find(action.target)
    if ally.side != helper.side or ally.id == helper.id:
        raise InvalidInput(say("Free an ally of the same faction."))
    if not ally.grabbed_by:
        raise InvalidInput(say("{who} is not held by anyone.", who=ally.name))
    enc = economy.spend_main(enc, helper)
    attempt = save(enc, helper, "str", chance, say("to free {ally}", ally=ally.name))
    if attempt.passed:
        enc = enc.update(ally.id, grabbed_by=None)
    return enc, [
        Event(
            kind="roll",
            text=attempt.text
            + (
                say(": {ally} is free.", ally=ally.name)
                if attempt.passed
                else say(": {ally} is still held.", ally=ally.name)
            ),
        )
    ]


def release(enc: FactionsEncounter, action, chance: Chance):
    fighter: Fighter = enc.actor(action)
    held = holding(enc, fighter)
    if not held:
        raise InvalidInput(say("{who} holds nobody.", who=fighter.name))
    return let_go(enc, fighter, held)


def holding(enc: FactionsEncounter, fighter: Fighter) -> list[Fighter]:
    return [c for c in enc.combatants if c.grabbed_by == fighter.id]


def surrender(enc: FactionsEncounter, fighter: Fighter) -> tuple[FactionsEncounter, list[Event]]:
    """Hands up: whoever the one surrendering held is let go (one held stays held)."""
    return let_go(enc.update(fighter.id, surrendered=True), fighter, holding(enc, fighter))


def let_go(enc: FactionsEncounter, fighter: Fighter, held: list[Fighter]) -> tuple[FactionsEncounter, list[Event]]:
    """The hold ends, and the line says so: the tracker alone would change unseen."""
    if not held:
        return enc, []
    for victim in held:
        enc = enc.update(victim.id, grabbed_by=None)
    text = say("{who} lets go of {held}.", who=fighter.name, held=joined(", ", (v.name for v in held)))
    return enc, [Event(kind="info", text=text)]


def keeps_hold(mode: str, weapon: Weapon | None, *, on_held: bool) -> bool:
    """What a grabber may do and keep hold: "attempting to disarm them, …, or attacking with a
    one-handed weapon or an unarmed attack. Any other action frees the grabbed character."
    `on_held`: the action is aimed at the one held (only disarming *them* keeps the hold)."""
    if mode == "disarm":
        return on_held
    return mode == "damage" and weapon is not None and not weapon.great and not weapon.blast


def release_if_busy(
    enc: FactionsEncounter, fighter: Fighter, *, both_hands: bool = False
) -> tuple[FactionsEncounter, list[Event]]:
    """Any other action frees whoever a same-size or smaller grabber holds. A larger grabber holds with
    one hand and "besides having that hand occupied" keeps hold: it lets go only for what needs both
    hands (`both_hands`: a great weapon)."""
    return let_go(enc, fighter, [v for v in holding(enc, fighter) if both_hands or fighter.size_rank <= v.size_rank])
