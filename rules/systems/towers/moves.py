"""Every non-attack action of the action list, with its cost and effect."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.commands import integer
from rules.errors import InvalidInput
from rules.model import Event
from rules.said import EMPTY, N_, Text, say, seq, term
from rules.secrets import secret
from rules.usertext import listed, quoted, user_text

from .acting import acted, forced_delay, leap_first, used_free
from .attack import ask_flip, asks, spend_mana
from .companions import alongside, pair
from .costs import FREE, SHIFT_ADDED, SHIFT_WORDS, VARIES, ActionType, action_type, adds_shift
from .damage import heal
from .grapple import (
    THROW,
    THROW_WORDS,
    Thrown,
    aim_throw,
    escape,
    initiate,
    land_throw,
    restrain,
    reverse,
    slam,
    squeeze,
)
from .modifiers import ATTACK_WORDS, DEFENSE_WORDS, defense_base, defense_mods
from .stance import STANCE_WORDS
from .stance import choose as choose_stance

if TYPE_CHECKING:
    from rules.randomness import Chance

    from .actions import Act
    from .model import TowersCombatant, TowersEncounter
    from .system import TowersSystem


def act(system: TowersSystem, enc: TowersEncounter, action: Act, chance: Chance):
    kind = action_type(action.what)
    me = enc.find(action.actor or "")
    flags = action.flags
    if kind.key == "stance":
        enc, text = choose_stance(enc, me, flags, action.target)
        return enc, [Event(kind="info", text=text)]
    if kind.key == "discard chip":
        return used_free(enc, me.id), [Event(kind="info", text=_chip_for(enc, me, action.target, flags))]
    if kind.cost == FREE and kind.key not in ("hold", "release"):
        label = term(kind.label)
        if isinstance(flags.get("text"), str):
            line = say("{who}: {action} (free): {text}.", who=me.name, action=label, text=user_text(flags["text"]))
        else:
            line = say("{who}: {action} (free).", who=me.name, action=label)
        return used_free(enc, me.id), [Event(kind="info", text=line)]
    leap_first(enc, me, kind.key)
    if kind.key == "hold":
        return system.turns.hold(system, enc, me, chance)
    events: list[Event] = []
    if kind.key == "forced delay":
        enc, events = forced_delay(enc, me)
    cost = _cost(kind, flags, action)
    if cost == 0:
        enc = used_free(enc, me.id)
    enc = enc.update(me.id, flat_footed=False)  # acting now: no longer flat-footed
    me = enc.get(me.id)
    if kind.key == "throw":
        plan, aimed = aim_throw(enc, me, action.target, flags, chance)
        target = enc.get(plan.target) if plan.target else None
        if target is not None and asks(system, enc, target):
            return _ask_throw(enc, plan.but(cost=cost), target, aimed)
        enc, text = land_throw(enc, plan, chance, [aimed])
    elif kind.key in CONTESTS:
        enc, text = CONTESTS[kind.key](enc, me, action, chance)
    else:
        enc, text = EFFECTS.get(kind.key, _nothing)(enc, me, action)
    return _done(system, enc, me, kind, flags, cost, text, events, chance)


def _done(
    system: TowersSystem,
    enc: TowersEncounter,
    me: TowersCombatant,
    kind: ActionType,
    flags: dict,
    cost: int,
    text: Text,
    events: list[Event],
    chance: Chance,
):
    """An action's effect is said: it is spent, and the clock moves on."""
    enc = acted(enc, me.id, kind.key)
    label = term(kind.label)
    if kind.key == "running leap":
        label = say("Running Leap, the leap") if me.leaping else say("Running Leap, the run")
    if adds_shift(flags):
        label = say("Shift Position + {action}", action=label)
    # Each effect says its whole line, the actor's name in it.
    events += [Event(kind="info", text=text)] if text else []
    if kind.key in ALONG:
        enc, more = _move_along(enc, me, kind.key)
        events += more
    after, more = system.turns.advance(system, enc, me.id, cost, chance, what=seq(label, f" ({cost})"))
    return after, events + more


def _ask_throw(enc: TowersEncounter, plan: Thrown, target: TowersCombatant, line: Text):
    """A player character in the space flips their own PD, as against an attack (attack.ask): the throw
    lands, and the thrower's clock moves, once they have (`thrown`)."""
    me, victim = enc.get(plan.thrower), enc.get(plan.victim)
    base, label = defense_base(target, "pd")
    mods = defense_mods(target, me, THROW, plan.flags)
    incoming = say(
        "{thrower} throws {victim} into your space at {total} (hits on a tie: both knocked prone)",
        thrower=me.name,
        victim=victim.name,
        total=plan.attack.total,
    )
    enc, shown = ask_flip(enc, target, base, label, mods, incoming, "throw", {"throw": plan.model_dump(mode="json")})
    lead = say(
        "{who}: Throw {victim} at {target}: {flip}.", who=me.name, victim=victim.name, target=target.name, flip=line
    )
    return enc, [Event(kind="roll", text=lead), shown]


