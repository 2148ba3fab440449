"""Them's Fightin' Words: six-second rounds on a d6."""

from __future__ import annotations

from rules.model import Event
from rules.system import System
from rules.turns.seconds import Seconds

from . import acts, attack, commands, conditions, gm, initiative, morale, wounds
from .state import Condition, FightEncounter, Fighter, Sheet
from .stats import can_act, has, helpless, minimum_toughness, minimum_will, toughness, will
from .tables import ACTIONS, DISABLED_SECONDS, TURN_SECONDS

SUMMARY = """\
d6 system in six-second rounds: every action costs seconds (/act lists the seed's table; attacks and combos 4 s). \
Longer actions carry into the next turn; the turn ends by itself when no second is left. \
Initiative 1d6 + Reflex + Dex, ties reroll among themselves. \
/attack: d6 + skill − scale + X vs Target; the defender picks Block/Dodge/Parry (d6 + bonus vs 4 + skill + Y); \
damage vs Toughness (6 + 3×scale + Endurance + Defence) and Minimum (−6).
Defaults where the seed is silent: rolls succeed on meeting the number; a combo asks each defender once and \
rolls one defence per hit; unarmed is 1d4 + Strength, close reach; melee adds Strength + 3×scale to damage; \
dying and Broken checks at the start of each round (d10 for stabilising first, then the d6); standing from prone \
is 4 s (the time table); a delayed spell's countdown starts when its casting ends; surprised characters are \
flat-footed until their first turn; a delay may last until one's next turn, into the next round."""


class FightinWords(System):
    key = "fightin-words"
    name = "Them's Fightin' Words"
    summary = SUMMARY
    encounter_type = FightEncounter
    combatant_type = Fighter
    sheet_type = Sheet
    turns = Seconds(TURN_SECONDS)
    sides = ("heroes", "threats")
    player_side = "heroes"

    def handlers(self):
        return {
            attack.Attack: lambda enc, a, ch: attack.attack(self, enc, a, ch),
            acts.Act: lambda enc, a, ch: acts.act(self, enc, a, ch),
            gm.Damage: lambda enc, a, ch: gm.damage(self, enc, a, ch),
            gm.Heal: lambda enc, a, ch: gm.heal(self, enc, a, ch),
            gm.Check: lambda enc, a, ch: gm.check(self, enc, a, ch),
            gm.AddCondition: lambda enc, a, ch: gm.add_condition(self, enc, a, ch),
            gm.RemoveCondition: lambda enc, a, ch: gm.remove_condition(self, enc, a, ch),
        }

    def resume_defence(self, enc, pending, option, chance):
        return attack.resume_defence(self, enc, pending, option, chance)

    # --- characters --------------------------------------------------------
    def combatant_fields(self, sheet, action):
        fields = {"sheet": Sheet(**sheet)}
        if action.surprised:
            fields["conditions"] = (Condition(name="flat-footed", note="surprised"),)
        return fields

    def roll_initiative(self, enc, combatant, chance):
        total, text = initiative.check(combatant, chance)
        return (total,), text

    def order_ties(self, enc, tied, chance):
        return initiative.break_ties(enc, tied, chance)

    def can_act(self, enc, combatant):
        return can_act(combatant)

    def seconds_budget(self, enc, cid):
        return DISABLED_SECONDS if has(enc.get(cid), "disabled") else TURN_SECONDS

    # --- hooks -------------------------------------------------------------------
    def on_turn_start(self, enc, cid, chance):
        return conditions.turn_start(self, enc, cid, chance)

    def on_seconds(self, enc, cid, seconds, chance):
        return acts.countdown(enc, cid, seconds)

    def on_round_start(self, enc, chance):
        """Dying and Broken checks, once a round, from round 2 on."""
        events: list[Event] = []
        if enc.round < 2:
            return enc, events
        for f in enc.combatants:
            if f.out or f.dead:
                continue
            if f.dying:
                enc, more = wounds.dying_check(enc, f.id, chance)
                events.extend(more)
            elif has(f, "broken"):
                enc, more = morale.broken_check(enc, f.id, chance)
                events.extend(more)
        return enc, events

    def on_round_end(self, enc, chance):
        events: list[Event] = []
        for f in enc.combatants:
            if f.out:
                continue
            f, gone = conditions.tick(f)
            enc = enc.with_combatant(f)
            if gone:
                events.append(Event(kind="info", text=f"{f.name} is no longer {', '.join(gone)}."))
        return enc, events

    # --- what people see -------------------------------------------------------
    def status_line(self, enc, combatant, *, reveal):
        f: Fighter = combatant
        if not reveal:
            if f.dead:
                return "dead"
            if f.dying:
                return "dying"
            if helpless(f):
                return "down"
            return "wounded" if f.wounds else "unhurt"
        parts = [f"T {toughness(f)}/{minimum_toughness(f)}", f"Will {will(f)}/{minimum_will(f)}"]
        if f.wounds:
            parts.append(f"{f.wounds} wound{'s' if f.wounds > 1 else ''}")
        if f.morale_penalties:
            parts.append(f"{f.morale_penalties} morale")
        if f.dead:
            parts.append("dead")
        elif f.dying:
            parts.append(f"dying (DC {f.dying_dc})")
        elif f.stable:
            parts.append("stable, unconscious")
        if f.posture != "standing":
            parts.append(f.posture)
        if f.mounted:
            parts.append("mounted")
        if f.aimed:
            parts.append("aimed")
        for c in f.conditions:
            parts.append(c.name + (f" {c.rounds}r" if c.rounds else ""))
        for e in f.effects:
            parts.append(f"✨ {e.what} in {e.seconds} s")
        return " · ".join(parts)

    def turn_summary(self, enc, cid):
        state = enc.turns
        f: Fighter = enc.get(cid)
        lines = [f"⏱ {state.left.get(cid, 0)} of {state.full.get(cid, TURN_SECONDS)} s left"]
        owed = state.owed.get(cid, 0)
        if owed:
            lines.append(f"↪ {owed} s carry into the next turn ({state.busy.get(cid, 'busy')})")
        for e in f.effects:
            on = f" on {e.target}" if e.target else ""
            lines.append(f"✨ {e.what}{on}: goes off after {e.seconds} more of {f.name}'s seconds")
        if f.mounted:
            lines.append("🐎 steering the mount: 2 s every turn")
        return lines

    # --- commands ----------------------------------------------------------------
    def command(self, name, by, options):
        return commands.command(self.name, name, by, options)

    def act_choices(self):
        return [(key, timed.label) for key, timed in ACTIONS.items()]


SYSTEM = FightinWords()
