"""Declaring an attack: checks of reach, range and size, the WIT save to hit
when one is needed, death blows, and a missed ranged blast's deviation.
What follows (stunt, reactions, damage) lives in `reactions` and `resolution`.
"""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput, NotAllowed
from rules.model import Event
from rules.randomness import Chance
from rules.said import N_, joined, say, seq
from rules.secrets import secret
from rules.text import Text

from . import economy
from .actions import Attack, OpportunityAttack
from .harm import slain
from .manoeuvres import LARGER, keeps_hold, release_if_busy
from .model import TURNS, FactionsEncounter, Fighter, factions_encounter
from .reactions import advance, ask_stunt, attacker_faces, keep_attacker_dice, possible_guards
from .saves import save
from .sheet import Weapon
from .sizing import beyond_half_range, damage_die, dice_shares, effective_range, reach


def declare(enc: FactionsEncounter, action: Attack, chance: Chance):
    if not action.actor:
        raise InvalidInput(say("Name the character who attacks (the `actor` option)."))
    attacker: Fighter = enc.find(action.actor)
    opportunity = isinstance(action, OpportunityAttack)
    if attacker.grabbed_by:
        raise NotAllowed(say("{who} is grabbed and can only try to break free (`/act break_free`).", who=attacker.name))
    if not attacker.standing:
        raise NotAllowed(say("{who} cannot attack now.", who=attacker.name))
    weapon = attacker.weapon(action.weapon)
    if any(enc.find(name).concealed for name in action.targets):
        action = action.but(unseen=True)  # a concealed target is not visible
    targets = _targets(enc, attacker, action, weapon)
    if opportunity:
        _check_mover(enc, attacker, targets, action.zones)
        enc = factions_encounter(TURNS.spend_reaction(enc, attacker.id))
    elif action.landed and attacker.deviated and weapon.blast and weapon.ranged:
        # The GM lands the same throw where it deviated: its main action is spent already.
        enc = enc.update(attacker.id, deviated=False)
    else:
        enc = economy.spend_main(enc, attacker)
    # The hold ends as the attack begins: its line comes first.
    enc, events = _keep_or_release_hold(enc, attacker, action, weapon)
    label = _label(attacker, weapon, targets, action, opportunity)
    if action.death_blow:
        return _death_blow(enc, attacker, weapon, targets, action, label, events, chance)
    needed = _save_needed(attacker, weapon, targets, action)
    if needed is not None:
        wit = save(enc, attacker, "wit", chance, say("to hit ({why})", why=needed))
        events.append(Event(kind="roll", text=seq(label, ": ", wit.text, ".")))
        if not wit.passed:
            faces = attacker_faces(enc, _context(enc, attacker, weapon, targets, action))
            return _missed(enc, attacker, weapon, action, chance, events, faces)
    else:
        events.append(Event(kind="info", text=seq(label, ".")))
    ctx = _context(enc, attacker, weapon, targets, action)
    enc = _reveal(enc, attacker, events)
    if action.stunt:
        enc, events = ask_stunt(enc, ctx, events)
    else:
        enc, more = advance(enc, ctx, chance)
        events += more
    return keep_attacker_dice(enc, chance), events


MANOEUVRES = {
    "grapple": N_("{attacker} tries to grab {targets}"),
    "shove": N_("{attacker} tries to shove {targets}"),
    "disarm": N_("{attacker} tries to disarm {targets}"),
}


def _label(attacker: Fighter, weapon: Weapon, targets: list[Fighter], action: Attack, opportunity: bool) -> Text:
    """`Bandit 1 attacks Balthasar with axe (impaired: d4)`: the die actually rolled; a
    non-lethal attack names what it tries, not a weapon it does not use."""
    names = joined(", ", (t.name for t in targets))
    if action.mode in MANOEUVRES and not action.death_blow:
        return say(MANOEUVRES[action.mode], attacker=attacker.name, targets=names)
    die = damage_die(weapon, action.impaired, action.enhanced)
    if die == weapon.die:
        weapon_text = weapon.describe(attacker)
    else:
        why = say("impaired") if action.impaired else say("enhanced") if action.enhanced else say("unarmed")
        weapon_text = seq(weapon.label, " (", why, ": d", str(die), ")")
    if opportunity:
        template = N_("{attacker} makes an opportunity attack on {targets} with {weapon}")
    else:
        template = N_("{attacker} attacks {targets} with {weapon}")
    return say(template, attacker=attacker.name, targets=names, weapon=weapon_text)


