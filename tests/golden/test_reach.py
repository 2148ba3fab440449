"""Every word the rules hand to the bot is within the rendering seam's reach, so a
translation (`bot.translation`) can put it into another language: each golden fight
and campaign runs with every result line, refusal, question, choice, tracker line,
status and between-fights line recorded, and none may hold a word outside a said
phrase (`rules.said`), typed text or a secret number, nor a phrase whose template is not
a msgid of the committed catalog template (`bot/locale/turnkeeper.pot`). Dice notation (`2d6`) is not a word, and
a code span holds what a user types (a quoted name, an option's value), never words to translate.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot import catalog
from bot.sandbox import sandbox
from rules import model, registry, said, usertext
from rules.errors import RulesError
from rules.secrets import conceal

HERE = Path(__file__).parent
SCRIPTS = sorted([*HERE.glob("*.script"), *HERE.glob("*.campaign")])
_DICE = re.compile(r"\b\d*d\d+\b|\bd%")
_CODE = re.compile(r"`[^`]*`")
_WORD = re.compile(r"[A-Za-z]{2,}")


def unreached(text: str) -> list[str]:
    """The words of `text` no translation reaches."""
    bare = said.render(text, lambda asked: "".join(f"{{{n}}}" for _, n, _, _ in said.fields(english_of(asked)) if n))
    bare = usertext.spans(bare, lambda typed: "", lambda rest: rest)
    return _WORD.findall(_DICE.sub("", _CODE.sub("", conceal(bare))))


def english_of(asked: str | said.Plural) -> str:
    return asked.plural if isinstance(asked, said.Plural) else asked


def committed_template() -> tuple[set[str], set[tuple[str, str]]]:
    """The msgids of the committed catalog template: single templates, and (singular, plural) pairs."""
    with catalog.TEMPLATE.open("rb") as file:
        messages = [message.id for message in read_po(file) if message.id]
    return {m for m in messages if isinstance(m, str)}, {tuple(m) for m in messages if isinstance(m, tuple)}


def outside_the_template(texts) -> list[str]:
    """The templates said in `texts` that the committed catalog template does not hold."""
    single, plural = committed_template()
    found = {asked for text in texts for asked in said.templates(text)}
    return sorted(
        repr(asked)
        for asked in found
        if (asked[:2] not in plural if isinstance(asked, said.Plural) else asked not in single)
    )


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
            for option in state.pending.options:
                self.add("choice", option)
        for combatant in state.combatants:
            for reveal in (False, True):
                self.add("status", system.status_line(state, combatant, reveal=reveal))
            for line in system.turn_summary(state, combatant.id):
                self.add("turn summary", line)
        for line in system.turns.lines(system, state):
            self.add("tracker label", line.label)
            self.add("tracker note", line.note)

    def leaks(self) -> list[str]:
        found = ((text, where, unreached(text)) for text, where in self.texts.items())
        return [f"{where}: {said.english(text)!r} → {words}" for text, where, words in found if words]


@pytest.fixture
def recorder(monkeypatch) -> Recorder:
    record = Recorder()
    # Mark every typed text, not only text that could read as markup, so a name is told from the rules' words.
    monkeypatch.setattr(usertext, "could_be_markup", lambda text: True)

    made = model.Outcome.__init__

    def outcome(self, state, events, summary):
        made(self, state, events, summary)
        for event in events:
            record.add(f"{event.kind} line", event.said)
        record.state(state)

    monkeypatch.setattr(model.Outcome, "__init__", outcome)
    raised = RulesError.__init__

    def refusal(self, *args):
        raised(self, *args)
        record.add("refusal", self.said)

    monkeypatch.setattr(RulesError, "__init__", refusal)
    for key in registry.MODULES:
        system = registry.get(key)
        lasting = system.lasting_lines

        def lines(sheet, kept, lasting=lasting):
            shown = lasting(sheet, kept)
            for line in shown:
                record.add("lasting line", line)
            return shown

        monkeypatch.setattr(system, "lasting_lines", lines)
    return record


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
async def test_the_rules_say_nothing_a_translation_cannot_reach(script: Path, recorder: Recorder):
    system = script.name.split(".")[0]
    await sandbox(script.read_text(encoding="utf-8"), system=system, seed=1, out=io.StringIO())
    assert recorder.texts, "nothing was recorded"
    leaks = recorder.leaks()
    assert not leaks, f"{len(leaks)} texts hold words no translation reaches:\n" + "\n".join(leaks[:60])
    # A template `pybabel extract` cannot find (said from a variable, never marked) could never be translated.
    missing = outside_the_template(recorder.texts)
    assert not missing, f"{len(missing)} templates are not in bot/locale/turnkeeper.pot:\n" + "\n".join(missing)


def test_the_check_finds_a_word_outside_a_phrase(recorder):
    name = usertext.user_text("Goblin")
    assert unreached(f"{name} attacks") == ["attacks"]
    assert unreached(said.say("{who} attacks", who=name)) == []
    assert unreached(said.say("{who}: {why}", who=name, why="no reactions left")) == ["no", "reactions", "left"]
    assert unreached(said.say("{who}: {why}", who=name, why=said.say("no reactions left"))) == []
    assert unreached(said.say("rolls {dice}", dice="2d6 (3, 4)")) == []
    assert unreached(said.say("No weapon {name}.", name=usertext.quoted("big axe"))) == []
