"""Attacks: the attacker's flip, each defender's flip, then damage.

A player character's defence flip waits for that player (a pending choice:
they press the button, or enter the cards they flipped); NPCs flip at once.
The attacker's clock moves only when every defender has flipped, so the turn
ping comes after the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.commands import integer
from rules.errors import InvalidInput, NotAllowed
from rules.model import Choice, Event, Value, former_keys
from rules.said import EMPTY, N_, Text, cut, joined, say, say_plural, seq, term
from rules.secrets import secret
from rules.usertext import Typed, listed, quoted

from .acting import acted, leap_first
from .costs import OPPORTUNITY_DELAY, SHIFT_ADDED, action_type, adds_shift
from .damage import Harm, dealt, take
from .flips import Flip, Mods, card_count, described, flip
from .grapple import hold_on
from .model import TowersCombatant, TowersEncounter
from .modifiers import HIGH_GROUND, aid_spent, attack_mods, defense_base, defense_mods
from .senders import own_combatant
from .sheet import UNARMED, Weapon, damage_words, words

if TYPE_CHECKING:
    from rules.randomness import Chance

    from .actions import Attack
    from .system import TowersSystem

POWER_DAMAGE = 2
TINY = -2  # the size rank of a tiny creature
PROMPT_LIMIT = 300
FLIP = "flip"  # the key of the defence's one option
# `options:knockback`: the attack has Knockback. The seed names it without saying which attacks have it or
# how far it throws; what it does to a grappler hit by it, the seed says (grapple.hold_on).
KNOCKBACK = "knockback"
former_keys("defense", {"Flip": FLIP})
LABELS = {
    "attack": N_("Attack"),
    "power attack": N_("Power Attack"),
    "charge": N_("Charge"),
    "aid": N_("Aid"),
    "opportunity attack": N_("Opportunity Attack"),
}


class Plan(Value):
    """An attack in progress, kept in a pending choice while a player flips."""

    style: str
    attacker: str
    remaining: tuple[str, ...]
    weapon: Weapon
    damage: int
    category: str
    dtype: Typed
    defense: str  # pd or id
    flags: dict[str, Any]
    cost: int
    attack: Flip
    ally: str | None = None
    area: bool = False
    shifted: bool = False  # Shift Position added (+2)
    damage_text: Text = EMPTY  # where `damage` comes from, e.g. "Axe 4 + PX 2 = 6"

    @property
    def label(self) -> Text:
        label = term(LABELS.get(self.style, self.style.title()))
        return say("Shift Position + {action}", action=label) if self.shifted else label


def pick_weapon(attacker: TowersCombatant, name: str | None) -> Weapon:
    if not name:
        return attacker.weapons[0] if attacker.weapons else UNARMED
    key = name.strip().casefold()
    # A weapon on the sheet is used as written, even one called `Fist`: bare hands come only after.
    for weapon in attacker.weapons:
        if weapon.name.casefold() == key:
            return weapon
    if key in ("unarmed", "fist", "fists"):
        return UNARMED
    matches = [w for w in attacker.weapons if w.name.casefold().startswith(key)]
    if len(matches) == 1:
        return matches[0]
    known = listed(w.name for w in attacker.weapons) or say("none (unarmed only)")
    raise InvalidInput(
        say("{who} has no weapon {name}. Weapons: {weapons}.", who=attacker.name, name=quoted(name), weapons=known)
    )


def damage_kind(weapon: Weapon, text: str | None) -> tuple[str, str]:
    if not text:
        return weapon.category, weapon.dtype
    return damage_words(words(text), weapon.category)


def start(system: TowersSystem, enc: TowersEncounter, action: Attack, chance: Chance):
    attacker = own_combatant(enc, action, say("Name who attacks with actor:."))
    if not action.targets:
        raise InvalidInput(say("Name a target."))
    defenders: list[TowersCombatant] = []
    for name in action.targets:
        target = enc.find(name)
        if target.id == attacker.id:
            raise InvalidInput(say("{who} cannot attack themselves.", who=attacker.name))
        if target.out:
            raise InvalidInput(say("{who} is dead.", who=target.name))
        if target.id in [d.id for d in defenders]:
            raise InvalidInput(say("{who} is named twice.", who=target.name))
        defenders.append(target)
    style = action.style
    flags = dict(action.flags)
    if style != "opportunity attack":
        leap_first(enc, attacker, "attack")
    weapon = pick_weapon(attacker, action.weapon or _text(flags.get("weapon")))
    if style == "opportunity attack":
        if attacker.flat_footed:
            raise NotAllowed(
                say("{who} has not acted yet (flat-footed) and cannot make opportunity attacks.", who=attacker.name)
            )
        if not system.can_act(enc, attacker):
            raise NotAllowed(say("{who} cannot act now.", who=attacker.name))
        if attacker.full_defense:
            # "He may take no other actions during this time."
            raise NotAllowed(
                say("{who} is on Full Defense and may take no other actions until next acting.", who=attacker.name)
            )
        if attacker.sheet.size <= TINY:
            # "Creatures that are tiny or smaller do not threaten adjacent spaces."
            raise NotAllowed(
                say(
                    "{who} is tiny or smaller: it threatens no space and makes no opportunity attacks.",
                    who=attacker.name,
                )
            )
        if attacker.id in system.turns.acting(enc):
            raise NotAllowed(
                say("{who} is acting now: an opportunity attack interrupts another's action.", who=attacker.name)
            )
        if len(defenders) != 1:
            raise InvalidInput(say("An opportunity attack is a single attack on one target."))
        if attacker.opportunity_on == (defenders[0].id, enc.turn_no):
            raise NotAllowed(
                say(
                    "{who} has already made an opportunity attack on {target} for this action: "
                    "another needs another action.",
                    who=attacker.name,
                    target=defenders[0].name,
                )
            )
        weapon = opportunity_weapon(weapon)
    if attacker.grappled:
        # "Using the Attack action, the grappled target may attempt a restricted melee attack."
        if style != "attack":
            raise NotAllowed(
                say(
                    "{who} is grappled: only a restricted melee Attack, Escape or Reverse the Grapple.",
                    who=attacker.name,
                )
            )
        if not weapon.melee:
            raise InvalidInput(
                say(
                    "{who} is grappled: only a restricted melee attack, not with {weapon}.",
                    who=attacker.name,
                    weapon=weapon.shown,
                )
            )
    if style == "charge" and not weapon.melee:
        raise InvalidInput(say("A Charge ends in a melee attack: {weapon} is a ranged weapon.", weapon=weapon.shown))
    refuse_melee_only(weapon, flags)
    ally = None
    if style == "aid":
        ally_name = _text(flags.get("ally") or flags.get("aid"))
        if not ally_name:
            raise InvalidInput(say('Aid needs the ally you help: options:"ally=Name".'))
        ally = enc.find(ally_name)
        if ally.id in (attacker.id, defenders[0].id):
            raise InvalidInput(say("Aid helps a third person against your foe."))
        if len(defenders) != 1:
            raise InvalidInput(say("Aid works against one foe."))
    kind = action_type(style)
    cost = kind.cost
    moved = adds_shift(flags)
    if moved:
        if not kind.can_add_shift:
            raise InvalidInput(say("Shift Position cannot be added to {action}.", action=term(kind.label)))
        cost += SHIFT_ADDED
    enc, spent = spend_mana(enc, attacker, flags)
    attacker = enc.get(attacker.id)

    base = action.damage
    if base is None:
        base = weapon.base_damage(attacker.sheet.px, hard_strength(attacker))
    if style == "power attack":
        base += POWER_DAMAGE
    shown = damage_source(attacker, weapon, style, base) if action.damage is None else secret(base, attacker)
    category, dtype = damage_kind(weapon, action.damage_type)
    defense = (action.defense or ("id" if weapon.stat == "sa" else "pd")).casefold()
    if defense not in ("pd", "id"):
        raise InvalidInput(say("defense must be PD or ID."))

    mods = attack_mods(attacker, weapon, style, flags, action.modifier)
    stat_value = getattr(attacker.sheet, weapon.stat)
    result = flip(chance, stat_value, mods)
    enc = enc.update(attacker.id, flat_footed=False)
    if style == "opportunity attack":
        enc = enc.update(attacker.id, opportunity_on=(defenders[0].id, enc.turn_no))
    plan = Plan(
        style=style,
        attacker=attacker.id,
        remaining=tuple(d.id for d in defenders),
        weapon=weapon,
        damage=base,
        category=category,
        dtype=dtype,
        defense=defense,
        flags=flags,
        cost=cost,
        attack=result,
        ally=ally.id if ally else None,
        area=len(defenders) > 1,
        shifted=moved,
        damage_text=shown,
    )
    against = joined(N_(" and "), (d.name for d in defenders))
    if spent:
        lead = say(
            "{who}: {action} with {weapon} on {targets} ({mana})",
            who=attacker.name,
            action=plan.label,
            weapon=weapon.shown,
            targets=against,
            mana=spent,
        )
    else:
        lead = say(
            "{who}: {action} with {weapon} on {targets}",
            who=attacker.name,
            action=plan.label,
            weapon=weapon.shown,
            targets=against,
        )
    line = seq(lead, " — ", described(weapon.stat.upper(), secret(stat_value, attacker), mods, result))
    if result.hearts:
        line = seq(line, f" ({result.hearts}♥)")
    return proceed(system, enc, plan, chance, [Event(kind="roll", text=line)], answered=False)


def refuse_melee_only(weapon: Weapon, flags: dict) -> None:
    """The seed's "Elevation in Melee" and "outnumbering your foe in melee" do not reach a ranged attack."""
    if weapon.melee:
        return
    if any(flags.get(k) for k in HIGH_GROUND):
        raise InvalidInput(say("High ground counts only in melee: {weapon} is a ranged weapon.", weapon=weapon.shown))
    if "outnumber" in flags:
        raise InvalidInput(say("Outnumbering counts only in melee: {weapon} is a ranged weapon.", weapon=weapon.shown))


