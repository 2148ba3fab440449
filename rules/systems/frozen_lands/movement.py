"""Moving between zones: disengaging, standing up, jumping, zone features."""

from __future__ import annotations

from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...randomness import Chance
from ...said import N_, Text, joined, say, say_plural, seq, term
from ...secrets import secret
from ...usertext import listed, mark, one_line, quoted, user_text
from . import pools
from .actions import Move, StandUp
from .combat import break_and_injure
from .economy import spend
from .model import FrozenCombatant, FrozenEncounter

# The words as `options:` reads them (`dimly-lit` is `dimly_lit`), so they are also the zone's option words.
FEATURES = {
    "cluttered": N_("cluttered"),
    "dim": N_("dim"),
    "dimly_lit": N_("dim"),
    # The seed's ranged table has Darkness (−3) apart from dim light: a dark zone is not a dim one.
    "dark": N_("dark"),
    "darkness": N_("dark"),
    "cramped": N_("cramped"),
}


def close_enemies(enc: FrozenEncounter, combatant: FrozenCombatant) -> list[FrozenCombatant]:
    return [
        enc.get(c)
        for c in combatant.engaged
        if any(x.id == c for x in enc.combatants) and not enc.get(c).out and enc.get(c).enemy != combatant.enemy
    ]


def _check(
    enc: FrozenEncounter, mover: FrozenCombatant, skill: str, need: int, chance: Chance, label: Text
) -> tuple[FrozenCombatant, bool, Text, bool]:
    """One roll needing `need` successes: (mover, passed, text, broke). `label` is said."""
    attribute = "athletics" if skill == "athletics" else "mobility"
    pool = pools.Pool(
        ((term(skill.capitalize()), getattr(mover.sheet, skill)),), "body" if attribute == "athletics" else "agility"
    )
    result = pools.roll(enc, mover, pool, chance)
    mover, notes, broke = pools.settle_stress(mover, result, pool.attribute)
    passed = result.successes >= need
    rolled = dict(label=label, roll=result.text(pool, mover), need=need)
    if passed:
        text = say("{label}: {roll}, needs {need} → success", **rolled)
    else:
        text = say("{label}: {roll}, needs {need} → failure", **rolled)
    return mover, passed, pools.with_notes(text, notes), broke


def move(enc: FrozenEncounter, action: Move, chance: Chance):
    mover = enc.actor(action)
    destination = one_line(action.to)
    if not destination:
        raise InvalidInput(say('Say where to move: options:"to=<zone>".'))
    zone = enc.zone(destination)
    if enc.zones and zone is None:
        raise InvalidInput(
            say(
                "There is no zone called {zone}. Zones: {zones}.",
                zone=mark(destination[:30]),
                zones=listed(z.name for z in enc.zones),
            )
        )
    destination = user_text(zone.name) if zone else destination
    if mover.zone and mover.zone.casefold() == destination.casefold():
        raise InvalidInput(say("{who} is already in {zone}.", who=mover.name, zone=destination))
    if mover.enemy:
        return _arrive(
            enc, mover, destination, [say("{who} moves to {zone}", who=mover.name, zone=destination)], chance
        )
    tracked = len(close_enemies(enc, mover))
    close = action.close if action.close is not None else tracked
    if close < 0:
        raise InvalidInput(say("The number of close enemies cannot be negative."))
    # Who stands at close range is the GM's call: a player's count may add enemies, never drop tracked ones.
    if close < tracked and not action.by.is_gm:
        raise NotAllowed(
            say_plural(
                "{who} has {n} enemy at close range: only the GM counts fewer with close=.",
                "{who} has {n} enemies at close range: only the GM counts fewer with close=.",
                tracked,
                who=mover.name,
                n=tracked,
            )
        )
    mover = spend(enc, mover, "move")
    texts: list[Text] = [say("{who} moves to {zone}", who=mover.name, zone=destination)]
    broke = False
    if close:
        label = say_plural("disengage from {n} close enemy", "disengage from {n} close enemies", close, n=close)
        mover, passed, text, broke = _check(enc, mover, "mobility", close, chance, label)
        texts.append(text)
        if not passed:
            mover = mover.stressed(1)
            texts.append(say("+1 Stress ({stress})", stress=secret(mover.stress, mover)))
            if mover.actions_left < 1:
                texts.append(say("no action left for the extra move: stays put"))
                return _stay(enc, mover, texts, broke)
            mover = mover.but(actions_left=mover.actions_left - 1)
            texts.append(say("an extra action to get away ({left} left)", left=mover.actions_left))
    if mover.prone:
        mover, passed, text, more = _check(enc, mover, "mobility", 1, chance, say("stand up and move"))
        broke = broke or more
        texts.append(text)
        mover = mover.but(prone=False)
        if not passed:
            texts.append(say("stands up but does not get away"))
            return _stay(enc, mover, texts, broke)
    if action.jump:
        skill = action.jump.casefold()
        if skill not in ("athletics", "mobility"):
            raise InvalidInput(say("Jump with `athletics` or `mobility`."))
        mover, passed, text, more = _check(enc, mover, skill, 1, chance, say("jump"))
        broke = broke or more
        texts.append(text)
        if not passed:
            texts.append(say("the jump fails: stays put"))
            return _stay(enc, mover, texts, broke)
    return _arrive(enc, mover, destination, texts, chance, broke)


