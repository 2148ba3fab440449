"""Frozen Lands state: the sheet, the combatant, zones and the encounter."""

from __future__ import annotations

from pydantic import Field, ValidationInfo, field_validator

from ...actions import Action
from ...entering import entered
from ...errors import InvalidInput
from ...model import Combatant, Encounter, Value
from ...said import N_, say
from ...turns.tracks import TrackState
from ...usertext import Typed
from .weapons import sheet_weapon

MAX_STRESS = 50  # what a sheet carries in, `/campaign adjust` sets and an import takes

ATTRIBUTES = (N_("body"), N_("agility"), N_("mind"), N_("awareness"), N_("soul"))
# Which attribute a skill rests on decides the condition its stress dice give.
SKILLS = {
    N_("melee"): "body",
    N_("athletics"): "body",
    N_("mobility"): "agility",
    N_("marksmanship"): "agility",
    N_("stealth"): "agility",
    N_("perception"): "awareness",
    N_("survival"): "awareness",
    N_("lore"): "mind",
    N_("healing"): "mind",
    N_("persuasion"): "soul",
}
CONDITIONS = {"body": "exhaustion", "agility": "exhaustion", "mind": "dazed", "awareness": "dazed", "soul": "fear"}
# How the lines show them (`term(attribute.upper())`, `term(skill.capitalize())`), for extraction.
SHOWN = (
    *(N_("BODY"), N_("AGILITY"), N_("MIND"), N_("AWARENESS"), N_("SOUL")),
    *(N_("Melee"), N_("Athletics"), N_("Mobility"), N_("Marksmanship"), N_("Stealth"), N_("Perception")),
    *(N_("Survival"), N_("Lore"), N_("Healing"), N_("Persuasion"), N_("Exhaustion"), N_("Dazed"), N_("Fear")),
)
ACTIONS_PER_ROUND = 3
MAX_LEVEL = 3


class Sheet(Value):
    # characters
    body: int = Field(2, ge=0, le=10, description=N_("BODY: toughness; adds to Stamina"))
    agility: int = Field(2, ge=0, le=10, description=N_("AGILITY: reactions a round are AGILITY − 1"))
    mind: int = Field(2, ge=0, le=10, description=N_("MIND: Lore and Healing rest on it"))
    awareness: int = Field(2, ge=0, le=10, description=N_("AWARENESS: senses; acting out of turn"))
    soul: int = Field(2, ge=0, le=10, description=N_("SOUL: Stress up to it adds no stress dice"))
    melee: int = Field(0, ge=0, le=20, description=N_("Melee dice: melee attacks and blocks"))
    marksmanship: int = Field(0, ge=0, le=20, description=N_("Marksmanship dice: ranged attacks"))
    mobility: int = Field(0, ge=0, le=20, description=N_("Mobility dice: dodging, disengaging, standing up"))
    athletics: int = Field(0, ge=0, le=20, description=N_("Athletics dice: jumping, feats of strength"))
    perception: int = Field(0, ge=0, le=20, description=N_("Perception dice: noticing things"))
    stealth: int = Field(0, ge=0, le=20, description=N_("Stealth dice: moving unseen"))
    survival: int = Field(0, ge=0, le=20, description=N_("Survival dice: tracking, finding shelter"))
    lore: int = Field(0, ge=0, le=20, description=N_("Lore dice: knowledge"))
    healing: int = Field(0, ge=0, le=20, description=N_("Healing dice: First Aid"))
    persuasion: int = Field(0, ge=0, le=20, description=N_("Persuasion dice: talking, intimidating"))
    class_stamina: int = Field(4, ge=0, le=50, description=N_("Stamina from the class (Stamina = this + BODY)"))
    armour: int = Field(0, ge=0, le=20, description=N_("Armour: cuts every hit's damage"))
    weapon: str = Field("Unarmed", description=N_("Main melee weapon (the seed's table; Unarmed)"))
    offhand: str = Field("", description=N_("Second one-handed melee weapon, for dual wielding"))
    ranged: str = Field("", description=N_("Ranged weapon (the seed's table)"))
    shield: bool = Field(False, description=N_("Carries a shield: can block"))
    loaded: bool = Field(False, description=N_("The ranged weapon starts loaded"))
    talents: str = Field("", description=N_("Actions repeatable in one turn, e.g. attack,move"))
    stress: int = Field(0, ge=0, le=MAX_STRESS, description=N_("Stress carried in (above SOUL: stress dice)"))
    wp: int = Field(0, ge=0, le=99, description=N_("WP carried in"))
    wounds: int = Field(0, ge=0, le=50, description=N_("Wounds carried in"))
    # enemies
    initiative: int = Field(0, ge=0, le=20, description=N_("Enemy: fixed initiative score"))
    damage: int = Field(1, ge=0, le=50, description=N_("Enemy: damage of each attack"))
    defense: int = Field(0, ge=0, le=20, description=N_("Enemy: defense, cuts the damage it takes"))
    stamina: int = Field(4, ge=1, le=200, description=N_("Enemy: Stamina"))
    size: int = Field(0, ge=-2, le=2, description=N_("Enemy: size for shots at it (+ large, − small)"))

    @field_validator("weapon", "offhand", "ranged")
    @classmethod
    def _from_its_table(cls, name: str, info: ValidationInfo) -> str:
        # Refused as it is typed, not first at the table's /initiative join; a stored sheet still loads.
        if name and entered(info):
            sheet_weapon(name, str(info.field_name))
        return name


