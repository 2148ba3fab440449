"""Rules Discord holds the bot's requests to, which the stand-in enforces alike: a message's components
and embeds, command registration, the answers to an interaction and its time, replies."""

from __future__ import annotations

import json

import aiohttp
import pytest

from bot.standin import StandIn
from bot.standin.command_rules import LOCALES, choice_problems, command_characters, command_set_problems
from bot.standin.components import component_problems
from bot.standin.form_errors import Problem, errors_tree
from bot.standin.messages import MessageBody
from bot.standin.records import EPHEMERAL, SUPPRESS_EMBEDS
from bot.standin.rest import MAX_PINS
from bot.standin.validation import message_problems
from bot.standin.world import MANAGE_MESSAGES, PIN_MESSAGES, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, VIEW_CHANNEL

from .probe_bot import ProbeBot
from .test_rest_routes import api, post, refusal


@pytest.fixture
async def http(standin):
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession(base_url=standin.base_url, headers=headers) as session:
        yield session


def button(custom_id: str = "b", label: str = "Go", **more) -> dict:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label, **more}


def select(custom_id: str = "s", options: int = 2, **more) -> dict:
    opts = [{"label": f"o{i}", "value": str(i)} for i in range(options)]
    return {"type": 3, "custom_id": custom_id, "options": opts, **more}


def row(*components: dict) -> dict:
    return {"type": 1, "components": list(components)}


def paths(problems: list[Problem]) -> list[str]:
    return [str(p) for p in problems]


