"""`/damage`, `/heal`, `/save` and `/condition`: effects outside an attack."""

from __future__ import annotations

from ...commands import flag_number
from ...common import refuse_another_condition
from ...dice import check_expression
from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...said import N_, joined, say, say_plural, seq, term
from ...secrets import secret
from ...text import EMPTY, Text
from ...usertext import Typed, listed, mark, one_line
from . import conditions as cond
from . import damage as dmg
from . import economy, modes
from .hooks import ABILITIES, DEFENSES, roll_save
from .model import MAX_DC, Condition, RCCombatant, RCEncounter, known_damage_type, tag_words


def damage(system, enc: RCEncounter, action, chance):
    """Dice of `amount`; `crit` adds the critical Wound, `wounds=N` deals Wounds
    directly, `ongoing` counts towards the continuous-damage total, `ap` ignores DR."""
    target = economy.real(enc, enc.find(action.target))
    if target.out or target.environment:
        raise InvalidInput(say("{who} cannot take damage.", who=target.name))
    damage_type = known_damage_type((action.damage_type or "kinetic").strip().lower())
    flags = action.flags
    spec = {
        "target": target.id,
        "amount": action.amount,
        "type": damage_type,
        "crit": bool(flags.get("crit")),
        "ap": bool(flags.get("ap")),
        "ongoing": bool(flags.get("ongoing")),
        "wounds": flag_number(flags, "wounds", 0, 20) or 0,
    }
    return resolve_damage(system, enc, spec, chance)


def resolve_damage(system, enc: RCEncounter, spec: dict, chance):
    """Roll and apply `/damage`. Dice rolled are the last roll, which a Plot Point may reroll ("any d20 check or
    damage roll") from where it began; a plain number is no roll."""
    started = enc
    target = enc.get(spec["target"])
    damage_type = spec["type"]
    roll = chance.roll(spec["amount"])
    harm = dmg.Harm(
        max(0, roll.total),
        damage_type,
        critical=spec["crit"],
        armor_piercing=spec["ap"],
        ongoing=spec["ongoing"],
        wounds=spec["wounds"],
    )
    was_horde = bool(target.horde)
    enc, text, report = dmg.harm(enc, target.id, harm)
    events = []
    if was_horde and report.taken_out:
        enc, more = modes.member_down(system, enc, target.id, chance)
        text = seq(text, more.pop(0).said)
        events.extend(more)
        report.dying, report.interrupt_dc = False, None
    t = enc.get(target.id)
    tail = EMPTY if t.out or (was_horde and report.taken_out) else seq(" (", t.name, ": ", dmg.status(t), ")")
    head = say(
        "{who} takes {kind} damage: {roll} = {total}",
        who=target.name,
        kind=term(damage_type),
        roll=roll.text,
        total=roll.total,
    )
    events.insert(0, Event(kind="roll", text=seq(head, text, tail)))
    enc, more = dmg.follow_up(enc, target.id, report)
    if roll.dice:
        enc = enc.rolled(started, "damage", "", spec, damage=roll.dice)
    return enc, events + more


def heal(enc: RCEncounter, action, chance):
    """Dice of `amount`: Stamina (`temp`: temporary Stamina, replacing any; `wounds`: Wounds)."""
    target = economy.real(enc, enc.find(action.target))
    if target.out:
        raise InvalidInput(say("{who} is out of the fight.", who=target.name))
    roll = chance.roll(action.amount)
    amount = max(0, roll.total)
    if action.flags.get("temp"):
        t = target.but(temp_stamina=amount)
        what = (
            say("{amount} temporary Stamina (replacing {old})", amount=amount, old=secret(target.temp_stamina, target))
            if target.temp_stamina
            else say("{amount} temporary Stamina", amount=amount)
        )
    elif action.flags.get("wounds"):
        gained = min(amount, target.max_wounds - target.wounds)
        t = target.but(wounds=target.wounds + gained)
        # how much was gained tells how much was missing
        shown = secret(gained, target)
        what = say_plural("{n} Wound", "{n} Wounds", None if target.hidden else gained, n=shown)
    else:
        if target.zombie:
            raise InvalidInput(say("Zombies have no Stamina to recover."))
        gained = min(amount, target.max_stamina - target.stamina)
        t = target.but(stamina=target.stamina + gained)
        what = say("{n} Stamina", n=secret(gained, target))
    t, more = dmg.settle(t)
    enc = enc.with_combatant(t)
    text = say(
        "{who} recovers {what}: {roll} = {total} ({status}).",
        who=t.name,
        what=what,
        roll=roll.text,
        total=roll.total,
        status=dmg.status(t),
    )
    return enc, [Event(kind="roll", text=text)]


