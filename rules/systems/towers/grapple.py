"""Grappling: Grapple Tests, the grappler's follow-ups and the victim's reversal.

Initiating and escaping both flip the grappler's PA as the attacker and the
victim's PD as the defender; the attacker wins ties, so a victim escapes only
by flipping higher. Size ranks add to the flips as shifts.

Once holding a foe, the grappler may (each an Attack action, 5 phases):
Restrain (shift+1 on his next Grapple Test in this grapple, not cumulative),
Squeeze (a damage flip, base Hard Strength + size − the victim's size, sizes
below medium as 0; the hold stays), Slam (the same damage, the victim knocked
prone, the hold ends) or Throw (PA against the PD of whoever is in the space
aimed at, 0 for an empty space; the hold ends). The victim may Reverse the
Grapple (Attack, 5): Hard Strength + size at (flip−1) against the grappler's
Hard Strength + size; he must flip higher, and then the roles swap. A grappler
at 0 STUN or 0 LETHAL lets go at once.

The hold is the victim's condition `grappled by <grappler>`; Restrain marks it
`grappled by <grappler> (restrained)` until the next Grapple Test uses it.
"""

from __future__ import annotations

from rules.cards import Card
from rules.errors import InvalidInput
from rules.model import Event
from rules.secrets import secret
from rules.usertext import listed

from .attack import defense_base
from .damage import Harm, dealt, take
from .flips import Mods, described, flip
from .model import GRAPPLED_BY, Condition, TowersCombatant
from .modifiers import attack_mods, defense_mods
from .sheet import Weapon

PREFIX = GRAPPLED_BY
RESTRAINED = " (restrained)"
RESTRAIN_SHIFT = 1
THROW = Weapon(name="Throw", adds="hs", keywords=("unarmed",))


def _held_by(condition: Condition) -> str | None:
    """The grappler's name in a `grappled by …` condition, else None."""
    if not condition.name.startswith(PREFIX):
        return None
    name = condition.name[len(PREFIX) :]
    return name[: -len(RESTRAINED)] if name.endswith(RESTRAINED) else name


def _restrained(victim: TowersCombatant) -> bool:
    return any(c.name.startswith(PREFIX) and c.name.endswith(RESTRAINED) for c in victim.conditions)


def _hold(grappler: TowersCombatant, restrained: bool = False) -> Condition:
    return Condition(name=f"{PREFIX}{grappler.name}{RESTRAINED if restrained else ''}")


def _let_go(enc, victim: TowersCombatant):
    left = tuple(c for c in victim.conditions if not c.name.startswith(PREFIX))
    return enc.update(victim.id, conditions=left)


def _contest(
    chance, grappler: TowersCombatant, victim: TowersCombatant, restrained: bool = False
) -> tuple[bool, list[str]]:
    attack_mods = Mods().plus(shift=grappler.sheet.size, why="size") if grappler.sheet.size else Mods()
    if restrained:
        attack_mods = attack_mods.plus(shift=RESTRAIN_SHIFT, why="restrain")
    attack = flip(chance, grappler.sheet.pa, attack_mods)
    base, label = defense_base(victim, "pd")
    defense_mods = Mods().plus(shift=victim.sheet.size, why="size") if victim.sheet.size else Mods()
    defense = flip(chance, base, defense_mods)
    won = attack.total >= defense.total
    return won, [
        f"{grappler.name} {described('PA', secret(grappler.sheet.pa, grappler), attack_mods, attack)}",
        f"{victim.name} {described(label, secret(base, victim), defense_mods, defense)}",
        f"{attack.total} vs {defense.total}",
    ]


def grappler_of(enc, victim: TowersCombatant) -> TowersCombatant | None:
    for condition in victim.conditions:
        name = _held_by(condition)
        if name is not None:
            return enc.maybe(name)
    return None


def victims_of(enc, grappler: TowersCombatant) -> list[TowersCombatant]:
    return [c for c in enc.combatants if not c.out and (held := grappler_of(enc, c)) and held.id == grappler.id]


def initiate(enc, me: TowersCombatant, target_name: str | None, chance):
    """Cards: the grappler's PA flip, then the target's PD flip."""
    if not target_name:
        raise InvalidInput("Initiate Grapple needs a target within reach.")
    victim = enc.find(target_name)
    if victim.id == me.id or victim.out:
        raise InvalidInput(f"{me.name} cannot grapple {victim.name}.")
    if grappler_of(enc, victim):
        raise InvalidInput(f"{victim.name} is already grappled.")
    won, lines = _contest(chance, me, victim)
    if won:
        held = victim.conditions + (_hold(me),)
        enc = enc.update(victim.id, conditions=held)
    verdict = f"{victim.name} is grappled" if won else f"{victim.name} slips the grapple"
    return enc, f"Grapple Test: {'; '.join(lines)}: {verdict}."


