"""Plot Points: balances, spending (rerolls, aid, narrative uses), awards,
the Editor-in-Chief's pool, and a new Issue."""

from __future__ import annotations

from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...secrets import secret
from ...usertext import one_line
from . import attack as atk
from . import damage as dmg
from .gm import resolve_save
from .model import RCCombatant, RCEncounter

USES = {
    "reroll": "reroll the last d20 check",
    "reroll damage": "reroll the last damage roll",
    "aid": "aid another",
    "wound recovery": "ignore a failed Wound Recovery roll",
    "alter scene": "alter a scene",
    "negate flaw": "negate a triggered flaw",
    "endure": "endure",
    "influence": "influence events",
    "break rules": "break the rules",
    "narrative": "a narrative use",
}


def starting(enc: RCEncounter) -> int:
    return int(enc.options.get("starting_plot_points", 1))


def heroes(enc: RCEncounter) -> list[RCCombatant]:
    return [c for c in enc.combatants if c.is_hero and not c.echo_of and not c.environment]


def spender(enc: RCEncounter, action) -> RCCombatant:
    if action.actor:
        c = enc.find(action.actor)
    else:
        mine = [c for c in heroes(enc) if c.controller_id == action.by.user_id and not c.out]
        if not mine:
            raise NotAllowed("Name the hero who spends the Plot Point (`actor:`).")
        c = mine[0]
    if not c.is_hero:
        raise NotAllowed("Only heroes hold Plot Points; the GM spends from the pool with /plotpoint pool.")
    if c.plot_points <= 0:
        raise NotAllowed(f"{c.name} has no Plot Points left.")
    return c


# the values the /plotpoint spend menu sends
ALIASES = {"ignore recovery": "wound recovery", "escape death": "escape death", "reroll_damage": "reroll damage"}


def balances(enc: RCEncounter) -> str:
    lines = [f"{c.name} {secret(c.plot_points, c)}" for c in heroes(enc)]
    return "🎭 Plot Points: " + (", ".join(lines) or "no heroes yet") + f"; the Editor-in-Chief's pool: {enc.pool}."


def show(enc: RCEncounter, action, chance):
    return enc, [Event(kind="info", text=balances(enc))]


def spend(system, enc: RCEncounter, action, chance):
    use = " ".join((action.use or "narrative").lower().replace("_", " ").split())
    use = ALIASES.get(use, use)
    if use == "reroll" and "damage" in (action.text or "").lower():
        use = "reroll damage"
    if use in ("disadvantage", "escape death", "help escape death"):
        raise InvalidInput(
            "That use is offered with buttons when it applies: during an attack on your hero, or when a hero is about "
            "to die."
        )
    if use not in USES:
        raise InvalidInput("Plot Point uses: " + ", ".join(USES) + ".")
    hero = spender(enc, action)
    note = one_line(action.text, 300)
    if use.startswith("reroll"):
        return _reroll(system, enc, hero, use == "reroll damage", chance)
    if use == "aid":
        return _aid(enc, hero, action)
    enc = _pay(enc, hero)
    text = (
        f"🎭 {hero.name} spends a Plot Point to {USES[use]}"
        + (f": {note}" if note else "")
        + f" ({secret(hero.plot_points - 1, hero)} left; pool {enc.pool})."
    )
    return enc.but(plot_log=(enc.plot_log + (text,))[-20:]), [Event(kind="info", text=text)]


def _pay(enc: RCEncounter, hero: RCCombatant) -> RCEncounter:
    """A spent point goes to the Editor-in-Chief's pool."""
    hero = enc.get(hero.id)
    return enc.update(hero.id, plot_points=hero.plot_points - 1).but(pool=enc.pool + 1)


def _aid(enc, hero, action):
    if not action.target:
        raise InvalidInput("Aid another needs a `target`: the ally who receives the Plot Point.")
    ally = enc.find(action.target)
    if not ally.is_hero or ally.id == hero.id:
        raise InvalidInput("Aid another gives a Plot Point to another hero.")
    if hero.aided_this_scene:
        raise NotAllowed(f"{hero.name} has already given a Plot Point this scene.")
    enc = enc.update(hero.id, plot_points=hero.plot_points - 1, aided_this_scene=True)
    enc = enc.update(ally.id, plot_points=ally.plot_points + 1)
    return enc, [
        Event(
            kind="info",
            text=f"🎭 {hero.name} gives a Plot Point to {ally.name} ({hero.name} {secret(hero.plot_points - 1, hero)}, "
            f"{ally.name} {secret(ally.plot_points + 1, ally)}).",
        )
    ]