def opportunity_weapon(weapon: Weapon) -> Weapon:
    """ "A single melee attack": no shooting (the butt of the gun strikes, unarmed) and no spell ("you
    cannot ... cast a spell"), not even one cast by touch: the caster strikes unarmed."""
    if weapon.stat == "sa":
        return UNARMED
    if not weapon.melee:
        return UNARMED.but(name=weapon.name, butt=True)
    return weapon


def damage_source(attacker: TowersCombatant, weapon: Weapon, style: str, base: int) -> Text:
    """`Axe 4 + PX 2 + Power Attack 2 = 8`: the base damage with its parts.

    A hidden attacker's weapon damage, PX or HS and the total are secret."""
    parts: list[Text] = [secret(weapon.damage, attacker)] if weapon.damage or not weapon.adds else []
    if weapon.adds == "hs" and attacker.grappled:
        parts.append(say("HS {n} (halved: grappled)", n=secret(hard_strength(attacker), attacker)))
    elif weapon.adds:
        parts.append(seq(term(weapon.adds.upper()), " ", secret(getattr(attacker.sheet, weapon.adds), attacker)))
    if style == "power attack":
        parts.append(say("Power Attack {n}", n=POWER_DAMAGE))
    total = seq(" = ", secret(base, attacker)) if len(parts) > 1 else EMPTY
    return seq(weapon.shown, " ", joined(" + ", parts), total)


