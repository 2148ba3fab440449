"""Turnkeeper's rules core: pure, synchronous, free of Discord and databases."""

from .actions import Action
from .engine import apply
from .errors import RulesError
from .model import Actor, Combatant, Encounter, Event, Outcome

__all__ = ["Action", "Actor", "Combatant", "Encounter", "Event", "Outcome", "RulesError", "apply"]