def save(enc: RCEncounter, action, chance):
    c = economy.actor_of(enc, action)
    kind = (action.save or "con").strip().lower()
    condition = _condition_for(c, kind)
    if condition is None and kind not in ABILITIES and kind not in DEFENSES:
        raise InvalidInput(_not_a_save(c, kind))
    kind = ABILITIES.get(kind, kind)  # `wisdom` is the WIS save, as a condition's save=wisdom is
    dc = action.dc if action.dc is not None else (condition.dc if condition else None)
    if dc is None:
        raise InvalidInput(say("Give the save's `dc`."))
    if not 1 <= dc <= MAX_DC:
        raise InvalidInput(say("A DC is between {low} and {high}.", low=1, high=MAX_DC))
    flags = action.flags
    if c.has("Unconscious") and kind[:3] in ("avo", "wil"):
        return enc, [
            Event(
                kind="roll",
                text=say(
                    "{who} is Unconscious: the {check} check fails automatically.",
                    who=c.name,
                    check=mark(kind.capitalize()),
                ),
            )
        ]
    if flags.get("auto"):
        return _unleashed_save(enc, c, kind, dc, condition)
    adv = ["advantage"] if flags.get("adv") else []
    if flags.get("unleashed"):
        enc = modes.unleashed_advantage(enc, c)
        adv.append(N_("Unleashed"))
    spec = {
        "who": c.id,
        "kind": kind,
        "dc": dc,
        "adv": adv,
        "dis": ["disadvantage"] if flags.get("dis") else [],
        "condition": condition.name if condition else "",
        "tags": list(condition.tags) if condition else [],
    }
    enc = enc.update(c.id, assisted_by=())
    return resolve_save(enc, spec, chance, assisted=bool(c.assisted_by))


def resolve_save(enc: RCEncounter, spec, chance, assisted: bool = False):
    started = enc
    c = enc.get(spec["who"])
    adv = list(spec["adv"]) + (["assisted"] if assisted else [])
    spec = spec | {"adv": adv}
    held = _held(c, spec)
    save_kind = spec["kind"] if not spec["condition"] else held.save if held else "con"
    enc, ok, text = roll_save(enc, c.id, save_kind, spec["dc"], chance, adv, spec["dis"])
    events = [
        Event(
            kind="roll", text=say("{who} {kind} save: {result}", who=c.name, kind=mark(save_kind.upper()), result=text)
        )
    ]
    if ok and held is not None:
        enc = enc.update(c.id, conditions=tuple(x for x in enc.get(c.id).conditions if x != held))
        events.append(Event(kind="info", text=say("{who} shakes off {condition}.", who=c.name, condition=held.label())))
    return enc.rolled(started, "save", c.id, spec), events


def _held(c, spec):
    """The condition a save (or its reroll) is against: the one of that name and tags."""
    if not spec["condition"]:
        return None
    tags = spec.get("tags") or []  # older saves named only the condition
    return next((x for x in c.conditions if x.name == spec["condition"] and (not tags or list(x.tags) == tags)), None)


def _unleashed_save(enc, c, kind, dc, condition):
    enc = _automatic_success(enc, c)
    enc = enc.update(c.id, conditions=tuple(x for x in c.conditions if x != condition))
    values = dict(who=c.name, dc=dc, pool=enc.pool)
    if condition:
        text = say(
            "The Editor-in-Chief spends a Plot Point from the pool: {who}'s {kind} save against {condition} "
            "(DC {dc}) succeeds automatically; {name} ends (pool {pool}).",
            kind=mark(condition.save.upper()),
            condition=condition.label(),
            name=term(condition.name),
            **values,
        )
    else:
        text = say(
            "The Editor-in-Chief spends a Plot Point from the pool: {who}'s {kind} save (DC {dc}) succeeds "
            "automatically (pool {pool}).",
            kind=mark(kind.upper()),
            **values,
        )
    return enc, [Event(kind="info", text=seq("🎭 ", text))]


