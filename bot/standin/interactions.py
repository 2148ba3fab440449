"""Interaction payloads sent to the bot, and the handle a test awaits the answer on."""

from __future__ import annotations

import time
from typing import Any

from .commands import CommandPath, InvalidInvocation
from .modals import Form, form_of
from .payloads import channel_payload, member_payload, user_payload
from .records import RecordedMessage
from .waiting import Notifier, UnexpectedResponse
from .world import Channel, Guild, User, World

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

# Callback (response) types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
CALLBACK_NAMES = {
    1: "pong",
    4: "message",
    5: "deferred message",
    6: "deferred update",
    7: "update message",
    8: "autocomplete result",
    9: "modal",
}

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def base_payload(
    world: World, *, id: int, token: str, type: int, user: User, guild: Guild, channel: Channel
) -> dict[str, Any]:
    """Fields every guild interaction carries; discord.py reads several without ``.get``."""
    member = guild.members.get(user.id)
    if member is None:
        raise InvalidInvocation(f"{user.name} is not a member of {guild.name!r}")
    bot_perms = guild.permissions_of(world.bot.id)
    return {
        "id": str(id),
        "application_id": str(world.application_id),
        "type": type,
        "token": token,
        "version": 1,
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
        "channel_id": str(channel.id),
        "channel": channel_payload(channel, permissions=guild.permissions_of(user.id)),
        "member": member_payload(member, permissions=guild.permissions_of(user.id)),
        "app_permissions": str(bot_perms),
        "locale": "en-US",
        "guild_locale": guild.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,  # GUILD
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }


class InteractionHandle:
    """One interaction the stand-in sent, and everything the bot answered to it."""

    def __init__(
        self,
        notifier: Notifier,
        *,
        id: int,
        token: str,
        type: int,
        user: User,
        guild: Guild,
        channel: Channel,
        payload: dict[str, Any],
        label: str,
        command: CommandPath | None = None,
        options: dict[str, Any] | None = None,
        source_message: RecordedMessage | None = None,
        custom_id: str | None = None,
    ) -> None:
        self._notifier = notifier
        self.created = time.monotonic()
        self.id = id
        self.token = token
        self.type = type
        self.user = user
        self.guild = guild
        self.channel = channel
        self.payload = payload
        self.label = label  # human description, e.g. 'alice: /initiative add name:"Orc"'
        self.command = command
        self.options = dict(options or {})
        self.source_message = source_message
        self.custom_id = custom_id
        self.callbacks: list[tuple[int, dict[str, Any] | None]] = []
        self.original: RecordedMessage | None = None
        self.followups: list[RecordedMessage] = []
        self.choices_result: list[dict[str, Any]] | None = None
        self.modal: dict[str, Any] | None = None
        self._source_revisions_at_ack = 0
        self.session: Any = None  # the GatewaySession it was dispatched on

    # -- state --------------------------------------------------------------
    @property
    def response_type(self) -> int | None:
        return self.callbacks[0][0] if self.callbacks else None

    @property
    def messages(self) -> list[RecordedMessage]:
        """Original response (if it is a message) followed by followups."""
        first = [self.original] if self.original is not None else []
        return first + list(self.followups)

    def record_callback(self, type: int, data: dict[str, Any] | None) -> None:
        self.callbacks.append((type, data))
        if self.source_message is not None:
            self._source_revisions_at_ack = len(self.source_message.revisions)

    def metadata_payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": user_payload(self.user),
            "authorizing_integration_owners": {"0": str(self.guild.id)},
        }
        if self.command is not None:
            data["name"] = " ".join(self.command.names)
            data["command_type"] = 1
        if self.original is not None and self.source_message is None:
            data["original_response_message_id"] = str(self.original.id)
        if self.source_message is not None:
            data["interacted_message_id"] = str(self.source_message.id)
        return data

    def _describe(self, waiting_for: str) -> str:
        got = ", ".join(CALLBACK_NAMES.get(t, str(t)) for t, _ in self.callbacks) or "no callback"
        return f"waiting for {waiting_for} to {self.label!r}; bot sent: {got}; messages: {len(self.messages)}"

    # -- awaiting -----------------------------------------------------------
    async def acknowledged(self, timeout: float = 5.0) -> int:
        """The first callback type the bot answered with (4, 5, 6, 7, 8 or 9)."""
        return await self._notifier.wait_until(
            lambda: self.response_type, timeout, lambda: self._describe("any callback")
        )

    def _visible_response(self) -> RecordedMessage | None:
        kind = self.response_type
        if kind is None:
            return None
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            return self.original
        if kind == DEFERRED_CHANNEL_MESSAGE:
            if self.original is not None and not self.original.loading:
                return self.original
            return self.followups[0] if self.followups else None
        if kind == DEFERRED_UPDATE_MESSAGE:
            if self.followups:
                return self.followups[0]
            src = self.source_message
            if src is not None and len(src.revisions) > self._source_revisions_at_ack:
                return src
            return None
        raise UnexpectedResponse(f"{self.label!r} was answered with a {CALLBACK_NAMES[kind]}, not a message")

    async def response(self, timeout: float = 5.0) -> RecordedMessage:
        """The message a user sees as the answer.

        Deferred answers (type 5) resolve when the "thinking…" placeholder is edited
        or a followup arrives; deferred updates (type 6) when the clicked message is
        edited or a followup arrives.
        """
        return await self._notifier.wait_until(
            self._visible_response, timeout, lambda: self._describe("a visible response")
        )

    async def followup(self, index: int = 0, timeout: float = 5.0) -> RecordedMessage:
        return await self._notifier.wait_until(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout,
            lambda: self._describe(f"followup #{index + 1}"),
        )

    async def choices(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Autocomplete choices (``[{"name":…, "value":…}]``) the bot answered with."""
        return await self._notifier.wait_until(
            lambda: self.choices_result, timeout, lambda: self._describe("autocomplete choices")
        )

    async def modal_data(self, timeout: float = 5.0) -> dict[str, Any]:
        return await self._notifier.wait_until(lambda: self.modal, timeout, lambda: self._describe("a modal"))

    async def form(self, timeout: float = 5.0) -> Form:
        """The form (modal) the bot answered with: its title and each field's label, value, placeholder…."""
        return form_of(await self.modal_data(timeout))

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.label!r} callbacks={[t for t, _ in self.callbacks]}>"
