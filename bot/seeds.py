"""Where a random generator starts: fresh from the system, or, with the bot's fixed seed (the offline sandbox,
tests), from that seed and what the generator is for, so that the same script replays the same dice."""

from __future__ import annotations

import os

from rules.rng import seed_from


def generator_seed(fixed: int | None, purpose: int) -> int:
    """A generator's starting state; ``purpose`` tells generators of one fixed seed apart (a channel, a campaign,
    the nth free roll)."""
    if fixed is not None:
        return seed_from(fixed + purpose)
    return seed_from(int.from_bytes(os.urandom(8), "little"))
