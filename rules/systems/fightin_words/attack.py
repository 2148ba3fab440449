"""`/attack`: single attacks and combos.

1. Attack roll per attack: d6 + attack bonus (skill − scale) + X vs Target
   (4 − scale, + called-shot, cover, crouch/prone, concealment, invisibility,
   speed). Melee against a helpless target hits without a roll.
2. Each defender who can defend picks Block, Dodge, Parry or no defence (a
   pending choice; the GM answers for NPCs): d6 + bonus (−1 flanked, −1 dodging
   while held) vs 4 + the attacker's attack bonus without scale + Y, per hit.
3. Hits that get through roll nothing more: their damage was rolled with the
   attack, all dice at once, and each is compared with the Toughness the
   defender had before the attack.

An area attack (`area`) rolls once against the area's Target (4 − the
attacker's scale) and once for the damage of everyone in it; each may Block
(a success negates it) or Dodge (a success takes 3 from the damage).
"""

from __future__ import annotations

from typing import ClassVar

from rules.actions import Action
from rules.errors import InvalidInput, NotAllowed
from rules.model import Choice, Event, Pending, former_keys
from rules.numbers import modifier
from rules.randomness import Chance
from rules.said import joined, say, seq, term
from rules.secrets import secret
from rules.text import Raw, Text, from_data, to_data
from rules.usertext import listed

from . import wounds
from .model import Fighter, Weapon
from .rolls import d6_check
from .sheet import (
    can_defend,
    dodge,
    has,
    helpless,
    melee_bonus_damage,
    parry,
    refuse_if_down,
    skill,
    weapon,
    weapon_name,
)
from .tables import (
    AREA_DODGE,
    ATTACK_SECONDS,
    COLLISION_SPEED,
    COVER,
    INVISIBLE_TARGET,
    LOCATIONS,
    SPEED_SQUARES,
    range_penalty,
)

# The defences' keys, as the rules read them; the choice offers them said (`_options`).
BLOCK, DODGE, PARRY, NONE = "block", "dodge", "parry", "none"  # the defences' keys
DEFENCES = (BLOCK, DODGE, PARRY)
LABELS = {BLOCK: say("Block"), DODGE: say("Dodge"), PARRY: say("Parry"), NONE: say("No defence")}
DEFENCE = "defence"  # the question's kind
former_keys(DEFENCE, {"Block": BLOCK, "Dodge": DODGE, "Parry": PARRY, "No defence": NONE})


class Attack(Action):
    """One attack, or a combo when several targets are listed (one entry per attack).

    Hand-entered dice, in order: the attacker's d6 for each attack (none for a
    melee attack on a helpless target), then the damage dice of each hit in the
    order of the attacks (an area attack: its one d6, then its one damage roll
    if it hits). Dice for the defence (a d6 per hit) and for called-shot
    Fortitude checks come with the defender's answer; when nobody can defend,
    the Fortitude dice follow the damage dice if the GM sent the attack (a
    player's dice roll only their own characters': rolls.die).
    """

    kind: ClassVar[str] = "attack"
    targets: tuple[str, ...]
    weapon: str | None = None
    x: int = 0  # the +X of a +X/+Y modifier: to the attack roll
    y: int = 0  # the +Y: to the defence DC
    damage: str | None = None  # replaces the weapon's damage (melee still adds Strength and scale)
    called: str | None = None
    distance: int | None = None  # metres, for ranged weapons
    cover: str = "none"
    concealed: bool = False
    invisible: bool = False
    speed: int = 0  # squares the target moved this turn
    flanked: bool = False
    flat_footed: bool = False  # the target was caught by surprise
    cost: int | None = None
    nonlethal: bool = False
    area: bool = False  # one attack on a square: every target listed is in it
    fast: int = 0  # squares per second of the fastest mover, for a melee attack's extra damage


