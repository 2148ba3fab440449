"""Where a command's time goes, stage by stage, in this process.

Each stage keeps how often it ran and a bounded sample of how long it took: two clock
reads per stage and command, cheap enough to stay on in production. The load run asks
the bot processes for these figures (``tests.perf.launcher``) and prints them side by side.

Stages, in the order a command meets them:

- ``decode``: the gateway's INTERACTION_CREATE parsed, dispatched and waiting for the
  event loop until the command tree checks it;
- ``queue``: waiting for a free slot of the commands under way (``bot.admission``);
- ``lock``: waiting for the channel's lock (another command of the channel under way);
- ``load``: the channel's encounter read (or found in memory) and parsed;
- ``apply``: the rules;
- ``save``: the state serialised and committed with its log row;
- ``render``: the result's message laid out;
- ``reply``: the interaction's callback sent;
- ``ping``: the turn message with its ping sent;
- ``tracker``: the pinned tracker laid out and edited (after the answer, in the background);
- ``gc``: not a stage but a pause: each collection of Python's cycle collector, which
  stops everything in the process while it runs.
"""

from __future__ import annotations

import gc
import random
import time
from dataclasses import dataclass, field

STAGES = ("decode", "queue", "lock", "load", "apply", "save", "render", "reply", "ping", "tracker", "gc")
SAMPLES = 20_000  # per stage: a reservoir, so memory stays bounded however long the bot runs

clock = time.perf_counter


@dataclass
class Stage:
    count: int = 0
    total: float = 0.0
    samples: list[float] = field(default_factory=list)

    def add(self, seconds: float, rng: random.Random) -> None:
        self.count += 1
        self.total += seconds
        if len(self.samples) < SAMPLES:
            self.samples.append(seconds)
        else:
            slot = rng.randrange(self.count)
            if slot < SAMPLES:
                self.samples[slot] = seconds


class Stages:
    def __init__(self) -> None:
        self._rng = random.Random(0)
        self.stages: dict[str, Stage] = {name: Stage() for name in STAGES}

    def add(self, name: str, started: float) -> float:
        """The stage that began at ``started`` (a ``clock()`` reading) ends now; returns now."""
        now = clock()
        self.stages[name].add(now - started, self._rng)
        return now

    def reset(self) -> None:
        self.stages = {name: Stage() for name in STAGES}

    def report(self) -> dict[str, dict[str, float | int | list[float]]]:
        return {
            name: {"count": stage.count, "total": stage.total, "samples": list(stage.samples)}
            for name, stage in self.stages.items()
        }


# One per process: the stages of every shard this process serves.
STAGE_CLOCK = Stages()


def _time_collections() -> None:
    started = [0.0]

    def on_collection(phase: str, _info: dict) -> None:
        if phase == "start":
            started[0] = clock()
        else:
            STAGE_CLOCK.add("gc", started[0])

    gc.callbacks.append(on_collection)


_time_collections()


APPLICATION_COMMAND = 2  # Discord's interaction type of a slash command
MAX_ARRIVALS = 10_000


class Arrivals:
    """When each slash command's INTERACTION_CREATE reached the gateway's parser, by
    interaction id, so the command tree's check can time the ``decode`` stage. Wraps the
    parser of ``connection`` (discord.py's ConnectionState keeps them by event name)."""

    def __init__(self, connection) -> None:
        self._times: dict[int, float] = {}
        parse = connection.parsers["INTERACTION_CREATE"]

        def stamped(data) -> None:
            if data.get("type") == APPLICATION_COMMAND:
                if len(self._times) >= MAX_ARRIVALS:  # commands that never reached the check
                    self._times.clear()
                self._times[int(data["id"])] = clock()
            parse(data)

        connection.parsers["INTERACTION_CREATE"] = stamped

    def pop(self, interaction_id: int, default: float | None = None) -> float | None:
        return self._times.pop(interaction_id, default)
