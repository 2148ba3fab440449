"""Attacks: the attack pool, ranged modifiers, damage, and defense rolls."""

from __future__ import annotations

from ...errors import InvalidInput, NotAllowed
from ...model import Choice, Event, Pending, former_keys
from ...randomness import Chance
from ...said import EMPTY, Text, joined, say, say_plural, seq, term
from ...secrets import secret
from ...usertext import listed
from . import health, pools, weapons
from .actions import Attack
from .economy import interjecting, spend
from .model import FrozenCombatant, FrozenEncounter
from .weapons import RANGES, Weapon

RANGE_MODIFIER = {"close": -3, "short": 0, "medium": -1, "long": -2, "distant": -3}
AIM = 2
BEYOND_RANGE = -3  # the footnoted total for one category past the weapon's range
LIGHT: dict[str, tuple[Text, int]] = {
    "dim": (say("dim light"), -1),
    "dark": (say("darkness"), -3),
    "darkness": (say("darkness"), -3),
}
DIM_ZONE = -2
DEFEND = "defend"
# The reactions, as the rules read an answer (its English) and as the question offers them (said).
DODGE, BLOCK, NO_REACTION = "dodge", "block", "none"  # the reactions' keys
REACTIONS: dict[str, Text] = {DODGE: say("Dodge"), BLOCK: say("Block"), NO_REACTION: say("No reaction")}
former_keys(DEFEND, {"Dodge": DODGE, "Block": BLOCK, "No reaction": NO_REACTION})


def size_part(size: int) -> tuple[Text, int]:
    return (say("large target") if size > 0 else say("small target"), size)


def ranged_modifiers(
    weapon: Weapon,
    range_name: str,
    *,
    aimed: bool,
    size: int = 0,
    light: str | None = None,
    dim_zone: bool = False,
    dark_zone: bool = False,
) -> list[tuple[Text, int]]:
    """The seed's ranged table: range, Aim, target size, light (named for the shot, else the zone's)."""
    wanted, reach = weapons.range_index(range_name), weapons.range_index(weapon.reach)
    name = RANGES[wanted]
    if wanted > reach + 1:
        raise NotAllowed(
            say(
                "{range} is out of reach for a {weapon}: it shoots up to {reach} range, "
                "and only one category farther with Aim.",
                range=term(name.capitalize()),
                weapon=term(weapon.name),
                reach=term(weapon.reach),
            )
        )
    if wanted == reach + 1:
        if not aimed:
            raise NotAllowed(
                say(
                    "A {range} shot is beyond a {weapon}'s {reach} range: it needs an Aim action "
                    "first (then the attack has a total {total}).",
                    range=term(name),
                    weapon=term(weapon.name),
                    reach=term(weapon.reach),
                    total=BEYOND_RANGE,
                )
            )
        parts: list[tuple[Text, int]] = [(say("{range} range with Aim", range=term(name)), BEYOND_RANGE)]
    else:
        parts = [(say("{range} range", range=term(name)), RANGE_MODIFIER[name])] if RANGE_MODIFIER[name] else []
        if aimed:
            parts.append((say("Aim"), AIM))
    if size:
        parts.append(size_part(size))
    if light:
        key = light.strip().casefold()
        if key not in LIGHT:
            raise InvalidInput(say("Light must be `dim` or `dark`."))
        parts.append(LIGHT[key])
    elif dark_zone:
        parts.append(LIGHT["dark"])
    elif dim_zone:
        parts.append((say("dimly lit zone"), DIM_ZONE))
    return parts


