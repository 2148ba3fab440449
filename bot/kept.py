"""Each channel's encounter as this process last saved it, kept between commands.

A shard serves its channels alone, so acting on what it saved last spares a read per
command; if another process wrote in between, the save fails its version check and
the command runs again on a fresh read (``bot.core``).

Two depths. Every kept encounter is held as its stored JSON text: a str is one object
the cycle collector never walks, where a parsed state is hundreds, and thousands of
parsed states made every full collection stall the process for about 100 ms. The few
channels that acted last are also held parsed, which spares parsing the text again
(0.1 to 0.4 ms a command, the largest part of loading). States are frozen values, and
one read back from its JSON equals the one saved (tests/golden/test_storage.py), so the
parsed copy and the text never disagree.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from rules.model import Encounter

from .repository import EncounterRecord

Load = Callable[[EncounterRecord], Encounter]

# Channels whose state is also kept parsed: the ones a busy evening's commands come back to.
PARSED = 64


class KeptEncounters:
    def __init__(self, size: int, parsed: int = PARSED) -> None:
        self.size = size
        self.parsed_size = min(parsed, size)
        self._records: OrderedDict[int, EncounterRecord] = OrderedDict()
        self._parsed: OrderedDict[int, tuple[EncounterRecord, Encounter]] = OrderedDict()

    def __contains__(self, channel_id: int) -> bool:
        return channel_id in self._records

    def record(self, channel_id: int) -> EncounterRecord | None:
        return self._records.get(channel_id)

    def forget(self, channel_id: int) -> None:
        self._records.pop(channel_id, None)
        self._parsed.pop(channel_id, None)

    def keep(self, channel_id: int, record: EncounterRecord | None, state: Encounter | None = None) -> None:
        """The channel's encounter is now ``record`` (None: nothing kept), whose parsed state is ``state``."""
        self.forget(channel_id)
        if record is None:
            return
        self._records[channel_id] = record
        while len(self._records) > self.size:
            oldest, _ = self._records.popitem(last=False)
            self._parsed.pop(oldest, None)
        if state is not None:
            self._keep_parsed(channel_id, record, state)

    def state(self, channel_id: int, record: EncounterRecord, load: Load) -> Encounter:
        """The parsed state of ``record``, the channel's kept record, parsed by ``load`` unless held parsed."""
        held = self._parsed.get(channel_id)
        if held is not None and held[0] is record:
            self._parsed.move_to_end(channel_id)
            return held[1]
        state = load(record)
        self._keep_parsed(channel_id, record, state)
        return state

    def _keep_parsed(self, channel_id: int, record: EncounterRecord, state: Encounter) -> None:
        self._parsed[channel_id] = (record, state)
        self._parsed.move_to_end(channel_id)
        while len(self._parsed) > self.parsed_size:
            self._parsed.popitem(last=False)