def _targets(enc: FactionsEncounter, attacker: Fighter, action: Attack, weapon: Weapon) -> list[Fighter]:
    if not action.targets:
        raise InvalidInput(say("Name a target."))
    targets: list[Fighter] = []
    for name in action.targets:
        target = enc.find(name)
        if target.out:
            raise InvalidInput(say("{who} is out of the fight.", who=target.name))
        if target.id in (t.id for t in targets):
            raise InvalidInput(say("{who} is named twice.", who=target.name))
        if target.id == attacker.id and not (weapon.blast and weapon.ranged):
            raise InvalidInput(say("{who} cannot attack itself.", who=attacker.name))
        targets.append(target)
    if action.zones < 0 or action.zones > 1000:
        raise InvalidInput(say("The distance must be between 0 and 1000 zones."))
    if action.stunt and len(targets) != 1:
        raise InvalidInput(say("An attack stunt is proposed to one target."))
    if action.grab and (action.mode != "disarm" or action.death_blow):
        raise InvalidInput(say("`grab` goes with a disarm: the attacker takes the weapon that falls."))
    if action.death_blow:
        if len(targets) != 1 or not targets[0].incapacitated:
            raise InvalidInput(say("A death blow needs one incapacitated target."))
        if action.zones > reach(attacker):
            raise InvalidInput(say("A death blow needs the target nearby."))
        return targets
    if action.mode != "damage":
        _check_manoeuvre(attacker, targets, action)
    if weapon.blast:
        if not weapon.ranged and action.zones:
            raise InvalidInput(say("A melee blast hits the attacker's own zone: leave the distance at 0."))
    elif len(targets) > 1:
        if weapon.ranged or action.mode != "damage":
            raise InvalidInput(say("Only blasts and a larger attacker's melee attacks can hit several targets."))
        if any(t.size_rank >= attacker.size_rank for t in targets):
            raise InvalidInput(say("A melee attack can be spread only among targets smaller than the attacker."))
    if not weapon.ranged:
        if action.zones > reach(attacker):
            raise InvalidInput(say("{weapon} is a melee weapon: the target must be nearby.", weapon=weapon.label))
    else:
        for target in targets:
            limit = effective_range(weapon, attacker, target)
            if action.zones > limit:
                # The range against a hidden target depends on its size: secret.
                raise InvalidInput(
                    say(
                        "{who} is beyond the {weapon}'s range ({zones} zones).",
                        who=target.name,
                        weapon=weapon.label,
                        zones=secret(limit, target),
                    )
                )
            if action.unseen and not weapon.blast:
                raise InvalidInput(say("A ranged attack cannot target {who}, who cannot be seen.", who=target.name))
            if action.moving and 2 * action.zones > limit:
                raise InvalidInput(say("Nobody beyond half range can be targeted while moving."))
    return targets


def _check_mover(enc: FactionsEncounter, attacker: Fighter, targets: list[Fighter], zones: int) -> None:
    """The seed's opportunity attack answers "nearby enemies moving away": only the enemy
    taking its turn can be moving, and only from nearby (a ranged weapon too)."""
    if zones > reach(attacker):
        raise NotAllowed(say("An opportunity attack is made on a nearby enemy moving away."))
    for target in targets:
        if target.id != enc.turns.active:
            raise NotAllowed(
                say("{who} is not taking a turn: only a moving enemy invites an opportunity attack.", who=target.name)
            )
        if target.side == attacker.side:
            raise NotAllowed(say("{who} is an ally: an opportunity attack is made on an enemy.", who=target.name))


ONE_TARGET = {
    "disarm": N_("A disarm targets one character."),
    "shove": N_("A shove targets one character."),
    "grapple": N_("A grapple targets one character."),
}
NEARBY = {
    "disarm": N_("A disarm needs the target nearby."),
    "shove": N_("A shove needs the target nearby."),
    "grapple": N_("A grapple needs the target nearby."),
}


def _check_manoeuvre(attacker: Fighter, targets: list[Fighter], action: Attack) -> None:
    if len(targets) != 1:
        raise InvalidInput(say(ONE_TARGET[action.mode]))
    target = targets[0]
    if action.zones > reach(attacker):
        raise InvalidInput(say(NEARBY[action.mode]))
    if target.size_rank > attacker.size_rank:
        raise InvalidInput(say(LARGER, target=target.name, attacker=attacker.name))
    if action.mode == "grapple" and target.grabbed_by == attacker.id:
        raise InvalidInput(say("{attacker} already holds {target}.", attacker=attacker.name, target=target.name))


def _keep_or_release_hold(enc, attacker: Fighter, action: Attack, weapon: Weapon):
    """Holding on allows a one-handed weapon, unarmed blows or a disarm, out of turn too; a
    larger grabber needs only one hand and keeps hold unless it swings a great weapon."""
    on_held = all(enc.find(name).grabbed_by == attacker.id for name in action.targets)
    if keeps_hold(action.mode, weapon, on_held=on_held):
        return enc, []
    return release_if_busy(enc, attacker, both_hands=action.mode == "damage" and weapon.great)


