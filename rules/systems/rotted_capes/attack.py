"""`/attack`: the roll against a defense, advantage from tracked state,
natural 20 and 1, damage, and the choices an attack can open."""

from __future__ import annotations

from typing import Any

from d20 import diceast

from ...commands import amount, integer
from ...dice import check_expression
from ...errors import InvalidInput, NotAllowed
from ...model import Choice, Event, former_keys
from ...said import N_, joined, say, say_plural, seq, term
from ...secrets import lands_in_sight, secret
from ...text import EMPTY, Raw, Text
from ...usertext import listed, user_text
from . import conditions as cond
from . import damage as dmg
from . import economy, modes
from .hooks import DEFENSES
from .model import RCCombatant, RCEncounter, known_damage_type
from .rolls import D20, Queued, drain, masked_bonus, mode_for, reasons, roll_d20, secret_constants, secret_faces

SHOWN_DEFENSES = (N_("Avoidance"), N_("Fortitude"), N_("Willpower"))  # capitalised in the lines, for extraction
PLOT_DIS, PLOT_NO = "plot", "no"  # the keys of the Plot Point question's options
PLOT_OPTIONS = (
    Choice(key=PLOT_DIS, label=say("Spend a Plot Point: disadvantage")),
    Choice(key=PLOT_NO, label=say("No")),
)
former_keys("plot_disadvantage", {"Spend a Plot Point: disadvantage": PLOT_DIS, "No": PLOT_NO})
# the reasons for advantage and disadvantage are kept as English keys and said when shown (`rolls.reasons`)
_FLAG_DIS = {
    "dis": N_("disadvantage"),
    "cover": N_("partial cover"),
    "same_area": N_("ranged at a target in your area"),
    "beyond_range": N_("beyond range"),
    "in_melee": N_("target engaged in melee"),
    "unseen": N_("unseen target"),
    "squeezed": N_("squeezed"),
    "dark": N_("darkness"),
}


