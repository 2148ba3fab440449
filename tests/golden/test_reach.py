"""Every word the rules hand to the bot is within the rendering seam's reach, so a
translation (`bot.translation`) can put it into another language: each golden fight
and campaign runs with every result line, refusal, question, choice, tracker line,
status and between-fights line recorded, and none may hold a word outside a said
phrase (`rules.said`), typed text or a secret number. Dice notation (`2d6`) is not a word, and
a code span holds what a user types (a quoted name, an option's value), never words to translate.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import said, usertext
from rules.secrets import conceal

from .runs import Runs, marking_everything

HERE = Path(__file__).parent
SCRIPTS = sorted([*HERE.glob("*.script"), *HERE.glob("*.campaign")])
_DICE = re.compile(r"\b\d*d\d+\b|\bd%")
_CODE = re.compile(r"`[^`]*`")
_WORD = re.compile(r"[A-Za-z]{2,}")


def unreached(text: str) -> list[str]:
    """The words of `text` no translation reaches."""
    bare = said.render(text, lambda template: "".join(f"{{{n}}}" for _, n, _, _ in said.fields(template) if n))
    bare = usertext.spans(bare, lambda typed: "", lambda rest: rest)
    return _WORD.findall(_DICE.sub("", _CODE.sub("", conceal(bare))))


def leaks(texts: dict[str, str]) -> list[str]:
    found = ((text, where, unreached(text)) for text, where in texts.items())
    return [f"{where}: {said.english(text)!r} → {words}" for text, where, words in found if words]


@pytest.fixture
def marked(monkeypatch) -> None:
    marking_everything(monkeypatch)


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
async def test_the_rules_say_nothing_a_translation_cannot_reach(script: Path, golden_runs: Runs):
    texts = (await golden_runs.of(script)).texts
    assert texts, "nothing was recorded"
    found = leaks(texts)
    assert not found, f"{len(found)} texts hold words no translation reaches:\n" + "\n".join(found[:60])


def test_the_check_finds_a_word_outside_a_phrase(marked):
    name = usertext.user_text("Goblin")
    assert unreached(f"{name} attacks") == ["attacks"]
    assert unreached(said.say("{who} attacks", who=name)) == []
    assert unreached(said.say("{who}: {why}", who=name, why="no reactions left")) == ["no", "reactions", "left"]
    assert unreached(said.say("{who}: {why}", who=name, why=said.say("no reactions left"))) == []
    assert unreached(said.say("rolls {dice}", dice="2d6 (3, 4)")) == []
    assert unreached(said.say("No weapon {name}.", name=usertext.quoted("big axe"))) == []
