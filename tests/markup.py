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

# The bot's own lines use bold, italics and strikethrough (a heading, a fallen combatant),
# so emphasis cannot be flagged in general. These payloads carry words no rule writes:
# wherever a user typed one, it must show with a backslash before each markup character.
EMPHASIS = ("**zqbold**", "*zqital*", "_zqund_", "`zqcode`", "~~zqstrike~~")
_WORD = r"(?i:zq(?:bold|ital|und|code|strike))"  # the rules may change a typed word's case
_IN_CODE = re.compile(f"`{_WORD}|{_WORD}`")
_CODE_SPAN = re.compile(r"`[^`]*`")
_ONE_LINE_SPAN = re.compile(r"`[^`\n]+`")
_EMPHASISED = re.compile(f"[*_~]{_WORD}|{_WORD}[*_~]")
_ESCAPE_SHOWN = re.compile(f"(?:\\\\[*_~`])+{_WORD}|{_WORD}(?:\\\\[*_~`])+")


def renders_markup(text: str, *, shows: str = "markdown") -> list[str]:
    """The kinds of markup (links, URLs, code fences, spoilers, underline, headings,
    quotes, subtext, channel/time/emoji tags, and the emphasis of an `EMPHASIS`
    payload) Discord would render in `text`; an escaped character (a backslash
    before it) counts as plain.

    `shows`: "markdown" for messages, embeds and the Markdown log; "plain" for a
    place that shows no markup (a button label), where a payload must appear as
    typed, without backslashes; "data" for a file that is not read as Markdown."""
    plain = re.sub(r"\\.", "·", text)
    # Nothing in a code span on one line is markup (a refusal quotes a name in one); with a fence
    # in the text, spans are not told apart from it, and the whole text counts.
    outside = plain if "```" in plain else _ONE_LINE_SPAN.sub("`·`", plain)
    found = []
    for kind, pattern in (("masked link", _MASKED_LINK), ("url", _URL), ("block markup", _BLOCK), ("tag", _TAG)):
        if pattern.search(outside):
            found.append(kind)
    for kind, token in (("code fence", "```"), ("spoiler", "||"), ("underline", "__")):
        if token in (plain if token == "```" else outside):
            found.append(kind)
    if shows == "markdown" and (_IN_CODE.search(plain) or _EMPHASISED.search(_CODE_SPAN.sub("", plain))):
        found.append("emphasis")
    if shows == "plain" and _ESCAPE_SHOWN.search(text):
        found.append("backslashes in plain text")
    return found


def shows_of(where: str) -> str:
    """How the place `texts_of` names shows text (see `renders_markup`)."""
    if where.endswith(("label", "select option")):
        return "plain"
    if " file " in where and not where.endswith(".md"):
        return "data"
    return "markdown"


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
            if attachment.filename.endswith(".png"):
                continue  # a picture (the phase clock) draws its names as plain text (render.label)
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

    def culprit(text: str, shows: str) -> str:
        """The first line that renders markup by itself (the whole text when none does)."""
        return next((line for line in text.splitlines() if renders_markup(line, shows=shows)), text)

    return [
        f"{where}: {kinds} in {culprit(text, shows)[:300]!r}"
        for message in messages
        for where, text in texts_of(message)
        if (kinds := renders_markup(typed(text), shows=(shows := shows_of(where))))
    ]
