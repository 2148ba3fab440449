"""Handlers for the turn's own actions: moving, bonus and main actions,
surrendering, saves, and the GM's damage, healing and conditions."""

from __future__ import annotations

from rules.errors import InvalidInput, NotAllowed
from rules.model import Event
from rules.randomness import Chance
from rules.said import N_, joined, say, seq, term
from rules.secrets import secret
from rules.text import Text
from rules.usertext import one_line

from . import economy, manoeuvres
from .actions import ApplyDamage, BonusAction, Heal, MainAction, Move, PickUp, Reveal, RollSave, SetCondition, Surrender
from .harm import harm, release_holds
from .model import TURNS, FactionsEncounter, Fighter, factions_encounter
from .saves import save

CONDITIONS = (N_("incapacitated"), N_("concealed"), N_("surrendered"), N_("grabbed"), N_("immune"))


MOVES = {  # (sprinting, dragging someone): how a move reads
    (False, False): N_("{who} moves {zones} zone(s)."),
    (True, False): N_("{who} moves {zones} zone(s) (sprinting)."),
    (False, True): N_("{who} moves {zones} zone(s), dragging {held}."),
    (True, True): N_("{who} moves {zones} zone(s) (sprinting), dragging {held}."),
}
# Rolled healing shows its dice as /damage does: the table can check what came up.
HEALS = {
    ("health", False): N_("{who} heals: health {before} → {after}/{most}."),
    ("health", True): N_("{who} heals {roll}: health {before} → {after}/{most}."),
    ("grit", False): N_("{who} recovers grit: {before} → {after}/{most}."),
    ("grit", True): N_("{who} recovers grit {roll}: {before} → {after}/{most}."),
}


def free_hands(fighter: Fighter) -> None:
    if fighter.grabbed_by:
        raise NotAllowed(say("{who} is grabbed and can only try to break free (`/act break_free`).", who=fighter.name))


def move(enc: FactionsEncounter, action: Move, chance: Chance):
    fighter: Fighter = enc.actor(action)
    free_hands(fighter)
    enc = economy.spend_move(enc, fighter, action.zones, action.sprint)
    held = [c.name for c in enc.combatants if c.grabbed_by == fighter.id]
    values = {"who": fighter.name, "zones": action.zones, "held": joined(", ", held)}
    template = MOVES[action.sprint, bool(held)]
    return enc, [Event(kind="info", text=say(template, **values))]


def _narrated(enc: FactionsEncounter, action, spend, default: Text):
    """An action the rules only count (the player's words say what it is)."""
    fighter: Fighter = enc.actor(action)
    free_hands(fighter)
    enc, let_go = manoeuvres.release_if_busy(spend(enc, fighter), fighter)
    what = one_line(action.text, 200) or default
    return enc, [Event(kind="info", text=seq(fighter.name, ": ", what, "."))] + let_go


def bonus_action(enc: FactionsEncounter, action: BonusAction, chance: Chance):
    return _narrated(enc, action, economy.spend_bonus, say("a bonus action"))


def main_action(enc: FactionsEncounter, action: MainAction, chance: Chance):
    return _narrated(enc, action, economy.spend_main, say("a main action"))


def pick_up(enc: FactionsEncounter, action: PickUp, chance: Chance):
    fighter: Fighter = enc.actor(action)
    free_hands(fighter)
    if not fighter.dropped:
        raise InvalidInput(say("{who} has dropped nothing.", who=fighter.name))
    name = next(
        (w for w in fighter.dropped if action.weapon and w.casefold() == action.weapon.strip().casefold()), None
    )
    if action.weapon and name is None:
        raise InvalidInput(
            say("{who} dropped only: {weapons}.", who=fighter.name, weapons=joined(", ", fighter.dropped))
        )
    name = name or fighter.dropped[0]
    enc = economy.spend_bonus(enc, fighter)
    enc = enc.update(fighter.id, dropped=tuple(w for w in fighter.dropped if w != name))
    enc, let_go = manoeuvres.release_if_busy(enc, enc.get(fighter.id))
    return enc, [Event(kind="info", text=say("{who} picks up the {weapon}.", who=fighter.name, weapon=name))] + let_go


