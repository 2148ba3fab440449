"""The async facade: serialised channels, optimistic saves, undo, timeouts."""

import asyncio
from datetime import timedelta

import pytest

from bot.core import Core, _hidden_took_part
from bot.db import create_engine, upgrade_schema
from bot.repository import Repository
from rules.actions import AddCombatants, NextTurn
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor, Outcome
from rules.said import seq
from rules.secrets import conceal, reveal, secret
from rules.systems.frozen_lands.actions import Attack, Interrupt
from rules.usertext import mark
from tests import toy
from tests.helpers import GM
from tests.rules.test_frozen_lands_support import BJORN, act, begin, end_turn, hero, new
from tests.rules.test_turns import ASK  # noqa: F401 (importing it registers the toy-ask system)

ALICE = Actor(user_id=2)
CHANNEL = 555


async def started(core: Core, system="toy-initiative", channel=CHANNEL):
    await core.start(9, channel, GM, system=system, seed=1)
    await core.act(channel, AddCombatants(by=GM, name="Orc", dice=(15,)), "/initiative add")
    await core.act(
        channel, AddCombatants(by=ALICE, name="Alice", npc=False, controller_id=2, dice=(5,)), "/initiative join"
    )
    await core.act(channel, NextTurn(by=GM), "/initiative next")


async def test_undo_restores_the_exact_state_generator_included(repo):
    core = Core(repo)
    await started(core)
    before = (await core.current(CHANNEL))[1]
    first = await core.act(CHANNEL, toy.Hit(by=GM, target="Alice", damage="3d6"), "/attack")
    await core.act(CHANNEL, NextTurn(by=GM), "/initiative next")
    undone = await core.undo(CHANNEL, GM, 2)
    assert undone.state == before
    assert (await core.current(CHANNEL))[1].model_dump() == before.model_dump()
    # Same generator state → the same attack rolls the same dice again.
    again = await core.act(CHANNEL, toy.Hit(by=GM, target="Alice", damage="3d6"), "/attack")
    assert again.state == first.state
    events = await repo.events(undone.encounter_id)
    assert [e.undone for e in events][-4:] == [True, True, False, False]


async def test_undo_is_for_the_gm_and_needs_something_to_undo(repo):
    core = Core(repo)
    await core.start(9, CHANNEL, GM, system="toy-initiative", seed=1)
    with pytest.raises(NotAllowed):
        await core.undo(CHANNEL, ALICE, 1)
    with pytest.raises(InvalidInput):
        await core.undo(CHANNEL, GM, 1)


async def test_a_refused_action_changes_nothing(repo):
    core = Core(repo)
    await started(core)
    record, state = await core.current(CHANNEL)
    with pytest.raises(NotAllowed):
        await core.act(CHANNEL, toy.Hit(by=ALICE, actor="Orc", target="Alice"), "/attack")
    after, state_after = await core.current(CHANNEL)
    assert (after.version, state_after) == (record.version, state)
    assert len(await repo.events(record.id)) == 3


async def test_100_concurrent_commands_leave_100_events_and_a_consistent_state(repo):
    core = Core(repo)
    await core.start(9, CHANNEL, GM, system="toy-initiative", seed=1)
    await asyncio.gather(
        *(
            core.act(CHANNEL, AddCombatants(by=GM, name=f"Goblin {i}", dice=(i % 20 + 1,)), "/initiative add")
            for i in range(100)
        )
    )
    record, state = await core.current(CHANNEL)
    events = await repo.events(record.id)
    assert len(events) == 100 and [e.seq for e in events] == list(range(1, 101))
    assert len(state.combatants) == 100 and len(state.turns.entries) == 100
    assert len({c.id for c in state.combatants}) == 100


async def test_two_engine_instances_on_one_database_never_lose_an_update(database_url):
    engines = [create_engine(database_url) for _ in range(2)]
    try:
        await upgrade_schema(engines[0])
        cores = [Core(Repository(e)) for e in engines]
        await cores[0].start(9, CHANNEL, GM, system="toy-initiative", seed=1)
        jobs = [
            cores[i % 2].act(CHANNEL, AddCombatants(by=GM, name=f"Imp {i}", dice=(7,)), "/initiative add")
            for i in range(60)
        ]
        await asyncio.gather(*jobs)
        record, state = await cores[1].current(CHANNEL)
        assert len(state.combatants) == 60
        assert len(await cores[0].repo.events(record.id)) == 60
    finally:
        for engine in engines:
            await engine.dispose()


