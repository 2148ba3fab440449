"""What a rule system plugs into the engine.

A system names its encounter and combatant types, its turn structure, its
character sheet, its own actions with their handlers, and hooks the turn
structures call (initiative, start and end of turns and rounds, answers to
pending choices). Everything here is pure: state in, state and events out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import Field, ValidationError
from pydantic_core import PydanticKnownError

from . import common
from .actions import Action, AddCombatants
from .commands import NUMBER, Commands, Given, not_used, pairs, refuse_unused
from .entering import ENTERED
from .errors import InvalidInput, RulesError, UnknownAction
from .model import Actor, Choice, Combatant, Encounter, Event, Pending, Value
from .randomness import Chance
from .resting import Resting
from .said import EMPTY, N_, say, term
from .text import Text
from .turns.base import TurnStructure
from .usertext import listed, name_key, quoted, split_names, user_text

Handler = Callable[[Encounter, Action, Chance], tuple[Encounter, list[Event]]]
InitiativeKey = tuple[float, ...]
_SEPARATOR = re.compile(r"[=:]")  # between a form line's key and its value, as in `stats:`


class Option(Value):
    """A campaign setting a system reads, with its default and a help line.

    `choices`: the words a text setting may be (a misspelt word would otherwise play as
    whichever branch its reader falls through to); `low`/`high`: a number's range."""

    default: Any
    help: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None


class RestOption(Value):
    """A choice the GM makes when applying a rest.

    `names`: some of the resting characters, given as a list of names or one
    comma-separated string (`"Nova, Max"`, `"all"`); `flag`: yes or no.
    """

    key: str
    help: str
    kind: Literal["names", "flag"] = "names"


class Rest(Value):
    """A kind of time between fights a GM can apply (`/campaign rest kind:…`)."""

    key: str
    label: str
    rule: str  # the seed's rule this rest applies, quoted
    dice: str = ""  # what it rolls, in the order hand-entered dice are taken; "" rolls nothing
    options: tuple[RestOption, ...] = ()


class Adjustable(Value):
    """A lasting value the GM may set by hand (`/character edit`, `/campaign adjust`).

    `int`: a whole number within [minimum, maximum]; `bool`: yes/no;
    `list`: comma-separated entries (the help says which); `text`: one name the system reads (a faction).
    """

    key: str
    help: str
    kind: Literal["int", "bool", "list", "text"] = "int"
    minimum: int | None = None
    maximum: int | None = None


# A kept NPC's side, a lasting value (under the system's `side_key`; a system may declare its own Adjustable for it).
SIDE_ADJUSTABLE = Adjustable(key="side", kind="text", help=N_("the side a kept NPC joins fights on"))


class RestOutcome(Value):
    """What a rest did: every given character's new lasting state (same order),
    the campaign's system-level state (e.g. the Editor-in-Chief's pool) and what to say."""

    characters: tuple[Resting, ...]
    campaign: dict[str, Any]
    events: tuple[Event, ...]


class CheckKind(Value):
    """A check a system's seed defines outside (and inside) a fight (`/check kind:…`).

    `help` says what it rolls against what, for the autocomplete and /help; `opposed`: it may
    be rolled against another character (`against:`); `dc`: it takes a target number."""

    key: str
    label: str
    help: str
    opposed: bool = False
    dc: bool = True


class CheckRequest(Value):
    """One check as asked: who rolls it (as stored, lasting state included), the target number,
    the other character of an opposed check, the options as given (`flags`), and the system's
    part of the campaign state (a deck, a pool) and its settings."""

    kind: str
    who: Resting
    dc: int | None = None
    against: Resting | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    campaign: dict[str, Any] = Field(default_factory=dict)
    settings: dict[str, Any] = Field(default_factory=dict)


class CheckOutcome(Value):
    """What a check did: its lines, the checker's (and the other's) new lasting state when it
    changed (a Plot Point spent, Stress gained), the system's new campaign state when it changed
    (a card drawn), and what the checker may do next (`offers`, e.g. a reroll) with what that
    needs to know (`memo`)."""

    lines: tuple[Text, ...]
    lasting: dict[str, Any] | None = None
    against_lasting: dict[str, Any] | None = None
    campaign: dict[str, Any] | None = None
    offers: tuple[Choice, ...] = ()
    memo: dict[str, Any] = Field(default_factory=dict)


