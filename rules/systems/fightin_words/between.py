"""Fightin' Words between fights: wounds (and what a called shot did where),
morale penalties and lasting conditions outlive a fight; days of sleep or in
bed heal wounds ("Healing"), a calm hour clears morale penalties ("Morale").
The unconscious wake after 1d4 hours per wound, rolled once and counted down
over the rests; the dying rest not at all until they are stabilised."""

from __future__ import annotations

from typing import Any

from rules.between import dead_rest, heading, outcome, refuse_dead, set_value
from rules.errors import InvalidInput
from rules.randomness import Chance
from rules.said import N_, joined, say, say_plural, term
from rules.system import Adjustable, Rest, Resting, RestOption, chosen_names
from rules.text import Raw, Text
from rules.usertext import listed

from .conditions import canonical, mobility_penalties
from .model import HIGH, MOBILITY, Condition, Fighter, Sheet
from .sheet import minimum_toughness, minimum_will, pair, toughness, will
from .tables import FIRST_DYING_DC, MAX_MOBILITY_PENALTIES
from .wounds import heal_spots, located

# conditions that can outlast the fight; the rest belong to its seconds and rounds. Mobility penalties are
# counted (`mobility_penalties`): a `conditions` list that names them sets the count.
LASTING = (N_("mobility penalty"), N_("disabled"), N_("confused"), N_("unconscious"))

# The hours each rest lasts, which an unconscious character's waking time counts down.
HOURS = {"sleep": 24, "bedridden": 24, "calm_hour": 1}
WAKING = "waking_in"  # hours still to pass before an unconscious character wakes, once rolled
DYING_DC = "dying_dc"  # kept only while the character is dying
_WAKING_DICE = (
    "for each unconscious character in the order given whose waking time is not yet rolled and may be "
    "longer than the rest: 1d4 per wound"
)

_INFECTED = RestOption(key="infected", help=N_("characters whose poison or disease afflicts wounds: they do not heal"))
RESTS = {
    "sleep": Rest(
        key="sleep",
        label=N_("A day with eight hours' sleep"),
        rule="“Characters heal one wound every day that they spend with at least eight hours of sleep […]”",
        dice=_WAKING_DICE,
        options=(_INFECTED,),
    ),
    "bedridden": Rest(
        key="bedridden",
        label=N_("A day bedridden"),
        rule="“[…] and a number of wounds equal to their Endurance score every day that they spend bedridden.”",
        dice=_WAKING_DICE,
        options=(_INFECTED,),
    ),
    "calm_hour": Rest(
        key="calm_hour",
        label=N_("A calm hour"),
        rule="“If a character goes for a full, relatively calm hour without taking any morale penalties, "
        "he removes all morale penalties.”",
        dice=_WAKING_DICE,
    ),
}

ADJUSTABLE = {
    N_("wounds"): Adjustable(key="wounds", help=N_("wounds (each: Toughness −1)"), minimum=0, maximum=50),
    N_("locations"): Adjustable(
        key="locations", kind="list", help=N_("what located wounds still do, e.g. `arm: cannot carry objects`")
    ),
    N_("morale_penalties"): Adjustable(
        key="morale_penalties", help=N_("morale penalties (each: Will −1)"), minimum=0, maximum=30
    ),
    N_("mobility_penalties"): Adjustable(
        key="mobility_penalties",
        help=N_("mobility penalties (each: −1 Acrobatics, Athletics, Wrestle, Stealth, −½ square of speed)"),
        minimum=0,
        maximum=MAX_MOBILITY_PENALTIES,
    ),
    N_("conditions"): Adjustable(
        key="conditions", kind="list", help=N_("lasting conditions: mobility penalty, disabled, confused, unconscious")
    ),
    N_("dying"): Adjustable(key="dying", kind="bool", help=N_("dying (yes/no)")),
    # Each failed dying check raises the DC for as long as the character is dying, from one fight into the next.
    N_("dying_dc"): Adjustable(
        key=DYING_DC,
        help=N_("a dying character's Endurance check DC (4, +1 per failed check)"),
        minimum=0,
        maximum=6 + HIGH,  # past any Endurance's reach
    ),
    N_("stable"): Adjustable(key="stable", kind="bool", help=N_("stabilised but unconscious (yes/no)")),
    N_("dead"): Adjustable(key="dead", kind="bool", help=N_("dead (yes/no)")),
    # A rest stores the waking time it rolled: declared here, a campaign file's import checks it as a number
    # (an undeclared value must be yes or no there), and the GM may set it as the seed's "1d4 hours per wound".
    N_("waking_in"): Adjustable(
        key=WAKING,
        help=N_("hours until an unconscious character wakes (1d4 per wound, rolled by a rest)"),
        minimum=0,
        maximum=4 * 50,  # 1d4 hours for each of the most wounds `wounds` takes
    ),
}