async def test_an_unanswered_choice_takes_its_default_after_the_timeout(repo):
    core = Core(repo)
    await started(core, system="toy-ask")
    result = await core.act(CHANNEL, toy.Hit(by=GM, target="Alice"), "/attack")
    assert result.announce == f"{result.version}:choice"  # its question is to post, and nothing else
    record, _ = await core.current(CHANNEL)
    assert record.pending_deadline is not None
    assert await core.due() == []
    core.now = lambda: record.pending_deadline + timedelta(seconds=1)
    due = await core.due()
    assert [r.id for r in due] == [record.id]
    answered = await core.answer_default(due[0])
    assert answered.state.pending is None and answered.state.find("Alice").out
    record, _ = await core.current(CHANNEL)
    assert record.pending_deadline is None


async def test_turn_change_schedules_a_reminder_at_most_three_times(repo):
    core = Core(repo)
    await started(core)
    record, _ = await core.current(CHANNEL)
    assert record.reminder_due is not None and record.reminders_sent == 0
    for sent in range(1, 4):
        core.now = lambda r=record: r.reminder_due + timedelta(seconds=1)
        (due,) = await core.due()
        await core.reminder_sent(due)
        record, _ = await core.current(CHANNEL)
        assert record.reminders_sent == sent
    assert record.reminder_due is None


async def test_the_log_is_markdown_with_every_event(repo):
    core = Core(repo)
    await started(core)
    await core.act(CHANNEL, toy.Hit(by=GM, target="Alice", damage="1"), "/attack")
    await core.undo(CHANNEL, GM, 1)
    name, text, for_gm = await core.log_markdown(CHANNEL)
    assert name.endswith(".md") and text.startswith("# Toy toy-initiative encounter")
    assert "~~/attack~~" in text and "/encounter undo" in text and text.count("\n| ") == 6
    assert for_gm is None  # nothing was hidden


async def test_the_log_reads_no_saved_states(repo):
    # Each event keeps the whole encounter before it (for undo): a long fight's log has no need to read them all.
    core = Core(repo)
    await started(core)
    await core.act(CHANNEL, toy.Hit(by=GM, target="Alice", damage="1"), "/attack")
    events = repo.events

    async def without_states(encounter_id, **kwargs):
        found = await events(encounter_id, **kwargs)
        assert all(e.state_before == {} for e in found), "the log read the saved states"
        return found

    repo.events = without_states
    assert await core.log_users(CHANNEL) == [GM.user_id, ALICE.user_id]
    _, text, _ = await core.log_markdown(CHANNEL)
    assert "/attack" in text and text.count("\n| ") == 5


async def test_the_logs_header_counts_one_combatant_in_the_singular(repo):
    core = Core(repo)
    await core.start(9, CHANNEL, GM, system="toy-initiative", seed=1)
    await core.act(CHANNEL, AddCombatants(by=GM, name="Orc", dice=(15,)), "/initiative add")
    _, text, _ = await core.log_markdown(CHANNEL)
    assert "· 1 combatant\n" in text
    await started(core, channel=CHANNEL + 1)
    _, text, _ = await core.log_markdown(CHANNEL + 1)
    assert "· 2 combatants\n" in text


def entered(command: str, dice: str):
    """A command with dice entered, logged as `bot.render.command_line` logs it."""
    return seq(f"{command} dice:", secret(mark(dice), False))


def entered_in(log: str) -> list[str]:
    """The dice in each logged command of a log's table."""
    commands = [line.split(" | ")[3] for line in log.splitlines() if line.startswith("| ")]
    return [command.split("dice:")[1].strip("~") for command in commands if "dice:" in command]