def hard_strength(attacker: TowersCombatant) -> int:
    """HS for damage: "his Hard Strength will be considered halved" while grappled (rounded down)."""
    return attacker.sheet.hs // 2 if attacker.grappled else attacker.sheet.hs


def spend_mana(enc: TowersEncounter, combatant: TowersCombatant, flags: dict) -> tuple[TowersEncounter, Text]:
    if "mana" not in flags:
        return enc, EMPTY
    cost = integer(flags["mana"], "mana", 0, 100)
    if cost > combatant.mana:
        raise InvalidInput(
            say("{who} has {mana} mana, not {cost}.", who=combatant.name, mana=combatant.mana, cost=cost)
        )
    enc = enc.update(combatant.id, mana=combatant.mana - cost)
    return enc, say("{cost} mana, {left} left", cost=cost, left=secret(combatant.mana - cost, combatant))


def _text(value) -> str | None:
    return value if isinstance(value, str) else None


def asks(system: TowersSystem, enc: TowersEncounter, defender: TowersCombatant) -> bool:
    return (
        enc.options.get("defender_flips", "players") == "players"
        and (not defender.npc or defender.companion_of is not None)  # a companion: its master's player flips
        and defender.controller_id is not None
        and not defender.unconscious
    )


def proceed(system, enc: TowersEncounter, plan: Plan, chance, events: list[Event], *, answered: bool):
    while plan.remaining:
        defender = enc.get(plan.remaining[0])
        if not answered and asks(system, enc, defender):
            return ask(enc, plan, defender, events)
        answered = False
        enc, more = defend(enc, plan, defender, chance)
        events.extend(more)
        plan = plan.but(remaining=plan.remaining[1:])
    return finish(system, enc, plan, chance, events)


def ask(enc: TowersEncounter, plan: Plan, defender: TowersCombatant, events: list[Event]):
    attacker = enc.get(plan.attacker)
    base, label = defense_base(defender, plan.defense)
    mods = defense_mods(defender, attacker, plan.weapon, plan.flags, plan.defense)
    incoming = say(
        "{attacker}'s {weapon} comes in at {total} (hits on a tie)",
        attacker=attacker.name,
        weapon=plan.weapon.shown,
        total=plan.attack.total,
    )
    enc, shown = ask_flip(enc, defender, base, label, mods, incoming, "defense", {"plan": plan.model_dump(mode="json")})
    return enc, [*events, shown]


