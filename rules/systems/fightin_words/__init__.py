"""Them's Fightin' Words (seed 001): six-second rounds on a d6."""

from .system import SYSTEM, FightinWords

__all__ = ["SYSTEM", "FightinWords"]
