"""99 Towers between fights: LETHAL, STUN until the character catches their
breath, mana spent and lasting conditions outlive a fight; the seed's
"Healing" gives all STUN back after five minutes and 1 LETHAL per 8 hours
without exertion (which hold five minutes out of combat, so all STUN too)."""

from __future__ import annotations

from typing import Any

from rules.between import at_most_sheet, dead_rest, heading, kept, outcome, refuse_dead, set_value
from rules.errors import InvalidInput
from rules.said import N_, Text, joined, say, seq
from rules.system import Adjustable, Rest
from rules.usertext import listed, mark, quoted

from .grapple import PREFIX
from .model import Condition, TowersCombatant
from .sheet import TowersSheet

TEMPORARY = ("temp_stun", "temp_lethal")

RESTS = {
    "five_minutes": Rest(
        key="five_minutes",
        label=N_("Five minutes out of combat"),
        rule="“If a character is given 5 minutes outside of combat to catch his breath, he will regain all his "
        "STUN.” Mana, which comes back at every zero phase in a fight, is full again too (the bot's default).",
    ),
    "eight_hours": Rest(
        key="eight_hours",
        label=N_("Eight hours without exertion"),
        rule="“LETHAL damage comes back much more slowly. A character gains back 1 point of LETHAL for every "
        "8 hours spent without physical or mental exertion.” Those hours hold five minutes out of combat too: "
        "all STUN (and mana) back as well.",
    ),
}

ADJUSTABLE = {
    N_("lethal"): Adjustable(
        key="lethal", help=N_("LETHAL left (up to the sheet's; below 0 is dying)"), minimum=-1000, maximum=500
    ),
    N_("stun"): Adjustable(key="stun", help=N_("STUN left (up to the sheet's)"), minimum=0, maximum=500),
    N_("mana"): Adjustable(key="mana", help=N_("mana left (up to the sheet's)"), minimum=0, maximum=30),
    N_("temp_stun"): Adjustable(
        key="temp_stun", help=N_("temporary STUN, on top of the sheet's"), minimum=0, maximum=500
    ),
    N_("temp_lethal"): Adjustable(
        key="temp_lethal", help=N_("temporary LETHAL, on top of the sheet's"), minimum=0, maximum=500
    ),
    N_("conditions"): Adjustable(
        key="conditions", kind="list", help=N_("lasting conditions, e.g. `cursed, blinded (minor)`")
    ),
    N_("dead"): Adjustable(key="dead", kind="bool", help=N_("dead (yes/no)")),
}


def lasting(enc, c: TowersCombatant) -> dict[str, Any]:
    kept = [x for x in c.conditions if x.until_phase is None and not x.ongoing and not x.name.startswith(PREFIX)]
    state: dict[str, Any] = {
        "lethal": c.lethal,
        "stun": c.stun,
        "mana": c.mana,
        "conditions": [{"name": x.name, "minor": x.minor} for x in kept],
        "dead": c.out and c.health <= c.death_at,
    }
    # "If you receive temporary STUN or LETHAL, you keep them until they are used."
    for name in TEMPORARY:
        if getattr(c, name):
            state[name] = getattr(c, name)
    return state


def carry_in(c: TowersCombatant, state: dict[str, Any]) -> TowersCombatant:
    refuse_dead(c.name, state | ({"dead": True} if _died(c.sheet, state) else {}))
    v = _view(c.sheet, state)
    conditions = tuple(
        Condition(name=x["name"], minor=bool(x.get("minor", False))) for x in state.get("conditions", ())
    )
    c = c.but(
        lethal=v["lethal"],
        stun=v["stun"],
        mana=v["mana"],
        temp_stun=v["temp_stun"],
        temp_lethal=v["temp_lethal"],
        conditions=c.conditions + conditions,
    )
    return c.but(prone=True) if c.unconscious else c


