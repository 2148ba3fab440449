"""Every key a character's lasting state gets, whatever writes it, is one its system declares: a value the
GM may set (`System.adjustable`), or a yes/no flag the fight writes and the GM does not set
(`System.lasting_flags`). A campaign file's import takes those keys and no others: a key some path writes
but no system declares would make the bot's own export fail to import. The states are those
tests/rules/lasting_writes.py gathers from the real functions."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from rules import registry
from rules.system import System
from tests.rules.lasting_writes import written

KEYS = sorted(registry.MODULES)


@pytest.fixture(scope="module", params=KEYS)
def play(request) -> tuple[System, list[dict[str, Any]]]:
    system = registry.get(request.param)
    return system, written(system)


# --- the tests --------------------------------------------------------------------------------------------
TYPES = {"int": int, "bool": bool, "list": list, "text": str}


def test_every_key_play_writes_is_adjustable_or_a_declared_flag_of_its_type(play):
    system, states = play
    adjustable, flags = system.adjustable(), system.lasting_flags()
    for state in states:
        for key, value in state.items():
            assert key in adjustable or key in flags, (system.key, key, state)
            kind = bool if key in flags else TYPES[adjustable[key].kind]
            assert isinstance(value, kind) and (kind is bool or not isinstance(value, bool)), (system.key, key, value)


def test_every_declared_flag_is_written_and_none_is_adjustable(play):
    """A flag no path writes (or one the GM sets, which is adjustable) is no flag: the declaration would let
    an import take a key the bot never writes."""
    system, states = play
    flags = system.lasting_flags()
    assert not flags & system.adjustable().keys()
    assert flags <= {key for state in states for key in state}


def test_a_system_without_rules_between_fights_declares_no_flags():
    assert System.lasting_flags(SimpleNamespace(between=None)) == frozenset()