def target_score(attacker: Fighter, target: Fighter, w: Weapon, action: Attack) -> tuple[int, Text]:
    """The Target score and how it was made: `2 (4 − scale 2)`, or just `4`.

    The score and its base (4 − the target's scale) are a hidden target's secret;
    the called shot, cover, posture and speed are public."""
    score = 4 - target.sheet.scale
    base: Text = say("4 − scale {scale}", scale=target.sheet.scale) if target.sheet.scale else Raw("4")
    parts: list[Text] = []
    if action.called:
        spot = LOCATIONS[action.called]
        score += spot.target
        parts.append(say("{spot} {n}", spot=term(action.called), n=modifier(spot.target)))
    step = {"crouching": 1, "prone": 2}.get(target.posture, 0)
    cover = COVER[action.cover]
    if cover and step:
        # "ignore the bonus (and penalty) from crouching or prone, and instead increase the cover value":
        # behind total cover the posture adds nothing.
        cover = min(COVER["total"], cover + step)
        parts.append(say("{posture} behind cover", posture=term(target.posture)))
    elif step:
        sign = 1 if w.ranged else -1
        score += sign * step
        parts.append(say("{posture} {n}", posture=term(target.posture), n=modifier(sign * step)))
    if cover >= COVER["total"] or action.invisible:
        score += INVISIBLE_TARGET
        parts.append(say("invisible +{n}", n=INVISIBLE_TARGET))
    elif cover:
        score += cover
        parts.append(say("cover +{n}", n=cover))
    if action.concealed and not action.invisible and cover < COVER["total"]:
        score += 1
        parts.append(say("concealed +1"))
    if action.speed >= SPEED_SQUARES:
        score += action.speed // SPEED_SQUARES
        parts.append(say("speed +{n}", n=action.speed // SPEED_SQUARES))
    if not parts:
        # Score and base in one secret, so that "(4 − scale 2)" or its absence tells nothing.
        return score, secret(seq(str(score), " (", base, ")") if target.sheet.scale else score, target)
    return score, seq(secret(score, target), " (", joined(" ", [secret(base, target), *parts]), ")")


def to_hit_bonus(attacker: Fighter, w: Weapon, action: Attack) -> tuple[int, list[Text]]:
    """Attack bonus (skill − scale) + X + range penalty (eased by aiming).

    A hidden attacker's skill − scale is secret, and so is the range penalty,
    which tells its weapon's range increment."""
    base = skill(attacker, w) - attacker.sheet.scale
    parts: list[Text] = [secret(modifier(base), attacker)]
    bonus = base + action.x
    if action.x:
        parts.append(Raw(modifier(action.x)))
    if w.increment is not None and action.distance is not None:  # a ranged weapon
        steps = range_penalty(action.distance, w.increment)
        if steps is None:
            raise InvalidInput(
                say(
                    "{distance} m is beyond the {weapon}'s reach: four range increments ({most} m) at most.",
                    distance=action.distance,
                    weapon=weapon_name(w),
                    most=w.increment * 16,
                )
            )
        if steps:
            bonus -= steps
            parts.append(say("range −{n}", n=secret(steps, attacker)))
            if attacker.aimed and not w.magic:
                bonus += 1
                parts.append(say("aimed +1"))
            elif attacker.aimed:
                # "the caster cannot aim": the seconds spent aiming are lost, which the roll should not hide
                parts.append(say("(a spell cannot be aimed)"))
    return bonus, parts


def attack(system, enc, action: Attack, chance: Chance):
    me: Fighter = enc.find(action.actor)
    refuse_if_down(me)
    w = weapon(me, action.weapon)
    if not action.targets:
        raise InvalidInput(say("Name a target to attack."))
    if w.magic and has(me, "raging"):
        raise NotAllowed(say("{who} is raging and cannot focus on a spell.", who=me.name))
    if action.fast and (w.ranged or w.magic):
        raise InvalidInput(
            say(
                "A fast mover's extra damage is for melee attacks: the {weapon} is not a melee weapon.",
                weapon=weapon_name(w),
            )
        )
    if action.area:  # one attack, however many it hits: no combo
        return area_attack(system, enc, me, w, action, chance)
    if len(action.targets) > 10:
        raise InvalidInput(say("A combo holds at most 10 attacks."))
    if action.called and action.called not in LOCATIONS:
        raise InvalidInput(called_shots())
    if action.cover not in COVER:
        raise InvalidInput(say("Cover is one of: {covers}.", covers=listed(term(c) for c in COVER)))
    combo = len(action.targets) > 1
    if combo and has(me, "disabled"):
        raise NotAllowed(say("{who} is Disabled: single attacks only, no combos.", who=me.name))
    targets = [enc.find(name) for name in action.targets]
    for t in targets:
        if t.id == me.id:
            raise InvalidInput(say("{who} cannot attack themselves.", who=me.name))
        if t.dead:
            raise InvalidInput(say("{who} is already dead.", who=t.name))
    bonus, bonus_parts = to_hit_bonus(me, w, action)
    rolls: list[Text] = []
    hits: list[dict] = []
    for i, t in enumerate(targets):
        score, shown = target_score(me, t, w, action)
        if not w.ranged and helpless(t):
            rolls.append(say("{who} is helpless: melee hits automatically", who=t.name))
            hits.append({"i": i, "target": t.id})
            continue
        die, total, hits_it = d6_check(chance, me, bonus, score)
        rolled = dict(die=die, bonus=joined(" ", bonus_parts), total=secret(total, me), target=t.name, score=shown)
        if hits_it:
            rolls.append(say("d6 {die} {bonus} = {total} vs {target}'s Target {score}: hit", **rolled))
        else:
            rolls.append(say("d6 {die} {bonus} = {total} vs {target}'s Target {score}: miss", **rolled))
        if hits_it:
            hits.append({"i": i, "target": t.id})
    melee = not w.ranged and not w.magic
    extra = melee_bonus_damage(me) if melee else 0
    added = _added(me) if melee else None
    # "+1 per 5 squares/second that the fastest-moving creature is moving at"
    rushed = action.fast // COLLISION_SPEED
    told: Text = say(" + {n} ({speed} squares/s)", n=rushed, speed=action.fast) if action.fast else Raw("")
    expr = action.damage or w.damage
    for hit in hits:
        left = chance.entered_dice_left()
        with chance.shown_later():
            roll = chance.roll(expr)
        amount = roll.total + extra + rushed
        # Strength and scale are a hidden attacker's secret, and so the total they make.
        if added:
            text = seq(roll.text, told, " ", secret(seq(added, " = ", amount), me))
        elif action.fast:
            text = seq(roll.text, told, " = ", str(amount))
        else:
            text = Raw(str(roll))
        # Kept as data in the question's context, which is stored with the encounter. Whether the
        # damage was entered by hand is kept too: its own line carries the mark, after the defence.
        entered = chance.entered_dice_left() < left
        hit.update(amount=amount, text=to_data(text), hidden=bool(added) and me.hidden, entered=entered)
    if combo:
        head = say(
            "{who} makes a combo of {n} attacks with {weapon}: {rolls}.",
            who=me.name,
            n=len(targets),
            weapon=weapon_name(w),
            rolls=joined("; ", rolls),
        )
    else:
        head = say(
            "{who} makes an attack with {weapon}: {rolls}.",
            who=me.name,
            weapon=weapon_name(w),
            rolls=joined("; ", rolls),
        )
    events = [Event(kind="roll", text=head)]
    what = say("uses a combo") if combo else say("attacks {target}", target=targets[0].name)
    return _rolled(system, enc, me, w, action, hits, what, events, chance)


def _rolled(system, enc, me: Fighter, w: Weapon, action: Attack, hits: list[dict], what: Text, events, chance):
    """The attack rolls are made: its defences are asked next (`proceed`), and aiming is spent."""
    defenders: list[str] = []
    for hit in hits:
        if hit["target"] not in defenders:
            defenders.append(hit["target"])
    context = {
        "attacker": me.id,
        "weapon": w.name,
        "skill": skill(me, w),
        "y": action.y,
        "hits": hits,
        "defenders": defenders,
        "called": action.called,
        "flanked": action.flanked,
        "flat_footed": action.flat_footed,
        "nonlethal": action.nonlethal,
        "cost": ATTACK_SECONDS if action.cost is None else action.cost,
        "what": to_data(what),
        "ranged": w.ranged,
    }
    if action.area:
        context["area"] = True
    enc = enc.update(me.id, aimed=False)
    return proceed(system, enc, context, chance, events)


def area_attack(system, enc, me: Fighter, w: Weapon, action: Attack, chance: Chance):
    """Step one: an attack roll against the area's Target, "the same as if it were your scale". On a hit,
    one damage roll for all ("you only roll one damage die and compare it to all targets' toughness");
    a miss scatters, by a scatter die the seed does not describe, so the GM places it."""
    if not (w.ranged or w.magic):
        raise InvalidInput(
            say(
                "An area attack is made with a ranged or magic weapon (an explosive, a flame-thrower, a splash "
                "vial, an area spell): the {weapon} is neither.",
                weapon=weapon_name(w),
            )
        )
    if action.called or action.cover != "none" or action.concealed or action.invisible or action.speed:
        raise InvalidInput(
            say(
                "An area attack rolls against the area's Target, 4 − your scale: no called shot, cover, "
                "concealment, invisibility or speed; `mod=+X/+Y` adjusts it."
            )
        )
    targets: list[Fighter] = []
    for name in action.targets:
        t = enc.find(name)
        if t.dead:
            raise InvalidInput(say("{who} is already dead.", who=t.name))
        if any(t.id == other.id for other in targets):
            raise InvalidInput(say("An area holds each creature once: {who} is listed twice.", who=t.name))
        targets.append(t)
    bonus, bonus_parts = to_hit_bonus(me, w, action)
    score = 4 - me.sheet.scale
    # As a target's own score: the attacker's scale is a hidden attacker's secret.
    shown = secret(
        say("{score} (4 − scale {scale})", score=score, scale=me.sheet.scale) if me.sheet.scale else score, me
    )
    die, total, hits_it = d6_check(chance, me, bonus, score)
    rolled = dict(
        who=me.name,
        weapon=weapon_name(w),
        targets=listed(t.name for t in targets),
        die=die,
        bonus=joined(" ", bonus_parts),
        total=secret(total, me),
        score=shown,
    )
    hits: list[dict] = []
    if hits_it:
        head = say(
            "{who} makes an area attack with {weapon} on {targets}: d6 {die} {bonus} = {total} "
            "vs the area's Target {score}: hit.",
            **rolled,
        )
        events = [Event(kind="roll", text=head)]
        left = chance.entered_dice_left()
        with chance.shown_later():  # each target's damage line carries the mark (`entered`), not its defence
            roll = chance.roll(action.damage or w.damage)
        entered = chance.entered_dice_left() < left
        hits = [
            {"i": i, "target": t.id, "amount": roll.total, "text": to_data(Raw(str(roll))), "entered": entered}
            for i, t in enumerate(targets)
        ]
    else:
        head = say(
            "{who} makes an area attack with {weapon} on {targets}: d6 {die} {bonus} = {total} "
            "vs the area's Target {score}: miss.",
            **rolled,
        )
        scatter = say(
            "The attack scatters (the seed: a scatter die and 1d6 per range increment out): the GM places "
            "it and applies its damage there with `/damage`."
        )
        events = [Event(kind="roll", text=head), Event(kind="info", text=scatter)]
    return _rolled(system, enc, me, w, action, hits, say("makes an area attack"), events, chance)


def called_shots() -> Text:
    return say("Called shots aim at one of: {spots}.", spots=listed(term(spot) for spot in LOCATIONS))


def _added(f: Fighter) -> Text | None:
    """What melee adds to the damage roll, named: `+ Strength 3 + 3×scale 3` (None: nothing)."""
    parts: list[Text] = []
    if f.sheet.strength:
        value = f.sheet.strength
        parts.append(say("{sign} Strength {n}", sign="+" if value > 0 else "−", n=abs(value)))
    if f.sheet.scale:
        value = 3 * f.sheet.scale
        parts.append(say("{sign} 3×scale {n}", sign="+" if value > 0 else "−", n=abs(value)))
    return joined(" ", parts) if parts else None


def proceed(system, enc, context: dict, chance: Chance, events: list[Event]):
    """Ask the next defender, or settle hits nobody can defend, then spend the time."""
    while context["defenders"]:
        cid = context["defenders"][0]
        t: Fighter = enc.get(cid)
        hits = [h for h in context["hits"] if h["target"] == cid]
        why = "flat-footed" if context["flat_footed"] else can_defend(t)
        if why:
            events.append(Event(kind="info", text=say("{who} cannot defend ({why}).", who=t.name, why=term(why))))
            enc, more = _land(enc, cid, hits, context, chance)
            events.extend(more)
            context = context | {"defenders": context["defenders"][1:]}
            continue
        return _ask(enc, t, hits, context, events)
    attacker = enc.get(context["attacker"])
    if attacker.id in enc.turns.acting:
        enc, more = system.turns.spend(
            system, enc, attacker.id, context["cost"], chance, what=from_data(context["what"])
        )
        events.extend(more)
    return enc, events


def _options(t: Fighter, area: bool) -> tuple[str, ...]:
    """The keys of the defences open to `t` (No defence last): against an area, "shields may be used to block
    area attacks without penalty, and dodges can be used to reduce damage", and no parry."""
    if has(t, "held"):
        return (DODGE, NONE)
    return (BLOCK, DODGE, NONE) if area else DEFENCES + (NONE,)


def defence_bonus(t: Fighter, option: str) -> int:
    """The defence's bonus as rolled, dodging while held at −1 (flanked is the attack's, told apart)."""
    held = 1 if option == DODGE and has(t, "held") else 0
    return {BLOCK: t.sheet.block, DODGE: dodge(t), PARRY: parry(t)}.get(option, 0) - held


def _flanked(t: Fighter, context: dict) -> bool:
    """Flanked by this attack's option, or by a condition: "−1 to all defence rolls made against any attack"."""
    return context["flanked"] or has(t, "flanked")


def _ask(enc, t: Fighter, hits, context, events):
    dc = 4 + context["skill"] + context["y"]
    attacker = enc.get(context["attacker"])
    area = context.get("area", False)
    options = _options(t, area)
    best = max((o for o in options if o != NONE), key=lambda o: defence_bonus(t, o))
    bonuses = listed(seq(LABELS[o], " ", secret(modifier(defence_bonus(t, o)), t)) for o in options if o != NONE)
    if area:
        count = say("an area attack")
    else:
        count = say("{n} hits", n=len(hits)) if len(hits) > 1 else say("a hit")
    flanked: Text = say(", flanked: −1") if _flanked(t, context) else Raw("")
    shown = secret(dc, attacker)  # 4 + the attacker's skill + Y
    said = dict(who=t.name, count=count, attacker=attacker.name, dc=shown, flanked=flanked, bonuses=bonuses)
    if area and DODGE in options and BLOCK in options:
        prompt = say(
            "{who}: defend against {count} from {attacker} (DC {dc}{flanked})? A Block negates it, a Dodge "
            "takes {n} from the damage: {bonuses}",
            n=AREA_DODGE,
            **said,
        )
    elif area:
        prompt = say(
            "{who}: defend against {count} from {attacker} (DC {dc}{flanked})? A Dodge takes {n} from the "
            "damage: {bonuses}",
            n=AREA_DODGE,
            **said,
        )
    else:
        prompt = say("{who}: defend against {count} from {attacker} (DC {dc}{flanked})? {bonuses}", **said)
    users = (t.controller_id,) if t.controller_id is not None else ()
    enc = enc.ask(
        kind=DEFENCE,
        prompt=prompt,
        options=tuple(Choice(key=o, label=LABELS[o]) for o in options),
        default=best,
        default_secret=t.hidden,  # the best of its hidden bonuses
        chooser=t.id,
        users=users,
        context=context | {"dc": dc},
    )
    # The choice message that follows pings the defender's player (the GM for
    # NPCs) with the buttons; this line only records that the attack waits.
    events.append(
        Event(
            kind="info",
            text=say(
                "🛡️ {who} may defend against {count} (DC {dc}{flanked}): waiting for the choice.",
                who=t.name,
                count=count,
                dc=shown,
                flanked=flanked,
            ),
        )
    )
    return enc, events


def resume_defence(system, enc, pending: Pending, option: str, chance: Chance):
    """Dice: the defender's d6 for each hit (none for No defence), then any Fortitude d6."""
    context = dict(pending.context)
    cid = context["defenders"][0]
    t: Fighter = enc.get(cid)
    hits = [h for h in context["hits"] if h["target"] == cid]
    events: list[Event] = []
    through = hits
    choice = option  # a defence's key
    if choice != NONE:
        bonus = defence_bonus(t, choice) - (1 if _flanked(t, context) else 0)
        dc = context["dc"]
        attacker = enc.get(context["attacker"])
        parts: list[Text] = []
        through = []
        for hit in hits:
            die, total, ok = d6_check(chance, t, bonus, dc)
            rolled = dict(die=die, bonus=secret(modifier(bonus), t), total=secret(total, t), dc=secret(dc, attacker))
            if ok and choice == DODGE and context.get("area"):
                # "A successful dodge without the Evasion technique reduces damage by 3 points."
                parts.append(say("d6 {die} {bonus} = {total} vs DC {dc}: damage −{n}", n=AREA_DODGE, **rolled))
                amount = max(0, hit["amount"] - AREA_DODGE)
                text = say("{roll} − {n} dodged = {amount}", roll=from_data(hit["text"]), n=AREA_DODGE, amount=amount)
                through.append(hit | {"amount": amount, "text": to_data(text)})
            elif ok:
                parts.append(say("d6 {die} {bonus} = {total} vs DC {dc}: negated", **rolled))
            else:
                parts.append(say("d6 {die} {bonus} = {total} vs DC {dc}: fails", **rolled))
                through.append(hit)
        said = dict(who=t.name, rolls=joined("; ", parts))
        if choice == BLOCK:
            line = say("{who} blocks: {rolls}.", **said)
        elif choice == DODGE:
            line = say("{who} dodges: {rolls}.", **said)
        else:
            line = say("{who} parries: {rolls}.", **said)
        events.append(Event(kind="roll", text=line))
    if through:
        enc, more = _land(enc, cid, through, context, chance)
        events.extend(more)
    elif hits:
        events.append(Event(kind="info", text=say("{who} takes no damage.", who=t.name)))
    context["defenders"] = context["defenders"][1:]
    return proceed(system, enc, context, chance, events)


def _land(enc, cid, hits, context, chance):
    landed = [
        wounds.Hit(h["amount"], from_data(h["text"]), hidden=h.get("hidden", False), entered=h.get("entered", False))
        for h in hits
    ]
    return wounds.land(enc, cid, landed, chance, location=context["called"], nonlethal=context["nonlethal"])
