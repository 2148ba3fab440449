"""Grappling: Grapple Tests, the grappler's follow-ups and the victim's reversal.

Initiating and escaping both flip the grappler's PA as the attacker and the
victim's PD as the defender; the attacker wins ties, so a victim escapes only
by flipping higher. Size ranks add to the flips as shifts; a dual-wielder's
stance changes the cards of either side, PA or PD.

Once holding a foe, the grappler may (each an Attack action, 5 phases):
Restrain (shift+1 on his next Grapple Test in this grapple, not cumulative),
Squeeze (a damage flip, base Hard Strength + size − the victim's size, sizes
below medium as 0; the hold stays), Slam (the same damage, the victim knocked
prone, the hold ends) or Throw (PA against the PD of whoever is in the space
aimed at, 0 for an empty space; the hold ends). The victim may Reverse the
Grapple (Attack, 5): Hard Strength + size at (flip−1) against the grappler's
Hard Strength + size; he succeeds on a tie, as an attacker does, and then the
roles swap. A grappler at 0 STUN or 0 LETHAL lets go at once; one hit by an attack
with Knockback makes another Grapple Test to hold on.

The hold is the victim's condition `grappled by <grappler>`; Restrain marks it
`grappled by <grappler> (restrained)` until the next Grapple Test uses it.
"""

from __future__ import annotations

from typing import Any

from rules.cards import Card
from rules.errors import InvalidInput
from rules.model import Event, Value
from rules.said import EMPTY, Text, joined, say, seq, term
from rules.secrets import secret
from rules.usertext import listed, user_text

from .damage import Harm, dealt, take
from .flips import Flip, Mods, described, flip
from .model import GRAPPLED_BY, Condition, TowersCombatant, TowersEncounter
from .modifiers import (
    aid_spent,
    attack_mods,
    defense_base,
    defense_mods,
    own_defense_mods,
    reckless_mods,
    throw_range_mods,
)
from .sheet import Weapon
from .stance import defense_mods as stance_defense
from .stance import pa_mods as stance_pa

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


def shown(name: str) -> Text:
    """A condition's name as the tracker shows it: a hold is said (`grappled by Tony`), any other is as typed."""
    held = _held_by(Condition(name=name))
    if held is None:
        return term(name)
    if name.endswith(RESTRAINED):
        return say("grappled by {who} (restrained)", who=user_text(held))
    return say("grappled by {who}", who=user_text(held))


def _restrained(victim: TowersCombatant) -> bool:
    return any(c.name.startswith(PREFIX) and c.name.endswith(RESTRAINED) for c in victim.conditions)


def _hold(grappler: TowersCombatant, restrained: bool = False) -> Condition:
    return Condition(name=f"{PREFIX}{grappler.name}{RESTRAINED if restrained else ''}")


def _let_go(enc, victim: TowersCombatant):
    left = tuple(c for c in victim.conditions if not c.name.startswith(PREFIX))
    return enc.update(victim.id, conditions=left)


