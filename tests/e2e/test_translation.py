"""Ready for other languages, none shipped: with a catalog that has a word for every English
text, every command text Discord offers and every line a fight shows in a server of that
language come out translated, while a server speaking English reads English."""

from __future__ import annotations

import re

import pytest

from bot import translation
from bot.standin import default_world
from bot.standin.harness import running_standin
from tests.e2e.conftest import say, turnkeeper


class Everything(dict):
    """A language with a word for every English template: the template in «guillemets»."""

    def get(self, template, default=None):
        return f"«{template}»"


@pytest.fixture
def french(monkeypatch):
    catalog = translation.Catalog()
    catalog.languages["fr"] = Everything()
    monkeypatch.setattr(translation, "CATALOG", catalog)


def texts_of(command: dict, where: str = ""):
    """(where, English, its French) for a command's description and each option's, nested."""
    here = f"{where} {command['name']}".strip()
    yield here, command.get("description", ""), (command.get("description_localizations") or {}).get("fr")
    for option in command.get("options") or []:
        yield from texts_of(option, here)


async def test_every_command_text_discord_offers_can_be_translated(french, database_url):
    async with running_standin(default_world()) as standin:
        async with turnkeeper(standin, database_url):
            await say(standin, "gm", "/campaign setup", system="rotted-capes")  # its groups too
            guild = standin.world.default_guild.id
            found = [t for command in standin.commands.visible_in(guild) for t in texts_of(command)]
    assert len(found) > 100
    untranslated = [where for where, english, french in found if french != f"«{english}»"]
    assert not untranslated, f"command texts no translation reaches: {untranslated}"


async def test_a_fight_in_a_server_of_another_language_reads_in_that_language(french, database_url):
    world = default_world()
    world.default_guild.locale = "fr"
    async with running_standin(world) as standin:
        async with turnkeeper(standin, database_url):
            await say(standin, "gm", "/campaign setup", system="rotted-capes")
            await say(standin, "gm", "/encounter start")
            await say(standin, "gm", "/initiative add", name="Goblin", stats="avoidance=12 stamina=10", roll=9)
            await say(standin, "gm", "/initiative add", name="Orc", stats="avoidance=12 stamina=10", roll=5)
            await say(standin, "gm", "/initiative next")
            refused = await say(standin, "bob", "/initiative next")
            shown = [text_of(m) for m in standin.messages() if not m.ephemeral]
    about_goblin = [text for text in shown if "Goblin" in text]
    assert about_goblin and all("«" in text and "«Goblin»" not in text for text in about_goblin), about_goblin
    assert refused.content.startswith("⛔ «"), refused.content


def text_of(message) -> str:
    return message.content + " ".join(str(e) for e in message.embeds)


async def test_a_server_speaking_english_reads_english(french, database_url):
    async with running_standin(default_world()) as standin:
        async with turnkeeper(standin, database_url):
            started = await say(standin, "gm", "/encounter start", system="rotted-capes")
    assert not re.search("[«»]", started.content)
