"""Frozen Lands' checks from a stored character's sheet (`/check`), in a fight or between fights.

A check is the fight's roll: the skill's (or attribute's) d6 pool (`moves.skill_pool`), the stress
dice of the Stress the character carries, each 6 a success (`pools.roll`), Fear taking successes
away, and the stress dice's 6s (WP) and 1s (a condition, else +1 Stress) settled by the seed's
level rule (`pools.settle_stress`). What that changes is the character's new lasting state.

The seed names two checks with a cost of their own: disengaging ("You need one success for each
enemy close to you. If you fail, you take one Stress") and acting out of turn ("roll an AWARENESS
check [...] If you fail the check you get a point of Stress"). It has no push and no reroll.
"""

from __future__ import annotations

from typing import Any

from ...commands import integer
from ...errors import InvalidInput, NotAllowed, Stale
from ...randomness import Chance
from ...said import N_, Text, joined, say, say_plural, seq, term
from ...system import CheckKind, CheckOutcome, CheckRequest, Resting, known_options, yes_no
from ...turns.tracks import TrackState
from ...usertext import mark
from . import between, health, pools
from .model import FrozenCombatant, FrozenEncounter, Sheet, Zone
from .moves import skill_pool

DISENGAGE = "disengage"
OUT_OF_TURN = "out_of_turn"
MAX_NEEDED = 20  # successes a check or a `/save` may need (its `dc`)
CHECKER = "checker"
DIM = "dim"  # the one zone feature that changes a check's pool (Perception)

KINDS = (
    CheckKind(key="melee", label=N_("Melee"), help=N_("Melee dice, e.g. a block; stress 1s: Exhaustion")),
    CheckKind(key="marksmanship", label=N_("Marksmanship"), help=N_("Marksmanship dice; stress 1s: Exhaustion")),
    CheckKind(key="mobility", label=N_("Mobility"), help=N_("Mobility dice: dodge, stand up, jump, clutter")),
    CheckKind(key="athletics", label=N_("Athletics"), help=N_("Athletics dice, e.g. a jump; stress 1s: Exhaustion")),
    CheckKind(key="perception", label=N_("Perception"), help=N_("Perception dice (dim light −2); stress 1s: Dazed")),
    CheckKind(key="stealth", label=N_("Stealth"), help=N_("Stealth dice; stress 1s: Exhaustion")),
    CheckKind(key="survival", label=N_("Survival"), help=N_("Survival dice; stress 1s: Dazed")),
    CheckKind(key="lore", label=N_("Lore"), help=N_("Lore dice; stress 1s: Dazed")),
    CheckKind(key="healing", label=N_("Healing"), help=N_("Healing dice, e.g. First Aid; stress 1s: Dazed")),
    CheckKind(key="persuasion", label=N_("Persuasion"), help=N_("Persuasion dice, e.g. Intimidate; stress 1s: Fear")),
    CheckKind(key="body", label=N_("BODY"), help=N_("BODY dice; stress 1s: Exhaustion")),
    CheckKind(key="agility", label=N_("AGILITY"), help=N_("AGILITY dice; stress 1s: Exhaustion")),
    CheckKind(key="mind", label=N_("MIND"), help=N_("MIND dice; stress 1s: Dazed")),
    CheckKind(key="awareness", label=N_("AWARENESS"), help=N_("AWARENESS dice; stress 1s: Dazed")),
    CheckKind(key="soul", label=N_("SOUL"), help=N_("SOUL dice; stress 1s: Fear")),
    CheckKind(key=DISENGAGE, label=N_("Disengage"), help=N_("Mobility, dc = close enemies; failure: +1 Stress")),
    CheckKind(key=OUT_OF_TURN, label=N_("Out of turn"), help=N_("AWARENESS, 1 success; failure: +1 Stress"), dc=False),
)
LABELS = {kind.key: kind.label for kind in KINDS}
# What each check rolls, by its key: a skill or an attribute, as `moves.skill_pool` reads it.
ROLLS = {kind.key: kind.key for kind in KINDS} | {DISENGAGE: "mobility", OUT_OF_TURN: "awareness"}