def test_errors_are_filed_under_their_fields_as_discord_does() -> None:
    tree = errors_tree([Problem("embeds.0.title", "Too long."), Problem("content", "Too long.")])
    assert tree == {
        "embeds": {"0": {"title": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": "Too long."}]}}},
        "content": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": "Too long."}]},
    }


@pytest.mark.parametrize(
    "components, problem",
    [
        ([row(button("a"), button("a", "Again"))], "components: Component custom id cannot be duplicated"),
        ([row(button("a")), row(select("a"))], "components: Component custom id cannot be duplicated"),
        ([row(*(button(str(i)) for i in range(6)))], "components.0.components: Must be between 1 and 5"),
        ([row()], "components.0.components: Must be between 1 and 5"),
        ([row(button(str(i))) for i in range(6)], "components: Must be 5 or fewer"),
        ([row(button("x" * 101))], "components.0.components.0.custom_id: Must be between 1 and 100"),
        ([row(button("b", "L" * 81))], "components.0.components.0.label: Must be between 0 and 80"),
        ([row(button("b", ""))], "components.0.components.0: A button needs a label or an emoji."),
        ([row(button("b", style=5))], "components.0.components.0: A link button needs a url"),
        ([row(select(), button())], "components.0.components: A select menu must be alone"),
        ([row(select(options=0))], "components.0.components.0.options: Must be between 1 and 25"),
        ([row(select(options=26))], "components.0.components.0.options: Must be between 1 and 25"),
        ([row(select(max_values=3))], "components.0.components.0.max_values: Must be less than or equal to the"),
        ([row(select(min_values=2, max_values=1))], "components.0.components.0.min_values: Must be less than"),
        ([row(select(placeholder="p" * 151))], "components.0.components.0.placeholder: Must be between 0 and 150"),
        (
            [row(select(options=1) | {"options": [{"label": "L" * 101, "value": "0"}]})],
            "components.0.components.0.options.0.label: Must be between 1 and 100",
        ),
        (
            [row(select(options=1) | {"options": [{"label": "a", "value": "0", "description": "d" * 101}]})],
            "components.0.components.0.options.0.description: Must be between 0 and 100",
        ),
        (
            [row(select() | {"options": [{"label": "a", "value": "0"}, {"label": "b", "value": "0"}]})],
            "components.0.components.0.options: Select option values must be unique.",
        ),
    ],
)
def test_components_discord_would_refuse(components, problem) -> None:
    found = paths(component_problems(components))
    assert any(p.startswith(problem) for p in found), found


def test_components_discord_takes() -> None:
    link = {"type": 2, "style": 5, "label": "Docs", "url": "https://example.com"}
    components = [row(button("a"), button("b"), link), row(select("s", options=25, max_values=25, placeholder="p"))]
    assert component_problems(components) == []


def test_the_6000_characters_are_counted_over_every_embed_of_a_message() -> None:
    # Each embed is well under 6000 on its own; together they are not.
    embeds = [{"description": "d" * 4000, "footer": {"text": "f"}}, {"description": "d" * 2000}]
    (problem,) = message_problems(MessageBody({"embeds": embeds}))
    assert str(problem) == "embeds: Embed size exceeds maximum size of 6000"
    fields = [{"name": "n" * 256, "value": "v" * 1024}] * 4
    assert message_problems(MessageBody({"embeds": [{"fields": fields, "author": {"name": "a" * 256}}]})) == []
    too_many = [{"fields": fields, "author": {"name": "a" * 256}, "title": "t" * 256}] * 2
    assert paths(message_problems(MessageBody({"embeds": too_many}))) == [
        "embeds: Embed size exceeds maximum size of 6000"
    ]


LINK = "https://x.y/" + "u" * 2036  # 2048 characters, the most an embed's link may have


@pytest.mark.parametrize(
    "payload, problem",
    [
        ({"embeds": [{"title": "t", "color": 0x1000000}]}, "embeds.0.color: Must be between 0 and 16777215."),
        ({"embeds": [{"title": "t", "color": -1}]}, "embeds.0.color: Must be between 0 and 16777215."),
        ({"embeds": [{"image": {"url": LINK + "u"}}]}, "embeds.0.image.url: Must be 2048 or fewer in length."),
        ({"embeds": [{"title": "t", "url": LINK + "u"}]}, "embeds.0.url: Must be 2048 or fewer in length."),
        ({"embeds": [{"thumbnail": {"url": LINK + "u"}}]}, "embeds.0.thumbnail.url: Must be 2048 or fewer"),
        ({"embeds": [{"footer": {"text": "f", "icon_url": LINK + "u"}}]}, "embeds.0.footer.icon_url: Must be 2048"),
        ({"embeds": [{"author": {"name": "a", "url": LINK + "u"}}]}, "embeds.0.author.url: Must be 2048"),
        ({"embeds": [{"author": {"name": "a", "icon_url": LINK + "u"}}]}, "embeds.0.author.icon_url: Must be 2048"),
        (
            {"content": "hi", "attachments": [{"id": i, "filename": f"{i}.md"} for i in range(11)]},
            "attachments: Must be 10 or fewer in length.",
        ),
        ({"content": "hi", "attachments": [{"id": 0, "filename": ""}]}, "attachments.0.filename: Must be between 1"),
        (
            {"content": "hi", "attachments": [{"id": 0, "filename": "f" * 1025}]},
            "attachments.0.filename: Must be between 1 and 1024 in length.",
        ),
        (
            {"content": "hi", "attachments": [{"id": 0, "filename": "log.md", "description": "d" * 1025}]},
            "attachments.0.description: Must be 1024 or fewer in length.",
        ),
        ({"content": "hi", "nonce": "n" * 26}, "nonce: Must be 25 or fewer in length."),
        ({"content": "hi", "nonce": 2**63}, "nonce: Must be between"),
    ],
)
def test_messages_discord_would_refuse(payload, problem) -> None:
    found = paths(message_problems(MessageBody(payload)))
    assert any(p.startswith(problem) for p in found), found


def test_a_message_at_discords_limits_is_taken() -> None:
    author = {"name": "a", "url": LINK, "icon_url": LINK}
    embed = {"title": "t", "url": LINK, "color": 0xFFFFFF, "image": {"url": LINK}, "thumbnail": {"url": LINK}}
    embed |= {"footer": {"text": "f", "icon_url": LINK}, "author": author}
    attachments = [{"id": i, "filename": "f" * 1024, "description": "d" * 1024} for i in range(10)]
    assert message_problems(MessageBody({"embeds": [embed], "attachments": attachments, "nonce": "n" * 25})) == []
    assert message_problems(MessageBody({"content": "hi", "nonce": -(2**63)})) == []


def command(name: str = "roll", *options: dict, **more) -> dict:
    return {"name": name, "description": "Roll dice", "type": 1, "options": list(options), **more}


def option(name: str, type: int = 3, **more) -> dict:
    return {"name": name, "description": "An option", "type": type, **more}


@pytest.mark.parametrize(
    "commands, problem",
    [
        ([command("Roll")], "0.name: Command name is invalid"),
        ([command("roll dice")], "0.name: Command name is invalid"),
        ([command("x" * 33)], "0.name: Must be between 1 and 32"),
        ([command("roll", description="")], "0.description: Must be between 1 and 100"),
        ([command("roll", description="d" * 101)], "0.description: Must be between 1 and 100"),
        ([command("roll"), command("roll")], "Application command names must be unique"),
        ([command("roll", *(option(f"o{i}") for i in range(26)))], "0.options: Must be 25 or fewer"),
        ([command("roll", option("a"), option("a"))], "0.options: Option names must be unique"),
        ([command("roll", option("Dice"))], "0.options.0.name: Command name is invalid"),
        ([command("roll", option("dice", description=""))], "0.options.0.description: Must be between 1 and 100"),
        (
            [command("roll", option("a"), option("b", required=True))],
            "0.options.1.required: Required options must be placed before non-required options",
        ),
        (
            [command("roll", option("a", autocomplete=True, choices=[{"name": "x", "value": "x"}]))],
            "0.options.0.autocomplete: Autocomplete cannot be set with choices",
        ),
        (
            [command("roll", option("a", choices=[{"name": str(i), "value": str(i)} for i in range(26)]))],
            "0.options.0.choices: Must be 25 or fewer",
        ),
        (
            [command("roll", option("a", choices=[{"name": "x" * 101, "value": "x"}]))],
            "0.options.0.choices.0.name: Must be between 1 and 100",
        ),
        (
            [command("roll", option("a", type=4, choices=[{"name": "x", "value": "1"}]))],
            "0.options.0.choices.0.value: Not a valid value for an option of type 4",
        ),
        (
            [command("roll", option("a", type=4, choices=[{"name": "x", "value": 2**53}]))],
            "0.options.0.choices.0.value: Not a valid value for an option of type 4",
        ),
        ([command("roll", name_localizations={"fr": "Lancer"})], "0.name_localizations.fr: Command name is invalid"),
        ([command("roll", name_localizations={"de": "w" * 33})], "0.name_localizations.de: Must be between 1 and 32"),
        (
            [command("roll", description_localizations={"fr": "«" + "d" * 99 + "»"})],
            "0.description_localizations.fr: Must be between 1 and 100",
        ),
        (
            [command("roll", option("dice", description_localizations={"fr": ""}))],
            "0.options.0.description_localizations.fr: Must be between 1 and 100",
        ),
        (
            [
                command(
                    "roll", option("a", choices=[{"name": "x", "value": "x", "name_localizations": {"fr": "x" * 101}}])
                )
            ],
            "0.options.0.choices.0.name_localizations.fr: Must be between 1 and 100",
        ),
        ([command("roll", option("a", max_length=6001))], "0.options.0.max_length: Must be between 1 and 6000"),
        ([command("roll", option("a", max_length=0))], "0.options.0.max_length: Must be between 1 and 6000"),
        ([command("roll", option("a", min_length=-1))], "0.options.0.min_length: Must be between 0 and 6000"),
        (
            [command("roll", option("n", 4, min_value=-(2**53)))],
            "0.options.0.min_value: Must be between -9007199254740991 and 9007199254740991.",
        ),
        ([command("roll", option("n", 4, max_value=2**53))], "0.options.0.max_value: Must be between"),
        ([command("roll", name_localizations={"pt_BR": "rolar"})], "0.name_localizations.pt_BR: Value must be one"),
        (
            [command("roll", option("dice", description_localizations={"xx": "Dés"}))],
            "0.options.0.description_localizations.xx: Value must be one of",
        ),
        (
            [command("roll", option("a", choices=[{"name": "x", "value": "x", "name_localizations": {"en": "x"}}]))],
            "0.options.0.choices.0.name_localizations.en: Value must be one of",
        ),
        ([command("roll", option("where", 7, channel_types=[0, 0]))], "0.options.0.channel_types: Must hold each"),
        ([command("roll", contexts=[])], "0.contexts: Must be 1 or more in length."),
        ([command("roll", contexts=[0, 0])], "0.contexts: Must hold each value once."),
        ([command("roll", integration_types=[0, 0])], "0.integration_types: Must hold each value once."),
        ([command("roll", option("sub", 1), option("a"))], "0.options: Subcommands cannot be mixed"),
        (
            [command("roll", option("sub", 1, options=[option("grp", 2)]))],
            "0.options.0.options.0.type: A subcommand group sits at the top",
        ),
        (
            [
                command(
                    "gm",
                    *(option(f"s{i}", 1, options=[option(n, description="d" * 100) for n in "ab"]) for i in range(25)),
                )
            ],
            "0: Command exceeds maximum size (4000)",
        ),
    ],
)
def test_command_sets_discord_would_refuse(commands, problem) -> None:
    found = paths(command_set_problems(commands))
    assert any(p.startswith(problem) for p in found), found


def test_command_sets_discord_takes() -> None:
    sub = option("add", 1, options=[option("name", required=True), option("count", 4, min_value=1, max_value=9)])
    group = option("monster", 2, options=[sub])
    commands = [command("gm", group), command("roll", option("dice", autocomplete=True)), {"name": "Sheet", "type": 2}]
    assert command_set_problems(commands) == []
    translated = command(
        "roll",
        option("note", min_length=0, max_length=6000, description_localizations={"fr": "d" * 100}),
        option("n", 4, choices=[{"name": "most", "value": 2**53 - 1, "name_localizations": {"de": "größte"}}]),
        name_localizations={"fr": "lancer", "de": "würfeln", "ja": "ロール"},
    )
    assert command_set_problems([translated]) == []
    everywhere = {locale: "lancer" for locale in LOCALES}
    bounds = option("n", 4, min_value=-(2**53 - 1), max_value=2**53 - 1)
    where = option("where", 7, channel_types=[0, 2, 5, 15, 16])
    widest = command("roll", bounds, where, name_localizations=everywhere, contexts=[0, 1, 2], integration_types=[0, 1])
    assert command_set_problems([widest]) == []


def test_an_autocompletes_choices_are_held_to_the_same_rules_in_each_language() -> None:
    choices = [{"name": "Orc", "value": "orc", "name_localizations": {"fr": ""}}]
    assert paths(choice_problems("data.choices", choices, 3)) == [
        "data.choices.0.name_localizations.fr: Must be between 1 and 100 in length."
    ]
    elsewhere = [{"name": "Orc", "value": "orc", "name_localizations": {"fr-FR": "Orque"}}]
    (problem,) = paths(choice_problems("data.choices", elsewhere, 3))
    assert problem.startswith("data.choices.0.name_localizations.fr-FR: Value must be one of ('ar', 'bg'")


def test_the_4000_characters_are_counted_in_each_locale() -> None:
    cmd = command("roll", option("dice", description="d" * 90, description_localizations={"de": "D" * 100}))
    assert command_characters(cmd) == len("roll") + len("Roll dice") + len("dice") + 100


def test_autocomplete_choices_match_the_options_type() -> None:
    assert choice_problems("data.choices", [{"name": "Orc", "value": "orc"}], 3) == []
    assert choice_problems("data.choices", [{"name": "Three", "value": 3}], 4) == []
    assert paths(choice_problems("data.choices", [{"name": "Three", "value": "3"}], 4)) == [
        "data.choices.0.value: Not a valid value for an option of type 4."
    ]
    assert paths(choice_problems("data.choices", [{"name": "Orc", "value": "o" * 101}], 3)) == [
        "data.choices.0.value: Not a valid value for an option of type 3."
    ]


@pytest.mark.outside_contract  # the command set breaks Discord's API description on purpose
async def test_a_command_set_discord_would_refuse_is_answered_with_its_400(standin: StandIn, http) -> None:
    path = api(standin, f"/applications/{standin.world.application_id}/commands")
    async with http.put(path, json=[command("Roll")]) as resp:
        assert resp.status == 400
        body = await resp.json()
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert refusal(body) == "Invalid Form Body; 0.name: Command name is invalid"
    assert not standin.commands.is_synced(None)


async def test_components_discord_would_refuse_are_answered_with_a_400(standin: StandIn, http) -> None:
    channel = standin.world.channel("combat")
    status, body = await post(http, standin, channel.id, {"content": "hi", "components": [row(button(), button())]})
    assert status == 400 and body["code"] == 50035
    assert refusal(body) == "Invalid Form Body; components: Component custom id cannot be duplicated"
    assert standin.messages(channel) == []


@pytest.mark.outside_contract  # the request breaks Discord's API description on purpose
async def test_an_id_allowed_twice_is_answered_with_a_400(standin, http) -> None:
    channel = standin.world.channel("combat")
    alice = standin.world.user("alice").id
    allowed = {"parse": [], "users": [str(alice), str(alice)]}
    status, body = await post(http, standin, channel.id, {"content": f"<@{alice}>", "allowed_mentions": allowed})
    assert status == 400 and body["code"] == 50035
    assert refusal(body) == "Invalid Form Body; allowed_mentions: allowed_mentions.users holds an id twice"
    assert standin.messages(channel) == []


async def test_a_reply_to_a_message_the_channel_does_not_show_is_refused(standin: StandIn, http) -> None:
    channel = standin.world.channel("combat")
    reply = {"content": "hi", "message_reference": {"message_id": "12345"}}
    status, body = await post(http, standin, channel.id, reply)
    assert status == 400 and refusal(body) == "Invalid Form Body; message_reference: Unknown message"
    lenient = {"content": "hi", "message_reference": {"message_id": "12345", "fail_if_not_exists": False}}
    status, _ = await post(http, standin, channel.id, lenient)
    assert status == 200


async def test_an_answer_after_three_seconds_finds_the_interaction_gone(standin: StandIn, bot: ProbeBot) -> None:
    standin.interaction_callback_seconds = 0.0  # every answer comes too late
    handle = await standin.invoke("alice", "/probe ping")
    await standin.wait_for(lambda: any("/callback" in r[1] for r in standin.rejected) or None)
    method, _, status, text = standin.rejected[-1]
    assert (method, status) == ("POST", 404) and '"code": 10062' in text
    assert handle.callbacks == []


async def answer(http, standin: StandIn, handle, payload: dict) -> tuple[int, dict]:
    path = api(standin, f"/interactions/{handle.id}/{handle.token}/callback")
    async with http.post(path, json=payload) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else {})


@pytest.mark.outside_contract  # the answer breaks Discord's API description on purpose
async def test_a_deferred_answers_data_is_held_to_a_messages_limits(standin: StandIn, bot: ProbeBot, http) -> None:
    too_long = {"content": "x" * 2001}
    unanswered = await standin.invoke("alice", "/probe silent")
    status, body = await answer(http, standin, unanswered, {"type": 5, "data": too_long})
    assert status == 400 and refusal(body) == "Invalid Form Body; data.content: Must be 2000 or fewer in length."
    await post(http, standin, standin.world.channel("combat").id, {"components": [row(button("idle"))]})
    click = await standin.click("alice", custom_id="idle")
    status, body = await answer(http, standin, click, {"type": 6, "data": too_long})
    assert status == 400 and refusal(body) == "Invalid Form Body; data.content: Must be 2000 or fewer in length."
    assert unanswered.callbacks == [] and click.callbacks == []
    assert (await answer(http, standin, click, {"type": 6}))[0] == 204


async def test_a_channel_message_is_never_ephemeral(standin: StandIn, http) -> None:
    channel = standin.world.channel("combat")
    status, sent = await post(http, standin, channel.id, {"content": "for all", "flags": 64})
    assert status == 200 and not sent["flags"] & 64
    assert [m.content for m in standin.messages(channel, include_ephemeral=False)] == ["for all"]


# -- edits: what an edit leaves, and which flags it may change --------------------------------
async def edit(http, standin: StandIn, message: dict, payload: dict) -> tuple[int, dict]:
    path = api(standin, f"/channels/{message['channel_id']}/messages/{message['id']}")
    async with http.patch(path, json=payload) as resp:
        return resp.status, await resp.json()


async def edit_original(http, standin: StandIn, token: str, payload: dict) -> tuple[int, dict]:
    path = api(standin, f"/webhooks/{standin.world.application_id}/{token}/messages/@original")
    async with http.patch(path, json=payload) as resp:
        return resp.status, await resp.json()


@pytest.mark.parametrize(
    "sent, change",
    [
        ({"content": "hi"}, {"content": ""}),
        ({"content": "hi"}, {"content": None}),
        ({"embeds": [{"title": "Round 1"}]}, {"embeds": []}),
        ({"content": "hi", "embeds": [{"title": "Round 1"}]}, {"content": "", "embeds": None}),
        ({"content": "hi", "components": [row(button())]}, {"content": "", "components": []}),
    ],
)
async def test_an_edit_that_would_leave_a_message_empty_is_refused(standin: StandIn, http, sent, change) -> None:
    channel = standin.world.channel("combat")
    _, message = await post(http, standin, channel.id, sent)
    status, body = await edit(http, standin, message, change)
    assert (status, body["code"], body["message"]) == (400, 50006, "Cannot send an empty message")
    assert len(standin.book.get(int(message["id"])).revisions) == 1


@pytest.mark.parametrize(
    "sent, change",
    [
        ({"content": "hi"}, {}),  # nothing sent: everything stays
        ({"content": "hi", "embeds": [{"title": "Round 1"}]}, {"content": ""}),  # the embed stays
        ({"embeds": [{"title": "Round 1"}]}, {"embeds": [], "content": "over"}),
        ({"content": "hi"}, {"content": None, "components": [row(button())]}),
    ],
)
async def test_an_edit_that_leaves_something_is_taken(standin: StandIn, http, sent, change) -> None:
    _, message = await post(http, standin, standin.world.channel("combat").id, sent)
    status, _ = await edit(http, standin, message, change)
    assert status == 200 and len(standin.book.get(int(message["id"])).revisions) == 2


async def test_an_edit_that_removes_every_attachment_of_a_file_only_message_is_refused(standin: StandIn, http) -> None:
    channel = standin.world.channel("combat")
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"attachments": [{"id": 0, "filename": "log.md"}]}))
    form.add_field("files[0]", b"# log", filename="log.md")
    async with http.post(api(standin, f"/channels/{channel.id}/messages"), data=form) as resp:
        message = await resp.json()
    status, body = await edit(http, standin, message, {"attachments": []})
    assert (status, body["code"]) == (400, 50006)
    status, _ = await edit(http, standin, message, {"content": "the log is gone", "attachments": []})
    assert status == 200 and standin.book.get(int(message["id"])).attachments == []


