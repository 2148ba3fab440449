"""A command's work and the private acknowledgement it may need first (``bot.interact.in_time``)."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from bot.interact import ANSWER_WITHIN_SECONDS, TRUSTED_AGE_SECONDS, in_time


def snowflake(seconds_ago: float) -> int:
    """An id stamped as Discord stamps an interaction's, `seconds_ago` before now."""
    return discord.utils.time_snowflake(discord.utils.utcnow()) - (int(seconds_ago * 1000) << 22)


class Response:
    def __init__(self, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.deferrals: list[tuple[bool, bool]] = []
        self.deferred_at: list[float] = []
        self.done = False

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        self.deferred_at.append(time.monotonic())
        await asyncio.sleep(self.seconds)
        self.deferrals.append((ephemeral, thinking))
        self.done = True


class Interaction:
    channel_id = 1

    def __init__(self, seconds: float = 0.0, *, created_ago: float = 0.0) -> None:
        self.response = Response(seconds)
        self.id = snowflake(created_ago)


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


@pytest.mark.parametrize(("created_ago", "waited"), [(1.0, 1.0), (60.0, TRUSTED_AGE_SECONDS)])
async def test_discords_seconds_count_from_the_interactions_id_not_from_its_arrival(created_ago, waited) -> None:
    # An interaction the gateway delivered late has less than the full time left; a clock far ahead of
    # Discord's (60 s) is believed only so far, so a quick command is still answered directly.
    interaction = Interaction(created_ago=created_ago)
    started = time.monotonic()
    assert await in_time(interaction, work(ANSWER_WITHIN_SECONDS), None) == ("done", True)  # type: ignore[arg-type]
    assert interaction.response.deferrals == [(True, True)]
    took = interaction.response.deferred_at[0] - started
    assert ANSWER_WITHIN_SECONDS - waited - 0.05 < took < ANSWER_WITHIN_SECONDS - waited + 0.4
    quick = Interaction(created_ago=created_ago)
    assert await in_time(quick, work(0.05), None) == ("done", False)  # type: ignore[arg-type]
