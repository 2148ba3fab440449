"""What a 99 Towers encounter tracks about each combatant."""

from __future__ import annotations

from rules.model import Combatant, Encounter, Value
from rules.said import N_
from rules.turns.clock import ClockState
from rules.usertext import Typed

from .sheet import TowersSheet, Weapon, words

# The hold is the victim's condition `grappled by <grappler>` (see grapple.py).
GRAPPLED_BY = "grappled by "
# What lasts "until the start of your next activation": each flag, and its name as the lines say it.
ENDINGS = (
    ("full_defense", N_("Full Defense")),
    ("reckless", N_("Reckless Move penalty")),
    ("power_attacked", N_("Power Attack penalty")),
)


class Condition(Value):
    name: Typed
    minor: bool = False
    until_phase: int | None = None  # ends at the start of this phase
    ongoing: int = 0  # STUN at the start of every zero phase
    category: str = "none"
    dtype: Typed = ""


class TowersCombatant(Combatant):
    sheet: TowersSheet = TowersSheet()
    weapons: tuple[Weapon, ...] = ()
    surprised: bool = False
    stun: int = 10
    lethal: int = 5
    temp_stun: int = 0
    temp_lethal: int = 0
    mana: int = 0
    flat_footed: bool = True
    prone: bool = False
    aim: int = 0
    aim_stat: str = "pa"
    aided_for: str | None = None  # an ally this combatant defends against at (flip−1), once
    full_defense: bool = False
    reckless: bool = False
    power_attacked: bool = False
    # The ENDINGS flags the start of the turn now open ended: back on if a holder steps in first.
    ended: tuple[str, ...] = ()
    # (foe, turn_no) of the last opportunity attack: one for each action of a foe.
    opportunity_on: tuple[str, int] | None = None
    leaping: bool = False
    free_phase: int | None = None  # the phase of the last free or zero-cost action: no Forced Delay in it
    stance: str = ""  # dual-wielding: "aggressive", "defensive" or none (see stance.py)
    conditions: tuple[Condition, ...] = ()
    companion_of: str | None = None  # an animal companion: the master whose activations it shares

    # derived states -------------------------------------------------------
    @property
    def health(self) -> int:
        """LETHAL with temporary LETHAL: what decides disabled and dying."""
        return self.lethal + self.temp_lethal

    @property
    def unconscious(self) -> bool:
        return self.stun <= 0

    @property
    def dying(self) -> bool:
        return self.health < 0 and not self.out

    @property
    def disabled(self) -> bool:
        return self.health == 0

    @property
    def wounded(self) -> bool:
        return 0 < self.health < self.sheet.lethal

    @property
    def death_at(self) -> int:
        return -2 * self.sheet.endurance

    @property
    def grappled(self) -> bool:
        return any(c.name.startswith(GRAPPLED_BY) for c in self.conditions)

    def immune_to(self, dtype: str) -> bool:
        return bool(dtype) and dtype in words(self.sheet.immune)

    def susceptible_to(self, dtype: str) -> bool:
        return bool(dtype) and dtype in words(self.sheet.susceptible)

    def states(self) -> list[str]:
        found = []
        if self.out:
            found.append("dead")
        elif self.dying:
            found.append("dying")
        elif self.disabled:
            found.append("disabled")
        elif self.wounded:
            found.append("wounded")
        if self.unconscious and not self.out:
            found.append("unconscious")
        if self.prone and not self.out:
            found.append("prone")
        return found


class TowersEncounter(Encounter):
    combatants: tuple[TowersCombatant, ...] = ()
    turns: ClockState = ClockState()

    # lookups, typed as what this encounter holds --------------------------
    def get(self, cid: str) -> TowersCombatant:
        return _ours(super().get(cid))

    def find(self, name: str) -> TowersCombatant:
        return _ours(super().find(name))

    def maybe(self, name: str | None) -> TowersCombatant | None:
        found = super().maybe(name)
        return None if found is None else _ours(found)

    def active(self) -> tuple[TowersCombatant, ...]:
        return tuple(c for c in self.combatants if not c.out)


def can_act(enc: TowersEncounter, combatant: TowersCombatant) -> bool:
    """Whether `combatant` may act on its turn: neither dead, unconscious nor dying (nor disabled, if the campaign
    says the disabled cannot act)."""
    if combatant.out or combatant.unconscious or combatant.dying:
        return False
    return not (combatant.disabled and not enc.options.get("disabled_can_act", True))


def _ours(combatant: Combatant) -> TowersCombatant:
    if not isinstance(combatant, TowersCombatant):
        raise TypeError(f"not a 99 Towers combatant: {combatant.id}")
    return combatant