async def test_an_edit_of_an_interactions_answer_that_would_leave_it_empty_is_refused(
    standin: StandIn, bot: ProbeBot, http
) -> None:
    handle = await standin.invoke("alice", "/probe ping")
    answer = await handle.response()
    status, body = await edit_original(http, standin, handle.token, {"content": ""})
    assert (status, body["code"], body["message"]) == (400, 50006, "Cannot send an empty message")
    path = api(standin, f"/webhooks/{standin.world.application_id}/{handle.token}/messages/{answer.id}")
    async with http.patch(path, json={"content": None}) as resp:  # the same message, named by its id
        assert resp.status == 400 and (await resp.json())["code"] == 50006
    assert answer.content == "ok" and len(answer.revisions) == 1


async def test_an_edit_may_suppress_embeds_but_not_change_other_flags(standin: StandIn, http) -> None:
    _, message = await post(http, standin, standin.world.channel("combat").id, {"content": "see https://x.y"})
    recorded = standin.book.get(int(message["id"]))
    status, edited = await edit(http, standin, message, {"flags": SUPPRESS_EMBEDS | EPHEMERAL})
    assert status == 200 and edited["flags"] == SUPPRESS_EMBEDS and not recorded.ephemeral
    status, edited = await edit(http, standin, message, {"content": "no flags given"})
    assert edited["flags"] == SUPPRESS_EMBEDS  # flags not sent keep their value
    status, edited = await edit(http, standin, message, {"flags": 0})
    assert status == 200 and edited["flags"] == 0
    assert [m.content for m in standin.messages("combat", include_ephemeral=False)] == ["no flags given"]


