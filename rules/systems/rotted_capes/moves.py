"""`/act`: the eight actions besides Attack, movement, and the GM's combat
modes. Hand-entered dice: Hide rolls one d20 (two with advantage or
disadvantage); Second wind rolls 1d4; the rest roll nothing."""

from __future__ import annotations

from ...commands import flag_number
from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...said import N_, joined, say, say_plural, term
from ...secrets import secret
from ...usertext import name_key, one_line, split_names, user_text
from . import conditions as cond
from . import economy, modes
from .model import MAX_DC, Condition, Demanding, RCEncounter
from .rolls import masked_bonus, mode_for, reasons, roll_d20, signed

CHOICES = [
    (N_("assist"), N_("Assist (Action): an ally gains advantage on their next roll")),
    (N_("dash"), N_("Dash (Action): move twice your Pace")),
    (N_("demanding"), N_('Demanding (Action): options what="…" [interruptible]')),
    (N_("disengage"), N_("Disengage (Action): no opportunity attacks this turn")),
    (N_("dodge"), N_("Dodge (Action): attacks vs your Avoidance at disadvantage")),
    (N_("hide"), N_("Hide (Action): Dexterity vs the observers' result, options dc=N")),
    (N_("ready"), N_('Ready (Action): options trigger="…"')),
    (N_("trigger"), N_("Readied action goes off (Reaction)")),
    (N_("move"), N_("Move: options areas=N")),
    (N_("stand"), N_("Stand up from Prone (half your Pace)")),
    (N_("prone"), N_("Drop prone (free)")),
    (N_("swap"), N_("Swap places with a tied hero (target)")),
    (N_("second wind"), N_("Unleashed second wind (Action): 1d4 Wounds back")),
    (N_("horde"), N_("GM: form a Horde (target: names or a group name)")),
    (N_("unleash"), N_("GM: Unleash a villain (target)")),
    (N_("danger zone"), N_("GM: the environment takes turns (options middle end)")),
    (N_("end scene"), N_("GM: end the scene: Stamina back, scene limits reset")),
]
GM_MODES = ("horde", "unleash", "danger zone", "end scene")


def act(system, enc: RCEncounter, action, chance):
    what = " ".join(action.action.lower().replace("_", " ").split())
    if what in GM_MODES:
        if not action.by.is_gm:
            raise NotAllowed(say("Only the GM changes combat modes."))
        return _mode(system, enc, what, action, chance)
    handler = _ACTIONS.get(what)
    if handler is None:
        raise InvalidInput(
            say("Unknown action. Choose one of: {actions}.", actions=joined(", ", (term(v) for v, _ in CHOICES)))
        )
    c = economy.actor_of(enc, action)
    return handler(enc, c, action, chance)


def _mode(system, enc, what, action, chance):
    if what == "end scene":
        return modes.end_scene(enc)
    if what == "danger zone":
        spots = [k for k in ("middle", "end") if action.flags.get(k)] or ["middle"]
        return modes.danger_zone(system, enc, spots, chance)
    if not action.target:
        raise InvalidInput(say("{mode} needs a `target`.", mode=term(what.capitalize())))
    if what == "unleash":
        return modes.unleash(system, enc, enc.find(action.target), chance)
    # Names compare as everywhere in a fight (name_key), and one holding a comma ("Hansel, Gretel") stays whole.
    names = list(split_names(action.target, ",", enc.maybe))
    if len(names) == 1:
        base = name_key(names[0])
        names = [c.name for c in enc.active() if name_key(c.name).rsplit(" ", 1)[0] == base and not c.horde]
    title = one_line(action.flags.get("name") or f"{split_names(action.target, ',', enc.maybe)[0]} Horde", 60)
    if enc.maybe(title):
        title = user_text(f"{title} {enc.next_id}")
    return modes.form_horde(system, enc, names, title, chance)


def _assist(enc, c, action, chance):
    if not action.target:
        raise InvalidInput(say("Assist needs a `target`: the ally you help."))
    ally = economy.real(enc, enc.find(action.target))
    if ally.id == c.id:
        raise InvalidInput(say("Assist helps someone else."))
    enc = economy.spend(enc, c, "action")
    enc = enc.update(ally.id, assisted_by=ally.assisted_by + (c.id,))
    return enc, [
        Event(
            kind="info",
            text=say(
                "{who} assists {ally}: advantage on their next attack roll or check before the start of {who}'s next "
                "turn.",
                who=c.name,
                ally=ally.name,
            ),
        )
    ]


