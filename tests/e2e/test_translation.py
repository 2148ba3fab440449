"""Ready for other languages, none shipped: with a `.po` catalog that translates every msgid of
the committed template (`bot/locale/turnkeeper.pot`), every command text Discord offers and every
line a fight shows in a server of that language come out translated, while a server speaking
English reads English. A text the template lacks stays English, and fails these tests."""

from __future__ import annotations

import re

import pytest

from bot import translation
from bot.standin import default_world
from bot.standin.harness import running_standin
from bot.standin.records import iter_components
from rules import registry, said
from tests.catalogs import pseudo_language
from tests.e2e.conftest import say, turnkeeper


@pytest.fixture
def french(monkeypatch, tmp_path):
    """French as a pseudo-language: each template of the catalog template in «guillemets»."""
    monkeypatch.setattr(translation, "CATALOG", pseudo_language(tmp_path, "fr"))


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


NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3 damage_type=kinetic"
BOLT = "dex=3 avoidance=15 fortitude=6 stamina=12 wounds=1 attack=5 damage=1d8+2"
BRUTE = "avoidance=15 fortitude=4 stamina=20 wounds=3 dr='energy:5' attack=4 damage=2d6"
# What a reader of any language sees as typed or as a name: the names typed in the fight, the users',
# the system's and the bot's names, the options' own words (attack=5, dr='energy:5'); a sheet's
# values (`damage_type` = kinetic) are data.
TYPED = ("Nova", "Bolt", "Brute", "Rotted Capes", "Turnkeeper", "rotted-capes", "gm", "alice", "bob", NOVA, BOLT, BRUTE)
_TRANSLATED = re.compile(r"«[^«»]*»")
_NOT_WORDS = re.compile(r"`\w+` = [^\n]*|</?[@#&!:]?[^>\s]*>|/[a-z][\w-]*(?: [a-z][\w-]*)?|`[^`]*`|\w+[:=]\S+")


def seen(message) -> list[str]:
    """Every text a reader saw in a message, as sent and as edited: its content, its embeds' texts,
    its buttons' labels and its menus' placeholders and options, and the logs it attached."""
    texts = []
    for shown in message.edit_history:
        texts.append(shown.content)
        for embed in shown.embeds:
            texts += [embed.get("title", ""), embed.get("description", ""), (embed.get("footer") or {}).get("text", "")]
            texts += [part for field in embed.get("fields") or [] for part in (field["name"], field["value"])]
        for component in iter_components(shown.components):
            texts += [component.get("label") or "", component.get("placeholder") or ""]
            texts += [option.get("label") or "" for option in component.get("options") or []]
        texts += [file.data.decode() for file in shown.attachments if file.filename.endswith(".md")]
    return [text for text in texts if text]


def english_left(text: str) -> list[str]:
    """Words outside «…» once typed names, commands, mentions, code, numbers and emoji are gone."""
    while (shorter := _TRANSLATED.sub(" ", text)) != text:  # a translation may hold translated phrases
        text = shorter
    text = _NOT_WORDS.sub(" ", text)
    for typed in sorted(TYPED, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(typed)}(?!\w)", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


async def test_every_text_a_fight_shows_reads_in_the_servers_language(french, database_url):
    world = default_world()
    world.default_guild.locale = "fr"
    async with running_standin(world) as standin:
        async with turnkeeper(standin, database_url):
            await say(standin, "gm", "/campaign setup", system="rotted-capes")
            await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
            await say(standin, "bob", "/character add", name="Bolt", stats=BOLT)
            await say(standin, "alice", "/character list")
            await say(standin, "alice", "/character show", name="Nova")
            await say(standin, "gm", "/encounter start")
            await say(standin, "alice", "/initiative join", character="Nova", roll=14)
            await say(standin, "bob", "/initiative join", character="Bolt", roll=10)
            await say(standin, "gm", "/initiative add", name="Brute", stats=BRUTE, roll=10)
            await say(standin, "gm", "/initiative next")
            await say(standin, "alice", "/attack", target="Brute", damage_type="fire", dice="14 5 6")
            await say(standin, "alice", "/condition add", target="Bolt", condition="Prone")
            await say(standin, "bob", "/initiative next")  # not his turn: refused
            for player, name in (("alice", "Nova"), ("bob", "Bolt")):
                turn = await standin.wait_for(lambda name=name: newest_with_buttons(standin, "tk:end:", name))
                await (await standin.click(player, custom_id=turn.buttons()[0]["custom_id"], message=turn)).response()
            await say(standin, "gm", "/attack", target="Nova", dice="18 3 4 4")
            offer = await standin.wait_for(lambda: newest_with_buttons(standin, "tk:choose:"))
            await (await standin.click("alice", custom_id=offer.buttons()[0]["custom_id"], message=offer)).response()
            await say(standin, "gm", "/encounter status")
            await say(standin, "gm", "/encounter log")
            await say(standin, "alice", "/help")
            asked = await say(standin, "gm", "/encounter end")
            await (await standin.click("gm", custom_id=asked.buttons()[0]["custom_id"], message=asked)).response()
            await say(standin, "gm", "/campaign rest", kind="end_scene")
            await say(standin, "gm", "/campaign log")
            shown = [(m.id, text) for m in standin.messages(include_ephemeral=True) for text in seen(m)]
    assert len(shown) > 30
    # The help menu's section titles are the rules' own (cut out of the system's help text).
    rules_help = said.english(registry.get("rotted-capes").help_text())
    titles = {text for _, text in shown if f"**{text}**" in rules_help}
    left = {text: words for _, text in shown if (words := english_left(text)) and text not in titles}
    assert not left, "English outside a translation:\n" + "\n".join(f"{w}: {t!r}" for t, w in left.items())


