"""A character's sheet through a Discord form (modal): one paragraph field per section of the
system's sheet, `key=value` a line. A wrong value is refused naming its field, with a button
that opens the form again with what was typed: that text waits here under a short random token
(the custom id has room for no sheet), for a while and for a bounded number of forms."""

from __future__ import annotations

import re
import secrets
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, replace

import discord

from rules import registry
from rules.errors import InvalidInput, RulesError
from rules.said import say, term
from rules.system import System
from rules.usertext import control_refusal, mark

from . import render
from .core import core_of
from .interact import actor_of, answer_error, reply, said_by
from .lengths import FORM_FIELD, check_form_fits

TITLE_LIMIT = 45  # Discord's limit for a form's title and a field's label
KEPT_SECONDS = 30 * 60
KEPT_FORMS = 500
FORM_ID = "tk:sheet-form:"  # a sheet form's custom id starts so


@dataclass(frozen=True)
class Draft:
    """A form as it was sent: what it does on submit and what its fields held."""

    guild: int
    user_id: int
    system: str
    texts: dict[str, str]
    name: str  # the character's name: the new one (add) or the stored one (edit)
    character_id: int | None = None  # set when the form edits a stored character
    opened_on: dict | None = None  # the stored sheet the edit form opened with: a change since is not undone
    token: str | None = None  # kept under this after a refusal (Fix the form): forgotten once stored


class Drafts:
    """Forms refused, kept under a token for `seconds`, the oldest forgotten beyond `size`."""

    def __init__(self, size: int = KEPT_FORMS, seconds: float = KEPT_SECONDS) -> None:
        self.size, self.seconds = size, seconds
        self._kept: OrderedDict[str, tuple[float, Draft]] = OrderedDict()

    def keep(self, draft: Draft) -> str:
        now = time.monotonic()
        while self._kept and (len(self._kept) >= self.size or next(iter(self._kept.values()))[0] < now):
            self._kept.popitem(last=False)
        token = secrets.token_hex(8)
        self._kept[token] = (now + self.seconds, draft)
        return token

    def forget(self, token: str | None) -> None:
        if token is not None:
            self._kept.pop(token, None)

    def get(self, token: str) -> Draft | None:
        kept = self._kept.get(token)
        if kept is None or kept[0] < time.monotonic():
            return None
        return kept[1]

    def __len__(self) -> int:
        return len(self._kept)


DRAFTS = Drafts()
OPEN_FORMS: weakref.WeakSet[SheetForm] = weakref.WeakSet()  # forms sent and not yet answered or timed out
# The custom ids of the forms discord.py may still answer, each until when. Discord keeps a form open as long as
# its player likes, and discord.py leaves one it no longer waits for unanswered: such a submit is refused here.
WAITING: dict[str, float] = {}


def close_forms() -> None:
    """Stop waiting for the forms still open (the bot is closing): their timers end with them."""
    for form in list(OPEN_FORMS):
        form.stop()
    WAITING.clear()


