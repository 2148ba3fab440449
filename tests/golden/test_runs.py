"""The shared golden runs (`runs`) record with every typed text marked; what the bot shows
must be what it shows without the recording, or the transcripts would compare another bot."""

from __future__ import annotations

import pytest

from bot import render
from rules import said, usertext

from .runs import marking_everything, recording

NAMES = ("Dr Rot (Unleashed)", "sword:d6", "Half-Orc", "**Bold**")


def shown() -> list[str]:
    names = [usertext.user_text(name) for name in NAMES]
    lines = [said.say("{who} attacks {target}", who=names[0], target=names[3]), f"{names[1]} and {names[2]}"]
    return [show(line) for line in lines for show in (render.clean, render.own, render.log_cell)] + [
        render.shown_name(name) for name in names
    ]


def test_a_recorded_run_shows_what_a_plain_one_does():
    plain = shown()
    with pytest.MonkeyPatch.context() as monkeypatch:
        marking_everything(monkeypatch)
        assert shown() != plain, "marking every typed text no longer changes what is shown: nothing to undo"
    with recording():
        assert shown() == plain