def newest_with_buttons(standin, custom_id: str, about: str = ""):
    """The newest message with a live button whose id starts with `custom_id` (and that names `about`)."""
    return next(
        (
            m
            for m in reversed(standin.messages(include_ephemeral=True))
            if about in m.content
            and any(b.get("custom_id", "").startswith(custom_id) and not b.get("disabled") for b in m.buttons())
        ),
        None,
    )


async def test_a_question_is_offered_in_the_servers_language_and_answered_by_its_key(french, database_url):
    world = default_world()
    world.default_guild.locale = "fr"
    async with running_standin(world) as standin:
        async with turnkeeper(standin, database_url):
            await say(standin, "gm", "/campaign setup", system="rotted-capes")
            await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
            await say(standin, "gm", "/encounter start")
            await say(standin, "alice", "/initiative join", character="Nova", roll=14)
            await say(standin, "gm", "/initiative add", name="Brute", stats=BRUTE, roll=10)
            await say(standin, "gm", "/initiative next")
            turn = await standin.wait_for(lambda: newest_with_buttons(standin, "tk:end:", "Nova"))
            await (await standin.click("alice", custom_id=turn.buttons()[0]["custom_id"], message=turn)).response()
            await say(standin, "gm", "/attack", target="Nova", dice="18 3 4 4")
            offer = await standin.wait_for(lambda: newest_with_buttons(standin, "tk:choose:"))
            labels = [b["label"] for b in offer.buttons()]  # the answer takes the buttons off
            offered = await (await standin.autocomplete("alice", "/choose", "option", option="")).choices()
            answer = await say(standin, "alice", "/choose", option=offered[0]["value"])
    assert labels == ["«Spend a Plot Point: disadvantage»", "«No»"]
    assert [(c["name"], c["value"]) for c in offered] == list(zip(labels, ("plot", "no"), strict=True))
    assert answer.content.startswith("«Chosen: «Spend a Plot Point: disadvantage».»\n🎭 «Nova spends a Plot Point")


async def test_the_suggestions_offered_read_in_the_servers_language_and_find_what_was_typed_in_it(french, database_url):
    """Autocomplete shows a sheet key's meaning, `/act`'s actions and the rests as translated, and finds
    them by the words shown (a French table types French), while the value stays the key."""
    world = default_world()
    world.default_guild.locale = "fr"
    async with running_standin(world) as standin:
        async with turnkeeper(standin, database_url):
            await say(standin, "gm", "/campaign setup", system="99-towers")
            stats = await (
                await standin.autocomplete("alice", "/character add", "stats", name="Tony", stats="")
            ).choices()
            rests = await (await standin.autocomplete("gm", "/campaign rest", "kind", kind="«")).choices()
            await say(standin, "gm", "/encounter start")
            acts = await (await standin.autocomplete("gm", "/act", "action", action="«dual")).choices()
    meaning = "«Initiative ⟨N⟩: cards flipped for initiative, then added»"
    assert (stats[0]["name"], stats[0]["value"]) == (f"«init= {meaning} (0–30)»", "init=")
    assert rests and all(c["name"].startswith("«") for c in rests), rests
    assert [(c["name"], c["value"]) for c in acts] == [("««Dual-Wield Stance» (free)»", "stance")]