async def test_values_entered_for_a_hidden_combatant_are_logged_hidden_from_players(repo):
    core = Core(repo)
    await core.start(9, CHANNEL, GM, system="toy-initiative", seed=1)
    shade = AddCombatants(by=GM, name="Shade", hidden=True, dice=(20,))
    await core.act(CHANNEL, shade, entered("/initiative add", "20"))
    alice = AddCombatants(by=ALICE, name="Alice", npc=False, controller_id=2, dice=(5,))
    await core.act(CHANNEL, alice, entered("/initiative join", "5"))
    await core.act(CHANNEL, NextTurn(by=GM), "/initiative next")
    await core.act(CHANNEL, toy.Hit(by=GM, target="Alice", dice=(4,)), entered("/attack", "4"))  # the Shade's turn
    await core.act(CHANNEL, NextTurn(by=GM), "/initiative next")
    await core.act(CHANNEL, toy.Hit(by=ALICE, target="Shade", dice=(3,)), entered("/attack", "3"))
    undone = await core.undo(CHANNEL, GM, 3)
    _, public, for_gm = await core.log_markdown(CHANNEL)
    assert for_gm is not None
    assert entered_in(public) == ["?", "5", "?", "?"]
    assert entered_in(for_gm) == ["20", "5", "4", "3"]
    assert conceal(undone.summary) == "Undid 3 actions: /attack dice:?; /initiative next; /attack dice:?"
    assert reveal(undone.summary) == "Undid 3 actions: /attack dice:4; /initiative next; /attack dice:3"


def test_a_gm_command_for_a_hidden_enemy_whose_turn_a_player_interrupts_is_logged_hidden():
    # Whom a command without actor: is for, the log reads as the rules do: the paused hidden Wolf, not Bjorn.
    s = hero(hero(new(), "Astrid", 5), "Bjorn", 3)
    s = begin(act(s, AddCombatants(by=GM, name="Wolf", hidden=True, sheet={"initiative": 4})), 2, 1, 1)
    s = act(end_turn(s), Interrupt(by=BJORN, dice=(6, 1)))  # in the Wolf's turn
    assert _hidden_took_part(s, Attack(by=GM, target="Astrid"), Outcome(s, (), ""))
    assert not _hidden_took_part(s, Attack(by=BJORN, target="Astrid", dice=(1,) * 5), Outcome(s, (), ""))


async def test_the_state_kept_between_commands_is_the_one_stored_and_each_event_keeps_the_one_before(repo):
    core = Core(repo)
    await started(core)
    saved = []
    for _ in range(3):
        result = await core.act(CHANNEL, toy.Hit(by=GM, target="Alice", damage="1d6"), "/attack")
        record = await repo.get_encounter(result.encounter_id)
        assert isinstance(record.state, dict) and record.state == result.state.model_dump(mode="json")
        saved.append(record.state)
        await core.act(CHANNEL, NextTurn(by=GM), "/initiative next")
    events = await repo.events(result.encounter_id)
    attacks = [e for e in events if "attack" in str(e.command)]
    # Each attack's before-state is what the previous command saved (data, not text in text).
    nexts = [e for e in events if "next" in str(e.command)][1:]
    assert [e.state_before for e in nexts] == saved
    assert all(isinstance(e.state_before, dict) for e in attacks)


class CountedLoads:
    """Counts how often a core parses a stored state."""

    def __init__(self, core: Core, monkeypatch) -> None:
        self.count = 0
        load = core._load

        def counted(record):
            self.count += 1
            return load(record)

        monkeypatch.setattr(core, "_load", counted)


async def test_the_tracker_shows_the_state_a_command_saved_without_parsing_it_again(repo, monkeypatch):
    core = Core(repo)
    await started(core)
    result = await core.act(CHANNEL, toy.Hit(by=GM, target="Alice", damage="1d6"), "/attack")
    core._latest.keep(CHANNEL, core._latest.record(CHANNEL))  # the parsed copy pushed out by other channels
    loads = CountedLoads(core, monkeypatch)
    record, state = await core.newest(CHANNEL, result.encounter_id, result.version, result.state)
    assert state is result.state and record.version == result.version and loads.count == 0
    # Another process's core reads the record, and still needs no parse for the version it was handed.
    other = Core(repo)
    other_loads = CountedLoads(other, monkeypatch)
    record, state = await other.newest(CHANNEL, result.encounter_id, result.version, result.state)
    assert state is result.state and other_loads.count == 0


async def test_a_state_saved_later_is_shown_rather_than_the_one_handed_over(repo):
    core = Core(repo)
    await started(core)
    first = await core.act(CHANNEL, toy.Hit(by=GM, target="Alice", damage="1d6"), "/attack")
    later = await core.act(CHANNEL, NextTurn(by=GM), "/initiative next")
    record, state = await core.newest(CHANNEL, first.encounter_id, first.version, first.state)
    assert record.version == later.version and state == later.state
    record, state = await Core(repo).newest(CHANNEL, first.encounter_id, first.version, first.state)
    assert record.version == later.version and state == later.state
