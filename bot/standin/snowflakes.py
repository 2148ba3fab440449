"""Deterministic snowflake ids.

Ids look like real Discord snowflakes (64-bit, timestamp in the high bits) so that
``id >> 22`` sharding math behaves as in production.  They are deterministic — each
new id advances the embedded timestamp by one millisecond — so two runs of the same
test produce the same ids and the same shard placement; only interaction ids carry the
present time, as Discord's do.
"""

from __future__ import annotations

import datetime as _dt
import time

DISCORD_EPOCH_MS = 1420070400000
# 2024-01-01T00:00:00Z: recent enough to look real, fixed for reproducibility.
BASE_MS = 1704067200000


class SnowflakeFactory:
    def __init__(self, start_ms: int = BASE_MS) -> None:
        self._offset = start_ms - DISCORD_EPOCH_MS
        self._count = 0

    def next(self) -> int:
        self._count += 1
        return ((self._offset + self._count) << 22) | (self._count % 4096)

    def now(self) -> int:
        """An id stamped with the present time, as Discord stamps an interaction's id: bots
        read from it how long the interaction's token has left."""
        self._count += 1
        return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (self._count % (1 << 22))

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """Skip ids until one lands on the wanted shard (guild placement for tests)."""
        while True:
            candidate = self.next()
            if (candidate >> 22) % shard_count == shard_id:
                return candidate


def shard_of(snowflake: int, shard_count: int) -> int:
    return (snowflake >> 22) % shard_count


def snowflake_time(snowflake: int) -> _dt.datetime:
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.UTC)


def iso_time(snowflake: int) -> str:
    return snowflake_time(snowflake).isoformat()