async def refuse_closed_form(interaction: discord.Interaction) -> None:
    """Answer a sheet form's submit that no form waits for (timed out, or sent before a restart)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
    if not custom_id.startswith(FORM_ID) or custom_id in WAITING:
        return
    gone = render.words("This form is no longer open: run the command again.")
    await reply(interaction, f"⛔ {gone}", ephemeral=True)


def blank_texts(system: System, sheet: dict | None = None) -> dict[str, str]:
    """Each section's field as the form opens it: the sheet's values, or the defaults."""
    return {section.label: system.form_text(section, sheet) for section in system.sheet_form()}


class SheetForm(discord.ui.Modal):
    def __init__(self, draft: Draft) -> None:
        system = registry.get(draft.system)
        title = say("Sheet of {name}", name=mark(draft.name))
        # discord.py answers a form by its custom id alone: each form sent gets its own, or two players
        # filling in forms at once would have their answers taken for each other's.
        custom_id = f"{FORM_ID}{secrets.token_hex(8)}"
        super().__init__(title=render.label(title, TITLE_LIMIT), timeout=KEPT_SECONDS, custom_id=custom_id)
        OPEN_FORMS.add(self)
        now = time.monotonic()
        for stale in [key for key, until in WAITING.items() if until < now]:  # answered long ago
            del WAITING[stale]
        # Forgotten when discord.py stops waiting (on_timeout), not once answered: a submit is handled by
        # the form while this is read, and a form answered is closed in Discord.
        WAITING[custom_id] = now + 2 * KEPT_SECONDS
        self.draft = draft
        self.fields: dict[str, discord.ui.TextInput] = {}
        for number, section in enumerate(system.sheet_form()):
            # The section's keys, not an example value: one number would not do for a weapon list or yes/no.
            keys = ", ".join(section.keys)
            field: discord.ui.TextInput = discord.ui.TextInput(
                label=render.label(section.label, TITLE_LIMIT),
                style=discord.TextStyle.paragraph,
                custom_id=f"tk:sheet:{number}",
                default=draft.texts.get(section.label, ""),
                placeholder=render.label(say("One key=value a line. Keys: {keys}", keys=keys), 100),
                required=False,
                max_length=FORM_FIELD,
            )
            self.fields[section.label] = field
            self.add_item(field)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # discord.py finds a form by its custom id alone: only whom it was opened for may submit it.
        if interaction.user.id == self.draft.user_id:
            return True
        await reply(interaction, f"⛔ {render.words('This form is not yours.')}", ephemeral=True)
        return False

    async def on_timeout(self) -> None:
        WAITING.pop(self.custom_id, None)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        texts = {label: field.value for label, field in self.fields.items()}
        try:
            await submitted(interaction, replace(self.draft, texts=texts))
        except Exception as error:  # a form's errors reach no command's handler: answered the same way here
            await answer_error(interaction, error)


async def answer_stored(interaction: discord.Interaction, name: str, system: System) -> None:
    """A new character is stored: said the same whether it came by options or by the form."""
    done = say(
        "**{name}** is stored for {owner} ({system}).",
        name=render.shown_name(name),
        owner=f"<@{interaction.user.id}>",
        system=system.name,
    )
    await reply(interaction, f"✅ {render.own(done)}")


async def submitted(interaction: discord.Interaction, draft: Draft) -> None:
    """Store the sheet the form was filled with, or refuse it keeping what was typed."""
    system = registry.get(draft.system)
    roster = core_of(interaction).roster
    by = await actor_of(interaction)
    try:
        longest = max(draft.texts, key=lambda label: len(draft.texts[label]), default=None)
        if longest is not None and len(draft.texts[longest]) > FORM_FIELD:  # only a modified client sends that
            draft = replace(draft, texts={label: text[:FORM_FIELD] for label, text in draft.texts.items()})
            raise InvalidInput(say("{field}: at most {n} characters.", field=term(longest), n=FORM_FIELD))
        for label, text in draft.texts.items():
            refusal = control_refusal(text, term(label), lines=True)
            if refusal is not None:
                raise InvalidInput(refusal)
        sheet = system.parse_form(dict(draft.texts))
        check_form_fits(system, sheet)
        if draft.character_id is None:
            name = await roster.store(
                draft.guild, by, draft.name, sheet, interaction.user.display_name, read_as=draft.system
            )
            DRAFTS.forget(draft.token)
            await answer_stored(interaction, name, system)
            return
        record = await roster.repo.character_by_id(draft.guild, draft.character_id)
        if record is None:
            await reply(interaction, f"⛔ {render.words('That character is no longer stored.')}", ephemeral=True)
            return
        if draft.opened_on is not None and record.sheet != draft.opened_on:  # another edit was stored first
            changed = say(
                "The sheet of {name} changed since this form opened: run /character edit again.", name=mark(record.name)
            )
            await reply(interaction, f"⛔ {render.clean(changed)}", ephemeral=True)
            return
        await roster.edit(draft.guild, by, record, sheet)
        DRAFTS.forget(draft.token)
        edited = say("The sheet of **{name}** is updated.", name=render.shown_name(record.name))
        await reply(interaction, f"✅ {render.own(edited)}", ephemeral=True)
    except RulesError as error:
        view = discord.ui.View(timeout=None)
        DRAFTS.forget(draft.token)
        view.add_item(FixFormButton(DRAFTS.keep(draft)))
        await reply(interaction, f"⛔ {render.clean(said_by(error))}", ephemeral=True, view=view)


class FixFormButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tk:fixform:(?P<token>[0-9a-f]{16})"):
    def __init__(self, token: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=render.label("Fix the form"), style=discord.ButtonStyle.primary, custom_id=f"tk:fixform:{token}"
            )
        )
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["token"])

    async def callback(self, interaction: discord.Interaction) -> None:
        draft = DRAFTS.get(self.token)
        if draft is None or draft.user_id != interaction.user.id:
            gone = render.words("This form was not kept: run the command again.")
            await reply(interaction, f"⛔ {gone}", ephemeral=True)
            return
        await interaction.response.send_modal(SheetForm(replace(draft, token=self.token)))
