"""Rules left to the GM are listed, not hidden: per system the README names what is not
automated and the command the GM uses instead, and /help points there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import registry

README = Path(__file__).resolve().parents[2] / "README.md"
SECTIONS = {
    "rotted-capes": "### Rotted Capes",
    "fightin-words": "### Them's Fightin' Words",
    "factions": "### Alternating factions",
    "99-towers": "### 99 Towers",
    "frozen-lands": "### Frozen Lands",
}


def section(key: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(SECTIONS[key])
    following = [m.start() for m in re.finditer(r"^#{2,3} ", text[start + 4 :], re.M)]
    return text[start : start + 4 + following[0]] if following else text[start:]


@pytest.mark.parametrize("key", list(SECTIONS))
def test_each_system_lists_what_is_not_automated_with_the_gms_command(key):
    text = section(key)
    assert "**Not automated**" in text
    listed = text.split("**Not automated**", 1)[1]
    items: list[str] = []
    for line in listed.splitlines():
        if line.startswith("- "):
            items.append(line)
        elif line.startswith("  ") and items:
            items[-1] += line  # an item continued on the next line
        elif items:
            break
    assert len(items) >= 3
    assert all("`/" in item or "`" in item or "call" in item for item in items)


@pytest.mark.parametrize("key", list(SECTIONS))
def test_help_points_to_the_gms_commands(key):
    text = registry.get(key).help_text()
    assert "GM's call" in text and "README" in text and "/encounter note" in text


def test_the_towers_and_factions_lists_name_the_rules_the_table_found():
    text = section("99-towers")
    for rule in ("Positions", "Knockback", "Marked targets", "duels"):
        assert rule in text
    text = section("factions")
    for rule in ("Positions within a zone", "stunts", "Vehicles"):
        assert rule in text


@pytest.mark.parametrize("key", list(SECTIONS))
def test_help_names_every_campaign_setting(key):
    """A default where the seed is silent is "always changeable per campaign, always stated in /help"."""
    system = registry.get(key)
    assert [name for name in system.options if name not in system.help_text()] == []
