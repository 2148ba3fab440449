"""The Combat Clock picture: a real PNG of the 10×10 phase grid."""

from __future__ import annotations

import io

from PIL import Image

from bot import translation
from bot.clock_image import (  # noqa: E402
    CELL,
    CURRENT_EDGE,
    DOWN,
    LEFT,
    SIDE_COLOURS,
    SIZE,
    TOP,
    _font,
    _legend,
    describe_clock,
    initials,
    plain,
    render_clock,
    token_labels,
    tokens_at,
)
from rules.said import say
from tests.catalogs import write_language
from tests.rules.test_towers_helpers import add, begin, full_fight, new  # noqa: E402

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


def states():
    return [out.state for _, out in full_fight()]


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
    begun = states()[4]  # Round 1 begins: Tony (a hero) in phase 5, Boss 6, Mira 8, Bandit 10
    image = opened(render_clock(begun))
    assert SIDE_COLOURS["heroes"] in cell_pixels(image, 5)
    assert SIDE_COLOURS["threats"] in cell_pixels(image, 6)
    assert SIDE_COLOURS["heroes"] in cell_pixels(image, 8)
    assert SIDE_COLOURS["threats"] in cell_pixels(image, 10)
    assert SIDE_COLOURS["threats"] not in cell_pixels(image, 7)
    assert image.getpixel((LEFT + 5 * CELL + 1, TOP + CELL // 2)) == CURRENT_EDGE
    assert image.getpixel((LEFT + 6 * CELL + 1, TOP + CELL // 2)) != CURRENT_EDGE


def test_the_grid_starts_at_the_current_round_and_the_fallen_stand_grey_on_the_current_phase():
    last = states()[-1]  # phase 25: the grid begins at phase 20; Mira acts, Tony next at 29
    assert last.turns.phase == 25
    image = opened(render_clock(last))
    assert SIDE_COLOURS["heroes"] in cell_pixels(image, 25 - 20)
    assert SIDE_COLOURS["heroes"] in cell_pixels(image, 29 - 20)
    # The dying Bandit and the unconscious Boss cannot act: grey, beside Mira.
    assert DOWN in cell_pixels(image, 25 - 20)
    assert SIDE_COLOURS["threats"] not in set().union(*(cell_pixels(image, i) for i in range(100)))


def test_a_holder_leaves_the_grid_and_a_dead_combatant_is_not_drawn():
    held = states()[5]  # Tony holds from phase 5; the Boss acts in 6
    image = opened(render_clock(held))
    assert SIDE_COLOURS["heroes"] not in cell_pixels(image, 5)
    assert SIDE_COLOURS["heroes"] not in cell_pixels(image, 6)
    dead = held.update(held.find("Bandit").id, out=True)
    assert SIDE_COLOURS["threats"] not in cell_pixels(opened(render_clock(dead)), 10)


def test_the_same_encounter_always_draws_the_same_bytes():
    state = states()[8]
    assert render_clock(state) == render_clock(state)


def test_initials_are_unique_tokens_and_names_are_drawable():
    assert initials("Tony Wright") == "TW"
    assert initials("Bandit 2") == "B2"
    assert initials("Boss") == "Bo"
    assert plain("Éowyn ♥") == "Eowyn ?"
    enc = add(add(add(new(), "Bandit 1", "9D").state, "Boss 1", "8D").state, "Tony", "7D").state
    labels = token_labels(enc)
    assert sorted(labels.values()) == ["B1", "B2", "To"]


def test_the_title_draws_its_middle_dots_which_the_font_has():
    assert plain(say("Combat Clock · round {round} · phase {phase}", round=2, phase=13)) == (
        "Combat Clock · round 2 · phase 13"
    )
    lacking = bytes(_font(16).getmask("♥"))  # what the font draws for a character it lacks
    assert bytes(_font(16).getmask("·")) != lacking


def test_a_companion_stands_on_its_masters_place():
    enc = add(new(), "Tony", "KH 4C", "init=2", player=True).state
    enc = add(enc, "Rex", "", "companion_of=Tony").state
    cells, _ = tokens_at(enc, 0)
    assert [c.name for c in cells[5]] == ["Tony", "Rex"]
    assert "Re = Rex" in _legend(enc, token_labels(enc), [])


def test_the_legend_is_drawn_in_the_servers_language(monkeypatch, tmp_path):
    french = {
        "grey: cannot act": "gris : ne peut pas agir",
        "white ring: acting now": "anneau blanc : agit maintenant",
        "{name} (holding)": "{name} (en attente)",
    }
    write_language(tmp_path, "fr", french)
    monkeypatch.setattr(translation, "CATALOG", translation.Catalog.read(tmp_path))
    held = states()[5]  # Tony holds from phase 5
    token = translation.LOCALE.set("fr")
    try:
        legend = _legend(held, token_labels(held), [held.find("Tony")])
    finally:
        translation.LOCALE.reset(token)
    assert legend[-2:] == ["gris : ne peut pas agir", "anneau blanc : agit maintenant"]
    assert "To = Tony (en attente)" in legend


def test_the_picture_has_words_for_a_screen_reader_whose_turn_and_who_stands_where():
    begun = states()[4]  # Round 1 begins: Tony (a hero) in phase 5, Boss 6, Mira 8, Bandit 10
    assert describe_clock(begun) == (
        "Combat Clock, round 1, phase 5. Tony acts now. Phase 5: Tony. Phase 6: Boss. Phase 8: Mira. Phase 10: Bandit."
    )
    last = states()[-1]  # phase 25: Mira acts beside the dying Bandit; the unconscious Boss, Tony next at 29
    assert describe_clock(last) == (
        "Combat Clock, round 3, phase 25. Mira acts now. Phase 25: Mira, Bandit (cannot act). "
        "Phase 28: Boss (cannot act). Phase 29: Tony."
    )
    held = states()[5]  # Tony holds from phase 5
    assert describe_clock(held).endswith("Holding: Tony.")


def test_the_description_keeps_within_discords_limit_and_names_as_typed():
    enc = new()
    for n in range(60):
        enc = add(enc, f"**Bandit** number {n:02}", "").state
    described = describe_clock(enc)
    assert len(described) <= 1024 and described.endswith("…")
    assert "Phase 5: **Bandit** number " in described  # alt text shows no markup: nothing escaped


def test_the_description_names_a_companion_acting_with_its_master():
    enc = add(new(), "Tony", "KH 4C", "init=2", player=True).state
    enc = add(enc, "Rex", "", "companion_of=Tony").state
    enc = begin(enc).state
    assert "Tony, Rex act now. Phase 5: Tony, Rex." in describe_clock(enc)
