"""What Discord would render as markup in a text the bot sent: the oracle for
"user-typed text is shown literally" (tests/bot, tests/e2e, tests/reliability)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_MASKED_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_BLOCK = re.compile(r"(?m)^\s*(#{1,3}\s|>|-#\s)")
_TAG = re.compile(r"<(#|t:|a?:|/)")


def renders_markup(text: str) -> list[str]:
    """The kinds of markup (links, URLs, code fences, spoilers, underline, headings,
    quotes, subtext, channel/time/emoji tags) Discord would render in `text`; an
    escaped character (a backslash before it) counts as plain."""
    plain = re.sub(r"\\.", "·", text)
    found = []
    for kind, pattern in (("masked link", _MASKED_LINK), ("url", _URL), ("block markup", _BLOCK), ("tag", _TAG)):
        if pattern.search(plain):
            found.append(kind)
    for kind, token in (("code fence", "```"), ("spoiler", "||"), ("underline", "__")):
        if token in plain:
            found.append(kind)
    return found


def texts_of(message) -> Iterator[tuple[str, str]]:
    """(where, text) of every text a recorded message shows: every revision's content,
    embed parts, component labels and select options, and attached text files."""
    for number, revision in enumerate(message.revisions):
        where = f"message {message.id} rev {number}"
        yield f"{where} content", revision.content or ""
        for embed in revision.embeds or []:
            yield from _embed_texts(where, embed)
        for comp in _components(revision.components or []):
            if comp.get("label"):
                yield f"{where} label", comp["label"]
            for option in comp.get("options") or []:
                yield f"{where} select option", option.get("label", "")
        for attachment in revision.attachments or []:
            data = attachment.data.decode("utf-8", "replace") if attachment.data else ""
            if attachment.filename.endswith(".md"):
                # A Markdown log: its own heading aside, every table row is reposted text.
                data = "\n".join(line for line in data.splitlines() if line.startswith("|"))
            yield f"{where} file {attachment.filename}", data


def _embed_texts(where: str, embed: dict[str, Any]) -> Iterator[tuple[str, str]]:
    yield f"{where} embed title", embed.get("title") or ""
    yield f"{where} embed description", embed.get("description") or ""
    for field in embed.get("fields") or []:
        yield f"{where} field name", field.get("name") or ""
        yield f"{where} field value", field.get("value") or ""
    yield f"{where} footer", (embed.get("footer") or {}).get("text") or ""


def _components(components) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from _components(comp.get("components") or [])


def markup_in(messages, channels=()) -> list[str]:
    """Every place in `messages` where Discord would render markup; `channels`: ids the bot
    itself names with a channel mention (a /campaign bind answer), not typed text."""
    own = [f"<#{channel}>" for channel in channels]

    def typed(text: str) -> str:
        for mention in own:
            text = text.replace(mention, "#channel")
        return text

    return [
        f"{where}: {kinds} in {text[:200]!r}"
        for message in messages
        for where, text in texts_of(message)
        if (kinds := renders_markup(typed(text)))
    ]