def _automatic_success(enc: RCEncounter, c: RCCombatant) -> RCEncounter:
    """ "Once per round, the Editor-in-Chief may use a plot point to have the villain automatically succeed in a
    saving throw": the point leaves the pool and the round's use is taken."""
    if not c.unleashed:
        raise NotAllowed(
            say("Only an Unleashed villain can succeed automatically; {who} is not Unleashed.", who=c.name)
        )
    if c.unleashed_save_round == enc.round:
        raise NotAllowed(say("{who} already used this round's automatic save.", who=c.name))
    if enc.pool <= 0:
        raise NotAllowed(say("The Editor-in-Chief's pool has no Plot Point to spend."))
    return enc.update(c.id, unleashed_save_round=enc.round).but(pool=enc.pool - 1)


def _condition_for(c, kind: str):
    """The condition a save's `kind` names, if it has a save: `stunned`, or `weakened dexterity` for
    one of several Weakened (each has its own save); None when `kind` names no condition. A condition
    `c` does not hold, or holds without a save, is refused: there is no DC or save of its own to roll."""
    name, words = _named(kind)
    if name is None:
        return None
    fits = _named_one(_saved_against(c, name), words)
    if not fits:
        raise InvalidInput(
            say("{who} has no {condition} to save against.", who=c.name, condition=_typed_label(name, words))
        )
    if len(fits) > 1:
        raise InvalidInput(
            say(
                "{who} is {condition} more than once: name the one to save against, e.g. {example}.",
                who=c.name,
                condition=term(name),
                example=_example(fits[0]),
            )
        )
    return fits[0]


def _ability(typed: str) -> str:
    """The ability a condition's `save=` names, short (`wisdom` → `wis`)."""
    key = typed.strip().lower()
    if key not in ABILITIES:
        raise InvalidInput(
            say(
                "{typed} is not an ability: a condition's `save=` names one of {abilities}.",
                typed=mark(one_line(typed, 20)),
                abilities=_abilities(),
            )
        )
    return ABILITIES[key]


def _abilities() -> Text:
    return listed(f"`{k}`" for k in dict.fromkeys(ABILITIES.values()))


def _saved_against(c: RCCombatant, name: str | None = None) -> list[Condition]:
    """The conditions `c` holds that end on a save (those of `name`, if given)."""
    return [x for x in c.conditions if name in (None, x.name) and (x.until == "save" or x.dc is not None)]


def _not_a_save(c: RCCombatant, kind: str) -> Text:
    """The refusal of a save's `kind` that names no ability, defense or condition, with what it may name."""
    values = dict(
        kind=mark(one_line(kind, 40)),
        who=c.name,
        abilities=_abilities(),
        defenses=listed(f"`{k}`" for k in DEFENSES),
    )
    held = _saved_against(c)
    if not held:
        return say(
            "{kind} is not a save: name an ability ({abilities}) or a defense ({defenses}); {who} holds no condition "
            "that ends on a save.",
            **values,
        )
    return say(
        "{kind} is not a save: name an ability ({abilities}), a defense ({defenses}) or a condition {who} holds "
        "that ends on a save ({conditions}).",
        conditions=listed(_example(x) for x in held),
        **values,
    )


def _named(kind: str) -> tuple[str | None, tuple[str, ...]]:
    """A condition's name and the tag words typed after it: `"stunned"` → ("Stunned", ()), `"weakened
    (dexterity, severe)"` → ("Weakened", ("dexterity", "severe")), as `/condition list` shows it or typed;
    (None, ()) when no condition leads it."""
    try:
        return cond.canonical(kind)[0], ()
    except InvalidInput:
        pass
    words = tag_words(kind)
    for cut in range(len(words) - 1, 0, -1):
        try:
            name, _ = cond.canonical(" ".join(words[:cut]))
        except InvalidInput:
            continue
        return name, words[cut:]
    return None, ()