def _weapon(attacker: FrozenCombatant, action: Attack) -> Weapon:
    sheet = attacker.sheet
    if action.thrown:
        return weapons.find(action.weapon or sheet.weapon, thrown=True)
    if action.weapon:
        return weapons.find(action.weapon, ranged=action.ranged)
    main = weapons.sheet_weapon(sheet.weapon, "weapon")
    # Naming a range the melee weapon cannot reach means shooting with the sheet's ranged weapon.
    beyond = action.range is not None and weapons.range_index(action.range) > weapons.range_index(main.reach)
    if action.ranged or (beyond and sheet.ranged):
        if not sheet.ranged:
            raise InvalidInput(
                say("{who} has no ranged weapon on the sheet: name one with weapon:.", who=attacker.name)
            )
        return weapons.sheet_weapon(sheet.ranged, "ranged")
    return main


def _dual_pair(attacker: FrozenCombatant) -> tuple[Weapon, Weapon] | None:
    """The sheet's two weapons when they can be wielded together: one-handed melee weapons, one Light.

    Two of the same (two daggers) are a pair too: the second Attack with that name is the other one."""
    sheet = attacker.sheet
    if not sheet.offhand:
        return None
    main, off = weapons.sheet_weapon(sheet.weapon, "weapon"), weapons.sheet_weapon(sheet.offhand, "offhand")
    if not (main.one_handed and off.one_handed):
        return None
    if not (main.has("Light") or off.has("Light")):
        return None
    return main, off


def _dual_wield_ok(attacker: FrozenCombatant, weapon: Weapon) -> bool:
    """A second Attack in the turn with the other of the two weapons wielded together, the first Attack
    having been made with the one."""
    pair = _dual_pair(attacker)
    if pair is None or weapon.ranged or len(attacker.attacked_with) != 1:
        return False
    return {attacker.attacked_with[0], weapon.name} == {pair[0].name, pair[1].name}


def _apart(attacker: FrozenCombatant, target: FrozenCombatant) -> bool:
    """Both are placed, in different zones (unplaced combatants are wherever the GM says)."""
    return bool(attacker.zone and target.zone and attacker.zone.casefold() != target.zone.casefold())


def _same_zone_for_melee(attacker: FrozenCombatant, target: FrozenCombatant) -> None:
    # No weapon in the seed's tables reaches past Short (the same zone), so none attacks into another zone.
    if _apart(attacker, target):
        raise NotAllowed(
            say(
                "{who} is in {zone} and {target} in {other}: a melee attack needs the same zone.",
                who=attacker.name,
                zone=attacker.zone,
                target=target.name,
                other=target.zone,
            )
        )


def _shot_range(attacker: FrozenCombatant, target: FrozenCombatant, given: str | None) -> str:
    """The range of a shot: as given, else close when the two are close, else short (the same zone).

    Into another zone a shot is at least Medium; the bot does not know which zones are adjacent, so it asks."""
    close = target.id in attacker.engaged
    # "If the character is close to the enemy, there is a -3 modifier": who stands at close range is the GM's call.
    if close and given is not None and given.strip().casefold() != "close":
        raise NotAllowed(
            say(
                "{who} and {target} are at close range: a shot between them is at close range (−3) "
                "until the GM parts them (/act action:part).",
                who=attacker.name,
                target=target.name,
            )
        )
    if not _apart(attacker, target):
        return given or ("close" if close else "short")
    zones = dict(who=attacker.name, zone=attacker.zone, target=target.name, other=target.zone)
    if given is None:
        raise NotAllowed(
            say(
                "{who} is in {zone} and {target} in {other}: say how far the shot is, "
                'options:"medium" (an adjacent zone) or options:"long" (farther).',
                **zones,
            )
        )
    if weapons.range_index(given) < weapons.range_index("medium"):
        raise NotAllowed(
            say(
                "{who} is in {zone} and {target} in {other}: {range} range is within one zone; "
                'a shot into another zone is options:"medium" (adjacent) or options:"long" (farther).',
                range=term(RANGES[weapons.range_index(given)]),
                **zones,
            )
        )
    return given


def attack(enc: FrozenEncounter, action: Attack, chance: Chance):
    attacker = enc.actor(action)
    target = enc.find(action.target)
    if target.out:
        raise NotAllowed(say("{who} is out of the fight.", who=target.name))
    if target.id == attacker.id:
        raise InvalidInput(say("A combatant cannot attack itself."))
    if attacker.enemy:
        return enemy_attack(enc, attacker, target, action, chance)
    return character_attack(enc, attacker, target, action, chance)


