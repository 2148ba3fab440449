"""Latency rounds and concurrent batches, Turnkeeper and the echo baseline interleaved.

The two bots run as separate processes, each against its own stand-in, and take
turns command by command (batch by batch), so both see the same machine load.
"""

from __future__ import annotations

from collections import defaultdict

from .driving import Driver, refused, wait_for_callbacks
from .fights import Fight

ECHO = "/echo"
ECHO_CHANNEL = "combat"


Latencies = dict[tuple[str, str], list[float]]


async def latencies(tk: Driver, fights: list[Fight], echo: Driver, samples: int, warmup: int = 10) -> Latencies:
    """Per (system, command label) latencies, at least ``samples`` each, and ("echo", "/echo")."""
    found: dict[tuple[str, str], list[float]] = defaultdict(list)
    running = list(fights)
    rounds = 0
    while running:
        for fight in list(running):
            label, latency = await tk.step(fight)
            if rounds >= warmup:
                found[(fight.key, label)].append(latency)
            if all(len(found[(fight.key, name)]) >= samples for name in fight.labels):
                running.remove(fight)
        latency = await echo.run(ECHO_CHANNEL, ECHO, {}, tracked=False)
        if rounds >= warmup:
            found[("echo", ECHO)].append(latency)
        rounds += 1
    return dict(found)


async def turnkeeper_batch(tk: Driver, fights: list[Fight], per_channel: int) -> tuple[float, list[str]]:
    """Commands per second for ``per_channel`` commands in each fight's channel, all sent at once,
    and the answers that were refusals (each one a failure: the batch's commands are all valid)."""
    # Faction turns end with /initiative next: the End turn button does not exist yet.
    planned = [(fight, fight.plan(per_channel, buttons=False)) for fight in fights]
    handles = []
    for k in range(per_channel):
        for fight, steps in planned:
            handles.append(await tk.send_step(fight, steps[k]))
    last = await wait_for_callbacks(tk.standin, handles)
    first = min(tk.standin.sent_at[h.id] for h in handles)
    # A command slower than 2 s on a busy machine is acknowledged privately first, then carried out.
    failures = [m.content for m in [await h.response() for h in handles] if refused(m)]
    # A bot may merge a burst's tracker edits, so "settled" is: nothing more to send.
    await tk.quiet()
    tk.forget_trackers()
    if failures:
        # Those commands changed nothing: follow the stored states again.
        for fight in fights:
            await tk.resync(fight)
    return len(handles) / (last - first), failures


async def echo_batch(echo: Driver, channels: list[str], per_channel: int) -> float:
    handles = []
    for _ in range(per_channel):
        for channel in channels:
            handles.append(await echo.send(channel, ECHO, {}))
    last = await wait_for_callbacks(echo.standin, handles)
    first = min(echo.standin.sent_at[h.id] for h in handles)
    for handle in handles:
        await echo.answered(handle)
    return len(handles) / (last - first)