def _named_one(held: list[Condition], words: tuple[str, ...]) -> list[Condition]:
    """Which of `held` (one name) the typed tag `words` name: the first whose tags are exactly those words, so
    the plain `weakened dexterity` is named beside a Severe one; else those whose tags hold every word (`dex`
    finds Dexterity). Several that differ come back, for the caller to ask which; ones alike in tags are one
    to the player, so the first stands for them."""
    wanted = frozenset(words)
    exact = [x for x in held if x.tag_words() == wanted]
    if exact:
        return exact[:1]
    fits = [x for x in held if not words or x.tagged(" ".join(words))]
    if len({x.tag_words() for x in fits}) > 1:
        return fits
    return fits[:1]


def _example(x: Condition) -> Text:
    """How to type `x` so that it alone is named: its full tag list, which `_named_one` takes exactly."""
    return mark(" ".join((x.name.lower(), *x.tags)))


def _typed_label(name: str, words: tuple[str, ...]) -> Text:
    return seq(term(name), " (", mark(", ".join(words)), ")") if words else term(name)


def resume_interrupt(enc: RCEncounter, pending, option, chance):
    context = pending.context
    cid, dc, later = context["cid"], context["dc"], tuple(context.get("later") or ())
    c = enc.get(cid)
    if option == dmg.INTERRUPT_AUTO and c.demanding is not None:
        return _interrupt_kept(enc, c, c.demanding.what, dc, later)
    adv: tuple[str, ...] = ()
    if option == dmg.INTERRUPT_UNLEASHED and c.demanding is not None:
        enc, adv = modes.unleashed_advantage(enc, c), (N_("Unleashed"),)
    return interrupt_save(enc, cid, dc, later, chance, adv)


def _interrupt_kept(enc: RCEncounter, c: RCCombatant, what: Typed, dc: int, later: tuple[int, ...]):
    """An Unleashed villain's automatic success on the save that keeps its demanding action going."""
    enc = _automatic_success(enc, c)
    text = say(
        "The Editor-in-Chief spends a Plot Point from the pool: {who}'s CON save to keep {what} (DC {dc}) succeeds "
        "automatically — still going (pool {pool}).",
        who=c.name,
        what=what,
        dc=secret(dc, c),
        pool=enc.pool,
    )
    events = [Event(kind="info", text=seq("🎭 ", text))]
    if later:
        enc, asked = dmg.interrupt_pending(enc, c.id, later[0], later[1:])
        events.append(asked)
    return enc, events


def interrupt_save(enc: RCEncounter, cid: str, dc: int, later: tuple[int, ...], chance, adv: tuple[str, ...] = ()):
    """The save that keeps a demanding action going, then the next one `later` damage asks for; `adv`: why it
    has advantage (an Unleashed villain's once a round). It is the last roll, which a Plot Point may reroll
    ("any d20 check")."""
    c = enc.get(cid)
    if c.demanding is None:
        return enc, [Event(kind="info", text=say("{who} is no longer performing a demanding action.", who=c.name))]
    started = enc
    enc, ok, text = roll_save(enc, cid, "con", dc, chance, adv, own_dc=True)
    values = dict(who=c.name, what=c.demanding.what, result=text)
    if ok:
        events = [Event(kind="roll", text=say("{who} CON save to keep {what}: {result} — still going.", **values))]
    else:
        enc = enc.update(cid, demanding=None)
        events = [
            Event(
                kind="roll",
                text=say(
                    "{who} CON save to keep {what}: {result} — the action is disrupted (no Burnout is paid; it can "
                    "be tried again).",
                    **values,
                ),
            )
        ]
    spec = {"who": cid, "kind": "con", "dc": dc, "interrupt": True, "later": list(later)}
    enc = enc.rolled(started, "save", cid, spec)
    if ok and later:
        enc, asked = dmg.interrupt_pending(enc, cid, later[0], later[1:])
        events.append(asked)
    return enc, events


