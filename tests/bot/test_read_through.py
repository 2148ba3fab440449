"""A read-through value forgotten while it is being read is not kept."""

from __future__ import annotations

import asyncio

from bot.read_through import ReadThrough


async def test_a_value_is_read_once_and_a_read_overtaken_by_a_change_is_not_kept() -> None:
    stored = {"role": 1}
    reads = []
    gate = asyncio.Event()

    async def read(key: str) -> int:
        reads.append(key)
        value = stored[key]
        await gate.wait()
        return value

    kept: ReadThrough[str, int] = ReadThrough(read)
    slow = asyncio.create_task(kept.get("role"))
    await asyncio.sleep(0)
    stored["role"] = 2  # a change saved, and forgotten, while the first read was under way
    kept.forget("role")
    gate.set()
    assert await slow == 1  # what it read, for the one who asked then
    assert await kept.get("role") == 2 and await kept.get("role") == 2
    assert reads == ["role", "role"]