class FormSection(Value):
    """One field of the sheet's form (`/character add` without `stats`): a section of the sheet,
    its keys written one per line as `key=value`. A Discord form holds at most five."""

    label: str  # at most 45 characters
    keys: tuple[str, ...]


C = TypeVar("C", bound=Combatant)


class System(Generic[C]):
    """A rule system, over its own combatant type `C` (the hooks below receive its combatants)."""

    key: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str] = ""
    encounter_type: ClassVar[type[Encounter]] = Encounter
    combatant_type: ClassVar[type[Combatant]] = Combatant
    sheet_type: ClassVar[type[Value]]
    turns: ClassVar[TurnStructure]
    sides: ClassVar[tuple[str, ...]] = ("heroes", "threats")
    player_side: ClassVar[str] = "heroes"
    side_key: ClassVar[str] = "side"  # the lasting value a kept NPC's side is kept under
    options: ClassVar[dict[str, Option]] = {}
    # The module with this system's rules between fights (its `between.py`): lasting,
    # carry_in, RESTS, rest, ADJUSTABLE, adjust, lines, and optionally FLAGS, fit and campaign_out/in.
    # Not declared a ClassVar: mypy reads a module named in a class body as an instance variable,
    # and an instance variable may not override a ClassVar.
    between: Any = None
    # The module with this system's checks (its `checks.py`): KINDS, check(request, chance) and
    # check_again(request, memo, offer, chance) for what a check offers next.
    checks: Any = None
    # The sheet's form, section by section (at most five); none: the sheet's keys in order, in sections of ten.
    form: ClassVar[tuple[FormSection, ...]] = ()

    def __init__(self) -> None:
        self._handlers: dict[type[Action], Handler] = {}
        self._handlers.update(common.handlers(self))
        self._handlers.update(self.turns.handlers(self))
        self._handlers.update(self.handlers())

    # --- registration ---------------------------------------------------
    def handlers(self) -> dict[type[Action], Handler]:
        """This system's own actions."""
        return {}

    def handler(self, action: Action) -> Handler:
        try:
            return self._handlers[type(action)]
        except KeyError:
            raise UnknownAction(
                say("`{command}` does not exist in {system}.", command=action.describe(), system=term(self.name))
            ) from None

    def actions(self) -> tuple[type[Action], ...]:
        return tuple(self._handlers)

    # --- encounters and sheets -----------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return {name: option.default for name, option in self.options.items()}

    def new_encounter(self, gm_id: int, rng_state: int, options: dict[str, Any] | None = None) -> Encounter:
        merged = self.default_options() | dict(options or {})
        return self.encounter_type(
            system=self.key,
            gm_id=gm_id,
            turns=self.turns.initial(),
            rng_state=rng_state,
            options=merged,
        )

    def load(self, data: dict[str, Any] | str) -> Encounter:
        """A stored state: its JSON data, or its JSON text."""
        if isinstance(data, str):
            return self.encounter_type.model_validate_json(data)
        return self.encounter_type.model_validate(data)

    def parse_sheet(self, text: str | dict[str, Any] | None, *, entered: bool = True) -> dict[str, Any]:
        """`dex=3 avoidance=15 dr="fire:10"` → validated sheet values. `entered`: typed now, so the checks
        that hold only for what is entered run too; a stored sheet is read without them (rules/entering.py)."""
        raw = dict(text) if isinstance(text, dict) else pairs(text, self.sheet_example())
        fields = self.sheet_type.model_fields
        unknown = [key for key in raw if key not in fields]
        if unknown:
            raise InvalidInput(
                say(
                    "Unknown stat {stat} for {system}. Known stats: {known}.",
                    stat=quoted(unknown[0]),
                    system=term(self.name),
                    known=listed(term(name) for name in sorted(fields)),
                )
            )
        try:
            return self.sheet_type.model_validate(raw, context=ENTERED if entered else None).model_dump(mode="json")
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "sheet"
            refused = (first.get("ctx") or {}).get("error")
            if isinstance(refused, RulesError):  # a refusal the rules made, a sentence of its own
                raise InvalidInput(say("Stat `{stat}`: {why}", stat=where, why=refused.said)) from None
            raise InvalidInput(say("Stat `{stat}`: {why}.", stat=where, why=_invalid(first))) from None

    def upgrade_sheet(self, sheet: dict[str, Any], version: int) -> dict[str, Any]:
        """A sheet as a campaign file of format ``version`` wrote it, as this system reads it now
        (a file keeps its meaning after a stat's default changes)."""
        return sheet

    def sheet_form(self) -> tuple[FormSection, ...]:
        if self.form:
            return self.form
        keys = tuple(self.sheet_type.model_fields)
        size = max(10, -(-len(keys) // 5))
        return tuple(
            FormSection(label=N_("Sheet") if len(keys) <= size else f"{N_('Sheet')} {n + 1}", keys=keys[at : at + size])
            for n, at in enumerate(range(0, len(keys), size))
        )

    def key_help(self, key: str) -> tuple[str, str]:
        """What a sheet key means (its field's description, "" when it has none) and what it takes."""
        info = self.sheet_type.model_fields[key]
        low = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
        high = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
        if info.annotation is bool:
            takes = N_("yes/no")
        elif low is not None or high is not None:
            takes = f"{'' if low is None else low}–{'' if high is None else high}"
        elif info.annotation is int:
            takes = N_("0, 1, 2…")
        else:
            takes = N_("text")
        return info.description or "", takes

    def form_text(self, section: FormSection, sheet: dict[str, Any] | None = None) -> str:
        """A section as its form field shows it: `key=value` per line, the sheet's values (or the defaults;
        an optional value that is unset reads `key=`)."""
        values = self.sheet_type.model_validate(sheet or {}).model_dump(mode="json")
        return "\n".join(f"{key}={sheet_value(values[key])}" for key in section.keys)

    def overlong_section(self, sheet: dict[str, Any], most: int) -> str | None:
        """The label of the first section whose form text (every key written out) is longer than `most`
        characters; None when all fit."""
        return next((s.label for s in self.sheet_form() if len(self.form_text(s, sheet)) > most), None)

    def parse_form(self, fields: dict[str, str]) -> dict[str, Any]:
        """The sheet from its form's fields (by section label): a line that cannot be read, a wrong value and
        a key given twice are refused naming their field. A key may be typed in another section's field
        when its own leaves it as `key=`."""
        raw: dict[str, str] = {}
        given_in: dict[str, str] = {}  # the label of the field each key was given in
        for section in self.sheet_form():
            try:
                part = _form_values(fields.get(section.label, ""))
                try:
                    self.parse_sheet(part)
                except InvalidInput:
                    self._refuse_run_on(part)
                    raise
            except InvalidInput as error:
                raise InvalidInput(say("{field}: {problem}", field=term(section.label), problem=error.said)) from None
            for key in part:
                if key in given_in:
                    self._given_twice(key, given_in[key], section.label)
            raw |= part
            given_in |= dict.fromkeys(part, section.label)
        return self.parse_sheet(raw)

    def _refuse_run_on(self, part: dict[str, str]) -> None:
        """A refused value that holds another stat (`str=12 agi=9` typed on one line, as the `stats:` option takes
        them): the line is what to mend, not the value."""
        for key, value in part.items():
            if any(found.group(1) in self.sheet_type.model_fields for found in _RUN_ON.finditer(value)):
                raise InvalidInput(
                    say("Could not read {line}: write one `key=value` per line.", line=quoted(f"{key}={value}", 40))
                )

    def _given_twice(self, key: str, first: str, then: str) -> None:
        """Refuse a key given in two fields, naming first the one it does not belong in."""
        home = next((s.label for s in self.sheet_form() if key in s.keys), None)
        stray, other = (first, then) if home == then else (then, first)
        raise InvalidInput(
            say(
                "{field}: {key} is given in {other} as well: keep one of them.",
                field=term(stray),
                key=quoted(key),
                other=term(other),
            )
        )

    def sheet_over(self, stored: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
        """A stored sheet (a template, a kept NPC) with stats typed now on top: only the typed ones are
        checked as entered, so a stat block stored before a check existed still comes into a fight."""
        self.parse_sheet(overrides)
        return self.parse_sheet(dict(stored) | overrides, entered=False)

    def sheet_example(self) -> str:
        return "`" + " ".join(f"{name}=…" for name in list(self.sheet_type.model_fields)[:3]) + "`"

    def side_of(self, action: AddCombatants) -> str:
        """The side a new combatant joins: the one asked for, else players' or the last."""
        # Only an NPC the GM kept keeps a side: a hero stored with one (before /campaign adjust refused
        # it, or imported so) joins the players.
        kept = (action.lasting or {}).get(self.side_key) if action.npc else None
        return self.side_named(action.side or kept or (self.player_side if not action.npc else self.sides[-1]))

    def side_named(self, name: str) -> str:
        """The side `name` names, as a fight and a kept NPC's lasting state hold it; InvalidInput if none."""
        side = str(name or "").strip()
        if side.casefold() not in self.sides and self.sides:
            raise InvalidInput(say("Side must be one of: {sides}.", sides=listed(term(s) for s in self.sides)))
        return side.casefold()

    def side_line(self, side: str) -> Text | None:
        """A kept NPC's side on `/character show` (None: the usual side, not worth a line)."""
        return say("Side: {side}", side=term(side)) if side != self.sides[-1] else None

    def make_combatant(self, enc: Encounter, action: AddCombatants, cid: str, name: str) -> Combatant:
        # Typed stats were checked as entered when the command was read; a stored sheet joins as stored.
        sheet = self.parse_sheet(action.sheet, entered=False)
        return self.combatant_type(
            id=cid,
            name=name,
            controller_id=action.controller_id,
            side=self.side_of(action),
            npc=action.npc,
            hidden=action.hidden,
            character_id=action.character_id,
            **self.combatant_fields(sheet, action),
        )

    def combatant_fields(self, sheet: dict[str, Any], action: AddCombatants) -> dict[str, Any]:
        """Extra fields of this system's combatant type, from a validated sheet."""
        return {"sheet": sheet} if "sheet" in self.combatant_type.model_fields else {}

    # --- slash commands ----------------------------------------------------
    # Declared as data in each system's `commands` module; this is the one dispatcher.
    commands: ClassVar[Commands] = Commands()

    def command(self, name: str, by: Actor, options: dict[str, Any], state: Encounter | None = None) -> Action:
        """Map a slash command (`attack`, `act`, `damage`, `initiative_join`…) to an action."""
        build = self.commands.builder(name)
        if build is None:
            raise not_used(name, self.name)
        given = Given(by, options, state, self)
        self.commands.check_options(name, given)
        action = build(given)
        refuse_unused(name, given)
        return action

    def report(self, name: str, enc: Encounter, options: dict[str, Any], by: Actor | None = None) -> Text:
        """Read-only commands (`plotpoint_show`…): text built from the state."""
        report = self.commands.reports.get(name)
        if report is None:
            raise not_used(name, self.name)
        return report(enc, Given(by or Actor(user_id=0), options, enc, self))

    def report_between(
        self, name: str, characters: Sequence[Resting], campaign: Mapping[str, Any], settings: Mapping[str, Any]
    ) -> Text | None:
        """A read-only command's answer between fights, from the stored characters (this system's) and the
        campaign's system state; None: the command needs a fight."""
        report = self.commands.between_reports.get(name)
        return None if report is None else report(characters, campaign, self.settings_for(dict(settings)))

    def act_choices(self) -> list[tuple[str, Text | str]]:
        """(value, label) pairs offered by `/act`'s autocomplete."""
        return self.commands.act_choices()

    # --- hooks the turn structures call -------------------------------------
    def roll_initiative(self, enc: Encounter, combatant: C, chance: Chance) -> tuple[InitiativeKey, Text]:
        raise NotImplementedError

    def order_ties(
        self, enc: Encounter, tied: list[Any], chance: Chance
    ) -> tuple[list[Any], list[list[str]], list[Event]]:
        """Order entries whose keys are equal: returns (entries, slots, events)."""
        return tied, [[entry.cid] for entry in tied], []

    def can_act(self, enc: Encounter, combatant: C) -> bool:
        return not combatant.out

    def cannot_act_reason(self, enc: Encounter, combatant: C) -> Text | None:
        """Why `combatant`, still in the fight, cannot act now (None: the rules say no more than that)."""
        return None

    def leaving(self, enc: Encounter, cid: str) -> tuple[str, ...]:
        """Who leaves the fight when the GM removes `cid`: itself, then whoever exists only through it."""
        return (cid,)

    def acts_with(self, enc: Encounter, cid: str) -> tuple[str, ...]:
        """Who takes `cid`'s turn with it as one unit: they delay and step back in together."""
        return (cid,)

    def forget(self, enc: Encounter, gone: tuple[str, ...]) -> Encounter:
        """The encounter once `gone` have left it: what the others held of them let go."""
        return enc

    def on_turn_start(self, enc: Encounter, cid: str, chance: Chance) -> tuple[Encounter, list[Event]]:
        return enc, []

    def on_turn_end(self, enc: Encounter, cid: str, chance: Chance) -> tuple[Encounter, list[Event]]:
        return enc, []

    def on_idle_turn(self, enc: Encounter, cid: str, chance: Chance) -> tuple[Encounter, list[Event]]:
        """A turn ended without an action. Where the seed makes that an action of
        its own (99 Towers' Forced Delay), the system applies what acting does."""
        return enc, []

    def on_round_start(self, enc: Encounter, chance: Chance) -> tuple[Encounter, list[Event]]:
        return enc, []

    def on_round_end(self, enc: Encounter, chance: Chance) -> tuple[Encounter, list[Event]]:
        return enc, []

    def on_phase(self, enc: Encounter, phase: int, chance: Chance) -> tuple[Encounter, list[Event]]:
        """Start of a clock phase (only for systems on the phase clock)."""
        return enc, []

    def on_seconds(self, enc: Encounter, cid: str, seconds: int, chance: Chance) -> tuple[Encounter, list[Event]]:
        """Seconds a combatant just spent (only for systems with a time budget)."""
        return enc, []

    def resume(self, enc: Encounter, pending: Pending, option: str, chance: Chance) -> tuple[Encounter, list[Event]]:
        """Carry on an action that waited for a choice."""
        resume = getattr(self, f"resume_{pending.kind}", None)
        if resume is None:
            return self.turns.resume(self, enc, pending, option, chance)
        return resume(enc, pending, option, chance)

    # --- what people see ---------------------------------------------------
    def status_line(self, enc: Encounter, combatant: C, *, reveal: bool) -> Text:
        """One tracker line; `reveal` is False for hidden NPCs shown to players."""
        return EMPTY

    def turn_summary(self, enc: Encounter, cid: str) -> list[Text]:
        """What is left of this combatant's turn, for the turn message."""
        return []

    def help_text(self) -> str:
        return self.summary

    # --- between fights ------------------------------------------------------
    # A stored character's lasting state is plain JSON whose keys the system owns
    # (SYSTEMS.md, "Between fights"): written when an encounter ends, read when
    # the character joins the next one, changed by rests and GM adjustments.
    # Keys a character has no entry for stand as its sheet says, so `{}` is a
    # fresh character. The campaign's system-level state (`campaign`) is one
    # JSON dict per campaign, e.g. the Editor-in-Chief's Plot Point pool.
    def lasting(self, enc: Encounter, combatant: C) -> dict[str, Any]:
        """What this combatant carries out of the fight (JSON-ready).

        The caller stores `stored | lasting(enc, c)`: keys the fight does not
        own (a hiatus count, attribute losses) are kept from the stored state."""
        return self.between.lasting(enc, combatant) | self.joined_lasting(enc, combatant) if self.between else {}

    def joined_lasting(self, enc: Encounter, combatant: C) -> dict[str, Any]:
        """The part of `lasting` that joining itself decides (the side the GM named), for an NPC the GM kept
        to store as it joins: the fight's end writes only what the fight changed after that. A hero joins
        the players' side each time."""
        return {self.side_key: combatant.side} if self.between is not None and combatant.npc else {}

    def carry_in(self, combatant: C, lasting: dict[str, Any]) -> C:
        """A joining character starts from its lasting state instead of its fresh sheet.

        Called by the join handler when `AddCombatants.lasting` is given, before
        initiative is rolled. Raises a RulesError when the character cannot join
        (e.g. it died in an earlier fight)."""
        return self.between.carry_in(combatant, lasting) if self.between else combatant

    def campaign_out(self, enc: Encounter) -> dict[str, Any]:
        """The campaign-level state an ending encounter hands back (merged into the campaign's)."""
        hand_back = getattr(self.between, "campaign_out", None)
        return hand_back(enc) if hand_back else {}

    def campaign_in(self, enc: Encounter, campaign: dict[str, Any]) -> Encounter:
        """A new encounter picks up the campaign-level state (called right after new_encounter)."""
        pick_up = getattr(self.between, "campaign_in", None)
        return pick_up(enc, campaign) if pick_up else enc

    def rests(self) -> dict[str, Rest]:
        """The kinds of rest this system's seed describes, by key."""
        return dict(self.between.RESTS) if self.between else {}

    def rest(
        self,
        kind: str,
        characters: tuple[Resting, ...],
        campaign: dict[str, Any],
        options: dict[str, Any],
        chance: Chance,
        settings: dict[str, Any] | None = None,
    ) -> RestOutcome:
        """Apply one kind of rest to the given characters (pure; dice from `chance`).

        `options`: the GM's answers to the rest's RestOption keys; `settings`:
        the campaign's Option values (defaults when None). The caller calls
        `chance.finish()` afterwards, as the engine does, to refuse unused dice."""
        if self.between is None:
            raise UnknownAction(
                say("{system} has no rest called {kind}.", system=term(self.name), kind=quoted(str(kind), 100))
            )
        return self.between.rest(self, kind, characters, campaign, options, chance, settings)

    def adjustable(self) -> dict[str, Adjustable]:
        """The lasting values a GM may set by hand, by key."""
        if self.between is None:
            return {}
        table = dict(self.between.ADJUSTABLE)
        return table if self.side_key in table else table | {N_("side"): SIDE_ADJUSTABLE}

    def lasting_flags(self) -> frozenset[str]:
        """The yes/no lasting values the system writes and the GM does not set (a hero left Unconscious).

        With `adjustable()`, every key a lasting state may hold: a campaign file's import refuses any other,
        which nothing here would read and every later export would carry."""
        return frozenset(getattr(self.between, "FLAGS", ()))

    def adjust(
        self, sheet: dict[str, Any], lasting: dict[str, Any], key: str, value: str, npc: bool = False
    ) -> dict[str, Any]:
        """The lasting state with one value set by the GM (`value` as typed); InvalidInput if it does not fit.
        `npc`: the character is an NPC the GM kept, whose sheet may read otherwise (an enemy's own Stamina)."""
        if self.between is not None and str(key or "").strip().casefold() == self.side_key:
            return lasting | {self.side_key: self.side_named(value)}
        if self.between is not None:
            return self.between.adjust(sheet, lasting, key, value, npc)
        raise InvalidInput(
            say("{system} keeps no lasting value called {key}.", system=term(self.name), key=quoted(str(key)))
        )

    def fit_lasting(self, sheet: dict[str, Any], lasting: dict[str, Any], npc: bool = False) -> dict[str, Any]:
        """The lasting state as this sheet reads it: a value past the sheet's bound (Stamina left above a
        sheet edited down) lowered to it, as joining a fight and `/character show` would read it.

        Written wherever a sheet or a lasting state is stored, so that what is stored is what the bot
        shows, and a campaign's export passes its own import's checks. The bounds are the system's
        (its between module's optional `fit`), then each number's range as `/campaign adjust` takes it:
        play may count past it (a 31st failed veto), which the import would refuse."""
        fit = getattr(self.between, "fit", None)
        fitted = fit(sheet, dict(lasting), npc) if fit else dict(lasting)
        for spec in self.adjustable().values():
            value = fitted.get(spec.key)
            if spec.kind != "int" or not isinstance(value, int) or isinstance(value, bool):
                continue
            if spec.maximum is not None:
                value = min(value, spec.maximum)
            fitted[spec.key] = value if spec.minimum is None else max(value, spec.minimum)
        return fitted

    def check_lasting(self, sheet: dict[str, Any], lasting: dict[str, Any], npc: bool = False) -> None:
        """InvalidInput if the values of a whole lasting state do not fit together (Frozen Lands: more critical
        injuries than Wounds), which `adjust`, setting one value, cannot tell: an import checks each list's
        entries alone. What an adjustment leaves and what an import reads pass it (the between module's
        optional `check`)."""
        check = getattr(self.between, "check", None)
        if check:
            check(sheet, lasting, npc)

    def lasting_lines(
        self,
        sheet: dict[str, Any],
        lasting: dict[str, Any],
        npc: bool = False,
        settings: Mapping[str, Any] | None = None,
    ) -> list[Text]:
        """The lasting state for `/character show`, one line per topic. `settings`, the campaign's, fill in
        what the next fight would start the character with where nothing is stored (the system's between
        module's optional `filled`: a Rotted Capes hero's Plot Points)."""
        if self.between is None:
            return []
        fill = getattr(self.between, "filled", None)
        shown = fill(sheet, lasting, npc, self.settings_for(dict(settings or {}))) if fill else lasting
        side = lasting.get(self.side_key) if npc else None  # a hero joins the players' side (`side_of`)
        line = self.side_line(side) if side else None
        return self.between.lines(sheet, shown, npc) + ([line] if line else [])

    # helpers the systems' rests share
    def rest_kind(self, kind: str) -> Rest:
        rests = self.rests()
        key = " ".join(str(kind or "").split()).casefold().replace(" ", "_")
        found = rests.get(key) or next((r for r in rests.values() if r.label.casefold() == str(kind).casefold()), None)
        if found is None:
            known = listed(f"`{k}`" for k in rests) or say("none")
            raise UnknownAction(
                say(
                    "{system} has no rest called {kind}. Rests: {known}.",
                    system=term(self.name),
                    kind=quoted(str(kind)),
                    known=known,
                )
            )
        return found

    def settings_for(self, settings: dict[str, Any] | None) -> dict[str, Any]:
        return self.default_options() | dict(settings or {})

    # --- checks ----------------------------------------------------------------
    def check_kinds(self) -> tuple[CheckKind, ...]:
        return tuple(self.checks.KINDS) if self.checks is not None else ()

    def check_kind(self, kind: str) -> CheckKind:
        kinds = self.check_kinds()
        if not kinds:
            raise UnknownAction(say("{system} defines no checks of its own: roll with /roll.", system=term(self.name)))
        key = " ".join(str(kind or "").split()).casefold().replace(" ", "_")
        found = next((k for k in kinds if key in (k.key, k.label.casefold().replace(" ", "_"))), None)
        if found is None:
            raise UnknownAction(
                say(
                    "{system} has no check called {kind}. Checks: {known}.",
                    system=term(self.name),
                    kind=quoted(str(kind)),
                    known=listed(f"`{k.key}`" for k in kinds),
                )
            )
        return found

    def roll_check(self, request: CheckRequest, chance: Chance) -> CheckOutcome:
        """Roll one check (`request.kind` is a key of `check_kinds`)."""
        kind = self.check_kind(request.kind)
        if request.against is not None and not kind.opposed:
            raise InvalidInput(say("A {kind} check is not rolled against another character.", kind=term(kind.label)))
        return self.checks.check(request.but(kind=kind.key), chance)

    def roll_check_again(self, request: CheckRequest, memo: dict[str, Any], offer: str, chance: Chance) -> CheckOutcome:
        """What a check offered next (`CheckOutcome.offers`), taken: `memo` is what the check kept for it."""
        return self.checks.check_again(request, memo, offer, chance)


def known_options(options: dict[str, Any], known: Sequence[str], kind: Text | str, also: Sequence[str] = ()) -> None:
    """Refuse a check's option it does not know (`known`, as the help writes them: `bonus=N`; `also`: other
    spellings it takes), naming the ones it knows."""
    names = [k.partition("=")[0] for k in known] + list(also)
    unknown = next((key for key in options if key not in names), None)
    if unknown is None:
        return
    if not known:
        raise InvalidInput(
            say("{option} is not an option of the {kind} check: it takes none.", option=quoted(unknown), kind=kind)
        )
    raise InvalidInput(
        say(
            "Unknown option {option} for a {kind} check. Options: {known}.",
            option=quoted(unknown),
            kind=kind,
            known=listed(f"`{k}`" for k in known),
        )
    )


_RUN_ON = re.compile(r"\s(\w+)\s*[=:]")  # a `key=` after a space, inside a form line's value


def _form_values(text: str) -> dict[str, str]:
    """A form field's values by key. A line left as `key=` gives none: the key keeps its default (an
    optional number shows so when unset)."""
    values: dict[str, str] = {}
    for line in filter(str.strip, text.splitlines()):
        key, value = _form_line(line)
        if value and key in values:
            raise InvalidInput(say("{key} is given twice: keep one of the lines.", key=quoted(key)))
        if value:
            values[key] = value
    return values


def _form_line(line: str) -> tuple[str, str]:
    """One line of a form field: `key=value` or `key:value` as the `stats:` option reads them (`pairs`),
    the value running to the line's end (a space or a separator in it is its own)."""
    at = _SEPARATOR.search(line)
    if at is not None:
        value = line[at.end() :].strip()
        quote = "'" if '"' in value else '"'
        with suppress(InvalidInput):  # refused below, quoting the line as it was typed
            return next(iter(pairs(f"{line[: at.start()]}={quote}{value}{quote}", "").items()))
    raise InvalidInput(say("Could not read {line}: write one `key=value` per line.", line=quoted(line.strip(), 40)))


def sheet_value(value: Any) -> str:
    """A sheet's value as a form and `/character show` write it: yes/no, and nothing for one left unset
    (its default applies)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def chosen_names(options: dict[str, Any], key: str, characters: tuple[Resting, ...]) -> set[str]:
    """The casefolded names of the resting characters a `names` rest option picks (`medic=Nova, Max`,
    `medic=all`); every name must be resting. A name is matched as in a fight (`name_key`)."""
    raw = options.get(key)
    if raw in (None, "", False):
        return set()
    resting: dict[str, set[str]] = {}
    for c in characters:
        resting.setdefault(name_key(c.name), set()).add(c.name.casefold())
    everyone = {c.name.casefold() for c in characters}
    if raw is True:
        return everyone
    if isinstance(raw, str):
        names = split_names(raw, ",", lambda name: name_key(name) in resting)
    else:
        names = tuple(str(n).strip() for n in raw if str(n).strip())
    # "all" is everyone, unless a resting character is called All: then it is that one.
    if any(name_key(n) == "all" and "all" not in resting for n in names):
        return everyone
    chosen: set[str] = set()
    for name in names:
        if name_key(name) not in resting:
            raise InvalidInput(
                say(
                    "`{key}`: {name} is not among the resting characters.",
                    key=key,
                    name=user_text(str(name)[:40]),
                )
            )
        chosen |= resting[name_key(name)]
    return chosen


def whole_number(key: str, value: Any, minimum: int | None, maximum: int | None) -> int:
    """A GM-typed whole number within limits, for `adjust`."""
    number = _typed_whole(str(value))
    if number is None:
        raise InvalidInput(say("`{key}` takes a whole number.", key=key))
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        low = "" if minimum is None else str(minimum)
        high = "" if maximum is None else str(maximum)
        raise InvalidInput(say("`{key}` must be between {low} and {high}.", key=key, low=low or "…", high=high or "…"))
    return number


def _typed_whole(text: str) -> int | None:
    """`text` as a whole number read as every typed number is (`NUMBER`), or None."""
    if not NUMBER.match(text):
        return None
    try:
        return int(text)
    except ValueError:  # more digits than Python turns into a number
        return None


def yes_no(key: str, value: Any) -> bool:
    text = str(value).strip().casefold()
    if text in ("yes", "true", "1", "on", "y"):
        return True
    if text in ("no", "false", "0", "off", "n"):
        return False
    raise InvalidInput(say("`{key}` takes yes or no.", key=key))


# Pydantic's own templates for the errors a sheet value meets, written out for `pybabel extract`
# (tests/rules/test_commands.py keeps them equal to pydantic's).
VALUE_ERRORS = {
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "greater_than": N_("Input should be greater than {gt}"),
    "less_than": N_("Input should be less than {lt}"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "int_type": N_("Input should be a valid integer"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "string_too_long": N_("String should have at most {max_length} character{expected_plural}"),
    "string_too_short": N_("String should have at least {min_length} character{expected_plural}"),
    "literal_error": N_("Input should be {expected}"),
    "missing": N_("Field required"),
    "value_error": N_("Value error, {error}"),
}


def _invalid(error) -> Text:
    """Why pydantic refused a sheet value, said with pydantic's own template for the error's
    type (`Input should be less than or equal to {le}`) so a translation reaches it."""
    message = error.get("msg", "invalid value")
    context = error.get("ctx") or {}
    refused = context.get("error")
    if isinstance(refused, ValueError) and refused.args and isinstance(refused.args[0], Text):
        return refused.args[0]  # a sheet's own check, said for a user: pydantic's English says "Value error, " first
    try:
        template = (
            VALUE_ERRORS.get(error["type"]) or PydanticKnownError(error["type"], context or None).message_template
        )
        said = say(template, **context)
        fits = template.format(**context) == message
    except (KeyError, TypeError, ValueError):
        return term(message)
    return said if fits else term(message)