def _dash(enc, c, action, chance):
    if cond.held(c):
        raise NotAllowed(say("{who} is held fast (Grappled or Restrained): a Dash moves them nowhere.", who=c.name))
    enc = economy.spend(enc, c, "action")
    c = enc.get(c.id)
    extra = 1 if c.demanding else cond.dash_pace(c)
    e = c.economy
    enc = enc.update(
        c.id, economy=e.but(pace=e.pace + extra if not c.demanding else min(e.pace + extra, 1), dashed=True)
    )
    left = enc.get(c.id).economy.pace
    text = say_plural(
        "{who} dashes: {pace} area of movement left.",
        "{who} dashes: {pace} areas of movement left.",
        None if c.hidden else left,
        who=c.name,
        pace=secret(left, c),
    )
    return enc, [Event(kind="info", text=text)]


def _demanding(enc, c, action, chance):
    what = one_line(action.flags.get("what") or action.target or "a demanding action", 80)
    if c.demanding:
        raise NotAllowed(say("{who} is already performing {what}.", who=c.name, what=c.demanding.what))
    moved = cond.pace(c) - c.economy.pace
    if moved > 1 and not c.economy.dashed:
        raise NotAllowed(
            say("{who} already moved {n} areas: a demanding action allows at most 1.", who=c.name, n=moved)
        )
    enc = economy.spend(enc, c, "action")
    c = enc.get(c.id)
    interruptible = bool(action.flags.get("interruptible"))
    e = c.economy
    enc = enc.update(
        c.id,
        demanding=Demanding(what=what, interruptible=interruptible, since_turn=enc.turn_no),
        economy=e.but(pace=max(0, min(e.pace, 1 - max(0, moved))), bonus=False),
    )
    begins = dict(who=c.name, what=what)
    if interruptible:
        text = say(
            "{who} begins an interruptible demanding action: {what}. It resolves at the start of their next turn; "
            "until then attackers have advantage and {who} takes no reactions.",
            **begins,
        )
    else:
        text = say(
            "{who} begins a demanding action: {what}. It resolves at the start of their next turn; until then "
            "attackers have advantage and {who} takes no reactions.",
            **begins,
        )
    return enc, [Event(kind="info", text=text)]


def _disengage(enc, c, action, chance):
    enc = economy.spend(enc, c, "action")
    enc = enc.update(c.id, economy=enc.get(c.id).economy.but(disengaged=True))
    return enc, [
        Event(kind="info", text=say("{who} disengages: moving this turn provokes no opportunity attacks.", who=c.name))
    ]


def _dodge(enc, c, action, chance):
    enc = economy.spend(enc, c, "action")
    enc = enc.update(c.id, dodging=True)
    return enc, [
        Event(
            kind="info",
            text=say(
                "{who} dodges: attacks against their Avoidance have disadvantage until their next turn.", who=c.name
            ),
        )
    ]


def _hide(enc, c, action, chance):
    dc = flag_number(action.flags, "dc", 1, MAX_DC)
    if dc is None:
        raise InvalidInput(say("Hide is a face-off: give the observers' result as `dc=` in the options."))
    enc = economy.spend(enc, c, "action")
    spec = {
        "who": c.id,
        "dc": dc,
        "adv": ["advantage"] if action.flags.get("adv") else [],
        "dis": ["disadvantage"] if action.flags.get("dis") else [],
    }
    return resolve_hide(enc, spec, chance)


def resolve_hide(enc: RCEncounter, spec: dict, chance):
    """The Hide roll, a Dexterity check: the last roll, which a Plot Point may reroll from where it began
    (the Action already spent)."""
    started = enc
    c = enc.get(spec["who"])
    dc = spec["dc"]
    adv, dis = cond.save_sources(c)
    adv += spec["adv"]
    dis += spec["dis"]
    d20 = roll_d20(chance, mode_for(adv, dis, enc.options.get("advantage", "cancel")))
    mod = c.sheet.dex - cond.wound_penalty(c)
    total = d20.natural + mod
    ok = total > dc
    enc = enc.update(c.id, assisted_by=())
    bonus = masked_bonus(mod, c) if c.hidden else signed(mod)
    tried = dict(
        who=c.name, d20=d20.text(), bonus=bonus, total=secret(total, c), dc=dc, why=reasons(adv, dis, d20.mode)
    )
    if ok:
        enc = enc.with_combatant(cond.add(enc.get(c.id), Condition(name="Hidden", since_turn=enc.turn_no)))
        text = say(
            "{who} tries to hide: {d20} {bonus} = {total} vs {dc}{why}: hidden (advantage on attacks; attacking "
            "reveals them)",
            **tried,
        )
    else:
        text = say("{who} tries to hide: {d20} {bonus} = {total} vs {dc}{why}: spotted", **tried)
    return enc.rolled(started, "hide", c.id, spec, d20=d20.natural), [Event(kind="roll", text=text)]


