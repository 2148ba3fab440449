"""Damage through DR into temporary Stamina, Stamina and Wounds: massive
damage, criticals, zombies, continuous damage, and what follows (Unconscious,
Incapacitated, death, an interrupted demanding action)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model import MAX_CHOICES, Choice, Event, former_keys
from ...said import say, say_plural, seq, term
from ...secrets import secret
from ...text import EMPTY, Text
from . import conditions as cond
from .model import ENERGY, PHYSICAL, Condition, RCCombatant, RCEncounter, parse_dr

# The keys of the death question's options; an ally who pays is keyed by its id.
DEATH_FLAW, DEATH_BLAZE, DEATH_OWN, DEATH_DIE = "flaw", "blaze", "own", "die"
DEATH_LABELS = {
    DEATH_FLAW: say("Accept a physical flaw"),
    DEATH_BLAZE: say("Blaze of glory"),
    DEATH_OWN: say("Spend own Plot Point"),
    # Translators: a button of the death question: the hero chooses to die (a verb, not a die to roll)
    DEATH_DIE: say("Die"),
}
INTERRUPT_ROLL, INTERRUPT_UNLEASHED, INTERRUPT_AUTO = "roll", "unleashed", "auto"
former_keys(
    "death",
    {"Accept a physical flaw": DEATH_FLAW, "Blaze of glory": DEATH_BLAZE, "Spend own Plot Point": DEATH_OWN},
)
former_keys("interrupt", {"Roll the Constitution save": INTERRUPT_ROLL})


@dataclass(frozen=True, slots=True)
class Harm:
    amount: int
    damage_type: str = "kinetic"
    critical: bool = False
    armor_piercing: bool = False
    ongoing: bool = False
    wounds: int = 0  # Wounds dealt directly (falls, GM rulings)
    hit: bool = False  # an attack hit: interrupts even at 0 damage


@dataclass(slots=True)
class Report:
    after_dr: int = 0
    wounds: int = 0
    destroyed: bool = False
    dying: bool = False
    taken_out: bool = False
    interrupt_dc: int | None = None
    notes: list[str] = field(default_factory=list)


def best_dr(c: RCCombatant, damage_type: str) -> tuple[int, str]:
    """Only the highest applicable DR counts; psychic damage ignores any DR
    that does not name psychic. A condition's DR penalty is not taken off (`dr_step`)."""
    table = parse_dr(c.sheet.dr)
    keys: tuple[str, ...]
    if damage_type == "psychic":
        keys = ("psychic",)
    else:
        category = "energy" if damage_type in ENERGY else "physical" if damage_type in PHYSICAL else None
        keys = tuple(k for k in (damage_type, category, "all") if k)
    best, label = 0, ""
    for key in keys:
        if table.get(key, 0) > best:
            best, label = table[key], key
    return best, label


def dr_step(t: RCCombatant, h: Harm) -> tuple[int, Text | None]:
    """The DR that counts against `h` and how the damage line shows it (None: no DR to show). When a
    condition's DR penalty cuts it, the line gives the full DR and the cut, so the GM sees where it comes from."""
    full, key = (0, "") if h.armor_piercing else best_dr(t, h.damage_type)
    cut, source = cond.dr_penalty(t) if full else (0, "")
    dr = max(0, full - cut)
    if cut:
        shown = say(
            "{dr} ({kind} {full}, −{cut} from {source})", dr=dr, kind=term(key), full=full, cut=cut, source=term(source)
        )
        return dr, shown
    return dr, say("{dr} ({kind})", dr=dr, kind=term(key)) if dr else None


def harm(enc: RCEncounter, cid: str, h: Harm) -> tuple[RCEncounter, Text, Report]:
    """Apply one instance of damage; the text continues a roll's total.
    A Horde's damage lands on one member, named in the text. Each piece of the
    text starts with its separator outside the phrase, so a Horde's area line
    can trim it (`modes._trimmed`)."""
    t = enc.get(cid)
    if not t.horde:
        return _harm(enc, cid, h)
    enc, text, report = _harm(enc.update(cid, name=t.horde[0]), cid, h)
    return enc.update(cid, name=t.name), text, report


