from __future__ import annotations

import asyncio

import pytest

from bot.admission import Admission, Busy
from rules.errors import RulesError
from rules.text import english


async def test_a_command_past_the_limit_waits_its_turn_in_line() -> None:
    admission = Admission(at_once=1, patience=1.0)
    order: list[str] = []
    release = asyncio.Event()

    async def first() -> None:
        async with admission.slot():
            order.append("first in")
            await release.wait()
            order.append("first out")

    async def second() -> None:
        async with admission.slot():
            order.append("second in")

    tasks = [asyncio.create_task(first()), asyncio.create_task(second())]
    await asyncio.sleep(0.02)
    assert order == ["first in"]
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["first in", "first out", "second in"]
    assert admission.turned_away == 0


async def test_a_command_that_would_wait_too_long_is_told_the_bot_is_busy_and_the_line_recovers() -> None:
    admission = Admission(at_once=1, patience=0.05)
    release = asyncio.Event()

    async def holder() -> None:
        async with admission.slot():
            await release.wait()

    held = asyncio.create_task(holder())
    await asyncio.sleep(0)
    with pytest.raises(Busy) as refused:
        async with admission.slot():
            pytest.fail("admitted past the limit")
    # A refusal like any other: private, and its text safe to show.
    assert isinstance(refused.value, RulesError)
    assert "busy" in english(refused.value.said) and "Nothing was changed" in english(refused.value.said)
    assert admission.turned_away == 1
    release.set()
    await held
    async with asyncio.timeout(0.5):
        async with admission.slot():
            pass  # free again once the burst is over


async def test_a_slot_freed_while_a_command_waits_goes_to_it_not_to_one_that_came_later() -> None:
    # The next command of a channel must not overtake the one before it: it would act on the wrong turn.
    admission = Admission(at_once=1, patience=1.0)
    order: list[str] = []
    held = admission.slot()
    await held.__aenter__()

    async def earlier() -> None:
        async with admission.slot():
            order.append("earlier")

    waiting = asyncio.create_task(earlier())
    await asyncio.sleep(0)  # the earlier command has come and is waiting for a slot
    await held.__aexit__(None, None, None)  # a slot is freed, and at once a later command asks for one
    async with asyncio.timeout(0.5):
        async with admission.slot():
            order.append("later")
    await waiting
    assert order == ["earlier", "later"]
