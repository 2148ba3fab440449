"""Frozen Lands between fights: Stamina, Wounds with their critical injuries,
Stress, WP and the conditions (Exhaustion, Dazed, Fear) outlive a fight.
Resting resets Stress and brings Stamina back; Wounds heal only when the GM
says ("longer periods of resting or magical healing")."""

from __future__ import annotations

from typing import Any

from rules.between import at_most_sheet, dead_rest, heading, kept, outcome, refuse_dead, set_value
from rules.errors import InvalidInput
from rules.said import N_, Text, say, say_plural, seq, term
from rules.system import Adjustable, Rest
from rules.usertext import listed, mark

from .model import MAX_STRESS, FrozenCombatant, Sheet

CONDITIONS = (N_("exhaustion"), N_("dazed"), N_("fear"))

RESTS = {
    "rest": Rest(
        key="rest",
        label=N_("Resting"),
        rule="“After resting, Stress always resets to 0.” "
        "“Stamina is usually recovered by resting or healing […]” "
        "“Wounds require longer periods of resting or magical healing to be restored”: the GM removes them "
        "by hand (`wounds`, `injuries`).",
    ),
}

ADJUSTABLE = {
    N_("stamina"): Adjustable(
        key="stamina",
        help=N_("Stamina left (up to class Stamina + BODY; an enemy's own Stamina)"),
        minimum=0,
        maximum=200,
    ),
    N_("wounds"): Adjustable(key="wounds", help=N_("Wounds"), minimum=0, maximum=50),
    N_("injuries"): Adjustable(
        key="injuries", kind="list", help=N_("critical injuries, one per Wound, from the GM's table")
    ),
    N_("stress"): Adjustable(key="stress", help=N_("Stress"), minimum=0, maximum=MAX_STRESS),
    N_("wp"): Adjustable(key="wp", help=N_("WP"), minimum=0, maximum=99),
    N_("exhaustion"): Adjustable(key="exhaustion", help=N_("Exhaustion level (−1 action each)"), minimum=0, maximum=3),
    N_("dazed"): Adjustable(key="dazed", help=N_("Dazed level (−1 reaction each)"), minimum=0, maximum=3),
    N_("fear"): Adjustable(key="fear", help=N_("Fear level (−1 success each)"), minimum=0, maximum=3),
    N_("dead"): Adjustable(key="dead", kind="bool", help=N_("dead (yes/no)")),
}


def lasting(enc, c: FrozenCombatant) -> dict[str, Any]:
    return {
        "stamina": c.stamina,
        "wounds": c.wounds,
        "injuries": list(c.injuries),
        "stress": c.stress,
        "wp": c.wp,
        "exhaustion": c.exhaustion,
        "dazed": c.dazed,
        "fear": c.fear,
        "dead": c.out,
    }


def most_stamina(sheet: Sheet, npc: bool) -> int:
    """An enemy's sheet gives its Stamina; a character's is class Stamina + BODY."""
    return sheet.stamina if npc else sheet.class_stamina + sheet.body


def carry_in(c: FrozenCombatant, state: dict[str, Any]) -> FrozenCombatant:
    refuse_dead(c.name, state)
    v = _view(c.sheet, state, c.enemy)
    c = c.but(
        stamina=v["stamina"],
        wounds=v["wounds"],
        injuries=tuple(v["injuries"]),
        stress=v["stress"],
        wp=v["wp"],
        exhaustion=v["exhaustion"],
        dazed=v["dazed"],
        fear=v["fear"],
    )
    return c.but(reactions_left=c.max_reactions(), actions_left=c.max_actions())


def _view(sheet: Sheet | dict[str, Any], state: dict[str, Any], npc: bool = False) -> dict[str, Any]:
    s = sheet if isinstance(sheet, Sheet) else Sheet(**sheet)
    full = most_stamina(s, npc)
    view = {
        "stamina": kept(state, "stamina", full),
        "max_stamina": full,
        "wounds": int(state.get("wounds", s.wounds)),
        "injuries": list(state.get("injuries", ())),
        "stress": int(state.get("stress", s.stress)),
        "wp": int(state.get("wp", s.wp)),
        "soul": s.soul,
    }
    return view | {name: int(state.get(name, 0)) for name in CONDITIONS}


