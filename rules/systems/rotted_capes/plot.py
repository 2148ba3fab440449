"""Plot Points: balances, spending (rerolls, aid, narrative uses), awards,
the Editor-in-Chief's pool, and a new Issue."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...said import joined, say, say_plural, seq, term
from ...secrets import secret
from ...text import Text
from ...usertext import one_line
from . import attack as atk
from . import damage as dmg
from .gm import interrupt_save, resolve_damage, resolve_save
from .model import MAX_PLOT_POINTS, LastRoll, RCCombatant, RCEncounter, rc_encounter
from .moves import resolve_hide

USES = {
    "reroll": say("reroll the last d20 check"),
    "reroll damage": say("reroll the last damage roll"),
    "aid": say("aid another"),
    "alter scene": say("alter a scene"),
    "negate flaw": say("negate a triggered flaw"),
    "endure": say("endure"),
    "influence": say("influence events"),
    "break rules": say("break the rules"),
    "narrative": say("shape the story"),
}


def starting(enc: RCEncounter) -> int:
    return int(enc.options.get("starting_plot_points", 1))


def heroes(enc: RCEncounter) -> list[RCCombatant]:
    return [c for c in enc.combatants if c.holds_points and not c.echo_of and not c.environment]


def no_points(c: RCCombatant) -> Text:
    return say("{who} has no Plot Points left.", who=c.name)


def spender(enc: RCEncounter, action, among: frozenset[str] = frozenset()) -> RCCombatant:
    """The named hero, else the sender's first (the first of `among`, the heroes a reroll may be theirs)."""
    if action.actor:
        c = enc.find(action.actor)
    else:
        mine = [c for c in heroes(enc) if c.controller_id == action.by.user_id and not c.out]
        mine = [c for c in mine if c.id in among] or mine
        if not mine:
            raise NotAllowed(say("Name the hero who spends the Plot Point (`actor:`)."))
        c = mine[0]
    if not c.holds_points:
        raise NotAllowed(say("Only heroes hold Plot Points; the GM spends from the pool with /plotpoint pool."))
    if c.plot_points <= 0:
        raise NotAllowed(no_points(c))
    return c


# the values the /plotpoint spend menu sends
ALIASES = {"ignore recovery": "wound recovery", "escape death": "escape death", "reroll_damage": "reroll damage"}


def balances(enc: RCEncounter) -> Text:
    return balance_line(heroes(enc), enc.pool)


def balance_line(held: Sequence[RCCombatant], pool: int) -> Text:
    """/plotpoint show: each hero's Plot Points and the Editor-in-Chief's pool."""
    lines = [seq(c.name, " ", secret(c.plot_points, c)) for c in held]
    shown = joined(", ", lines) if lines else say("no heroes yet")
    line = say("Plot Points: {balances}; the Editor-in-Chief's pool: {pool}.", balances=shown, pool=pool)
    return seq("🎭 ", line)


def show(enc: RCEncounter, action, chance):
    return enc, [Event(kind="info", text=balances(enc))]


def spend(system, enc: RCEncounter, action, chance):
    use = " ".join((action.use or "narrative").lower().replace("_", " ").split())
    use = ALIASES.get(use, use)
    if use == "reroll" and "damage" in (action.text or "").lower():
        use = "reroll damage"
    if use in ("disadvantage", "escape death", "help escape death"):
        raise InvalidInput(
            say(
                "That use is offered with buttons when it applies: during an attack on your hero, or when a hero is "
                "about to die."
            )
        )
    if use == "wound recovery":
        raise InvalidInput(
            say(
                "Wound Recovery is rolled between fights: give `/campaign rest kind:hiatus` the option "
                "`plot_point={who}` to spend a Plot Point on a failed roll.",
                who=action.actor or "…",
            )
        )
    if use not in USES:
        raise InvalidInput(say("Plot Point uses: {uses}.", uses=joined(", ", map(term, USES))))
    rerolled = enc.last_roll if use.startswith("reroll") else None
    hero = spender(enc, action, _rolled_by_or_against(rerolled) if rerolled else frozenset())
    note = one_line(action.text, 300)
    if use.startswith("reroll"):
        return _reroll(system, enc, hero, use == "reroll damage", chance)
    if use == "aid":
        return _aid(enc, hero, action)
    enc = _pay(enc, hero)
    spent = dict(who=hero.name, use=USES[use], left=secret(hero.plot_points - 1, hero), pool=enc.pool)
    if note:
        text = say("{who} spends a Plot Point to {use}: {note} ({left} left; pool {pool}).", note=note, **spent)
    else:
        text = say("{who} spends a Plot Point to {use} ({left} left; pool {pool}).", **spent)
    line = seq("🎭 ", text)
    return enc.but(plot_log=(enc.plot_log + (line,))[-20:]), [Event(kind="info", text=line)]


