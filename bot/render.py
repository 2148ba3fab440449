"""How encounters look in Discord: texts, embeds, buttons and who gets pinged.

Every message the bot sends goes through `allowed(...)`: only the users a rule
means to ping are pingable, never @everyone, @here or a role, whatever text a
player typed into a name.
"""

from __future__ import annotations

import io

import discord

from rules.model import Encounter, Event
from rules.secrets import conceal, has_secrets, reveal
from rules.system import System

CONTENT_LIMIT = 2000
DESCRIPTION_LIMIT = 4000
LINES_PER_PAGE = 20
LINE_LIMIT = 300
NOBODY = discord.AllowedMentions.none()


def allowed(users) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(id=u) for u in users]
    )


def clean(text: str, *, gm: bool = False) -> str:
    """Player-typed text shown as typed, but never as a mention or markup trick.

    A hidden NPC's numbers in it show as "?" unless the text is for the GM alone."""
    text = discord.utils.escape_mentions(reveal(text) if gm else conceal(text))
    return text.replace("@", "@\u200b")


def mention(users) -> str:
    return " ".join(f"<@{u}>" for u in users)


def fit(text: str, limit: int = CONTENT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def event_lines(events, *, skip_turns: bool = True, gm: bool = False) -> str:
    lines = []
    for event in events:
        if skip_turns and event.kind == "turn":
            continue
        prefix = {"round": "🔔 **", "roll": "🎲 ", "warning": "⚠️ ", "end": "🏁 "}.get(event.kind, "")
        suffix = "**" if event.kind == "round" else ""
        lines.append(f"{prefix}{clean(event.text, gm=gm)}{suffix}")
    return "\n".join(lines)


def gm_view(events) -> str | None:
    """The events with a hidden NPC's numbers shown, for the GM alone; None when nothing was hidden."""
    if not any(has_secrets(event.text) for event in events):
        return None
    return fit(f"🔒 Only you see this: the hidden numbers.\n{event_lines(events, gm=True)}")


def pings_of(events) -> list[int]:
    users: list[int] = []
    for event in events:
        if event.kind == "turn":
            continue
        for user in event.ping:
            if user not in users:
                users.append(user)
    return users


def result_content(events, *, leave_out=()) -> tuple[str, discord.AllowedMentions]:
    """The public answer to a command, pinging whoever an event asks for.

    `leave_out`: users another message pings anyway (a new choice pings its choosers).
    """
    users = [u for u in pings_of(events) if u not in leave_out]
    turns = [e.text for e in events if e.kind == "turn"]
    text = event_lines(events) or (f"➡️ {clean(turns[-1])}" if turns else "Done.")
    if users:
        text = f"{mention(users)}\n{text}"
    return fit(text), allowed(users)


def _combatant_line(system: System, state: Encounter, cid: str, reveal_all: bool) -> str:
    combatant = state.get(cid)
    reveal = reveal_all or not combatant.hidden
    status = system.status_line(state, combatant, reveal=reveal)
    owner = f" (<@{combatant.controller_id}>)" if combatant.controller_id else ""
    dead = "~~" if combatant.out else ""
    return f"{dead}{clean(combatant.name)}{dead}{owner}" + (f" — {clean(status, gm=reveal_all)}" if status else "")


def tracker_pages(system: System, state: Encounter, *, reveal: bool = False) -> list[str]:
    lines = []
    for line in system.turns.lines(system, state):
        marker = "▶️" if line.current and state.status == "running" else "▫️"
        entries = [_combatant_line(system, state, c, reveal) for c in line.cids] or ["—"]
        note = f" *({clean(line.note, gm=reveal)})*" if line.note else ""
        label = clean(line.label, gm=reveal)
        text = f"{marker} `{label:>8}` {'; '.join(entries)}{note}"
        if len(text) <= LINE_LIMIT:
            lines.append(text)
            continue
        # A long shared turn gets a line per combatant: cut at LINE_LIMIT, one line
        # would hide everyone after the cut.
        lines.append(f"{marker} `{label:>8}` {entries[0]}{note}")
        lines += [f"{marker} `{'':>8}` {entry}" for entry in entries[1:]]
    if not lines:
        lines = ["Nobody yet: /initiative join (players) and /initiative add (GM)."]
    pages, page = [], []
    for line in lines:
        if len(page) >= LINES_PER_PAGE or len("\n".join(page + [line])) > DESCRIPTION_LIMIT:
            pages.append("\n".join(page))
            page = []
        page.append(fit(line, LINE_LIMIT))
    pages.append("\n".join(page))
    return pages


def tracker_embed(system: System, state: Encounter, encounter_id: int, *, page: int = 1, reveal: bool = False) -> discord.Embed:
    pages = tracker_pages(system, state, reveal=reveal)
    page = max(1, min(page, len(pages)))
    running = system.turns.round_label(state)
    status = {"setup": "setting up", "running": running, "ended": "ended"}[state.status]
    embed = discord.Embed(title=f"{system.name} — {status}", description=pages[page - 1], colour=discord.Colour.dark_teal())
    footer = f"Encounter #{encounter_id}"
    if len(pages) > 1:
        footer += f" · page {page}/{len(pages)} (/encounter status page:N)"
    if state.pending:
        embed.add_field(name="Waiting for a choice", value=fit(clean(state.pending.prompt), 1000), inline=False)
    embed.set_footer(text=footer)
    return embed


def clock_picture(state: Encounter) -> discord.File | None:
    """The phase clock as an image, for systems whose turns run on the clock."""
    if state.turns.structure != "clock":
        return None
    from .clock_image import render_clock

    return discord.File(io.BytesIO(render_clock(state)), filename="clock.png")


def turn_message(system: System, state: Encounter, encounter_id: int, picture: discord.File | None = None):
    """The ping for whoever acts now, with what is left of the turn and an End turn button
    (``picture``: the clock from ``clock_picture``, for systems on the phase clock)."""
    from .buttons import EndTurnButton  # buttons import render for their replies

    waiting = system.turns.waiting(state)
    content = fit(f"{mention(waiting.users)} **{clean(waiting.title)}** · {system.turns.round_label(state)}")
    embed = discord.Embed(colour=discord.Colour.gold())
    for cid in waiting.cids[:10]:
        combatant = state.get(cid)
        lines = [system.status_line(state, combatant, reveal=not combatant.hidden)]
        lines += system.turn_summary(state, cid)
        value = "\n".join(clean(line) for line in lines if line) or "—"
        embed.add_field(name=fit(clean(combatant.name), 250), value=fit(value, 1000), inline=False)
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.filename}")
    view = discord.ui.View(timeout=None)
    if system.turns.acting(state):  # a faction choosing whom to activate has no turn to end yet
        view.add_item(EndTurnButton(encounter_id, state.turn_no))
    return content, embed, view, allowed(waiting.users), picture


MAX_CHOICE_BUTTONS = 5


def choice_message(state: Encounter, encounter_id: int):
    from .buttons import ChoiceButton, ChoiceSelect

    pending = state.pending
    users = list(pending.users) or [state.gm_id]
    content = fit(
        f"{mention(users)} {clean(pending.prompt)} *(default if nobody answers: {clean(pending.default)}; "
        "to enter your own roll, use /choose with dice: or cards:)*"
    )
    view = discord.ui.View(timeout=None)
    if len(pending.options) > MAX_CHOICE_BUTTONS:  # a dozen buttons read badly: one menu instead
        labels = tuple(conceal(o) for o in pending.options)
        view.add_item(ChoiceSelect(encounter_id, pending.id, labels, signature=pending.signature))
        return content, view, allowed(users)
    for index, option in enumerate(pending.options[:25]):
        view.add_item(ChoiceButton(encounter_id, pending.id, index, label=conceal(option), signature=pending.signature))
    return content, view, allowed(users)
