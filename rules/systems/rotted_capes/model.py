"""Rotted Capes state: the character sheet, a combatant's live status and
the encounter-wide pools (the Editor-in-Chief's Plot Points, the last roll a
Plot Point may reroll)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, GetCoreSchemaHandler, ValidationInfo, field_validator
from pydantic_core import CoreSchema, PydanticKnownError, core_schema

from ...dice import check_expression
from ...entering import entered
from ...errors import InvalidInput
from ...model import Combatant, Encounter, Value
from ...said import N_, joined, say, seq, term
from ...text import Text
from ...turns.initiative import InitiativeState
from ...usertext import Typed, listed, quoted

MAX_PLOT_POINTS = 100  # what a hero may hold, whichever way they come: sheet, setting, award, aid, import
MAX_DC = 60  # the hardest save or check a GM may set

ENERGY = (N_("cold"), N_("cosmic"), N_("electricity"), N_("fire"), N_("radioactive"), N_("sonic"))
PHYSICAL = (N_("acid"), N_("ballistic"), N_("kinetic"), N_("piercing"), N_("slashing"))
DAMAGE_TYPES = ENERGY + PHYSICAL + (N_("poison"), N_("psychic"))
DR_KEYS = DAMAGE_TYPES + (N_("energy"), N_("physical"), N_("all"))  # what a DR may name
# Greek order: strongest first. "Epsilon or below" means this index or later.
ZOMBIE_LEVELS = (
    N_("alpha"),
    N_("beta"),
    N_("gamma"),
    N_("delta"),
    N_("epsilon"),
    N_("zeta"),
    N_("eta"),
    N_("theta"),
    N_("omega"),
)
EPSILON = ZOMBIE_LEVELS.index("epsilon")
PACE_CAP = 5
# Sheet bounds. The seed prints modifiers, defences and ranks in ones and tens; a GM's homebrew boss may go far
# past that, so the bounds are wide, but a sum such as initiative (d20 + Dexterity + bonus) stays a number every
# later step can hold. A modifier reaches as far as the defences it is rolled against.
MAX_DEFENSE = 1000  # Avoidance, Fortitude, Willpower, Stamina Defense
MODIFIER_LOW, MODIFIER_HIGH = -MAX_DEFENSE, MAX_DEFENSE
MAX_RANK = 100


@dataclass(frozen=True)
class Bounded:
    """A sheet number's range, checked as the sheet is entered: the bounds came after sheets were stored, and a
    stored fight or character must still load (rules/entering.py). `ge` and `le` read as pydantic's own
    constraints do, so a stat's help shows the range and a refusal says what pydantic's bounds say."""

    ge: int
    le: int

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.with_info_after_validator_function(self._check, handler(source))

    def _check(self, value: int | None, info: ValidationInfo) -> int | None:
        if value is None or not entered(info):
            return value
        if value < self.ge:
            raise PydanticKnownError("greater_than_equal", {"ge": self.ge})
        if value > self.le:
            raise PydanticKnownError("less_than_equal", {"le": self.le})
        return value


MODIFIER = Bounded(MODIFIER_LOW, MODIFIER_HIGH)

_DR_PAIR = re.compile(r"^([a-z]+)[:=](\d{1,3})$")
# A dash standing between words breaks them too ("Engulfed – Fire" as printed is typed "Engulfed - Fire"); one
# in a word or before a number is its own ("DR -2").
_TAG_BREAKS = re.compile(r"[\s,()]+(?:[-–—][\s,()]+)*")


def known_damage_type(kind: str) -> str:
    """`kind` if it is one of the seed's damage types; a command naming another is refused."""
    if kind not in DAMAGE_TYPES:
        raise InvalidInput(say("Damage type must be one of: {types}.", types=_terms(DAMAGE_TYPES)))
    return kind


def _terms(words) -> Text:
    return joined(", ", map(term, words))


def parse_dr(text: str) -> dict[str, int]:
    """`"fire:10 energy:5 all:2"` → {"fire": 10, "energy": 5, "all": 2}."""
    result: dict[str, int] = {}
    for part in (text or "").replace(",", " ").lower().split():
        match = _DR_PAIR.match(part)
        if not match:
            raise ValueError(say("DR {dr} must look like `fire:10` (type, category or `all`)", dr=quoted(part, 20)))
        key = match.group(1)
        if key not in DR_KEYS:
            raise ValueError(say("{key} is not a damage type, `energy`, `physical` or `all`", key=quoted(key, 20)))
        result[key] = int(match.group(2))
    return result


