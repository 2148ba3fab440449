"""Landing an attack once every reaction is chosen: damage rolls, counters
settled by who suffers more, and the non-lethal manoeuvres (resolved last).

When a hidden character wields the weapon, its sheet's damage die is secret;
when a hidden character is on either side of a blow, the number of dice and
the halvings (they come from its size) are secret. The faces rolled are not.
"""

from __future__ import annotations

import math

from rules.model import Event
from rules.randomness import Chance
from rules.said import N_, say, seq
from rules.secrets import secret
from rules.text import Text

from .harm import after_armour, harm, slain
from .manoeuvres import apply_manoeuvre
from .model import Fighter
from .saves import Pool
from .sheet import Weapon
from .sizing import damage_die


def _roll(
    chance: Pool, dice: int, die: int, halve: int, *, shown_die: Text | None = None, sized: bool = False
) -> tuple[int, Text]:
    """`shown_die`: the die as written (a hidden wielder's is secret); `sized`: a hidden
    character's size set the number of dice and halvings, which are then secret, and so are
    the faces and the sum halved, or counting the faces and halving the sum would tell them."""
    faces = chance.pool(dice, die)
    total = sum(faces)
    die_text = shown_die if shown_die is not None else str(die)
    if sized:
        text = seq(secret(dice, True), "d", die_text, " (", secret(", ".join(map(str, faces)), True), ")")
    elif dice > 1:
        text = seq(str(dice), "d", die_text, " (", ", ".join(map(str, faces)), ")")
    else:
        text = seq("d", die_text, " ", str(faces[0]))
    if halve:
        reduced = math.ceil(total / 2**halve)
        values = {"total": secret(total, sized), "reduced": reduced}
        if sized or halve > 1:
            times = secret(halve, True) if sized else halve
            halved = say("halved ×{times} (smaller attacker) {total} → {reduced}", times=times, **values)
        else:
            halved = say("halved (smaller attacker) {total} → {reduced}", **values)
        text = seq(text, " ", halved)
        total = reduced
    return total, text


def _sized(*fighters: Fighter) -> bool:
    """A hidden character on either side of a blow: its size is secret."""
    return any(f.hidden is True for f in fighters)


class AttackerDice:
    """One character's rolls: first the dice they entered, parked while others chose
    (`saved`); once parked (`None` means nothing was), the rest are the bot's, since the
    action now running was sent by someone else. Unparked, the action's own chance."""

    def __init__(self, saved, chance: Chance) -> None:
        self.parked = saved is not None
        self.saved = list(saved or ())
        self.chance = chance

    def die(self, sides: int) -> int:
        if self.saved:
            self.chance.replayed_entered()
            return self.saved.pop(0)
        return self.chance.bots_die(sides) if self.parked else self.chance.die(sides)

    def unused(self, count: int) -> list[int]:
        """Parked dice meant for a blow that never came (a dodge): taken out of the way."""
        taken, self.saved = self.saved[:count], self.saved[count:]
        return taken

    def pool(self, count: int, sides: int) -> tuple[int, ...]:
        return tuple(self.die(sides) for _ in range(count))


def counter_faces(counterer: Fighter, attacker: Fighter, weapon: Weapon) -> list[int]:
    """The counter's damage dice: rolled by the counterer's player when choosing the counter."""
    steps = counterer.size_rank - attacker.size_rank
    return [damage_die(weapon, False, False)] * (2**steps if steps >= 0 else 1)


def _counter_roll(chance: Chance, entry, counterer: Fighter, attacker: Fighter, weapon: Weapon) -> tuple[int, Text]:
    steps = counterer.size_rank - attacker.size_rank
    dice, halve = (2**steps, 0) if steps >= 0 else (1, -steps)
    die = damage_die(weapon, False, False)
    own = AttackerDice(entry.get("counter_dice"), chance)
    return _roll(own, dice, die, halve, shown_die=weapon.die_shown(die, counterer), sized=_sized(counterer, attacker))


def _not_used(attacker: Fighter, dice: list[int], why: Text) -> Event:
    """`why`: said."""
    if len(dice) == 1:
        return Event(
            kind="info",
            text=say("{who}'s damage die {die} is not used: {why}.", who=attacker.name, die=dice[0], why=why),
        )
    shown = ", ".join(map(str, dice))
    return Event(
        kind="info", text=say("{who}'s damage dice {dice} are not used: {why}.", who=attacker.name, dice=shown, why=why)
    )


def _savers(enc, ctx, chance: Chance) -> dict[str, AttackerDice]:
    """Whose die each STR save takes. Resolved within the attack itself, the sender's entered
    dice when the save is theirs to roll (the GM rolls anyone's, a player only their own
    characters'), else the bot's; after a choice, the die each target's player entered with their
    own choice, else the bot's (the attacker's too, hit by a counter): never another player's dice."""
    chosen = "dice" in ctx  # parked when the attack waited for a choice
    savers = {ctx["attacker"]: AttackerDice([] if chosen else None, chance)}
    for entry in ctx["targets"]:
        if chosen:
            saved = entry.get("save_dice", [])
        else:
            saved = None if chance.enters_for(enc.get(entry["cid"]).controller_id) else []
        savers[entry["cid"]] = AttackerDice(saved, chance)
    return savers


