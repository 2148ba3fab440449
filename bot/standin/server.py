"""``StandIn``: the local Discord (REST + gateway) a real discord.py client talks to.

Typical use (see ``harness`` for the context managers)::

    async with running_standin() as standin:
        async with running_client(standin, MyBot) as bot:
            handle = await standin.invoke("alice", "/initiative add", name="Orc", count=3)
            msg = await handle.response()
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from . import rest_webhooks  # noqa: F401  (registers the interaction routes on the router)
from .actions import ChannelRef, NoBotSession, UserActions
from .commands import CommandRegistry
from .contract import Violation, contract, marks_in
from .faults import Fault, FaultInjector
from .form_errors import Problem
from .gateway import Gateway, GatewaySession
from .interactions import InteractionHandle
from .mentions import AllowedMentionsError
from .messages import Event, MessageBody, MessageBook
from .payloads import channel_payload, member_payload
from .ratelimits import RateLimiter, RateLimits
from .records import RecordedAttachment, RecordedMessage
from .rest import bot_routes_need_auth, router
from .rest_core import API_PREFIX, HTTPFailure, RestCall, error, invalid_form_body
from .validation import components_only_problems, is_empty, leaves_empty, message_problems
from .waiting import Notifier
from .world import Channel, Guild, World, default_world

T = TypeVar("T")
GUILD_MESSAGES_INTENT = 1 << 9
__all__ = ["NoBotSession", "StandIn"]


# How long an interaction's token opens its webhook (followups, edits), as on Discord.
INTERACTION_TOKEN_SECONDS = 15 * 60
# How long Discord waits for the first answer (the callback) to an interaction.
INTERACTION_CALLBACK_SECONDS = 3.0


def _empty_message() -> HTTPFailure:
    """Discord's answer to a message that would show nothing, sent or edited so."""
    return HTTPFailure(error(400, 50006, "Cannot send an empty message"))


