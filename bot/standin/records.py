"""What the bot sent: messages with their full edit history, attachments and pings."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .mentions import NO_PINGS, Pings
from .payloads import user_payload
from .snowflakes import iso_time

if TYPE_CHECKING:
    from .interactions import InteractionHandle
    from .world import World

SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# Message types (https://discord.com/developers/docs/resources/message#message-object-message-types)
DEFAULT = 0
REPLY = 19
CHAT_INPUT_COMMAND = 20


@dataclass
class RecordedAttachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "description": self.description,
        }


@dataclass
class Revision:
    """One state of a message; ``RecordedMessage.revisions[0]`` is how it was first sent."""

    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[RecordedAttachment] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    mentions: Pings = NO_PINGS  # what the content of this revision resolves to
    sticker_ids: list[str] = field(default_factory=list)
    poll: dict[str, Any] | None = None  # set when the message is sent; no edit removes it


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Depth-first walk over action rows, containers, sections (accessories) and leaves."""
    for comp in components:
        yield comp
        yield from iter_components(comp.get("components") or [])
        if comp.get("accessory"):
            yield from iter_components([comp["accessory"]])
        if comp.get("component"):
            yield from iter_components([comp["component"]])


@dataclass(eq=False)
class RecordedMessage:
    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    revisions: list[Revision]
    type: int = DEFAULT
    interaction: InteractionHandle | None = None  # the interaction this message answers
    is_followup: bool = False
    pings: Pings = NO_PINGS  # who was notified when the message appeared (edits never notify)
    pinned: bool = False
    pinned_id: int | None = None  # snowflake of the pin moment
    deleted: bool = False
    reply_to: int | None = None
    edited_ids: list[int] = field(default_factory=list)  # snowflakes of edit moments

    # -- latest state -------------------------------------------------------
    @property
    def current(self) -> Revision:
        return self.revisions[-1]

    @property
    def content(self) -> str:
        return self.current.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.current.embeds

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.current.components

    @property
    def attachments(self) -> list[RecordedAttachment]:
        return self.current.attachments

    @property
    def flags(self) -> int:
        return self.current.flags

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.current.allowed_mentions

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred ("is thinking…") response not yet edited."""
        return bool(self.flags & LOADING)

    @property
    def edit_history(self) -> list[Revision]:
        """Revisions a user could have seen (the deferred placeholder is left out)."""
        return [r for r in self.revisions if not r.flags & LOADING]

    @property
    def edited(self) -> bool:
        return len(self.edit_history) > 1

    # -- pings --------------------------------------------------------------
    @property
    def pinged_user_ids(self) -> frozenset[int]:
        return self.pings.user_ids

    @property
    def pinged_role_ids(self) -> tuple[int, ...]:
        return self.pings.role_ids

    @property
    def pinged_everyone(self) -> bool:
        return self.pings.everyone

    # -- components ---------------------------------------------------------
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def find_component(self, *, label: str | None = None, custom_id: str | None = None) -> dict[str, Any]:
        for comp in iter_components(self.components):
            if comp.get("type") in (1, 9, 10, 17):  # layout, not interactive
                continue
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and (comp.get("label") == label or comp.get("placeholder") == label):
                return comp
        raise LookupError(f"message {self.id} has no component label={label!r} custom_id={custom_id!r}")

    def has_component(self, **kwargs: Any) -> bool:
        try:
            self.find_component(**kwargs)
        except LookupError:
            return False
        return True

    # -- wire format --------------------------------------------------------
    def payload(self, world: World) -> dict[str, Any]:
        rev = self.current
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": rev.content,
            "author": user_payload(world.users[self.author_id]),
            "attachments": [a.payload() for a in rev.attachments],
            "embeds": copy.deepcopy(rev.embeds),
            "components": copy.deepcopy(rev.components),
            "mentions": [user_payload(world.users[u]) for u in rev.mentions.direct_user_ids if u in world.users],
            "mention_roles": [str(r) for r in rev.mentions.role_ids],
            "mention_everyone": rev.mentions.everyone,
            "pinned": self.pinned,
            "tts": False,
            "timestamp": iso_time(self.id),
            "edited_timestamp": iso_time(self.edited_ids[-1]) if self.edited_ids else None,
            "flags": rev.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.interaction is not None:
            data["webhook_id"] = str(world.application_id)
            data["application_id"] = str(world.application_id)
            data["interaction_metadata"] = self.interaction.metadata_payload()
        if self.reply_to is not None:
            data["message_reference"] = {
                "type": 0,
                "message_id": str(self.reply_to),
                "channel_id": str(self.channel_id),
                "guild_id": str(self.guild_id) if self.guild_id else None,
            }
        return data