async def test_an_edit_cannot_make_an_ephemeral_answer_public(standin: StandIn, bot: ProbeBot, http) -> None:
    handle = await standin.invoke("bob", "/probe secret")
    answer = await handle.response()
    status, edited = await edit_original(http, standin, handle.token, {"content": "for all?", "flags": 0})
    assert status == 200 and edited["flags"] & EPHEMERAL and answer.ephemeral
    assert standin.messages("combat", include_ephemeral=False) == []


def test_an_edit_sets_components_v2_but_never_clears_it(standin: StandIn) -> None:
    channel = standin.world.channel("combat")
    message = standin.book.create(channel, standin.world.bot.id, MessageBody({"content": "hi"}))
    text = {"type": 10, "content": "hi"}
    upgraded = standin.book.revise(message, MessageBody({"content": None, "components": [text], "flags": 1 << 15}))
    assert upgraded.flags == 1 << 15
    standin.book.edit(message, upgraded)
    assert standin.book.revise(message, MessageBody({"flags": 0})).flags == 1 << 15


# -- edits of a components-v2 message: it shows components only, and keeps the flag ----------------
COMPONENTS_V2 = 1 << 15


def text(said: str) -> dict:
    return {"type": 10, "content": said}


def refused_for(status: int, body: dict, field: str) -> bool:
    return (status, body.get("code")) == (400, 50035) and field in body["errors"]


