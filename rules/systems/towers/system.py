"""99 Towers: the Combat Clock, card flips, STUN and LETHAL."""

from __future__ import annotations

from typing import Any

from rules.cards import Card
from rules.common import refuse_another_condition
from rules.errors import InvalidInput
from rules.model import Event
from rules.said import EMPTY, N_, Text, joined, say, seq, term
from rules.secrets import secret
from rules.system import FormSection, Option, System
from rules.turns.clock import PHASES_PER_ROUND
from rules.usertext import listed, quoted

from . import attack as attacks
from . import between, checks, grapple, moves
from .acting import acted, forced_delay
from .actions import Act, AddCondition, Attack, Check, Damage, Heal, OpportunityAttack, RemoveCondition
from .commands import COMMANDS, check_save_stat
from .companions import TowersClock, attach
from .costs import action_type
from .damage import Harm, dealt, heal, take
from .flips import damage_cards, described, resist
from .help import HELP
from .initiative import calculated, settle_ties
from .model import ENDINGS, Condition, TowersCombatant, TowersEncounter, can_act
from .modifiers import defense_base, posture_mods, reckless_mods
from .senders import own_combatant
from .sheet import TowersSheet, parse_weapons, stat_label
from .stance import ADVERBS, effect
from .stance import defense_mods as stance_defense

FALL_STUN_PER_5FT = 5
FALL_FLIPS_PER_5FT = 2


