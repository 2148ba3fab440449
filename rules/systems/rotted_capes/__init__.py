"""Rotted Capes: the combat chapter, with Plot Points (seed 000)."""

from .system import RottedCapes

SYSTEM = RottedCapes()

__all__ = ["SYSTEM", "RottedCapes"]
