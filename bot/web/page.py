"""The fight as HTML: the same public facts as the pinned tracker (`bot.render.tracker_lines`), another medium.

Every word comes from the rules' text values through `bot.html_text`, which escapes all of it and conceals a
hidden NPC's numbers; nothing here is ever rendered for the GM. A view is a few fragments of HTML: the whole page
is made of them, and a change is sent to open pages as the same fragments (`bot.web.server`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from rules import usertext
from rules.model import Encounter
from rules.said import N_, joined, say
from rules.system import System
from rules.text import Text
from rules.turns.clock import ClockState

from .. import render
from ..clock_image import MAX_TOKENS, can_act, on_the_clock, token_labels, tokens_at
from ..html_text import html_text
from ..repository import EventRecord

# How many of the last results the page shows.
LAST_RESULTS = 5
PHASES = 10  # a round of the Combat Clock
CLOCK_ROWS = 3  # this round and the next two
CELL = 40
TOKEN = 11


@dataclass(frozen=True, slots=True)
class View:
    """What open pages show, as escaped HTML fragments by the id of the element they fill."""

    version: int
    title: str
    round: str
    now: str
    waiting: str
    order: str
    clock: str
    results: str

    def fragments(self) -> dict[str, str | int]:
        return {
            "v": self.version,
            "title": self.title,
            "round": self.round,
            "now": self.now,
            "waiting": self.waiting,
            "order": self.order,
            "clock": self.clock,
            "results": self.results,
        }


def view(system: System, state: Encounter, version: int, events: Sequence[EventRecord]) -> View:
    return View(
        version=version,
        title=html_text(say("{system} — the fight", system=system.name)),
        round=html_text(_round(system, state)),
        now=html_text(_acting(system, state)),
        waiting=_waiting(state),
        order=_order(system, state),
        clock=clock_svg(state) if isinstance(state.turns, ClockState) else "",
        results=_results(events),
    )


def _round(system: System, state: Encounter) -> Text:
    if state.status == "running":
        return system.turns.round_label(state)
    return say("ended") if state.status == "ended" else say("setting up")


def _acting(system: System, state: Encounter) -> Text:
    if state.status == "ended":
        return say("The encounter is over.")
    if state.status == "running":
        acting = system.turns.acting(state)
        if acting:
            names = [usertext.mark(state.get(cid).name) for cid in acting]
            return say("Acting now: {who}", who=joined(", ", names))
        # Nobody acts yet, but someone may: a side choosing whom to take its turn with. The turn message's words.
        waiting = system.turns.waiting(system, state)
        if waiting.cids:
            return waiting.title
    return say("Nobody is acting.")


def _combatant(system: System, state: Encounter, cid: str) -> str:
    combatant = state.get(cid)
    status = system.status_line(state, combatant, reveal=not combatant.hidden)
    name = html_text(usertext.mark(combatant.name))
    shown = f"<s>{name}</s>" if combatant.out else name
    detail = f' <span class="status">{html_text(status)}</span>' if status else ""
    return f'<li class="who"><span class="name">{shown}</span>{detail}</li>'


def _order(system: System, state: Encounter) -> str:
    lines = system.turns.lines(system, state)
    if not lines:
        return f'<li class="slot empty">{html_text(N_("Nobody yet."))}</li>'
    items = []
    for line in lines:
        current = line.current and state.status == "running"
        entries = "".join(_combatant(system, state, cid) for cid in line.cids) or '<li class="who">—</li>'
        note = f' <span class="note">{html_text(line.note)}</span>' if line.note else ""
        attrs = ' class="slot current" aria-current="true"' if current else ' class="slot"'
        items.append(
            f'<li{attrs}><span class="label">{html_text(line.label)}</span>{note}<ul class="who">{entries}</ul></li>'
        )
    return "".join(items)


def _waiting(state: Encounter) -> str:
    """The choice the fight waits on, as the tracker shows it (`bot.render.tracker_embed`); nothing once answered."""
    if state.pending is None:
        return ""
    return f"<h2>{html_text(N_('Waiting for a choice'))}</h2><p>{html_text(state.pending.prompt)}</p>"


def _results(events: Sequence[EventRecord]) -> str:
    """The last few results, oldest first, as the channel read them (a hidden NPC's numbers concealed)."""
    shown = [event for event in events if not event.undone][:LAST_RESULTS]
    return "".join(f"<li>{html_text(event.summary)}</li>" for event in reversed(shown))


def clock_svg(state: Encounter) -> str:
    """The Combat Clock as the turn message draws it (`bot.clock_image`): this round's phases and the next,
    each combatant's token on the phase where they next act, the current phase outlined."""
    clock = state.turns
    if not isinstance(clock, ClockState):
        return ""
    first = (clock.phase // PHASES) * PHASES
    labels = token_labels(state)
    cells, _ = tokens_at(state, first, PHASES * CLOCK_ROWS)
    width, height = 40 + PHASES * CELL, CLOCK_ROWS * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{html.escape(render.plain(_clock_title(state, clock)), quote=True)}">'
    ]
    for row in range(CLOCK_ROWS):
        y = row * CELL
        parts.append(f'<text x="4" y="{y + CELL // 2 + 5}" class="r">R{first // PHASES + row + 1}</text>')
        for col in range(PHASES):
            index = row * PHASES + col
            x = 40 + col * CELL
            now = index == clock.phase - first
            cls = "cell now" if now else "cell"
            parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" class="{cls}"/>')
            parts.append(f'<text x="{x + 3}" y="{y + 11}" class="n">{first + index}</text>')
            occupants = cells.get(index, [])
            # As on the picture: a full cell shows one token less and counts the others, so nobody goes unseen.
            shown = occupants if len(occupants) <= MAX_TOKENS else occupants[: MAX_TOKENS - 1]
            for slot, combatant in enumerate(shown):
                cid = combatant.id
                cx, cy = _slot(x, y, slot)
                acting = " acting" if cid == clock.current else ""
                # As on the picture: who cannot act (down, out) is greyed, whatever their side.
                if not can_act(state, combatant):
                    side = "down"
                else:
                    side = "heroes" if combatant.side == "heroes" else "others"
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="{TOKEN // 2 + 2}" class="t {side}{acting}"/>')
                parts.append(f'<text x="{cx}" y="{cy + 3}" class="l">{html.escape(labels[cid])}</text>')
            if len(occupants) > len(shown):
                cx, cy = _slot(x, y, len(shown))
                parts.append(f'<text x="{cx}" y="{cy + 3}" class="more">+{len(occupants) - len(shown)}</text>')
    parts.append("</svg>")
    legend = "".join(
        f"<li><b>{html.escape(labels[c.id])}</b> {html_text(usertext.mark(c.name))}</li>" for c in on_the_clock(state)
    )
    return "".join(parts) + f'<ul class="legend">{legend}</ul>'


def _slot(x: int, y: int, slot: int) -> tuple[int, int]:
    """The centre of a cell's `slot`th token: two by two."""
    return x + 12 + (slot % 2) * 16, y + 20 + (slot // 2) * 12


def _clock_title(state: Encounter, clock: ClockState) -> Text:
    return say("Combat Clock · round {round} · phase {phase}", round=max(state.round, 1), phase=clock.phase)
