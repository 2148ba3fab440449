"""The message book: creating, editing, deleting and pinning recorded messages, plus the
chronological event log transcripts are rendered from."""

from __future__ import annotations

import copy
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .mentions import compute_pings, validate_allowed_mentions
from .records import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    REPLY,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    RecordedAttachment,
    RecordedMessage,
    Revision,
)
from .waiting import Notifier
from .world import Channel, World

if TYPE_CHECKING:
    from .interactions import InteractionHandle

# Flags a sender may set on a new message; everything else is Discord-controlled.
SETTABLE_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2


@dataclass
class UploadedFile:
    index: int  # N in the multipart field name files[N]
    filename: str
    content_type: str
    data: bytes


@dataclass
class MessageBody:
    """A message create/edit request: the JSON payload plus uploaded files."""

    payload: dict[str, Any]
    files: list[UploadedFile] = field(default_factory=list)


@dataclass
class Event:
    """One line-worthy happening, in order: kinds are ``create``, ``edit``, ``delete``,
    ``pin``, ``unpin``, ``interaction``."""

    kind: str
    message: RecordedMessage | None = None
    revision: int = 0
    interaction: InteractionHandle | None = None


def guess_content_type(filename: str, sent: str) -> str:
    # discord.py labels every upload application/octet-stream; Discord sniffs the name.
    if sent and sent != "application/octet-stream":
        return sent
    if filename.lower().endswith(".md"):
        return "text/markdown; charset=utf-8"
    guessed, _ = mimetypes.guess_type(filename)
    if guessed and guessed.startswith("text/"):
        return guessed + "; charset=utf-8"
    return guessed or sent or "application/octet-stream"


def _edited_list(payload: dict[str, Any], key: str, current: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """On edit a field changes only if its key is sent; null or [] clears it."""
    return copy.deepcopy(payload[key] or [] if key in payload else current)


def _edited_flags(current: int, asked: int | None) -> int:
    """Discord lets an edit set or clear SUPPRESS_EMBEDS and set IS_COMPONENTS_V2, which no edit
    clears again; it ignores any other change without error, so no edit makes a message ephemeral or
    public (https://discord.com/developers/docs/resources/message#edit-message)."""
    if asked is None:
        return current
    return (current & ~SUPPRESS_EMBEDS) | (int(asked) & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))


