"""Bot-authenticated REST routes: login, gateway discovery, command sync, guilds,
channels, messages and pins."""

from __future__ import annotations

from aiohttp import web

from .command_rules import command_set_problems
from .form_errors import Problem
from .payloads import (
    application_payload,
    channel_payload,
    guild_payload,
    me_payload,
    member_payload,
    role_payload,
    user_payload,
)
from .records import RecordedMessage
from .rest_core import (
    HTTPFailure,
    RestCall,
    Router,
    error,
    invalid_form_body,
    json_response,
    no_content,
    not_found,
)
from .snowflakes import iso_time
from .world import (
    MANAGE_MESSAGES,
    PIN_MESSAGES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
    Guild,
)

router = Router()
route = router.route


# -- lookups that answer Discord's own 404 codes ------------------------------
def _channel(call: RestCall) -> Channel:
    channel = call.standin.world.channels.get(call.int_param("channel_id"))
    if channel is None:
        raise HTTPFailure(not_found("Channel", 10003))
    return channel


def _guild(call: RestCall) -> Guild:
    guild = call.standin.world.guilds.get(call.int_param("guild_id"))
    if guild is None:
        raise HTTPFailure(not_found("Guild", 10004))
    return guild


def _message(call: RestCall, channel: Channel) -> RecordedMessage:
    msg = call.standin.book.get(call.int_param("message_id"))
    # Ephemeral messages are invisible to the channel endpoints, as on Discord.
    if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
        raise HTTPFailure(not_found("Message", 10008))
    return msg


def _check_app(call: RestCall) -> None:
    if call.int_param("application_id") != call.standin.world.application_id:
        raise HTTPFailure(error(403, 50001, "Missing Access"))


def _commands_guild(call: RestCall) -> Guild:
    guild = _guild(call)
    if not guild.commands_scope:
        raise HTTPFailure(error(403, 50001, "Missing Access"))
    return guild


# -- login & discovery ---------------------------------------------------------
@route("GET", "/users/@me")
async def get_me(call: RestCall) -> web.Response:
    return json_response(me_payload(call.standin.world.bot))


@route("GET", "/users/{user_id}")
async def get_user(call: RestCall) -> web.Response:
    user = call.standin.world.users.get(call.int_param("user_id"))
    return json_response(user_payload(user)) if user else not_found("User", 10013)


@route("POST", "/users/@me/channels")
async def create_dm(call: RestCall) -> web.Response:
    body = await call.json()
    user = call.standin.world.users.get(int(body.get("recipient_id") or 0))
    if user is None:
        raise HTTPFailure(invalid_form_body([Problem("recipient_id", "Unknown user")]))
    return json_response(channel_payload(call.standin.world.dm_channel(user), world=call.standin.world))


@route("GET", "/oauth2/applications/@me")
async def get_application(call: RestCall) -> web.Response:
    return json_response(application_payload(call.standin.world))


@route("GET", "/applications/@me")
async def get_application_alias(call: RestCall) -> web.Response:
    return json_response(application_payload(call.standin.world))


@route("GET", "/gateway")
async def get_gateway(call: RestCall) -> web.Response:
    return json_response({"url": call.standin.gateway_url})


@route("GET", "/gateway/bot")
async def get_gateway_bot(call: RestCall) -> web.Response:
    limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 16}
    return json_response({"url": call.standin.gateway_url, "shards": 1, "session_start_limit": limit})


# -- command sync --------------------------------------------------------------
async def _command_set(call: RestCall) -> list:
    """The commands of a bulk overwrite, held to Discord's rules for registering them."""
    commands = await call.json()
    problems = command_set_problems(commands)
    if problems:
        raise HTTPFailure(invalid_form_body(problems))
    return commands


@route("PUT", "/applications/{application_id}/commands")
async def put_global_commands(call: RestCall) -> web.Response:
    _check_app(call)
    return json_response(call.standin.commands.replace(None, await _command_set(call)))


@route("GET", "/applications/{application_id}/commands")
async def get_global_commands(call: RestCall) -> web.Response:
    _check_app(call)
    return json_response(call.standin.commands.list(None))


@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
async def put_guild_commands(call: RestCall) -> web.Response:
    _check_app(call)
    guild = _commands_guild(call)
    return json_response(call.standin.commands.replace(guild.id, await _command_set(call)))