def _save_needed(attacker: Fighter, weapon: Weapon, targets: list[Fighter], action: Attack) -> Text | None:
    """Why a WIT save to hit is needed, said; None when none is."""
    if action.landed or (weapon.blast and not weapon.ranged):
        return None
    if not weapon.ranged:
        return say("target unseen") if action.unseen else None
    if action.moving:
        return say("shooting while moving")
    if any(beyond_half_range(weapon, attacker, t, action.zones) for t in targets):
        return say("beyond half range")
    return None


def _missed(enc, attacker: Fighter, weapon: Weapon, action: Attack, chance: Chance, events, faces: list[int]):
    """A missed WIT save. Damage dice entered with the attack are accepted and said unused,
    as after a dodge (a ranged blast's next die is its deviation instead)."""
    if not (weapon.blast and weapon.ranged) and 0 < chance.entered_dice_left() <= len(faces):
        unused = [chance.die(sides) for sides in faces[: chance.entered_dice_left()]]
        if len(unused) == 1:
            not_used = say("{who}'s damage die {die} is not used: the attack missed.", who=attacker.name, die=unused[0])
        else:
            not_used = say(
                "{who}'s damage dice {dice} are not used: the attack missed.",
                who=attacker.name,
                dice=", ".join(map(str, unused)),
            )
        events.append(Event(kind="info", text=say("{who} misses.", who=attacker.name)))
        events.append(Event(kind="info", text=not_used))
        return _reveal(enc, attacker, events), events
    if weapon.blast and weapon.ranged:
        sides = max(2, min(20, action.neighbours))
        zone = chance.die(sides)
        events.append(
            Event(
                kind="roll",
                text=say(
                    "The blast deviates: d{sides} {zone} → it lands in neighbouring zone {zone}. "
                    "The GM resolves it there with `/attack` and the option `landed`.",
                    sides=sides,
                    zone=zone,
                ),
            )
        )
        enc = enc.update(attacker.id, deviated=True)
    else:
        events.append(Event(kind="info", text=say("{who} misses.", who=attacker.name)))
    return _reveal(enc, attacker, events), events


def _reveal(enc, attacker: Fighter, events: list[Event]) -> FactionsEncounter:
    if enc.get(attacker.id).concealed:
        events.append(Event(kind="info", text=say("{who} is revealed by the attack.", who=attacker.name)))
        return enc.update(attacker.id, concealed=False)
    return enc


def _death_blow(enc, attacker: Fighter, weapon: Weapon, targets, action: Attack, label: Text, events, chance: Chance):
    """A death blow is made in an attack, and "A character who is nearby the target of an attack can react
    by guarding them": a guard takes the weapon's blow instead. With nobody to guard, the target dies."""
    target = targets[0]
    ctx = _context(enc, attacker, weapon, targets, action)
    ctx.update(mode="damage", death_blow=True)
    if possible_guards(enc, ctx, target):
        events.append(
            Event(
                kind="info",
                text=say("{attack}: a death blow on {target}, who is incapacitated.", attack=label, target=target.name),
            )
        )
        enc = _reveal(enc, attacker, events)
        enc, more = advance(enc, ctx, chance)
        return keep_attacker_dice(enc, chance), events + more
    enc = slain(enc, target.id)
    events = events + [
        Event(
            kind="info",
            text=say(
                "{attack}: {target} is incapacitated and nearby — a death blow kills them.",
                attack=label,
                target=target.name,
            ),
        )
    ]
    return _reveal(enc, attacker, events), events


def _context(enc, attacker: Fighter, weapon: Weapon, targets: list[Fighter], action: Attack) -> dict[str, Any]:
    shares = dice_shares(attacker, weapon, targets, action.split)
    return {
        "attacker": attacker.id,
        "weapon": weapon.model_dump(mode="json"),
        "mode": action.mode,
        "die": damage_die(weapon, action.impaired, action.enhanced),
        "zones": action.zones,
        "cover": action.cover,
        "peek": action.peek,
        "surprise": attacker.concealed,
        "alone": action.alone,
        "near": [enc.find(name).id for name in action.near] if action.near else None,
        "stunt": action.stunt,
        "take": action.take,
        "grab": action.grab,
        "targets": [
            {"cid": t.id, "dice": n, "halve": h, "unaware": action.unaware} for t, (n, h) in zip(targets, shares)
        ],
        "asking": 0,
        "reacted": [],
        "countered": False,
    }
