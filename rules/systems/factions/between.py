"""Factions between fights. The seed is silent about time between fights, so
the defaults of SYSTEMS.md ("Between fights") apply, each a campaign setting:
grit comes back when the fight ends, health after a rest. Health, being
incapacitated and (when the setting keeps it) grit outlive the fight, and so
does the faction an NPC the GM kept fought for."""

from __future__ import annotations

from typing import Any

from rules.between import at_most_sheet, dead_rest, heading, kept, outcome, refuse_dead, set_value
from rules.said import N_, joined, say, seq
from rules.system import Adjustable, Option, Rest
from rules.text import Text
from rules.usertext import user_text

from .model import Fighter
from .sheet import FactionsSheet

OPTIONS = {
    "grit_back_after_fight": Option(
        default=True,
        help=N_("Grit comes back in full when a fight ends (the seed is silent; otherwise only a rest restores it)."),
    ),
    "health_back_after_rest": Option(
        default=True,
        help=N_("A rest between fights restores all health (the seed is silent; otherwise the GM heals by hand)."),
    ),
}

RESTS = {
    "rest": Rest(
        key="rest",
        label=N_("Rest"),
        rule="The seed says nothing about time between fights; the bot's default (SYSTEMS.md, campaign settings "
        "`health_back_after_rest` and `grit_back_after_fight`): health back after a rest, grit back at the end "
        "of the fight.",
    ),
}

ADJUSTABLE = {
    N_("health"): Adjustable(key="health", help=N_("health left (up to the sheet's health)"), minimum=0, maximum=999),
    N_("grit"): Adjustable(key="grit", help=N_("grit left (up to the sheet's grit)"), minimum=0, maximum=999),
    N_("incapacitated"): Adjustable(key="incapacitated", kind="bool", help=N_("incapacitated (yes/no)")),
    N_("dead"): Adjustable(key="dead", kind="bool", help=N_("dead (yes/no)")),
    N_("faction"): Adjustable(
        key="faction",
        kind="text",
        help=N_("the faction it joins fights for (a kept NPC keeps the one it last fought for)"),
    ),
}


def lasting(enc, f: Fighter) -> dict[str, Any]:
    # Grit comes back as the fight ends, not before: the end writes what changed since the character joined,
    # so a grit that joined short (a GM adjustment) must read as it joined for its return to be written.
    back = enc.status == "ended" and enc.options.get("grit_back_after_fight", True)
    grit = f.max_grit if back else f.grit
    return {"health": f.health, "grit": grit, "incapacitated": f.incapacitated, "dead": f.dead}


def carry_in(f: Fighter, state: dict[str, Any]) -> Fighter:
    refuse_dead(f.name, state | ({"dead": True} if _died(state) else {}))
    health = kept(state, "health", f.max_health)
    grit = kept(state, "grit", f.max_grit)
    return f.but(
        health=health, health_at_round_start=health, grit=grit, incapacitated=bool(state.get("incapacitated", False))
    )


def _view(sheet: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    s = FactionsSheet(**sheet)
    return {
        "health": kept(state, "health", s.health),
        "max_health": s.health,
        "grit": kept(state, "grit", s.grit),
        "max_grit": s.grit,
    }


def fit(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> dict[str, Any]:
    """The lasting state with health and grit no higher than the sheet's, as `_view` reads them; health
    set to 0 between fights is death, as in a fight."""
    v = _view(sheet, state)
    fitted = state | {key: v[key] for key in ("health", "grit") if key in state}
    return fitted | {"dead": True, "incapacitated": False} if _died(fitted) else fitted


def _died(state: dict[str, Any]) -> bool:
    # "Health 0 is death" (README; the seed's "dies" at 0 health)
    return "health" in state and int(state["health"]) <= 0


def rest(system, kind, characters, campaign, options, chance, settings):
    chosen = system.rest_kind(kind)
    settings = system.settings_for(settings)
    results = [_rest(r, bool(settings.get("health_back_after_rest", True))) for r in characters]
    return outcome(characters, results, campaign, heading(chosen, chance))


def _rest(r, health_back: bool) -> tuple[dict[str, Any], Text]:
    if dead := dead_rest(r):
        return dead
    state = dict(r.lasting)
    v = _view(r.sheet, state)
    parts: list[Text] = []
    if v["grit"] < v["max_grit"]:
        state["grit"] = v["max_grit"]
        parts.append(say("grit back ({grit}/{most})", grit=v["max_grit"], most=v["max_grit"]))
    if health_back:
        if v["health"] < v["max_health"]:
            parts.append(
                say(
                    "health back ({before} → {after}/{most})",
                    before=v["health"],
                    after=v["max_health"],
                    most=v["max_health"],
                )
            )
        state["health"] = v["max_health"]
        if state.get("incapacitated"):
            state["incapacitated"] = False
            parts.append(say("no longer incapacitated"))
    elif v["health"] < v["max_health"]:
        parts.append(
            say(
                "health stays at {health}/{most} (the campaign heals health by hand)",
                health=v["health"],
                most=v["max_health"],
            )
        )
    if not parts:
        return state, say("{who} is already at full health and grit.", who=user_text(r.name))
    return state, seq(user_text(r.name), ": ", joined(", ", parts), ".")


def lines(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> list[Text]:
    v = _view(sheet, state)
    out: list[Text] = [say("Dead")] if state.get("dead") else []
    out.append(say("Health {health}/{most}", health=v["health"], most=v["max_health"]))
    if v["max_grit"]:
        out.append(say("Grit {grit}/{most}", grit=v["grit"], most=v["max_grit"]))
    if state.get("incapacitated"):
        out.append(say("Incapacitated"))
    return out


def adjust(sheet: dict[str, Any], state: dict[str, Any], key: str, value: str, npc: bool = False) -> dict[str, Any]:
    new = _revived(state, set_value("factions", ADJUSTABLE, state, key, value))
    return at_most_sheet(new, _view(sheet, {}), ("health", "grit"))


def _revived(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """`dead` set to no brings the character back with 1 health: left at 0, `fit` would read death again."""
    if old.get("dead") and not new.get("dead") and _died(new):
        return new | {"health": 1}
    return new
