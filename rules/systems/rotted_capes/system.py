"""The Rotted Capes rule system: sheets, initiative with its tie rules,
turn hooks, commands and what the tracker shows."""

from __future__ import annotations

from typing import Any

from ...commands import base_fields, flags, integer
from ...errors import InvalidInput, NotAllowed, UnknownAction
from ...model import Event
from ...system import Option, System
from ...turns.initiative import Initiative
from . import acts, attack, checks, hooks, modes, plot
from . import conditions as cond
from . import damage as dmg
from . import economy
from .actions import (Act, AddCondition, Attack, Damage, Heal, ListConditions, PlotAward, PlotIssue, PlotPool,
                      PlotShow, PlotSpend, RemoveCondition, Save, Swap)
from .model import RCCombatant, RCEncounter, RCSheet

SUMMARY = """Rotted Capes (the GM is the Editor-in-Chief). Initiative: d20 + dex + init, fixed for the encounter; ties: heroes first (tied heroes may `/act action:swap`), tied threats share one turn. Surprised combatants are Stunned (Lesser, Surprise) until the end of their first turn.
Each turn: Pace (max 5 areas), one Action (/attack or /act assist, dash, demanding, disengage, dodge, hide, ready), one Bonus Action (`bonus` option), one Reaction between turns (an /attack off your turn is a reaction). /attack: d20 + modifier vs Avoidance (or `defense:` Fortitude/Willpower); natural 20 = critical (+1 Wound), natural 1 = miss. Advantage/disadvantage come from tracked state (Dodge, Assist, Demanding, Prone, Blinded, Restrained, Stunned, Frightened, Hidden, Unconscious) plus options: adv, dis, ranged, cover=half, cover=total, same_area, beyond_range, in_melee, unseen, unaware, dark, shadowy (−2), ap (ignores DR), split=N (horde), unleashed.
Damage − the highest applicable DR (psychic ignores DR that does not name psychic, and does nothing to zombies); temporary Stamina absorbs first; damage after DR > Fortitude = massive (1 Wound; critical + massive = 2). Zombies take only massive damage and criticals; Epsilon or lower are destroyed by massive damage. A hero at 0 Wounds and 0 Stamina chooses: a Plot Point, a physical flaw, or a blaze of glory.
Defaults where the book is silent: any advantage plus any disadvantage = a straight roll (setting `advantage=count` nets them); Stamina Defense = Fortitude unless set; massive damage compares damage after DR, before temporary Stamina; Ongoing Damage ticks at the start of the victim's turn (`end` option: at its end) with a DC 10 CON save at the end of each of their turns; Wounded and Exhaustion penalties also apply to saves; "N rounds" counts the bearer's own turns; heroes start an Issue with 1 Plot Point; a new Issue leaves the Editor-in-Chief's pool as it is; the Danger Zone's middle turn sits halfway down the order, its end turn after the lowest initiative."""