@pytest.mark.parametrize(
    "change, field",
    [
        ({"content": "Round 2"}, "content"),
        ({"embeds": [{"title": "Round 2"}]}, "embeds"),
        ({"content": "Round 2", "flags": 0}, "content"),  # the flag stays all the same
    ],
)
async def test_a_components_v2_message_takes_no_content_or_embeds_in_an_edit(standin: StandIn, http, change, field):
    channel = standin.world.channel("combat")
    _, message = await post(http, standin, channel.id, {"flags": COMPONENTS_V2, "components": [text("Round 1")]})
    status, body = await edit(http, standin, message, change)
    assert refused_for(status, body, field), body
    assert len(standin.book.get(int(message["id"])).revisions) == 1


async def test_an_edit_reads_its_components_by_the_flags_it_sends_else_by_the_messages(standin: StandIn, http):
    channel = standin.world.channel("combat")
    _, message = await post(http, standin, channel.id, {"flags": COMPONENTS_V2, "components": [text("Round 1")]})
    status, edited = await edit(http, standin, message, {"components": [text("Round 2")]})
    assert status == 200 and edited["flags"] == COMPONENTS_V2, edited
    # Flags without the bit read the edit's components as a legacy message's (Discord: UNION_TYPE_CHOICES).
    status, body = await edit(http, standin, message, {"flags": 0, "components": [text("Round 3")]})
    assert refused_for(status, body, "components"), body
    assert standin.book.get(int(message["id"])).components == [text("Round 2")]