def _room_for(hero: RCCombatant, n: int) -> None:
    """Refuses `n` more Plot Points for a hero they would take past the most a hero holds: refused, not cut
    down, so no point is lost unseen (an ally's aid stays with the giver; the GM may award fewer), and a
    campaign never holds a balance its own import refuses."""
    if hero.plot_points + n > MAX_PLOT_POINTS:
        raise NotAllowed(
            say(
                "{who} holds {n} Plot Points; a hero holds at most {most}.",
                who=hero.name,
                n=secret(hero.plot_points, hero),
                most=MAX_PLOT_POINTS,
            )
        )


def _pay(enc: RCEncounter, hero: RCCombatant) -> RCEncounter:
    """A spent point goes to the Editor-in-Chief's pool."""
    hero = enc.get(hero.id)
    return enc.update(hero.id, plot_points=hero.plot_points - 1).but(pool=enc.pool + 1)


def _aid(enc, hero, action):
    if not action.target:
        raise InvalidInput(say("Aid another needs a `target`: the ally who receives the Plot Point."))
    ally = enc.find(action.target)
    if not ally.holds_points or ally.id == hero.id:
        raise InvalidInput(say("Aid another gives a Plot Point to another hero."))
    if hero.aided_this_scene:
        raise NotAllowed(say("{who} has already given a Plot Point this scene.", who=hero.name))
    _room_for(ally, 1)
    enc = enc.update(hero.id, plot_points=hero.plot_points - 1, aided_this_scene=True)
    enc = enc.update(ally.id, plot_points=ally.plot_points + 1)
    return enc, [
        Event(
            kind="info",
            text=seq(
                "🎭 ",
                say(
                    "{who} gives a Plot Point to {ally} ({who} {left}, {ally} {now}).",
                    who=hero.name,
                    ally=ally.name,
                    left=secret(hero.plot_points - 1, hero),
                    now=secret(ally.plot_points + 1, ally),
                ),
            ),
        )
    ]


