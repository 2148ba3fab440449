"""What the rules said, as HTML: the second medium the same text values render to (a web page of a fight).

Every character is escaped, the rules' own words included, so nothing a user typed (or a translator wrote)
can open a tag; typed text is kept apart in a `<bdi>` so a right-to-left name cannot reorder the sentence
around it. Discord's markup means nothing here, so the rules' own is translated: `**bold**` is shown as
<strong>, a command or option in backticks as <code>, a die a roll dropped (`~~3~~`) struck out as <s>.
What a user typed is never read as markup.
"""

from __future__ import annotations

import html
import re

from rules.text import Text, pieces

from . import translation

_MARKUP = (
    (re.compile(r"`([^`\n]+?)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"~~(.+?)~~"), r"<s>\1</s>"),
)


def html_text(text: Text | str, *, gm: bool = False) -> str:
    """The text in the readers' language as HTML; a hidden NPC's numbers are "?" unless `gm`."""
    if isinstance(text, str):
        read = translation.phrases()
        return _words(html.escape((read(text) if read else None) or text))
    out: list[str] = []
    run: list[str] = []  # the rules' own characters since the last typed text: their markup may span pieces
    for piece, typed in pieces(text, translation.phrases(), reveal=gm):
        if typed:
            out += [_words(html.escape("".join(run))), f"<bdi>{html.escape(piece)}</bdi>"]
            run = []
        else:
            run.append(piece)
    out.append(_words(html.escape("".join(run))))
    return "".join(out)


def _words(escaped: str) -> str:
    for pattern, tag in _MARKUP:
        escaped = pattern.sub(tag, escaped)
    return escaped
