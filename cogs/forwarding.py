"""Slash commands that only hand their options to the channel's rule system.

Such a command's callback is its declaration: discord.py reads the slash schema from
its typed signature, and `forwarded` passes whatever the user gave on, by name, so
the options are listed once.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.interact import run


def forward(name: str, options: dict[str, Any]):
    """Build the action the channel's system declares for this command."""
    clean = {k: v for k, v in options.items() if v is not None}
    return lambda by, system, state: system.command(name, by, clean, state)


def forwarded(name: str, *, label: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Make a callback that only declares its options run the system's command `name`.

    `label` names the command in the log where Discord sent no command line (a format
    string over the options); by default the slash command's own path.
    """

    def wrap(declaration: Callable[..., Any]) -> Callable[..., Any]:
        async def callback(*bound: Any, **options: Any) -> None:
            interaction: discord.Interaction = bound[-1]  # after the cog, for a cog's command
            # A choice stands for its value, as a typed option would.
            given = {k: v.value if isinstance(v, app_commands.Choice) else v for k, v in options.items()}
            line = label.format_map(given) if label else f"/{interaction.command.qualified_name}"
            await run(interaction, forward(name, given), line)

        functools.update_wrapper(callback, declaration)
        # Annotations evaluated where they were written: discord.py would otherwise look
        # the names up in this module.
        callback.__signature__ = inspect.signature(declaration, eval_str=True)
        return callback

    return wrap