def _view(sheet: TowersSheet | dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    s = sheet if isinstance(sheet, TowersSheet) else TowersSheet(**sheet)
    return {
        "lethal": min(int(state.get("lethal", s.lethal)), s.lethal),
        "max_lethal": s.lethal,
        "stun": kept(state, "stun", s.stun),
        "max_stun": s.stun,
        "mana": kept(state, "mana", s.mana),
        "max_mana": s.mana,
        "temp_stun": max(0, int(state.get("temp_stun", 0))),
        "temp_lethal": max(0, int(state.get("temp_lethal", 0))),
    }


def fit(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> dict[str, Any]:
    """The lasting state with LETHAL, STUN and mana no higher than the sheet's, as `_view` reads them;
    LETHAL set at −2 × Endurance or below between fights is death, as in a fight."""
    v = _view(sheet, state)
    fitted = state | {key: v[key] for key in ("lethal", "stun", "mana") if key in state}
    return fitted | {"dead": True} if _died(sheet, fitted) else fitted


def _died(sheet: TowersSheet | dict[str, Any], state: dict[str, Any]) -> bool:
    s = sheet if isinstance(sheet, TowersSheet) else TowersSheet(**sheet)
    return "lethal" in state and int(state["lethal"]) <= -2 * s.endurance


def rest(system, kind, characters, campaign, options, chance, settings):
    chosen = system.rest_kind(kind)
    step = _breath if chosen.key == "five_minutes" else _eight_hours
    return outcome(characters, [step(r) for r in characters], campaign, heading(chosen, chance))


def _breath(r) -> tuple[dict[str, Any], Text]:
    if dead := dead_rest(r):
        return dead
    state = dict(r.lasting)
    v = _view(r.sheet, state)
    state["stun"], state["mana"] = v["max_stun"], v["max_mana"]
    text = seq(r.name, ": ", say("STUN {was} → {now}/{most}", was=v["stun"], now=v["max_stun"], most=v["max_stun"]))
    if v["max_mana"]:
        text = seq(text, ", ", say("mana {was} → {now}/{most}", was=v["mana"], now=v["max_mana"], most=v["max_mana"]))
    return state, seq(text, ".")


def _eight_hours(r) -> tuple[dict[str, Any], Text]:
    if dead := dead_rest(r):
        return dead
    state = dict(r.lasting)
    v = _view(r.sheet, state)
    # Eight hours without exertion hold the five minutes out of combat that give all STUN (and mana) back.
    parts: list[Text] = []
    if v["stun"] < v["max_stun"]:
        state["stun"] = v["max_stun"]
        parts.append(say("STUN {was} → {now}/{most}", was=v["stun"], now=v["max_stun"], most=v["max_stun"]))
    if v["mana"] < v["max_mana"]:
        state["mana"] = v["max_mana"]
        parts.append(say("mana {was} → {now}/{most}", was=v["mana"], now=v["max_mana"], most=v["max_mana"]))
    if v["lethal"] < v["max_lethal"]:
        state["lethal"] = v["lethal"] + 1
        parts.append(say("LETHAL {was} → {now}/{most}", was=v["lethal"], now=v["lethal"] + 1, most=v["max_lethal"]))
    if not parts:
        return state, say(
            "{who} has all their LETHAL ({now}/{most}).", who=r.name, now=v["max_lethal"], most=v["max_lethal"]
        )
    return state, seq(r.name, ": ", joined(", ", parts), ".")


def lines(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> list[Text]:
    v = _view(sheet, state)
    dead = bool(state.get("dead"))
    out: list[Text] = [say("Dead")] if dead else []
    out.append(_with_temporary(_lethal_line(v, dead), v["temp_lethal"]))
    # Dead reads dead only: not also dying, disabled, wounded or unconscious.
    if v["stun"] == 0 and not dead:
        line = say("STUN {now}/{most} (unconscious)", now=v["stun"], most=v["max_stun"])
    else:
        line = say("STUN {now}/{most}", now=v["stun"], most=v["max_stun"])
    out.append(_with_temporary(line, v["temp_stun"]))
    if v["max_mana"]:
        out.append(say("Mana {now}/{most}", now=v["mana"], most=v["max_mana"]))
    if state.get("conditions"):
        kept: list[Text] = [
            say("{name} (minor)", name=mark(x["name"])) if x.get("minor") else mark(x["name"])
            for x in state["conditions"]
        ]
        out.append(say("Conditions: {conditions}", conditions=listed(kept)))
    return out


def _lethal_line(v: dict[str, Any], dead: bool) -> Text:
    now, most = v["lethal"], v["max_lethal"]
    if dead:
        return say("LETHAL {now}/{most}", now=now, most=most)
    # Temporary LETHAL above zero lifts a character out of dying or disabled.
    health = now + v["temp_lethal"]
    if health < 0:
        return say("LETHAL {now}/{most} (dying)", now=now, most=most)
    if health == 0:
        return say("LETHAL {now}/{most} (disabled)", now=now, most=most)
    # As in a fight (`TowersCombatant.wounded`): temporary LETHAL that makes up the loss leaves no one wounded.
    if health < most:
        return say("LETHAL {now}/{most} (wounded)", now=now, most=most)
    return say("LETHAL {now}/{most}", now=now, most=most)


def _with_temporary(line: Text, temporary: int) -> Text:
    return seq(line, " ", say("+{n} temporary", n=temporary)) if temporary else line


def adjust(sheet: dict[str, Any], state: dict[str, Any], key: str, value: str, npc: bool = False) -> dict[str, Any]:
    new = _revived(sheet, state, set_value("99 Towers", ADJUSTABLE, state, key, value, _entries))
    return at_most_sheet(new, _view(sheet, {}), ("lethal", "stun", "mana"))


def _revived(sheet: dict[str, Any], old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """`dead` set to no brings the character back dying, one LETHAL above death: left at or below
    −2 × Endurance, `fit` would read death again."""
    if old.get("dead") and not new.get("dead") and _died(sheet, new):
        return new | {"lethal": 1 - 2 * TowersSheet(**sheet).endurance}
    return new


def _entries(key: str, items: list[str]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        minor = item.casefold().endswith("(minor)")
        name = item[: -len("(minor)")].strip() if minor else item
        if not name or name.startswith(PREFIX):
            raise InvalidInput(say("{condition} cannot last between fights.", condition=quoted(item)))
        out.append({"name": name[:40], "minor": minor})
    return out