class MessageBook:
    def __init__(self, world: World, notifier: Notifier, attachment_url: Callable[[int, int, str], str]) -> None:
        self.world = world
        self.notifier = notifier
        self._attachment_url = attachment_url
        self.messages: list[RecordedMessage] = []
        self.by_id: dict[int, RecordedMessage] = {}
        # A channel's messages, in order: a scan of every message per look-up made a large world quadratic.
        self._by_channel: dict[int, list[RecordedMessage]] = {}
        self.events: list[Event] = []
        self.listeners: list[Callable[[Event], None]] = []

    def _emit(self, event: Event) -> None:
        self.events.append(event)
        for listener in self.listeners:
            listener(event)
        self.notifier.notify()

    def log_interaction(self, handle: InteractionHandle) -> None:
        self._emit(Event("interaction", interaction=handle))

    # -- building revisions -------------------------------------------------
    def _attachments(
        self, channel_id: int, body: MessageBody, keep: list[RecordedAttachment]
    ) -> list[RecordedAttachment]:
        files = {f.index: f for f in body.files}
        listed = body.payload.get("attachments")
        if listed is None:
            listed = [{"id": f.index, "filename": f.filename} for f in body.files]
        existing = {a.id: a for a in keep}
        out = []
        for item in listed:
            ref = int(item["id"])
            upload = files.get(ref)
            if upload is not None:
                att_id = self.world.ids.next()
                name = item.get("filename") or upload.filename
                out.append(
                    RecordedAttachment(
                        att_id,
                        name,
                        guess_content_type(name, upload.content_type),
                        upload.data,
                        self._attachment_url(channel_id, att_id, name),
                        item.get("description"),
                    )
                )
            elif ref in existing:
                out.append(existing[ref])
        return out

    def _pings_for(self, msg: RecordedMessage, rev: Revision, *, ephemeral: bool):
        guild = self.world.guilds.get(msg.guild_id) if msg.guild_id else None
        replied = self.by_id[msg.reply_to].author_id if msg.reply_to in self.by_id else None
        return compute_pings(
            rev.content, rev.allowed_mentions, guild, msg.author_id, replied_user_id=replied, ephemeral=ephemeral
        )

    # -- operations ---------------------------------------------------------
    def create(
        self,
        channel: Channel,
        author_id: int,
        body: MessageBody,
        *,
        interaction: InteractionHandle | None = None,
        followup: bool = False,
        type: int = 0,
        loading: bool = False,
    ) -> RecordedMessage:
        p = body.payload
        validate_allowed_mentions(p.get("allowed_mentions"))
        flags = int(p.get("flags") or 0) & SETTABLE_FLAGS
        if interaction is None:
            # Only an interaction's answers can be ephemeral: Discord shows a channel message to all.
            flags &= ~EPHEMERAL
        if loading:
            flags |= LOADING
        msg_id = self.world.ids.next()
        ref = p.get("message_reference") or {}
        reply_to = int(ref["message_id"]) if ref.get("message_id") else None
        rev = Revision(
            content=p.get("content") or "",
            embeds=copy.deepcopy(p.get("embeds") or []),
            components=copy.deepcopy(p.get("components") or []),
            flags=flags,
            allowed_mentions=copy.deepcopy(p.get("allowed_mentions")),
            sticker_ids=list(p.get("sticker_ids") or []),
            poll=copy.deepcopy(p.get("poll")),
        )
        msg = RecordedMessage(
            msg_id,
            channel.id,
            channel.guild_id,
            author_id,
            [rev],
            type=REPLY if reply_to and type == 0 else type,
            interaction=interaction,
            is_followup=followup,
            reply_to=reply_to,
        )
        rev.attachments = self._attachments(channel.id, body, [])
        rev.mentions = self._pings_for(msg, rev, ephemeral=False)
        if not loading:
            msg.pings = self._pings_for(msg, rev, ephemeral=bool(flags & EPHEMERAL))
        self.messages.append(msg)
        self.by_id[msg.id] = msg
        self._by_channel.setdefault(msg.channel_id, []).append(msg)
        self._emit(Event("create", msg, 0))
        return msg

    def revise(self, msg: RecordedMessage, body: MessageBody) -> Revision:
        """What ``msg`` would show after the edit ``body``: a field not sent keeps its value."""
        p = body.payload
        validate_allowed_mentions(p.get("allowed_mentions"))
        cur = msg.current
        rev = Revision(
            content=cur.content if "content" not in p else (p["content"] or ""),
            embeds=_edited_list(p, "embeds", cur.embeds),
            components=_edited_list(p, "components", cur.components),
            flags=_edited_flags(cur.flags & ~LOADING, p.get("flags")),
            allowed_mentions=copy.deepcopy(p["allowed_mentions"]) if "allowed_mentions" in p else cur.allowed_mentions,
            sticker_ids=list(cur.sticker_ids),  # an edit takes no stickers or poll: they stay as sent
            poll=cur.poll,
        )
        if "attachments" in p or body.files:
            rev.attachments = self._attachments(msg.channel_id, body, cur.attachments)
            if "attachments" not in p:
                rev.attachments = list(cur.attachments) + rev.attachments
        else:
            rev.attachments = list(cur.attachments)
        return rev

    def edit(self, msg: RecordedMessage, rev: Revision) -> RecordedMessage:
        """Show ``rev`` (from ``revise``) as the message's newest state."""
        was_loading = msg.loading
        rev.mentions = self._pings_for(msg, rev, ephemeral=False)
        msg.revisions.append(rev)
        if was_loading:
            # The first edit of a deferred response is when the message really appears,
            # and Discord notifies its mentions then; later edits never notify.
            msg.pings = self._pings_for(msg, rev, ephemeral=msg.ephemeral)
        else:
            msg.edited_ids.append(self.world.ids.next())
        self._emit(Event("create" if was_loading else "edit", msg, len(msg.revisions) - 1))
        return msg

    def delete(self, msg: RecordedMessage) -> None:
        msg.deleted = True
        self._emit(Event("delete", msg, len(msg.revisions) - 1))

    def set_pinned(self, msg: RecordedMessage, pinned: bool) -> None:
        if msg.pinned != pinned:
            msg.pinned = pinned
            msg.pinned_id = self.world.ids.next() if pinned else None
            self._emit(Event("pin" if pinned else "unpin", msg, len(msg.revisions) - 1))

    # -- queries ------------------------------------------------------------
    def get(self, message_id: int) -> RecordedMessage | None:
        return self.by_id.get(message_id)

    def in_channel(
        self, channel: Channel, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[RecordedMessage]:
        return [
            m
            for m in self._by_channel.get(channel.id, ())
            if (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
        ]

    def pinned_in(self, channel: Channel) -> list[RecordedMessage]:
        return [m for m in self.in_channel(channel) if m.pinned]