def _contest(
    chance, grappler: TowersCombatant, victim: TowersCombatant, restrained: bool = False
) -> tuple[bool, list[Text]]:
    attack_mods = Mods().plus(shift=grappler.sheet.size, why=say("size")) if grappler.sheet.size else Mods()
    if restrained:
        attack_mods = attack_mods.plus(shift=RESTRAIN_SHIFT, why=say("restrain"))
    attack_mods = attack_mods + stance_pa(grappler) + reckless_mods(grappler)
    attack = flip(chance, grappler.sheet.pa, attack_mods)
    base, label = defense_base(victim, "pd")
    defense_mods = stance_defense(victim, "pd")
    if victim.sheet.size:
        defense_mods = defense_mods.plus(shift=victim.sheet.size, why=say("size"))
    defense_mods = defense_mods + own_defense_mods(victim, grappler)
    defense = flip(chance, base, defense_mods)
    won = attack.total >= defense.total
    return won, [
        seq(grappler.name, " ", described("PA", secret(grappler.sheet.pa, grappler), attack_mods, attack)),
        seq(victim.name, " ", described(label, secret(base, victim), defense_mods, defense)),
        say("{attack} vs {defense}", attack=attack.total, defense=defense.total),
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
        raise InvalidInput(say("Initiate Grapple needs a target within reach."))
    victim = enc.find(target_name)
    if victim.id == me.id or victim.out:
        raise InvalidInput(say("{who} cannot grapple {target}.", who=me.name, target=victim.name))
    if grappler_of(enc, victim):
        raise InvalidInput(say("{who} is already grappled.", who=victim.name))
    won, lines = _contest(chance, me, victim)
    enc = aid_spent(enc, victim, me)
    if won:
        held = victim.conditions + (_hold(me),)
        enc = enc.update(victim.id, conditions=held)
    verdict = say("{who} is grappled", who=victim.name) if won else say("{who} slips the grapple", who=victim.name)
    return enc, say("{who}: Grapple Test: {flips}: {verdict}.", who=me.name, flips=joined("; ", lines), verdict=verdict)


def _retest(
    enc: TowersEncounter, grappler: TowersCombatant, victim: TowersCombatant, chance
) -> tuple[TowersEncounter, bool, list[Text]]:
    """A Grapple Test in a grapple under way, the victim defending: the hold stays on a win, without the
    Restrain bonus, which this test spends; else the grapple breaks."""
    held, lines = _contest(chance, grappler, victim, _restrained(victim))
    enc = _let_go(aid_spent(enc, victim, grappler), victim)
    if held:
        enc = enc.update(victim.id, conditions=enc.get(victim.id).conditions + (_hold(grappler),))
    return enc, held, lines


def escape(enc, me: TowersCombatant, chance):
    """Cards: the grappler's PA flip, then the escaper's PD flip."""
    grappler = grappler_of(enc, me)
    if grappler is None:
        raise InvalidInput(say("{who} is not grappled.", who=me.name))
    enc, held, lines = _retest(enc, grappler, me, chance)
    verdict = say("{who} keeps hold", who=grappler.name) if held else say("{who} escapes", who=me.name)
    return enc, say("{who}: Escape: {flips}: {verdict}.", who=me.name, flips=joined("; ", lines), verdict=verdict)


# --- the grappler's follow-ups -------------------------------------------------------


def _my_victim(enc, me: TowersCombatant, name, what: str, *, as_option: bool = False) -> TowersCombatant:
    """`what`: the follow-up's name on the action list (Restrain, Squeeze…); `as_option`: the foe is named
    with options:victim= (a Throw's target: is whoever stands in the space it lands in)."""
    held = victims_of(enc, me)
    if not held:
        raise InvalidInput(
            say(
                "{who} is not grappling anyone: {action} needs a grappled foe (Initiate Grapple first).",
                who=me.name,
                action=term(what),
            )
        )
    if isinstance(name, str) and name:
        victim = enc.find(name)
        if victim.id not in [v.id for v in held]:
            raise InvalidInput(say("{who} is not grappling {target}.", who=me.name, target=victim.name))
        return victim
    if len(held) > 1:
        targets = listed(v.name for v in held)
        if as_option:
            raise InvalidInput(
                say("{who} grapples {targets}: name the thrown foe with options:victim=.", who=me.name, targets=targets)
            )
        raise InvalidInput(say("{who} grapples {targets}: name the foe with target:.", who=me.name, targets=targets))
    return held[0]


def restrain(enc, me: TowersCombatant, target_name: str | None):
    victim = _my_victim(enc, me, target_name, "Restrain")
    if _restrained(victim):
        return enc, say(
            "{who} keeps restraining {target}: still (shift+{n}) on the next Grapple Test (not cumulative).",
            who=me.name,
            target=victim.name,
            n=RESTRAIN_SHIFT,
        )
    enc = _let_go(enc, victim)
    enc = enc.update(victim.id, conditions=enc.get(victim.id).conditions + (_hold(me, restrained=True),))
    return enc, say(
        "{who} restrains {target}: (shift+{n}) on the next Grapple Test in this grapple.",
        who=me.name,
        target=victim.name,
        n=RESTRAIN_SHIFT,
    )


def _size(combatant: TowersCombatant) -> int:
    """Sizes below medium count as 0."""
    return max(0, combatant.sheet.size)


def _crush(enc, me: TowersCombatant, victim: TowersCombatant, chance) -> tuple[object, Text]:
    """Squeeze and Slam: one damage flip, base Hard Strength + size − the victim's size."""
    base = me.sheet.hs + _size(me) - _size(victim)
    parts: list[Text] = [say("HS {n}", n=secret(me.sheet.hs, me))]
    if _size(me) or me.hidden:
        parts.append(seq("+ ", say("size {n}", n=secret(_size(me), me))))
    if _size(victim) or victim.hidden:
        parts.append(seq("− ", say("{who}'s size {n}", who=victim.name, n=secret(_size(victim), victim))))
    hidden = me.hidden or victim.hidden
    shown = seq(joined(" ", parts), seq(" = ", secret(base, hidden)) if len(parts) > 1 else EMPTY)
    result = flip(chance, 1)
    cards = " ".join(str(Card.parse(code)) for code in result.cards)
    harm = Harm(base=base, hearts=result.hearts, category="physical", shown=shown, secret_base=hidden)
    amount = dealt(harm, victim)
    after, state = take(victim, amount.stun, amount.lethal)
    line = seq(say("damage flip {cards}", cards=cards), f" → {result.hearts}♥: ", amount.result(state))
    return enc.with_combatant(after), line


def squeeze(enc, me: TowersCombatant, target_name: str | None, chance):
    """Cards: the one damage flip."""
    victim = _my_victim(enc, me, target_name, "Squeeze")
    enc, text = _crush(enc, me, victim, chance)
    return enc, say(
        "{who}: Squeeze {target}: {damage}; the grapple holds.", who=me.name, target=victim.name, damage=text
    )


def slam(enc, me: TowersCombatant, target_name: str | None, chance):
    """Cards: the one damage flip."""
    victim = _my_victim(enc, me, target_name, "Slam")
    enc, text = _crush(enc, me, victim, chance)
    enc = _let_go(enc, victim)
    enc = enc.update(victim.id, prone=True)
    return enc, say(
        "{who}: Slam {target}: {damage}; {target} is knocked prone and the grapple ends.",
        who=me.name,
        target=victim.name,
        damage=text,
    )


# The `options:` words a Throw reads besides the attack's and defence's modifiers (commands.py declares them).
THROW_WORDS = ("victim", "willing", "max")


class Thrown(Value):
    """A Throw whose PA flip is made: who throws whom into whose space (None: an empty one)."""

    thrower: str
    victim: str
    target: str | None
    flags: dict[str, Any]
    attack: Flip
    cost: int = 0  # the action's phases, paid once the throw lands


def aim_throw(enc, me: TowersCombatant, target_name: str | None, flags: dict, chance) -> tuple[Thrown, Text]:
    """The thrower's PA flip, and its line. Cards: that PA flip."""
    victim = _my_victim(enc, me, flags.get("victim"), "Throw", as_option=True)
    target = enc.find(target_name) if target_name else None
    if target is not None and target.id in (me.id, victim.id):
        raise InvalidInput(
            say("Throw {target} at someone else, or name no target for an empty space.", target=victim.name)
        )
    if target is not None and target.out:
        raise InvalidInput(say("{who} is dead.", who=target.name))
    # The throw's range counts against its own maximum, not a weapon's reach.
    thrown = {word: value for word, value in flags.items() if word != "range"}
    mods = attack_mods(me, THROW, "attack", thrown, 0) + throw_range_mods(flags)
    attack = flip(chance, me.sheet.pa, mods)
    plan = Thrown(
        thrower=me.id, victim=victim.id, target=target.id if target else None, flags=dict(flags), attack=attack
    )
    return plan, seq(me.name, " ", described("PA", secret(me.sheet.pa, me), mods, attack))


def land_throw(enc, plan: Thrown, chance, lines: list[Text]) -> tuple[TowersEncounter, Text]:
    """The PD flip of whoever is in the space (none for an empty one), then where everyone lands; `lines`:
    the flips shown before it (the PA flip's, unless shown already). Cards: that PD flip."""
    me, victim = enc.get(plan.thrower), enc.get(plan.victim)
    target = enc.get(plan.target) if plan.target else None
    flags = plan.flags
    lines = list(lines)
    if target is None:
        total = 0
        lines.append(say("an empty space: defence 0"))
    else:
        base, label = defense_base(target, "pd")
        dmods = defense_mods(target, me, THROW, flags)
        defense = flip(chance, base, dmods)
        total = defense.total
        lines.append(seq(target.name, " ", described(label, secret(base, target), dmods, defense)))
        enc = aid_spent(enc, target, me)
    hit = plan.attack.total >= total
    enc = _let_go(enc, victim)
    willing = bool(flags.get("willing"))
    outcome: Text
    if hit and willing:
        enc = enc.update(victim.id, prone=False)
        if target is not None:
            outcome = say(
                "hit: {who} (willing) lands on their feet next to {target}", who=victim.name, target=target.name
            )
        else:
            outcome = say("hit: {who} (willing) lands on their feet next to the space", who=victim.name)
    elif hit:
        enc = enc.update(victim.id, prone=True)
        if target is not None:
            enc = enc.update(target.id, prone=True)
            outcome = say("hit: {who} and {target} are knocked prone", who=victim.name, target=target.name)
        else:
            outcome = say("hit: {who} lands prone in the space", who=victim.name)
        outcome = seq(outcome, " ", say("(the thrown foe lands in a random direction from the target)"))
    else:
        enc = enc.update(victim.id, prone=True)
        outcome = say("miss: {who} is prone in a random adjacent space", who=victim.name)
        if target is not None:
            outcome = seq(outcome, "; ", say("{who} is unharmed", who=target.name))
    return enc, say(
        "{who}: Throw {target}: {flips}: {attack} vs {defense}: {outcome}; the grapple ends.",
        who=me.name,
        target=victim.name,
        flips=joined("; ", lines),
        attack=plan.attack.total,
        defense=total,
        outcome=outcome,
    )


# --- the victim's reversal -----------------------------------------------------------


def reverse(enc, me: TowersCombatant, chance):
    """Cards: the reverser's Hard Strength flip (flip−1), then the grappler's."""
    grappler = grappler_of(enc, me)
    if grappler is None:
        raise InvalidInput(
            say("{who} is not grappled: only a grappled character can reverse the grapple.", who=me.name)
        )
    mine_mods = Mods().plus(flip=-1, why=say("reversing"))
    if me.sheet.size:
        mine_mods = mine_mods.plus(shift=me.sheet.size, why=say("size"))
    mine_mods = mine_mods + reckless_mods(me)
    theirs_mods = Mods().plus(shift=grappler.sheet.size, why=say("size")) if grappler.sheet.size else Mods()
    theirs_mods = theirs_mods + reckless_mods(grappler)
    mine = flip(chance, me.sheet.hs, mine_mods)
    theirs = flip(chance, grappler.sheet.hs, theirs_mods)
    # "he must succeed on a ... check": the one checking succeeds on a tie, as an attack hits on one.
    won = mine.total >= theirs.total
    lines = [
        seq(me.name, " ", described("HS", secret(me.sheet.hs, me), mine_mods, mine)),
        seq(grappler.name, " ", described("HS", secret(grappler.sheet.hs, grappler), theirs_mods, theirs)),
        say("{attack} vs {defense}", attack=mine.total, defense=theirs.total),
    ]
    if won:
        enc = _let_go(enc, me)
        enc = enc.update(grappler.id, conditions=enc.get(grappler.id).conditions + (_hold(me),))
        verdict = say("{who} reverses the grapple: {target} is grappled by {who}", who=me.name, target=grappler.name)
    else:
        verdict = say("{who} keeps hold", who=grappler.name)
    return enc, say(
        "{who}: Reverse the Grapple: {flips}: {verdict}.", who=me.name, flips=joined("; ", lines), verdict=verdict
    )


# --- grapples that break by themselves ----------------------------------------------------


def hold_on(enc: TowersEncounter, me: TowersCombatant, chance) -> tuple[TowersEncounter, list[Event]]:
    """`me` is hit by an attack with Knockback: "another Grapple Test must be made to hold onto his target
    while being thrown about", one for each foe held, who defends as against an escape; a lost test breaks
    that grapple. The seed gives no distance: the GM's call. A grappler the hit left at 0 STUN or 0 LETHAL
    lets go with no test ("the grapple immediately breaks", `broken`).

    Cards: for each foe held, the grappler's PA flip, then the foe's PD flip."""
    events = [Event(kind="info", text=say("{who} is knocked back (how far is the GM's call).", who=me.name))]
    if me.out or me.stun <= 0 or me.health <= 0:
        return enc, events
    for victim in victims_of(enc, me):
        enc, held, lines = _retest(enc, me, victim, chance)
        if held:
            verdict = say("{who} keeps hold", who=me.name)
        else:
            verdict = say("{who} loses hold: the grapple on {target} breaks", who=me.name, target=victim.name)
        text = say(
            "{who}: Grapple Test to hold on to {target}: {flips}: {verdict}.",
            who=me.name,
            target=victim.name,
            flips=joined("; ", lines),
            verdict=verdict,
        )
        events.append(Event(kind="roll", text=text))
    return enc, events


def broken(enc) -> tuple[object, list[Event]]:
    """A grappler at 0 STUN or 0 LETHAL (or worse) lets go at once; one taken out of the encounter
    holds nobody any more."""
    events: list[Event] = []
    for victim in enc.combatants:
        grappler = grappler_of(enc, victim)
        if grappler is None:
            enc, gone = _left(enc, victim)
            events.extend(gone)
            continue
        if not (grappler.out or grappler.stun <= 0 or grappler.health <= 0):
            continue
        why = say("dead") if grappler.out else say("0 STUN") if grappler.stun <= 0 else say("0 LETHAL")
        enc = _let_go(enc, enc.get(victim.id))
        text = say(
            "{who} ({why}) lets go: the grapple on {target} breaks.",
            who=grappler.name,
            why=secret(why, grappler),
            target=victim.name,
        )
        events.append(Event(kind="info", text=text))
    return enc, events


def _left(enc, victim: TowersCombatant) -> tuple[object, list[Event]]:
    """A hold whose grappler is no longer in the encounter breaks."""
    names = [name for c in victim.conditions if (name := _held_by(c)) is not None]
    if not names:
        return enc, []
    text = say("{who} has left the fight: the grapple on {target} breaks.", who=user_text(names[0]), target=victim.name)
    return _let_go(enc, victim), [Event(kind="info", text=text)]
