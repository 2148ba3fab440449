"""The Rotted Capes rule system: sheets, initiative with its tie rules,
turn hooks, commands and what the tracker shows."""

from __future__ import annotations

from typing import Any, ClassVar

from ... import common
from ...actions import AddCombatants
from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...said import N_, joined, say, seq, term
from ...secrets import secret
from ...system import FormSection, Option, System
from ...turns.initiative import Initiative
from ...usertext import listed
from . import attack, between, checks, economy, gm, hooks, modes, moves, plot
from . import conditions as cond
from . import damage as dmg
from .actions import (
    Act,
    AddCondition,
    Attack,
    Damage,
    FormHorde,
    Heal,
    ListConditions,
    PlotAward,
    PlotIssue,
    PlotPool,
    PlotShow,
    PlotSpend,
    RemoveCondition,
    Save,
    Swap,
)
from .commands import COMMANDS
from .model import MAX_DC, MAX_PLOT_POINTS, RCCombatant, RCEncounter, RCSheet, fresh_state, rc_encounter
from .rolls import masked_bonus, mode_for, reasons, roll_d20, signed

# /help shows this after the general text, a section per **Title** line picked from a menu:
# short lines, every word earning its place (the README has the long version).
SUMMARY = N_("""Stats: dex con init saves (wis:2 str:1) avoidance fortitude willpower stamina wounds stamina_defense dr (fire:10) rank attack damage damage_type pace (pace_uncapped: past 5) zombie zombie_level brute plot_points companion_of (whose turn a pet acts in).
**Initiative** d20+dex+init; ties: heroes first (/act action:swap), tied threats share a turn.
**Turn**: Pace, Action, Bonus Action, 1 Reaction (off-turn attack; none on a mover who disengaged). /act action: dodge, dash, disengage, assist target:X, hide, ready, demanding, move, stand, prone; options: hide dc=N, ready trigger="…" (then trigger, then its /attack on that Reaction), demanding what="X" interruptible, move areas=N.
**/attack** target:X [modifier damage damage_type defense:fortitude|willpower] options: adv dis ranged cover same_area beyond_range in_melee unseen unaware dark squeezed shadowy ap area bonus reaction free unleashed split=N. Nat 20: critical, +1 Wound; damage after DR > Fortitude: massive, +1 Wound; zombies take only these. Dice by hand: d20(s), then damage.
**GM**: /damage, /heal (temp, wounds), /save kind:con dc:N (adv dis; Unleashed: unleashed, auto), /condition add duration "2 rounds" | "end of X's next turn" | save | scene; Ongoing Damage: options "damage=1d6 type=fire dc=12".
**Plot Points**: /plotpoint show, spend use:reroll (the last attack, save, Hide, /damage dice, or a joining hero's initiative: the roller's or its target's; text:damage keeps an attack's d20)|aid|narrative (a failed Wound Recovery roll: /campaign rest kind:hiatus options:plot_point=…); GM: award target:X [amount], pool (spends the pool's points), issue (every hero back to the starting points); buttons offer disadvantage and escape from death.
**Modes** (GM /act action:): horde target:Zombie, unleash target:X, "second wind", "danger zone" (middle end), "end scene".
**Defaults**: adv+dis = one d20 (advantage=count nets); Stamina Defense = Fortitude; damage with no type = kinetic; massive: after DR, before temp Stamina; Ongoing Damage at turn start, DC 10 CON save at turn end (ongoing_dc); 1 Plot Point per Issue (starting_plot_points), pool emptied by a new Issue (empty_pool_at_new_issue=false keeps); disadvantage offered for a Plot Point (offer_plot_disadvantage); Danger Zone mid-order/after last. Optional rule brutal_continuity (off): a hero's Exhaustion also lowers their saves and defenses.
**Checks** /check character:X kind:challenge dc:15 options:dex, or kind:save dc:15 (CON unless named): d20 + the ability's modifier (dex, con; others from `saves`), with carried conditions; a challenge (not a save) − Wounded/Exhaustion; options adv dis bonus=N (a Skill Set's Rank Bonus, antibiotics +5). A hero with a Plot Point gets a reroll button; the point goes to the pool. The GM picks the ability, Skill Set and DC.
**GM's call** (README): positions, terrain, knockback, vehicles → adv/dis, /encounter note.""")


