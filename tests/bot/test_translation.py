"""The rendering seam reads what the rules said in the readers' language: a catalog with a
language translates the phrases of result lines, refusals and constants, and the command
tree's Translator reads command texts from the same catalog. Nothing ships translated: the
languages here are `.po` files the tests write, read as the bot reads its own."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot import render, translation
from rules.errors import NotAllowed
from rules.model import Event
from rules.said import say, say_plural
from rules.secrets import secret
from rules.text import Plural, plain_text
from rules.usertext import user_text
from tests.catalogs import write_language

PIRATE = {
    "{who} attacks {target} for {n}": "{who} boards {target}, {n} hurt!",
    "Only the GM may do that.": "Only the cap'n may do that.",
    "Dodge": "Duck",
    "Roll initiative": "Who swings first",
}


@pytest.fixture
def pirate(monkeypatch, tmp_path):
    write_language(tmp_path, "en-GB", PIRATE)
    monkeypatch.setattr(translation, "CATALOG", translation.Catalog.read(tmp_path))
    token = translation.LOCALE.set("en-GB")
    yield
    translation.LOCALE.reset(token)


def test_nothing_is_translated_yet():
    assert translation.CATALOG.languages == {}
    line = say("{who} attacks {target} for {n}", who="Ogre", target="Max", n=3)
    assert render.clean(line) == "Ogre attacks Max for 3"


def test_a_result_line_is_read_in_the_readers_language(pirate):
    event = Event(kind="roll", text=say("{who} attacks {target} for {n}", who=user_text("**Ogre**"), target="Max", n=3))
    assert event.text == "**Ogre** attacks Max for 3"  # the rules and their tests read English
    assert render.event_lines([event]) == "🎲 \\*\\*Ogre\\*\\* boards Max, 3 hurt!"


def test_a_hidden_number_is_concealed_after_the_translation(pirate):
    line = say("{who} attacks {target} for {n}", who="Ogre", target="Max", n=secret(12, True))
    assert render.clean(line) == "Ogre boards Max, ? hurt!"
    assert render.clean(line, gm=True) == "Ogre boards Max, 12 hurt!"


def test_refusals_and_constants_are_read_in_the_readers_language(pirate):
    error = NotAllowed(say("Only the GM may do that."))
    assert str(error) == "Only the GM may do that."
    assert render.clean(error.said) == "Only the cap'n may do that."
    assert render.label("Dodge") == "Duck"  # a choice the rules named with a constant


async def test_the_command_tree_reads_command_texts_from_the_catalog(pirate):
    translator = translation.Translator(translation.CATALOG)
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_description, None)
    text = app_commands.locale_str("Roll initiative")
    assert await translator.translate(text, discord.Locale.british_english, context) == "Who swings first"
    assert await translator.translate(text, discord.Locale.french, context) is None


async def test_a_command_text_discord_would_refuse_is_read_in_english(tmp_path):
    long = "«" + "d" * 99 + "»"
    write_language(
        tmp_path,
        "fr",
        {
            "attack": "attaque",
            "character": "Personnage",
            "save": "jet de sauvegarde",
            "Dodge": long,
            "Done.": "d" * 100,
        },
    )
    translator = translation.Translator(translation.Catalog.read(tmp_path))

    async def french(text: str, where: app_commands.TranslationContextLocation) -> str | None:
        context = app_commands.TranslationContext(where, None)
        return await translator.translate(app_commands.locale_str(text), discord.Locale.french, context)

    where = app_commands.TranslationContextLocation
    assert await french("attack", where.command_name) == "attaque"
    assert await french("character", where.parameter_name) is None  # upper case
    assert await french("save", where.group_name) is None  # spaces
    assert await french("save", where.other) == "jet de sauvegarde"  # prose takes any text
    assert await french("Dodge", where.choice_name) is None  # 101 characters
    assert await french("Dodge", where.command_description) is None
    assert await french("Done.", where.parameter_description) == "d" * 100


def test_a_count_is_read_in_the_form_of_the_languages_plural_rule(tmp_path):
    wounds = ("{who} takes {n} wound", "{who} takes {n} wounds")
    write_language(tmp_path, "pl", {wounds: ("{who}: {n} rana", "{who}: {n} rany", "{who}: {n} ran")})
    read = translation.Catalog.read(tmp_path).phrases("pl")
    lines = [say_plural(*wounds, n, who="Max", n=n) for n in (1, 3, 5, 22, 112)]
    assert [plain_text(line, read) for line in lines] == [
        "Max: 1 rana",
        "Max: 3 rany",
        "Max: 5 ran",
        "Max: 22 rany",
        "Max: 112 ran",
    ]


def test_a_server_locale_reads_the_catalog_of_its_language(tmp_path):
    write_language(tmp_path, "es", {"Dodge": "Esquivar"})
    catalog = translation.Catalog.read(tmp_path)
    assert catalog.phrases("es-ES")("Dodge") == "Esquivar"
    assert catalog.phrases("fr") is None


def test_a_translation_naming_a_value_its_english_does_not_have_is_left_out(tmp_path):
    write_language(tmp_path, "fr", {"{who} attacks": "{qui} attaque", "Dodge": "Esquive {", "Done.": "Fait."})
    read = translation.Catalog.read(tmp_path).phrases("fr")
    assert (read("{who} attacks"), read("Dodge"), read("Done.")) == (None, None, "Fait.")


def test_a_count_kept_secret_is_read_in_the_languages_last_form(tmp_path):
    wounds = ("{n} wound", "{n} wounds")
    write_language(tmp_path, "pl", {wounds: ("{n} rana", "{n} rany", "{n} ran")})
    read = translation.Catalog.read(tmp_path).phrases("pl")
    assert read(Plural(*wounds, None)) == "{n} ran"