def escape(enc, me: TowersCombatant, chance):
    """Cards: the grappler's PA flip, then the escaper's PD flip."""
    grappler = grappler_of(enc, me)
    if grappler is None:
        raise InvalidInput(f"{me.name} is not grappled.")
    restrained = _restrained(me)
    held, lines = _contest(chance, grappler, me, restrained)
    enc = _let_go(enc, me)
    if held:  # the Restrain bonus is spent on this test
        enc = enc.update(me.id, conditions=enc.get(me.id).conditions + (_hold(grappler),))
    verdict = f"{grappler.name} keeps hold" if held else f"{me.name} escapes"
    return enc, f"Escape: {'; '.join(lines)}: {verdict}."


# --- the grappler's follow-ups -------------------------------------------------------


def _my_victim(enc, me: TowersCombatant, name, what: str) -> TowersCombatant:
    held = victims_of(enc, me)
    if not held:
        raise InvalidInput(f"{me.name} is not grappling anyone: {what} needs a grappled foe (Initiate Grapple first).")
    if isinstance(name, str) and name:
        victim = enc.find(name)
        if victim.id not in [v.id for v in held]:
            raise InvalidInput(f"{me.name} is not grappling {victim.name}.")
        return victim
    if len(held) > 1:
        raise InvalidInput(f"{me.name} grapples {listed(v.name for v in held)}: name the foe with target:.")
    return held[0]


def restrain(enc, me: TowersCombatant, target_name: str | None):
    victim = _my_victim(enc, me, target_name, "Restrain")
    if _restrained(victim):
        return enc, (
            f"keeps restraining {victim.name}: still (shift+{RESTRAIN_SHIFT}) on the next Grapple Test "
            "(not cumulative)."
        )
    enc = _let_go(enc, victim)
    enc = enc.update(victim.id, conditions=enc.get(victim.id).conditions + (_hold(me, restrained=True),))
    return enc, f"restrains {victim.name}: (shift+{RESTRAIN_SHIFT}) on the next Grapple Test in this grapple."


def _size(combatant: TowersCombatant) -> int:
    """Sizes below medium count as 0."""
    return max(0, combatant.sheet.size)


def _crush(enc, me: TowersCombatant, victim: TowersCombatant, chance) -> tuple[object, str]:
    """Squeeze and Slam: one damage flip, base Hard Strength + size − the victim's size."""
    base = me.sheet.hs + _size(me) - _size(victim)
    parts = [f"HS {secret(me.sheet.hs, me)}"]
    if _size(me) or me.hidden:
        parts.append(f"+ size {secret(_size(me), me)}")
    if _size(victim) or victim.hidden:
        parts.append(f"− {victim.name}'s size {secret(_size(victim), victim)}")
    hidden = me.hidden or victim.hidden
    shown = " ".join(parts) + (f" = {secret(base, hidden)}" if len(parts) > 1 else "")
    result = flip(chance, 1)
    cards = " ".join(str(Card.parse(code)) for code in result.cards)
    harm = Harm(base=base, hearts=result.hearts, category="physical", shown=shown, secret_base=hidden)
    amount = dealt(harm, victim)
    after, state = take(victim, amount.stun, amount.lethal)
    return enc.with_combatant(after), f"damage flip {cards} → {result.hearts}♥: {amount.result(state)}"


def squeeze(enc, me: TowersCombatant, target_name: str | None, chance):
    """Cards: the one damage flip."""
    victim = _my_victim(enc, me, target_name, "Squeeze")
    enc, text = _crush(enc, me, victim, chance)
    return enc, f"Squeeze {victim.name}: {text}; the grapple holds."


def slam(enc, me: TowersCombatant, target_name: str | None, chance):
    """Cards: the one damage flip."""
    victim = _my_victim(enc, me, target_name, "Slam")
    enc, text = _crush(enc, me, victim, chance)
    enc = _let_go(enc, victim)
    enc = enc.update(victim.id, prone=True)
    return enc, f"Slam {victim.name}: {text}; {victim.name} is knocked prone and the grapple ends."


