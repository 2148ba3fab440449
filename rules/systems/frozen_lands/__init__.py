"""Frozen Lands (seed 004): d6 pools, three actions a round, reactions and Stress."""

from .system import SYSTEM, FrozenLands

__all__ = ["SYSTEM", "FrozenLands"]