def thrown(system: TowersSystem, enc: TowersEncounter, plan: Thrown, chance: Chance):
    """A Throw once the player character in the space has flipped PD (the PA flip was shown when it asked)."""
    enc, text = land_throw(enc, plan, chance, [])
    me = enc.get(plan.thrower)
    return _done(system, enc, me, action_type("throw"), plan.flags, plan.cost, text, [], chance)


def _chip_for(enc: TowersEncounter, me: TowersCombatant, name: str | None, flags: dict) -> Text:
    """ "Either you or your companion may benefit": the chip heals the one named, of the pair. How much it
    heals is in the chapter on Fate and Chance, which the seed does not hold: the GM heals it with /heal."""
    healed = enc.find(name) if name else me
    mine = pair(enc, me)
    if healed.id not in {c.id for c in mine}:
        raise InvalidInput(
            say("A chip {who} discards heals only {names}.", who=me.name, names=listed(c.name for c in mine))
        )
    label = term(action_type("discard chip").label)
    text = user_text(flags["text"]) if isinstance(flags.get("text"), str) else None
    if healed.id == me.id and text is None:
        return say("{who}: {action} (free): how much it heals is the GM's call (/heal).", who=me.name, action=label)
    if healed.id == me.id:
        return say(
            "{who}: {action} (free): {text}. How much it heals is the GM's call (/heal).",
            who=me.name,
            action=label,
            text=text,
        )
    if text is None:
        return say(
            "{who}: {action} (free), for {healed}: how much it heals is the GM's call (/heal).",
            who=me.name,
            action=label,
            healed=healed.name,
        )
    return say(
        "{who}: {action} (free), for {healed}: {text}. How much it heals is the GM's call (/heal).",
        who=me.name,
        action=label,
        healed=healed.name,
        text=text,
    )


def _move_along(enc: TowersEncounter, me: TowersCombatant, key: str) -> tuple[TowersEncounter, list[Event]]:
    """ "When you opt for a Combat Move or Reckless Move action, both you and your companion move. One of
    you must complete their movement before the other begins": the others of the pair who can act move
    the same way, after the mover, at no cost of their own."""
    events = []
    for other in alongside(enc, me):
        if key == "reckless move":
            enc = enc.update(other.id, reckless=True)
            line = say(
                "{who} moves too, after {first}: up to double Speed, (flip−1) on opposed checks until next acting.",
                who=other.name,
                first=me.name,
            )
        else:
            line = say("{who} moves too, up to Speed, after {first}.", who=other.name, first=me.name)
        enc = acted(enc, other.id, key)
        events.append(Event(kind="info", text=line))
    return enc, events


def _cost(kind: ActionType, flags: dict, action: Act) -> int:
    cost = kind.cost
    if kind.cost == VARIES:
        if "cost" not in flags:
            raise InvalidInput(say('Use a Skill: the GM sets the cost, e.g. options:"cost=5".'))
        cost = integer(flags["cost"], "cost", 0, 100)
    elif kind.key == "stand" and "cost" in flags:
        # A good Acrobatics check makes standing quicker, never slower.
        cost = integer(flags["cost"], "cost", 0, kind.cost)
    if adds_shift(flags):
        if not kind.can_add_shift or cost == 0:
            raise InvalidInput(say("Shift Position cannot be added to {action}.", action=term(kind.label)))
        cost += SHIFT_ADDED
    return cost


# effects: (enc, combatant, action) -> (enc, the line shown, or EMPTY) --------------


def _nothing(enc, me, action):
    detail = action.flags.get("text") or action.target
    if not (isinstance(detail, str) and detail):
        return enc, EMPTY
    label = term(action_type(action.what).label)
    return enc, say("{who}: {action}: {detail}.", who=me.name, action=label, detail=user_text(detail))


def _aim(enc, me: TowersCombatant, action):
    stat = "sa" if action.flags.get("sa") or action.flags.get("spell") else "pa"
    limit = getattr(me.sheet, stat) // 2
    aim = me.aim + 1 if me.aim_stat == stat else 1
    numbers = dict(who=me.name, stat=term(stat.upper()), value=getattr(me.sheet, stat), limit=limit)
    if limit == 0:
        raise InvalidInput(say("{who} cannot aim: half {stat} {value} is {limit}.", **numbers))
    if aim > limit:
        raise InvalidInput(say("{who} cannot aim again: at most half {stat} {value} = {limit} in a row.", **numbers))
    line = say("{who} aims: (flip+{aim}) on the next {stat} attack.", who=me.name, aim=aim, stat=term(stat.upper()))
    return enc.update(me.id, aim=aim, aim_stat=stat), line


def _recover(enc, me, action):
    after, _ = heal(me, stun=me.sheet.endurance)

    def n(value: int) -> Text:
        return secret(value, me)

    if after.stun - me.stun < me.sheet.endurance:
        template = N_("{who} recovers STUN = Endurance {endurance}: STUN {was} → {now}/{most} (the maximum).")
    else:
        template = N_("{who} recovers STUN = Endurance {endurance}: STUN {was} → {now}/{most}.")
    text = say(
        template,
        who=me.name,
        endurance=n(me.sheet.endurance),
        was=n(me.stun),
        now=n(after.stun),
        most=n(me.sheet.stun),
    )
    return enc.with_combatant(after), text