def lasting(enc, f: Fighter) -> dict[str, Any]:
    state = {
        "wounds": f.wounds,
        "locations": list(f.notes),
        "morale_penalties": f.morale_penalties,
        "mobility_penalties": f.mobility_penalties,
        "conditions": [c.name for c in f.conditions if c.name in LASTING and c.rounds is None],
        "dying": f.dying,
        "stable": f.stable,
        "dead": f.dead,
    }
    if f.dying:
        state[DYING_DC] = f.dying_dc
    return state


def carry_in(f: Fighter, state: dict[str, Any]) -> Fighter:
    refuse_dead(f.name, state)
    names = [name for name in state.get("conditions", ()) if name in LASTING and name != MOBILITY]
    conditions = tuple(Condition(name=name) for name in names)
    kept = tuple(c for c in f.conditions if c.name not in {x.name for x in conditions})
    return f.but(
        wounds=int(state.get("wounds", 0)),
        notes=tuple(state.get("locations", ()))[-6:],
        morale_penalties=int(state.get("morale_penalties", 0)),
        mobility_penalties=_mobility(state),
        dying=bool(state.get("dying", False)),
        stable=bool(state.get("stable", False)),
        # a DC the failed checks did not raise is the campaign's first (on the fighter as it joins)
        dying_dc=int(state.get(DYING_DC, f.dying_dc)) if state.get("dying") else f.dying_dc,
        conditions=kept + conditions,
    )


def _mobility(state: dict[str, Any]) -> int:
    """The mobility penalties carried; one stored before they were counted is a condition in the list."""
    return int(state.get("mobility_penalties", 0)) + list(state.get("conditions", ())).count(MOBILITY)


