"""The Combat Clock as a picture for the turn message.

A 10×10 grid of phases — this round's ten phases on the first row, the
following rounds below — with each combatant's token on the phase where they
will next act, the current phase outlined, and a legend naming the tokens.
The same encounter always gives the same bytes, so messages can be compared
and cached.
"""

from __future__ import annotations

import io
import unicodedata
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from rules import registry
from rules.model import Encounter
from rules.said import joined_lines, say, say_plural
from rules.text import Text
from rules.turns.clock import Clock, ClockEntry, ClockState
from rules.usertext import listed, mark

from . import render

SIZE = 600
GRID = 10
CELL = 52
LEFT = 40  # room for the round labels
TOP = 36  # room for the title
ALT_TEXT_LIMIT = 1024  # an attachment's description (its alt text), as Discord's API takes it
LEGEND_TOP = TOP + GRID * CELL + 6
LEGEND_LINE = 17
LEGEND_LINES = 2
TOKEN_RADIUS = 9.5
BACKGROUND = (250, 248, 240)
LINE = (170, 165, 150)
TEXT = (40, 40, 40)
FAINT = (150, 145, 135)
CURRENT_FILL = (255, 236, 160)
CURRENT_EDGE = (214, 150, 0)
DOWN = (150, 150, 150)
SIDE_COLOURS = {"heroes": (46, 94, 170), "threats": (185, 45, 45)}
OTHER_COLOURS = ((40, 140, 80), (140, 70, 160), (200, 120, 30), (30, 140, 150))
MAX_TOKENS = 4  # per cell; more are counted as "+n"


@cache
def _font(size: int):
    return ImageFont.load_default(size=size)


# Beyond ASCII, the built-in font draws "·", the title's separator.
DRAWN_PUNCTUATION = frozenset("·")


def plain(text: Text | str) -> str:
    """The built-in font has ASCII and a little punctuation only: accents dropped, other letters as `?`.

    An image shows no markup, so a name is drawn exactly as typed."""
    folded = unicodedata.normalize("NFKD", render.plain(text) if isinstance(text, Text) else text)
    kept = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return "".join(ch if _drawable(ch) else "?" for ch in kept)


def _drawable(ch: str) -> bool:
    return (ch.isascii() and ch.isprintable()) or ch in DRAWN_PUNCTUATION


def initials(name: str) -> str:
    words = plain(name).split()
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].title()
    return (words[0][0] + words[-1][0]).upper()


def token_labels(enc: Encounter) -> dict[str, str]:
    """Initials, made unique: a clash falls back to the first letter and the
    combatant's place in the encounter (or the place alone, if even that is taken)."""
    first = {c.id: initials(c.name) for c in enc.combatants}
    counts: dict[str, int] = {}
    for label in first.values():
        counts[label] = counts.get(label, 0) + 1
    labels = {cid: label for cid, label in first.items() if counts[label] == 1}
    used = set(labels.values())
    for index, c in enumerate(enc.combatants, start=1):
        if c.id not in labels:
            label = f"{first[c.id][0]}{index}"
            labels[c.id] = label if label not in used else str(index)
            used.add(labels[c.id])
    return labels


def side_colour(side: str, sides: tuple[str, ...]) -> tuple[int, int, int]:
    if side in SIDE_COLOURS:
        return SIDE_COLOURS[side]
    others = sorted(s for s in sides if s not in SIDE_COLOURS)
    index = others.index(side) if side in others else 0
    return OTHER_COLOURS[index % len(OTHER_COLOURS)]


def can_act(enc: Encounter, combatant) -> bool:
    try:
        return registry.get(enc.system).can_act(enc, combatant)
    except Exception:  # a system missing from this build: draw everyone as able
        return not combatant.out


def _cell_box(index: int) -> tuple[int, int, int, int]:
    row, col = divmod(index, GRID)
    x, y = LEFT + col * CELL, TOP + row * CELL
    return x, y, x + CELL, y + CELL


def clock_of(enc: Encounter) -> ClockState:
    """The encounter's turns, which run on the phase clock (`rules.turns.clock`)."""
    state = enc.turns
    if not isinstance(state, ClockState):
        raise TypeError(f"encounter of {enc.system} does not run on the phase clock")
    return state


def _members(enc: Encounter, cid: str) -> tuple[str, ...]:
    """Who stands on a clock entry's place: the combatant, and any companion sharing it."""
    turns = registry.get(enc.system).turns
    return turns.members(enc, cid) if isinstance(turns, Clock) else (cid,)


def tokens_at(enc: Encounter, first: int, cells_count: int = GRID * GRID) -> tuple[dict[int, list], list]:
    """Combatants by cell (phase ``first`` in cell 0), in acting order; holders apart. Someone whose
    phase has passed (down, waiting to be healed) stands on the current phase. The fight page draws
    its clock from this too."""
    clock = clock_of(enc)
    cells: dict[int, list] = {}
    holding = []
    for entry in sorted(clock.entries, key=ClockEntry.order):
        for combatant in (enc.get(cid) for cid in _members(enc, entry.cid)):
            if combatant.out:
                continue
            if entry.held_since is not None:
                holding.append(combatant)
                continue
            index = max(entry.phase, clock.phase) - first
            if 0 <= index < cells_count:
                cells.setdefault(index, []).append(combatant)
    for occupants in cells.values():
        occupants.sort(key=lambda c: not can_act(enc, c))  # stable: acting order first, the fallen after
    return cells, holding


def on_the_clock(enc: Encounter) -> list:
    """Who has a token, in the encounter's order: whoever is on the clock and not out."""
    placed = {cid for e in clock_of(enc).entries for cid in _members(enc, e.cid)}
    return [c for c in enc.combatants if not c.out and c.id in placed]