def _reroll(system, enc: RCEncounter, hero, damage_only: bool, chance):
    last = enc.last_roll
    if last is None or last.turn_no != enc.turn_no:
        raise InvalidInput(say("There is no roll to reroll this turn."))
    damage_only = damage_only or last.kind == "damage"
    # "only one Plot Point can be used on any single die roll": an attack's d20 and its damage are two rolls
    attack_damage = damage_only and last.kind == "attack"
    if last.damage_plot_spent if attack_damage else last.plot_spent:
        raise NotAllowed(say("A Plot Point was already spent on that roll: only one per die roll."))
    if last.damage_plot_spent:
        raise NotAllowed(
            say(
                "A Plot Point already rerolled that attack's damage: rerolling its d20 would roll its damage again, "
                "and only one Plot Point goes on any single die roll."
            )
        )
    if hero.id not in _rolled_by_or_against(last):
        raise NotAllowed(
            say(
                "That roll is neither {who}'s nor made against them: to help an ally with their roll, give them a "
                "Plot Point (`use:aid`).",
                who=hero.name,
            )
        )
    if damage_only and not last.damage:
        raise InvalidInput(say("The last roll dealt no damage to reroll."))
    if _without_points(enc.combatants) != _without_points(last.after):
        raise NotAllowed(
            say(
                "Something else happened since the last roll: a Plot Point reroll has to come right after it "
                "(only other Plot Points may be spent in between)."
            )
        )
    # the reroll replaces the old result: go back to just before it, keeping the Plot Points spent or given since
    if last.kind == "initiative":
        # the hero stays; only their place in the order goes back, to be rolled again
        enc = enc.but(turns=last.turns_before)
    else:
        points = {c.id: c for c in enc.combatants}
        restored = tuple(
            c.but(plot_points=points[c.id].plot_points, aided_this_scene=points[c.id].aided_this_scene)
            if c.id in points
            else c
            for c in last.before
        )
        enc = enc.but(combatants=restored, turns=last.turns_before)
    enc = _pay(enc, enc.get(hero.id))
    spent = dict(who=hero.name, left=secret(enc.get(hero.id).plot_points, hero), pool=enc.pool)
    if damage_only:
        text = say("{who} spends a Plot Point to reroll the damage roll ({left} left; pool {pool}).", **spent)
    else:
        text = say("{who} spends a Plot Point to reroll the d20 ({left} left; pool {pool}).", **spent)
    head = Event(kind="info", text=seq("🎭 ", text))
    spec = dict(last.spec)
    spec["plot"] = True
    if last.kind == "attack":
        keep = tuple(spec.get("rolled") or (last.d20,)) if damage_only else None
        enc, events = atk.resolve(system, enc, spec, chance, keep_d20=keep)
    elif last.kind == "damage":
        enc, events = resolve_damage(system, enc, spec, chance)
    elif last.kind == "hide":
        enc, events = resolve_hide(enc, spec, chance)
    elif last.kind == "initiative":
        entered, events = system.turns.enter(system, enc, [last.roller], chance)
        enc = rc_encounter(entered)
    elif spec.get("interrupt"):
        enc, events = interrupt_save(enc, spec["who"], spec["dc"], tuple(spec.get("later", ())), chance)
    else:
        enc, events = resolve_save(enc, spec, chance)
    rolled = enc.last_roll
    if rolled is not None and attack_damage:
        # the d20 kept is still the one it was: a point spent on it stays spent
        enc = enc.but(last_roll=rolled.but(plot_spent=last.plot_spent, damage_plot_spent=True))
    elif rolled is not None:
        enc = enc.but(last_roll=rolled.but(plot_spent=True))
    return enc, [head] + events


def _rolled_by_or_against(last: LastRoll) -> frozenset[str]:
    """Who may spend a Plot Point rerolling a roll: the one who made it and the one it was made against ("any
    d20 check or damage roll" of theirs, a GM's damage on them too). An ally's point reaches it only through aid
    another, "allowing them to spend that Plot Point as if it were theirs"."""
    return frozenset({last.roller, str(last.spec.get("target") or "")}) - {""}


def _without_points(combatants) -> tuple:
    return tuple(c.but(plot_points=0, aided_this_scene=False) for c in combatants)


def award(enc: RCEncounter, action, chance):
    hero = enc.find(action.target)
    if not hero.holds_points:
        raise InvalidInput(say("Plot Points are awarded to heroes."))
    if not 1 <= action.amount <= 10:
        raise InvalidInput(say("Award between 1 and 10 Plot Points."))
    _room_for(hero, action.amount)
    enc = enc.update(hero.id, plot_points=hero.plot_points + action.amount)
    why = one_line(action.text, 200)
    earned = dict(who=hero.name, n=action.amount, now=secret(hero.plot_points + action.amount, hero))
    if why:
        earned["why"] = why
        text = say_plural(
            "{who} earns {n} Plot Point ({why}): now {now}.",
            "{who} earns {n} Plot Points ({why}): now {now}.",
            action.amount,
            **earned,
        )
    else:
        text = say_plural(
            "{who} earns {n} Plot Point: now {now}.", "{who} earns {n} Plot Points: now {now}.", action.amount, **earned
        )
    return enc, [Event(kind="info", text=seq("🎭 ", text), ping=enc.controllers([hero.id]))]


def pool(enc: RCEncounter, action, chance):
    if not 1 <= action.amount <= enc.pool:
        raise NotAllowed(
            say_plural("The pool holds {n} Plot Point.", "The pool holds {n} Plot Points.", enc.pool, n=enc.pool)
        )
    why = one_line(action.text, 200)
    enc = enc.but(pool=enc.pool - action.amount)
    spent = dict(n=action.amount, left=enc.pool)
    if why:
        spent["why"] = why
        text = say_plural(
            "The Editor-in-Chief spends {n} Plot Point from the pool: {why} ({left} left).",
            "The Editor-in-Chief spends {n} Plot Points from the pool: {why} ({left} left).",
            action.amount,
            **spent,
        )
    else:
        text = say_plural(
            "The Editor-in-Chief spends {n} Plot Point from the pool ({left} left).",
            "The Editor-in-Chief spends {n} Plot Points from the pool ({left} left).",
            action.amount,
            **spent,
        )
    return enc, [Event(kind="info", text=seq("🎭 ", text))]