def fit(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> dict[str, Any]:
    """The lasting state as a fight reads it: mobility penalties stored as `conditions` entries (before they
    were counted) in the count, and each other condition once, as /campaign adjust keeps them."""
    if "conditions" not in state:
        return dict(state)
    state = state | {"conditions": [_named(c) for c in state["conditions"]]}
    fitted = state | {"conditions": list(dict.fromkeys(c for c in state["conditions"] if c != MOBILITY))}
    if MOBILITY in state["conditions"]:
        fitted["mobility_penalties"] = min(MAX_MOBILITY_PENALTIES, _mobility(state))
    return fitted


def _named(condition: str) -> str:
    """A listed condition by the name the bot keeps it under (a file may write `Mobility Penalty`)."""
    try:
        return canonical(condition)
    except InvalidInput:
        return condition


def _dying_dc(state: dict[str, Any]) -> int:
    """The DC a dying character's failed checks raised; a new dying starts again at the first."""
    return int(state.get(DYING_DC, FIRST_DYING_DC)) if state.get("dying") else FIRST_DYING_DC


def rest(system, kind, characters, campaign, options, chance, settings):
    chosen = system.rest_kind(kind)
    infected = chosen_names(options, "infected", characters) if chosen.options else set()
    results = []
    for r in characters:
        if r.lasting.get("dying") and not r.lasting.get("dead"):
            # A dying character checks Endurance every round: no rest can wait on that.
            line = say(
                "{who} is dying and cannot rest: stabilise them first (Medicine, then set `dying` to no "
                "and `stable` to yes).",
                who=r.name,
            )
            results.append((dict(r.lasting), line))
            continue
        state, woke, rolled = _wake(r, HOURS[chosen.key], chance)
        r = r.but(lasting=state)
        if chosen.key == "calm_hour":
            state, text = _calm(r)
        else:
            amount = 1 if chosen.key == "sleep" else max(0, _sheet(r.sheet).endurance)
            state, text = _heal(r, amount, r.name.casefold() in infected, chosen.key)
        text = joined(" ", [woke, text]) if woke is not None else text
        results.append((state, text, "roll") if rolled else (state, text))
    return outcome(characters, results, campaign, heading(chosen, chance))


def _wake(r: Resting, hours: int, chance: Chance) -> tuple[dict[str, Any], Text | None, bool]:
    """An unconscious (or stabilised) character's waking: "1d4 hours per wound it has taken",
    rolled the first time a rest may be shorter than that, then counted down by each rest's hours.
    The new lasting state, what to say (None: nobody to wake), and whether dice were rolled."""
    state = dict(r.lasting)
    out = state.get("stable") or "unconscious" in state.get("conditions", ())
    if state.get("dead") or not out:
        state.pop(WAKING, None)
        return state, None, False
    wounds = max(0, int(state.get("wounds", 0)))
    left = state.get(WAKING)
    if left is None and 4 * wounds <= hours:
        # Even four hours a wound is over within this rest: no roll can change the outcome.
        if not wounds:
            return _woken(state), say("{who} wakes up.", who=r.name), False
        return (
            _woken(state),
            say("{who} wakes up within {most} h (1d4 h per wound).", who=r.name, most=4 * wounds),
            False,
        )
    roll = None
    if left is None:
        roll = chance.roll(f"{wounds}d4")
        left = roll.total
    left = int(left) - hours
    if left <= 0:
        if roll is None:
            return _woken(state), say("{who} wakes up.", who=r.name), False
        return _woken(state), say("{who} wakes up: 1d4 h per wound, {roll} h.", who=r.name, roll=Raw(str(roll))), True
    state[WAKING] = left
    if roll is None:
        return state, say("{who} is still unconscious: wakes in {left} h.", who=r.name, left=left), False
    line = say(
        "{who} is still unconscious: 1d4 h per wound, {roll} h; wakes in {left} h.",
        who=r.name,
        roll=Raw(str(roll)),
        left=left,
    )
    return state, line, True


def _woken(state: dict[str, Any]) -> dict[str, Any]:
    state = {k: v for k, v in state.items() if k != WAKING}
    if state.get("stable"):
        state["stable"] = False
    if "unconscious" in state.get("conditions", ()):
        state["conditions"] = [c for c in state["conditions"] if c != "unconscious"]
    return state


def _sheet(sheet: dict[str, Any]) -> Sheet:
    return Sheet(**sheet)


def _fighter(sheet: dict[str, Any], state: dict[str, Any]) -> Fighter:
    return Fighter(
        id="c0",
        name="-",
        sheet=_sheet(sheet),
        wounds=int(state.get("wounds", 0)),
        morale_penalties=int(state.get("morale_penalties", 0)),
    )


def _wounds(n: int) -> Text:
    return say_plural("{n} wound", "{n} wounds", n, n=n)


def _penalties(n: int) -> Text:
    return say_plural("{n} morale penalty", "{n} morale penalties", n, n=n)


def _heal(r, amount: int, infected: bool, key: str) -> tuple[dict[str, Any], Text]:
    if dead := dead_rest(r):
        return dead
    state = dict(r.lasting)
    had = int(state.get("wounds", 0))
    if not had and not state.get("locations"):
        return state, say("{who} has no wounds to heal.", who=r.name)
    if infected:
        # "the character does not heal naturally": not even a located effect that came with no wound
        line = say(
            "{who}'s poison or disease afflicts wounds: no wound heals ({wounds}).", who=r.name, wounds=_wounds(had)
        )
        return state, line
    left = max(0, had - amount)
    state["wounds"] = left
    healed_spots, state["locations"] = heal_spots(state.get("locations", ()), left)
    spots = joined("; ", [located(spot) for spot in healed_spots])
    if not had:
        # only located effects that came with no wound (a hand's −1 to attacks), which any healing ends
        return state, say("{who} has no wounds to heal; healed: {spots}.", who=r.name, spots=spots)
    f = _fighter(r.sheet, state)
    healed = dict(
        who=r.name,
        healed=_wounds(had - left),
        left=_wounds(left),
        toughness=pair(toughness(f), minimum_toughness(f)),
    )
    if key == "sleep" and healed_spots:
        text = say("{who} heals {healed}: {left} left, Toughness {toughness}; healed: {spots}.", spots=spots, **healed)
    elif key == "sleep":
        text = say("{who} heals {healed}: {left} left, Toughness {toughness}.", **healed)
    elif healed_spots:
        text = say(
            "{who} heals {healed} (Endurance {n}): {left} left, Toughness {toughness}; healed: {spots}.",
            n=_sheet(r.sheet).endurance,
            spots=spots,
            **healed,
        )
    else:
        text = say(
            "{who} heals {healed} (Endurance {n}): {left} left, Toughness {toughness}.",
            n=_sheet(r.sheet).endurance,
            **healed,
        )
    return state, text


def _calm(r) -> tuple[dict[str, Any], Text]:
    if dead := dead_rest(r, N_("a calm hour")):
        return dead
    state = dict(r.lasting)
    had = int(state.get("morale_penalties", 0))
    if not had:
        return state, say("{who} has no morale penalties.", who=r.name)
    state["morale_penalties"] = 0
    # insanity's confusion lasts "until at least one morale penalty has been removed"
    conditions = list(state.get("conditions", ()))
    state["conditions"] = [c for c in conditions if c != "confused"]
    f = _fighter(r.sheet, state)
    removed = dict(who=r.name, removed=_penalties(had), will=pair(will(f), minimum_will(f)))
    if "confused" in conditions:
        return state, say("{who} removes {removed}: Will {will}; no longer Confused.", **removed)
    return state, say("{who} removes {removed}: Will {will}.", **removed)


def lines(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> list[Text]:
    f = _fighter(sheet, state)
    out: list[Text] = []
    if state.get("dead"):
        out.append(say("Dead"))
    elif state.get("dying") and _dying_dc(state) > FIRST_DYING_DC:
        out.append(say("Dying (DC {dc})", dc=_dying_dc(state)))
    elif state.get("dying"):
        out.append(say("Dying"))
    elif state.get("stable"):
        out.append(say("Stable, unconscious"))
    if state.get(WAKING) and not state.get("dead"):
        out.append(say("Wakes in {n} h", n=state[WAKING]))
    out.append(
        say(
            "{wounds}: Toughness {toughness}",
            wounds=_wounds(f.wounds),
            toughness=pair(toughness(f), minimum_toughness(f)),
        )
    )
    if state.get("locations"):
        out.append(say("Located wounds: {spots}", spots=joined("; ", [located(spot) for spot in state["locations"]])))
    if f.morale_penalties:
        out.append(
            say(
                "{penalties}: Will {will}",
                penalties=_penalties(f.morale_penalties),
                will=pair(will(f), minimum_will(f)),
            )
        )
    if mobility := _mobility(state):
        out.append(mobility_penalties(mobility))
    if conditions := [c for c in state.get("conditions", ()) if c != MOBILITY]:
        out.append(say("Conditions: {conditions}", conditions=listed(term(c) for c in conditions)))
    return out


def adjust(sheet: dict[str, Any], state: dict[str, Any], key: str, value: str, npc: bool = False) -> dict[str, Any]:
    state = fit(sheet, state, npc)  # mobility penalties stored in the list before they were counted: counted
    new = set_value(N_("Them's Fightin' Words"), ADJUSTABLE, state, key, value, _entries)
    if MOBILITY in new.get("conditions", ()):
        # Set as "mobility penalty, mobility penalty": each one listed is a penalty, and the list is the count.
        new["mobility_penalties"] = min(MAX_MOBILITY_PENALTIES, new["conditions"].count(MOBILITY))
        new["conditions"] = [c for c in new["conditions"] if c != MOBILITY]
    if any(new.get(k) != state.get(k) for k in ("dying", "stable", "dead", "conditions")):
        # A waking time belongs to the unconsciousness it was rolled for, not to the next one.
        new.pop(WAKING, None)
    if state.get("dying") and not new.get("dying"):
        # Stabilised: the DC the failed checks raised goes; dying again starts at 4.
        new.pop(DYING_DC, None)
    return new


def _entries(key: str, items: list[str]) -> list[str]:
    if key != "conditions":
        return [i[:120] for i in items]
    names = [canonical(i) for i in items]
    bad = [n for n in names if n not in LASTING]
    if bad:
        raise InvalidInput(
            say(
                "{condition} does not last between fights. Lasting conditions: {lasting}.",
                condition=term(bad[0]),
                lasting=listed(term(c) for c in LASTING),
            )
        )
    # mobility penalties stack: each one named counts
    return [n for n in names if n == MOBILITY] + list(dict.fromkeys(n for n in names if n != MOBILITY))
