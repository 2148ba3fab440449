"""Rotted Capes between fights: what a hero carries out of a fight (Stamina
until the scene ends, Wounds, flaws, Plot Points, Exhaustion, lasting
conditions), the rests of "Healing and Death" (end of a scene, a Hiatus with
its Wound Recovery roll) and a new Issue; the Editor-in-Chief's pool lives in
the campaign between fights, and a new Issue empties it (the bot's default, a
campaign setting)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...between import heading, kept, refuse_dead, split_entries
from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...said import N_, joined, say, say_plural, seq, term
from ...system import Adjustable, Rest, Resting, RestOption, RestOutcome, chosen_names, whole_number, yes_no
from ...text import EMPTY, Text
from ...usertext import mark, quoted, user_text
from . import conditions as cond
from . import damage as dmg
from .hooks import d20_roll
from .model import MAX_PLOT_POINTS, Condition, RCCombatant, RCEncounter, RCSheet, fresh_state
from .plot import balance_line, empties_pool, issue_line

RECOVERY_DC = 15
DEADLY_EXHAUSTION = 6  # the seed's Exhaustion table: "6 | Death"
ATTRIBUTES = (N_("Strength"), N_("Dexterity"), N_("Constitution"), N_("Intelligence"), N_("Wisdom"), N_("Charisma"))
# gone when the fight is over: where someone stands, who holds them, what burns them this scene
FIGHT_ONLY = cond.DERIVED + ("Exhaustion", "Hidden", "Prone", "Grappled", "Restrained", "Ongoing Damage")

RESTS = {
    "end_scene": Rest(
        key="end_scene",
        label=N_("End of scene"),
        rule="“Heroes are made of stern stuff. So, at the end of a scene, you recover all of your Stamina. "
        "If you are Unconscious at the end of a scene due to stamina loss, assuming you aren't a zombie chow, "
        "you regain half your total Stamina instead.”",
    ),
    "hiatus": Rest(
        key="hiatus",
        label=N_("Hiatus"),
        rule="“You must take one hiatus per Wound you currently have before attempting to recover. […] "
        "After which, "
        "you must make a successful Routine (DC: 15) Constitution saving throw to recover 1 wound; if you fail "
        "this check by 5 or more, things get worse […] roll on the Wound Recovery table […] If someone is "
        "treating you with an appropriate skill set […], you gain advantage on this saving throw.” "
        "“Finishing a Hiatus reduces a creature's exhaustion level by 1, provided the creature has also "
        "ingested some food and drink.”",
        dice="for each hero due a Wound Recovery roll, in the order given: the d20 (two with a medic), "
        "then a d6 for the attribute when the roll fails by 5 or more (1 Strength … 6 Charisma)",
        options=(
            RestOption(key="medic", help=N_("heroes treated by someone with an appropriate skill set (advantage)")),
            RestOption(
                key="plot_point", help=N_("heroes who spend a Plot Point to ignore a failed Wound Recovery roll")
            ),
            RestOption(
                key="flaw",
                help=N_("heroes who, on a natural 1, take a Physical Condition and heal a Wound instead of losing one"),
            ),
            RestOption(key="unfed", help=N_("heroes without food and drink: their Exhaustion stays")),
        ),
    ),
    "new_issue": Rest(
        key="new_issue",
        label=N_("New Issue"),
        rule="“Plot Points are reset to one at the start of each new Issue.” The Editor-in-Chief's pool is emptied "
        "(the bot's default, as `/plotpoint issue` in a fight; the seed does not say; campaign setting "
        "`empty_pool_at_new_issue=false` keeps it).",
    ),
}

ADJUSTABLE = {
    N_("stamina"): Adjustable(
        key="stamina", help=N_("Stamina left (up to the sheet's Stamina)"), minimum=0, maximum=1000
    ),
    N_("wounds"): Adjustable(
        key="wounds",
        help=N_("Wounds left (up to the sheet's Wounds less flaws; 0 with no Stamina is death)"),
        minimum=0,
        maximum=1000,
    ),
    N_("flaws"): Adjustable(
        key="flaws", help=N_("physical flaws accepted to escape death (each: maximum Wounds −1)"), minimum=0, maximum=20
    ),
    N_("plot_points"): Adjustable(key="plot_points", help=N_("Plot Points held"), minimum=0, maximum=MAX_PLOT_POINTS),
    N_("exhaustion"): Adjustable(key="exhaustion", help=N_("Exhaustion level (6 is death)"), minimum=0, maximum=6),
    N_("hiatuses"): Adjustable(
        key="hiatuses", help=N_("Hiatuses taken towards the next Wound Recovery roll"), minimum=0, maximum=100
    ),
    N_("dead"): Adjustable(key="dead", help=N_("dead (yes/no)"), kind="bool"),
    N_("conditions"): Adjustable(
        key="conditions", kind="list", help=N_("lasting conditions, e.g. `Weakened (Strength, Mild), Charmed`")
    ),
    N_("weaknesses"): Adjustable(
        key="weaknesses", kind="list", help=N_("Physical Conditions taken on Wound Recovery rolls")
    ),
    N_("attribute_losses"): Adjustable(
        key="attribute_losses",
        kind="list",
        help=N_("attribute points lost for good, one entry per point, e.g. `Constitution`"),
    ),
}

# The yes/no values kept here that the GM does not set (System.lasting_flags): `unconscious`, a hero at 0 Stamina
# having fallen Unconscious from Stamina loss, for whom the end of a scene gives back half their Stamina, not
# all. The fight writes it (`lasting`), and so do the end of a scene and `stamina` set by hand (`adjust`).
# A campaign file's import refuses any key neither here nor in ADJUSTABLE.
FLAGS: frozenset[str] = frozenset({"unconscious"})


# --- out of a fight and into the next --------------------------------------
def lasting(enc: RCEncounter, c: RCCombatant) -> dict[str, Any]:
    stamina = min(c.stamina, c.sheet.stamina)  # an Unleashed villain's doubled Stamina ends with the fight
    # and so does temporary Stamina: a hero it kept awake at 0 Stamina is Unconscious without it
    spent, _ = dmg.settle(c.but(temp_stamina=0))
    out: dict[str, Any] = {
        "stamina": stamina,
        "unconscious": cond.knocked_out(spent),
        "wounds": c.wounds,
        "flaws": c.flaws,
        "exhaustion": cond.exhaustion(c),
        "conditions": [_keep(x) for x in c.conditions if x.name not in FIGHT_ONLY and x.until == "none"],
        "dead": c.dead,
    }
    if c.holds_points:
        out["plot_points"] = c.plot_points
    return out


def _keep(x: Condition) -> dict[str, Any]:
    return {"name": x.name, "tags": list(x.tags)}


def carry_in(c: RCCombatant, state: dict[str, Any]) -> RCCombatant:
    refuse_dead(c.name, state)
    view = _view(c.sheet, state)
    stamina = view["stamina"]
    c = c.but(stamina=stamina, max_wounds=view["max_wounds"], wounds=view["wounds"], flaws=view["flaws"])
    if c.holds_points and "plot_points" in state:
        c = c.but(plot_points=view["plot_points"])
    for x in _conditions(state):
        c = cond.add(c, x)
    if view["exhaustion"]:
        c = cond.add(c, Condition(name="Exhaustion", level=view["exhaustion"]))
    c, _ = dmg.settle(c)
    return c


def standing(who: Resting, settings: dict[str, Any]) -> RCCombatant:
    """The stored character as it would join a fight: its sheet, then what it carries (Wounds,
    Exhaustion, lasting conditions, Plot Points). A dead character rolls nothing."""
    sheet = RCSheet(**who.sheet)
    fresh = RCCombatant(
        id="check",
        name=who.name,
        controller_id=who.owner_id,
        side="threats" if who.npc else "heroes",
        npc=who.npc,
        companion_of=sheet.companion_of or None,
        plot_points=held_points(who, settings),
        **fresh_state(sheet),
    )
    return carry_in(fresh, who.lasting)


def _conditions(state: dict[str, Any]) -> list[Condition]:
    return [Condition(name=x["name"], tags=tuple(x.get("tags", ()))) for x in state.get("conditions", ())]


def _view(sheet: RCSheet | dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """The lasting state with the sheet filling in what it does not say."""
    sheet = sheet if isinstance(sheet, RCSheet) else RCSheet(**sheet)
    flaws = int(state.get("flaws", 0))
    max_wounds = max(1, sheet.wounds - flaws) if sheet.wounds else 0
    return {
        "stamina": kept(state, "stamina", sheet.stamina),
        "max_stamina": sheet.stamina,
        "unconscious": bool(state.get("unconscious", False)),
        "wounds": kept(state, "wounds", max_wounds),
        "max_wounds": max_wounds,
        "flaws": flaws,
        "flaws_floored": bool(sheet.wounds) and sheet.wounds - flaws < 1,
        "plot_points": state.get("plot_points"),
        "exhaustion": int(state.get("exhaustion", 0)),
        "hiatuses": int(state.get("hiatuses", 0)),
        "dead": bool(state.get("dead", False)),
        "con": sheet.con,
        "zombie": sheet.zombie,
    }


def fit(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> dict[str, Any]:
    """The lasting state with Stamina and Wounds no higher than the sheet holds (its Wounds less flaws),
    as `_view` reads them; Exhaustion 6 is death between fights as in a fight."""
    v = _view(sheet, state)
    fitted = state | {key: v[key] for key in ("stamina", "wounds") if key in state}
    if not _holds_points(sheet, npc):
        # stored on a kept NPC before Plot Points were the players' heroes' alone: a fight gives it none
        fitted.pop("plot_points", None)
    return fitted | {"dead": True} if v["exhaustion"] >= DEADLY_EXHAUSTION else fitted


def campaign_out(enc: RCEncounter) -> dict[str, Any]:
    return {"pool": enc.pool}


def campaign_in(enc: RCEncounter, campaign: dict[str, Any]) -> RCEncounter:
    return enc.but(pool=max(0, int(campaign.get("pool", 0))))


# --- rests -------------------------------------------------------------------
def rest(system, kind: str, characters, campaign, options, chance, settings) -> RestOutcome:
    chosen = system.rest_kind(kind)
    settings = system.settings_for(settings)
    campaign = dict(campaign)
    head = heading(chosen, chance)
    results: list[tuple[dict[str, Any], Text, str]]
    if chosen.key == "end_scene":
        results = [(*_end_scene(r), "info") for r in characters]
    elif chosen.key == "new_issue":
        n = int(settings.get("starting_plot_points", 1))
        # Plot Points are a hero's: a kept villain's resources are the Editor-in-Chief's pool, a companion's
        # its controller's
        results = [
            (
                r.lasting | {"plot_points": n},
                say_plural("{who} has {n} Plot Point.", "{who} has {n} Plot Points.", n, who=user_text(r.name), n=n),
                "info",
            )
            if holds_points(r)
            else (r.lasting, EMPTY, "info")
            for r in characters
        ]
        held = int(campaign.get("pool", 0))
        emptied = held if empties_pool(settings) else 0
        if emptied:
            campaign["pool"] = 0
        head = issue_line(n, emptied)
    else:
        picks = {key.key: chosen_names(options, key.key, characters) for key in chosen.options}
        for r in characters:
            if r.name.casefold() in picks["plot_point"] and not holds_points(r):
                raise NotAllowed(
                    say(
                        "{who} holds no Plot Points of their own: a hero spends theirs, a companion's are its "
                        "controller's.",
                        who=user_text(r.name),
                    )
                )
            if r.name.casefold() in picks["plot_point"] and held_points(r, settings) <= 0:
                raise NotAllowed(
                    say("{who} has no Plot Point to spend on the Wound Recovery roll.", who=user_text(r.name))
                )
        results = []
        for r in characters:
            state, text, spent, rolled = _hiatus(r, picks, chance, settings)
            if spent:
                campaign["pool"] = int(campaign.get("pool", 0)) + spent
            results.append((state, text, "roll" if rolled else "info"))
    events = [Event(kind="info", text=head)] + [Event(kind=kind, text=text) for _, text, kind in results if text]
    rested = tuple(r.but(lasting=state) for r, (state, _, _) in zip(characters, results))
    return RestOutcome(characters=rested, campaign=campaign, events=tuple(events))


def holds_points(r: Resting) -> bool:
    """Plot Points are a hero's own: not a kept NPC's (the pool's) nor a companion's (its controller's)."""
    return _holds_points(r.sheet, r.npc)


def _holds_points(sheet: dict[str, Any], npc: bool) -> bool:
    return not npc and not sheet.get("companion_of")


def plot_points(characters: Sequence[Resting], campaign: Mapping[str, Any], settings: dict[str, Any]) -> Text:
    """/plotpoint show between fights: each stored hero's Plot Points, as the next fight would start it with
    them, and the Editor-in-Chief's pool."""
    # the dead join no next fight (and `standing` refuses them)
    held = [c for c in (standing(r, settings) for r in characters if not r.lasting.get("dead")) if c.holds_points]
    return balance_line(held, int(campaign.get("pool", 0)))


def filled(sheet: dict[str, Any], state: dict[str, Any], npc: bool, settings: dict[str, Any]) -> dict[str, Any]:
    """The lasting state /character show reads: a living hero's Plot Points as /plotpoint show counts them,
    stored or else what the next fight starts them with (the dead start none)."""
    who = Resting(name="", owner_id=0, sheet=sheet, lasting=state, npc=npc)
    living = holds_points(who) and not state.get("dead")
    return state | {"plot_points": held_points(who, settings)} if living else state


def held_points(r: Resting, settings: dict[str, Any]) -> int:
    """A hero's Plot Points between fights: as the last fight or rest left them, else the sheet's, else
    the campaign's starting number (what joining a fight would give them)."""
    points = r.lasting.get("plot_points", r.sheet.get("plot_points"))
    return int(settings.get("starting_plot_points", 1)) if points is None else int(points)


def _end_scene(r) -> tuple[dict[str, Any], Text]:
    v = _view(r.sheet, r.lasting)
    if v["dead"]:
        return r.lasting, say("{who} is dead: the end of a scene changes nothing.", who=user_text(r.name))
    if v["zombie"]:
        return r.lasting, say("{who} has no Stamina to recover.", who=user_text(r.name))
    full = v["max_stamina"]
    knocked = v["unconscious"] and v["stamina"] == 0
    back = cond.scene_stamina(full, knocked)
    if knocked:
        text = say(
            "{who} was Unconscious from Stamina loss: half their total Stamina back ({back}/{full}).",
            who=user_text(r.name),
            back=back,
            full=full,
        )
    else:
        text = say("{who} recovers all of their Stamina ({back}/{full}).", who=user_text(r.name), back=back, full=full)
    return r.lasting | {"stamina": back, "unconscious": back == 0}, text


def _hiatus(r, picks, chance, settings) -> tuple[dict[str, Any], Text, int, bool]:
    """One Hiatus for one hero: (new lasting, what happened, Plot Points spent, whether the
    Wound Recovery roll was made)."""
    v = _view(r.sheet, r.lasting)
    name = user_text(r.name)
    if v["dead"]:
        return r.lasting, say("{who} is dead: a Hiatus changes nothing.", who=name), 0, False
    state = dict(r.lasting)
    notes: list[Text] = []
    if v["exhaustion"]:
        if name.casefold() in picks["unfed"]:
            notes.append(say("Exhaustion stays at {level} (no food and drink)", level=v["exhaustion"]))
        else:
            state["exhaustion"] = v["exhaustion"] - 1
            notes.append(say("Exhaustion {level} → {now}", level=v["exhaustion"], now=v["exhaustion"] - 1))
    taken = v["max_wounds"] - v["wounds"]
    if taken == 0:
        state["hiatuses"] = 0
        return state, seq(say("{who} has no Wounds to recover", who=name), _also(notes), "."), 0, False
    done = v["hiatuses"] + 1
    if done < taken:
        state["hiatuses"] = done
        took = say(
            "{who} takes Hiatus {done} of {taken} (one per Wound they have) before a Wound Recovery roll",
            who=name,
            done=done,
            taken=taken,
        )
        return state, seq(took, _also(notes), "."), 0, False
    state["hiatuses"] = 0
    medic = name.casefold() in picks["medic"]
    # rolled as any Constitution save: the carried conditions (Weakened, Disadvantage), and no Wounded or
    # Exhaustion penalty, which falls on challenges and attacks (Exhaustion's only in Brutal Continuity)
    hero = standing(r.but(lasting=state), settings)
    d20 = d20_roll(hero, "con", chance, ["medic"] if medic else [], settings=settings, save=True)
    total = d20.total
    hiatuses = say_plural("{n} Hiatus", "{n} Hiatuses", taken, n=taken)
    roll: Text = say(
        "{who} CON save (Wound Recovery, {hiatuses} taken): {roll}",
        who=name,
        hiatuses=hiatuses,
        roll=d20.text,
    )
    against = say("= {total} vs DC {dc}", total=total, dc=RECOVERY_DC)
    roll = seq(roll, " ", against, d20.why)
    wounds, max_wounds = v["wounds"], v["max_wounds"]
    if total >= RECOVERY_DC and d20.natural != 1:
        state["wounds"] = wounds + 1
        healed = say("success, 1 Wound recovered ({wounds}/{most} Wounds)", wounds=wounds + 1, most=max_wounds)
        return state, seq(roll, ": ", healed, _also(notes), "."), 0, True
    worse = d20.natural == 1 or RECOVERY_DC - total >= 5
    row = say("natural 1") if d20.natural == 1 else say("failed by {n}", n=RECOVERY_DC - total)
    if not worse:
        failed = say("failure ({row}): no Wound recovered, no further harm", row=row)
        return state, seq(roll, ": ", failed, _also(notes), "."), 0, True
    if name.casefold() in picks["plot_point"]:
        points = held_points(r, settings) - 1
        state["plot_points"] = points
        ignored = dict(row=row, who=name, n=points)
        failed = say_plural(
            "failure ({row}); {who} spends a Plot Point to ignore it: their condition stays unchanged until the "
            "following day ({n} Plot Point left)",
            "failure ({row}); {who} spends a Plot Point to ignore it: their condition stays unchanged until the "
            "following day ({n} Plot Points left)",
            points,
            **ignored,
        )
        return state, seq(roll, ": ", failed, _also(notes), "."), 1, True
    if d20.natural == 1:
        if name.casefold() in picks["flaw"]:
            state["wounds"] = wounds + 1
            state["weaknesses"] = list(state.get("weaknesses", ())) + ["Physical Condition (Wound Recovery)"]
            flaw = say(
                "natural 1; {who} takes on a Physical Condition instead and heals a Wound ({wounds}/{most} Wounds)",
                who=name,
                wounds=wounds + 1,
                most=max_wounds,
            )
            return state, seq(roll, ": ", flaw, _also(notes), "."), 0, True
        state["wounds"] = wounds - 1
        if wounds - 1 <= 0:
            state["dead"] = True
            dies = say(
                "natural 1: an additional Wound; at 0 Wounds {who} succumbs to their injuries and dies.", who=name
            )
            return state, seq(roll, ": ", dies), 0, True
        worsens = say(
            "natural 1: an additional Wound as their condition worsens ({wounds}/{most} Wounds)",
            wounds=wounds - 1,
            most=max_wounds,
        )
        return state, seq(roll, ": ", worsens, _also(notes), "."), 0, True
    die = chance.die(6)
    attribute = ATTRIBUTES[die - 1]
    state["attribute_losses"] = list(state.get("attribute_losses", ())) + [attribute]
    lost = say(
        "failure ({row}): no Wound recovered, and a random attribute score is permanently reduced by 1: d6 {die} → "
        "{attribute} (GM: update the sheet if its modifier changes)",
        row=row,
        die=die,
        attribute=term(attribute),
    )
    return state, seq(roll, ": ", lost, _also(notes), "."), 0, True


def _also(notes: list[Text]) -> Text:
    return seq("; ", joined(", ", notes)) if notes else EMPTY


# --- what the GM sees and sets ---------------------------------------------
def lines(sheet: dict[str, Any], state: dict[str, Any], npc: bool = False) -> list[Text]:
    v = _view(sheet, state)
    out: list[Text] = []
    if v["dead"]:
        out.append(say("Dead"))
    if not v["zombie"]:
        stamina = dict(stamina=v["stamina"], most=v["max_stamina"])
        if v["unconscious"] and v["stamina"] == 0:
            out.append(say("Stamina {stamina}/{most}, Unconscious", **stamina))
        else:
            out.append(say("Stamina {stamina}/{most}", **stamina))
    taken = v["max_wounds"] - v["wounds"]
    wounds: Text = say("Wounds {wounds}/{most}", wounds=v["wounds"], most=v["max_wounds"])
    if taken:
        wounds = seq(
            wounds,
            " ",
            say(
                "(Wounded −{taken}; Hiatuses towards the next Wound Recovery roll: {done} of {taken})",
                taken=taken,
                done=v["hiatuses"],
            ),
        )
    if v["flaws"]:
        flaws = v["flaws"]
        wounds = seq(
            wounds,
            "; ",
            say_plural(
                "{n} physical flaw (maximum Wounds −{n})", "{n} physical flaws (maximum Wounds −{n})", flaws, n=flaws
            )
            if not v["flaws_floored"]
            else say_plural(
                "{n} physical flaw (maximum Wounds −{n}, never below 1)",
                "{n} physical flaws (maximum Wounds −{n}, never below 1)",
                flaws,
                n=flaws,
            ),
        )
    out.append(wounds)
    if v["plot_points"] is not None and _holds_points(sheet, npc):
        out.append(say("Plot Points {n}", n=v["plot_points"]))
    if v["exhaustion"]:
        out.append(say("Exhaustion {level}", level=v["exhaustion"]))
    found = _conditions(state)
    if found:
        out.append(say("Conditions: {conditions}", conditions=joined(", ", (x.label() for x in found))))
    if state.get("weaknesses"):
        weaknesses = joined(", ", (mark(w) for w in state["weaknesses"]))
        out.append(say("Physical Conditions: {conditions}", conditions=weaknesses))
    if state.get("attribute_losses"):
        counts: dict[str, int] = {}
        for name in state["attribute_losses"]:
            counts[name] = counts.get(name, 0) + 1
        lowered = joined(", ", (seq(term(k), f" −{n}") for k, n in counts.items()))
        out.append(say("Attribute scores lowered for good: {attributes}", attributes=lowered))
    return out


_ENTRY = re.compile(r"^\s*([^()]+?)\s*(?:\(([^()]*)\))?\s*$")


def adjust(sheet: dict[str, Any], state: dict[str, Any], key: str, value: str, npc: bool = False) -> dict[str, Any]:
    spec = ADJUSTABLE.get(str(key).strip().lower())
    if spec is None:
        raise InvalidInput(
            say(
                "Rotted Capes keeps no lasting value called {key}. Values: {values}.",
                key=quoted(str(key)),
                values=joined(", ", map(term, ADJUSTABLE)),
            )
        )
    key = spec.key
    if key == "dead":
        return _revived(sheet, state) if not yes_no(key, value) else state | {"dead": True}
    if spec.kind == "bool":
        return state | {key: yes_no(key, value)}
    if spec.kind == "list":
        entries = split_entries(value)
        if key == "conditions":
            return state | {key: [_condition_entry(e) for e in entries]}
        if key == "attribute_losses":
            bad = [e for e in entries if e.capitalize() not in ATTRIBUTES]
            if bad:
                raise InvalidInput(
                    say(
                        "{bad} is not an attribute: {attributes}.",
                        bad=quoted(bad[0]),
                        attributes=joined(", ", map(term, ATTRIBUTES)),
                    )
                )
            return state | {key: [e.capitalize() for e in entries]}
        return state | {key: [e[:80] for e in entries]}
    if key == "plot_points" and not _holds_points(sheet, npc):
        raise InvalidInput(
            say(
                "`plot_points`: this character holds no Plot Points of their own (a companion's are its "
                "controller's, an NPC the GM runs draws on the Editor-in-Chief's pool)."
            )
        )
    number = whole_number(key, value, spec.minimum, spec.maximum)
    v = _view(sheet, state | {key: number} if key == "flaws" else state)
    if key == "wounds" and number > v["max_wounds"]:
        raise InvalidInput(say("`wounds` can be at most {n} (the sheet's Wounds less flaws).", n=v["max_wounds"]))
    if key == "stamina" and number > v["max_stamina"]:
        raise InvalidInput(say("`stamina` can be at most {n} (the sheet's Stamina).", n=v["max_stamina"]))
    new = state | {key: number}
    if key == "stamina":
        new["unconscious"] = number == 0
    after = _view(sheet, new)
    if key in ("stamina", "wounds") and after["wounds"] == 0 and (after["stamina"] == 0 or after["zombie"]):
        new["dead"] = True  # "the hero dies at 0 Wounds and 0 Stamina"; a zombie at 0 Wounds is destroyed
    return new


def _revived(sheet: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """`dead` set to no: the hero is brought back off what killed them (Exhaustion 6 → 5; 0 Wounds → 1),
    or the numbers would say dead again."""
    v = _view(sheet, state)
    revived = state | {"dead": False}
    if v["exhaustion"] >= DEADLY_EXHAUSTION:
        revived["exhaustion"] = DEADLY_EXHAUSTION - 1
    if v["wounds"] == 0 and v["max_wounds"] > 0:
        revived["wounds"] = 1
    return revived


def _condition_entry(text: str) -> dict[str, Any]:
    match = _ENTRY.match(text)
    if not match:
        raise InvalidInput(say("Write a condition as `Name (tag, tag)`, not {text}.", text=quoted(text)))
    name, _ = cond.canonical(match.group(1))
    if name == "Exhaustion":
        raise InvalidInput(say("Exhaustion does not last between fights: set `exhaustion` instead."))
    if name in FIGHT_ONLY:
        raise InvalidInput(say("{condition} does not last between fights.", condition=term(name)))
    return {"name": name, "tags": list(cond.parse_tags(match.group(2)))}