@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
async def get_guild_commands(call: RestCall) -> web.Response:
    _check_app(call)
    return json_response(call.standin.commands.list(_commands_guild(call).id))


# -- guilds --------------------------------------------------------------------
@route("GET", "/guilds/{guild_id}")
async def get_guild(call: RestCall) -> web.Response:
    guild = _guild(call)
    data = guild_payload(guild, full=False)
    if call.query.get("with_counts") in ("true", "1"):
        data["approximate_member_count"] = len(guild.members)
        data["approximate_presence_count"] = len(guild.members)
    return json_response(data)


@route("GET", "/guilds/{guild_id}/channels")
async def get_guild_channels(call: RestCall) -> web.Response:
    return json_response([channel_payload(c) for c in _guild(call).channels.values()])


@route("GET", "/guilds/{guild_id}/roles")
async def get_guild_roles(call: RestCall) -> web.Response:
    return json_response([role_payload(r) for r in _guild(call).roles.values()])


@route("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(call: RestCall) -> web.Response:
    member = _guild(call).members.get(call.int_param("user_id"))
    return json_response(member_payload(member)) if member else not_found("Member", 10007)


@route("GET", "/guilds/{guild_id}/members")
async def list_members(call: RestCall) -> web.Response:
    limit = int(call.query.get("limit", 1))
    after = int(call.query.get("after", 0))
    members = sorted((m for m in _guild(call).members.values() if m.id > after), key=lambda m: m.id)
    return json_response([member_payload(m) for m in members[:limit]])


# -- channels & messages -------------------------------------------------------
@route("GET", "/channels/{channel_id}")
async def get_channel(call: RestCall) -> web.Response:
    channel = _channel(call)
    visible = call.standin.book.in_channel(channel)
    last = visible[-1].id if visible else None
    return json_response(channel_payload(channel, last_message_id=last, world=call.standin.world))


@route("POST", "/channels/{channel_id}/typing")
async def trigger_typing(call: RestCall) -> web.Response:
    call.standin.typing.append(_channel(call).id)
    return no_content()


@route("PATCH", "/channels/{channel_id}")
async def modify_channel(call: RestCall) -> web.Response:
    """Only what the bot does with threads: reopen (or archive) one."""
    channel = _channel(call)
    changes = await call.json()
    if not channel.is_thread:
        raise HTTPFailure(error(400, 50024, "Cannot execute action on this channel type"))
    if "archived" in changes:
        if channel.locked and not channel.bot_manages_threads:
            raise HTTPFailure(error(403, 50013, "Missing Permissions"))
        channel.archived = bool(changes["archived"])
    if "locked" in changes and channel.bot_manages_threads:
        channel.locked = bool(changes["locked"])
    return json_response(channel_payload(channel))


def _writable(channel: Channel) -> None:
    """Discord's answers for a forum (posts only) and an archived thread: sending to an
    archived thread reopens it, unless it is locked."""
    if channel.type == 15:
        raise HTTPFailure(error(400, 50024, "Cannot execute action on this channel type"))
    if channel.is_thread and channel.archived:
        if channel.locked:
            raise HTTPFailure(error(400, 50083, "Thread is archived"))
        channel.archived = False


def _may_send(call: RestCall, channel: Channel) -> None:
    """Posting in a server's channel takes View Channel (else 403 50001) and Send Messages, or Send Messages in
    Threads in a thread (else 403 50013), as Discord refuses a bot's own message.  A direct message needs
    neither, and an interaction's answers need no permission at all."""
    if channel.guild_id is None:
        return
    granted = call.standin.world.guilds[channel.guild_id].permissions_of(call.standin.world.bot.id)
    if not granted & VIEW_CHANNEL:
        raise HTTPFailure(error(403, 50001, "Missing Access"))
    if not granted & (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES):
        raise HTTPFailure(error(403, 50013, "Missing Permissions"))


@route("POST", "/channels/{channel_id}/messages")
async def create_message(call: RestCall) -> web.Response:
    channel = _channel(call)
    _may_send(call, channel)
    _writable(channel)
    if channel.recipient_id is not None and not call.standin.world.users[channel.recipient_id].accepts_dms:
        raise HTTPFailure(error(403, 50007, "Cannot send messages to this user"))
    body = await call.body()
    msg = call.standin.create_bot_message(channel, body)
    return json_response(msg.payload(call.standin.world))


@route("GET", "/channels/{channel_id}/messages")
async def list_messages(call: RestCall) -> web.Response:
    channel = _channel(call)
    limit = min(int(call.query.get("limit", 50)), 100)
    msgs = call.standin.book.in_channel(channel)
    if "before" in call.query:
        msgs = [m for m in msgs if m.id < int(call.query["before"])]
    if "after" in call.query:
        msgs = [m for m in msgs if m.id > int(call.query["after"])][:limit]
    newest_first = list(reversed(msgs))[:limit]
    return json_response([m.payload(call.standin.world) for m in newest_first])


def _pin_list(call: RestCall, channel: Channel) -> list[RecordedMessage]:
    pins = sorted(call.standin.book.pinned_in(channel), key=lambda m: m.pinned_id or 0, reverse=True)
    if "before" in call.query:
        # The new pins endpoint pages by pin timestamp; our pin ids are ordered alike.
        pins = [m for m in pins if iso_time(m.pinned_id or 0) < call.query["before"]]
    return pins[: int(call.query.get("limit", 50))]


@route("GET", "/channels/{channel_id}/messages/pins")
async def list_pins(call: RestCall) -> web.Response:
    channel = _channel(call)
    items = [
        {"pinned_at": iso_time(m.pinned_id or m.id), "message": m.payload(call.standin.world)}
        for m in _pin_list(call, channel)
    ]
    return json_response({"items": items, "has_more": False})


# Discord's limit of pins per channel.
MAX_PINS = 250


def _may_pin(call: RestCall, channel: Channel) -> None:
    """Pinning and unpinning in a server take Pin Messages (Manage Messages on servers that have not
    split it off yet); Discord refuses with 403 50013 otherwise.  A direct message needs neither."""
    if channel.guild_id is None:
        return
    granted = call.standin.world.guilds[channel.guild_id].permissions_of(call.standin.world.bot.id)
    if not granted & (PIN_MESSAGES | MANAGE_MESSAGES):
        raise HTTPFailure(error(403, 50013, "Missing Permissions"))


async def _set_pin(call: RestCall, pinned: bool) -> web.Response:
    channel = _channel(call)
    _may_pin(call, channel)
    msg = _message(call, channel)
    if pinned and len(call.standin.book.pinned_in(channel)) >= MAX_PINS and not msg.pinned:
        return error(400, 30003, f"Maximum number of pins reached ({MAX_PINS})")
    call.standin.book.set_pinned(msg, pinned)
    return no_content()


# Discord still serves the older pin paths (/channels/{channel_id}/pins/…) as well.
@route("PUT", "/channels/{channel_id}/messages/pins/{message_id}")
@route("PUT", "/channels/{channel_id}/pins/{message_id}")
async def pin_message(call: RestCall) -> web.Response:
    return await _set_pin(call, True)


@route("DELETE", "/channels/{channel_id}/messages/pins/{message_id}")
@route("DELETE", "/channels/{channel_id}/pins/{message_id}")
async def unpin_message(call: RestCall) -> web.Response:
    return await _set_pin(call, False)


@route("GET", "/channels/{channel_id}/pins")
async def list_pins_legacy(call: RestCall) -> web.Response:
    channel = _channel(call)
    return json_response([m.payload(call.standin.world) for m in _pin_list(call, channel)])


@route("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(call: RestCall) -> web.Response:
    channel = _channel(call)
    return json_response(_message(call, channel).payload(call.standin.world))


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(call: RestCall) -> web.Response:
    channel = _channel(call)
    msg = _message(call, channel)
    if msg.author_id != call.standin.world.bot.id:
        return error(403, 50005, "Cannot edit a message authored by another user")
    if channel.is_thread and channel.archived:
        return error(400, 50083, "Thread is archived")
    msg = call.standin.edit_message(msg, await call.body())
    return json_response(msg.payload(call.standin.world))


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(call: RestCall) -> web.Response:
    channel = _channel(call)
    call.standin.book.delete(_message(call, channel))
    return no_content()


def bot_routes_need_auth(template: str | None) -> bool:
    """Webhook and interaction-callback routes authenticate by token in the URL."""
    return template is not None and not template.startswith(("/webhooks/", "/interactions/"))