def declare(system, enc: RCEncounter, action, chance) -> tuple[RCEncounter, list[Event]]:
    attacker = economy.actor_of(enc, action)
    target = economy.real(enc, enc.find(action.target))
    flags = action.flags
    if target.out or target.environment:
        raise InvalidInput(say("{who} cannot be attacked.", who=target.name))
    if target.id == attacker.id:
        raise InvalidInput(say("A combatant cannot attack itself."))
    defense = (action.defense or "avoidance").strip().lower()
    if defense not in DEFENSES:
        raise InvalidInput(say("Defense must be Avoidance, Fortitude or Willpower."))
    charm = attacker.condition("Charmed")
    if charm and charm.source and charm.source.casefold() == target.name.casefold():
        raise NotAllowed(
            say("{who} is Charmed by {target} and cannot attack them.", who=attacker.name, target=target.name)
        )
    if str(flags.get("cover", "")).lower() == "total":
        raise NotAllowed(say("{who} has total cover: they cannot be targeted directly.", who=target.name))
    damage_type = known_damage_type((action.damage_type or attacker.sheet.damage_type).strip().lower())
    ranged = bool(flags.get("ranged"))
    unaware = bool(flags.get("unaware"))
    adv, dis, flat = cond.attack_sources(enc, attacker, target, melee=not ranged, defense=defense, unaware=unaware)
    for key, why in _FLAG_DIS.items():
        off = str(flags.get(key, "")).lower() in ("", "none", "no", "false")
        if not off and (ranged or key not in ("same_area", "beyond_range", "in_melee")):
            dis.append(why)
    if flags.get("shadowy"):
        flat -= 2  # shadowy light: −2 where clear vision matters
    if flags.get("adv"):
        adv.append(N_("advantage"))
    if unaware:
        adv.append(N_("target cannot see the attacker"))
    if flags.get("unleashed"):
        enc = modes.unleashed_advantage(enc, attacker)
        adv.append(N_("Unleashed"))
    split = flags.get("split")
    members = len(attacker.horde)
    if split is not None:
        if not attacker.horde:
            raise InvalidInput(say("Only a Horde splits its attack."))
        members = integer(split, "split", 1, members)
    horde_bonus = 2 * (members - 1) if attacker.horde else 0
    cost = (
        "reaction"
        if flags.get("reaction") or not economy.acting(enc, attacker.id)
        else "bonus"
        if flags.get("bonus")
        else "action"
    )
    triggered = attacker.economy.triggered == enc.turn_no
    if cost == "reaction" and not (attacker.ready or triggered):
        economy.no_opportunity_attack(enc, target)
    if attacker.blaze:
        cost = "blaze"
    elif flags.get("free"):
        # the effect of a demanding action resolving, or a power the GM rules costs no action
        economy.may_act(enc.get(attacker.id))
        economy.may_go_free(enc, attacker, action.by)
        cost = "free"
    elif cost == "reaction" and triggered:
        # the readied response goes off on the Reaction its trigger already took
        economy.may_act(enc.get(attacker.id))
        enc = enc.update(attacker.id, economy=enc.get(attacker.id).economy.but(triggered=None))
    elif cost == "action" and split is not None:
        enc = _split(enc, enc.get(attacker.id), target, members)
    else:
        enc = economy.spend(enc, enc.get(attacker.id), cost)
    opportunity = 0
    if cost == "reaction":
        enc = enc.update(attacker.id, ready="")
        if attacker.horde:
            # one opportunity attack per member; each after the first loses one member's bonus
            made = attacker.economy.opportunity
            horde_bonus = max(0, horde_bonus - 2 * made)
            opportunity = made + 1
            e = enc.get(attacker.id).economy
            enc = enc.update(attacker.id, economy=e.but(opportunity=opportunity))
    enc, freed = _charm_broken(enc, attacker, target)
    changes: dict[str, Any] = {"assisted_by": ()}
    if attacker.has("Hidden"):
        changes["conditions"] = tuple(c for c in enc.get(attacker.id).conditions if c.name != "Hidden")
    enc = enc.update(attacker.id, **changes)
    modifier = attacker.sheet.attack if action.modifier is None else action.modifier
    same_area = not ranged or bool(flags.get("same_area"))
    spec = {
        "attacker": attacker.id,
        "target": target.id,
        "weapon": action.weapon[:40],
        "modifier": modifier,
        "flat": flat,
        "horde": horde_bonus,
        "damage": action.damage or attacker.sheet.damage,
        "type": damage_type,
        "defense": defense,
        "adv": adv,
        "dis": dis,
        "ap": bool(flags.get("ap")),
        "same_area": same_area,
        "blaze": attacker.blaze,
        "rule": enc.options.get("advantage", "cancel"),
        "plot": False,
        "free": cost == "free",
    }
    if opportunity:
        spec["opportunity"] = opportunity
    if flags.get("area"):
        spec["area"] = True  # against a Horde: the damage lands on every member
    if action.damage:
        # read as /damage reads its amount: `-50` or `0` would post a hit that hurts no one (unless a
        # Horde's bonus adds to it)
        amount(action.damage, "damage", zero=horde_bonus > 0)
    else:
        check_expression(spec["damage"])
    if _offer_plot(enc, attacker, target, spec):
        enc, events = _ask_plot(enc, spec, chance)
    else:
        enc, events = resolve(system, enc, spec, chance)
    return enc, events + freed


def _split(enc: RCEncounter, horde: RCCombatant, target: RCCombatant, members: int) -> RCEncounter:
    """A Horde "may attack one or two targets": the first split attack takes the Action and leaves the
    members it did not use; a second one, at another target and with no more than those, takes none."""
    e = horde.economy
    if e.split_target is None or not e.split_left:
        enc = economy.spend(enc, horde, "action")
        e = enc.get(horde.id).economy
        return enc.update(horde.id, economy=e.but(split_target=target.id, split_left=len(horde.horde) - members))
    economy.may_act(horde)
    if target.id == e.split_target:
        raise NotAllowed(
            say(
                "{horde}'s second split attack goes at another target than {target}.",
                horde=horde.name,
                target=target.name,
            )
        )
    if members > e.split_left:
        raise NotAllowed(
            say_plural(
                "{horde} has only {n} member left to attack a second target.",
                "{horde} has only {n} members left to attack a second target.",
                e.split_left,
                horde=horde.name,
                n=e.split_left,
            )
        )
    return enc.update(horde.id, economy=e.but(split_target=None, split_left=0))


