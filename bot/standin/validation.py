"""Discord's message limits, so a bot bug that production would answer with HTTP 400
also fails against the stand-in (https://discord.com/developers/docs/resources/message#create-message)."""

from __future__ import annotations

from typing import Any

from .messages import MessageBody

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_ACTION_ROWS = 5
EMBED_LIMITS = {"title": 256, "description": 4096}


def _embed_problems(i: int, embed: dict[str, Any]) -> list[str]:
    problems = []
    total = 0
    for key, limit in EMBED_LIMITS.items():
        text = embed.get(key) or ""
        total += len(text)
        if len(text) > limit:
            problems.append(f"embeds[{i}].{key} is longer than {limit}")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        problems.append(f"embeds[{i}] has more than 25 fields")
    for j, f in enumerate(fields):
        if not f.get("name") or not f.get("value"):
            problems.append(f"embeds[{i}].fields[{j}] needs a non-empty name and value")
        if len(f.get("name") or "") > 256 or len(f.get("value") or "") > 1024:
            problems.append(f"embeds[{i}].fields[{j}] name/value too long (256/1024)")
        total += len(f.get("name") or "") + len(f.get("value") or "")
    footer = (embed.get("footer") or {}).get("text") or ""
    author = (embed.get("author") or {}).get("name") or ""
    if len(footer) > 2048:
        problems.append(f"embeds[{i}].footer.text is longer than 2048")
    if len(author) > 256:
        problems.append(f"embeds[{i}].author.name is longer than 256")
    total += len(footer) + len(author)
    if total > MAX_EMBED_TOTAL:
        problems.append(f"embeds[{i}] has more than {MAX_EMBED_TOTAL} characters in total")
    return problems


def message_problems(body: MessageBody, *, creating: bool) -> str | None:
    """None if Discord would accept the message, else the reason it would not."""
    p = body.payload
    problems = []
    content = p.get("content") or ""
    embeds = p.get("embeds") or []
    if len(content) > MAX_CONTENT:
        problems.append(f"content is {len(content)} characters, more than {MAX_CONTENT}")
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"more than {MAX_EMBEDS} embeds")
    for i, embed in enumerate(embeds):
        problems.extend(_embed_problems(i, embed))
    components = p.get("components") or []
    if not (p.get("flags") or 0) & (1 << 15) and len(components) > MAX_ACTION_ROWS:
        problems.append(f"more than {MAX_ACTION_ROWS} action rows")
    if len(body.files) > MAX_FILES:
        problems.append(f"more than {MAX_FILES} files")
    for f in body.files:
        if len(f.data) > MAX_FILE_BYTES:
            problems.append(f"file {f.filename} is larger than {MAX_FILE_BYTES} bytes")
    if creating and not (content or embeds or components or body.files or p.get("sticker_ids") or p.get("poll")):
        return "Cannot send an empty message"
    return "; ".join(problems) or None
