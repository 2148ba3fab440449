"""Buttons that keep working after a restart: their custom ids carry all they need.

A custom id names the encounter and the turn (or the exact question) it was made
for. Turn numbers and choice numbers restart in every encounter and after an undo,
so a click is applied only to that encounter, and a choice only to the question
whose signature it carries; anything else is refused privately and the stale
message loses its buttons.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

import discord

from rules.actions import Choose, EndEncounter, EndTurn
from rules.said import N_

from . import render
from .lengths import SELECT_LABEL

if TYPE_CHECKING:
    from .app import TurnkeeperBot


def _bot(interaction: discord.Interaction) -> TurnkeeperBot:
    """The bot plays a click through its one command path; the buttons cannot import that path,
    since it is what posts them."""
    return cast("TurnkeeperBot", interaction.client)


class EndTurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tk:end:(?P<eid>\d+):(?P<turn>\d+)"):
    def __init__(self, encounter_id: int, turn_no: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=render.label("End turn"),
                style=discord.ButtonStyle.primary,
                custom_id=f"tk:end:{encounter_id}:{turn_no}",
            )
        )
        self.encounter_id = encounter_id
        self.turn_no = turn_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["eid"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        turn_no = self.turn_no
        await _bot(interaction).play(
            interaction,
            lambda by, system, state: EndTurn(by=by, turn_no=turn_no),
            N_("End turn (button)"),
            encounter_id=self.encounter_id,
        )


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button],
    # Buttons posted before choices carried a signature have none: they still answer by number.
    template=r"tk:choose:(?P<eid>\d+):(?P<pid>\d+):(?P<idx>\d+)(?::(?P<sig>[0-9a-f]{8}))?",
):
    def __init__(
        self, encounter_id: int, pending_id: int, index: int, label: str = "?", signature: str | None = None
    ) -> None:
        custom_id = f"tk:choose:{encounter_id}:{pending_id}:{index}" + (f":{signature}" if signature else "")
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.secondary, custom_id=custom_id))
        self.encounter_id = encounter_id
        self.pending_id = pending_id
        self.index = index
        self.signature = signature

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["eid"]), int(match["pid"]), int(match["idx"]), signature=match["sig"])

    async def callback(self, interaction: discord.Interaction) -> None:
        choose = dict(pending_id=self.pending_id, index=self.index, signature=self.signature)
        await _bot(interaction).play(
            interaction,
            lambda by, system, state: Choose(by=by, **choose),
            N_("choice (button)"),
            encounter_id=self.encounter_id,
        )


class EndEncounterButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tk:endenc:(?P<eid>\d+)"):
    """The GM's confirmation of /encounter end, on the private question it asks."""

    def __init__(self, encounter_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=render.label("End the encounter"),
                style=discord.ButtonStyle.danger,
                custom_id=f"tk:endenc:{encounter_id}",
            )
        )
        self.encounter_id = encounter_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["eid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).play(
            interaction, lambda by, system, state: EndEncounter(by=by), "/encounter end", encounter_id=self.encounter_id
        )


def menu_index(value: str) -> int:
    """A menu's value as the index it was offered under (``str(i)``), else -1: a client may send any value."""
    if value.isascii() and value.isdigit() and len(value) <= 3 and value == str(int(value)):
        return int(value)
    return -1


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tk:pick:(?P<eid>\d+):(?P<pid>\d+)(?::(?P<sig>[0-9a-f]{8}))?",
):
    """A choice with more options than a row of buttons holds (a dozen guards…): one menu,
    bound like the buttons to the exact question it was made for."""

    def __init__(
        self, encounter_id: int, pending_id: int, labels: tuple[str, ...] = (), signature: str | None = None
    ) -> None:
        options = [discord.SelectOption(label=label[:100] or "?", value=str(i)) for i, label in enumerate(labels[:25])]
        custom_id = f"tk:pick:{encounter_id}:{pending_id}" + (f":{signature}" if signature else "")
        super().__init__(
            discord.ui.Select(
                placeholder=render.label("Choose…", SELECT_LABEL),
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="?", value="0")],
            )
        )
        self.encounter_id = encounter_id
        self.pending_id = pending_id
        self.signature = signature

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["eid"]), int(match["pid"]), signature=match["sig"])

    async def callback(self, interaction: discord.Interaction) -> None:
        # A select menu's data carries the values picked (a str each).
        values = cast(list[str], dict(interaction.data or {}).get("values") or ["x"])
        index = menu_index(str(values[0]))  # -1, out of range, is refused
        choose = dict(pending_id=self.pending_id, index=index, signature=self.signature)
        await _bot(interaction).play(
            interaction,
            lambda by, system, state: Choose(by=by, **choose),
            "choice (menu)",
            encounter_id=self.encounter_id,
        )
