"""Languages for the translation tests, written as the bot reads them: `.po` files in a
`<locale>/LC_MESSAGES/` folder, read by `bot.translation.Catalog.read`."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot import catalog as template
from bot import translation


def write_language(folder: Path, locale: str, messages: dict) -> Path:
    """`folder/<locale>/LC_MESSAGES/turnkeeper.po` translating each English template (a (singular,
    plural) key for a count, with a tuple of its forms); the plural rule is CLDR's for the locale."""
    po = Catalog(locale=locale.replace("-", "_"))
    for english, translated in messages.items():
        po.add(english, translated)
    return _write(folder, locale, po)


def pseudo_language(folder: Path, locale: str) -> translation.Catalog:
    """A catalog whose one language translates every msgid of the committed template into itself in
    «guillemets» (every plural form too): a template missing from the template stays English."""
    with template.TEMPLATE.open("rb") as file:
        po = read_po(file, locale=locale.replace("-", "_"))
    for message in po:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            message.string = tuple(f"«{message.id[min(i, 1)]}»" for i in range(po.num_plurals))
        else:
            message.string = f"«{message.id}»"
        message.flags.discard("fuzzy")
    po.fuzzy = False
    _write(folder, locale, po)
    return translation.Catalog.read(folder)


def _write(folder: Path, locale: str, po: Catalog) -> Path:
    path = folder / locale.replace("-", "_") / "LC_MESSAGES" / f"{translation.DOMAIN}.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, po)
    return path
