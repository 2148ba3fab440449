"""A small random generator whose whole state is one integer.

The state is stored inside the encounter, so replaying an encounter's actions
from the same starting state gives exactly the same rolls, and undo restores
the generator along with everything else. SplitMix64 is used because its state
is a single 64-bit word and its output passes the usual statistical batteries.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], without modulo bias."""
        span = high - low + 1
        if span <= 0:
            raise ValueError("empty range")
        limit = (1 << 64) - ((1 << 64) % span)
        while True:
            value = self.next_u64()
            if value < limit:
                return low + value % span

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]

    def choice(self, items):
        if not items:
            raise ValueError("empty sequence")
        return items[self.randint(0, len(items) - 1)]


def seed_from(value: int | str) -> int:
    """A well-mixed starting state from any seed value."""
    if isinstance(value, str):
        value = int.from_bytes(value.encode()[:16].ljust(8, b"\0"), "little")
    rng = Rng(value)
    return rng.next_u64()
