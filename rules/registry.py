"""The rule systems the bot knows, by key (like python-chess's variants).

Modules are imported on first use, so one system's import cost or failure
never touches a channel playing another.
"""

from __future__ import annotations

import importlib
from functools import cache

from .errors import InvalidInput
from .said import N_, say, term
from .system import System
from .usertext import listed, quoted

MODULES: dict[str, str] = {
    N_("rotted-capes"): "rules.systems.rotted_capes",
    N_("fightin-words"): "rules.systems.fightin_words",
    N_("factions"): "rules.systems.factions",
    N_("99-towers"): "rules.systems.towers",
    N_("frozen-lands"): "rules.systems.frozen_lands",
}

_extra: dict[str, System] = {}


def register(system: System) -> System:
    """Make a system available under its key (tests add toy systems this way)."""
    _extra[system.key] = system
    return system


@cache
def _load(key: str) -> System:
    module = importlib.import_module(MODULES[key])
    return module.SYSTEM


def unregister(key: str) -> None:
    _extra.pop(key, None)


def get(key: str) -> System:
    if key in _extra:
        return _extra[key]
    if key not in MODULES:
        known = listed(term(name) for name in MODULES)
        raise InvalidInput(say("Unknown rule system {key}. Known: {known}.", key=quoted(key or ""), known=known))
    return _load(key)