def _stay(
    enc: FrozenEncounter, mover: FrozenCombatant, texts: list[Text], broke: bool
) -> tuple[FrozenEncounter, list[Event]]:
    enc = enc.with_combatant(mover)
    return _finish(enc, mover.id, texts, broke)


def _arrive(
    enc: FrozenEncounter,
    mover: FrozenCombatant,
    destination: str,
    texts: list[Text],
    chance: Chance,
    broke: bool = False,
) -> tuple[FrozenEncounter, list[Event]]:
    for other in mover.engaged:
        if any(c.id == other for c in enc.combatants):
            enc = enc.update(other, engaged=tuple(c for c in enc.get(other).engaged if c != mover.id))
    mover = mover.but(zone=destination, engaged=())
    zone = enc.zone(destination)
    if zone and "cluttered" in zone.features and not mover.enemy:
        label = say("{zone} is cluttered", zone=destination)
        mover, passed, text, more = _check(enc, mover, "mobility", 1, chance, label)
        broke = broke or more
        texts.append(text)
        if not passed:
            mover = mover.but(prone=True)
            texts.append(say("falls: prone"))
    if zone and "cramped" in zone.features:
        texts.append(say("{zone} is cramped: crawling only, no heavy weapons", zone=destination))
    return _finish(enc.with_combatant(mover), mover.id, texts, broke)


def _finish(enc: FrozenEncounter, cid: str, texts: list[Text], broke: bool) -> tuple[FrozenEncounter, list[Event]]:
    ping: tuple[int, ...] = ()
    text = joined("; ", texts)
    if broke:
        enc, more = break_and_injure(enc, cid)
        text = seq(text, "; ", more)
        ping = (enc.gm_id,)
    return enc, [Event(kind="roll", text=seq(text, "."), ping=ping)]


def stand(enc: FrozenEncounter, action: StandUp, chance: Chance):
    combatant = enc.actor(action)
    if not combatant.prone:
        raise NotAllowed(say("{who} is not prone.", who=combatant.name))
    combatant = spend(enc, combatant, "stand").but(prone=False)
    return enc.with_combatant(combatant), [Event(kind="info", text=say("{who} stands up.", who=combatant.name))]


def parse_features(text: str) -> tuple[str, ...]:
    found: list[str] = []
    for word in text.replace(",", " ").split():
        key = word.strip().casefold().replace("-", "_")
        if key not in FEATURES:
            raise InvalidInput(
                say("Unknown zone feature {word}: use cluttered, dim, dark or cramped.", word=quoted(word, 20))
            )
        if FEATURES[key] not in found:
            found.append(FEATURES[key])
    return tuple(found)