def fit(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> dict[str, Any]:
    """The lasting state with Stamina no higher than the sheet's, as `_view` reads it, and a critical injury
    for each Wound at most: a Wound gone (the sheet's carried in edited down) takes the newest."""
    v = _view(sheet, state, npc)
    fitted = state | {"stamina": v["stamina"]} if "stamina" in state else dict(state)
    if len(v["injuries"]) > v["wounds"]:
        fitted["injuries"] = v["injuries"][: v["wounds"]]
    return fitted


def check(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> None:
    """“For each Wound you suffer, roll on the physical critical injuries table”: one injury per Wound, no more.
    A whole state's check: an import reads each injury alone, with no Wounds beside it."""
    v = _view(sheet, state, npc)
    if len(v["injuries"]) > v["wounds"]:
        raise InvalidInput(
            say_plural(
                "`injuries` holds at most {n} critical injury, one per Wound ({n} Wound held).",
                "`injuries` holds at most {n} critical injuries, one per Wound ({n} Wounds held).",
                v["wounds"],
                n=v["wounds"],
            )
        )


def rest(system, kind, characters, campaign, options, chance, settings):
    chosen = system.rest_kind(kind)
    return outcome(characters, [_rest(r) for r in characters], campaign, heading(chosen, chance))


def _rest(r) -> tuple[dict[str, Any], Text]:
    if dead := dead_rest(r, say("resting")):
        return dead
    state = dict(r.lasting)
    v = _view(r.sheet, state, r.npc)
    state["stamina"] = v["max_stamina"]
    if r.npc:
        # An enemy has no Stress, WP or Wounds to speak of: resting brings back its Stamina.
        return state, say(
            "{who}: Stamina {stamina} → {full}/{full}.", who=r.name, stamina=v["stamina"], full=v["max_stamina"]
        )
    state["stress"] = 0
    text = say(
        "{who}: Stress {stress} → 0, Stamina {stamina} → {full}/{full}",
        who=r.name,
        stress=v["stress"],
        stamina=v["stamina"],
        full=v["max_stamina"],
    )
    if v["wounds"]:
        remain = say_plural(
            "{n} Wound remains (the GM heals Wounds)",
            "{n} Wounds remain (the GM heals Wounds)",
            v["wounds"],
            n=v["wounds"],
        )
        return state, seq(text, "; ", remain, ".")
    return state, seq(text, ".")


def lines(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> list[Text]:
    v = _view(sheet, state, npc)
    out: list[Text] = [say("Dead")] if state.get("dead") else []
    stamina = dict(stamina=v["stamina"], most=v["max_stamina"])
    if v["stamina"] == 0:
        out.append(say("Stamina {stamina}/{most} (broken)", **stamina))
    else:
        out.append(say("Stamina {stamina}/{most}", **stamina))
    if not npc:
        out += _hero_lines(v)
    found = [seq(term(name.capitalize()), " ", str(v[name])) for name in CONDITIONS if v[name]]
    if found:
        out.append(say("Conditions: {conditions}", conditions=listed(found)))
    return out


def _hero_lines(v: dict[str, Any]) -> list[Text]:
    """Wounds with their injuries, Stress and WP: a character's, which an enemy does not keep."""
    out: list[Text] = []
    if v["wounds"]:
        injuries = v["injuries"]
        missing = v["wounds"] - len(injuries)
        parts: list[Text | str] = [say("Wounds {wounds}", wounds=v["wounds"])]
        if injuries:
            parts += [": ", listed((mark(i) for i in injuries), "; ")]
        if missing > 0:
            unrecorded = say_plural(
                "{n} critical injury not recorded", "{n} critical injuries not recorded", missing, n=missing
            )
            parts += [" (", unrecorded, ")"]
        out.append(seq(*parts))
    extra = max(0, v["stress"] - v["soul"])
    kept = dict(stress=v["stress"], soul=v["soul"], wp=v["wp"])
    if extra:
        out.append(
            say_plural(
                "Stress {stress} (SOUL {soul}; {dice} stress die), WP {wp}",
                "Stress {stress} (SOUL {soul}; {dice} stress dice), WP {wp}",
                extra,
                dice=extra,
                **kept,
            )
        )
    else:
        out.append(say("Stress {stress} (SOUL {soul}), WP {wp}", **kept))
    return out


def adjust(sheet: dict[str, Any], state: dict[str, Any], key: str, value: str, npc: bool = False) -> dict[str, Any]:
    new = set_value("Frozen Lands", ADJUSTABLE, state, key, value)
    v = _view(sheet, {}, npc)
    if npc:
        at_most_sheet(new, v, ("stamina",))
    elif new.get("stamina", 0) > v["max_stamina"]:
        raise InvalidInput(say("`stamina` can be at most {most} (class Stamina + BODY).", most=v["max_stamina"]))
    wounds = _view(sheet, new)["wounds"]
    if key == "wounds" and len(new.get("injuries", ())) > wounds:
        # A healed Wound takes its critical injury with it, the newest first, as healing in a fight does.
        new["injuries"] = list(new["injuries"])[:wounds]
    return new