def character_attack(enc, attacker: FrozenCombatant, target: FrozenCombatant, action: Attack, chance: Chance):
    weapon = _weapon(attacker, action)
    if weapon.has("Heavy") and enc.feature(attacker, "cramped"):
        raise NotAllowed(
            say(
                "{zone} is cramped: heavy weapons like the {weapon} cannot be used there.",
                zone=attacker.zone,
                weapon=term(weapon.name),
            )
        )
    # The off-hand's second Attack belongs to the turn itself: an out-of-turn or delayed attack rolls its own pool.
    dual = (
        not interjecting(enc, attacker)
        and "attack" in attacker.used
        and not attacker.talent_allows("attack")
        and _dual_wield_ok(attacker, weapon)
    )
    parts: list[tuple[Text, int]]
    veiled = 0
    if weapon.ranged:
        if action.split is not None:
            raise InvalidInput(say("Only melee attacks split the pool (dual wielding)."))
        if weapon.has("Reload") and not attacker.loaded:
            raise NotAllowed(
                say(
                    "{who}'s {weapon} is not loaded: Reload first (an action).",
                    who=attacker.name,
                    weapon=term(weapon.name),
                )
            )
        range_name = _shot_range(attacker, target, action.range)
        size = action.size if action.size is not None else target.sheet.size if target.enemy else 0
        # A hidden enemy's size is its sheet's, which the attacker's player does not read: it goes last, veiled.
        veiled = size if action.size is None and target.hidden else 0
        parts = [(say("Marksmanship"), attacker.sheet.marksmanship), (term(weapon.name), weapon.bonus)]
        parts += ranged_modifiers(
            weapon,
            range_name,
            aimed=attacker.aimed,
            size=0 if veiled else size,
            light=action.light,
            dim_zone=enc.feature(attacker, "dim"),
            dark_zone=enc.feature(attacker, "dark"),
        )
        attribute = "agility"
    else:
        range_name = (action.range or "close").casefold()
        if weapons.range_index(range_name) > weapons.range_index(weapon.reach):
            raise NotAllowed(
                say("A {weapon} only reaches {reach} range.", weapon=term(weapon.name), reach=term(weapon.reach))
            )
        _same_zone_for_melee(attacker, target)
        skill = attacker.sheet.melee
        if dual:
            skill = attacker.split_rest if attacker.split_rest is not None else 0
            label = say("Melee (rest of the split)")
        elif action.split is not None:
            pair = _dual_pair(attacker)
            if pair is None or weapon.name not in (pair[0].name, pair[1].name):
                raise InvalidInput(
                    say(
                        "{who} cannot split the Melee pool: that takes two one-handed melee weapons on the sheet "
                        "(`weapon` and `offhand`), one of them Light, attacking with one of them.",
                        who=attacker.name,
                    )
                )
            if not 0 <= action.split <= skill:
                raise InvalidInput(
                    say("Split must be between 0 and {who}'s Melee {skill}.", who=attacker.name, skill=skill)
                )
            label, skill = say("Melee (split {split}/{skill})", split=action.split, skill=skill), action.split
        else:
            label = say("Melee")
        parts = [(label, skill), (term(weapon.name), weapon.bonus)]
        attribute = "body"
    if action.modifier:
        parts.append((say("modifier"), action.modifier))
    if veiled:
        parts.append(size_part(veiled))
    paid = spend(enc, attacker, "attack", repeat_ok=dual)
    pool = pools.Pool(tuple(parts), attribute, veiled=bool(veiled))
    result = pools.roll(enc, paid, pool, chance)
    paid, notes, broke = pools.settle_stress(paid, result, attribute)
    rest = None
    if not weapon.ranged and not dual and action.split is not None:
        rest = attacker.sheet.melee - action.split
    paid = paid.but(
        attacked_with=paid.attacked_with + (weapon.name,),
        split_rest=rest if not dual else None,
        aimed=False if weapon.ranged else paid.aimed,
        loaded=False if weapon.has("Reload") else paid.loaded,
    )
    # A reach weapon striking at Short range ("a few meters away") leaves the two apart, not at arm's length.
    closes_in = not weapon.ranged and range_name == "close"
    if closes_in:
        paid = paid.but(engaged=_add(paid.engaged, target.id))
    enc = enc.with_combatant(paid)
    if closes_in:
        enc = enc.update(target.id, engaged=_add(enc.get(target.id).engaged, attacker.id))
    values = dict(who=attacker.name, target=target.name, weapon=term(weapon.name), roll=result.text(pool, attacker))
    text: Text
    if action.thrown:
        text = say("{who} throws the {weapon} at {target}: {roll}", **values)
    elif weapon.ranged:
        text = say("{who} shoots {target} with {weapon}: {roll}", **values)
    else:
        text = say("{who} attacks {target} with {weapon}: {roll}", **values)
    text = pools.with_notes(text, notes)
    events: list[Event] = []
    ping: tuple[int, ...] = ()
    if broke:
        enc, more = break_and_injure(enc, paid.id)
        text = seq(text, "; ", more)
        ping = (enc.gm_id,)
    if result.successes < 1:
        events.append(Event(kind="roll", text=seq(text, "; ", say("no success: miss.")), ping=ping))
        return enc, events
    damage = result.successes + weapon.damage
    hit = say(
        "hit: {successes} + {weapon} damage {damage} = {total}",
        successes=result.successes,
        weapon=term(weapon.name),
        damage=secret(weapon.damage, attacker),
        total=secret(damage, attacker),
    )
    text = seq(text, "; ", hit)
    if target.enemy:
        enc, more, _ = _damage_enemy(enc, enc.get(target.id), damage, secret_damage=attacker.hidden)
        events.append(Event(kind="roll", text=text + more, ping=ping))
        return enc, events
    events.append(Event(kind="roll", text=text, ping=ping))
    enc, defended = incoming(enc, enc.get(paid.id), enc.get(target.id), damage)
    return enc, events + defended


