"""The encounters a process keeps between commands: as text always, parsed for the last few channels."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.db import StoredJSON
from bot.kept import KeptEncounters
from bot.repository import EncounterRecord
from rules import registry
from rules.model import Encounter
from rules.rng import seed_from

SYSTEM = "rotted-capes"
NOW = datetime(2026, 11, 27, tzinfo=UTC)


def record(channel_id: int, version: int = 1) -> tuple[EncounterRecord, Encounter]:
    state = registry.get(SYSTEM).new_encounter(7, seed_from(channel_id), {})
    kept = EncounterRecord(
        id=channel_id * 10,
        guild_id=1,
        channel_id=channel_id,
        system=SYSTEM,
        status="active",
        state=StoredJSON(state.model_dump_json()),
        version=version,
        campaign_key=None,
        tracker_message_id=None,
        turn_message_id=None,
        reminder_due=None,
        reminders_sent=0,
        pending_deadline=None,
        created_at=NOW,
        updated_at=NOW,
    )
    return kept, state


class Loads:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, kept: EncounterRecord) -> Encounter:
        self.count += 1
        return registry.get(kept.system).load(kept.state)


def test_the_state_saved_with_its_record_is_handed_back_without_parsing():
    kept = KeptEncounters(8, parsed=2)
    saved, state = record(1)
    kept.keep(1, saved, state)
    load = Loads()
    assert kept.state(1, saved, load) is state and load.count == 0


def test_a_newer_record_of_the_channel_is_parsed_from_its_text_and_then_held():
    kept = KeptEncounters(8, parsed=2)
    saved, state = record(1)
    kept.keep(1, saved, state)
    newer = replace(saved, version=2)
    kept.keep(1, newer)
    load = Loads()
    first = kept.state(1, newer, load)
    assert first == state and first is not state and load.count == 1
    assert kept.state(1, newer, load) is first and load.count == 1


def test_only_the_last_channels_stay_parsed_and_the_rest_are_parsed_again():
    kept = KeptEncounters(8, parsed=2)
    records = {channel: record(channel) for channel in (1, 2, 3)}
    for channel, (saved, state) in records.items():
        kept.keep(channel, saved, state)
    load = Loads()
    assert kept.state(3, records[3][0], load) is records[3][1]
    assert kept.state(2, records[2][0], load) is records[2][1]
    assert load.count == 0
    assert kept.state(1, records[1][0], load) == records[1][1] and load.count == 1
    assert all(channel in kept for channel in records)  # the texts stay


def test_the_oldest_channels_are_forgotten_past_the_size_with_their_parsed_state():
    kept = KeptEncounters(2, parsed=2)
    for channel in (1, 2, 3):
        kept.keep(channel, *record(channel))
    assert 1 not in kept and kept.record(1) is None
    assert 2 in kept and 3 in kept


def test_forgetting_a_channel_drops_its_text_and_its_parsed_state():
    kept = KeptEncounters(8, parsed=2)
    saved, state = record(1)
    kept.keep(1, saved, state)
    kept.forget(1)
    assert 1 not in kept and kept.record(1) is None
    kept.keep(1, saved)
    load = Loads()
    assert kept.state(1, saved, load) == state and load.count == 1