def parse_saves(text: str) -> dict[str, int]:
    result: dict[str, int] = {}
    for part in (text or "").replace(",", " ").lower().split():
        match = re.match(r"^([a-z]+)[:=]([+-]?\d{1,2})$", part)
        if not match:
            raise ValueError(say("save bonus {bonus} must look like `wis:2`", bonus=quoted(part, 20)))
        result[match.group(1)] = int(match.group(2))
    return result


class RCSheet(Value):
    """Every stat `/character add stats:"…"` accepts, with its default."""

    dex: Annotated[int, MODIFIER] = Field(
        0, description=N_("Dexterity modifier (initiative, Dexterity saves and challenges)")
    )
    con: Annotated[int, MODIFIER] = Field(
        0, description=N_("Constitution modifier (Constitution saves and challenges)")
    )
    init: Annotated[int, MODIFIER] = Field(0, description=N_("initiative bonus on top of Dexterity"))
    saves: str = Field("", description=N_("the other abilities' modifiers for saves and challenges, e.g. wis:2 str:1"))
    avoidance: int = Field(10, description=N_("Avoidance defense (most attacks)"))
    fortitude: int = Field(10, description=N_("Fortitude defense; damage after DR above it is massive"))
    willpower: int = Field(10, description=N_("Willpower defense (mental attacks)"))
    stamina: int = Field(10, description=N_("Stamina: what an attack wears down first"))
    wounds: int = Field(3, description=N_("Wounds: the hero dies at 0 Wounds and 0 Stamina"))
    # None: the Fortitude defense
    stamina_defense: Annotated[int | None, Bounded(0, MAX_DEFENSE)] = Field(
        None, description=N_("Ongoing Damage past this is massive (empty: Fortitude)")
    )
    dr: str = Field("", description=N_("damage resistance by type, e.g. fire:10 energy:5 all:1"))
    rank: Annotated[int, Bounded(0, MAX_RANK)] = Field(1, description=N_("the character's rank"))
    zombie: bool = Field(False, description=N_("a zombie: no Stamina, hurt only by massive damage and criticals"))
    zombie_level: str = Field("epsilon", description=N_("a zombie's level, alpha (strongest) … omega"))
    brute: bool = Field(False, description=N_("an Unleashed brute does not double its Stamina"))
    pace: int = Field(4, description=N_("areas moved a turn (5 at most count, unless pace_uncapped)"))
    pace_uncapped: bool = Field(
        False, description=N_("a power, feat or feature breaks the 5-area cap on Pace (e.g. a Fly Pace of 10)")
    )
    attack: Annotated[int, MODIFIER] = Field(0, description=N_("the /attack modifier"))
    damage: str = Field("1d6", description=N_("the /attack damage, e.g. 2d6+3"))
    damage_type: str = Field("kinetic", description=N_("the /attack damage type, e.g. fire"))
    # None: the campaign's starting number
    plot_points: Annotated[int | None, Bounded(0, MAX_PLOT_POINTS)] = Field(
        None, description=N_("a hero's Plot Points (empty: the campaign's starting number)")
    )
    companion_of: str = Field("", description=N_("a pet, summon or mount: the name of whose turn it acts in"))

    @field_validator("dr")
    @classmethod
    def _dr(cls, value: str) -> str:
        parse_dr(value)
        return value

    @field_validator("saves")
    @classmethod
    def _saves(cls, value: str) -> str:
        parse_saves(value)
        return value

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str, info: ValidationInfo) -> str:
        # refused as the sheet is entered, not on the first hit: a sheet's damage is rolled only when its owner hits
        if entered(info):
            check_expression(value)  # its refusal, a RulesError, is the sheet's
        return value

    @field_validator("zombie_level")
    @classmethod
    def _level(cls, value: str) -> str:
        return _one_of(value, ZOMBIE_LEVELS, say("zombie level"))

    @field_validator("damage_type")
    @classmethod
    def _type(cls, value: str) -> str:
        return _one_of(value, DAMAGE_TYPES, say("damage type"))

    @field_validator("stamina", "wounds", "pace", "avoidance", "fortitude", "willpower")
    @classmethod
    def _non_negative(cls, value: int) -> int:
        if not 0 <= value <= 1000:
            raise ValueError(say("must be between 0 and 1000"))
        return value


def fresh_state(sheet: RCSheet) -> dict[str, Any]:
    """A combatant's Stamina and Wounds as its sheet starts them, before any lasting state."""
    return {
        "sheet": sheet,
        "stamina": sheet.stamina,
        "max_stamina": sheet.stamina,
        "wounds": sheet.wounds,
        "max_wounds": sheet.wounds,
    }


