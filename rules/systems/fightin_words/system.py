"""Them's Fightin' Words: six-second rounds on a d6."""

from __future__ import annotations

from typing import Any, ClassVar

from rules.model import Event
from rules.said import N_, joined, say, say_plural, term
from rules.system import FormSection, Option, System
from rules.text import Text
from rules.turns.seconds import Seconds
from rules.usertext import listed, user_text

from . import attack, between, checks, conditions, gm, initiative, morale, moves, wounds
from .commands import COMMANDS
from .model import Condition, FightEncounter, Fighter, Sheet
from .sheet import (
    can_act,
    cannot_act_reason,
    has,
    helpless,
    minimum_toughness,
    minimum_will,
    pair,
    toughness,
    will,
)
from .tables import AIM, DISABLED_SECONDS, FIRST_DYING_DC, STAND_FROM_PRONE, TURN_SECONDS

# /help shows this after the general text, a section per **Title** line picked from a menu
# (the lines after one belong to its section): short lines, the README has the long version.
SUMMARY = N_("""\
Stats: reflex dex strength endurance spirit scale defence fortitude will_bonus weapon_skill ranged_skill magic_skill block dodge (empty: reflex) parry (empty: weapon_skill), weapons="sword:1d8;crossbow:1d10:15".
Initiative d6+Reflex+Dex, ties reroll. `/initiative delay` on an untouched turn, again later to interrupt.
**Seconds**: `/act action:` move 1, run 3, draw 1, grab 2, aim 2, crouch/prone 1, stand 1 (4 from prone), cast 4, reload 4, talk 0, mount (2 s a turn), `spend options:"seconds=3 what='…'"`. Overruns carry into the next turn; 0 s left ends the turn. `cast options:"spell=Fireball delay=11"` pings the GM when it goes off.
**/attack** (4 s): d6+skill−scale vs Target 4; options combo=3 (target:"A, B" splits) mod=+X/+Y range=30 cover=light called=head flanked surprised fast=18 (melee, fastest mover's squares/s: +1 damage per 5); dice: attack d6s, then damage.
**Area** `target:"A, B" options:area`: one roll vs Target 4−your scale, one damage for all; each may Block (negates) or Dodge (−3 damage); a miss scatters where the GM places it.
**Defence**: the defender's player (GM for NPCs) picks Block/Dodge/Parry: d6+bonus vs 4+skill+Y per hit; own dice: `/choose option:Parry dice:"5 2"`. Damage > T−6 → wound; ≥ T → wound + Dying.
**GM**: `/damage amount:2d6` (`amount:fall options:"height=20"`; `amount:collision options:"speed=10 with=Orc"` or `object=2`, `crushed`; `damage_type:fear|insanity|rage|morale`), `/heal`, `/save kind:will|medicine dc:5 options:"bonus=2"`, `/condition add|remove` dying (remove = stabilise), staggered, stunned, confused, disabled…
Rounds open with dying checks (d10 10 stabilises, else Endurance vs DC 4 rising) and Broken ones (Spirit vs DC 10 falling).
**Defaults**: meeting the number succeeds; melee adds Strength+3×scale; a spell's delay starts after its casting; the surprised are flat-footed until their turn; where the seed says both: `stand_from_prone_seconds=4` (or 2), `aim_seconds=2` (1), `first_dying_dc=4` (6: no −1 per wound), `dying_at_toughness=true` (false: only > T), `called_shot_meets_minimum=false` (true: a called shot meeting T−6 wounds).
**Checks**: `/check character:X kind:reflex|dex|strength|endurance|spirit|fortitude|will dc:4`; `kind:will|initiative against:Y` (ties reroll; `options:veto`: a lost veto costs a morale penalty); `kind:skill options:"skill=medicine bonus=2"`.
**GM's call** (README): positions, where a missed area attack scatters, possession, Tuck and Roll → `/encounter note`.""")