def enemy_attack(enc, attacker: FrozenCombatant, target: FrozenCombatant, action: Attack, chance: Chance):
    damage = action.damage if action.damage is not None else attacker.sheet.damage
    if damage < 0:
        raise InvalidInput(say("Damage cannot be negative."))
    # An enemy's attack is melee unless the GM says it shoots or throws.
    if not (action.ranged or action.thrown):
        _same_zone_for_melee(attacker, target)
        enc = enc.update(attacker.id, engaged=_add(attacker.engaged, target.id))
        enc = enc.update(target.id, engaged=_add(target.engaged, attacker.id))
    # A hidden enemy's damage (its own or the GM's number for this attack) is the GM's alone.
    text = say(
        "{who} attacks {target}: {damage} damage",
        who=attacker.name,
        target=target.name,
        damage=secret(damage, attacker),
    )
    if target.enemy:
        enc, more, _ = _damage_enemy(enc, enc.get(target.id), damage, secret_damage=attacker.hidden)
        return enc, [Event(kind="roll", text=text + more)]
    return incoming(enc, enc.get(attacker.id), enc.get(target.id), damage, lead=text)


def incoming(
    enc: FrozenEncounter, attacker: FrozenCombatant, target: FrozenCombatant, damage: int, lead: Text | None = None
) -> tuple[FrozenEncounter, list[Event]]:
    """A hit on a character: offer a reaction, else armour alone reduces it."""
    hidden = attacker.hidden  # a hidden attacker's damage is the GM's alone
    shown = secret(damage, hidden)
    if target.broken or target.reactions_left <= 0:
        why = say("broken: no reaction") if target.broken else say("no reactions left")
        enc, text, ping = _damage_character(enc, target, damage, [], secret_damage=hidden)
        if lead is not None:
            line = seq(lead, "; ", why, "; ", text)
        else:
            line = say("{who} takes {damage}: {what}", who=target.name, damage=shown, what=seq(why, "; ", text))
        return enc, [Event(kind="roll", text=line, ping=ping)]
    options = [DODGE]
    if can_block(enc, target):
        options.append(BLOCK)
    options.append(NO_REACTION)
    users = enc.controllers([target.id])
    left = target.reactions_left
    rolls = [
        say(
            "{reaction} rolls {skill} ({dice})",
            reaction=REACTIONS[option],
            skill=term(pool.parts[0][0]),
            dice=dice_text(pool.size, hidden=target.hidden),
        )
        for option, pool in ((o, defense_pool(target, o)) for o in options[:-1])
    ]
    stress = target.stress_dice()
    extra = seq(" (+ ", dice_text(stress, stress=True, hidden=target.hidden), ")") if stress else EMPTY
    prompt = say(
        "{attacker} hits {target} for {damage}: spend a reaction ({left} left) on a defense roll? {rolls}{extra}.",
        attacker=attacker.name,
        target=target.name,
        damage=shown,
        left=left,
        rolls=listed(rolls),
        extra=extra,
    )
    context = {"attacker": attacker.id, "target": target.id, "damage": damage}
    if hidden:
        context["hidden"] = True  # the attacker's damage stays secret even if it leaves the fight
    enc = enc.ask(
        kind=DEFEND,
        prompt=prompt,
        options=tuple(Choice(key=o, label=REACTIONS[o]) for o in options),
        default=NO_REACTION,
        chooser=target.id,
        users=users,
        context=context,
    )
    ask = say("{who} may spend a reaction on a defense roll ({left} left).", who=target.name, left=left)
    if lead is not None:
        line = seq(lead, "; ", ask)
    else:
        line = say("{who} is hit for {damage}; {ask}", who=target.name, damage=shown, ask=ask)
    return enc, [Event(kind="info", text=line, ping=users)]


