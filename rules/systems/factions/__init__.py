"""Factions: sides alternate activating one character at a time; attacks hit
automatically and d20 roll-under saves (STR, AGI, WIT) decide the rest.

Modules: `sheet` (stats, weapons), `state` (typed fighters and encounter),
`saves`, `harm` (armour, grit, critical damage), `economy` (move, main and
bonus actions), `strike` (attacks and reactions), `manoeuvres` (disarm,
shove, grapple), `morale`, `handlers` and `system` (commands and hooks).
"""

from .system import FactionsSystem

SYSTEM = FactionsSystem()
