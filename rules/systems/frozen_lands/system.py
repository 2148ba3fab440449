"""Frozen Lands: d6 pools, three actions a round, reactions and Stress."""

from __future__ import annotations

from typing import Any

from ...actions import AddCombatants
from ...model import Event
from ...said import N_, Text, joined, say, say_plural, seq, term
from ...secrets import secret
from ...system import FormSection, Option, System
from ...turns.tracks import Tracks
from ...usertext import listed
from . import between, checks, combat, gm, movement, moves, weapons
from .actions import (
    AddCondition,
    Aim,
    Attack,
    Check,
    Damage,
    Delay,
    Engage,
    Heal,
    Interrupt,
    Move,
    Other,
    Place,
    Release,
    Reload,
    RemoveCondition,
    SetZone,
    StandUp,
)
from .combat import dice_text
from .commands import COMMANDS
from .economy import action_word, fresh_turn, refresh_round, taking_delayed
from .model import FrozenCombatant, FrozenEncounter, Sheet

# /help shows this after the general lines, one section per **Title** line.
SUMMARY = N_("""d6 pools, each 6 a success; ±N adds/removes dice. Own dice: `dice:"6 4 1"` (pool, then stress dice).
**Sheets** `stats:"body=3 agility=3 mind=2 awareness=3 soul=2 melee=2 mobility=2 armour=1 weapon=Shortsword"`, marksmanship… `ranged= offhand= shield=true class_stamina=4 stress= talents=attack`. Enemies: `stats:"initiative=4 damage=3 defense=1 stamina=6"`.
**Initiative** players roll 1d6 on joining; `/initiative next` rolls players+1 d6: enemies first only if it beats every player. Tied players pick by buttons.
**Turn** 3 actions a round, each once a turn: `/attack target:` (melee: same zone; `options:"shoot long"`; close…distant, large, small, dim, dark), `/act action:aim|reload|move|stand|other` (`options:"to=Hall"`: 1 Mobility success per close enemy).
**Out of turn** `/act action:interrupt` (AWARENESS, once a round, fail +1 Stress). **Delay** `/act action:delay`, then `/act action:release`: it follows the current turn.
**Enemy attacks** `/attack target:Astrid`: the player picks Dodge/Block/No reaction (AGILITY−1 a round); successes then armour cut it. Own dice: `/choose option:Block dice:"6 2 1"`.
**Health** 0 Stamina: broken (cannot act until healed); each later hit 1 Wound: `/condition add condition:injury tags:"broken arm"`. Stress over SOUL adds stress dice: 6 = +1 WP; 1 = Exhaustion (BODY/AGILITY), Dazed (MIND/AWARENESS) or Fear (SOUL) if the 1s exceed its level, else +1 Stress; past 3: broken (`any_failure_critical`: any non-6).
**GM** `/damage amount:2 damage_type:stress`, `/heal amount:3 options:"rest wounds=1"`, `/act action:zone options:"name=Hall cluttered dim"`.
**Checks** `/check character:Astrid kind:perception dc:2` (dc: successes needed, 1 if left out) rolls a skill's or attribute's dice and the stress dice of the Stress carried, as in a fight; the WP, Stress, condition or Wound it gives is kept (`/campaign undo` takes it back). `kind:disengage dc:2`: a Mobility success per close enemy, failure +1 Stress. `kind:out_of_turn`: AWARENESS, failure +1 Stress. `options:"modifier=-1 dim"` (dim: Perception −2). No push or reroll.
**GM's call** (README): talents → `/encounter note`.""")