class FightinWords(System):
    key = "fightin-words"
    name = N_("Them's Fightin' Words")
    summary = SUMMARY
    encounter_type = FightEncounter
    combatant_type = Fighter
    sheet_type = Sheet
    turns = Seconds(TURN_SECONDS)
    commands = COMMANDS
    between = between
    checks = checks
    form: ClassVar[tuple[FormSection, ...]] = (
        FormSection(label=N_("Abilities"), keys=("reflex", "dex", "strength", "endurance", "spirit")),
        FormSection(label=N_("Body and Will"), keys=("scale", "defence", "fortitude", "will_bonus")),
        FormSection(label=N_("Attack skills"), keys=("weapon_skill", "ranged_skill", "magic_skill")),
        FormSection(label=N_("Defences"), keys=("block", "dodge", "parry")),
        FormSection(label=N_("Weapons"), keys=("weapons",)),
    )
    sides = ("heroes", "threats")
    player_side = "heroes"
    # Where the seed gives two readings: the default, and the other within reach.
    options = {
        "stand_from_prone_seconds": Option(
            default=STAND_FROM_PRONE,
            low=2,
            high=4,
            help=N_("Seconds to stand up from prone: the time table's 4, the prose's 2."),
        ),
        "aim_seconds": Option(
            default=AIM, low=1, high=2, help=N_("Seconds to aim a ranged weapon: 2, or the time table's other 1.")
        ),
        "first_dying_dc": Option(
            default=FIRST_DYING_DC,
            low=4,
            high=6,
            help=N_(
                "A dying character's first Endurance check: DC 4, −1 per wound (Dying), "
                "or DC 6, no penalty (the list of conditions)."
            ),
        ),
        "dying_at_toughness": Option(
            default=True, help=N_("Damage equal to Toughness starts Dying (off: only damage that exceeds it).")
        ),
        "called_shot_meets_minimum": Option(
            default=False,
            help=N_(
                "A called shot's damage equal to the spot's Minimum Toughness wounds (the chart's “meet or beat”)."
            ),
        ),
    }

    def upgrade_sheet(self, sheet: dict[str, Any], version: int) -> dict[str, Any]:
        # Before version 2, Dodge and Parry were 0 unless given: 0 there is what now reads "unset"
        # (Reflex and Weapon Skill), as the database's migration 0006 made it for stored sheets.
        if version >= 2:
            return sheet
        return {key: None if key in ("dodge", "parry") and value == 0 else value for key, value in sheet.items()}

    def handlers(self):
        return {
            attack.Attack: lambda enc, a, ch: attack.attack(self, enc, a, ch),
            moves.Act: lambda enc, a, ch: moves.act(self, enc, a, ch),
            gm.Damage: lambda enc, a, ch: gm.damage(self, enc, a, ch),
            gm.Heal: lambda enc, a, ch: gm.heal(self, enc, a, ch),
            gm.Check: lambda enc, a, ch: gm.check(self, enc, a, ch),
            gm.AddCondition: lambda enc, a, ch: gm.add_condition(self, enc, a, ch),
            gm.RemoveCondition: lambda enc, a, ch: gm.remove_condition(self, enc, a, ch),
        }

    def resume_defence(self, enc, pending, option, chance):
        return attack.resume_defence(self, enc, pending, option, chance)

    # --- characters --------------------------------------------------------
    def make_combatant(self, enc, action, cid, name):
        return super().make_combatant(enc, action, cid, name).but(dying_dc=wounds.first_dying_dc(enc))

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

    def cannot_act_reason(self, enc, combatant) -> Text:
        return cannot_act_reason(combatant)

    def seconds_budget(self, enc, cid):
        return DISABLED_SECONDS if has(enc.get(cid), "disabled") else TURN_SECONDS

    # --- hooks -------------------------------------------------------------------
    def on_turn_start(self, enc, cid, chance):
        return conditions.turn_start(self, enc, cid, chance)

    def on_seconds(self, enc, cid, seconds, chance):
        return moves.countdown(enc, cid, seconds)

    def on_broken_off(self, enc, cid):
        return moves.broken_off(enc, cid)

    def on_round_start(self, enc, chance):
        """Dying and Broken checks, once a round ("every round"): round 1's are those of a character who comes
        into the fight dying or Broken."""
        events: list[Event] = []
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
            awake = conditions.woken(f, gone)
            enc = enc.with_combatant(awake or f)
            if gone:
                line = say("{who} is no longer {conditions}.", who=f.name, conditions=listed(term(g) for g in gone))
                events.append(Event(kind="info", text=line))
            if awake:
                line = say("{who} wakes up (flat-footed for one round).", who=f.name)
                events.append(Event(kind="info", text=line))
        return enc, events

    # --- what people see -------------------------------------------------------
    def status_line(self, enc, combatant, *, reveal) -> Text:
        f: Fighter = combatant
        if not reveal:
            if f.dead:
                return say("dead")
            if f.dying:
                return say("dying")
            if helpless(f):
                return say("down")
            return say("wounded") if f.wounds else say("unhurt")
        parts: list[Text] = [
            say("T {toughness}", toughness=pair(toughness(f), minimum_toughness(f))),
            say("Will {will}", will=pair(will(f), minimum_will(f))),
        ]
        if f.wounds:
            parts.append(say_plural("{n} wound", "{n} wounds", f.wounds, n=f.wounds))
        if f.morale_penalties:
            n = f.morale_penalties
            parts.append(say_plural("{n} morale penalty", "{n} morale penalties", n, n=n))
        if f.mobility_penalties:
            n = f.mobility_penalties
            parts.append(say_plural("{n} mobility penalty", "{n} mobility penalties", n, n=n))
        if f.dead:
            parts.append(say("dead"))
        elif f.dying:
            parts.append(say("dying (DC {dc})", dc=f.dying_dc))
        elif f.stable:
            parts.append(say("stable, unconscious"))
        owed = enc.turns.owed.get(f.id, 0)
        if owed:
            parts.append(say("↪ {n} s owed to the next turn", n=owed))
        if f.posture != "standing":
            parts.append(term(f.posture))
        if f.mounted:
            parts.append(say("mounted"))
        if f.aimed:
            parts.append(say("aimed"))
        for c in f.conditions:
            parts.append(say("{condition} {n}r", condition=term(c.name), n=c.rounds) if c.rounds else term(c.name))
        for e in f.effects:
            told = dict(spell=moves.spell_name(e.what), n=e.seconds, who=f.name)
            if e.target:
                parts.append(
                    say("✨ {spell} on {target} in {n} of {who}'s seconds", target=user_text(e.target), **told)
                )
            else:
                parts.append(say("✨ {spell} in {n} of {who}'s seconds", **told))
        return joined(" · ", parts)

    def turn_summary(self, enc, cid) -> list[Text]:
        state = enc.turns
        f: Fighter = enc.get(cid)
        lines: list[Text] = [
            say("⏱ {left} of {full} s left", left=state.left.get(cid, 0), full=state.full.get(cid, TURN_SECONDS))
        ]
        owed = state.owed.get(cid, 0)
        if owed:
            busy = state.busy.get(cid) or say("busy")
            lines.append(say("↪ {n} s carry into the next turn ({busy})", n=owed, busy=busy))
        if f.mounted:
            lines.append(say("🐎 steering the mount: 2 s every turn"))
        return lines


SYSTEM = FightinWords()