class RottedCapes(System):
    key = "rotted-capes"
    name = "Rotted Capes"
    summary = SUMMARY
    encounter_type = RCEncounter
    combatant_type = RCCombatant
    sheet_type = RCSheet
    turns = Initiative()
    options = {
        "starting_plot_points": Option(default=1, help="Plot Points each hero starts an Issue with."),
        "offer_plot_disadvantage": Option(default=True, help="Ask a hero with Plot Points, when a threat attacks them, whether to spend one for disadvantage."),
        "advantage": Option(default="cancel", help="`cancel`: any advantage and any disadvantage give a straight roll; `count`: the reasons net out."),
        "ongoing_dc": Option(default=10, help="Save DC against Ongoing Damage when none is given."),
    }

    # --- sheets and initiative -------------------------------------------------
    def combatant_fields(self, sheet: dict[str, Any], action) -> dict[str, Any]:
        s = RCSheet(**sheet)
        fields: dict[str, Any] = {"sheet": s, "stamina": s.stamina, "max_stamina": s.stamina,
                                  "wounds": s.wounds, "max_wounds": s.wounds}
        if action.surprised:
            fields["conditions"] = (modes.surprise(),)
        return fields

    def make_combatant(self, enc, action, cid, name):
        c = super().make_combatant(enc, action, cid, name)
        if c.is_hero:
            points = c.sheet.plot_points
            c = c.but(plot_points=plot.starting(enc) if points is None else points)
        return c

    def roll_initiative(self, enc, combatant, chance):
        if combatant.fixed_init is not None:
            return (combatant.fixed_init,), f"fixed at {combatant.fixed_init:g}"
        die = chance.die(20)
        bonus = combatant.sheet.dex + combatant.sheet.init
        return (die + bonus,), f"d20 {die} {'+' if bonus >= 0 else '−'} {abs(bonus)} = {die + bonus}"

    def order_ties(self, enc, tied, chance):
        """Heroes before threats, each hero its own turn; tied threats act together."""
        heroes = [e for e in tied if enc.get(e.cid).is_hero]
        threats = [e for e in tied if not enc.get(e.cid).is_hero]
        ordered = [e.but(tiebreak=(1, -i)) for i, e in enumerate(heroes)] + [e.but(tiebreak=(0, 0)) for e in threats]
        slots = [[e.cid] for e in heroes] + ([[e.cid for e in threats]] if threats else [])
        events = []
        newest = enc.combatants[-1].id if enc.combatants else None
        if len(heroes) > 1 and any(e.cid == newest for e in heroes):
            names = ", ".join(enc.get(e.cid).name for e in heroes)
            events.append(Event(kind="info", text=f"Tied heroes ({names}) may agree on their order with /act action:swap."))
        return ordered, slots, events

    def can_act(self, enc, c) -> bool:
        if c.out or c.passing:
            return False
        if c.echo_of:
            return self.can_act(enc, enc.get(c.echo_of))
        if cond.helpless(c) and not c.blaze:
            return any(x.until != "none" or x.name == "Ongoing Damage" for x in c.conditions)
        return True

    # --- hooks ----------------------------------------------------------------
    def on_turn_start(self, enc, cid, chance):
        return hooks.turn_start(self, enc, cid, chance)

    def on_turn_end(self, enc, cid, chance):
        return hooks.turn_end(self, enc, cid, chance)

    def on_round_start(self, enc, chance):
        return hooks.round_start(enc), []

    def on_round_end(self, enc, chance):
        return hooks.round_end(enc)

    def resume_plot_disadvantage(self, enc, pending, option, chance):
        return attack.resume_plot(self, enc, pending, option, chance)

    def resume_death(self, enc, pending, option, chance):
        return plot.resume_death(self, enc, pending, option, chance)

    def resume_interrupt(self, enc, pending, option, chance):
        return checks.resume_interrupt(enc, pending, option, chance)

    # --- actions --------------------------------------------------------------
    def handlers(self):
        return {
            Attack: lambda e, a, c: attack.declare(self, e, a, c),
            Act: lambda e, a, c: acts.act(self, e, a, c),
            Swap: self.swap,
            Damage: lambda e, a, c: checks.damage(self, e, a, c),
            Heal: checks.heal,
            Save: checks.save,
            AddCondition: checks.add_condition,
            RemoveCondition: checks.remove_condition,
            ListConditions: checks.list_conditions,
            PlotShow: plot.show,
            PlotSpend: lambda e, a, c: plot.spend(self, e, a, c),
            PlotAward: plot.award,
            PlotPool: plot.pool,
            PlotIssue: plot.new_issue,
        }

    def swap(self, enc, action, chance):
        """Tied heroes trade places, before either has acted this round."""
        first = enc.find(action.actor) if action.actor else None
        if first is None:
            mine = [c for c in enc.active() if c.is_hero and c.controller_id == action.by.user_id]
            if not mine:
                raise InvalidInput("Name the hero who swaps (`actor:`).")
            first = mine[0]
        second = enc.find(action.target)
        if not (first.is_hero and second.is_hero) or first.id == second.id:
            raise InvalidInput("Only two different tied heroes can swap their turns.")
        if not action.by.is_gm and action.by.user_id not in (first.controller_id, second.controller_id):
            raise NotAllowed("Only the players of the two heroes (or the GM) can swap them.")
        state = enc.turns
        entries = {e.cid: e for e in state.entries}
        if entries[first.id].key != entries[second.id].key:
            raise InvalidInput(f"{first.name} and {second.name} are not tied in initiative.")
        slots = [i for i, s in enumerate(state.slots) if first.id in s or second.id in s]
        if enc.status == "running" and min(slots) <= state.index:
            raise NotAllowed("One of them has already had their turn this round.")
        enc = self.turns.reorder(enc, first.id, second.id)
        return enc, [Event(kind="info", text=f"{first.name} and {second.name} swap their places in the initiative order.")]

    # --- what people see ------------------------------------------------------
    def status_line(self, enc, c, *, reveal):
        if c.environment:
            return "environment"
        if c.echo_of:
            return f"extra turn of {enc.get(c.echo_of).name}"
        if not reveal:
            if c.dead:
                return "destroyed" if c.zombie else "down"
            if c.zombie:
                return "hurt" if c.wounds < c.max_wounds else "shambling"
            return "down" if c.stamina == 0 else "bloodied" if c.stamina * 2 <= c.max_stamina or c.wounds < c.max_wounds else "unhurt"
        parts = ["dead" if c.dead else dmg.status(c)]
        if c.horde:
            parts.append(f"horde of {len(c.horde)} (+{2 * (len(c.horde) - 1)})")
        if c.conditions:
            parts.append(", ".join(x.label() for x in c.conditions))
        if c.is_hero:
            parts.append(f"PP {c.plot_points}")
        if c.unleashed:
            parts.append("Unleashed")
        if c.demanding:
            parts.append(f"demanding: {c.demanding.what}")
        return " · ".join(parts)

    def turn_summary(self, enc, cid):
        c = enc.get(cid)
        if c.environment:
            return ["The environment acts: describe the hazard, then /damage or /condition add."]
        return economy.summary(economy.real(enc, c))

    def report(self, name: str, enc, options: dict[str, Any]) -> str:
        """Read-only answers: nothing changes, so they need no action."""
        if name == "plotpoint_show":
            return plot.balances(enc)
        if name == "condition_list":
            return checks.conditions_text(enc, options.get("target") or None)
        return super().report(name, enc, options)

    def act_choices(self):
        return list(acts.CHOICES)

    # --- slash commands -------------------------------------------------------
    def command(self, name: str, by, options: dict[str, Any]):
        base = base_fields(by, options)
        opts = flags(options.get("options"))
        if name == "attack":
            modifier = integer(options["modifier"], "modifier", -50, 100) if options.get("modifier") is not None else None
            return Attack(**base, target=_required(options, "target"), weapon=str(options.get("weapon") or ""),
                          modifier=modifier, damage=options.get("damage") or None,
                          damage_type=options.get("damage_type") or None,
                          defense=str(options.get("defense") or "avoidance"), flags=opts)
        if name == "act":
            what = _required(options, "action")
            if what.strip().lower() == "swap":
                return Swap(**base, target=_required(options, "target"))
            return Act(**base, action=what, target=options.get("target") or None, flags=opts)
        if name == "damage":
            return Damage(**base, target=_required(options, "target"), amount=str(_required(options, "amount")),
                          damage_type=str(options.get("damage_type") or "kinetic"), flags=opts)
        if name == "heal":
            return Heal(**base, target=_required(options, "target"), amount=str(_required(options, "amount")), flags=opts)
        if name == "save":
            dc = integer(options["dc"], "dc", 1, 60) if options.get("dc") is not None else None
            return Save(**base, save=str(_required(options, "kind")), dc=dc, flags=opts)
        if name == "condition_add":
            return AddCondition(**base, target=_required(options, "target"), condition=_required(options, "condition"),
                                duration=options.get("duration"), tags=options.get("tags"), flags=opts)
        if name == "condition_remove":
            return RemoveCondition(**base, target=_required(options, "target"), condition=_required(options, "condition"))
        if name == "condition_list":
            return ListConditions(**base, target=options.get("target") or None)
        if name == "plotpoint_show":
            return PlotShow(**base)
        if name == "plotpoint_spend":
            return PlotSpend(**base, use=str(options.get("use") or "narrative"), target=options.get("target") or None,
                             text=str(options.get("text") or ""))
        if name == "plotpoint_award":
            amount = integer(options.get("amount", 1), "amount", 1, 10)
            return PlotAward(**base, target=_required(options, "target"), amount=amount, text=str(options.get("text") or ""))
        if name == "plotpoint_pool":
            amount = integer(options.get("amount", 1), "amount", 1, 100)
            return PlotPool(**base, amount=amount, text=str(options.get("text") or ""))
        if name == "plotpoint_issue":
            return PlotIssue(**base)
        raise UnknownAction(f"/{name.replace('_', ' ')} is not used in {self.name}.")


def _required(options: dict[str, Any], key: str) -> str:
    value = options.get(key)
    if value is None or str(value).strip() == "":
        raise InvalidInput(f"`{key}` is required.")
    return str(value).strip()