async def test_setting_components_v2_on_an_edit_needs_the_content_and_embeds_cleared(standin: StandIn, http):
    channel = standin.world.channel("combat")
    _, message = await post(http, standin, channel.id, {"content": "Round 1", "embeds": [{"title": "Order"}]})
    upgrade = {"flags": COMPONENTS_V2, "components": [text("Round 1")]}
    status, body = await edit(http, standin, message, upgrade | {"content": None})
    assert refused_for(status, body, "embeds"), body
    status, edited = await edit(http, standin, message, upgrade | {"content": None, "embeds": []})
    assert status == 200 and edited["flags"] == COMPONENTS_V2 and edited["content"] == ""


async def test_an_interactions_answer_made_components_v2_takes_no_content_again(
    standin: StandIn, bot: ProbeBot, http
) -> None:
    handle = await standin.invoke("alice", "/probe ping")
    answer = await handle.response()
    upgrade = {"flags": COMPONENTS_V2, "components": [text("ok")]}
    status, body = await edit_original(http, standin, handle.token, upgrade)
    assert refused_for(status, body, "content"), body
    status, _ = await edit_original(http, standin, handle.token, upgrade | {"content": None})
    assert status == 200
    status, body = await edit_original(http, standin, handle.token, {"content": "ok again"})
    assert refused_for(status, body, "content"), body
    assert answer.content == "" and answer.components == [text("ok")]


