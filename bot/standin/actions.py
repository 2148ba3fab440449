"""What simulated users do: run slash commands, type into autocomplete, click
buttons, pick select options, submit modals, chat.  Mixed into ``StandIn``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import interactions as ix
from .commands import CommandPath, CommandRegistry, InvalidInvocation
from .interactions import InteractionHandle, base_payload
from .messages import MessageBody, MessageBook
from .modals import filled, form_of, refusal
from .options import OptionBuilder, describe_invocation, nest_options
from .records import RecordedMessage
from .waiting import StandInTimeout
from .world import Channel, User, UserRef, World

if TYPE_CHECKING:
    from .gateway import Gateway
    from .waiting import Notifier

ChannelRef = Channel | str | int | None


class NoBotSession(StandInTimeout):
    """No connected bot session serves the guild an interaction was aimed at."""


class UserActions:
    """Simulated users' side of ``StandIn``; every action returns an ``InteractionHandle``
    (or the recorded message for ``say``) without waiting for the bot."""

    world: World
    commands: CommandRegistry
    book: MessageBook
    gateway: Gateway
    notifier: Notifier
    interactions: list[InteractionHandle]
    interactions_by_id: dict[int, InteractionHandle]
    interactions_by_token: dict[str, InteractionHandle]

    def channel(self, ref: ChannelRef = None) -> Channel:
        return self.world.channel(ref)

    def _send_interaction(
        self, type: int, user: User, channel: Channel, data: dict[str, Any], label: str, **extra: Any
    ) -> InteractionHandle:
        guild = self.world.guild_of_channel(channel)
        session = self.gateway.session_for_guild(guild.id)
        if session is None:
            raise NoBotSession(f"no live bot gateway session serves guild {guild.name!r} (shard math: id >> 22)")
        iid = self.world.ids.now()
        token = f"standin-interaction-token-{iid}"
        payload = base_payload(self.world, id=iid, token=token, type=type, user=user, guild=guild, channel=channel)
        payload["data"] = data
        if extra.get("source_message") is not None:
            payload["message"] = extra["source_message"].payload(self.world)
        handle = InteractionHandle(
            self.notifier,
            id=iid,
            token=token,
            type=type,
            user=user,
            guild=guild,
            channel=channel,
            payload=payload,
            label=label,
            **extra,
        )
        handle.session = session
        self.interactions.append(handle)
        self.interactions_by_id[iid] = handle
        self.interactions_by_token[token] = handle
        if type != ix.AUTOCOMPLETE:
            self.book.log_interaction(handle)
        session.dispatch("INTERACTION_CREATE", payload)
        return handle

    def _command_data(
        self, user: User, channel: Channel, command: str, values: dict[str, Any], focused: str | None = None
    ) -> tuple[CommandPath, dict[str, Any]]:
        guild = self.world.guild_of_channel(channel)
        cmd = self.commands.resolve(command, guild.id)
        builder = OptionBuilder(self.world, guild, channel)
        leaf = builder.build(cmd, values, focused=focused)
        data: dict[str, Any] = {
            "id": cmd.top["id"],
            "name": cmd.top["name"],
            "type": 1,
            "options": nest_options(cmd, leaf),
        }
        if builder.resolved:
            data["resolved"] = builder.resolved
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        return cmd, data

    async def invoke(
        self,
        user: UserRef,
        command: str,
        options: dict[str, Any] | None = None,
        /,
        *,
        in_channel: ChannelRef = None,
        **option_values: Any,
    ) -> InteractionHandle:
        """A user runs a slash command: ``await standin.invoke("alice", "/initiative add", name="Orc")``.

        Options are validated against the synced schema (``InvalidInvocation`` if
        Discord's client would refuse); users/roles/channels may be names or objects.
        """
        u, channel = self.world.user(user), self.channel(in_channel)
        values = {**(options or {}), **option_values}
        cmd, data = self._command_data(u, channel, command, values)
        label = describe_invocation(u.name, cmd.path, values, self.world, cmd, self.world.guild_of_channel(channel))
        return self._send_interaction(ix.APPLICATION_COMMAND, u, channel, data, label, command=cmd, options=values)

    async def autocomplete(
        self,
        user: UserRef,
        command: str,
        focused: str,
        options: dict[str, Any] | None = None,
        /,
        *,
        in_channel: ChannelRef = None,
        **option_values: Any,
    ) -> InteractionHandle:
        """A user types into an autocomplete option; ``await handle.choices()`` gives the answer."""
        u, channel = self.world.user(user), self.channel(in_channel)
        values = {**(options or {}), **option_values}
        cmd, data = self._command_data(u, channel, command, values, focused=focused)
        label = f"{u.name}: {cmd.path} (autocomplete {focused})"
        return self._send_interaction(ix.AUTOCOMPLETE, u, channel, data, label, command=cmd, options=values)

    def _visible_to(self, msg: RecordedMessage, user: User) -> bool:
        return not msg.ephemeral or (msg.interaction is not None and msg.interaction.user.id == user.id)

    def find_message_with(
        self,
        user: UserRef,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        in_channel: ChannelRef = None,
    ) -> RecordedMessage:
        """Newest message in the channel the user can see that has this component."""
        u, channel = self.world.user(user), self.channel(in_channel)
        for msg in reversed(self.book.in_channel(channel, include_ephemeral=True)):
            if self._visible_to(msg, u) and msg.has_component(label=label, custom_id=custom_id):
                return msg
        raise InvalidInvocation(
            f"{u.name} sees no message in #{channel.name} with component label={label!r} custom_id={custom_id!r}"
        )

    def _component(
        self, u: User, label: str | None, custom_id: str | None, message: RecordedMessage | None, in_channel: ChannelRef
    ) -> tuple[RecordedMessage, dict[str, Any]]:
        """The component a user acts on, on ``message`` or the newest message showing it."""
        if message is None:
            message = self.find_message_with(u, label=label, custom_id=custom_id, in_channel=in_channel)
        elif message.deleted or not self._visible_to(message, u):
            raise InvalidInvocation(f"{u.name} cannot see message {message.id}")
        return message, message.find_component(label=label, custom_id=custom_id)

    def _use(
        self, u: User, message: RecordedMessage, comp: dict[str, Any], data: dict[str, Any], text: str
    ) -> InteractionHandle:
        channel = self.world.channels[message.channel_id]
        return self._send_interaction(
            ix.MESSAGE_COMPONENT, u, channel, data, text, source_message=message, custom_id=comp["custom_id"]
        )

    async def click(
        self,
        user: UserRef,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        message: RecordedMessage | None = None,
        in_channel: ChannelRef = None,
    ) -> InteractionHandle:
        """A user clicks a button (by label or custom_id) on ``message`` or the newest one showing it."""
        u = self.world.user(user)
        message, comp = self._component(u, label, custom_id, message, in_channel)
        if comp.get("type") != 2 or not comp.get("custom_id"):
            raise InvalidInvocation(f"component {label or custom_id!r} is not a clickable button")
        if comp.get("disabled"):
            raise InvalidInvocation(f"button {label or custom_id!r} is disabled")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        if comp.get("id") is not None:
            data["id"] = comp["id"]
        return self._use(u, message, comp, data, f'{u.name}: click "{comp.get("label") or comp["custom_id"]}"')

    async def select(
        self,
        user: UserRef,
        values: list[str],
        *,
        label: str | None = None,
        custom_id: str | None = None,
        message: RecordedMessage | None = None,
        in_channel: ChannelRef = None,
    ) -> InteractionHandle:
        """A user picks ``values`` in a string select menu (found by placeholder or custom_id)."""
        u = self.world.user(user)
        message, comp = self._component(u, label, custom_id, message, in_channel)
        if comp.get("type") != 3:
            raise InvalidInvocation("only string select menus (type 3) are supported")
        offered = [o["value"] for o in comp.get("options") or []]
        bad = [v for v in values if v not in offered]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if bad or not lo <= len(values) <= hi:
            raise InvalidInvocation(
                f"select {comp['custom_id']!r}: values {values} invalid (offered {offered}, {lo}..{hi})"
            )
        data = {"custom_id": comp["custom_id"], "component_type": 3, "values": list(values)}
        return self._use(
            u, message, comp, data, f"{u.name}: select {comp.get('placeholder') or comp['custom_id']!r} {values}"
        )

    async def submit_modal(
        self, user: UserRef, opened_by: InteractionHandle, values: dict[str, str]
    ) -> InteractionHandle:
        """A user fills and submits the modal the bot opened in answer to ``opened_by``."""
        return await self.submit(user, opened_by, values)

    async def submit(self, user: UserRef, opened_by: InteractionHandle, values: dict[str, str]) -> InteractionHandle:
        """A user fills the form the bot opened in answer to ``opened_by`` and sends it:
        ``await standin.submit("alice", opened, {"Attributes": "dex=2\ncon=1"})``. Fields are named by
        label (or custom id); a field not named keeps what it was opened with. Only the user the form
        was opened for sends it, and only as Discord's client would (required fields, lengths)."""
        u = self.world.user(user)
        if opened_by.modal is None:
            raise InvalidInvocation(f"{opened_by.label!r} did not open a modal")
        if u.id != opened_by.user.id:
            raise InvalidInvocation(f"the form was opened for {opened_by.user.name}, not {u.name}")
        form = form_of(opened_by.modal)
        problem = refusal(form, values)
        if problem:
            raise InvalidInvocation(problem)
        row = [{"type": 4, "custom_id": t.custom_id, "value": filled(t, values)} for t in form.inputs]
        data = {"custom_id": form.custom_id, "components": [{"type": 1, "components": [c]} for c in row]}
        return self._send_interaction(
            ix.MODAL_SUBMIT,
            u,
            opened_by.channel,
            data,
            f"{u.name}: submit {form.title!r}",
            source_message=opened_by.source_message,
            custom_id=form.custom_id,
        )

    async def say(self, user: UserRef, content: str, *, in_channel: ChannelRef = None) -> RecordedMessage:
        """A user posts a plain message (dispatched as MESSAGE_CREATE)."""
        u, channel = self.world.user(user), self.channel(in_channel)
        return self.book.create(channel, u.id, MessageBody({"content": content}))
