"""Discord's message limits, so a bot bug that production would answer with HTTP 400
also fails against the stand-in (https://discord.com/developers/docs/resources/message#create-message,
https://discord.com/developers/docs/resources/message#embed-object-embed-limits)."""

from __future__ import annotations

from typing import Any

from .components import component_problems
from .form_errors import Problem
from .messages import MessageBody
from .records import IS_COMPONENTS_V2, Revision

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000  # every embed of a message together
MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024
EMBED_LIMITS = {"title": 256, "description": 4096}
MAX_URL = 2048
# Every link a bot may give an embed, by its path in the embed.
EMBED_URLS = ("url", "author.url", "author.icon_url", "footer.icon_url", "image.url", "thumbnail.url")
MAX_COLOR = 0xFFFFFF
MAX_ATTACHMENTS = 10
MAX_FILENAME = 1024
MAX_ATTACHMENT_DESCRIPTION = 1024
MAX_NONCE = 25  # characters of a text nonce; a number nonce is a signed 64-bit integer
NONCE_RANGE = (-(2**63), 2**63 - 1)
COMPONENTS_ONLY = "Cannot send content or embeds with the components-v2 flag."


def _embed_problems(i: int, embed: dict[str, Any]) -> list[Problem]:
    problems = []
    for key, limit in EMBED_LIMITS.items():
        if len(embed.get(key) or "") > limit:
            problems.append(Problem(f"embeds.{i}.{key}", f"Must be {limit} or fewer in length."))
    fields = embed.get("fields") or []
    if len(fields) > 25:
        problems.append(Problem(f"embeds.{i}.fields", "Must be 25 or fewer in length."))
    for j, f in enumerate(fields):
        for key, limit in (("name", 256), ("value", 1024)):
            if not 1 <= len(f.get(key) or "") <= limit:
                problems.append(Problem(f"embeds.{i}.fields.{j}.{key}", f"Must be between 1 and {limit} in length."))
    if len(_footer(embed)) > 2048:
        problems.append(Problem(f"embeds.{i}.footer.text", "Must be 2048 or fewer in length."))
    if len(_author(embed)) > 256:
        problems.append(Problem(f"embeds.{i}.author.name", "Must be 256 or fewer in length."))
    for path in EMBED_URLS:
        if len(_at(embed, path)) > MAX_URL:
            problems.append(Problem(f"embeds.{i}.{path}", f"Must be {MAX_URL} or fewer in length."))
    color = embed.get("color")
    if color is not None and not (isinstance(color, int) and 0 <= color <= MAX_COLOR):
        problems.append(Problem(f"embeds.{i}.color", f"Must be between 0 and {MAX_COLOR}."))
    return problems


def _at(embed: dict[str, Any], path: str) -> str:
    """The text at a dotted ``path`` of an embed ("image.url"), "" where there is none."""
    node: Any = embed
    for key in path.split("."):
        node = (node or {}).get(key)
    return node or ""


def _attachment_problems(attachments: list[dict[str, Any]]) -> list[Problem]:
    """The ``attachments`` a message lists (its files, named and described), whatever files it uploads."""
    if len(attachments) > MAX_ATTACHMENTS:
        return [Problem("attachments", f"Must be {MAX_ATTACHMENTS} or fewer in length.")]
    problems = []
    for i, item in enumerate(attachments):
        filename = item.get("filename")
        if filename is not None and not 1 <= len(filename) <= MAX_FILENAME:
            problems.append(Problem(f"attachments.{i}.filename", f"Must be between 1 and {MAX_FILENAME} in length."))
        if len(item.get("description") or "") > MAX_ATTACHMENT_DESCRIPTION:
            problems.append(
                Problem(f"attachments.{i}.description", f"Must be {MAX_ATTACHMENT_DESCRIPTION} or fewer in length.")
            )
    return problems


