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
from rules.text import Cut, Phrase, Plural, Raw, Secret, Seq, Text, Typed, walk
from rules.usertext import has_private_use

from .runs import Runs

# The golden runs are made once per session and shared (tests/golden/runs.py): one worker runs them all.
pytestmark = pytest.mark.xdist_group("golden")

HERE = Path(__file__).parent
SCRIPTS = sorted([*HERE.glob("*.script"), *HERE.glob("*.campaign")])
_DICE = re.compile(r"\b\d*d\d+\b|\bd%")
_CODE = re.compile(r"`[^`]*`")
_WORD = re.compile(r"[A-Za-z]{2,}")


def outside(text: Text | str) -> str:
    """The characters of `text` that no phrase's template holds: raw characters, typed text left out."""
    if isinstance(text, str):
        return text
    if isinstance(text, Raw):
        return text.text
    if isinstance(text, Typed):
        return ""
    if isinstance(text, Seq):
        return "".join(outside(part) for part in text.parts)
    if isinstance(text, Phrase):
        return " ".join(outside(value) for _, value in text.values)
    if isinstance(text, Secret):
        return outside(text.value)
    if isinstance(text, Cut):
        return outside(text.text)
    raise TypeError(text)


def unreached(text: Text | str) -> list[str]:
    """The words of `text` no translation reaches."""
    return _WORD.findall(_DICE.sub("", _CODE.sub("", outside(text))))


def templates(text: Text | str) -> list[str | Plural]:
    return [node.asked for node in walk(text) if isinstance(node, Phrase)] if isinstance(text, Text) else []


def committed_template() -> tuple[set[str], set[tuple[str, str]]]:
    """The msgids of the committed catalog template: single templates, and (singular, plural) pairs."""
    with catalog.TEMPLATE.open("rb") as file:
        messages = [message.id for message in read_po(file) if message.id]
    return {m for m in messages if isinstance(m, str)}, {tuple(m) for m in messages if isinstance(m, tuple)}


def outside_the_template(texts) -> list[str]:
    """The templates said in `texts` that the committed catalog template does not hold."""
    single, plural = committed_template()
    found = {asked for text in texts for asked in templates(text)}
    return sorted(
        repr(asked)
        for asked in found
        if ((asked.singular, asked.plural) not in plural if isinstance(asked, Plural) else asked not in single)
    )


def leaks(texts: dict[Text | str, str]) -> list[str]:
    found = ((text, where, unreached(text)) for text, where in texts.items())
    return [f"{where}: {said.english(text)!r} → {words}" for text, where, words in found if words]


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
async def test_the_rules_say_nothing_a_translation_cannot_reach(script: Path, golden_runs: Runs):
    texts = (await golden_runs.of(script)).texts
    assert texts, "nothing was recorded"
    found = leaks(texts)
    assert not found, f"{len(found)} texts hold words no translation reaches:\n" + "\n".join(found[:60])
    # A template `pybabel extract` cannot find (said from a variable, never marked) could never be translated.
    missing = outside_the_template(texts)
    assert not missing, f"{len(missing)} templates are not in bot/locale/turnkeeper.pot:\n" + "\n".join(missing)


def test_the_check_finds_a_word_outside_a_phrase():
    name = usertext.user_text("Goblin")
    assert unreached(said.seq(name, " attacks")) == ["attacks"]
    assert unreached(said.say("{who} attacks", who=name)) == []
    assert unreached(said.say("{who}: {why}", who=name, why="no reactions left")) == ["no", "reactions", "left"]
    assert unreached(said.say("{who}: {why}", who=name, why=said.say("no reactions left"))) == []
    assert unreached(said.say("rolls {dice}", dice="2d6 (3, 4)")) == []
    assert unreached(said.say("No weapon {name}.", name=usertext.quoted("big axe"))) == []


def private_use(text: Text | str) -> list[str]:
    """Every string inside `text` (its leaves, its templates) that holds a private-use code point."""
    if isinstance(text, str):
        return [text] if has_private_use(text) else []
    found: list[str] = []
    for node in walk(text):
        held = [node.text] if isinstance(node, (Raw, Typed)) else []
        if isinstance(node, Phrase):
            held = [node.template, *(name for name, _ in node.values)]
            if node.plural is not None:
                held += [node.plural.singular, node.plural.plural]
        found += [string for string in held if has_private_use(string)]
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
async def test_no_private_use_code_point_is_said_or_sent(script: Path, golden_runs: Runs):
    run = await golden_runs.of(script)
    said_with = {where: found for text, where in run.texts.items() if (found := private_use(text))}
    assert not said_with, f"private-use code points in what the rules said: {said_with}"
    assert all(isinstance(text, Text) for text in run.texts), "a line the rules said is not a text value"
    assert run.sent == (), "the bot's requests:\n" + "\n".join(run.sent[:20])
    assert not has_private_use(run.transcript)


def test_the_private_use_check_finds_a_code_point_in_a_leaf_or_a_template():
    assert private_use(said.say("{n} left", n="3\ue000")) == ["3\ue000"]
    assert private_use(said.say("hidden \U000f0001")) == ["hidden \U000f0001"]
    assert private_use(said.seq(usertext.user_text("A\U00100000"), " ")) == []  # typed text is scrubbed on entry
    assert private_use(said.say("{who} attacks", who=usertext.user_text("Goblin"))) == []