class TowersSystem(System[TowersCombatant]):
    key = "99-towers"
    name = N_("99 Towers")
    summary = HELP
    encounter_type = TowersEncounter
    combatant_type = TowersCombatant
    sheet_type = TowersSheet
    turns = TowersClock(idle_cost=5, idle_what=say("takes a Forced Delay"))
    commands = COMMANDS
    between = between
    checks = checks
    form = (
        FormSection(label=N_("Combat Values"), keys=("init", "pa", "sa", "pd", "id", "px", "er", "ir")),
        FormSection(label=N_("Aspects and size"), keys=("ss", "hs", "endurance", "size")),
        FormSection(label=N_("STUN, LETHAL and mana"), keys=("stun", "lethal", "mana")),
        FormSection(label=N_("Weapons"), keys=("weapons",)),
        FormSection(
            label=N_("Immunities, susceptibilities, companion"), keys=("immune", "susceptible", "companion_of")
        ),
    )
    options = {
        "surprise_phases": Option(default=10, help=N_("Phases a surprised combatant loses before first acting.")),
        "mana_per_zero_phase": Option(default=1, help=N_("Mana each caster regains at the start of each zero phase.")),
        "defender_flips": Option(
            default="players",
            choices=("players", "auto"),
            help=N_(
                "`players`: player characters flip their own defence "
                "(a choice with a button); `auto`: the bot flips every defence at once."
            ),
        ),
        "disabled_can_act": Option(default=True, help=N_("Characters at exactly 0 LETHAL (disabled) may still act.")),
    }

    # --- characters ----------------------------------------------------------------
    def combatant_fields(self, sheet: dict[str, Any], action) -> dict[str, Any]:
        values = TowersSheet(**sheet)
        return {
            "sheet": values,
            "weapons": parse_weapons(values.weapons),
            "surprised": bool(action.surprised),
            "stun": values.stun,
            "lethal": values.lethal,
            "mana": values.mana,
        }

    def make_combatant(self, enc, action, cid, name):
        return attach(enc, super().make_combatant(enc, action, cid, name))

    def roll_initiative(self, enc, combatant: TowersCombatant, chance):
        return calculated(enc, combatant, chance)

    def order_ties(self, enc, tied, chance):
        settled, events = settle_ties(enc, tied, chance)
        return settled, [[e.cid] for e in settled], events

    def can_act(self, enc, combatant: TowersCombatant) -> bool:
        return can_act(enc, combatant)

    # --- the clock -----------------------------------------------------------------
    def on_turn_start(self, enc, cid, chance):
        me = enc.get(cid)
        ended = tuple(flag for flag, _ in ENDINGS if getattr(me, flag))
        enc = enc.update(cid, full_defense=False, reckless=False, power_attacked=False, ended=ended)
        what = listed(say(label) for flag, label in ENDINGS if flag in ended)
        events = [Event(kind="info", text=say("{who}: {what} ends.", who=me.name, what=what))] if ended else []
        return enc, events

    def on_idle_turn(self, enc, cid, chance):
        """End turn is the Forced Delay: an action, so it ends flat-footed and loses Aiming."""
        me = enc.get(cid)
        enc, events = forced_delay(enc, me)
        if me.aim:
            events.append(Event(kind="info", text=say("{who} loses the benefits of Aiming.", who=me.name)))
        return acted(enc, cid, "forced delay"), events

    def on_phase(self, enc, phase: int, chance) -> tuple[TowersEncounter, list[Event]]:
        events: list[Event] = []
        for combatant in enc.active():
            ending = [c for c in combatant.conditions if c.until_phase is not None and c.until_phase <= phase]
            if ending:
                left = tuple(c for c in combatant.conditions if c not in ending)
                enc = enc.update(combatant.id, conditions=left)
                names = listed(term(c.name) for c in ending)
                text = say("Phase {phase}: {who}'s {what} ends.", phase=phase, who=combatant.name, what=names)
                events.append(Event(kind="info", text=text))
        if phase % PHASES_PER_ROUND == 0:
            enc, more = self.zero_phase(enc, phase)
            events.extend(more)
        return enc, events

    def zero_phase(self, enc, phase: int) -> tuple[TowersEncounter, list[Event]]:
        events: list[Event] = []
        regain = int(enc.options.get("mana_per_zero_phase", 1))
        for combatant in enc.active():
            for condition in combatant.conditions:
                if condition.ongoing:
                    current = enc.get(combatant.id)
                    if current.out:
                        break
                    harm = Harm(base=condition.ongoing, category=condition.category, dtype=condition.dtype)
                    amount = dealt(harm, current)
                    after, state = take(current, amount.stun, amount.lethal)
                    enc = enc.with_combatant(after)
                    line = seq(
                        say("Phase {phase}:", phase=phase), " ", term(condition.name), ": ", amount.result(state)
                    )
                    events.append(Event(kind="info", text=line))
            current = enc.get(combatant.id)
            if current.dying:
                after, state = take(current, 0, 1)
                enc = enc.with_combatant(after)
                events.append(
                    Event(
                        kind="info",
                        text=seq(
                            say(
                                "Phase {phase} (zero phase): {who} is dying and loses 1 LETHAL.",
                                phase=phase,
                                who=current.name,
                            ),
                            " ",
                            state,
                        ),
                    )
                )
            current = enc.get(combatant.id)
            if current.sheet.mana and current.mana < current.sheet.mana and regain and not current.out:
                mana = min(current.sheet.mana, current.mana + regain)
                enc = enc.update(current.id, mana=mana)
                was, now, most = (secret(value, current) for value in (current.mana, mana, current.sheet.mana))
                events.append(
                    Event(
                        kind="info",
                        text=say(
                            "Phase {phase} (zero phase): {who} regains mana: {was} → {now}/{most}.",
                            phase=phase,
                            who=current.name,
                            was=was,
                            now=now,
                            most=most,
                        ),
                    )
                )
        return enc, events

    # --- actions ---------------------------------------------------------------------
    def handlers(self):
        return {
            Act: self.act,
            Attack: lambda enc, a, ch: attacks.start(self, enc, a, ch),
            OpportunityAttack: lambda enc, a, ch: attacks.start(self, enc, a, ch),
            Damage: self.damage,
            Heal: self.heal,
            AddCondition: self.add_condition,
            RemoveCondition: self.remove_condition,
            Check: self.check,
        }

    def handler(self, action):
        """Every action, then any grapple whose grappler has dropped to 0 STUN or LETHAL breaks."""
        inner = super().handler(action)

        def checked(enc, action, chance):
            enc, events = inner(enc, action, chance)
            enc, broke = grapple.broken(enc)
            if not broke:
                return enc, events
            events = list(events)
            at = next((i for i, e in enumerate(events) if e.kind in ("turn", "round")), len(events))
            return enc, events[:at] + broke + events[at:]

        return checked

    def act(self, enc, action: Act, chance):
        kind = action_type(action.what)
        if kind.attack:
            raise InvalidInput(
                say(
                    "Use /attack (or /act action:{key} with a target) for {action}.",
                    key=kind.key,
                    action=term(kind.label),
                )
            )
        if kind.key == "release":
            raise InvalidInput(say("Release a hold with /act action:release target:<who is acting now>."))
        return moves.act(self, enc, action, chance)

    def resume_defense(self, enc, pending, option, chance):
        plan = attacks.Plan.model_validate(pending.context["plan"])
        return attacks.proceed(self, enc, plan, chance, [], answered=True)

    def resume_throw(self, enc, pending, option, chance):
        return moves.thrown(self, enc, grapple.Thrown.model_validate(pending.context["throw"]), chance)

    def damage(self, enc, action: Damage, chance):
        target = enc.find(action.target)
        if target.out:
            raise InvalidInput(say("{who} is already dead.", who=target.name))
        base, flips = action.stun, action.flips
        lead: Text = EMPTY
        if action.fall_feet:
            steps = action.fall_feet // 5
            base = steps * FALL_STUN_PER_5FT
            flips += steps * FALL_FLIPS_PER_5FT
            lead = say(
                "Fall of {feet} feet: {stun} physical STUN and {flips} damage flips",
                feet=action.fall_feet,
                stun=base,
                flips=flips,
            )
        hearts = 0
        if flips:
            cards = damage_cards(chance, flips)
            hearts = sum(1 for code in cards if Card.parse(code).heart)
            shown = " ".join(str(Card.parse(code)) for code in cards)
            lead = lead or say("{stun} STUN and {flips} damage flips", stun=base, flips=flips)
            lead = seq(lead, f": {shown} → {hearts}♥")
        harm = Harm(
            base=base,
            hearts=hearts,
            extra_lethal=action.lethal,
            category=action.category,
            dtype=action.dtype,
            minimum=base + hearts > 0,
        )
        amount = dealt(harm, target)
        after, state = take(target, amount.stun, amount.lethal)
        enc = enc.with_combatant(after)
        took = (
            amount.result(state)
            if amount.immune
            else say("{who} takes {what}", who=target.name, what=amount.result(state))
        )
        text = seq(lead, ". ", took) if lead else took
        events = [Event(kind="roll" if flips else "info", text=text)]
        enc, more = self.turns.settle(self, enc, chance)
        return enc, events + more

    def heal(self, enc, action: Heal, chance):
        target = enc.find(action.target)
        if target.out:
            raise InvalidInput(say("{who} is dead.", who=target.name))
        if action.temporary:
            field = "temp_lethal" if action.lethal else "temp_stun"
            old = getattr(target, field)
            kept = max(old, action.amount)  # temporary values never stack: the better one stays
            enc = enc.update(target.id, **{field: kept})
            shown = secret(kept, target)
            if kept == old and old:
                template = N_("{who}: temporary {pool} {n} kept (temporary values never stack).")
            else:
                template = N_("{who}: temporary {pool} {n} gained.")
            pool = term("LETHAL" if action.lethal else "STUN")
            return enc, [Event(kind="info", text=say(template, who=target.name, pool=pool, n=shown))]
        if action.lethal:
            after, text = heal(target, lethal=action.amount)
        else:
            after, text = heal(target, stun=action.amount)
        return enc.with_combatant(after), [Event(kind="info", text=say("Healing: {what}", what=text))]

    def add_condition(self, enc, action: AddCondition, chance):
        target = enc.find(action.target)
        if not action.name:
            raise InvalidInput(say("Name the condition."))
        if action.name.casefold() == "prone":
            if target.prone:
                raise InvalidInput(say("{who} is already prone.", who=target.name))
            return enc.update(target.id, prone=True), [Event(kind="info", text=say("{who} is prone.", who=target.name))]
        kept = tuple(c for c in target.conditions if c.name.casefold() != action.name.casefold())
        if len(kept) == len(target.conditions):  # a new name: it stands beside all those held
            refuse_another_condition(target.name, len(target.conditions))
        until = enc.turns.phase + action.phases if action.phases else None
        condition = Condition(
            name=action.name,
            minor=action.minor,
            until_phase=until,
            ongoing=action.ongoing,
            category=action.category,
            dtype=action.dtype,
        )
        enc = enc.update(target.id, conditions=kept + (condition,))
        name = term(action.name)
        text = (
            say("{who}: {what} (minor)", who=target.name, what=name) if action.minor else seq(target.name, ": ", name)
        )
        if until is not None:
            text = seq(text, " ", say("until the start of phase {phase}", phase=until))
        if action.ongoing:
            if action.category != "none":
                each = say("{n} {category} STUN at each zero phase", n=action.ongoing, category=term(action.category))
            else:
                each = say("{n} STUN at each zero phase", n=action.ongoing)
            text = seq(text, "; ", each)
        return enc, [Event(kind="info", text=seq(text, "."))]

    def remove_condition(self, enc, action: RemoveCondition, chance):
        target = enc.find(action.target)
        if action.name.strip().casefold() == "prone":
            if not target.prone:
                raise InvalidInput(say("{who} is not prone.", who=target.name))
            line = say("{who} is no longer prone.", who=target.name)
            return enc.update(target.id, prone=False), [Event(kind="info", text=line)]
        left = tuple(c for c in target.conditions if c.name.casefold() != action.name.strip().casefold())
        if len(left) == len(target.conditions):
            raise InvalidInput(say("{who} has no condition {name}.", who=target.name, name=quoted(action.name)))
        line = say("{who}: {what} ends.", who=target.name, what=term(action.name))
        return enc.update(target.id, conditions=left), [Event(kind="info", text=line)]

    def check(self, enc, action: Check, chance):
        me = own_combatant(enc, action, say("Name who resists with actor:."))
        check_save_stat(action.stat)
        value, label = getattr(me.sheet, action.stat), stat_label(action.stat)
        mods = reckless_mods(me)
        if action.stat in ("pd", "id"):
            # A Defense resisting an effect is a defensive flip: flat-footed, Full Defense, a Power Attack count.
            value, label = defense_base(me, action.stat)
            mods = posture_mods(me) + stance_defense(me, action.stat)
        against, mine, resisted = resist(chance, action.against, value, mods)
        theirs = described(label, secret(value, me), mods, mine)
        if resisted:
            template = N_("Attack {n}: {cards} vs {who} {flip} → resisted")
        else:
            template = N_("Attack {n}: {cards} vs {who} {flip} → affected")
        text = say(template, n=action.against, cards=against.text(), who=me.name, flip=theirs)
        return enc, [Event(kind="roll", text=text)]

    # --- what people see ------------------------------------------------------------------
    def status_line(self, enc, combatant: TowersCombatant, *, reveal: bool) -> Text:
        if not reveal:
            if combatant.out:
                return say("dead")
            if combatant.unconscious or combatant.dying:
                # Translators: a combatant's state on the tracker: out of the fight (not a direction)
                return say("down")
            hurt = combatant.stun < combatant.sheet.stun or combatant.lethal < combatant.sheet.lethal
            return say("hurt") if hurt else say("unhurt")
        c = combatant
        parts = [
            seq(say("STUN {now}/{most}", now=c.stun, most=c.sheet.stun), f" +{c.temp_stun}" if c.temp_stun else ""),
            seq(
                say("LETHAL {now}/{most}", now=c.lethal, most=c.sheet.lethal),
                f" +{c.temp_lethal}" if c.temp_lethal else "",
            ),
        ]
        if combatant.sheet.mana:
            parts.append(say("mana {now}/{most}", now=combatant.mana, most=combatant.sheet.mana))
        entry = next((e for e in enc.turns.entries if e.cid == combatant.id), None)
        if entry is not None:
            parts.append(say("CI {ci}", ci=int(entry.key[0])))
        states: list[Text] = [term(s) for s in combatant.states()]
        states += [
            say("{name} (minor)", name=grapple.shown(x.name)) if x.minor else grapple.shown(x.name)
            for x in combatant.conditions
        ]
        if combatant.flat_footed and self.can_act(enc, combatant):
            states.append(say("flat-footed"))
        if combatant.stance and not combatant.out:
            states.append(say("{stance} stance", stance=term(combatant.stance)))
        if combatant.companion_of:
            states.append(say("{master}'s companion", master=enc.get(combatant.companion_of).name))
        if states:
            parts.append(listed(states))
        return joined(" · ", parts)

    def turn_summary(self, enc, cid) -> list[Text]:
        me = enc.get(cid)
        lines: list[Text] = []  # the phase is in the message's title
        if me.leaping:
            lines.append(say("Mid Running Leap: the leap comes now (/act action:running leap, 5)."))
        if me.flat_footed:
            lines.append(say("Flat-footed until acting: PD without Soft Strength, no opportunity attacks."))
        if me.aim:
            limit = getattr(me.sheet, me.aim_stat) // 2
            lines.append(
                say(
                    "Aiming: (flip+{aim}) on the next {stat} attack (at most +{limit}).",
                    aim=me.aim,
                    stat=term(me.aim_stat.upper()),
                    limit=secret(limit, me),
                )
            )
        if me.prone:
            lines.append(say("Prone: Stand from Prone costs 4."))
        if me.free_phase == enc.turns.phase:
            lines.append(say("A free or zero-cost action this phase: no Forced Delay (End turn) until the next."))
        if me.stance:
            lines.append(
                say(
                    "Fighting {how} ({effect}): change it before acting with /act action:stance (free).",
                    how=term(ADVERBS[me.stance]),
                    effect=effect(me.stance),
                )
            )
        if me.companion_of:
            lines.append(
                say(
                    "Activates with {master}: one action for the two of you (name who acts with actor:); "
                    "a Combat or Reckless Move moves both.",
                    master=enc.get(me.companion_of).name,
                )
            )
            if self.can_act(enc, enc.get(me.companion_of)):
                return lines  # the master's lines list the actions
        lines.append(
            say(
                "Attack 5 · Power Attack 7 · Charge 8 · Aim 5 · Move 5 · Shift Position 3 (+2 added) · "
                "Full Defense 10 · Recover 5 · Hold · End turn = Forced Delay 5"
            )
        )
        return lines


SYSTEM = TowersSystem()