def _reroll(system, enc: RCEncounter, hero, damage_only: bool, chance):
    last = enc.last_roll
    if last is None or last.turn_no != enc.turn_no:
        raise InvalidInput("There is no roll to reroll this turn.")
    if last.plot_spent:
        raise NotAllowed("A Plot Point was already spent on that roll: only one per die roll.")
    if damage_only and not last.damage:
        raise InvalidInput("The last roll dealt no damage to reroll.")
    if _without_points(enc.combatants) != _without_points(last.after):
        raise NotAllowed(
            "Something else happened since the last roll: a Plot Point reroll has to come right after it "
            "(only other Plot Points may be spent in between)."
        )
    # the reroll replaces the old result: go back to just before it, keeping the Plot Points spent or given since
    points = {c.id: c for c in enc.combatants}
    restored = tuple(
        c.but(plot_points=points[c.id].plot_points, aided_this_scene=points[c.id].aided_this_scene)
        if c.id in points
        else c
        for c in last.before
    )
    enc = enc.but(combatants=restored, turns=last.turns_before)
    enc = _pay(enc, enc.get(hero.id))
    what = "damage roll" if damage_only else "d20"
    head = Event(
        kind="info",
        text=f"🎭 {hero.name} spends a Plot Point to reroll the {what} ({secret(enc.get(hero.id).plot_points, hero)} "
        f"left; pool {enc.pool}).",
    )
    spec = dict(last.spec)
    spec["plot"] = True
    if last.kind == "attack":
        keep = tuple(spec.get("rolled") or (last.d20,)) if damage_only else None
        enc, events = atk.resolve(system, enc, spec, chance, keep_d20=keep)
    else:
        if damage_only:
            raise InvalidInput("A save has no damage roll.")
        enc, events = resolve_save(enc, spec, chance)
    if enc.last_roll is not None:
        enc = enc.but(last_roll=enc.last_roll.but(plot_spent=True))
    return enc, [head] + events


def _without_points(combatants) -> tuple:
    return tuple(c.but(plot_points=0, aided_this_scene=False) for c in combatants)


def award(enc: RCEncounter, action, chance):
    hero = enc.find(action.target)
    if not hero.is_hero:
        raise InvalidInput("Plot Points are awarded to heroes.")
    if not 1 <= action.amount <= 10:
        raise InvalidInput("Award between 1 and 10 Plot Points.")
    enc = enc.update(hero.id, plot_points=hero.plot_points + action.amount)
    why = one_line(action.text, 200)
    text = (
        f"🎭 {hero.name} earns {action.amount} Plot Point{'s' if action.amount > 1 else ''}"
        + (f" ({why})" if why else "")
        + f": now {secret(hero.plot_points + action.amount, hero)}."
    )
    return enc, [Event(kind="info", text=text, ping=enc.controllers([hero.id]))]


def pool(enc: RCEncounter, action, chance):
    if not 1 <= action.amount <= enc.pool:
        raise NotAllowed(f"The pool holds {enc.pool} Plot Point{'s' if enc.pool != 1 else ''}.")
    why = one_line(action.text, 200)
    enc = enc.but(pool=enc.pool - action.amount)
    return enc, [
        Event(
            kind="info",
            text=f"🎭 The Editor-in-Chief spends {action.amount} Plot Point{'s' if action.amount > 1 else ''} from the "
            "pool" + (f": {why}" if why else "") + f" ({enc.pool} left).",
        )
    ]


def new_issue(enc: RCEncounter, action, chance):
    n = starting(enc)
    combatants = tuple(c.but(plot_points=n, aided_this_scene=False) if c in heroes(enc) else c for c in enc.combatants)
    return enc.but(combatants=combatants), [
        Event(kind="info", text=f"📰 A new Issue: every hero's Plot Points reset to {n}.")
    ]


def resume_death(system, enc: RCEncounter, pending, option, chance):
    cid = pending.context["cid"]
    hero = enc.get(cid)
    if option == dmg.DEATH_BLAZE:
        enc = enc.update(cid, blaze=True)
        return enc, [
            Event(
                kind="info",
                text=f"🔥 {hero.name} goes out in a blaze of glory: one last action now (an attack is an automatic "
                "critical), then death. No Plot Point can save them.",
                ping=enc.controllers([cid]),
            )
        ]
    if option == dmg.DEATH_FLAW:
        if hero.max_wounds <= 1:
            raise NotAllowed(f"{hero.name} has no Wounds left to lose to a flaw.")
        hero = hero.but(max_wounds=hero.max_wounds - 1, flaws=hero.flaws + 1, wounds=1)
        hero, _ = dmg.settle(hero)
        enc = enc.with_combatant(hero)
        return enc, [
            Event(
                kind="info",
                text=f"{hero.name} escapes death by accepting a physical flaw: maximum Wounds now "
                f"{secret(hero.max_wounds, hero)}; 1 Wound, Unconscious.",
            )
        ]
    giver = hero if option == dmg.DEATH_OWN else enc.find(option.removesuffix(" spends a Plot Point"))
    if giver.plot_points <= 0:
        raise NotAllowed(f"{giver.name} has no Plot Points left.")
    enc = _pay(enc, giver)
    hero, _ = dmg.settle(enc.get(cid).but(wounds=1))
    enc = enc.with_combatant(hero)
    who = "" if giver.id == cid else f" from {giver.name}"
    return enc, [
        Event(
            kind="info",
            text=f"🎭 A Plot Point{who} saves {hero.name} from death: 1 Wound, Unconscious (pool {enc.pool}).",
        )
    ]
