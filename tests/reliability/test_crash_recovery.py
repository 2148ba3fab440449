"""SIGKILL the bot process at random moments of a scripted encounter, 20 times,
restarting it each time: the database is never corrupt, every command the
stand-in saw answered is in the event log, none is half-applied (the saved state
is the replay of the log), and the pinned tracker, the End-turn buttons and the
reminders carry on in the next process."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from datetime import timedelta

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from bot.db import create_engine
from bot.repository import Repository
from bot.standin import running_standin
from bot.tables import encounter_table, utcnow
from rules import registry

from .botprocess import BotLauncher
from .support import (
    FIGURES,
    Commander,
    answered_once,
    assert_tracker_current,
    check_replay,
    last_seq,
    reliability_world,
    setup_campaign,
    setup_fight,
)

KILLS = 20
BRUTES = ("Brute 1", "Brute 2")


def steps(rng: random.Random):
    """An endless scripted encounter: damage, healing, notes, attacks, turns,
    End-turn clicks, and bursts of several commands at once."""
    n = 0
    while True:
        n += 1
        yield rng.choice(
            [
                [("gm", "/damage", {"target": rng.choice(BRUTES), "amount": "1d6"})],
                [("gm", "/heal", {"target": rng.choice(BRUTES), "amount": "1d4"})],
                [
                    ("alice", "/encounter note", {"text": f"step {n}"}),
                    ("bob", "/encounter note", {"text": f"step {n}"}),
                ],
                [("alice", "/attack", {"target": rng.choice(BRUTES)})],
                [("bob", "/attack", {"target": rng.choice(BRUTES)})],
                [("gm", "/initiative next", {})],
                [("alice", "End turn", {})],
                [("bob", "End turn", {})],
                [
                    ("gm", "/damage", {"target": "Brute 1", "amount": "2d4"}),
                    ("gm", "/initiative next", {}),
                    ("carol", "/encounter note", {"text": f"burst {n}"}),
                ],
            ]
        )


def latest_turn_message(standin):
    return next((m for m in reversed(standin.messages("combat")) if m.has_component(label="End turn")), None)


async def drive(standin, commander: Commander, script, answered: asyncio.Event) -> None:
    for step in script:
        sent = []
        for user, path, options in step:
            if path == "End turn":
                message = latest_turn_message(standin)
                if message is not None:
                    sent.append(await commander.click_end_turn(user, message))
            else:
                sent.append(await commander.send(user, path, **options))
        await commander.answers(sent, timeout=15)
        answered.set()


async def first_answer(driver: asyncio.Task, answered: asyncio.Event) -> None:
    waiter = asyncio.ensure_future(answered.wait())
    await asyncio.wait([driver, waiter], timeout=60, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    if driver.done():
        driver.result()  # the script failed: show why
    assert answered.is_set(), "the restarted bot answered nothing within a minute"


async def stop(driver: asyncio.Task) -> None:
    """Cancel the script's driver; it may be answered and cancelled in the same
    instant (asyncio.wait_for then drops the cancellation), so insist."""
    while not driver.done():
        driver.cancel()
        await asyncio.wait([driver], timeout=0.05)
    if not driver.cancelled() and driver.exception() is not None:
        raise driver.exception()


def integrity(database_url: str) -> str:
    with contextlib.closing(sqlite3.connect(make_url(database_url).database)) as db:
        result = db.execute("PRAGMA integrity_check").fetchall()
        broken = db.execute("PRAGMA foreign_key_check").fetchall()
    return "ok" if result == [("ok",)] and not broken else f"{result} {broken}"


async def test_sigkill_at_random_moments_loses_nothing(database_url, db_backend, tmp_path):
    rng = random.Random(20)
    async with (
        running_standin(reliability_world()) as standin,
        BotLauncher(standin, database_url, tmp_path) as launcher,
    ):
        commander = Commander(standin)
        engine = create_engine(database_url)
        repo = Repository(engine)
        try:
            life = await launcher.start()
            await setup_campaign(standin)
            await setup_fight(standin, brutes=2)
            channel = standin.channel("combat").id
            setup_end = await last_seq(repo, channel)
            script = steps(rng)
            for kill in range(KILLS):
                answered = asyncio.Event()
                driver = asyncio.create_task(drive(standin, commander, script, answered))
                # A random moment once the process is warm: any of its commands may be mid-flight.
                await first_answer(driver, answered)
                await asyncio.sleep(rng.uniform(0.0, 0.3))
                await launcher.kill(life)
                await stop(driver)
                if db_backend == "sqlite":
                    assert await asyncio.to_thread(integrity, database_url) == "ok", f"corrupt after kill {kill + 1}"
                await check_replay(repo, channel, commander.sent, after_seq=setup_end, allow_unacknowledged=True)
                if kill < KILLS - 1:
                    life = await launcher.start()

            # While the bot is down its reminder falls due; the next process must send it.
            await _reminder_due_now(engine, channel)
            life = await launcher.start()
            record = await repo.active_encounter(channel)
            system = registry.get(record.system)
            waiting = set(system.turns.waiting(system, system.load(record.state)).users)
            reminder = await standin.wait_for(
                lambda: next((m for m in standin.messages("combat") if "⏰" in m.content), None),
                15,
                "the overdue reminder",
            )
            assert set(reminder.pings.user_ids) == waiting and waiting

            # The next command after all those restarts shows in the one pinned tracker.
            last = await commander.send("alice", "/encounter note", text="after the last restart")
            await commander.answers([last])
            await _tracker_catches_up(standin, repo)
            replay = await check_replay(repo, channel, commander.sent, after_seq=setup_end, allow_unacknowledged=True)
        finally:
            await engine.dispose()
    lives = launcher.lives

    acknowledged = [s for s in commander.sent if s.acknowledged]
    assert all(answered_once(s.handle) for s in acknowledged)
    applied = sum(s.applied for s in commander.sent)
    assert replay.checked == applied
    assert all(not life.errors() for life in lives), "\n".join(life.errors() for life in lives)
    # A kill between deleting an old tracker and recording its successor leaves the next
    # life to delete it again: Discord answers "Unknown Message" and nothing else is wrong.
    assert [r for r in standin.rejected if not (r[0] == "DELETE" and '"code": 10008' in r[3])] == []
    FIGURES["kills survived"] += KILLS
    FIGURES["commands checked against the event log"] += len(commander.sent)
    print(
        f"crashes: {KILLS} SIGKILLs survived; {len(commander.sent)} commands sent, {applied} answered as done "
        f"and found once in the log, {replay.events - applied} more committed just before a kill"
    )


async def _reminder_due_now(engine, channel_id: int) -> None:
    async with engine.begin() as conn:
        await conn.execute(
            sa.update(encounter_table)
            .where(encounter_table.c.channel_id == channel_id, encounter_table.c.status == "active")
            .values(reminder_due=utcnow() - timedelta(minutes=1), reminders_sent=0)
        )


async def _tracker_catches_up(standin, repo: Repository, timeout: float = 10.0) -> None:
    """The bot in the other process edits the tracker after it answers; give it a moment."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            await assert_tracker_current(standin, repo, "combat")
            return
        except AssertionError:
            if loop.time() > deadline:
                raise
            await asyncio.sleep(0.05)
