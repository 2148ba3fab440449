"""Every word the rules hand to the bot is within the rendering seam's reach, so a
translation (`bot.translation`) can put it into another language: each golden fight
and campaign runs with every result line, refusal, question, choice, tracker line,
status and between-fights line recorded, and none may hold a word outside a said
phrase (`rules.said`), typed text or a secret number, nor a phrase whose template is not
a msgid of the committed catalog template (`bot/locale/turnkeeper.pot`). Dice notation (`2d6`) is not a word, and
a code span holds what a user types (a quoted name, an option's value), never words to translate.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot import catalog
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
    # A template `pybabel extract` cannot find (said from a variable, never marked) could never be translated.
    missing = outside_the_template(texts)
    assert not missing, f"{len(missing)} templates are not in bot/locale/turnkeeper.pot:\n" + "\n".join(missing)


def test_the_check_finds_a_word_outside_a_phrase(marked):
    name = usertext.user_text("Goblin")
    assert unreached(f"{name} attacks") == ["attacks"]
    assert unreached(said.say("{who} attacks", who=name)) == []
    assert unreached(said.say("{who}: {why}", who=name, why="no reactions left")) == ["no", "reactions", "left"]
    assert unreached(said.say("{who}: {why}", who=name, why=said.say("no reactions left"))) == []
    assert unreached(said.say("rolls {dice}", dice="2d6 (3, 4)")) == []
    assert unreached(said.say("No weapon {name}.", name=usertext.quoted("big axe"))) == []
