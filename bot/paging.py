"""Long lists as pages with ◀ / ▶ buttons that keep working after a restart.

A page button's custom id names what it pages (the tracker of an encounter, a
server's character list) and the page it leads to; a click renders that page
from the saved data and edits the message in place.
"""

from __future__ import annotations

import re

import discord

from rules import registry
from rules.said import say

from . import render, translation
from .core import core_of
from .interact import let_go, refuse
from .places import campaign_key

CHARACTER_LINES = 15


def _buttons(kind: str, key: str, page: int, pages: int) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, key, page - 1, "◀", disabled=page <= 1))
    view.add_item(PageButton(kind, key, 0, f"{page}/{pages}", disabled=True, slot="here"))
    view.add_item(PageButton(kind, key, page + 1, "▶", disabled=page >= pages))
    return view


# --- the tracker (/initiative order) ---------------------------------------------------
def tracker_page(system, state, encounter_id: int, page: int | None = None):
    """(embed, view) for one page of the tracker; without `page`, the page of the current turn."""
    pages = len(render.tracker_pages(system, state))
    page = render.current_page(system, state) if page is None else max(1, min(page, pages))
    embed = render.tracker_embed(system, state, encounter_id, page=page)
    return embed, _buttons("order", str(encounter_id), page, pages)


# --- the character list -----------------------------------------------------------------
def character_lines(records) -> list[str]:
    """One line per character: a long name is cut on its own line, never hiding the next."""
    return [render.fit(f"• **{render.shown_name(r.name)}** — <@{r.owner_id}> ({r.system})", 300) for r in records]


def character_page(records, owner_id: int | None, page: int = 1):
    """(content, view) for one page of /character list."""
    pages = render.page_lines(character_lines(records), per_page=CHARACTER_LINES, limit=1800)
    page = max(1, min(page, len(pages)))
    text = "\n".join(pages[page - 1])
    if len(pages) > 1:
        where = say("Page {page}/{pages} · {n} characters", page=page, pages=len(pages), n=len(records))
        text += f"\n*{render.words(where)}*"
    return text, _buttons("chars", str(owner_id or 0), page, len(pages))


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tk:page:(?P<kind>order|chars):(?P<key>\d+):(?P<page>\d+)(?::(?P<slot>\w+))?",
):
    def __init__(self, kind: str, key: str, page: int, label: str, *, disabled: bool = False, slot: str = "") -> None:
        custom_id = f"tk:page:{kind}:{key}:{max(page, 0)}" + (f":{slot}" if slot else "")
        # Arrows and page numbers: no words to translate.
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id, disabled=disabled)
        )
        self.kind, self.key, self.page = kind, key, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["kind"], match["key"], int(match["page"]), "·")

    async def callback(self, interaction: discord.Interaction) -> None:
        translation.speaking(interaction)
        core = core_of(interaction)
        if self.kind == "order":
            found = await core.peek(interaction.channel_id) if interaction.channel_id is not None else None
            if found is None or found[0].id != int(self.key):
                over = say("That encounter is over: /initiative order shows the current one.")
                await refuse(interaction, ValueError(over))
                return
            record, state = found
            embed, view = tracker_page(registry.get(record.system), state, record.id, self.page)
            await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=render.NOBODY)
            let_go(view)
            return
        owner = int(self.key) or None
        records = await core.repo.list_characters(await campaign_key(interaction), owner_id=owner, limit=1000)
        content, view = character_page(records, owner, self.page)
        await interaction.response.edit_message(
            content=content or render.words("No characters."), view=view, allowed_mentions=render.NOBODY
        )
        let_go(view)


DYNAMIC_ITEMS = (PageButton,)