def _drop_prone(enc, me, action):
    return enc.update(me.id, prone=True), say("{who} drops prone.", who=me.name)


def _stand(enc, me, action):
    if not me.prone:
        raise InvalidInput(say("{who} is not prone.", who=me.name))
    return enc.update(me.id, prone=False), say("{who} stands up.", who=me.name)


def _move(enc, me, action):
    if action.flags.get("prone"):
        return enc.update(me.id, prone=True), say("{who} moves and drops prone at the end (free).", who=me.name)
    return enc, say("{who} moves up to Speed.", who=me.name)


def _reckless(enc, me, action):
    line = say("{who} moves up to double Speed: (flip−1) on opposed checks until next acting.", who=me.name)
    return enc.update(me.id, reckless=True), line


def _full_defense(enc, me, action):
    text = say(
        "{who} goes on Full Defense: (flip+1) on defence flips and no other action until next acting.", who=me.name
    )
    return enc.update(me.id, full_defense=True), text


def _leap(enc, me, action):
    if me.leaping:
        return enc.update(me.id, leaping=False), say(
            "{who} leaps up to Speed over open spaces (lands, or falls).", who=me.name
        )
    line = say("{who} runs up to Speed in a straight line; the leap comes when next acting.", who=me.name)
    return enc.update(me.id, leaping=True), line


def _shake(enc, me, action):
    minor = [c for c in me.conditions if c.minor]
    name = action.flags.get("condition") or action.target
    if isinstance(name, str) and name:
        chosen = [c for c in minor if c.name.casefold() == name.casefold()]
        if not chosen:
            raise InvalidInput(say("{who} has no minor condition {name}.", who=me.name, name=quoted(name)))
    elif len(minor) == 1:
        chosen = minor
    elif not minor:
        raise InvalidInput(say("{who} has no minor condition to shake.", who=me.name))
    else:
        raise InvalidInput(say("Name the condition to shake: {names}.", names=listed(c.name for c in minor)))
    gone = chosen[0]
    left = tuple(c for c in me.conditions if c is not gone)
    return enc.update(me.id, conditions=left), say("{who} shakes off {what}.", who=me.name, what=term(gone.name))


def _grapple(enc, me, action, chance):
    return initiate(enc, me, action.target, chance)


def _escape(enc, me, action, chance):
    return escape(enc, me, chance)


def _restrain(enc, me, action, chance):
    return restrain(enc, me, action.target)


def _squeeze(enc, me, action, chance):
    return squeeze(enc, me, action.target, chance)


def _slam(enc, me, action, chance):
    return slam(enc, me, action.target, chance)


def _reverse(enc, me, action, chance):
    return reverse(enc, me, chance)


def _cast(enc, me, action):
    enc, spent = spend_mana(enc, me, action.flags)
    detail = action.flags.get("spell") or action.target
    named = isinstance(detail, str) and detail
    if named and spent:
        return enc, say("{who} casts {spell} ({mana}).", who=me.name, spell=user_text(detail), mana=spent)
    if named:
        return enc, say("{who} casts {spell}.", who=me.name, spell=user_text(detail))
    if spent:
        return enc, say("{who} casts a spell ({mana}).", who=me.name, mana=spent)
    return enc, say("{who} casts a spell.", who=me.name)


EFFECTS = {
    "aim": _aim,
    "recover": _recover,
    "drop prone": _drop_prone,
    "stand": _stand,
    "combat move": _move,
    "reckless move": _reckless,
    "full defense": _full_defense,
    "running leap": _leap,
    "shake condition": _shake,
    "cast": _cast,
}
# The moves a companion and its master make together (see companions.py).
ALONG = ("combat move", "reckless move")
CONTESTS = {
    "initiate grapple": _grapple,
    "escape": _escape,
    "restrain": _restrain,
    "squeeze": _squeeze,
    "slam": _slam,
    "reverse grapple": _reverse,
}

# The `options:` words an action's cost and effect read, other than Shift Position's and `text`.
OWN_WORDS = {
    "aim": ("sa", "spell"),
    "stand": ("cost",),
    "use skill": ("cost",),
    "combat move": ("prone",),
    "shake condition": ("condition",),
    "cast": ("mana", "spell"),
    "throw": (*THROW_WORDS, *ATTACK_WORDS, *DEFENSE_WORDS),
}


def words(kind: ActionType) -> tuple[str, ...]:
    """The `options:` words `act` reads for an action that is neither an attack nor a Release (the
    commands build those), as it goes: a stance, a Hold (none), another free action (its `text`),
    or an action with a cost."""
    if kind.key == "stance":
        return STANCE_WORDS
    if kind.key == "hold":
        return ()
    if kind.cost == FREE:
        return ("text",)
    told = (
        () if kind.key in EFFECTS or kind.key in CONTESTS or kind.key == "throw" else ("text",)
    )  # `_nothing` tells it
    return (*SHIFT_WORDS, *OWN_WORDS.get(kind.key, ()), *told)
