"""The readers' language: where the translation of every word the bot shows comes from.

Nothing is translated yet (the catalog has no language), so everyone reads English.
What is ready for a language to be added:
- every line the rules say carries the English template of each of its phrases
  (`rules.said`), and the one rendering seam (`bot.render.words`) asks `phrases()`
  for the readers' template of each;
- the readers' locale is known while an interaction is handled (`speaking`) and in
  the work it starts (a context variable);
- the command tree has a `Translator` that reads command names, descriptions and
  choices from the same catalog.
A language is added as a table of {English template: its template in that language}.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar

import discord
from discord import app_commands

Phrases = Callable[[str], "str | None"]

LOCALE: ContextVar[str | None] = ContextVar("turnkeeper_locale", default=None)


class Catalog:
    """Translations by locale ("fr", "pt-BR", … as Discord names them)."""

    def __init__(self, languages: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self.languages = {locale: dict(table) for locale, table in (languages or {}).items()}

    def phrases(self, locale: str | None) -> Phrases | None:
        """How to read an English template in `locale`; None when it is read in English."""
        table = self.languages.get(locale or "")
        return None if table is None else table.get


CATALOG = Catalog()


def phrases() -> Phrases | None:
    """The current readers' way to read a template (None: English)."""
    return CATALOG.phrases(LOCALE.get())


def speaking(interaction: discord.Interaction) -> None:
    """Whoever answers this interaction speaks the server's language (public lines are for the
    whole channel), or the user's in a direct message."""
    locale = interaction.guild_locale or interaction.locale
    LOCALE.set(locale.value if locale else None)


def speaking_in(guild: discord.Guild | None) -> None:
    """What no interaction asked for (a reminder, a choice that timed out) speaks the server's language."""
    locale = getattr(guild, "preferred_locale", None)
    LOCALE.set(locale.value if locale else None)


class Translator(app_commands.Translator):
    """Command names, descriptions and choices from the catalog (English when it has none)."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog  # None: the module's catalog, read when asked

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        read = (self.catalog or CATALOG).phrases(locale.value)
        return read(string.message) if read else None