# -- pins: the permission and the limit ---------------------------------------------------------
async def pin(http, standin: StandIn, message: dict, *, method: str = "PUT", legacy: bool = False) -> tuple[int, dict]:
    where = "pins" if legacy else "messages/pins"
    path = api(standin, f"/channels/{message['channel_id']}/{where}/{message['id']}")
    async with http.request(method, path) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else {})


@pytest.mark.parametrize(("method", "legacy"), [("PUT", False), ("PUT", True), ("DELETE", False), ("DELETE", True)])
async def test_pinning_without_pin_messages_is_refused(standin: StandIn, http, method, legacy) -> None:
    _, message = await post(http, standin, standin.world.channel("combat").id, {"content": "tracker"})
    if method == "DELETE":
        assert (await pin(http, standin, message))[0] == 204
    standin.world.role(standin.world.bot.name).permissions &= ~(PIN_MESSAGES | MANAGE_MESSAGES)
    status, body = await pin(http, standin, message, method=method, legacy=legacy)
    assert (status, body["code"], body["message"]) == (403, 50013, "Missing Permissions")
    assert standin.book.get(int(message["id"])).pinned == (method == "DELETE")


@pytest.mark.parametrize("granted", [PIN_MESSAGES, MANAGE_MESSAGES])
async def test_pin_messages_or_manage_messages_lets_the_bot_pin(standin: StandIn, http, granted) -> None:
    role = standin.world.role(standin.world.bot.name)
    role.permissions = (role.permissions & ~(PIN_MESSAGES | MANAGE_MESSAGES)) | granted
    _, message = await post(http, standin, standin.world.channel("combat").id, {"content": "tracker"})
    assert (await pin(http, standin, message))[0] == 204
    assert (await pin(http, standin, message, method="DELETE"))[0] == 204


