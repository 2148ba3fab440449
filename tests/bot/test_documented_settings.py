"""What an operator reads about the settings and the invitation (.env.example, the README) is what the
bot does."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import discord
import pytest
from pydantic import ValidationError

from bot.config import Settings, settings_problem

ROOT = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = ROOT / ".env.example"
README = (ROOT / "README.md").read_text(encoding="utf-8")


def example_lines() -> list[str]:
    return ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()


def test_the_example_lists_every_setting_with_its_default(monkeypatch):
    listed = [line.split("=", 1)[0] for line in example_lines() if line and not line.startswith("#")]
    assert sorted(listed) == sorted(name.upper() for name in Settings.model_fields)
    for name in listed:
        monkeypatch.delenv(name, raising=False)
    assert Settings(_env_file=ENV_EXAMPLE) == Settings(_env_file=None)


def test_the_example_names_every_choice_of_a_setting_that_takes_words():
    lines = example_lines()
    for name, field in Settings.model_fields.items():
        if typing.get_origin(field.annotation) is typing.Literal:
            at = next(n for n, line in enumerate(lines) if line.startswith(f"{name.upper()}="))
            comment = lines[at - 1]
            assert all(choice in comment for choice in typing.get_args(field.annotation)), comment


def test_the_readme_sections_the_example_points_to_exist():
    headings = {line.lstrip("#").strip() for line in README.splitlines() if line.startswith("#")}
    for section in re.findall(r'README "([^"]+)"', ENV_EXAMPLE.read_text(encoding="utf-8")):
        assert section in headings, section


def test_the_invitation_grants_the_permissions_the_readme_names():
    url = re.search(r"https://discord\.com/oauth2/authorize\?\S*permissions=(\d+)", README)
    assert url is not None, "the README gives the invitation by hand"
    assert "scope=bot+applications.commands" in url.group(0)
    named = discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        embed_links=True,
        attach_files=True,
        read_message_history=True,
        pin_messages=True,
    )
    assert discord.Permissions(int(url.group(1))) == named
    assert "add 17179869184" in README and discord.Permissions(17179869184) == discord.Permissions(manage_threads=True)


def test_a_number_that_would_leave_the_bot_unable_to_work_is_a_bad_setting(monkeypatch):
    # None at all at once refuses every command as busy; a pass every 0 s polls the database without a pause;
    # a negative pace never lets a tracker edit go; a shard count below one is no sharding Discord knows.
    for name, value in (
        ("COMMANDS_AT_ONCE", "0"),
        ("REMINDER_POLL_SECONDS", "0"),
        ("TRACKER_REQUESTS_PER_SECOND", "-5"),
        ("SHARD_COUNT", "-2"),
    ):
        monkeypatch.setenv(name, value)
        with pytest.raises(ValidationError) as refused:
            Settings(_env_file=None)
        assert settings_problem(refused.value).startswith(f"{name}: "), name
        monkeypatch.delenv(name)
