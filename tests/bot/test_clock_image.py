"""The Combat Clock picture: a real PNG of the 10×10 phase grid."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).parents[1] / "rules"))

from bot.clock_image import CELL, CURRENT_EDGE, LEFT, SIDE_COLOURS, SIZE, TOP, initials, render_clock  # noqa: E402
from test_towers_helpers import full_fight  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def opened(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def cell_pixels(image: Image.Image, index: int) -> set:
    row, col = divmod(index, 10)
    x, y = LEFT + col * CELL, TOP + row * CELL
    return {image.getpixel((x + dx, y + dy)) for dx in range(4, CELL - 4) for dy in range(4, CELL - 4)}


def test_every_turn_message_gets_a_valid_png_of_the_right_size():
    turns = 0
    for label, out in full_fight():
        if not any(e.kind == "turn" for e in out.events):
            continue
        turns += 1
        image = opened(render_clock(out.state))
        assert image.size == (SIZE, SIZE) == (600, 600), label
    assert turns >= 10


def test_tokens_sit_on_their_phase_in_their_side_colour_and_the_current_phase_is_marked():
    states = [out.state for _, out in full_fight()]
    begun = states[3]  # Round 1 begins: Tony (a hero) in phase 5, Boss 6, Bandit 10
    image = opened(render_clock(begun))
    assert SIDE_COLOURS["heroes"] in cell_pixels(image, 5)
    assert SIDE_COLOURS["threats"] in cell_pixels(image, 6)
    assert SIDE_COLOURS["threats"] in cell_pixels(image, 10)
    assert SIDE_COLOURS["threats"] not in cell_pixels(image, 7)
    assert image.getpixel((LEFT + 5 * CELL + 1, TOP + CELL // 2)) == CURRENT_EDGE
    assert image.getpixel((LEFT + 6 * CELL + 1, TOP + CELL // 2)) != CURRENT_EDGE


def test_the_grid_starts_at_the_current_round():
    last = [out.state for _, out in full_fight()][-1]  # phase 34: the grid begins at phase 30
    image = opened(render_clock(last))
    tony_cell = 34 - 30
    assert SIDE_COLOURS["heroes"] in cell_pixels(image, tony_cell)


def test_the_same_encounter_always_draws_the_same_bytes():
    state = [out.state for _, out in full_fight()][8]
    assert render_clock(state) == render_clock(state)


def test_initials():
    assert initials("Tony Wright") == "TW"
    assert initials("Bandit 2") == "B2"
    assert initials("Boss") == "Bo"
