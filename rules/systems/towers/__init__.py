"""99 Towers (seed 003): the Combat Clock, card flips, STUN and LETHAL."""

from .system import SYSTEM, TowersSystem

__all__ = ["SYSTEM", "TowersSystem"]
