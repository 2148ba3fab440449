"""Runtime settings, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import PositiveFloat, PositiveInt, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

# The async drivers the bot's engine takes (bot.db).
DATABASE_DRIVERS = ("sqlite+aiosqlite", "postgresql+asyncpg")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str = "sqlite+aiosqlite:///turnkeeper.db"
    shard_count: PositiveInt | None = None
    # NoDecode: pydantic-settings would otherwise insist on JSON, but operators write "0,1".
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    dev_guild_id: int | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    # How often due reminders and choice deadlines are looked for, in seconds.
    reminder_poll_seconds: PositiveFloat = 5.0
    # The pinned tracker is edited at most this often per encounter (Discord allows a
    # channel about 5 edits in 5 s); changes in between are shown together.
    tracker_interval_seconds: float = 1.0
    # Tracker requests of this process per second, under the bot token's global 50/s.
    tracker_requests_per_second: PositiveFloat | None = 40.0
    # Encounters each process keeps in memory as JSON text (about 4 KiB each), the most recently
    # played first; a command on any other reads its encounter from the database.
    encounters_in_memory: int = 4096
    # Commands each process works on at once; more wait in line, and one that would wait
    # longer than BUSY_AFTER_SECONDS is told, privately, that the bot is busy (nothing changes).
    commands_at_once: PositiveInt = 64
    busy_after_seconds: float = 1.0
    # The fight's read-only web page (`/encounter share`): off unless WEB_PORT is set. WEB_BASE_URL is the
    # address people open, behind the operator's reverse proxy (which adds TLS); links are made from it. A shard
    # process with WEB_BASE_URL alone makes links to the page another process serves (README, "Several processes").
    web_port: int | None = None
    web_host: str = "127.0.0.1"
    web_base_url: str | None = None
    # Connections the page holds open at once, in all and from one address (a reverse proxy on this machine
    # counts in all only); one more is answered 503 or 429 and closed (bot.web.gate).
    web_max_connections: PositiveInt = 5000
    web_max_connections_per_address: PositiveInt = 50

    @field_validator("log_level", mode="before")
    @classmethod
    def _a_log_level(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

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

    @field_validator("database_url")
    @classmethod
    def _a_database_url(cls, value: str) -> str:
        try:
            driver = make_url(value).drivername
        except ArgumentError:
            driver = None
        if driver not in DATABASE_DRIVERS:
            raise ValueError(
                "a database URL starts sqlite+aiosqlite:/// (a file) or postgresql+asyncpg:// "
                "(user:password@host/database)"
            )
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids and not self.shard_count:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards of all processes together")
        if self.shard_ids and self.shard_count and not all(0 <= n < self.shard_count for n in self.shard_ids):
            raise ValueError(f"SHARD_IDS are numbered 0 to {self.shard_count - 1} (SHARD_COUNT - 1)")
        return self

    @field_validator("web_base_url")
    @classmethod
    def _a_web_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("https://", "http://")):
            raise ValueError("the page's public address starts https:// (e.g. https://turnkeeper.example.org)")
        return value.rstrip("/")

    @model_validator(mode="after")
    def _web_needs_an_address(self) -> Settings:
        if self.web_port is not None and not self.web_base_url:
            raise ValueError("WEB_PORT needs WEB_BASE_URL, the public address of the page behind the reverse proxy")
        return self

    @field_validator("discord_token", "shard_count", "dev_guild_id", "web_port", "web_base_url", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        # `.env.example` copied verbatim leaves `KEY=` lines; treat them as unset.
        if isinstance(value, str) and not value.strip():
            return None
        return value


def settings_problem(error: ValidationError) -> str:
    """What is wrong with the settings, as one line that says where to fix it."""
    problems = []
    for found in error.errors():
        setting = str(found["loc"][0]).upper() if found["loc"] else ""  # SHARD_IDS, not SHARD_IDS_1
        message = found["msg"].removeprefix("Value error, ")
        problems.append(f"{setting}: {message}" if setting else message)
    return "; ".join(problems) + ". Set it in .env or the environment (.env.example lists every setting)."