class FrozenLands(System[FrozenCombatant]):
    key = "frozen-lands"
    name = N_("Frozen Lands")
    summary = SUMMARY
    encounter_type = FrozenEncounter
    combatant_type = FrozenCombatant
    sheet_type = Sheet
    turns = Tracks()
    commands = COMMANDS
    between = between
    checks = checks
    sides = ("heroes", "threats")
    player_side = "heroes"
    form = (
        FormSection(label=N_("Attributes"), keys=("body", "agility", "mind", "awareness", "soul")),
        FormSection(
            label=N_("Skills"),
            keys=(
                "melee",
                "marksmanship",
                "mobility",
                "athletics",
                "perception",
                "stealth",
                "survival",
                "lore",
                "healing",
                "persuasion",
            ),
        ),
        FormSection(
            label=N_("Stamina, armour, weapons and talents"),
            keys=("class_stamina", "armour", "weapon", "offhand", "ranged", "shield", "loaded", "talents"),
        ),
        FormSection(label=N_("Stress, WP and Wounds carried in"), keys=("stress", "wp", "wounds")),
        FormSection(label=N_("Enemies only"), keys=("initiative", "damage", "defense", "stamina", "size")),
    )
    options = {
        "any_failure_critical": Option(
            default=False,
            help=N_("Every non-6 on a stress die is a critical failure (the seed's letter), not only a 1."),
        ),
    }

    # --- combatants -----------------------------------------------------------
    def combatant_fields(self, sheet: dict[str, Any], action: AddCombatants) -> dict[str, Any]:
        stats = Sheet(**sheet)
        for field in ("weapon", "offhand", "ranged"):
            if name := getattr(stats, field):
                weapons.sheet_weapon(name, field)
        enemy = action.npc
        stamina = between.most_stamina(stats, enemy)
        fields = dict(sheet=stats, enemy=enemy, stamina=stamina, stamina_max=stamina)
        if not enemy:
            fields |= dict(
                wounds=stats.wounds,
                stress=stats.stress,
                wp=stats.wp,
                loaded=stats.loaded,
                reactions_left=max(0, stats.agility - 1),
            )
        return fields

    def roll_initiative(self, enc, combatant: FrozenCombatant, chance):
        if combatant.enemy:
            score = combatant.sheet.initiative
            return (score,), say("fixed score {score}", score=secret(score, combatant))
        value = chance.die(6)
        return (value,), seq("1d6 (", str(value), ")")

    def can_act(self, enc, combatant: FrozenCombatant) -> bool:
        return not combatant.out and not combatant.broken

    def cannot_act_reason(self, enc, combatant: FrozenCombatant) -> Text:
        return say("broken (0 Stamina) until healed") if combatant.broken else say("cannot act")

    # --- rounds and turns -----------------------------------------------------------
    def on_round_start(self, enc, chance):
        combatants = tuple(refresh_round(c) if not c.enemy else c for c in enc.combatants)
        return enc.but(combatants=combatants), []

    def on_round_end(self, enc, chance):
        lost = [c.name for c in enc.combatants if c.held and not c.out]
        if not lost:
            return enc, []
        return enc, [Event(kind="info", text=say("Delayed action not taken, lost: {names}.", names=listed(lost)))]

    def on_turn_start(self, enc, cid, chance):
        return enc.with_combatant(fresh_turn(enc.get(cid))), []

    def on_turn_end(self, enc, cid, chance):
        return moves.drop_load(enc, cid)

    # --- actions ----------------------------------------------------------------------
    def handlers(self):
        def through(handler):
            return lambda enc, action, chance: self._one_action_out_of_turn(
                handler(enc, action, chance), action, chance
            )

        return {
            Attack: through(combat.attack),
            Move: through(movement.move),
            StandUp: through(movement.stand),
            Aim: through(moves.aim),
            Reload: through(moves.reload),
            Delay: moves.delay,
            Release: lambda enc, a, ch: moves.release(self, enc, a, ch),
            Interrupt: lambda enc, a, ch: moves.interrupt(self, enc, a, ch),
            Other: through(moves.other),
            Engage: lambda enc, a, ch: gm.engage(enc, a, ch, apart=a.apart),
            SetZone: gm.set_zone,
            Place: gm.place,
            Check: gm.check,
            Damage: gm.damage,
            Heal: gm.heal,
            AddCondition: gm.add_condition,
            RemoveCondition: gm.remove_condition,
        }

    def _one_action_out_of_turn(self, result, action, chance):
        """An out-of-turn or delayed action is one action: then the track moves on."""
        enc, events = result
        if not enc.turns.interjection or not action.actor:
            return enc, events
        combatant = enc.find(action.actor)
        if combatant.id not in enc.turns.acting or not combatant.interject_spent:
            return enc, events
        enc = enc.update(combatant.id, interject_spent=False)
        # A step-in is no turn of its own, but a bow loaded in it is lost as at a turn's end.
        enc, dropped = moves.drop_load(enc, combatant.id)
        enc, more = self.turns.end_turn(self, enc, chance)
        return enc, events + dropped + more

    def resume_defend(self, enc, pending, option, chance):
        return combat.resume_defend(enc, pending, option, chance)

    # --- what people see ------------------------------------------------------------------
    def status_line(self, enc, combatant: FrozenCombatant, *, reveal: bool) -> Text:
        parts: list[Text | str]
        if combatant.enemy:
            if not reveal:
                if combatant.out or combatant.stamina <= 0:
                    return say("defeated")
                if combatant.stamina == combatant.stamina_max:
                    return say("unhurt")
                return say("hurt") if combatant.stamina * 2 > combatant.stamina_max else say("badly hurt")
            # Said in words: the tracker's strike-through, which a screen reader does not read, is not enough.
            parts = [say("defeated")] if combatant.out or combatant.stamina <= 0 else []
            parts += [
                say(
                    "Stamina {stamina}/{most} · dmg {damage} · def {defense}",
                    stamina=combatant.stamina,
                    most=combatant.stamina_max,
                    damage=combatant.sheet.damage,
                    defense=combatant.sheet.defense,
                )
            ]
        else:
            dice = combatant.stress_dice()
            stress = say("Stress {stress}", stress=combatant.stress)
            parts = [
                say("Stamina {stamina}/{most}", stamina=combatant.stamina, most=combatant.stamina_max),
                say("Wounds {wounds}", wounds=combatant.wounds),
                seq(stress, " (", dice_text(dice, stress=True), ")") if dice else stress,
                say("WP {wp}", wp=combatant.wp),
            ]
            for condition in ("exhaustion", "dazed", "fear"):
                if getattr(combatant, condition):
                    parts.append(seq(term(condition.capitalize()), " ", str(getattr(combatant, condition))))
            if combatant.broken:
                parts.append(say("broken"))
            if combatant.unrecorded_injuries:
                parts.append(say("{n} injury to record", n=combatant.unrecorded_injuries))
        if combatant.prone:
            parts.append(say("prone"))
        if combatant.zone:
            parts.append(combatant.zone)
        return joined(" · ", parts)

    def turn_summary(self, enc, cid: str) -> list[Text]:
        combatant: FrozenCombatant = enc.get(cid)
        if combatant.enemy:
            # The turn message is public: a hidden enemy's numbers stay with the GM.
            return [
                say(
                    "Attacks with /attack target:… for {damage} damage",
                    damage=secret(combatant.sheet.damage, combatant),
                )
            ]
        lines: list[Text] = []
        stepping_in = bool(enc.turns.interjection) and cid in enc.turns.acting
        if taking_delayed(enc, combatant):
            lines.append(say("Delayed action: one action, already paid when it was held"))
        elif stepping_in:
            paused = listed(enc.get(c).name for c in enc.turns.interrupted)
            if paused:
                lines.append(say("Out of turn: one action (one of the 3), then {who}'s turn goes on", who=paused))
            else:
                lines.append(say("Out of turn: one action (one of the 3), then the track goes on"))
        # What is left is public; the most a round gives away a hidden character's AGILITY and conditions.
        actions = dict(left=combatant.actions_left, most=secret(combatant.max_actions(), combatant))
        # What was used belongs to the character's own turn, not to a step-in.
        if combatant.used and not stepping_in:
            used = listed(action_word(a) for a in combatant.used)
            lines.append(say("Actions left: {left} of {most} (used: {used})", used=used, **actions))
        else:
            lines.append(say("Actions left: {left} of {most}", **actions))
        reactions = secret(combatant.max_reactions(), combatant)
        lines.append(say("Reactions left: {left} of {most}", left=combatant.reactions_left, most=reactions))
        lines += _extras(combatant)
        return lines


def _extras(combatant: FrozenCombatant) -> list[Text]:
    """What else the turn holds, as one line; its first phrase is capitalized (so each has two forms)."""
    extras: list[tuple[Text, Text]] = []
    if combatant.held and not combatant.releasing:
        extras.append((say("a delayed action held"), say("A delayed action held")))
    if combatant.aimed:
        extras.append((say("aiming"), say("Aiming")))
    if combatant.loaded:
        extras.append((say("loaded"), say("Loaded")))
    if combatant.prone:
        extras.append((say("prone"), say("Prone")))
    if count := combatant.stress_dice():
        # A count of dice starts with its number: nothing to capitalize.
        dice = say_plural(
            "{n} stress die", "{n} stress dice", None if combatant.hidden else count, n=secret(count, combatant)
        )
        extras.append((dice, dice))
    # The out-of-turn action is one of the 3: with none left there is no try to offer.
    if not combatant.out_of_turn_tried and combatant.actions_left > 0:
        extras.append((say("out-of-turn try available"), say("Out-of-turn try available")))
    if not extras:
        return []
    return [listed([extras[0][1]] + [lower for lower, _ in extras[1:]])]


SYSTEM = FrozenLands()