def ask_flip(
    enc: TowersEncounter,
    defender: TowersCombatant,
    base: int,
    label: Text,
    mods: Mods,
    incoming: Text,
    kind: str,
    context: dict,
) -> tuple[TowersEncounter, Event]:
    """A player's character flips their own defence against what comes in (an attack, a thrown foe): the
    question, with its Flip button, and the line that says what the fight waits for."""
    why = seq(" (", mods.text(), ")") if mods.notes else EMPTY
    count = card_count(base, mods)
    cards = say_plural("{n} card", "{n} cards", count, n=secret(count, defender))
    prompt = say(
        "{who}: {incoming}. Flip {defence} {base}{why}: {cards}. "
        'Press Flip, or enter the cards you flipped: /choose option:Flip cards:"…".',
        who=defender.name,
        incoming=incoming,
        defence=label,
        base=secret(base, defender),
        why=why,
        cards=cards,
    )
    enc = enc.ask(
        kind=kind,
        prompt=cut(prompt, PROMPT_LIMIT),
        # Translators: a button: flip the cards of a defence (a verb)
        options=(Choice(key=FLIP, label=say("Flip")),),
        default=FLIP,
        chooser=defender.id,
        users=(defender.controller_id,),
        context=context,
    )
    # The choice message pings the defender's player; the result only says what it waits for.
    shown = say(
        "{who} flips {defence} {base} ({cards}): see the Flip button.",
        who=defender.name,
        defence=label,
        base=secret(base, defender),
        cards=cards,
    )
    return enc, Event(kind="info", text=shown)


def defend(enc: TowersEncounter, plan: Plan, defender: TowersCombatant, chance) -> tuple[TowersEncounter, list[Event]]:
    attacker = enc.get(plan.attacker)
    line: Text
    if defender.unconscious:
        total, line = 0, say("{who} is unconscious: defence 0", who=defender.name)
    else:
        base, label = defense_base(defender, plan.defense)
        mods = defense_mods(defender, attacker, plan.weapon, plan.flags, plan.defense)
        result = flip(chance, base, mods)
        total, line = result.total, seq(defender.name, " ", described(label, secret(base, defender), mods, result))
    enc = aid_spent(enc, defender, attacker)
    hit = plan.attack.total >= total
    critical = hit and plan.attack.hearts > 0
    if critical:
        verdict = say("{attack} vs {defense}: critical hit", attack=plan.attack.total, defense=total)
    elif hit:
        verdict = say("{attack} vs {defense}: hit", attack=plan.attack.total, defense=total)
    else:
        verdict = say("{attack} vs {defense}: miss", attack=plan.attack.total, defense=total)
    events = [Event(kind="roll", text=seq(line, " → ", verdict))]
    if not hit:
        return enc, events
    enc, more = _hit(enc, plan, attacker, enc.get(defender.id))
    events.extend(more)
    if plan.flags.get(KNOCKBACK):
        enc, more = hold_on(enc, enc.get(defender.id), chance)
        events.extend(more)
    return enc, events


def _hit(
    enc: TowersEncounter, plan: Plan, attacker: TowersCombatant, defender: TowersCombatant
) -> tuple[TowersEncounter, list[Event]]:
    """What a hit does: an Aid's (flip−1) on the foe's next flip against the ally, else the damage."""
    if plan.style == "aid" and plan.ally is not None:
        ally = enc.get(plan.ally)
        enc = enc.update(defender.id, aided_for=ally.id)
        text = say("{who} defends at (flip−1) on the next flip against {ally}.", who=defender.name, ally=ally.name)
        return enc, [Event(kind="info", text=text)]
    harm = Harm(
        base=plan.damage,
        hearts=plan.attack.hearts,
        category=plan.category,
        dtype=plan.dtype,
        shown=plan.damage_text,
        secret_base=attacker.hidden,
    )
    amount = dealt(harm, defender)
    after, state = take(defender, amount.stun, amount.lethal)
    return enc.with_combatant(after), [Event(kind="info", text=amount.result(state))]


def finish(system, enc: TowersEncounter, plan: Plan, chance, events: list[Event]):
    attacker = enc.get(plan.attacker)
    enc = acted(enc, attacker.id, plan.style)
    if plan.style == "power attack":
        enc = enc.update(attacker.id, power_attacked=True)
    if plan.style == "opportunity attack":
        enc = system.turns.push(enc, attacker.id, OPPORTUNITY_DELAY)
        phase = system.turns.entry(enc, attacker.id).phase
        text = say(
            "{who}'s opportunity attack costs {n} phases: next acts in phase {phase}.",
            who=attacker.name,
            n=OPPORTUNITY_DELAY,
            phase=phase,
        )
        events.append(Event(kind="info", text=text))
        enc, more = system.turns.settle(system, enc, chance)
        return enc, events + more
    enc, more = system.turns.advance(
        system, enc, attacker.id, plan.cost, chance, what=seq(plan.label, f" ({plan.cost})")
    )
    return enc, events + more