def _one_of(value: str, allowed: tuple[str, ...], what: Text) -> str:
    """A sheet's word, in lower case, if it is one of `allowed`."""
    value = value.strip().lower()
    if value not in allowed:
        raise ValueError(say("{what} must be one of {allowed}", what=what, allowed=_terms(allowed)))
    return value


def tag_words(text: str) -> tuple[str, ...]:
    """Tags as words, whether typed `dexterity severe` or copied from a label, `(Dexterity, Severe)`."""
    return tuple(word for word in _TAG_BREAKS.split(text.casefold()) if word)


class Condition(Value):
    """A core condition with its tags and how it ends.

    `until`: "rounds" (`turns_left` of the bearer's turns), "turn_end" (end of
    `owner`'s next turn), "save" (a save against `dc` at the end of each of the
    bearer's turns), "scene" or "none" (removed by hand or by the rules).
    """

    name: str
    tags: tuple[Typed, ...] = ()
    until: Literal["rounds", "turn_end", "save", "scene", "none"] = "none"
    turns_left: int = 0
    owner: str | None = None  # whose turn end counts; None: the bearer
    since_turn: int = 0  # encounter turn number when applied
    dc: int | None = None
    save: Typed = "con"
    level: int = 1  # Exhaustion level
    damage: str = ""  # Ongoing Damage per tick
    damage_type: str = "kinetic"
    at: Literal["start", "end"] = "start"  # when Ongoing Damage ticks
    source: Typed = ""  # who imposed it (the charmer, the frightening foe)

    def label(self) -> Text:
        name = say("Exhaustion {level}", level=self.level) if self.name == "Exhaustion" else term(self.name)
        return seq(name, " (", listed(self.tags), ")") if self.tags else name

    def tag_words(self) -> frozenset[str]:
        return frozenset(tag_words(" ".join(self.tags)))

    def tagged(self, words: str) -> bool:
        """Whether each of `words` is in one of the tags: `dex` finds Dexterity, and `dexterity severe` a
        weakness tagged `Dexterity, Severe`, though no one tag holds both words."""
        tags = [tag.casefold() for tag in self.tags]
        wanted = tag_words(words)
        return bool(wanted) and all(any(word in tag for tag in tags) for word in wanted)


class Demanding(Value):
    what: Typed
    interruptible: bool = False
    since_turn: int = 0


class Economy(Value):
    """What is left of a turn; reset at the start of the combatant's own turn."""

    pace: int = 0
    action: bool = True
    bonus: bool = True
    reactions: int = 1
    opportunity: int = 0  # a Horde's opportunity attacks since its last turn
    dashed: bool = False
    disengaged: bool = False
    triggered: int | None = None  # the turn a readied action went off: its response already has its Reaction
    split_target: str | None = None  # a Horde's first split attack this turn went at this combatant
    split_left: int = 0  # … and left this many members to attack a second target
    resolved: int | None = None  # the turn a demanding action resolved at its start: its effect costs no Action


