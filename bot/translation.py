"""The readers' language: where the translation of every word the bot shows comes from.

No language ships yet, so everyone reads English. How a language is read:
- every line the rules say carries the English template of each of its phrases
  (`rules.said`), and the one rendering seam (`bot.render.words`) asks `phrases()`
  for the readers' template of each;
- the readers' locale is known while an interaction is handled (`speaking`) and in
  the work it starts (a context variable);
- the command tree has a `Translator` that reads command names, descriptions and
  choices from the same catalog.
A language is a gettext catalog, `locale/<locale>/LC_MESSAGES/turnkeeper.po`, made from
the template `locale/turnkeeper.pot` (`bot/catalog.py`) and read when this module is
imported: each msgid is an English template, its msgstr the template in that language,
and a count's forms follow the file's Plural-Forms (CLDR's rule for the language).
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from pathlib import Path

import discord
from babel.messages.pofile import read_po
from discord import app_commands

from rules.said import N_
from rules.text import Plural, fields

from . import lengths

log = logging.getLogger(__name__)
Where = app_commands.TranslationContextLocation

LOCALES = Path(__file__).parent / "locale"
DOMAIN = "turnkeeper"

Phrases = Callable[["str | Plural"], "str | None"]

# discord.py's description of a command option that has none: a command text like the others.
UNDESCRIBED = N_("…")

LOCALE: ContextVar[str | None] = ContextVar("turnkeeper_locale", default=None)


def _forms(value: object) -> tuple[str, ...]:
    """A catalog message's id or translation as its forms: one, or a plural's (a tuple); None reads as empty."""
    if isinstance(value, (tuple, list)):
        return tuple(form if isinstance(form, str) else "" for form in value)
    return (value if isinstance(value, str) else "",)


class Language:
    """One language's templates: {English template: its own} and, for a count,
    {(singular, plural): its forms}, the form picked by `plural_forms` (gettext's Plural-Forms)."""

    def __init__(
        self,
        templates: Mapping[str, str],
        forms: Mapping[tuple[str, str], tuple[str, ...]] | None = None,
        plural_forms: str = "nplurals=2; plural=(n != 1);",
    ) -> None:
        self.templates = dict(templates)
        self.forms = dict(forms or {})
        self.form = gettext.c2py(plural_forms.split("plural=", 1)[1].strip().rstrip(";"))

    @classmethod
    def read(cls, path: Path) -> Language:
        """A `.po` file. A translation that is empty, fuzzy, or names a value its English does not
        have (or has a stray brace) is left out, and that template read in English."""
        with path.open("rb") as file:
            catalog = read_po(file, ignore_obsolete=True)
        templates: dict[str, str] = {}
        forms: dict[tuple[str, str], tuple[str, ...]] = {}
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            english, translated = _forms(message.id), _forms(message.string)
            if not all(translated) or not all(_fits(text, english) for text in translated):
                if any(translated):
                    log.warning("%s: %r left out: empty forms or values its English does not name", path, english[0])
                continue
            if len(english) > 1:
                forms[(english[0], english[1])] = translated
            else:
                templates[english[0]] = translated[0]
        return cls(templates, forms, catalog.plural_forms)

    def __call__(self, asked: str | Plural) -> str | None:
        """The template in this language for an English one (None: it reads English)."""
        if not isinstance(asked, Plural):
            return self.templates.get(asked)
        forms = self.forms.get((asked.singular, asked.plural))
        if not forms:
            return None
        if asked.n is None:  # a secret count: CLDR's "other", the last form in a Plural-Forms pybabel writes
            return forms[-1]
        return forms[min(int(self.form(asked.n)), len(forms) - 1)]


def _fits(translated: str, english: tuple[str, ...]) -> bool:
    """Whether a translation names only values its English names, with its braces whole."""
    try:
        named = {name for text in english for _, name, _, _ in fields(text) if name}
        return all(name in named for _, name, _, _ in fields(translated) if name)
    except ValueError:
        return False


class Catalog:
    """Languages by locale ("fr", "pt-BR", … as Discord names them)."""

    def __init__(self, languages: Mapping[str, Language] | None = None) -> None:
        self.languages = dict(languages or {})

    @classmethod
    def read(cls, directory: Path = LOCALES) -> Catalog:
        """Every `<locale>/LC_MESSAGES/turnkeeper.po` under `directory` (`pt_BR` is Discord's `pt-BR`)."""
        found = sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
        return cls({path.parents[1].name.replace("_", "-"): Language.read(path) for path in found})

    def phrases(self, locale: str | None) -> Phrases | None:
        """How to read an English template in `locale` (or in its language, `es` for `es-ES`);
        None when it is read in English."""
        locale = locale or ""
        return self.languages.get(locale) or self.languages.get(locale.split("-")[0])

    def language(self, locale: str | None) -> str:
        """The language `locale`'s readers read, as a web page's `lang` names it: the locale or its language
        when there is a catalog for it, else English (the locale itself when it is a kind of English)."""
        locale = locale or ""
        base = locale.split("-")[0]
        if locale in self.languages:
            return locale
        if base in self.languages:
            return base
        return locale if base == "en" else "en"


CATALOG = Catalog.read()


def phrases() -> Phrases | None:
    """The current readers' way to read a template (None: English)."""
    return CATALOG.phrases(LOCALE.get())


def language(locale: str | None) -> str:
    """The language a page for `locale`'s readers is written in (`Catalog.language`)."""
    return CATALOG.language(locale)


def speaking(interaction: discord.Interaction) -> None:
    """Whoever answers this interaction speaks the server's language (public lines are for the
    whole channel), or the user's in a direct message."""
    locale = interaction.guild_locale or interaction.locale
    LOCALE.set(locale.value if locale else None)


def speaking_in(guild: discord.Guild | None) -> None:
    """What no interaction asked for (a reminder, a choice that timed out) speaks the server's language."""
    locale = getattr(guild, "preferred_locale", None)
    LOCALE.set(locale.value if locale else None)


NAMES = frozenset((Where.command_name, Where.group_name, Where.parameter_name))
NAME_PUNCTUATION = frozenset("-_'")
LONGEST = {
    Where.command_description: lengths.COMMAND_TEXT,
    Where.group_description: lengths.COMMAND_TEXT,
    Where.parameter_description: lengths.COMMAND_TEXT,
    Where.choice_name: lengths.CHOICE_NAME,
}


def discord_takes(location: app_commands.TranslationContextLocation, text: str) -> bool:
    """Whether Discord registers `text` as this command text: a name is 1-32 letters, digits, - _ ', in lower
    case; a description or a choice's name at most 100 characters. The catalog's texts are written for prose
    (a name such as "character" is a msgid of its own), and one text Discord refuses fails the whole sync."""
    if location in NAMES:
        return (
            1 <= len(text) <= lengths.COMMAND_NAME
            and text == text.lower()
            and all(c.isalnum() or c in NAME_PUNCTUATION for c in text)
        )
    return len(text) <= LONGEST.get(location, len(text))


class Translator(app_commands.Translator):
    """Command names, descriptions and choices from the catalog (English when it has none, or one Discord
    would not register)."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog  # None: the module's catalog, read when asked

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        read = (self.catalog or CATALOG).phrases(locale.value)
        translated = read(string.message) if read else None
        if translated is None or discord_takes(context.location, translated):
            return translated
        log.warning("%s: %r left out of the command texts: Discord would refuse it there", locale.value, translated)
        return None