def check(request: CheckRequest, chance: Chance) -> CheckOutcome:
    kind = request.kind
    modifier, dim = _options(request)
    need = _need(kind, request.dc)
    table = _table(request, _checker(request.who), dim)
    before = table.get(CHECKER)
    if kind in (DISENGAGE, OUT_OF_TURN) and before.broken:
        raise NotAllowed(say("{who} is broken and cannot act.", who=before.name))
    pool, attribute = skill_pool(table, before, ROLLS[kind], modifier)
    result = pools.roll(table, before, pool, chance)
    after, notes, broke = pools.settle_stress(before, result, attribute)
    passed = result.successes >= need
    roll = result.text(pool, after)
    line: Text
    if kind == OUT_OF_TURN:
        line = pools.with_notes(say("{who} tries to act out of turn: {roll}", who=after.name, roll=roll), notes)
        if not passed:
            # The failed check's Stress is owed even when a condition past level 3 breaks the character too.
            after = after.stressed(1)
        if broke:
            if not passed:
                line = seq(line, "; ", say("+1 Stress ({stress})", stress=after.stress))
            after, injured = _broken(after)
            line = seq(line, "; ", injured)
        elif passed:
            line = seq(line, "; ", say("success: acts before the action it interrupts (one of the 3 actions)."))
        else:
            line = seq(line, "; ", say("failure: +1 Stress ({stress}).", stress=after.stress))
        return _outcome(request, before, after, line)
    if kind == DISENGAGE:
        label = say_plural(
            "{who} disengages from {n} close enemy",
            "{who} disengages from {n} close enemies",
            need,
            who=after.name,
            n=need,
        )
        rolled = dict(label=label, roll=roll, need=need)
        if passed:
            line = say("{label}: {roll}, needs {need} → success", **rolled)
        else:
            line = say("{label}: {roll}, needs {need} → failure", **rolled)
            after = after.stressed(1)
            notes = [*notes, say("+1 Stress ({stress})", stress=after.stress), say("an extra action to move")]
    else:
        rolled = dict(who=after.name, roll=roll, need=need)
        if passed:
            line = say("{who} rolls {roll}, needs {need} → success", **rolled)
        else:
            line = say("{who} rolls {roll}, needs {need} → failure", **rolled)
    line = pools.with_notes(line, notes)
    if broke:
        after, injured = _broken(after)
        return _outcome(request, before, after, seq(line, "; ", injured))
    return _outcome(request, before, after, seq(line, "."))


def check_again(request: CheckRequest, memo: dict[str, Any], offer: str, chance: Chance) -> CheckOutcome:
    raise Stale(say("A Frozen Lands check offers nothing afterwards: the seed has no push and no reroll."))


def _options(request: CheckRequest) -> tuple[int, bool]:
    """(modifier, dim light) from `options:"modifier=-1 dim"`; anything else is refused with the list."""
    known = ("modifier", DIM) if ROLLS[request.kind] == "perception" else ("modifier",)
    known_options(request.options, known, term(LABELS[request.kind]))
    given = request.options.get("modifier")
    # A bare `modifier` has no number: refused like any other word that is not one.
    modifier = 0 if given is None else integer("" if given is True else given, "modifier", -20, 20)
    dim = request.options.get(DIM)
    return modifier, dim is not None and (dim is True or yes_no(DIM, dim))


def _need(kind: str, dc: int | None) -> int:
    """The successes a check needs: `dc`, else the seed's one ("If the check succeeds")."""
    if kind == OUT_OF_TURN:
        if dc is not None:
            raise InvalidInput(say("An out-of-turn check takes no dc: it needs one success."))
        return 1
    if kind == DISENGAGE and dc is None:
        raise InvalidInput(
            say("A disengage check needs dc: the number of enemies at close range, one Mobility success each.")
        )
    need = 1 if dc is None else dc
    if need < 1:
        raise InvalidInput(say("A roll needs at least 1 success."))
    # As `/save` takes it: a check past it is a typo that would still roll the stress dice and cost Stress.
    return integer(need, "dc", 1, MAX_NEEDED)


def _checker(who: Resting) -> FrozenCombatant:
    """The stored character as a fight would hold it, from its sheet and what it carries."""
    if who.npc:
        raise NotAllowed(say("Enemies have no skills to roll: the GM decides."))
    fresh = FrozenCombatant(
        id=CHECKER,
        name=who.name,
        controller_id=who.owner_id,
        side="heroes",
        npc=False,
        sheet=Sheet.model_validate(who.sheet),
    )
    return between.carry_in(fresh, who.lasting)


def _table(request: CheckRequest, checker: FrozenCombatant, dim: bool) -> FrozenEncounter:
    """An encounter holding the checker alone, with the campaign's settings, so that the fight's own
    pool and dice code rolls the check; `dim` puts the checker in a dimly lit zone."""
    zones = (Zone(name=DIM, features=(DIM,)),) if dim else ()
    return FrozenEncounter(
        system="frozen-lands",
        gm_id=0,
        turns=TrackState(),
        rng_state=0,
        options=dict(request.settings),
        combatants=(checker.but(zone=DIM if dim else ""),),
        zones=zones,
    )


def _broken(checker: FrozenCombatant) -> tuple[FrozenCombatant, Text]:
    """A condition past level 3: broken, and a Wound whose critical injury the GM records."""
    checker = health.break_with_injury(checker)
    broken = say(
        "{who} is {broken} and suffers a critical injury (Wounds {wounds})",
        who=checker.name,
        broken=health.BROKEN,
        wounds=checker.wounds,
    )
    # The adjustment replaces the whole list: the hint spells out the injuries it must keep.
    hint = say(
        'GM: roll on your critical injuries table and record it with /campaign adjust character:"{who}" '
        'key:injuries value:"{injuries}" (the whole list, one injury per Wound).',
        who=checker.name,
        injuries=joined(", ", [*map(mark, checker.injuries), say("<result>")]),
    )
    return checker, seq(broken, "; ", hint)


def _outcome(request: CheckRequest, before: FrozenCombatant, after: FrozenCombatant, line: Text) -> CheckOutcome:
    """The check's line, and the new lasting state when the check changed it (undone by /campaign undo)."""
    was = request.who.lasting | between.lasting(None, before)
    now = request.who.lasting | between.lasting(None, after)
    return CheckOutcome(lines=(line,), lasting=now if now != was else None)