def _token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], label: str, colour, ring: bool) -> None:
    x, y = centre
    r = TOKEN_RADIUS
    draw.ellipse(
        (x - r, y - r, x + r, y + r),
        fill=colour,
        outline=(255, 255, 255) if ring else (60, 60, 60),
        width=3 if ring else 1,
    )
    draw.text((x, y), label, fill=(255, 255, 255), font=_font(10), anchor="mm")


def _legend(enc: Encounter, labels: dict[str, str], holding: list) -> list[str]:
    held = {c.id for c in holding}
    names = [
        f"{labels[c.id]} = " + (_shown(say("{name} (holding)", name=mark(c.name))) if c.id in held else plain(c.name))
        for c in on_the_clock(enc)
    ]
    return names + [_shown(say("grey: cannot act")), _shown(say("white ring: acting now"))]


def _shown(text: Text | str) -> str:
    """Words drawn into the picture, in the readers' language (the bot's seam, as for a button)."""
    return plain(render.plain(text))


def _wrap(draw: ImageDraw.ImageDraw, parts: list[str], width: int, lines: int) -> list[str]:
    font = _font(11)
    rows: list[str] = []
    row = ""
    for part in parts:
        candidate = f"{row}   ·   {part}" if row else part
        if row and draw.textlength(candidate, font=font) > width:
            rows.append(row)
            row = part
        else:
            row = candidate
    rows.append(row)
    if len(rows) > lines:
        rows = rows[: lines - 1] + [rows[lines - 1] + " …"]
    return rows


@lru_cache(maxsize=4)
def _grid(first: int) -> Image.Image:
    """The numbered cells and round labels, the same for every clock on these ten rounds."""
    image = Image.new("RGB", (SIZE, SIZE), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for index in range(GRID * GRID):
        _cell(draw, index, first, None)
    for row in range(GRID):
        y = TOP + row * CELL + CELL // 2
        draw.text((LEFT // 2, y), f"R{first // GRID + row + 1}", fill=TEXT, font=_font(11), anchor="mm")
    return image


def _cell(draw: ImageDraw.ImageDraw, index: int, first: int, fill) -> None:
    box = _cell_box(index)
    draw.rectangle(box, fill=fill, outline=LINE)
    draw.text((box[0] + 3, box[1] + 1), str(first + index), fill=FAINT, font=_font(9))


def describe_clock(enc: Encounter) -> str:
    """The picture in words, as its alt text: whose turn it is, who stands on which phase (those
    who cannot act said so, not only drawn grey) and who holds. No markup: alt text shows none."""
    state = clock_of(enc)
    first = (state.phase // GRID) * GRID
    cells, holding = tokens_at(enc, first)
    parts: list[Text] = [say("Combat Clock, round {round}, phase {phase}.", round=max(enc.round, 1), phase=state.phase)]
    acting = [c for c in map(enc.get, _members(enc, state.current)) if not c.out] if state.current else []
    if acting:  # a master and its companion activate together
        names = listed(mark(c.name) for c in acting)
        parts.append(say_plural("{names} acts now.", "{names} act now.", len(acting), names=names))
    for index, occupants in sorted(cells.items()):
        names = listed(
            mark(c.name) if can_act(enc, c) else say("{name} (cannot act)", name=mark(c.name)) for c in occupants
        )
        parts.append(say("Phase {phase}: {names}.", phase=first + index, names=names))
    if holding:
        parts.append(say("Holding: {names}.", names=listed(mark(c.name) for c in holding)))
    return render.fit(render.plain(joined_lines(parts)), ALT_TEXT_LIMIT)


def render_clock(enc: Encounter) -> bytes:
    """A PNG of the phase grid for a clock encounter (`enc.turns` is a ClockState)."""
    state = clock_of(enc)
    first = (state.phase // GRID) * GRID
    image = _grid(first).copy()
    draw = ImageDraw.Draw(image)
    draw.text(
        (LEFT, TOP // 2),
        _shown(say("Combat Clock · round {round} · phase {phase}", round=max(enc.round, 1), phase=state.phase)),
        fill=TEXT,
        font=_font(16),
        anchor="lm",
    )

    current_index = state.phase - first
    if 0 <= current_index < GRID * GRID:
        _cell(draw, current_index, first, CURRENT_FILL)
    x0, y0, x1, y1 = _cell_box(current_index)
    draw.rectangle((x0, y0, x1, y1), outline=CURRENT_EDGE, width=3)

    sides = tuple(sorted({c.side for c in enc.combatants}))
    labels = token_labels(enc)
    cells, holding = tokens_at(enc, first)
    for index, occupants in cells.items():
        x0, y0, _, _ = _cell_box(index)
        shown = occupants[:MAX_TOKENS] if len(occupants) <= MAX_TOKENS else occupants[: MAX_TOKENS - 1]
        for slot, combatant in enumerate(shown):
            row, col = divmod(slot, 2)
            centre = (x0 + 14 + col * 24, y0 + 22 + row * 19)
            colour = side_colour(combatant.side, sides) if can_act(enc, combatant) else DOWN
            _token(draw, centre, labels[combatant.id], colour, combatant.id == state.current)
        if len(occupants) > len(shown):
            draw.text((x0 + 38, y0 + 41), f"+{len(occupants) - len(shown)}", fill=TEXT, font=_font(11), anchor="mm")

    rows = _wrap(draw, _legend(enc, labels, holding), SIZE - 2 * LEFT, LEGEND_LINES)
    for number, text in enumerate(rows):
        draw.text((LEFT, LEGEND_TOP + number * LEGEND_LINE), text, fill=TEXT, font=_font(11), anchor="la")

    buffer = io.BytesIO()
    # Level 1 compresses nearly as well on these flat colours, in half the time.
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