def _harm(enc: RCEncounter, cid: str, h: Harm) -> tuple[RCEncounter, Text, Report]:
    t: RCCombatant = enc.get(cid)
    report = Report()
    dr, shown_dr = dr_step(t, h)
    after = max(0, h.amount - dr)
    report.after_dr = after
    # a hidden target shows the step even without DR, or its absence would tell
    shows_dr = shown_dr is not None or (t.hidden and not h.armor_piercing)
    dr_text = dict(dr=secret(str(dr) if shown_dr is None else shown_dr, t), after=secret(after, t))
    if t.zombie and h.damage_type == "psychic":
        return enc, seq(" ", say("psychic: no effect on zombies")), report
    massive = False
    fortitude = cond.defense(t, "fortitude", enc.options)
    why: Text = EMPTY
    text: Text
    total = t.ongoing_total
    if h.ongoing:
        total += after
        if total > t.stamina_defense:
            massive = True
            why = seq(
                "; ",
                say(
                    "continuous total {total} > Stamina Defense {defense} → massive (total resets)",
                    total=secret(total, t),
                    defense=secret(t.stamina_defense, t),
                ),
            )
            total = 0
        else:
            why = seq(
                " ",
                say(
                    "(continuous total {total}/{defense})",
                    total=secret(total, t),
                    defense=secret(t.stamina_defense, t),
                ),
            )
    elif after > fortitude:
        massive = True
        why = seq(
            "; ",
            say("{after} > Fortitude {fortitude} → massive", after=secret(after, t), fortitude=secret(fortitude, t)),
        )
    t = t.but(ongoing_total=total)
    if t.zombie:
        text = seq(seq(" ", say("− DR {dr} = {after}", **dr_text)) if shows_dr else EMPTY, why)
        # "Once a Zombie suffers enough total Damage by continuous Damage to bypass their Stamina Defense, they
        # suffer 1 wound of Damage, enough to destroy a common Z": continuous damage takes a Wound, even from an
        # Epsilon zombie that massive damage would destroy outright.
        if massive and t.lesser_zombie and not h.ongoing:
            t = t.but(wounds=0, dead=True, out=True)
            report.destroyed = report.taken_out = True
            enc = enc.with_combatant(t)
            return enc, seq(text, ": ", say("{who} is destroyed", who=t.name)), report
        dealt = int(h.critical) + int(massive) + h.wounds
        if not dealt and h.ongoing:
            return (
                enc.with_combatant(t),
                seq(text, ": ", say("no Wound until the total passes its Stamina Defense")),
                report,
            )
        if not dealt:
            report.interrupt_dc = _interrupt_dc(t, h, 0, 0)
            return (
                enc.with_combatant(t),
                seq(text, ": ", say("no effect (zombies are hurt only by massive damage and criticals)")),
                report,
            )
        t = t.but(wounds=max(0, t.wounds - dealt))
        report.wounds = dealt
        text = seq(text, wound_text(dealt, h.critical, massive))
        if t.wounds == 0:
            t = t.but(dead=True, out=True)
            report.destroyed = report.taken_out = True
            text = seq(text, "; ", say("{who} is destroyed", who=t.name))
        else:
            report.interrupt_dc = _interrupt_dc(t, h, 0, dealt)
        return enc.with_combatant(t), text, report
    text = seq(" ", say("− DR {dr} = {after} Stamina", **dr_text) if shows_dr else say("Stamina"))
    absorbed = min(t.temp_stamina, after)
    if absorbed:
        text = seq(text, " ", say("({absorbed} absorbed by temporary Stamina)", absorbed=secret(absorbed, t)))
    stamina = max(0, t.stamina - (after - absorbed))
    t = t.but(temp_stamina=t.temp_stamina - absorbed, stamina=stamina)
    text = seq(text, why)
    dealt = int(h.critical) + int(massive) + h.wounds
    if dealt and not t.wounds:
        # Incapacitated at 0 Wounds: only the Stamina damage lands.
        text = seq(text, no_wound_text(h.critical, massive))
    elif dealt:
        text = seq(text, wound_text(dealt, h.critical, massive))
        t = t.but(wounds=max(0, t.wounds - dealt))
        report.wounds = dealt
    t, more = settle(t)
    text = seq(text, more)
    enc = enc.with_combatant(t)
    if t.wounds == 0 and t.current_stamina == 0:
        if t.is_hero and not t.dead:
            report.dying = True
        else:
            enc = enc.with_combatant(t.but(dead=True, out=True))
            text = seq(text, "; ", say("{who} dies", who=t.name))
        report.taken_out = True
    elif cond.helpless(t):
        report.taken_out = True
    if not report.taken_out:
        report.interrupt_dc = _interrupt_dc(t, h, after, dealt)
    return enc, text, report