class RCCombatant(Combatant):
    sheet: RCSheet = RCSheet()
    stamina: int = 10
    max_stamina: int = 10
    temp_stamina: int = 0
    wounds: int = 3
    max_wounds: int = 3
    flaws: int = 0  # physical flaws accepted to escape death
    conditions: tuple[Condition, ...] = ()
    economy: Economy = Economy()
    demanding: Demanding | None = None
    dodging: bool = False
    assisted_by: tuple[str, ...] = ()  # advantage on the next roll, from these helpers
    ready: Typed = ""
    ongoing_total: int = 0  # continuous damage taken this scene, towards Stamina Defense
    plot_points: int = 0
    aided_this_scene: bool = False
    blaze: bool = False  # one last action: an automatic critical, then death
    dead: bool = False
    passing: bool = False  # helpless this round: the turn is skipped
    horde: tuple[Typed, ...] = ()  # member names while this combatant is a Horde
    horde_name: Typed = ""
    horde_wear: tuple[int, ...] = ()  # (Stamina, temp, Wounds, continuous total) area attacks left the other members at
    unleashed: bool = False
    unleashed_adv_round: int = 0
    unleashed_save_round: int = 0
    second_wind_used: bool = False
    echo_of: str | None = None  # the Unleashed extra turn acts for this combatant
    environment: bool = False  # a Danger Zone's turn
    fixed_init: float | None = None
    companion_of: str | None = None  # the controller whose initiative slot this one shares

    @property
    def is_hero(self) -> bool:
        """A hero takes a turn of its own on the heroes' side; a companion acts as one unit with its
        controller."""
        return self.side == "heroes" and self.companion_of is None

    @property
    def holds_points(self) -> bool:
        """Plot Points are the players' heroes' ("Players can earn, spend, and transfer Plot Points"): a
        companion's are its controller's, and an NPC the GM runs, even on the heroes' side, draws on the pool."""
        return self.is_hero and not self.npc

    @property
    def zombie(self) -> bool:
        return self.sheet.zombie

    @property
    def lesser_zombie(self) -> bool:
        return self.sheet.zombie and ZOMBIE_LEVELS.index(self.sheet.zombie_level) >= EPSILON

    def saves_against(self, condition: Condition) -> bool:
        """Whether a save can end `condition`: a common zombie "lacks the survival instinct to put out a fire or
        remove acids eating away at them" (only a Super Z has "the cunning to remove dangerous conditions")."""
        return not (condition.name == "Ongoing Damage" and self.lesser_zombie)

    @property
    def current_stamina(self) -> int:
        """Stamina with the temporary buffer on top: "When you gain Temporary Stamina, it increases your current
        Stamina", so a hero knocked out at 0 Stamina is no longer at 0 while it lasts."""
        return self.stamina + self.temp_stamina

    @property
    def stamina_defense(self) -> int:
        sd = self.sheet.stamina_defense
        return self.sheet.fortitude if sd is None else sd

    def has(self, name: str) -> bool:
        return any(c.name == name for c in self.conditions)

    def condition(self, name: str) -> Condition | None:
        return next((c for c in self.conditions if c.name == name), None)


RollKind = Literal["attack", "save", "hide", "damage", "initiative"]


class LastRoll(Value):
    """The newest d20 check or damage roll, so a Plot Point can reroll it."""

    kind: RollKind
    roller: str  # "" for the GM's own dice (`/damage`); who it hit is the spec's `target`
    turn_no: int
    spec: dict[str, Any]
    d20: int
    damage: tuple[int, ...] = ()
    before: tuple[RCCombatant, ...]
    turns_before: InitiativeState
    after: tuple[
        RCCombatant, ...
    ] = ()  # right after the roll: a reroll refuses if anything but Plot Points changed since
    plot_spent: bool = False  # on the d20 (on the whole roll, for all but an attack)
    damage_plot_spent: bool = False  # on an attack's damage, a die roll of its own


class RCEncounter(Encounter):
    combatants: tuple[RCCombatant, ...] = ()
    turns: InitiativeState
    pool: int = 0  # the Editor-in-Chief's Plot Points
    last_roll: LastRoll | None = None
    plot_log: tuple[Text, ...] = ()  # lines as posted

    def rolled(
        self,
        started: RCEncounter,
        kind: RollKind,
        roller: str,
        spec: dict[str, Any],
        *,
        d20: int = 0,
        damage: tuple[int, ...] = (),
        plot_spent: bool = False,
    ) -> RCEncounter:
        """This encounter with its newest roll recorded, made on `started`, so a Plot Point can reroll it from
        there."""
        last = LastRoll(
            kind=kind,
            roller=roller,
            turn_no=self.turn_no,
            spec=spec,
            d20=d20,
            damage=damage,
            before=started.combatants,
            turns_before=started.turns,
            after=self.combatants,
            plot_spent=plot_spent,
        )
        return self.but(last_roll=last)

    # the shared lookups, typed as what this encounter holds
    def get(self, cid: str) -> RCCombatant:
        return rc(super().get(cid))

    def find(self, name: str) -> RCCombatant:
        return rc(super().find(name))

    def maybe(self, name: str | None) -> RCCombatant | None:
        found = super().maybe(name)
        return None if found is None else rc(found)

    def active(self) -> tuple[RCCombatant, ...]:
        return tuple(c for c in self.combatants if not c.out)


def rc(c: Combatant) -> RCCombatant:
    """A combatant of a Rotted Capes encounter, as the type it has."""
    if not isinstance(c, RCCombatant):
        raise TypeError(f"not a Rotted Capes combatant: {c.id}")
    return c


def rc_encounter(enc: Encounter) -> RCEncounter:
    """An encounter handed over by the shared code, as the Rotted Capes encounter it is."""
    if not isinstance(enc, RCEncounter):
        raise TypeError(f"not a Rotted Capes encounter: {enc.system}")
    return enc
