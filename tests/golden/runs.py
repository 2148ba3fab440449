"""Each golden script (`*.script`, `*.campaign`) run through the sandbox once per session,
with everything the rules said recorded on the way: the transcript tests (`test_golden`,
`test_golden_campaign`) compare its transcript, `test_reach` checks what was said.

Recording only watches: it calls through to what it wraps and changes nothing."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.sandbox import sandbox
from bot.standin.server import StandIn
from rules import model, registry
from rules.errors import RulesError
from rules.text import Text

SEED = 1


class Recorder:
    def __init__(self) -> None:
        self.texts: dict[Text | str, str] = {}  # what was said → where it came from
        self.states = 0
        self.changed_by_storage: list[str] = []  # states that read back from their JSON as another state

    def add(self, where: str, text) -> None:
        if isinstance(text, (Text, str)) and text:
            self.texts.setdefault(text, where)

    def state(self, state) -> None:
        if state is None:
            return
        system = registry.get(state.system)
        self.states += 1
        if system.load(state.model_dump_json()) != state:
            self.changed_by_storage.append(f"round {state.round}, turn {state.turn_no}")
        if state.pending is not None:
            self.add("question", state.pending.prompt)
            for option in state.pending.labels:
                self.add("choice", option)
        for combatant in state.combatants:
            for reveal in (False, True):
                self.add("status", system.status_line(state, combatant, reveal=reveal))
            for line in system.turn_summary(state, combatant.id):
                self.add("turn summary", line)
        for line in system.turns.lines(system, state):
            self.add("tracker label", line.label)
            self.add("tracker note", line.note)


@contextlib.contextmanager
def recording() -> Iterator[Recorder]:
    """Every result line, refusal, question, choice, tracker line, status and between-fights
    line the rules make inside the block goes to the recorder it gives."""
    recorder = Recorder()
    with pytest.MonkeyPatch.context() as monkeypatch:
        made = model.Outcome.__init__

        def outcome(self, state, events, summary):
            made(self, state, events, summary)
            for event in events:
                recorder.add(f"{event.kind} line", event.said)
            recorder.state(state)

        monkeypatch.setattr(model.Outcome, "__init__", outcome)
        raised = RulesError.__init__

        def refusal(self, *args):
            raised(self, *args)
            recorder.add("refusal", self.said)

        monkeypatch.setattr(RulesError, "__init__", refusal)
        for key in registry.MODULES:
            system = registry.get(key)
            lasting = system.lasting_lines

            def lines(sheet, kept, npc=False, settings=None, lasting=lasting):
                shown = lasting(sheet, kept, npc, settings)
                for line in shown:
                    recorder.add("lasting line", line)
                return shown

            monkeypatch.setattr(system, "lasting_lines", lines)
        yield recorder


@dataclass(frozen=True)
class Run:
    code: int  # the sandbox's exit code: 0 when every line of the script ran
    transcript: str
    texts: dict[Text | str, str]  # what the rules said → where it came from (Recorder.texts)
    sent: tuple[str, ...]  # the problems the stand-in found in the bot's requests (private-use code points among them)
    states: int  # the states the rules made
    changed_by_storage: tuple[str, ...]  # those that read back from their stored JSON as another state


class Runs:
    """The session's runs, each script's made the first time a test asks for it."""

    def __init__(self) -> None:
        self._runs: dict[Path, Run] = {}

    async def of(self, script: Path) -> Run:
        if script not in self._runs:
            out = io.StringIO()
            before = set(map(id, StandIn.instances))
            with recording() as recorder:
                code = await sandbox(
                    script.read_text(encoding="utf-8"), system=script.name.split(".")[0], seed=SEED, out=out
                )
            used = [s for s in list(StandIn.instances) if id(s) not in before]
            sent = tuple(str(v) for s in used for v in s.contract_violations)
            self._runs[script] = Run(
                code,
                out.getvalue(),
                dict(recorder.texts),
                sent,
                recorder.states,
                tuple(recorder.changed_by_storage),
            )
        return self._runs[script]
