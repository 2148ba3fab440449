"""REST routes exercised directly (legacy pins, listing, edits, limits), plus load."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from bot.standin import SANDBOX_GUILD, default_world, running_client, running_standin

from .probe_bot import ProbeBot


@pytest.fixture
async def http(standin):
    headers = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession(base_url=standin.base_url, headers=headers) as session:
        yield session


def api(standin, path: str) -> str:
    return "/api/v10" + path


async def post(http, standin, channel_id, payload):
    async with http.post(api(standin, f"/channels/{channel_id}/messages"), json=payload) as resp:
        return resp.status, await resp.json()


async def test_content_type_is_exactly_application_json(standin, http) -> None:
    async with http.get(api(standin, "/users/@me")) as resp:
        assert resp.headers["Content-Type"] == "application/json"
        assert (await resp.json())["username"] == standin.world.bot.name


async def test_unauthenticated_bot_route_is_401(standin) -> None:
    async with aiohttp.ClientSession(base_url=standin.base_url) as anon:
        async with anon.get(api(standin, "/users/@me")) as resp:
            assert resp.status == 401


async def test_post_list_edit_delete_and_legacy_pins(standin, http) -> None:
    channel = standin.world.channel("combat")
    _, first = await post(http, standin, channel.id, {"content": "one"})
    _, second = await post(
        http, standin, channel.id, {"content": "two", "message_reference": {"message_id": first["id"]}}
    )
    assert second["type"] == 19 and second["message_reference"]["message_id"] == first["id"]

    async with http.get(api(standin, f"/channels/{channel.id}/messages"), params={"limit": 10}) as resp:
        assert [m["content"] for m in await resp.json()] == ["two", "one"]

    async with http.patch(
        api(standin, f"/channels/{channel.id}/messages/{first['id']}"), json={"content": "uno"}
    ) as resp:
        edited = await resp.json()
    assert edited["content"] == "uno" and edited["edited_timestamp"]
    recorded = standin.book.get(int(first["id"]))
    assert [r.content for r in recorded.edit_history] == ["one", "uno"]

    async with http.put(api(standin, f"/channels/{channel.id}/pins/{first['id']}")) as resp:
        assert resp.status == 204
    async with http.get(api(standin, f"/channels/{channel.id}/pins")) as resp:
        assert [m["id"] for m in await resp.json()] == [first["id"]]
    async with http.delete(api(standin, f"/channels/{channel.id}/pins/{first['id']}")) as resp:
        assert resp.status == 204
    assert not recorded.pinned

    async with http.delete(api(standin, f"/channels/{channel.id}/messages/{second['id']}")) as resp:
        assert resp.status == 204
    async with http.get(api(standin, f"/channels/{channel.id}/messages/{second['id']}")) as resp:
        assert resp.status == 404 and (await resp.json())["code"] == 10008

    async with http.post(api(standin, f"/channels/{channel.id}/typing")) as resp:
        assert resp.status == 204
    assert standin.typing == [channel.id]


def refusal(body: dict) -> str:
    """Discord's error answer as one line: its message, then each field's reasons (``embeds.0.title: …``)."""

    def walk(node: dict, where: str) -> list[str]:
        found = [f"{where}: {e['message']}" for e in node.get("_errors", [])]
        for key, child in node.items():
            if key != "_errors":
                found += walk(child, f"{where}.{key}" if where else key)
        return found

    return "; ".join([body["message"], *walk(body.get("errors") or {}, "")])


@pytest.mark.parametrize(
    "payload, fragment",
    [
        ({"content": ""}, "Cannot send an empty message"),
        ({"content": "x" * 2001}, "content: Must be 2000 or fewer"),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title: Must be 256 or fewer"),
        ({"embeds": [{"fields": [{"name": "a", "value": ""}]}]}, "embeds.0.fields.0.value: Must be between 1"),
        ({"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "mutually exclusive"),
        ({"content": "hi", "nonce": "n" * 26}, "nonce: Must be 25 or fewer"),
        ({"embeds": [{"title": "t", "color": 0x1000000}]}, "embeds.0.color: Must be between 0 and 16777215"),
    ],
)
@pytest.mark.outside_contract
async def test_discord_limits_are_enforced(standin, http, payload, fragment) -> None:
    status, body = await post(http, standin, standin.world.channel("combat").id, payload)
    assert status == 400 and fragment in refusal(body)
    assert standin.rejected and standin.rejected[-1][2] == 400


async def test_multipart_upload_keeps_bytes(standin, http) -> None:
    channel = standin.world.channel("combat")
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(
        "payload_json", json.dumps({"content": "see file", "attachments": [{"id": 0, "filename": "notes.md"}]})
    )
    form.add_field("files[0]", b"# notes", filename="notes.md", content_type="application/octet-stream")
    async with http.post(api(standin, f"/channels/{channel.id}/messages"), data=form) as resp:
        data = await resp.json()
    (att,) = data["attachments"]
    assert att["filename"] == "notes.md" and att["size"] == 7
    async with http.get(att["url"]) as resp:
        assert await resp.read() == b"# notes"


async def test_unknown_paths_are_recorded(standin, http) -> None:
    async with http.get(api(standin, "/voice/regions")) as resp:
        assert resp.status == 404
    async with http.get("/not-an-api") as resp:
        assert resp.status == 404
    assert standin.unknown_routes == [("GET", "/voice/regions"), ("GET", "/not-an-api")]


async def test_many_channels_concurrent_commands() -> None:
    world = default_world(extra_channels=20)
    async with running_standin(world) as standin:
        guild_id = world.guild(SANDBOX_GUILD).id
        async with running_client(standin, lambda: ProbeBot([guild_id])):
            channels = [c for c in world.default_guild.channels.values() if c.name.startswith("combat")]
            assert len(channels) == 23
            handles = await asyncio.gather(*(standin.invoke("alice", "/probe ping", in_channel=c) for c in channels))
            answers = await asyncio.gather(*(h.response() for h in handles))
            assert {m.channel_id for m in answers} == {c.id for c in channels}
            assert all(m.content == "ok" for m in answers)


async def test_a_direct_message_channel_is_one_per_user_and_refused_when_dms_are_off(standin, http) -> None:
    alice = standin.world.user("alice")
    async with http.post(api(standin, "/users/@me/channels"), json={"recipient_id": str(alice.id)}) as resp:
        dm = await resp.json()
    assert resp.status == 200 and dm["type"] == 1 and [u["id"] for u in dm["recipients"]] == [str(alice.id)]
    async with http.post(api(standin, "/users/@me/channels"), json={"recipient_id": str(alice.id)}) as resp:
        assert (await resp.json())["id"] == dm["id"]
    status, _ = await post(http, standin, dm["id"], {"content": "psst"})
    assert status == 200 and [m.content for m in standin.direct_messages("alice")] == ["psst"]
    assert all(m.content != "psst" for m in standin.messages())
    alice.accepts_dms = False
    status, refused = await post(http, standin, dm["id"], {"content": "again"})
    assert status == 403 and refused["code"] == 50007
