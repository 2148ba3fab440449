"""Buttons that keep working after a restart: their custom ids carry all they need.

Custom ids name the encounter and the turn (or choice) they belong to, so a
click on an old message is refused by the rules ("That turn is already over")
instead of acting on a newer turn.
"""

from __future__ import annotations

import re

import discord

from rules.actions import Choose, EndTurn


class EndTurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tk:end:(?P<eid>\d+):(?P<turn>\d+)"):
    def __init__(self, encounter_id: int, turn_no: int) -> None:
        super().__init__(
            discord.ui.Button(label="End turn", style=discord.ButtonStyle.primary, custom_id=f"tk:end:{encounter_id}:{turn_no}")
        )
        self.encounter_id = encounter_id
        self.turn_no = turn_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["eid"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from .interact import run

        turn_no = self.turn_no
        await run(interaction, lambda by, system, state: EndTurn(by=by, turn_no=turn_no), "End turn (button)")


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tk:choose:(?P<eid>\d+):(?P<pid>\d+):(?P<idx>\d+)"):
    def __init__(self, encounter_id: int, pending_id: int, index: int, label: str = "?") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=discord.ButtonStyle.secondary,
                custom_id=f"tk:choose:{encounter_id}:{pending_id}:{index}",
            )
        )
        self.pending_id = pending_id
        self.index = index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["eid"]), int(match["pid"]), int(match["idx"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from .interact import run

        pending_id, index = self.pending_id, self.index

        def build(by, system, state):
            pending = state.pending
            if pending is None or pending.id != pending_id or index >= len(pending.options):
                from rules.errors import InvalidInput

                raise InvalidInput("That choice has already been made.")
            return Choose(by=by, pending_id=pending_id, option=pending.options[index])

        await run(interaction, build, "choice (button)")


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"tk:pick:(?P<eid>\d+):(?P<pid>\d+)"):
    """A choice with more options than a row of buttons holds (a dozen guards…): one menu."""

    def __init__(self, encounter_id: int, pending_id: int, labels: tuple[str, ...] = ()) -> None:
        options = [discord.SelectOption(label=label[:100] or "?", value=str(i)) for i, label in enumerate(labels[:25])]
        super().__init__(
            discord.ui.Select(
                placeholder="Choose…", custom_id=f"tk:pick:{encounter_id}:{pending_id}",
                options=options or [discord.SelectOption(label="?", value="0")],
            )
        )
        self.pending_id = pending_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(int(match["eid"]), int(match["pid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from .interact import run

        pending_id = self.pending_id
        picked = (interaction.data or {}).get("values") or ["-1"]
        index = int(picked[0]) if str(picked[0]).isdigit() else -1

        def build(by, system, state):
            pending = state.pending
            if pending is None or pending.id != pending_id or not 0 <= index < len(pending.options):
                from rules.errors import InvalidInput

                raise InvalidInput("That choice has already been made.")
            return Choose(by=by, pending_id=pending_id, option=pending.options[index])

        await run(interaction, build, "choice (menu)")