# --- conditions --------------------------------------------------------------
def may_change(enc: RCEncounter, action) -> None:
    if action.by.is_gm:
        return
    if enc.status != "running" or not any(enc.get(c).controller_id == action.by.user_id for c in enc.turns.acting):
        raise NotAllowed(say("Players apply conditions on their own turn; otherwise ask the GM."))


def add_condition(enc: RCEncounter, action, chance):
    may_change(enc, action)
    target = economy.real(enc, enc.find(action.target))
    name, level = cond.canonical(action.condition)
    if name == "Exhaustion" and not 1 <= level <= cond.MAX_EXHAUSTION:
        raise InvalidInput(say("Exhaustion has levels 1 to {n} (at {n} the creature dies).", n=cond.MAX_EXHAUSTION))
    if name in cond.DERIVED and name != "Unconscious":
        raise InvalidInput(
            say("{condition} follows from Wounds and Stamina: the bot sets it by itself.", condition=term(name))
        )
    flags = action.flags
    fields = cond.parse_duration(action.duration, enc, target)
    tags = cond.parse_tags(action.tags)
    level = flag_number(flags, "level", 1, 6) or level
    extra = {}
    dc = flag_number(flags, "dc", 1, MAX_DC)
    if name == "Ongoing Damage":
        amount = str(flags.get("damage") or "")
        if not amount:
            raise InvalidInput(say("Ongoing Damage needs `damage=` in the options, e.g. `damage=1d6 type=fire dc=12`."))
        check_expression(amount)
        kind = known_damage_type(str(flags.get("type", "kinetic")).lower())
        extra = {"damage": amount, "damage_type": kind, "at": "end" if flags.get("end") else "start"}
        dc = dc if dc is not None else int(enc.options.get("ongoing_dc", 10))
        if fields["until"] == "none":
            fields = {"until": "save"}
    if fields["until"] == "save" and dc is None:
        raise InvalidInput(say("A condition that lasts until saved needs `dc=` in the options."))
    source: str = one_line(flags.get("source") or flags.get("by"), 60)
    if name == "Unconscious" and not source:
        source = "imposed"  # so Stamina changes do not wake them
    condition = Condition(
        name=name,
        tags=tags,
        level=level,
        dc=dc,
        save=_ability(str(flags.get("save", "con"))),
        since_turn=enc.turn_no,
        source=source,
        **fields,
        **extra,
    )
    if not cond.replaces(target, condition):
        refuse_another_condition(target.name, len(target.conditions))
    replaced = _replaced(target, condition)
    t = cond.add(target, condition)
    events = []
    exhausted = t.condition("Exhaustion")
    if exhausted is not None and exhausted.level >= cond.MAX_EXHAUSTION:
        t = t.but(dead=True, out=True)
        events.append(Event(kind="info", text=seq("☠️ ", say("{who} reaches Exhaustion 6 and dies.", who=t.name))))
    if name == "Unconscious":
        t = t.but(demanding=None, dodging=False)
    enc = enc.with_combatant(t)
    # `cond.add` puts what it added last (Exhaustion's summed level too): a second Weakened is the one said
    now = next((x for x in reversed(t.conditions) if x.name == name), condition)
    text: Text = say("{who} {state} {lasts}.", who=t.name, state=_state(now), lasts=_describe(now, enc, t, added=True))
    if replaced is not None:
        text = seq(text, " ", say("It replaces the {condition} they had.", condition=replaced.label()))
    enc, freed = dmg.let_go(enc)
    return enc, [Event(kind="info", text=text)] + events + freed


def _replaced(target: RCCombatant, condition: Condition) -> Condition | None:
    """The condition `condition` takes the place of (a bearer holds one of a name, Weakened and Ongoing Damage
    one per tags), said so the GM knows the first fire is not still burning under the second; none when it is
    the same again, or Exhaustion, whose levels add up."""
    if condition.name == "Exhaustion":
        return None
    old = cond.replaced(target, condition)
    if old is None or old.but(since_turn=condition.since_turn) == condition:
        return None
    return old


