"""The messages that ask someone to act: the ping for whoever's turn it is (with its End turn
button and, on the phase clock, the clock's picture) and a pending choice with its buttons or menu."""

from __future__ import annotations

import io

import discord

from rules.model import Encounter
from rules.said import say, say_plural
from rules.secrets import secret
from rules.system import System

from .buttons import ChoiceButton, ChoiceSelect, EndTurnButton
from .clock_image import describe_clock, render_clock
from .lengths import CONTENT_LIMIT, SELECT_OPTIONS
from .render import add_turn_fields, allowed, clean, fit, fit_embed, label, mention, select_label


def on_clock(state: Encounter) -> bool:
    return state.turns.structure == "clock"


def clock_picture(state: Encounter) -> discord.File | None:
    """The phase clock as an image, for systems whose turns run on the clock."""
    if not on_clock(state):
        return None
    return discord.File(io.BytesIO(render_clock(state)), filename="clock.png", description=describe_clock(state))


def turn_message(system: System, state: Encounter, encounter_id: int, picture: discord.File | None = None):
    """The ping for whoever acts now, with what is left of the turn and an End turn button
    (``picture``: the clock from ``clock_picture``, for systems on the phase clock)."""
    waiting = system.turns.waiting(system, state)
    content = fit(f"{mention(waiting.users)} **{clean(waiting.title)}** · {clean(system.turns.round_label(state))}")
    embed = discord.Embed(colour=discord.Colour.gold())
    add_turn_fields(embed, system, state, waiting.cids)
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    fit_embed(embed)
    view = discord.ui.View(timeout=None)
    if system.turns.acting(state):  # a faction choosing whom to activate has no turn to end yet
        view.add_item(EndTurnButton(encounter_id, state.turn_no))
    return content, embed, view, allowed(waiting.users), picture


def turn_users(system: System, state: Encounter) -> tuple[int, ...]:
    """Whom ``turn_message`` pings."""
    return system.turns.waiting(system, state).users


def choosers(state: Encounter) -> list[int]:
    """Whom a pending choice asks: its players, or the GM when it names nobody."""
    pending = state.pending
    return list(pending.users) if pending is not None and pending.users else [state.gm_id]


def waited_on(system: System, state: Encounter) -> list[int]:
    """Whom the fight waits on, and so whom a reminder pings: a pending choice's choosers, else the turn's."""
    if state.pending is not None:
        return choosers(state)
    return list(turn_users(system, state))


MAX_CHOICE_BUTTONS = 5


def choice_message(state: Encounter, encounter_id: int):
    """The question of the encounter's pending choice, to whoever must answer (the GM if nobody is named)."""
    pending = state.pending
    if pending is None:
        raise ValueError(f"encounter {encounter_id} asks no question")
    users = choosers(state)
    default = pending.option(pending.default)
    shown = secret(default.label if default else pending.default, pending.default_secret)
    how = (
        say(
            "(default if nobody answers: {default}; to enter your own roll, use /choose with dice: or cards:)",
            default=shown,
        )
        if pending.rolls
        else say("(default if nobody answers: {default})", default=shown)
    )
    tail = f" *{clean(how)}*"
    total = len(pending.options)
    if total > SELECT_OPTIONS:
        # A menu holds only Discord's 25 (the rules list the options that matter most first): the question
        # says so, and how to reach the rest, since /choose's autocomplete searches every option.
        more = say_plural(
            "The menu shows {shown} of the {total} option: for the others, use /choose option: and type part of "
            "the one you want.",
            "The menu shows {shown} of the {total} options: for the others, use /choose option: and type part of "
            "the one you want.",
            total,
            shown=SELECT_OPTIONS,
            total=total,
        )
        tail += f"\n*{clean(more)}*"
    # A long question is cut, never what it says of its default and of the options the menu leaves out.
    content = fit(f"{mention(users)} {clean(pending.prompt)}", CONTENT_LIMIT - len(tail)) + tail
    view = discord.ui.View(timeout=None)
    if total > MAX_CHOICE_BUTTONS:  # a dozen buttons read badly: one menu instead
        labels = tuple(select_label(o.label) for o in pending.options[:SELECT_OPTIONS])
        view.add_item(ChoiceSelect(encounter_id, pending.id, labels, signature=pending.signature))
        return content, view, allowed(users)
    for index, option in enumerate(pending.options):
        view.add_item(
            ChoiceButton(encounter_id, pending.id, index, label=label(option.label), signature=pending.signature)
        )
    return content, view, allowed(users)
