"""Shared fixtures: a running stand-in and a ready ProbeBot connected to it."""

from __future__ import annotations

import pytest

from bot.standin import SANDBOX_GUILD, StandIn, running_client, running_standin

from .probe_bot import ProbeBot


@pytest.fixture
async def standin() -> StandIn:
    async with running_standin() as s:
        yield s


@pytest.fixture
async def bot(standin: StandIn) -> ProbeBot:
    guild_id = standin.world.guild(SANDBOX_GUILD).id
    async with running_client(standin, lambda: ProbeBot([guild_id])) as client:
        yield client
