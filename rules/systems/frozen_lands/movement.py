"""Moving between zones: disengaging, standing up, jumping, zone features."""

from __future__ import annotations

from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...randomness import Chance
from ...secrets import secret
from ...usertext import listed, mark, quoted
from . import pools
from .actions import Move, StandUp
from .economy import spend
from .model import FrozenCombatant, FrozenEncounter

FEATURES = {
    "cluttered": "cluttered",
    "dim": "dim",
    "dimly_lit": "dim",
    "dimly-lit": "dim",
    "dark": "dim",
    "cramped": "cramped",
}


def close_enemies(enc: FrozenEncounter, combatant: FrozenCombatant) -> list[FrozenCombatant]:
    return [
        enc.get(c)
        for c in combatant.engaged
        if any(x.id == c for x in enc.combatants) and not enc.get(c).out and enc.get(c).enemy != combatant.enemy
    ]


def _check(enc, mover, skill: str, need: int, chance: Chance, label: str):
    """One roll needing `need` successes: (mover, passed, text, broke)."""
    attribute = "athletics" if skill == "athletics" else "mobility"
    pool = pools.Pool(
        ((skill.capitalize(), getattr(mover.sheet, skill)),), "body" if attribute == "athletics" else "agility"
    )
    result = pools.roll(enc, mover, pool, chance)
    mover, notes, broke = pools.settle_stress(mover, result, pool.attribute)
    passed = result.successes >= need
    text = f"{label}: {result.text(pool, mover)}, needs {need} → {'success' if passed else 'failure'}"
    return mover, passed, text + "".join(f"; {n}" for n in notes), broke


def move(enc: FrozenEncounter, action: Move, chance: Chance):
    mover = enc.find(action.actor)
    destination = " ".join(action.to.split())
    if not destination:
        raise InvalidInput('Say where to move: options:"to=<zone>".')
    zone = enc.zone(destination)
    if enc.zones and zone is None:
        raise InvalidInput(
            f"There is no zone called {mark(destination[:30])}. Zones: {listed(z.name for z in enc.zones)}."
        )
    destination = zone.name if zone else destination
    if mover.zone and mover.zone.casefold() == destination.casefold():
        raise InvalidInput(f"{mover.name} is already in {destination}.")
    if mover.enemy:
        return _arrive(enc, mover, destination, [f"{mover.name} moves to {destination}"], chance)
    close = action.close if action.close is not None else len(close_enemies(enc, mover))
    if close < 0:
        raise InvalidInput("The number of close enemies cannot be negative.")
    mover = spend(enc, mover, "move")
    texts = [f"{mover.name} moves to {destination}"]
    broke = False
    if close:
        mover, passed, text, broke = _check(
            enc, mover, "mobility", close, chance, f"disengage from {close} close enem{'y' if close == 1 else 'ies'}"
        )
        texts.append(text)
        if not passed:
            mover = mover.but(stress=mover.stress + 1)
            texts.append(f"+1 Stress ({secret(mover.stress, mover)})")
            if mover.actions_left < 1:
                texts.append("no action left for the extra move: stays put")
                return _stay(enc, mover, texts, broke)
            mover = mover.but(actions_left=mover.actions_left - 1)
            texts.append(f"an extra action to get away ({mover.actions_left} left)")
    if mover.prone:
        mover, passed, text, more = _check(enc, mover, "mobility", 1, chance, "stand up and move")
        broke = broke or more
        texts.append(text)
        mover = mover.but(prone=False)
        if not passed:
            texts.append("stands up but does not get away")
            return _stay(enc, mover, texts, broke)
    if action.jump:
        skill = action.jump.casefold()
        if skill not in ("athletics", "mobility"):
            raise InvalidInput("Jump with `athletics` or `mobility`.")
        mover, passed, text, more = _check(enc, mover, skill, 1, chance, "jump")
        broke = broke or more
        texts.append(text)
        if not passed:
            texts.append("the jump fails: stays put")
            return _stay(enc, mover, texts, broke)
    return _arrive(enc, mover, destination, texts, chance, broke)


def _stay(enc, mover, texts, broke):
    enc = enc.with_combatant(mover)
    return _finish(enc, mover.id, texts, broke)


def _arrive(enc, mover, destination, texts, chance, broke=False):
    for other in mover.engaged:
        if any(c.id == other for c in enc.combatants):
            enc = enc.update(other, engaged=tuple(c for c in enc.get(other).engaged if c != mover.id))
    mover = mover.but(zone=destination, engaged=())
    zone = enc.zone(destination)
    if zone and "cluttered" in zone.features and not mover.enemy:
        mover, passed, text, more = _check(enc, mover, "mobility", 1, chance, f"{destination} is cluttered")
        broke = broke or more
        texts.append(text)
        if not passed:
            mover = mover.but(prone=True)
            texts.append("falls: prone")
    if zone and "cramped" in zone.features:
        texts.append(f"{destination} is cramped: crawling only, no heavy weapons")
    return _finish(enc.with_combatant(mover), mover.id, texts, broke)


def _finish(enc, cid, texts, broke):
    from .combat import break_and_injure

    ping: tuple[int, ...] = ()
    text = "; ".join(texts)
    if broke:
        enc, more = break_and_injure(enc, cid)
        text += more
        ping = (enc.gm_id,)
    return enc, [Event(kind="roll", text=text + ".", ping=ping)]


def stand(enc: FrozenEncounter, action: StandUp, chance: Chance):
    combatant = enc.find(action.actor)
    if not combatant.prone:
        raise NotAllowed(f"{combatant.name} is not prone.")
    combatant = spend(enc, combatant, "stand").but(prone=False)
    return enc.with_combatant(combatant), [Event(kind="info", text=f"{combatant.name} stands up.")]


def parse_features(text: str) -> tuple[str, ...]:
    found: list[str] = []
    for word in text.replace(",", " ").split():
        key = word.strip().casefold()
        if key not in FEATURES:
            raise InvalidInput(f"Unknown zone feature {quoted(word, 20)}: use cluttered, dim or cramped.")
        if FEATURES[key] not in found:
            found.append(FEATURES[key])
    return tuple(found)