def throw(enc, me: TowersCombatant, target_name: str | None, flags: dict, chance):
    """Cards: the thrower's PA flip, then the PD flip of whoever is in the space (none for an empty one)."""
    victim = _my_victim(enc, me, flags.get("victim"), "Throw")
    target = enc.find(target_name) if target_name else None
    if target is not None and target.id in (me.id, victim.id):
        raise InvalidInput(f"Throw {victim.name} at someone else, or name no target for an empty space.")
    if target is not None and target.out:
        raise InvalidInput(f"{target.name} is dead.")
    mods = attack_mods(me, THROW, "attack", flags, 0)
    attack = flip(chance, me.sheet.pa, mods)
    lines = [f"{me.name} {described('PA', secret(me.sheet.pa, me), mods, attack)}"]
    if target is None:
        total = 0
        lines.append("an empty space: defence 0")
    else:
        base, label = defense_base(target, "pd")
        dmods = defense_mods(target, me, THROW, flags)
        defense = flip(chance, base, dmods)
        total = defense.total
        lines.append(f"{target.name} {described(label, secret(base, target), dmods, defense)}")
    hit = attack.total >= total
    enc = _let_go(enc, victim)
    willing = bool(flags.get("willing"))
    if hit and willing:
        enc = enc.update(victim.id, prone=False)
        outcome = f"hit: {victim.name} (willing) lands on their feet next to " + (
            target.name if target else "the space"
        )
    elif hit:
        enc = enc.update(victim.id, prone=True)
        if target is not None:
            enc = enc.update(target.id, prone=True)
            outcome = f"hit: {victim.name} and {target.name} are knocked prone"
        else:
            outcome = f"hit: {victim.name} lands prone in the space"
        outcome += " (the thrown foe lands in a random direction from the target)"
    else:
        enc = enc.update(victim.id, prone=True)
        outcome = f"miss: {victim.name} is prone in a random adjacent space"
        if target is not None:
            outcome += f"; {target.name} is unharmed"
    return enc, f"Throw {victim.name}: {'; '.join(lines)}: {attack.total} vs {total}: {outcome}; the grapple ends."


# --- the victim's reversal -----------------------------------------------------------


def reverse(enc, me: TowersCombatant, chance):
    """Cards: the reverser's Hard Strength flip (flip−1), then the grappler's."""
    grappler = grappler_of(enc, me)
    if grappler is None:
        raise InvalidInput(f"{me.name} is not grappled: only a grappled character can reverse the grapple.")
    mine_mods = Mods().plus(flip=-1, why="reversing")
    if me.sheet.size:
        mine_mods = mine_mods.plus(shift=me.sheet.size, why="size")
    theirs_mods = Mods().plus(shift=grappler.sheet.size, why="size") if grappler.sheet.size else Mods()
    mine = flip(chance, me.sheet.hs, mine_mods)
    theirs = flip(chance, grappler.sheet.hs, theirs_mods)
    won = mine.total > theirs.total
    lines = [
        f"{me.name} {described('HS', secret(me.sheet.hs, me), mine_mods, mine)}",
        f"{grappler.name} {described('HS', secret(grappler.sheet.hs, grappler), theirs_mods, theirs)}",
        f"{mine.total} vs {theirs.total}",
    ]
    if won:
        enc = _let_go(enc, me)
        enc = enc.update(grappler.id, conditions=enc.get(grappler.id).conditions + (_hold(me),))
        verdict = f"{me.name} reverses the grapple: {grappler.name} is grappled by {me.name}"
    else:
        verdict = f"{grappler.name} keeps hold"
    return enc, f"Reverse the Grapple: {'; '.join(lines)}: {verdict}."


# --- grapples that break by themselves ----------------------------------------------------


def broken(enc) -> tuple[object, list[Event]]:
    """A grappler at 0 STUN or 0 LETHAL (or worse) lets go at once."""
    events: list[Event] = []
    for victim in enc.combatants:
        grappler = grappler_of(enc, victim)
        if grappler is None or not (grappler.out or grappler.stun <= 0 or grappler.health <= 0):
            continue
        why = "dead" if grappler.out else "0 STUN" if grappler.stun <= 0 else "0 LETHAL"
        enc = _let_go(enc, enc.get(victim.id))
        events.append(
            Event(
                kind="info",
                text=f"{grappler.name} ({secret(why, grappler)}) lets go: the grapple on {victim.name} breaks.",
            )
        )
    return enc, events