def surrender(system, enc: FactionsEncounter, action: Surrender, chance: Chance):
    fighter: Fighter = enc.actor(action)
    if fighter.surrendered or not fighter.standing:
        raise InvalidInput(say("{who} is not fighting.", who=fighter.name))
    free_hands(fighter)  # a grabbed character's turn can only go to breaking free
    active = enc.turns.active == fighter.id
    if active and (fighter.mains or fighter.bonuses or fighter.moved):
        # "Characters can spend their turn to surrender [...] Their turn is wasted": all of it.
        raise InvalidInput(
            say(
                "{who} has already acted this turn: surrendering takes a whole turn, so it waits for the next round.",
                who=fighter.name,
            )
        )
    if not active:
        if fighter.id in enc.turns.acted:
            raise InvalidInput(
                say(
                    "{who} has already acted this round: surrendering takes a turn, so it waits for the next round.",
                    who=fighter.name,
                )
            )
        enc = factions_encounter(TURNS.spend_reaction(enc, fighter.id))
    enc, let_go = manoeuvres.surrender(enc, fighter)
    events = [
        Event(
            kind="info",
            text=say("{who} surrenders, throwing their weapons away and raising their hands.", who=fighter.name),
        )
    ] + let_go
    if active:
        ended, more = TURNS.end_turn(system, enc, chance)
        return ended, events + more
    return enc, events


def reveal(enc: FactionsEncounter, action: Reveal, chance: Chance):
    fighter: Fighter = enc.actor(action)
    if not fighter.concealed:
        raise InvalidInput(say("{who} is not concealed.", who=fighter.name))
    return enc.update(fighter.id, concealed=False), [
        Event(kind="info", text=say("{who} is revealed.", who=fighter.name))
    ]


def roll_save(enc: FactionsEncounter, action: RollSave, chance: Chance):
    fighter: Fighter = enc.actor(action)
    result = save(enc, fighter, action.attribute, chance, one_line(action.why, 80))
    return enc, [Event(kind="roll", text=seq(result.text, "."))]


def apply_damage(enc: FactionsEncounter, action: ApplyDamage, chance: Chance):
    target: Fighter = enc.find(action.target)
    if target.out:
        raise InvalidInput(say("{who} is out of the fight.", who=target.name))
    roll = chance.roll(action.amount)
    hit = harm(
        enc,
        target.id,
        int(roll.total),
        chance,
        cover=action.cover,
        direct=action.direct,
        source=f"({roll})" if roll.dice else "",
        by_enemy=False,
    )
    return hit.enc, hit.events


def heal(enc: FactionsEncounter, action: Heal, chance: Chance):
    target: Fighter = enc.find(action.target)
    if target.dead:
        raise InvalidInput(say("{who} is dead.", who=target.name))
    roll = chance.roll(action.amount)
    amount = max(0, int(roll.total))
    rolled = f"({roll})" if roll.dice else ""
    if action.grit:
        grit = min(target.max_grit, target.grit + amount)
        enc = enc.update(target.id, grit=grit)
        template = HEALS["grit", bool(rolled)]
        before, after, most = target.grit, grit, target.max_grit
    else:
        health = min(target.max_health, target.health + amount)
        enc = enc.update(target.id, health=health)
        template = HEALS["health", bool(rolled)]
        before, after, most = target.health, health, target.max_health
    text = say(
        template,
        who=target.name,
        roll=rolled,
        before=secret(before, target),
        after=secret(after, target),
        most=secret(most, target),
    )
    return enc, [Event(kind="roll" if rolled else "info", text=text)]


def set_condition(enc: FactionsEncounter, action: SetCondition, chance: Chance):
    target: Fighter = enc.find(action.target)
    condition = action.condition.strip().casefold()
    if condition not in CONDITIONS:
        raise InvalidInput(say("Conditions here: {conditions}.", conditions=joined(", ", map(term, CONDITIONS))))
    let_go: list[Event] = []
    holder: Fighter | None = None
    if condition == "grabbed":
        holder = enc.find(action.by_whom) if action.on and action.by_whom else None
        if action.on and holder is None:
            raise InvalidInput(say("Say who holds them: `by=<name>`."))
        enc = enc.update(target.id, grabbed_by=holder.id if holder else None)
    elif condition == "immune":
        enc = enc.update(target.id, morale_immune=action.on)
    elif condition == "incapacitated":
        enc = enc.update(target.id, incapacitated=action.on)
        if action.on:
            # As when a blow incapacitates: they let go of whoever they held, but stay held themselves.
            enc = release_holds(enc, target.id)
    elif condition == "surrendered" and action.on:
        # Hands up, as for the Surrender action: whoever they held is let go (they stay held themselves).
        enc, let_go = manoeuvres.surrender(enc, target)
    else:
        enc = enc.update(target.id, **{condition: action.on})
    if condition == "grabbed" and holder is not None:
        text = say("{who} is now grabbed by {holder}.", who=target.name, holder=holder.name)
    else:
        template = N_("{who} is now {condition}.") if action.on else N_("{who} is no longer {condition}.")
        text = say(template, who=target.name, condition=term(condition))
    return enc, [Event(kind="info", text=text)] + let_go