# -- the bot's own messages: View Channel and Send Messages (in Threads) -----------------------------------------
@pytest.mark.parametrize(
    ("taken", "where", "code"),
    [
        (VIEW_CHANNEL, "combat", 50001),
        (SEND_MESSAGES, "combat", 50013),
        (SEND_MESSAGES_IN_THREADS, "duel", 50013),
    ],
)
async def test_posting_without_the_permission_is_refused(standin: StandIn, http, taken, where, code) -> None:
    world = standin.world
    if where == "duel":
        world.add_thread(world.channel("combat"), "duel")
    for role in (world.role(world.bot.name), world.guild().everyone_role):
        role.permissions &= ~taken
    before = len(standin.book.messages)
    status, body = await post(http, standin, world.channel(where).id, {"content": "reminder"})
    assert (status, body["code"]) == (403, code)
    assert len(standin.book.messages) == before


async def test_a_thread_takes_send_messages_in_threads_not_send_messages(standin: StandIn, http) -> None:
    world = standin.world
    duel = world.add_thread(world.channel("combat"), "duel")
    for role in (world.role(world.bot.name), world.guild().everyone_role):
        role.permissions &= ~SEND_MESSAGES
    status, _ = await post(http, standin, duel.id, {"content": "reminder"})
    assert status == 200


async def test_the_251st_pin_of_a_channel_is_refused(standin: StandIn, http) -> None:
    channel = standin.world.channel("combat")
    for n in range(MAX_PINS):
        standin.book.set_pinned(
            standin.book.create(channel, standin.world.bot.id, MessageBody({"content": f"{n}"})), True
        )
    _, message = await post(http, standin, channel.id, {"content": "one too many"})
    status, body = await pin(http, standin, message)
    assert (status, body["code"], body["message"]) == (400, 30003, "Maximum number of pins reached (250)")
    assert not standin.book.get(int(message["id"])).pinned
