"""Runtime settings, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str = "sqlite+aiosqlite:///turnkeeper.db"
    shard_count: int | None = None
    # NoDecode: pydantic-settings would otherwise insist on JSON, but operators write "0,1".
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    # How often due reminders and choice deadlines are looked for, in seconds.
    reminder_poll_seconds: float = 5.0
    # The pinned tracker is edited at most this often per encounter (Discord allows a
    # channel about 5 edits in 5 s); changes in between are shown together.
    tracker_interval_seconds: float = 1.0
    # Tracker requests of this process per second, under the bot token's global 50/s.
    tracker_requests_per_second: float | None = 40.0

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shard_ids(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        text = value.strip()
        if not text:
            return None
        if text.startswith("["):
            return json.loads(text)
        return [part.strip() for part in text.split(",") if part.strip()]

    @field_validator("discord_token", "shard_count", "dev_guild_id", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        # `.env.example` copied verbatim leaves `KEY=` lines; treat them as unset.
        if isinstance(value, str) and not value.strip():
            return None
        return value