def _ready(enc, c, action, chance):
    trigger = one_line(action.flags.get("trigger") or action.target, 120)
    if not trigger:
        raise InvalidInput(
            say('Ready needs a trigger: options trigger="if the zombies come through the arch, I drop the doors".')
        )
    enc = economy.spend(enc, c, "action")
    enc = enc.update(c.id, ready=trigger)
    return enc, [
        Event(
            kind="info",
            text=say(
                "{who} readies: {trigger} (goes off as a reaction before their next turn).", who=c.name, trigger=trigger
            ),
        )
    ]


def _trigger(enc, c, action, chance):
    if not c.ready:
        raise InvalidInput(say("{who} has no readied action.", who=c.name))
    enc = economy.spend(enc, c, "reaction")
    enc = enc.update(c.id, ready="", economy=enc.get(c.id).economy.but(triggered=enc.turn_no))
    return enc, [
        Event(kind="info", text=say("{who}'s readied action goes off: {trigger}.", who=c.name, trigger=c.ready))
    ]


def _areas(action) -> int:
    raw = action.flags.get("areas", action.target or 1)
    try:
        areas = int(raw)
    except (TypeError, ValueError):
        raise InvalidInput(say("Give the areas moved as `areas=N`.")) from None
    if not 1 <= areas <= 50:
        raise InvalidInput(say("Move between 1 and 50 areas."))
    return areas


def _move(enc, c, action, chance):
    if not economy.acting(enc, c.id):
        raise NotAllowed(say("{who} moves on their own turn.", who=c.name))
    areas = _areas(action)
    e = c.economy
    if areas > e.pace:
        if e.pace == 0:
            raise NotAllowed(say("{who} has no Pace left this turn.", who=c.name))
        raise NotAllowed(
            say_plural(
                "{who} has only {n} area of Pace left.",
                "{who} has only {n} areas of Pace left.",
                e.pace,
                who=c.name,
                n=e.pace,
            )
        )
    enc = enc.update(c.id, economy=e.but(pace=e.pace - areas))
    moved = dict(who=c.name, n=areas, left=secret(e.pace - areas, c))
    text = say_plural("{who} moves {n} area ({left} left).", "{who} moves {n} areas ({left} left).", areas, **moved)
    return enc, [Event(kind="info", text=text)]


def _stand(enc, c, action, chance):
    if not c.has("Prone"):
        raise InvalidInput(say("{who} is not Prone.", who=c.name))
    if not economy.acting(enc, c.id):
        raise NotAllowed(say("{who} stands up on their own turn.", who=c.name))
    if cond.pace(c) == 0:
        raise NotAllowed(
            say(
                "{who}'s Pace is 0: they are stuck on the ground unless a power helps them up (then remove Prone "
                "with /condition remove and note the power with /encounter note).",
                who=c.name,
            )
        )
    cost = (cond.pace(c) + 1) // 2
    e = c.economy
    if cost > e.pace:
        raise NotAllowed(
            say("Standing up costs {cost} areas of Pace; {who} has {pace}.", cost=cost, who=c.name, pace=e.pace)
        )
    enc = enc.with_combatant(cond.remove(c, "Prone").but(economy=e.but(pace=e.pace - cost)))
    return enc, [
        Event(
            kind="info",
            text=say(
                "{who} stands up ({cost} areas of Pace; {left} left).",
                who=c.name,
                cost=secret(cost, c),
                left=secret(e.pace - cost, c),
            ),
        )
    ]


def _prone(enc, c, action, chance):
    enc = enc.with_combatant(cond.add(c, Condition(name="Prone", since_turn=enc.turn_no)))
    return enc, [Event(kind="info", text=say("{who} drops prone.", who=c.name))]


def _second_wind(enc, c, action, chance):
    enc = economy.spend(enc, c, "action") if c.unleashed and not c.second_wind_used else enc
    return modes.second_wind(enc, enc.get(c.id), chance)


_ACTIONS = {
    "assist": _assist,
    "dash": _dash,
    "demanding": _demanding,
    "disengage": _disengage,
    "dodge": _dodge,
    "hide": _hide,
    "ready": _ready,
    "trigger": _trigger,
    "move": _move,
    "stand": _stand,
    "stand up": _stand,
    "prone": _prone,
    "second wind": _second_wind,
}