def _state(c: Condition) -> Text:
    if c.name == "Ongoing Damage":
        damage: dict[str, Text | str] = dict(damage=c.damage, kind=term(c.damage_type))
        if c.tags:
            damage["tags"] = listed(c.tags)
            if c.at == "start":
                return say(
                    "takes Ongoing Damage ({tags}: {damage} {kind} at the start of each of their turns)", **damage
                )
            return say("takes Ongoing Damage ({tags}: {damage} {kind} at the end of each of their turns)", **damage)
        if c.at == "start":
            return say("takes Ongoing Damage ({damage} {kind} at the start of each of their turns)", **damage)
        return say("takes Ongoing Damage ({damage} {kind} at the end of each of their turns)", **damage)
    if c.name == "Exhaustion":
        return say("has {condition}", condition=c.label())
    return say("is {condition}", condition=c.label())


def _describe(c: Condition, enc, bearer: RCCombatant, *, added: bool = False) -> Text:
    if c.until == "rounds":
        n = c.turns_left
        if added:
            return say_plural("for {n} round", "for {n} rounds", n, n=n)
        return say_plural("{n} round left", "{n} rounds left", n, n=n)
    if c.until == "turn_end":
        owner = next((o for o in enc.combatants if o.id == c.owner), None)
        if owner is not None:
            return say("until the end of {who}'s next turn", who=owner.name)
        if c.owner:  # who it waited for has left the fight (see hooks.round_end)
            return say("until the end of the round")
        return say("until the end of their next turn")
    if c.until == "save" and not bearer.saves_against(c):
        return say("until removed (a common zombie makes no save)")
    if c.until == "save":
        return say("until a DC {dc} {kind} save at the end of one of their turns", dc=c.dc, kind=mark(c.save.upper()))
    if c.until == "scene":
        return say("until the end of the scene")
    return say("until removed")


def remove_condition(enc: RCEncounter, action, chance):
    may_change(enc, action)
    target = economy.real(enc, enc.find(action.target))
    found, words = _named(action.condition)
    name = found if found is not None else cond.canonical(action.condition)[0]  # refused: it names no condition
    if not target.has(name):
        raise InvalidInput(say("{who} is not {condition}.", who=target.name, condition=term(name)))
    if name in cond.DERIVED:
        raise InvalidInput(say("{condition} follows from Wounds and Stamina: heal them instead.", condition=term(name)))
    if not words:
        t, shown = cond.remove(target, name), term(name)
    else:
        gone = _one_to_remove(target, name, words)
        t, shown = target.but(conditions=tuple(x for x in target.conditions if x != gone)), gone.label()
    enc = enc.with_combatant(t)
    return enc, [Event(kind="info", text=say("{who} is no longer {condition}.", who=target.name, condition=shown))]


def _one_to_remove(target, name: str, words: tuple[str, ...]) -> Condition:
    fits = _named_one([x for x in target.conditions if x.name == name], words)
    if not fits:
        raise InvalidInput(say("{who} is not {condition}.", who=target.name, condition=_typed_label(name, words)))
    if len(fits) > 1:
        raise InvalidInput(
            say(
                "{who} is {condition} more than once: name the one to remove, e.g. {example}.",
                who=target.name,
                condition=term(name),
                example=_example(fits[0]),
            )
        )
    return fits[0]


def conditions_text(enc: RCEncounter, target: str | None = None) -> Text:
    people = [enc.find(target)] if target else [c for c in enc.active() if c.conditions]
    lines = [seq("**", c.name, "**: ", _all_listed(c, enc)) for c in people]
    return joined("\n", lines) if lines else say("Nobody has a condition.")


def _all_listed(c, enc) -> Text:
    return joined("; ", (_listed(x, enc, c) for x in c.conditions)) if c.conditions else say("none")


def _listed(c: Condition, enc, bearer: RCCombatant) -> Text:
    if c.name in cond.DERIVED and not c.source:
        return c.label()  # follows from Stamina and Wounds: no duration to show
    extra = seq(c.damage, " ", term(c.damage_type), ", ") if c.name == "Ongoing Damage" else EMPTY
    return seq(c.label(), " — ", extra, _describe(c, enc, bearer))


def list_conditions(enc: RCEncounter, action, chance):
    return enc, [Event(kind="info", text=conditions_text(enc, action.target))]