def can_block(enc: FrozenEncounter, combatant: FrozenCombatant) -> bool:
    """A shield, or a parrying weapon that can be used where the character is (no Heavy one when cramped)."""
    if combatant.sheet.shield:
        return True
    cramped = enc.feature(combatant, "cramped")
    for name in (combatant.sheet.weapon, combatant.sheet.offhand):
        weapon = weapons.melee_row(name)
        if weapon and weapon.has("Parrying") and not (cramped and weapon.has("Heavy")):
            return True
    return False


def dice_text(count: int, *, stress: bool = False, hidden: bool = False) -> Text:
    """ "2 dice"; a hidden combatant's count is secret (and always "dice", so 1 does not show)."""
    shown = secret(count, True) if hidden else count
    known = None if hidden else count
    if stress:
        return say_plural("{n} stress die", "{n} stress dice", known, n=shown)
    return say_plural("{n} die", "{n} dice", known, n=shown)


def defense_pool(target: FrozenCombatant, option: str) -> pools.Pool:
    """The pool of a reaction, by its key."""
    if option == BLOCK:
        return pools.Pool(((say("Melee"), target.sheet.melee),), "body")
    return pools.Pool(((say("Mobility"), target.sheet.mobility),), "agility")


def resume_defend(enc: FrozenEncounter, pending: Pending, option: str, chance: Chance):
    """The defense roll's dice (then stress dice) are entered with the answer."""
    context = pending.context
    target = enc.get(context["target"])
    damage = int(context["damage"])
    attacker = next((c for c in enc.combatants if c.id == context.get("attacker")), None)
    hidden = bool(context.get("hidden")) or bool(attacker and attacker.hidden)
    notes: list[Text] = []
    ping: tuple[int, ...] = ()
    if option == NO_REACTION:
        notes.append(say("no reaction"))
    elif target.reactions_left > 0 and not target.out:
        pool = defense_pool(target, option)
        target = target.but(reactions_left=target.reactions_left - 1)
        result = pools.roll(enc, target, pool, chance)
        target, stress_notes, broke = pools.settle_stress(target, result, pool.attribute)
        reduced = min(damage, result.successes)
        # The cut is the successes, unless a hidden attacker's smaller damage caps it.
        cut = say(
            "damage {damage} − {cut} = {left}",
            damage=secret(damage, hidden),
            cut=secret(reduced, hidden),
            left=secret(damage - reduced, hidden),
        )
        rolled = pools.with_notes(seq(REACTIONS[option], ": ", result.text(pool, target)), stress_notes)
        notes.append(seq(rolled, " → ", cut))
        damage -= reduced
        enc = enc.with_combatant(target)
        if broke:
            enc, more = break_and_injure(enc, target.id)
            notes.append(more)
            ping = (enc.gm_id,)
    enc, text, more_ping = _damage_character(enc, enc.get(target.id), damage, notes, secret_damage=hidden)
    line = seq(target.name, ": ", text)
    return enc, [Event(kind="roll", text=line, ping=tuple(dict.fromkeys(ping + more_ping)))]