def new_issue(enc: RCEncounter, action, chance):
    n = starting(enc)
    combatants = tuple(c.but(plot_points=n, aided_this_scene=False) if c in heroes(enc) else c for c in enc.combatants)
    emptied = enc.pool if empties_pool(enc.options) else 0
    return enc.but(combatants=combatants, pool=enc.pool - emptied), [Event(kind="info", text=issue_line(n, emptied))]


def empties_pool(settings: dict[str, Any]) -> bool:
    """Whether a new Issue, in a fight (`/plotpoint issue`) or between fights (the `new_issue` rest), empties the
    Editor-in-Chief's pool: "Plot Points are reset to one at the start of each new Issue" says nothing of it,
    and the bot's default (SYSTEMS.md) empties it; a campaign may keep it instead."""
    return bool(settings.get("empty_pool_at_new_issue", True))


def issue_line(n: int, emptied: int) -> Text:
    """A new Issue's line; the pool is named only when it had points to lose."""
    if emptied:
        return seq(
            "📰 ",
            say(
                "A new Issue: every hero's Plot Points reset to {n}; the Editor-in-Chief's pool is emptied "
                "(it held {held}).",
                n=n,
                held=emptied,
            ),
        )
    return seq("📰 ", say("A new Issue: every hero's Plot Points reset to {n}.", n=n))


def resume_death(system, enc: RCEncounter, pending, option, chance):
    cid = pending.context["cid"]
    hero = enc.get(cid)
    if option == dmg.DEATH_BLAZE:
        enc = enc.update(cid, blaze=True)
        return enc, [
            Event(
                kind="info",
                text=seq(
                    "🔥 ",
                    say(
                        "{who} goes out in a blaze of glory: one last action now (an attack is an automatic "
                        "critical), then death. No Plot Point can save them.",
                        who=hero.name,
                    ),
                ),
                ping=enc.controllers([cid]),
            )
        ]
    if option == dmg.DEATH_DIE:
        enc = enc.update(cid, dead=True, out=True)
        return enc, [Event(kind="info", text=seq("☠️ ", say("{who} dies.", who=hero.name)))]
    if option == dmg.DEATH_FLAW:
        if hero.max_wounds <= 1:
            raise NotAllowed(say("{who} has no Wounds left to lose to a flaw.", who=hero.name))
        hero = hero.but(max_wounds=hero.max_wounds - 1, flaws=hero.flaws + 1, wounds=1)
        hero, _ = dmg.settle(hero)
        enc = enc.with_combatant(hero)
        return enc, [
            Event(
                kind="info",
                text=say(
                    "{who} escapes death by accepting a physical flaw: maximum Wounds now {most}; 1 Wound, "
                    "Unconscious.",
                    who=hero.name,
                    most=secret(hero.max_wounds, hero),
                ),
            )
        ]
    # A question stored before options had keys named each ally who pays by its label, kept here.
    givers = pending.context.get("givers") or {}
    giver = hero if option == dmg.DEATH_OWN else enc.get(givers.get(option, option))
    if giver.plot_points <= 0:
        raise NotAllowed(no_points(giver))
    enc = _pay(enc, giver)
    hero, _ = dmg.settle(enc.get(cid).but(wounds=1))
    enc = enc.with_combatant(hero)
    if giver.id == cid:
        text = say(
            "A Plot Point saves {who} from death: 1 Wound, Unconscious (pool {pool}).", who=hero.name, pool=enc.pool
        )
    else:
        text = say(
            "A Plot Point from {giver} saves {who} from death: 1 Wound, Unconscious (pool {pool}).",
            giver=giver.name,
            who=hero.name,
            pool=enc.pool,
        )
    return enc, [Event(kind="info", text=seq("🎭 ", text))]