def _unused_saves(enc, ctx, savers: dict[str, AttackerDice]) -> list[Event]:
    why = say("no critical damage") if ctx["mode"] == "damage" else say("no STR save was needed")
    events = []
    for cid, saver in savers.items():
        if saver.saved:
            if len(saver.saved) == 1:
                template = N_("{who}'s STR save die {dice} is not used: {why}.")
            else:
                template = N_("{who}'s STR save dice {dice} are not used: {why}.")
            shown = ", ".join(map(str, saver.saved))
            events.append(Event(kind="info", text=say(template, who=enc.get(cid).name, dice=shown, why=why)))
    return events


def resolve(enc, ctx, chance: Chance):
    savers = _savers(enc, ctx, chance)
    enc, events = _resolve(enc, ctx, chance, savers)
    # A non-lethal counter is resolved last, whether the attack was a blow or a manoeuvre.
    for entry in ctx["targets"]:
        if "non_lethal_counter" in entry:
            enc, more = _non_lethal_counter(enc, ctx, entry, chance, savers)
            events.extend(more)
    return enc, events + _unused_saves(enc, ctx, savers)


COUNTER_FAILS = {
    "grapple": N_("{who} is held by {attacker} and cannot act: the grapple fails."),
    "shove": N_("{who} is held by {attacker} and cannot act: the shove fails."),
    "disarm": N_("{who} is held by {attacker} and cannot act: the disarm fails."),
}


def _non_lethal_counter(enc, ctx, entry, chance: Chance, savers: dict[str, AttackerDice]):
    """The counterer's grapple, shove or disarm on the attacker, once the attack has landed: a counterer
    the attack took down, or grabbed (grabbed characters cannot act), never makes it."""
    attacker: Fighter = enc.get(ctx["attacker"])
    counterer: Fighter = enc.get(entry["cid"])
    mode = entry["non_lethal_counter"]["mode"]
    if not counterer.standing or counterer.grabbed_by:
        if counterer.standing:
            holder = enc.get(counterer.grabbed_by).name
            failed = say(COUNTER_FAILS[mode], who=counterer.name, attacker=holder)
        else:
            failed = say(FAILS[mode], attacker=counterer.name)
        events = [Event(kind="info", text=failed)]
        if entry.get("counter_dice"):  # a larger shover's d4, entered with the counter
            events.append(_not_used(counterer, entry["counter_dice"], say("the shove failed")))
        return enc, events
    take = entry["non_lethal_counter"]["take"]
    own = AttackerDice(entry.get("counter_dice"), chance)
    return apply_manoeuvre(enc, mode, counterer.id, attacker.id, take, savers[attacker.id], own)


def _resolve(enc, ctx, chance: Chance, savers: dict[str, AttackerDice]):
    attacker: Fighter = enc.get(ctx["attacker"])
    weapon = Weapon(**ctx["weapon"])
    entries = sorted(ctx["targets"], key=lambda e: "counter" not in e)  # a counter settles first
    events: list[Event] = []
    own = AttackerDice(ctx.get("dice"), chance)
    blast_roll = None
    shown_die = weapon.die_shown(ctx["die"], attacker)
    if weapon.blast and ctx["mode"] == "damage":
        if any(not e.get("dodged") for e in entries):
            blast_roll = _roll(own, 1, ctx["die"], 0, shown_die=shown_die)  # a blast ignores size
        elif unused := own.unused(1):
            events.append(_not_used(attacker, unused, say("everyone dodged")))
    stopped = False  # a counter struck first and took the attacker down: the attack stops there
    for entry in entries:
        target: Fighter = enc.get(entry["cid"])
        if entry.get("dodged"):
            if ctx["mode"] == "damage" and not weapon.blast and (unused := own.unused(entry["dice"])):
                events.append(_not_used(attacker, unused, say("{who} dodged", who=target.name)))
            continue
        if stopped:
            down = say(
                "{attacker} is down: the attack on {target} never lands.", attacker=attacker.name, target=target.name
            )
            events.append(Event(kind="info", text=down))
            unused = own.unused(entry["dice"]) if ctx["mode"] == "damage" and not weapon.blast else []
            if unused and not _sized(attacker, target):  # how many tells a hidden character's size
                events.append(_not_used(attacker, unused, say("the attack never landed")))
            continue
        if ctx.get("death_blow") and not entry.get("guarded"):
            enc = slain(enc, target.id)
            killed = say("Nobody guards {target}: the death blow kills them.", target=target.name)
            events.append(Event(kind="info", text=killed))
            if (unused := own.unused(entry["dice"])) and not _sized(attacker, target):
                events.append(_not_used(attacker, unused, say("a death blow rolls no damage")))
            continue
        if ctx["mode"] != "damage":
            enc, more = _manoeuvre(enc, ctx, entry, chance, own, savers)
            events.extend(more)
            continue
        amount, text = (
            blast_roll
            if blast_roll
            else _roll(
                own, entry["dice"], ctx["die"], entry["halve"], shown_die=shown_die, sized=_sized(attacker, target)
            )
        )
        if "counter" in entry:
            enc, more, stopped = _exchange(enc, ctx, entry, amount, text, chance, savers)
            events.extend(more)
            continue
        events.append(Event(kind="roll", text=seq(attacker.name, " → ", target.name, ": ", text, ".")))
        # "harmed by the enemy": an ally's blast does not end a surrender
        enemy = attacker.side != target.side
        hit = harm(enc, target.id, amount, savers[target.id], cover=ctx["cover"], by_enemy=enemy)
        enc = hit.enc
        events.extend(hit.events)
    # Dice entered for a target that hid behind, or was guarded by, one who takes fewer (how many
    # fewer tells a hidden character's size: then they go unsaid).
    hidden = _sized(attacker, *(enc.get(e["cid"]) for e in entries))
    if ctx["mode"] == "damage" and (unused := own.unused(len(own.saved))) and not hidden:
        events.append(_not_used(attacker, unused, say("the attack changed target")))
    return enc, events