class RottedCapes(System[RCCombatant]):
    key = "rotted-capes"
    name = N_("Rotted Capes")
    summary = SUMMARY
    encounter_type = RCEncounter
    combatant_type = RCCombatant
    sheet_type = RCSheet
    turns = Initiative()
    commands = COMMANDS
    between = between
    checks = checks
    form: ClassVar[tuple[FormSection, ...]] = (
        FormSection(label=N_("Abilities"), keys=("dex", "con", "init", "saves", "rank")),
        FormSection(label=N_("Defenses"), keys=("avoidance", "fortitude", "willpower", "stamina_defense", "dr")),
        FormSection(
            label=N_("Stamina, Wounds and Pace"), keys=("stamina", "wounds", "pace", "pace_uncapped", "plot_points")
        ),
        FormSection(label=N_("Attack"), keys=("attack", "damage", "damage_type")),
        FormSection(label=N_("Zombies and companions"), keys=("zombie", "zombie_level", "brute", "companion_of")),
    )
    options = {
        "starting_plot_points": Option(
            default=1, low=0, high=MAX_PLOT_POINTS, help=N_("Plot Points each hero starts an Issue with.")
        ),
        "offer_plot_disadvantage": Option(
            default=True,
            help=N_("Ask a hero with Plot Points, when a threat attacks them, whether to spend one for disadvantage."),
        ),
        "empty_pool_at_new_issue": Option(
            default=True,
            help=N_("A new Issue empties the Editor-in-Chief's pool (the seed is silent; otherwise the pool is kept)."),
        ),
        "advantage": Option(
            default="cancel",
            choices=("cancel", "count"),
            help=N_("`cancel`: any advantage and any disadvantage give a straight roll; `count`: the reasons net out."),
        ),
        "ongoing_dc": Option(
            default=10, low=1, high=MAX_DC, help=N_("Save DC against Ongoing Damage when none is given.")
        ),
        "brutal_continuity": Option(
            default=False,
            help=N_(
                "The optional rule Brutal Continuity: a hero's Exhaustion penalty also falls on their saves and "
                "defenses."
            ),
        ),
    }

    # --- sheets and initiative -------------------------------------------------
    def combatant_fields(self, sheet: dict[str, Any], action) -> dict[str, Any]:
        fields = fresh_state(RCSheet(**sheet))
        if action.surprised:
            fields["conditions"] = (modes.surprise(),)
        return fields

    def make_combatant(self, enc, action, cid, name):
        c = super().make_combatant(enc, action, cid, name)
        if c.sheet.companion_of:
            owner = enc.find(c.sheet.companion_of)
            c = c.but(companion_of=owner.id, side=owner.side)
        if c.holds_points:
            points = c.sheet.plot_points
            c = c.but(plot_points=plot.starting(enc) if points is None else points)
        return c

    def roll_initiative(self, enc, combatant, chance):
        if combatant.companion_of:
            owner = enc.get(combatant.companion_of)
            entry = next((e for e in enc.turns.entries if e.cid == owner.id), None)
            if entry is None:
                raise InvalidInput(say("{who} must be in the initiative order before their companion.", who=owner.name))
            return entry.key, say("acts in {who}'s turn", who=owner.name)
        if combatant.fixed_init is not None:
            # an Unleashed extra turn sits at the villain's initiative − 10
            return (combatant.fixed_init,), say("fixed at {key}", key=secret(f"{combatant.fixed_init:g}", combatant))
        # "a Dexterity check": the roller's conditions count (the surprised are Stunned, "Disadvantage on all
        # rolls"), and so does the Wounded or Exhaustion penalty "to all challenge rolls"
        adv, dis = cond.save_sources(combatant)
        d20 = roll_d20(chance, mode_for(adv, dis, enc.options.get("advantage", "cancel")))
        bonus = combatant.sheet.dex + combatant.sheet.init
        penalty = cond.wound_penalty(combatant)
        total = d20.natural + bonus - penalty
        head = seq("d20 ", d20.natural) if len(d20.rolled) == 1 else d20.text()
        if combatant.hidden:
            shown = masked_bonus(bonus, combatant, penalty)
        elif penalty:
            shown = seq(signed(bonus), " ", say("− {penalty} wounds/exhaustion", penalty=penalty))
        else:
            shown = signed(bonus)
        text = seq(head, " ", shown, " = ", secret(total, combatant), reasons(adv, dis, d20.mode))
        return (total,), text

    def order_ties(self, enc, tied, chance):
        """Heroes before threats, each hero its own turn; tied threats act together."""
        # the order the tied heroes agreed on (their tiebreaks) stands; a newcomer, not yet settled, goes last
        tied = sorted(tied, key=lambda e: e.tiebreak, reverse=True)
        heroes = [e for e in tied if enc.get(e.cid).is_hero]
        threats = [e for e in tied if not enc.get(e.cid).is_hero]
        ordered = [e.but(tiebreak=(1, -i)) for i, e in enumerate(heroes)] + [e.but(tiebreak=(0, 0)) for e in threats]
        slots = [[e.cid] for e in heroes] + ([[e.cid for e in threats]] if threats else [])
        ordered, slots = _with_companions(enc, ordered, slots)
        events = []
        newest = enc.combatants[-1].id if enc.combatants else None
        if len(heroes) > 1 and any(e.cid == newest for e in heroes):
            names = listed(enc.get(e.cid).name for e in heroes)
            events.append(
                Event(
                    kind="info",
                    text=say("Tied heroes ({names}) may agree on their order with /act action:swap.", names=names),
                )
            )
        return ordered, slots, events

    def leaving(self, enc, cid) -> tuple[str, ...]:
        # An Unleashed villain's extra turn leaves with it (and an extra turn's own, from a state saved
        # before an extra turn could no longer be Unleashed).
        leaving = [cid]
        for c in enc.combatants:
            if c.echo_of in leaving:
                leaving.append(c.id)
        return tuple(leaving)

    def acts_with(self, enc, cid):
        # "Animals and summoned creatures act as a single unit with their controller": they delay together
        owner = enc.get(cid).companion_of or cid
        return (owner,) + tuple(c.id for c in enc.combatants if c.companion_of == owner)

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
        enc = hooks.round_start(enc)
        # the turn order skips them without a word: say so once a round
        skipped = [
            c for c in enc.combatants if not c.out and not c.echo_of and not c.environment and not self.can_act(enc, c)
        ]
        events = [
            Event(
                kind="info",
                text=seq(
                    "💤 ",
                    say(
                        "{who} is {condition}: their turns are skipped until they recover.",
                        who=c.name,
                        condition=term(economy.helpless_as(c)),
                    ),
                ),
            )
            for c in skipped
        ]
        return enc, events

    def on_round_end(self, enc, chance):
        return hooks.round_end(enc)

    def resume_plot_disadvantage(self, enc, pending, option, chance):
        return attack.resume_plot(self, enc, pending, option, chance)

    def resume_death(self, enc, pending, option, chance):
        return plot.resume_death(self, enc, pending, option, chance)

    def resume_interrupt(self, enc, pending, option, chance):
        return gm.resume_interrupt(enc, pending, option, chance)

    # --- actions --------------------------------------------------------------
    def handlers(self):
        return {
            Attack: lambda e, a, c: attack.declare(self, e, a, c),
            Act: lambda e, a, c: moves.act(self, e, a, c),
            FormHorde: lambda e, a, c: moves.act(self, e, a, c),
            Swap: self.swap,
            Damage: lambda e, a, c: gm.damage(self, e, a, c),
            Heal: gm.heal,
            Save: gm.save,
            AddCondition: gm.add_condition,
            RemoveCondition: gm.remove_condition,
            ListConditions: gm.list_conditions,
            PlotShow: plot.show,
            PlotSpend: lambda e, a, c: plot.spend(self, e, a, c),
            PlotAward: plot.award,
            PlotPool: plot.pool,
            PlotIssue: plot.new_issue,
            AddCombatants: self.join,
        }

    def join(self, enc, action, chance):
        """A hero's initiative is "a Dexterity check", which a Plot Point may reroll ("any d20 check"): a hero
        joining alone is the last roll, until the next turn (the first, before the fight) or anything else."""
        started = rc_encounter(enc)
        joined, events = common.add(self, started, action, chance)
        enc = rc_encounter(joined)
        new = enc.combatants[len(started.combatants) :]
        if len(new) == 1 and new[0].is_hero:
            enc = enc.rolled(started, "initiative", new[0].id, {})
        return enc, events

    def swap(self, enc, action, chance):
        """Tied heroes trade places, before either has acted this round."""
        first = enc.find(action.actor) if action.actor else None
        if first is None:
            mine = [c for c in enc.active() if c.is_hero and c.controller_id == action.by.user_id]
            if not mine:
                raise InvalidInput(say("Name the hero who swaps (`actor:`)."))
            first = mine[0]
        second = enc.find(action.target)
        if not (first.is_hero and second.is_hero) or first.id == second.id:
            raise InvalidInput(say("Only two different tied heroes can swap their turns."))
        if not action.by.is_gm and action.by.user_id not in (first.controller_id, second.controller_id):
            raise NotAllowed(say("Only the players of the two heroes (or the GM) can swap them."))
        state = enc.turns
        entries = {e.cid: e for e in state.entries}
        if entries[first.id].key != entries[second.id].key:
            raise InvalidInput(
                say("{first} and {second} are not tied in initiative.", first=first.name, second=second.name)
            )
        slots = [i for i, s in enumerate(state.slots) if first.id in s or second.id in s]
        if enc.status == "running" and min(slots) < state.index:
            raise NotAllowed(say("One of them has already had their turn this round."))
        if enc.status == "running" and min(slots) == state.index:
            # the order was theirs to agree before either began: a turn under way stays where it is
            on = first if first.id in state.slots[state.index] else second
            raise NotAllowed(
                say("{who}'s turn has already begun: tied heroes swap before either turn starts.", who=on.name)
            )
        enc = self.turns.reorder(enc, first.id, second.id)
        return enc, [
            Event(
                kind="info",
                text=say(
                    "{first} and {second} swap their places in the initiative order.",
                    first=first.name,
                    second=second.name,
                ),
            )
        ]

    # --- what people see ------------------------------------------------------
    def status_line(self, enc, c, *, reveal):
        if c.environment:
            return say("environment")
        if c.echo_of:
            return say("extra turn of {who}", who=enc.get(c.echo_of).name)
        if not reveal:
            if c.dead:
                return say("destroyed") if c.zombie else say("down")
            if c.zombie:
                return say("hurt") if c.wounds < c.max_wounds else say("shambling")
            return (
                say("down")
                if c.current_stamina == 0
                else say("bloodied")
                if c.stamina * 2 <= c.max_stamina or c.wounds < c.max_wounds
                else say("unhurt")
            )
        parts = [say("dead") if c.dead else dmg.status(c)]
        if c.horde:
            parts.append(say("+{bonus} to hit and damage", bonus=2 * (len(c.horde) - 1)))
        if c.conditions:
            parts.append(joined(", ", (x.label() for x in c.conditions)))
        if c.holds_points:
            parts.append(say("PP {points}", points=secret(c.plot_points, c)))
        if c.unleashed:
            parts.append(say("Unleashed"))
        if c.demanding:
            parts.append(say("demanding: {what}", what=c.demanding.what))
        return joined(" · ", parts)

    def turn_summary(self, enc, cid):
        c = enc.get(cid)
        if c.environment:
            return [say("The environment acts: describe the hazard, then /damage or /condition add.")]
        if c.echo_of:
            villain = enc.get(c.echo_of)
            # the extra turn's own line says only whose turn it is: show the villain as they stand
            status = self.status_line(enc, villain, reveal=not villain.hidden)
            return [seq(villain.name, ": ", status)] + economy.summary(villain)
        return economy.summary(c)


def _with_companions(enc, entries, slots):
    """Pets, summons and controlled mounts act in their controller's slot."""
    tiebreak = {e.cid: e.tiebreak for e in entries}
    moved = {e.cid: enc.get(e.cid).companion_of for e in entries if enc.get(e.cid).companion_of in tiebreak}
    if not moved:
        return entries, slots
    slots = [[c for c in slot if c not in moved] for slot in slots]
    for companion, owner in moved.items():
        next(slot for slot in slots if owner in slot).append(companion)
    entries = [e.but(tiebreak=tiebreak[moved[e.cid]]) if e.cid in moved else e for e in entries]
    return entries, [slot for slot in slots if slot]
