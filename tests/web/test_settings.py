"""WEB_PORT and WEB_BASE_URL: the page is off unless both are set, and a wrong one says where to fix it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import Settings, settings_problem


def test_the_page_is_off_by_default_and_blank_lines_of_the_example_leave_it_off(monkeypatch):
    assert Settings(_env_file=None).web_port is None
    monkeypatch.setenv("WEB_PORT", "")
    monkeypatch.setenv("WEB_BASE_URL", "")
    settings = Settings(_env_file=None)
    assert settings.web_port is None and settings.web_base_url is None


def test_a_port_needs_the_public_address_and_the_address_is_a_web_address():
    with pytest.raises(ValidationError) as no_address:
        Settings(_env_file=None, web_port=8080)
    assert "WEB_BASE_URL" in settings_problem(no_address.value)
    with pytest.raises(ValidationError) as wrong:
        Settings(_env_file=None, web_port=8080, web_base_url="turnkeeper.example.org")
    assert "https://" in settings_problem(wrong.value)
    settings = Settings(_env_file=None, web_port=8080, web_base_url="https://turnkeeper.example.org/")
    assert settings.web_base_url == "https://turnkeeper.example.org" and settings.web_host == "127.0.0.1"