def _peeks(ctx) -> bool:
    """The attacker peeks out from behind a barrier: "they can be still countered and the barrier only
    counts as cover". (An attack parked before `peek` existed has no such key.)"""
    return ctx.get("peek", False)


def _exchange(enc, ctx, entry, amount: int, text: Text, chance: Chance, savers: dict[str, AttackerDice]):
    """Both roll at once; whoever suffers more after armour is hit first, and a
    blow that takes its victim down stops the other; a tie lands both. Also says whether
    the counter took the attacker down before its attack landed."""
    attacker: Fighter = enc.get(ctx["attacker"])
    target: Fighter = enc.get(entry["cid"])
    counter_weapon = Weapon(**entry["counter"])
    back, back_text = _counter_roll(chance, entry, target, attacker, counter_weapon)
    to_target = after_armour(target, amount, cover=ctx["cover"])
    to_attacker = after_armour(attacker, back, cover=_peeks(ctx))
    events = [
        Event(
            kind="roll",
            text=say(
                "{attacker} rolls {roll} → {dealt} after armour for {target}; "
                "{target} counters with {back} → {back_dealt} after armour for {attacker}.",
                attacker=attacker.name,
                roll=text,
                dealt=secret(to_target, target),
                target=target.name,
                back=back_text,
                back_dealt=secret(to_attacker, attacker),
            ),
        )
    ]
    blows = [(target.id, amount, ctx["cover"]), (attacker.id, back, _peeks(ctx))]
    if to_attacker > to_target:
        blows.reverse()
    tie = to_target == to_attacker
    first_name = enc.get(blows[0][0]).name
    first = say("A tie: both are hit at once.") if tie else say("{who} suffers more and is hit first.", who=first_name)
    # Which side suffers more compares what each takes after armour: with a hidden side, saying it would
    # let the channel subtract its way to the hidden armour, so only the rule is said.
    if attacker.hidden or target.hidden:
        first = say("Both strike at once: whoever suffers more after armour is hit first.")
    events.append(Event(kind="info", text=first))
    hits = [harm(enc, blows[0][0], blows[0][1], savers[blows[0][0]], cover=blows[0][2])]
    enc = hits[0].enc
    events.extend(hits[0].events)
    if tie or not hits[0].knocked_out:
        second = harm(enc, blows[1][0], blows[1][1], savers[blows[1][0]], cover=blows[1][2])
        enc = second.enc
        events.extend(second.events)
    else:
        events.append(Event(kind="info", text=say("{who} suffers no damage at all.", who=enc.get(blows[1][0]).name)))
    stopped = not tie and blows[0][0] == attacker.id and hits[0].knocked_out
    return enc, events, stopped


FAILS = {
    "disarm": N_("{attacker} is down: the disarm fails."),
    "shove": N_("{attacker} is down: the shove fails."),
    "grapple": N_("{attacker} is down: the grapple fails."),
}


def _manoeuvre(enc, ctx, entry, chance: Chance, own: AttackerDice, savers: dict[str, AttackerDice]):
    """A non-lethal attack resolves after any counter's damage."""
    events: list[Event] = []
    attacker: Fighter = enc.get(ctx["attacker"])
    target: Fighter = enc.get(entry["cid"])
    if "counter" in entry:
        back, back_text = _counter_roll(chance, entry, target, attacker, Weapon(**entry["counter"]))
        events.append(
            Event(
                kind="roll",
                text=say(
                    "{who} counters first (non-lethal attacks resolve last): {roll}.", who=target.name, roll=back_text
                ),
            )
        )
        hit = harm(enc, attacker.id, back, savers[attacker.id], cover=_peeks(ctx))
        enc = hit.enc
        events.extend(hit.events)
        if hit.knocked_out:
            down = say(FAILS[ctx["mode"]], attacker=attacker.name)
            events.append(Event(kind="info", text=down))
            return enc, events
    enc, more = apply_manoeuvre(
        enc, ctx["mode"], attacker.id, target.id, ctx.get("take"), savers[target.id], own, grab=ctx.get("grab", False)
    )
    return enc, events + more