def _nonce_problems(nonce: Any) -> list[Problem]:
    if isinstance(nonce, str) and len(nonce) > MAX_NONCE:
        return [Problem("nonce", f"Must be {MAX_NONCE} or fewer in length.")]
    if isinstance(nonce, int) and not NONCE_RANGE[0] <= nonce <= NONCE_RANGE[1]:
        return [Problem("nonce", f"Must be between {NONCE_RANGE[0]} and {NONCE_RANGE[1]}.")]
    return []


def _footer(embed: dict[str, Any]) -> str:
    return (embed.get("footer") or {}).get("text") or ""


def _author(embed: dict[str, Any]) -> str:
    return (embed.get("author") or {}).get("name") or ""


def embed_characters(embed: dict[str, Any]) -> int:
    """What counts towards the 6000: title, description, field names and values, footer text, author name."""
    fields = embed.get("fields") or []
    return (
        len(embed.get("title") or "")
        + len(embed.get("description") or "")
        + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
        + len(_footer(embed))
        + len(_author(embed))
    )


def message_problems(body: MessageBody, flags: int = 0) -> list[Problem]:
    """Why Discord would refuse the message; [] if it would accept it. An edit is read by the flags it sends,
    else by those of the message it edits, `flags` (an edit that sends flags without IS_COMPONENTS_V2 has its
    components read as a legacy message's, although the message keeps the flag)."""
    p = body.payload
    problems = []
    content = p.get("content") or ""
    embeds = p.get("embeds") or []
    if len(content) > MAX_CONTENT:
        problems.append(Problem("content", f"Must be {MAX_CONTENT} or fewer in length."))
    if len(embeds) > MAX_EMBEDS:
        problems.append(Problem("embeds", f"Must be {MAX_EMBEDS} or fewer in length."))
    for i, embed in enumerate(embeds):
        problems.extend(_embed_problems(i, embed))
    if sum(embed_characters(e) for e in embeds) > MAX_EMBED_TOTAL:
        problems.append(Problem("embeds", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"))
    components = p.get("components") or []
    sent = p.get("flags")
    if (flags if sent is None else int(sent)) & IS_COMPONENTS_V2:
        problems.extend(_not_components(content, embeds))
    else:
        problems.extend(component_problems(components))
    problems.extend(_attachment_problems(p.get("attachments") or []))
    problems.extend(_nonce_problems(p.get("nonce")))
    if len(body.files) > MAX_FILES:
        problems.append(Problem("files", f"Must be {MAX_FILES} or fewer in length."))
    for f in body.files:
        if len(f.data) > MAX_FILE_BYTES:
            problems.append(Problem(f"files.{f.index}", f"File cannot be larger than {MAX_FILE_BYTES} bytes."))
    return problems


def components_only_problems(rev: Revision) -> list[Problem]:
    """A components-v2 message shows components only: an edit that would leave it content or embeds (one that
    sends them, or sets the flag without clearing them) is refused
    (https://discord.com/developers/docs/resources/message#edit-message)."""
    return _not_components(rev.content, rev.embeds) if rev.flags & IS_COMPONENTS_V2 else []


def _not_components(content: str, embeds: list[dict[str, Any]]) -> list[Problem]:
    shown = {"content": content, "embeds": embeds}
    return [Problem(field, COMPONENTS_ONLY) for field, value in shown.items() if value]


def is_empty(body: MessageBody) -> bool:
    """A new message with nothing in it, which Discord refuses with 50006."""
    p = body.payload
    return _shows_nothing(
        p.get("content"), p.get("embeds"), p.get("components"), body.files, p.get("sticker_ids"), p.get("poll")
    )


def leaves_empty(rev: Revision) -> bool:
    """An edit that would leave the message with nothing in it, which Discord refuses with 50006 too."""
    return _shows_nothing(rev.content, rev.embeds, rev.components, rev.attachments, rev.sticker_ids, rev.poll)


def _shows_nothing(*parts: object) -> bool:
    return not any(parts)