class StandIn(UserActions):
    # Every stand-in of this process, so a test's teardown can check the ones it used.
    instances: weakref.WeakSet[StandIn] = weakref.WeakSet()

    """Local Discord: REST under ``/api/v10``, gateway at ``/gateway/``, attachments served.

    Clients connecting to it should use a small ``guild_ready_timeout`` (e.g. 0.05):
    discord.py delays ``on_ready`` by that long after the last GUILD_CREATE (2 s default).
    """

    def __init__(
        self,
        world: World | None = None,
        *,
        token: str = "standin.bot.token",
        host: str = "127.0.0.1",
        rate_limits: RateLimits | None = None,
        interaction_token_seconds: float = INTERACTION_TOKEN_SECONDS,
        interaction_callback_seconds: float = INTERACTION_CALLBACK_SECONDS,
    ) -> None:
        self.world = world or default_world()
        self.token = token
        self.interaction_token_seconds = interaction_token_seconds
        self.interaction_callback_seconds = interaction_callback_seconds
        self.host = host
        self.port: int | None = None
        self.notifier = Notifier()
        self.commands = CommandRegistry(self.world.ids, self.world.application_id)
        self.book = MessageBook(self.world, self.notifier, self._attachment_url)
        self.uploads: list[RecordedAttachment] = []
        self.book.listeners.append(self._relay_message_event)
        self.faults = FaultInjector()
        self.gateway = Gateway(self)
        self.unknown_routes: list[tuple[str, str]] = []
        self.rejected: list[tuple[str, str, int, str]] = []  # 4xx answers: method, path, status, message
        self.requests: list[tuple[str, str, int]] = []  # every REST call: method, path, status
        self.typing: list[int] = []
        self.interactions: list[InteractionHandle] = []
        self.interactions_by_id: dict[int, InteractionHandle] = {}
        self.interactions_by_token: dict[str, InteractionHandle] = {}
        self._runner: web.AppRunner | None = None
        self.contract = contract()
        # Off unless asked for: most tests need not wait out Discord's windows.
        self.rate_limiter: RateLimiter | None = RateLimiter(rate_limits) if rate_limits else None
        self.contract_violations: list[Violation] = []  # requests Discord's API description does not allow
        self.contract_bodies_checked = 0
        StandIn.instances.add(self)

    # -- addresses ------------------------------------------------------------
    @property
    def base_url(self) -> str:
        if self.port is None:
            raise RuntimeError("StandIn not started")
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (also the resume URL)."""
        return f"ws://{self.host}:{self.port}/gateway/"

    def _attachment_url(self, channel_id: int, attachment_id: int, filename: str) -> str:
        return f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}"

    # -- lifecycle ------------------------------------------------------------
    async def start(self) -> StandIn:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self.gateway.shutdown()
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> StandIn:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    # -- HTTP plumbing ----------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        method, path = request.method, "/" + request.match_info["tail"]
        handler, params, template = router.match(method, path)
        self.check_contract(method, path)
        response = self.faults.take(method, path, template)
        headers: dict[str, str] = {}
        if response is None and self.rate_limiter is not None and handler is not None:
            response, headers = self.rate_limiter.take(method, path, template, params)
        if response is None:
            response = await self._answer(request, method, path, handler, params, template)
            response.headers.update(headers)
        self.requests.append((method, path, response.status))
        if 400 <= response.status < 500 and response.status != 429:
            self.rejected.append((method, path, response.status, getattr(response, "text", "") or ""))
        self.notifier.notify()
        return response

    def check_contract(self, method: str, path: str, body: Any = None, *, multipart: bool = False) -> None:
        """Record where a request breaks Discord's published API description."""
        if self.contract is None:
            return
        if body is None:
            self.contract_violations.extend(self.contract.check(method, path))
            return
        op, _ = self.contract.operation(method, path)
        self.contract_bodies_checked += 1
        self.contract_violations.extend(marks_in(method, path, body))
        if op is not None:  # an unknown route was recorded when the request came in
            self.contract_violations.extend(self.contract.check_body(op, path, body, multipart=multipart))

    async def _answer(
        self,
        request: web.Request,
        method: str,
        path: str,
        handler: Any,
        params: dict[str, str],
        template: str | None,
    ) -> web.Response:
        if handler is None:
            self.unknown_routes.append((method, path))
            return error(404, 0, f"404: Not Found (stand-in has no route {method} {path})")
        if bot_routes_need_auth(template) and request.headers.get("Authorization") != f"Bot {self.token}":
            return error(401, 0, "401: Unauthorized")
        try:
            return await handler(RestCall(self, request, params, template or path))
        except HTTPFailure as failure:
            return failure.response
        except AllowedMentionsError as exc:
            return invalid_form_body([Problem("allowed_mentions", str(exc))])

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unknown_routes.append((request.method, request.path))
        return error(404, 0, "404: Not Found")

    def upload(self, filename: str, data: bytes, content_type: str = "application/json") -> RecordedAttachment:
        """A file a user attaches to a command (pass it as an attachment option's value)."""
        att_id = self.world.ids.next()
        attachment = RecordedAttachment(att_id, filename, content_type, data, self._attachment_url(0, att_id, filename))
        self.uploads.append(attachment)
        return attachment

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        att_id = int(request.match_info["attachment_id"])
        for att in self.uploads:
            if att.id == att_id:
                return web.Response(body=att.data, headers={"Content-Type": att.content_type})
        for msg in self.book.messages:
            for rev in msg.revisions:
                for att in rev.attachments:
                    if att.id == att_id:
                        return web.Response(body=att.data, headers={"Content-Type": att.content_type})
        return web.Response(status=404)

    # -- bot-authored messages (shared by channel and webhook routes) ----------
    def _check(self, body: MessageBody, *, creating: bool, flags: int = 0) -> None:
        problems = message_problems(body, flags)
        if problems:
            raise HTTPFailure(invalid_form_body(problems))
        if creating and is_empty(body):
            raise _empty_message()

    def create_bot_message(
        self,
        channel: Channel,
        body: MessageBody,
        *,
        interaction: InteractionHandle | None = None,
        followup: bool = False,
        type: int = 0,
    ) -> RecordedMessage:
        self._check(body, creating=True)
        self._check_reference(channel, body)
        return self.book.create(channel, self.world.bot.id, body, interaction=interaction, followup=followup, type=type)

    def _check_reference(self, channel: Channel, body: MessageBody) -> None:
        """A reply names a message the channel shows, unless it asks Discord not to mind."""
        ref = body.payload.get("message_reference") or {}
        if not ref.get("message_id") or ref.get("fail_if_not_exists") is False:
            return
        target = self.book.get(int(ref["message_id"]))
        in_channel = int(ref.get("channel_id") or channel.id)
        if target is None or target.deleted or target.ephemeral or target.channel_id != in_channel:
            raise HTTPFailure(invalid_form_body([Problem("message_reference", "Unknown message")]))

    def edit_message(self, msg: RecordedMessage, body: MessageBody) -> RecordedMessage:
        self._check(body, creating=False, flags=msg.current.flags)
        revision = self.book.revise(msg, body)
        if leaves_empty(revision):
            raise _empty_message()
        problems = components_only_problems(revision)
        if problems:
            raise HTTPFailure(invalid_form_body(problems))
        return self.book.edit(msg, revision)

    def _relay_message_event(self, event: Event) -> None:
        """Mirror message events to the bot's gateway session, as Discord does."""
        msg = event.message
        if msg is None or msg.ephemeral or msg.guild_id is None or event.kind not in ("create", "edit", "delete"):
            return
        session = self.gateway.session_for_guild(msg.guild_id)
        if session is None or not session.intents & GUILD_MESSAGES_INTENT:
            return
        if event.kind == "delete":
            session.dispatch(
                "MESSAGE_DELETE", {"id": str(msg.id), "channel_id": str(msg.channel_id), "guild_id": str(msg.guild_id)}
            )
            return
        data = msg.payload(self.world)
        member = self.world.guilds[msg.guild_id].members.get(msg.author_id)
        if member is not None:
            data["member"] = member_payload(member, with_user=False)
        session.dispatch("MESSAGE_CREATE" if event.kind == "create" and event.revision == 0 else "MESSAGE_UPDATE", data)

    # -- threads -------------------------------------------------------------------
    def archive_thread(self, thread: Channel, *, locked: bool = False, bot_manages_threads: bool = True) -> None:
        """The thread goes quiet and Discord archives it (and a moderator may lock it)."""
        thread.archived, thread.locked, thread.bot_manages_threads = True, locked, bot_manages_threads
        session = self.gateway.session_for_guild(thread.guild_id) if thread.guild_id is not None else None
        if session is not None:
            session.dispatch("THREAD_UPDATE", channel_payload(thread))

    # -- faults ------------------------------------------------------------------
    def fail_next(
        self, pattern: str, *, times: int = 1, status: int = 429, retry_after: float = 0.05, is_global: bool = False
    ) -> Fault:
        """Answer the next ``times`` requests matching ``pattern`` (``"POST /channels/*/messages"``
        or a template ``"POST /interactions/{interaction_id}/{token}/callback"``) with
        a 429 (Retry-After, Discord's JSON body) or the given 5xx.  Note discord.py
        sleeps 1 s + 2 s per retry on 5xx."""
        return self.faults.add(pattern, times=times, status=status, retry_after=retry_after, is_global=is_global)

    async def disconnect_gateway(
        self, session: GatewaySession | None = None, *, wait_for_resume: bool = True, timeout: float = 5.0
    ) -> list[GatewaySession]:
        """Drop the bot's websocket(s) with a resumable close; by default wait for RESUME."""
        before = {s.session_id: s.resumes for s in self.gateway.live_sessions()}
        dropped = self.gateway.disconnect(session)
        if wait_for_resume:
            await self.wait_for(
                lambda: all(s.resumes > before.get(s.session_id, 0) and s.connected for s in dropped) or None,
                timeout,
                "the bot to RESUME its gateway session(s)",
            )
        return dropped

    # -- waiting & queries -----------------------------------------------------------
    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "condition") -> T:
        return await self.notifier.wait_until(predicate, timeout, lambda: what)

    async def wait_for_commands(
        self, guild: Guild | str | int | None = None, *, global_: bool = False, timeout: float = 5.0
    ) -> list[dict[str, Any]]:
        scope = None if global_ else self.world.guild(guild).id
        await self.wait_for(
            lambda: self.commands.is_synced(scope) or None, timeout, f"command sync to {scope or 'global'}"
        )
        return self.commands.list(scope)

    def messages(self, in_channel: ChannelRef = None, *, include_ephemeral: bool = True) -> list[RecordedMessage]:
        """Messages sent in a channel (default channel if omitted), oldest first."""
        return self.book.in_channel(self.channel(in_channel), include_ephemeral=include_ephemeral)

    def direct_messages(self, user) -> list[RecordedMessage]:
        """What the bot sent `user` in a direct message, oldest first."""
        channel = self.world.dms.get(self.world.user(user).id)
        return [] if channel is None else self.book.in_channel(channel)

    def last_message(self, in_channel: ChannelRef = None) -> RecordedMessage | None:
        found = self.messages(in_channel)
        return found[-1] if found else None