def _damage_character(
    enc: FrozenEncounter, target: FrozenCombatant, damage: int, notes: list[Text], *, secret_damage: bool = False
) -> tuple[FrozenEncounter, Text, tuple[int, ...]]:
    """Armour cuts the damage. `secret_damage`: a hidden attacker's damage, for the GM only."""
    armour = target.sheet.armour
    after = max(0, damage - armour)
    target, text, wounded = health.hurt(target, after, secret_amount=secret_damage)
    enc = enc.with_combatant(target)
    # A hidden character's armour is shown (as "?") even at 0, so that its absence tells nothing.
    shown_armour = secret(armour, target)
    if armour or target.hidden:
        cut = say(
            "armour {armour}: {damage} − {armour} = {left}",
            armour=shown_armour,
            damage=secret(damage, secret_damage),
            left=secret(after, secret_damage or target.hidden),
        )
    else:
        cut = say("{damage} damage", damage=secret(damage, secret_damage))
    parts = notes + [cut, text]
    ping: tuple[int, ...] = ()
    if wounded:
        parts.append(health.injury_hint(target.name))
        ping = (enc.gm_id,)
    return enc, joined("; ", parts), ping


def _damage_enemy(
    enc: FrozenEncounter, target: FrozenCombatant, damage: int, *, secret_damage: bool = False
) -> tuple[FrozenEncounter, Text, int]:
    """Defense cuts the damage. `secret_damage`: a hidden attacker's damage, for the GM only."""
    defense = target.sheet.defense
    after = max(0, damage - defense)
    target, text, _ = health.hurt(target, after, secret_amount=secret_damage)
    enc = enc.with_combatant(target)
    # A hidden enemy's defense is shown (as "?") even at 0, so that its absence tells nothing.
    shown: Text = EMPTY
    if defense or target.hidden:
        cut = say("defense {defense}", defense=secret(defense, target))
        shown = seq(" − ", cut, " = ", secret(after, secret_damage or target.hidden))
    return enc, seq(shown, "; ", text), after


def break_and_injure(enc: FrozenEncounter, cid: str) -> tuple[FrozenEncounter, Text]:
    """The character broken by a condition over level 3, and the note saying so (to follow "; ")."""
    enc = enc.with_combatant(health.break_with_injury(enc.get(cid)))
    name = enc.get(cid).name
    wounds = secret(enc.get(cid).wounds, enc.get(cid))
    broken = say(
        "{who} is {broken} and suffers a critical injury (Wounds {wounds})",
        who=name,
        broken=health.BROKEN,
        wounds=wounds,
    )
    return enc, seq(broken, "; ", health.injury_hint(name))


def _add(cids: tuple[str, ...], cid: str) -> tuple[str, ...]:
    return cids if cid in cids else cids + (cid,)
