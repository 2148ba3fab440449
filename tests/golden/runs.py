"""Each golden script (`*.script`, `*.campaign`) run through the sandbox once per session,
with everything the rules said recorded on the way: the transcript tests (`test_golden`,
`test_golden_campaign`) compare its transcript, `test_reach` checks what was said.

Recording only watches: it calls through to what it wraps, and the one thing it changes,
marking every typed text and not only text that could read as markup, it undoes where the
bot shows the marked spans (`usertext.spans`), so a recorded run prints what a plain one does."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.sandbox import sandbox
from rules import model, registry, usertext
from rules.errors import RulesError

SEED = 1
_SPAN = re.compile(f"{usertext.OPEN}([^{usertext.CLOSE}]*)(?:{usertext.CLOSE}|$)")


def marking_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mark every typed text, not only text that could read as markup, so a name is told from the rules' words."""
    monkeypatch.setattr(usertext, "could_be_markup", lambda text: True)


def shown_as_unmarked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whoever shows a line sees the spans of text that could not read as markup unmarked, as
    `marking_everything` had not marked them: the bot prints what it would have printed."""
    could_be_markup, spans = usertext.could_be_markup, usertext.spans

    def unmark(match: re.Match[str]) -> str:
        return match.group(0) if could_be_markup(match.group(1)) else match.group(1)

    monkeypatch.setattr(usertext, "spans", lambda text, *how: spans(_SPAN.sub(unmark, text), *how))


class Recorder:
    def __init__(self) -> None:
        self.texts: dict[str, str] = {}  # what was said → where it came from

    def add(self, where: str, text) -> None:
        if isinstance(text, str) and text:
            self.texts.setdefault(text, where)

    def state(self, state) -> None:
        if state is None:
            return
        system = registry.get(state.system)
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
        shown_as_unmarked(monkeypatch)
        marking_everything(monkeypatch)

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

            def lines(sheet, kept, lasting=lasting):
                shown = lasting(sheet, kept)
                for line in shown:
                    recorder.add("lasting line", line)
                return shown

            monkeypatch.setattr(system, "lasting_lines", lines)
        yield recorder


@dataclass(frozen=True)
class Run:
    code: int  # the sandbox's exit code: 0 when every line of the script ran
    transcript: str
    texts: dict[str, str]  # what the rules said → where it came from (Recorder.texts)


class Runs:
    """The session's runs, each script's made the first time a test asks for it."""

    def __init__(self) -> None:
        self._runs: dict[Path, Run] = {}

    async def of(self, script: Path) -> Run:
        if script not in self._runs:
            out = io.StringIO()
            with recording() as recorder:
                code = await sandbox(
                    script.read_text(encoding="utf-8"), system=script.name.split(".")[0], seed=SEED, out=out
                )
            self._runs[script] = Run(code, out.getvalue(), dict(recorder.texts))
        return self._runs[script]