class Zone(Value):
    name: Typed
    features: tuple[str, ...] = ()  # cluttered, dim, dark, cramped


class FrozenCombatant(Combatant):
    sheet: Sheet = Sheet()
    enemy: bool = False
    stamina: int = 0
    stamina_max: int = 0
    wounds: int = 0
    injuries: tuple[Typed, ...] = ()  # the GM's critical-injury results, one per recorded Wound
    stress: int = 0
    wp: int = 0
    exhaustion: int = 0
    dazed: int = 0
    fear: int = 0
    prone: bool = False
    actions_left: int = ACTIONS_PER_ROUND
    reactions_left: int = 0
    used: tuple[str, ...] = ()  # actions taken this turn
    attacked_with: tuple[str, ...] = ()  # weapons attacked with this turn (dual wielding)
    split_rest: int | None = None  # Melee dice kept back for the off-hand attack
    out_of_turn_tried: bool = False
    held: bool = False  # an action delayed this round
    releasing: bool = False  # the delayed action is being taken now
    interject_spent: bool = False
    aimed: bool = False
    loaded: bool = False
    zone: Typed = ""
    engaged: tuple[str, ...] = ()  # combatants at close range with this one

    @property
    def broken(self) -> bool:
        return not self.enemy and self.stamina <= 0

    @property
    def unrecorded_injuries(self) -> int:
        return max(0, self.wounds - len(self.injuries))

    def stressed(self, n: int) -> FrozenCombatant:
        """`n` more Stress, up to the most a character carries out of the fight (the seed sets no top)."""
        return self.but(stress=min(MAX_STRESS, self.stress + n))

    def talent_allows(self, action: str) -> bool:
        return action in {t.strip().casefold() for t in self.sheet.talents.split(",")}

    def max_actions(self) -> int:
        return max(0, ACTIONS_PER_ROUND - self.exhaustion)

    def max_reactions(self) -> int:
        return max(0, self.sheet.agility - 1 - self.dazed)

    def stress_dice(self) -> int:
        return max(0, self.stress - self.sheet.soul)


def frozen(combatant: Combatant) -> FrozenCombatant:
    """`combatant` as the Frozen Lands combatant that every one of its encounters holds."""
    if isinstance(combatant, FrozenCombatant):
        return combatant
    raise TypeError(f"{combatant.id} is not a Frozen Lands combatant")


class FrozenEncounter(Encounter):
    combatants: tuple[FrozenCombatant, ...] = ()
    turns: TrackState
    zones: tuple[Zone, ...] = ()

    def get(self, cid: str) -> FrozenCombatant:
        return frozen(super().get(cid))

    def find(self, name: str) -> FrozenCombatant:
        return frozen(super().find(name))

    def actor(self, action: Action) -> FrozenCombatant:
        """Who takes an action on a turn (the engine names the one whose turn it is)."""
        if not action.actor:
            raise InvalidInput(say("Name the character with actor:."))
        return self.find(action.actor)

    def zone(self, name: str) -> Zone | None:
        key = (name or "").strip().casefold()
        return next((z for z in self.zones if z.name.casefold() == key), None)

    def feature(self, combatant: FrozenCombatant, feature: str) -> bool:
        zone = self.zone(combatant.zone)
        return bool(zone and feature in zone.features)
