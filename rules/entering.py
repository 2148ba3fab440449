"""Checks that hold for what a user enters now, not for what was stored before the check existed.

A stored fight or character is read again with every command: a check added later must not make it
unreadable, so such checks run only when a sheet is entered (`System.parse_sheet`)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationInfo

ENTERED: dict[str, Any] = {"entered": True}


def entered(info: ValidationInfo) -> bool:
    """Whether this validation reads what a user enters now."""
    return bool(info.context and info.context.get("entered"))
