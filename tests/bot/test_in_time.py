"""A command's work and the private acknowledgement it may need first (``bot.interact.in_time``)."""

from __future__ import annotations

import asyncio

import pytest

from bot.interact import in_time


class Response:
    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.deferrals: list[tuple[bool, bool]] = []
        self.done = False

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        await asyncio.sleep(self.seconds)
        self.deferrals.append((ephemeral, thinking))
        self.done = True


class Interaction:
    channel_id = 1

    def __init__(self, seconds: float = 0.0) -> None:
        self.response = Response(seconds)


async def work(seconds: float, value: str = "done") -> str:
    await asyncio.sleep(seconds)
    return value


async def test_work_done_in_time_is_not_acknowledged_first() -> None:
    interaction = Interaction()
    assert await in_time(interaction, work(0.01), 0.2) == ("done", False)  # type: ignore[arg-type]
    await asyncio.sleep(0.3)  # the timer was cancelled: no late acknowledgement
    assert interaction.response.deferrals == []


async def test_slow_work_is_acknowledged_privately_while_it_runs() -> None:
    interaction = Interaction()
    seen_during: list[bool] = []

    async def slow() -> str:
        await asyncio.sleep(0.1)
        seen_during.append(interaction.response.done)
        return "late"

    assert await in_time(interaction, slow(), 0.02) == ("late", True)  # type: ignore[arg-type]
    assert seen_during == [True]
    assert interaction.response.deferrals == [(True, True)]


async def test_a_failure_after_the_acknowledgement_began_waits_for_it() -> None:
    # The error's answer must know the interaction was acknowledged: it goes as a followup.
    interaction = Interaction(seconds=0.1)

    async def failing() -> str:
        await asyncio.sleep(0.05)
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        await in_time(interaction, failing(), 0.01)  # type: ignore[arg-type]
    assert interaction.response.deferrals == [(True, True)]