def _charm_broken(enc: RCEncounter, attacker: RCCombatant, target: RCCombatant) -> tuple[RCEncounter, list[Event]]:
    """Charmed: "the condition ends if the charmer or their allies attack you"."""
    charm = target.condition("Charmed")
    if charm is None or not charm.source:
        return enc, []
    charmer = enc.maybe(charm.source)
    if charmer is None:
        return enc, []
    if charmer.id == attacker.id:
        text = say(
            "{who} is no longer {condition}: {charmer} attacks them.",
            who=target.name,
            condition=charm.label(),
            charmer=attacker.name,
        )
    elif charmer.side == attacker.side:
        text = say(
            "{who} is no longer {condition}: {attacker}, an ally of {charmer}, attacks them.",
            who=target.name,
            condition=charm.label(),
            attacker=attacker.name,
            charmer=charmer.name,
        )
    else:
        return enc, []
    enc = enc.with_combatant(cond.remove(enc.get(target.id), "Charmed"))
    return enc, [Event(kind="info", text=text)]


def _horde_name(n: int) -> Text:
    """The horde's bonus on its `n`th opportunity attack since its turn (English ordinals: one template each)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    if suffix == "st":
        return say("horde ({n}st opportunity attack)", n=n)
    if suffix == "nd":
        return say("horde ({n}nd opportunity attack)", n=n)
    if suffix == "rd":
        return say("horde ({n}rd opportunity attack)", n=n)
    return say("horde ({n}th opportunity attack)", n=n)


def _unconscious_fails(defense: Text, same_area: bool) -> Text:
    if same_area:
        return say("(Unconscious: {defense} fails automatically; in the same area: critical)", defense=defense)
    return say("(Unconscious: {defense} fails automatically)", defense=defense)


def _restrained_fails(target: RCCombatant, spec: dict) -> bool:
    """Restrained: "You also automatically fail Avoidance checks against area effects"."""
    return target.has("Restrained") and bool(spec.get("area")) and spec["defense"] == "avoidance"


def _dice_in(expr: str) -> int:
    tree = check_expression(expr)
    stack, count = [tree], 0
    while stack:
        node = stack.pop()
        count += node.num if isinstance(node, diceast.Dice) else 0
        stack.extend(getattr(node, "children", []) or [])
    return count


def _offer_plot(enc, attacker, target, spec) -> bool:
    if not enc.options.get("offer_plot_disadvantage", True) or spec["blaze"]:
        return False
    if not target.holds_points or attacker.is_hero or target.plot_points <= 0:
        return False
    # only when the point changes the roll: under the cancel rule an attack that
    # already has both advantage and disadvantage would waste it
    now = mode_for(spec["adv"], spec["dis"], spec["rule"])
    return mode_for(spec["adv"], spec["dis"] + [N_("Plot Point")], spec["rule"]) != now


def _ask_plot(enc, spec, chance):
    target = enc.get(spec["target"])
    attacker = enc.get(spec["attacker"])
    users = enc.controllers([target.id])
    prompt = say(
        "{who} attacks {target}: spend a Plot Point to give the attack disadvantage?",
        who=attacker.name,
        target=target.name,
    )
    context = {"spec": spec, "dice": drain(chance)}
    enc = enc.ask(
        kind="plot_disadvantage",
        prompt=prompt,
        options=PLOT_OPTIONS,
        default=PLOT_NO,
        chooser=target.id,
        users=users,
        context=context,
    )
    # the choice message that follows pings the player; this line only tells the channel why the roll waits
    waiting = say(
        "{who} attacks {target}: the roll waits while {target}'s player decides whether to spend a Plot Point "
        "({left} left) for disadvantage.",
        who=attacker.name,
        target=target.name,
        left=secret(target.plot_points, target),
    )
    return enc, [Event(kind="info", text=seq("⏳ ", waiting))]


def resume_plot(system, enc, pending, option, chance):
    spec = dict(pending.context["spec"])
    events = []
    if option == PLOT_DIS:
        target = enc.get(spec["target"])
        if target.plot_points <= 0:
            raise NotAllowed(say("{who} has no Plot Points left.", who=target.name))
        enc = enc.update(target.id, plot_points=target.plot_points - 1).but(pool=enc.pool + 1)
        spec["dis"] = list(spec["dis"]) + [N_("Plot Point")]
        spec["plot"] = True
        events.append(
            Event(
                kind="info",
                text=seq(
                    "🎭 ",
                    say(
                        "{who} spends a Plot Point: the attack has disadvantage ({left} left; pool {pool}).",
                        who=target.name,
                        left=secret(target.plot_points - 1, target),
                        pool=enc.pool,
                    ),
                ),
            )
        )
    queued = Queued(pending.context.get("dice", ()), chance)
    enc, more = resolve(system, enc, spec, queued)
    unused = queued.unused()
    if unused:
        dice = ", ".join(map(str, unused))
        chosen = pending.option(option).label
        if len(unused) == 1:
            text = say("Entered die not needed after “{option}”: {dice} (not used).", option=chosen, dice=dice)
        else:
            text = say("Entered dice not needed after “{option}”: {dice} (not used).", option=chosen, dice=dice)
        more.append(Event(kind="info", text=seq("✍️ ", text)))
    added = queued.topped_up()
    if added:
        # a hidden attacker's damage dice may hide in its line: here its dice and their count stay secret
        attacker = enc.get(spec["attacker"])
        text = say_plural(
            "Die not entered, needed after “{option}”: {dice} (rolled by the bot).",
            "Dice not entered, needed after “{option}”: {dice} (rolled by the bot).",
            None if attacker.hidden else len(added),
            dice=secret(", ".join(map(str, added)), attacker),
            option=pending.option(option).label,
        )
        more.append(Event(kind="info", text=text))
    return enc, events + more


def _kept(rolled: tuple[int, ...], mode: str) -> D20:
    """The d20 of a roll whose damage alone is rerolled."""
    if len(rolled) == 1:
        return D20(rolled[0], rolled, "")
    return D20(max(rolled) if mode == "adv" else min(rolled), rolled, mode)


def resolve(
    system, enc: RCEncounter, spec: dict, chance, *, keep_d20: tuple[int, ...] | None = None
) -> tuple[RCEncounter, list[Event]]:
    """Roll and apply one attack; `keep_d20` rerolls only the damage."""
    started = enc
    attacker, target = enc.get(spec["attacker"]), enc.get(spec["target"])
    mode = mode_for(spec["adv"], spec["dis"], spec["rule"])
    penalty = cond.wound_penalty(attacker)
    bonus = spec["modifier"] + spec["flat"] + spec["horde"] - penalty
    defense_value = cond.defense(target, spec["defense"], enc.options)
    label = term(spec["defense"].capitalize())
    free = say("no Action spent") if spec.get("free") else EMPTY
    notes = [n for n in (user_text(spec["weapon"]), free) if n]
    weapon = seq(" (", listed(notes), ")") if notes else EMPTY
    head = say("{who} attacks {target}{notes}: ", who=attacker.name, target=target.name, notes=weapon)
    rolled: tuple[int, ...]
    text: Text
    if spec["blaze"]:
        natural, rolled, text = 20, (), say("blaze of glory: automatic critical")
        critical, hit = True, True
    else:
        d20 = _kept(keep_d20, mode) if keep_d20 else roll_d20(chance, mode)
        natural, rolled = d20.natural, d20.rolled
        total = natural + bonus
        parts: list[Text] = [d20.text()]
        if attacker.hidden:
            # a hidden attacker's modifier and wounds stay secret, and so does any total they are in
            parts.append(masked_bonus(spec["modifier"], attacker, penalty))
        horde_name = _horde_name(spec["opportunity"]) if spec.get("opportunity") else say("horde")
        for value, name in (
            (0 if attacker.hidden else spec["modifier"], None),
            (spec["horde"], horde_name),
            (spec["flat"], say("situation")),
            (0 if attacker.hidden else -penalty, say("wounds/exhaustion")),
        ):
            if value:
                parts.append(seq(Raw(f"{'+' if value > 0 else '−'} {abs(value)}"), seq(" ", name) if name else EMPTY))
        against = dict(total=secret(total, attacker), defense=label, value=secret(defense_value, target))
        text = seq(joined(" ", parts), " ", say("= {total} vs {defense} {value}", **against))
        critical = natural == 20
        # "You automatically fail Avoidance and Willpower checks" (a natural 1 still misses); said only when
        # it turns a miss into a hit, which tells no more of a hidden defense than any hit or miss does
        fails = target.has("Unconscious") and spec["defense"] in ("avoidance", "willpower") and total < defense_value
        # the same, said the same way, for a Restrained target of an area attack
        held_fails = not fails and _restrained_fails(target, spec) and total < defense_value
        hit = natural != 1 and (critical or fails or held_fails or total >= defense_value)
        if natural == 1:
            text = seq(text, ": ", say("natural 1, miss"))
        elif critical:
            text = seq(text, ": ", say("natural 20, critical hit"))
        elif fails:
            text = seq(text, ": ", say("hit"), " ", _unconscious_fails(label, spec["same_area"]))
            critical = spec["same_area"]
        elif held_fails:
            text = seq(
                text,
                ": ",
                say("hit"),
                " ",
                say("(Restrained: {defense} fails automatically against an area attack)", defense=label),
            )
        else:
            text = seq(text, ": ", say("hit") if hit else say("miss"))
        if hit and not critical and target.has("Unconscious") and spec["same_area"]:
            critical = True
            text = seq(text, " ", say("(Unconscious in the same area: critical)"))
    text = seq(text, reasons(spec["adv"], spec["dis"], mode))
    if not hit and 0 < chance.entered_dice_left() <= _dice_in(spec["damage"]):
        drain(chance)  # players often roll damage with the d20: on a miss those dice are simply not used
    events: list[Event] = []
    damage_dice: tuple[int, ...] = ()
    report = None
    if hit:
        roll = chance.roll(spec["damage"])
        damage_dice = roll.dice
        amount = roll.total + spec["horde"]
        horde = seq(" ", say("+ {bonus} horde", bonus=spec["horde"])) if spec["horde"] else EMPTY
        # a hidden attacker's damage bonus and total are its own numbers: only the dice show; but a
        # visible target's tracker tells the total, so then the dice hide instead (rules/secrets.py)
        if lands_in_sight(attacker, target):
            text = seq(text, "; ", secret_faces(roll.text, attacker), horde, " = ", amount)
        else:
            text = seq(text, "; ", secret_constants(roll.text, attacker), horde, " = ", secret(amount, attacker))
        was_horde = bool(target.horde)
        harm = dmg.Harm(amount, spec["type"], critical=critical, armor_piercing=spec["ap"], hit=True)
        area_gone = False
        if was_horde and spec.get("area"):
            enc, more, horde_events, report, area_gone = modes.area_harm(system, enc, target.id, harm, chance)
            text = seq(text, more)
            events.extend(horde_events)
        else:
            enc, more, report = dmg.harm(enc, target.id, harm)
            text = seq(text, more)
        if was_horde and report.taken_out and not spec.get("area"):
            enc, horde_events = modes.member_down(system, enc, target.id, chance)
            if horde_events:
                text = seq(text, horde_events.pop(0).said)
            events.extend(horde_events)
            report.dying, report.interrupt_dc = False, None
        t = enc.get(target.id)
        member_gone = was_horde and (
            area_gone if spec.get("area") else report.taken_out
        )  # the horde's own line says what is left
        if (not t.zombie or not t.out) and not member_gone:
            text = seq(text, " (", t.name, ": ", dmg.status(t), ")")
    events.insert(0, Event(kind="roll", text=seq(head, text)))
    if spec["blaze"]:
        enc = enc.update(attacker.id, blaze=False, dead=True, out=True)
        events.append(
            Event(kind="info", text=seq("🔥 ", say("{who} goes out in a blaze of glory.", who=attacker.name)))
        )
    if report is not None:
        enc, follow = dmg.follow_up(enc, target.id, report)
        events.extend(follow)
    if not spec["blaze"]:
        rolled_spec = spec | {"rolled": list(rolled)}
        plot_spent = bool(spec.get("plot"))
        enc = enc.rolled(
            started, "attack", attacker.id, rolled_spec, d20=natural, damage=damage_dice, plot_spent=plot_spent
        )
    return enc, events