def _interrupt_dc(t: RCCombatant, h: Harm, lost: int, dealt: int) -> int | None:
    """The save an interruptible demanding action asks for "If you are hit or suffer Damage": DC 10 or half
    the Stamina damage after DR (`lost`; a zombie has no Stamina to lose), 25 if a Wound was dealt."""
    if t.demanding is None or not t.demanding.interruptible or not (h.hit or lost or dealt):
        return None
    return 25 if dealt else max(10, lost // 2)


def wound_text(dealt: int, critical: bool, massive: bool) -> Text:
    """What the Wounds dealt (at least one) read as after the damage."""
    if critical and massive:
        return seq(", ", say_plural("critical + massive: {n} Wound", "critical + massive: {n} Wounds", dealt, n=dealt))
    if massive:
        return seq(": ", say_plural("{n} Wound", "{n} Wounds", dealt, n=dealt))
    if critical:
        return seq("; ", say_plural("critical: {n} Wound", "critical: {n} Wounds", dealt, n=dealt))
    return seq("; ", say_plural("{n} Wound", "{n} Wounds", dealt, n=dealt))


def no_wound_text(critical: bool, massive: bool) -> Text:
    """What Wounds dealt to a creature already at 0 Wounds read as: nothing more to take."""
    if critical and massive:
        return seq(", ", say("critical + massive: no Wound left to lose"))
    if massive:
        return seq(": ", say("no Wound left to lose"))
    if critical:
        return seq("; ", say("critical: no Wound left to lose"))
    return seq("; ", say("no Wound left to lose"))


def settle(t: RCCombatant) -> tuple[RCCombatant, Text]:
    """Derived conditions from Stamina and Wounds (and Exhaustion 6)."""
    text: Text = EMPTY
    had = {name: t.has(name) for name in cond.DERIVED}
    imposed = t.condition("Unconscious")
    imposed = imposed if imposed and imposed.source else None  # a power or a knockout, not Stamina
    for name in cond.DERIVED:
        t = cond.remove(t, name)
    if imposed:
        t = cond.add(t, imposed)
    elif t.current_stamina == 0:
        t = cond.add(t, Condition(name="Unconscious"))
    if t.wounds < t.max_wounds and not t.zombie:
        t = cond.add(t, Condition(name="Wounded"))
    if t.wounds == 0 and t.current_stamina > 0:
        t = cond.add(t, Condition(name="Incapacitated"))
    for name in ("Unconscious", "Incapacitated"):
        if t.has(name) and not had[name]:
            text = seq(text, "; ", say("{who} is {condition}", who=t.name, condition=term(name)))
    if cond.helpless(t) and t.demanding:
        text = seq(text, "; ", say("{what} is lost", what=t.demanding.what))
        t = t.but(demanding=None)
    if cond.helpless(t):
        t = t.but(dodging=False)
    return t, text


def status(c: RCCombatant) -> Text:
    if c.environment:
        return say("environment")
    if c.horde:
        return say("{n} members, each {status}", n=len(c.horde), status=status(c.but(horde=())))
    wounds = say("{wounds}/{most} Wounds", wounds=secret(c.wounds, c), most=secret(c.max_wounds, c))
    if c.zombie:
        return wounds
    stamina = dict(stamina=secret(c.stamina, c), most=secret(c.max_stamina, c), wounds=wounds)
    if c.temp_stamina:
        return say("{stamina}/{most} Stamina +{temp} temp, {wounds}", temp=secret(c.temp_stamina, c), **stamina)
    return say("{stamina}/{most} Stamina, {wounds}", **stamina)


def death_pending(enc: RCEncounter, cid: str) -> tuple[RCEncounter, Event]:
    """Ask the dying hero's player (and allies) how they escape death."""
    t = enc.get(cid)
    allies = [a for a in enc.active() if a.holds_points and a.id != cid and a.plot_points > 0 and not a.echo_of]
    options = [Choice(key=DEATH_OWN, label=DEATH_LABELS[DEATH_OWN])] if t.plot_points > 0 else []
    paid = options[0].key if options else (allies[0].id if allies else None)
    flaw = t.max_wounds > 1  # "having your maximum wounds reduced by 1" must leave one
    last = (DEATH_FLAW, DEATH_BLAZE) if flaw else (DEATH_BLAZE, DEATH_DIE)
    # Every ally is offered; those past what one menu shows come after the flaw (or, with no Wound left to
    # lose to one, death) and the blaze of glory, which no list of names may push out of the menu.
    room = MAX_CHOICES - len(options) - len(last)
    paying = [Choice(key=a.id, label=say("{who} spends a Plot Point", who=a.name)) for a in allies]
    options += paying[:room] + [Choice(key=k, label=DEATH_LABELS[k]) for k in last] + paying[room:]
    users = enc.controllers([cid] + [a.id for a in allies])
    users = tuple(u for u in users if u != enc.gm_id) or (enc.gm_id,)
    # each answer is one player's call: an ally's point its player's ("A point is your hero's"), how the dying
    # escape death theirs (a GM-run ally's, a GM's)
    owners = {a.id: enc.controllers([a.id]) for a in allies} | {
        o.key: enc.controllers([cid]) for o in options if o.key in (DEATH_OWN, *last)
    }
    default = paid or (DEATH_FLAW if flaw else DEATH_DIE)
    if flaw:
        prompt = say(
            "{who} is at 0 Wounds and 0 Stamina: spend a Plot Point, accept a physical flaw, or go out in a "
            "blaze of glory?",
            who=t.name,
        )
    else:
        prompt = say(
            "{who} is at 0 Wounds and 0 Stamina with no Wound left to lose to a flaw: spend a Plot Point, go out "
            "in a blaze of glory, or die?",
            who=t.name,
        )
    enc = enc.ask(
        kind="death",
        prompt=prompt,
        options=tuple(options),
        default=default,
        chooser=cid,
        users=users,
        owners=owners,
        context={"cid": cid},
        rolls=False,  # no answer rolls: a blaze of glory's attack is an /attack of its own
    )
    # the choice message pings the players; the result line only tells the channel
    return enc, Event(kind="info", text=seq("☠️ ", prompt))


def interrupt_pending(enc: RCEncounter, cid: str, dc: int, later: tuple[int, ...] = ()) -> tuple[RCEncounter, Event]:
    """`later`: the DCs of damage taken after this one, each its own save once this one is made."""
    t = enc.get(cid)
    if t.demanding is None:
        raise ValueError(f"{cid} performs no demanding action to keep going")
    # the DC comes from the damage after the bearer's DR
    prompt = say(
        "{who}: Constitution save DC {dc} to keep {what} going.", who=t.name, dc=secret(dc, t), what=t.demanding.what
    )
    users = enc.controllers([cid])
    options = [Choice(key=INTERRUPT_ROLL, label=say("Roll the Constitution save"))]
    # An Unleashed villain's "Advantage on any attack, defense, or saving throw" and "automatically succeed in a
    # saving throw", each once per round, serve this save as they serve a /save.
    if t.unleashed and t.unleashed_adv_round != enc.round:
        options.append(Choice(key=INTERRUPT_UNLEASHED, label=say("Roll it with the Unleashed advantage")))
    owners: dict[str, tuple[int, ...]] = {}
    if t.unleashed and t.unleashed_save_round != enc.round and enc.pool > 0:
        options.append(Choice(key=INTERRUPT_AUTO, label=say("Succeed automatically (a Plot Point from the pool)")))
        owners[INTERRUPT_AUTO] = ()  # "the Editor-in-Chief may use a plot point"
    enc = enc.ask(
        kind="interrupt",
        prompt=prompt,
        options=tuple(options),
        default=INTERRUPT_ROLL,
        chooser=cid,
        users=users,
        owners=owners,
        context={"cid": cid, "dc": dc} | ({"later": list(later)} if later else {}),
    )
    return enc, Event(kind="warning", text=prompt)


def _interrupt_after(enc: RCEncounter, cid: str, dc: int) -> RCEncounter:
    """Damage taken while `cid`'s save for earlier damage waits (a second Ongoing Damage ticking with the
    first): "You must make a new saving throw each time you take Damage", asked once that one is made."""
    pending = enc.pending
    if pending is None or pending.kind != "interrupt" or pending.context.get("cid") != cid:
        return enc
    later = list(pending.context.get("later", ())) + [dc]
    return enc.but(pending=pending.but(context={**pending.context, "later": later}))


def follow_up(enc: RCEncounter, cid: str, report: Report) -> tuple[RCEncounter, list[Event]]:
    """What a harm ends (a grapple whose grappler is down) and the choice it leaves open: a death to
    escape or a demanding action to hold."""
    enc, events = let_go(enc)
    if report.dying:
        enc, event = death_pending(enc, cid)
        return enc, events + [event]
    if report.interrupt_dc is not None and enc.pending is None:
        enc, event = interrupt_pending(enc, cid, report.interrupt_dc)
        return enc, events + [event]
    if report.interrupt_dc is not None:
        enc = _interrupt_after(enc, cid, report.interrupt_dc)
    return enc, events


def let_go(enc: RCEncounter) -> tuple[RCEncounter, list[Event]]:
    """Grappled: "The condition ends if the grappler is Incapacitated": its source, when that is a combatant
    who is Unconscious ("drop anything you are holding") or Incapacitated, dead, or out of the fight."""
    events: list[Event] = []
    for c in enc.combatants:
        grapple = c.condition("Grappled")
        grappler = enc.maybe(grapple.source) if grapple else None
        if grapple is None or grappler is None or grappler.id == c.id:
            continue
        state: Text
        if grappler.dead:
            state = say("dead")
        elif cond.helpless(grappler):
            state = term("Unconscious" if grappler.has("Unconscious") else "Incapacitated")
        elif grappler.out:
            state = say("out of the fight")
        else:
            continue
        enc = enc.with_combatant(cond.remove(c, "Grappled"))
        text = say(
            "{who} is no longer {condition}: {grappler} is {state}.",
            who=c.name,
            condition=grapple.label(),
            grappler=grappler.name,
            state=state,
        )
        events.append(Event(kind="info", text=text))
    return enc, events
