"""How encounters look in Discord: texts, embeds, buttons and who gets pinged.

This is the one place that turns what the rules say into what Discord shows:

- Every message goes through `allowed(...)`: only the users a rule means to ping
  are pingable, never @everyone, @here or a role, whatever a player typed.
- User-typed text (names, notes, weapon names, option text) is shown literally:
  the rules mark it (`rules.usertext`) and `clean` escapes what lies between the
  marks; links, URLs, code fences, block quotes and headings are neutralised in
  any reposted text, marked or not, since the rules' own lines never use them.
- A result that came from dice or cards entered by hand carries ✍️ (`ENTERED`).
- Texts stay inside Discord's limits: long replies are split (`split`), long
  lists paged (`bot.paging`), embeds and labels cut to size (`fit_embed`, `label`).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import discord

from rules import usertext
from rules.model import Encounter
from rules.said import joined, say, seq
from rules.secrets import secret
from rules.system import System, sheet_value
from rules.text import Cut, Phrase, Secret, Seq, Text, english, has_secrets, pieces
from rules.turns.base import NAMED_WAITING

from . import translation
from .lengths import BUTTON_LABEL, CONTENT_LIMIT, EMBED_DESCRIPTION, FIELD_NAME, FIELD_VALUE, SELECT_LABEL

DESCRIPTION_LIMIT = 4000
LINES_PER_PAGE = 20
LINE_LIMIT = 300
NOBODY = discord.AllowedMentions.none()
ENTERED = "✍️"  # beside a result that came from dice or cards entered by hand

# Markup that the rules' own lines never use, neutralised wherever text is reposted:
# masked links and URLs (a disguised "Free Nitro"), code fences, block quotes,
# headings, subtext, spoilers, underline, and <#channel> / <t:…> / <:emoji:…> tags.
# Idempotent: text that was cleaned once (a refusal quoting a name) is not broken open again.
# Each rule names the marks it needs in the text: most lines have none, and skip its pattern.
_NET = [
    (("[",), re.compile(r"(?<!\\)\[(?=[^\]]*\]\()"), r"\["),
    (("://",), re.compile(r"(?<=[A-Za-z])://"), r"\://"),
    (("```",), re.compile(r"```"), r"\`\`\`"),
    (("||",), re.compile(r"\|\|"), r"\|\|"),
    (("__",), re.compile(r"__"), r"\_\_"),
    ((">", "#"), re.compile(r"^(\s*)(>|#{1,3}\s|-#\s)", re.MULTILINE), r"\1\\\2"),
    (("<",), re.compile(r"(?<!\\)<(?=[#:/]|a:|t:)"), r"\\<"),
]
_LITERAL = re.compile(r"([\\*_~|`>#\[\]()<:\-])")


def allowed(users) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(id=u) for u in users]
    )


def named_in(mentions: discord.AllowedMentions, piece: str) -> discord.AllowedMentions:
    """``mentions`` narrowed to the users a piece of a longer answer names: each message allows
    the pings it makes, and no others."""
    users = mentions.users if isinstance(mentions.users, list) else []
    return allowed(user.id for user in users if f"<@{user.id}>" in piece or f"<@!{user.id}>" in piece)


# The same names and phrases are shown again and again (every tracker edit lists every
# combatant): the escaping of each distinct string is worked out once.
@functools.lru_cache(maxsize=8192)
def literal(text: str) -> str:
    """User-typed text shown exactly as typed: every markup character escaped."""
    return _LITERAL.sub(r"\\\1", text)


# A code span on one line (what `rules.usertext.quoted` makes): Discord shows all in it as it stands,
# a backslash too, so nothing in it is escaped.
_CODE_SPAN = re.compile(r"`[^`\n]+`")


@functools.lru_cache(maxsize=8192)
def neutralise(text: str) -> str:
    spans = "`" in text and "```" not in text
    for marks, pattern, replacement in _NET:
        if any(mark in text for mark in marks):
            text = _outside_code(pattern, replacement, text) if spans else pattern.sub(replacement, text)
    return text


def _outside_code(pattern: re.Pattern[str], replacement: str, text: str) -> str:
    inside = [match.span() for match in _CODE_SPAN.finditer(text)]
    if not inside:
        return pattern.sub(replacement, text)
    return pattern.sub(
        lambda found: found.group() if any(a < found.start() < b for a, b in inside) else found.expand(replacement),
        text,
    )


def runs(text: Text | str, *, gm: bool = False, whole: bool = True) -> list[tuple[str, bool]]:
    """The text in the readers' language as runs of characters, each with whether it is typed
    text that could read as markup (and so must be shown literally). A hidden NPC's numbers
    are "?" unless `gm`. A bare str is a constant of the rules, looked up whole when `whole`
    (a help section, a heading); a command as it was given is never looked up whole."""
    read = translation.phrases()
    if isinstance(text, str):
        if read is not None and whole:
            return [(read(text) or text, False)]
        return [(text, False)]
    out: list[tuple[str, bool]] = []
    for piece, typed in pieces(text, read, reveal=gm):
        if typed:
            # A right-to-left override in one name must not turn the rest of the line around.
            piece = usertext.isolated(piece)
        literal_span = typed and usertext.could_be_markup(piece)
        if out and not literal_span and not out[-1][1]:
            out[-1] = (out[-1][0] + piece, False)
        elif piece or literal_span:
            out.append((piece, literal_span))
    return out


def _shown(parts: list[tuple[str, bool]], typed, other) -> str:
    return "".join(typed(piece) if is_typed else other(piece) for piece, is_typed in parts)


def words(text: Text | str, *, gm: bool = False) -> str:
    """A line the bot itself wrote (said, or a constant looked up whole), in the readers' language:
    its own markup and mentions stand, typed text in it is shown literally."""
    return _shown(runs(text, gm=gm), literal, _same)


own = words


def _same(text: str) -> str:
    return text


def clean(text: Text | str, *, gm: bool = False) -> str:
    """Text the rules (or a user) wrote, safe to repost: in the readers' language, typed text
    literal, no link, fence or block markup, never a mention. A hidden NPC's numbers
    show as "?" unless the text is for the GM alone."""
    return _mentionless(_shown(runs(text, gm=gm), literal, neutralise))


def clean_command(text: Text | str) -> str:
    """A logged command, safe to repost like `clean`: a slash command as it was given, only what
    was said in it translated; a click or a timeout ("End turn (button)") by the name the bot gave it."""
    return _mentionless(_shown(runs(text, whole=not _is_command(text)), literal, neutralise))


def _is_command(text: Text | str) -> bool:
    return english(text).startswith("/")


@functools.lru_cache(maxsize=8192)
def _mentionless(text: str) -> str:
    # Every @ is broken, not only those discord.utils.escape_mentions knows: a short id or a name may be one.
    return text.replace("@", "@\u200b")


def shown_name(name: str) -> str:
    """A name a user typed, as it appears inside a message: literal, never a mention."""
    return clean(usertext.mark(name))


def sheet_line(key: str, value: object) -> str:
    """One value of a stored sheet, as /character show and /npc show write it: yes/no, and — when left unset."""
    return f"`{key}` = {shown_name(sheet_value(value)) or '—'}"


def plain(text: Text | str, *, gm: bool = False) -> str:
    """The text in the readers' language with no markup meant (a button, an image): characters
    as they are, hidden numbers concealed unless `gm`."""
    return "".join(piece for piece, _ in runs(text, gm=gm))


def label(text: Text | str, limit: int = BUTTON_LABEL) -> str:
    """Text for a place that shows no markup (a button, a select option, an image):
    plain characters, hidden numbers concealed, cut to `limit`."""
    shown = plain(text).strip() or "?"
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def select_label(text: Text | str) -> str:
    return label(text, SELECT_LABEL)


def mention(users) -> str:
    return " ".join(f"<@{u}>" for u in users)


def fit(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Cut to `limit`: only for parts of a message (a field, a line), never a whole reply."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if (len(cut) - len(cut.rstrip("\\"))) % 2:
        cut = cut[:-1]  # the backslash escaped what was cut off; before the ellipsis it would show
    return cut + "…"


def split(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """A long text as several messages, cut between lines (inside a line only when it
    is longer than a message), so that nothing is lost."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            cut = line.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            chunks.append(line[:cut])
            line = line[cut:].lstrip(" ")
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            candidate = line
        current = candidate
    if current or not chunks:
        chunks.append(current)
    return chunks


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Keep an embed inside Discord's limits (title 256, description 4096, 25 fields of
    256/1024, 6000 in all): cut parts rather than have Discord refuse the message."""
    if embed.title:
        embed.title = fit(embed.title, 256)
    if embed.description:
        embed.description = fit(embed.description, EMBED_DESCRIPTION)
    fields = embed.fields[:25]
    embed.clear_fields()
    for item in fields:
        name, value = fit(item.name or "—", FIELD_NAME), fit(item.value or "—", FIELD_VALUE)
        embed.add_field(name=name, value=value, inline=item.inline)
    while len(embed) > 6000 and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    return embed


def event_lines(events, *, skip_turns: bool = True, gm: bool = False) -> str:
    lines = []
    for event in events:
        if skip_turns and event.kind == "turn":
            continue
        if not gm and type(event.said) is Secret and event.said.hidden:
            continue  # it would read "?" alone, telling players only that it happened: the GM's view has it
        prefix = {"round": "🔔 **", "roll": "🎲 ", "warning": "⚠️ ", "end": "🏁 "}.get(event.kind, "")
        suffix = "**" if event.kind == "round" else ""
        mark = f"{ENTERED} " if event.entered else ""
        lines.append(f"{prefix}{mark}{clean(event.said, gm=gm)}{suffix}")
    return "\n".join(lines)


def free_roll(said_line: Text, *, entered: bool) -> str:
    """A /roll as the channel (or, for a private roll, the roller and the GM) reads it."""
    mark = f"{ENTERED} " if entered else ""
    return f"🎲 {mark}{clean(said_line)}"


def gm_view(events) -> str | None:
    """The events with a hidden NPC's numbers shown, for the GM alone; None when nothing was hidden."""
    if not any(has_secrets(event.said) for event in events):
        return None
    return f"🔒 {words('Only you see this: the hidden numbers.')}\n{event_lines(events, gm=True)}"


def pings_of(events) -> list[int]:
    users: list[int] = []
    for event in events:
        if event.kind == "turn":
            continue
        for user in event.ping:
            if user not in users:
                users.append(user)
    return users


def result_content(events, *, leave_out=()) -> tuple[str, discord.AllowedMentions]:
    """The public answer to a command, pinging whoever an event asks for.

    `leave_out`: users another message pings anyway (a new choice pings its choosers).
    """
    users = [u for u in pings_of(events) if u not in leave_out]
    turns = [e.said for e in events if e.kind == "turn"]
    text = event_lines(events) or (f"➡️ {clean(turns[-1])}" if turns else words("Done."))
    if users:
        text = f"{mention(users)}\n{text}"
    return text, allowed(users)  # a long one is split when sent, never cut


def _combatant_line(system: System, state: Encounter, cid: str, reveal_all: bool) -> str:
    combatant = state.get(cid)
    reveal = reveal_all or not combatant.hidden
    status = system.status_line(state, combatant, reveal=reveal)
    owner = f" (<@{combatant.controller_id}>)" if combatant.controller_id else ""
    dead = "~~" if combatant.out else ""
    shown = f"{dead}{shown_name(combatant.name)}{dead}{owner}"
    return shown + (f" — {clean(status, gm=reveal_all)}" if status else "")


def tracker_lines(system: System, state: Encounter, *, reveal: bool = False) -> tuple[list[str], int | None]:
    """The tracker's lines, and the index of the first line of the current turn (None between turns)."""
    lines: list[str] = []
    current = None
    for line in system.turns.lines(system, state):
        marker = "▶️" if line.current and state.status == "running" else "▫️"
        if marker == "▶️" and current is None:
            current = len(lines)
        entries = [_combatant_line(system, state, c, reveal) for c in line.cids] or ["—"]
        note = f" *({clean(line.note, gm=reveal)})*" if line.note else ""
        slot = plain(line.label, gm=reveal).replace("`", "'")
        text = f"{marker} `{slot:>8}` {'; '.join(entries)}{note}"
        if len(text) <= LINE_LIMIT:
            lines.append(text)
            continue
        # A long shared turn gets a line per combatant: cut at LINE_LIMIT, one line
        # would hide everyone after the cut.
        lines.append(f"{marker} `{slot:>8}` {entries[0]}{note}")
        lines += [f"{marker} `{'':>8}` {entry}" for entry in entries[1:]]
    if not lines:
        lines = [words("Nobody yet: /initiative join (players) and /initiative add (GM).")]
    return [fit(line, LINE_LIMIT) for line in lines], current


def page_lines(lines: list[str], *, per_page: int = LINES_PER_PAGE, limit: int = DESCRIPTION_LIMIT) -> list[list[str]]:
    """Lines grouped into pages of at most `per_page` lines and `limit` characters."""
    pages: list[list[str]] = []
    page: list[str] = []
    for line in lines:
        if page and (len(page) >= per_page or len("\n".join(page + [line])) > limit):
            pages.append(page)
            page = []
        page.append(line)
    pages.append(page)
    return pages


def tracker_pages(system: System, state: Encounter, *, reveal: bool = False) -> list[str]:
    return ["\n".join(page) for page in page_lines(tracker_lines(system, state, reveal=reveal)[0])]


def current_page(system: System, state: Encounter) -> int:
    """The page (from 1) that shows whose turn it is: the ▶️ never falls off the tracker."""
    return _page_of(*tracker_lines(system, state))


def _page_of(lines: list[str], current: int | None) -> int:
    if current is None:
        return 1
    seen = 0
    for number, page in enumerate(page_lines(lines), start=1):
        seen += len(page)
        if current < seen:
            return number
    return 1


def add_turn_fields(embed: discord.Embed, system: System, state: Encounter, cids) -> None:
    """A field for each combatant whose turn it is (as many as its heading names): its state and what is left of
    its turn."""
    for cid in list(cids)[:NAMED_WAITING]:
        combatant = state.get(cid)
        lines = [system.status_line(state, combatant, reveal=not combatant.hidden)]
        lines += system.turn_summary(state, cid)
        value = "\n".join(clean(line) for line in lines if line) or "—"
        embed.add_field(name=fit(shown_name(combatant.name), 250), value=fit(value, 1000), inline=False)


def tracker_embed(
    system: System,
    state: Encounter,
    encounter_id: int,
    *,
    page: int | None = None,
    reveal: bool = False,
    turn: bool = False,
) -> discord.Embed:
    """One page of the tracker; without `page`, the page with the current turn. `turn`: also what is left of
    the current turn, as the turn message showed it when the turn began."""
    lines, current = tracker_lines(system, state, reveal=reveal)
    pages = ["\n".join(on_page) for on_page in page_lines(lines)]
    if page is None:
        # The players' tracker finds its current turn on its own lines; the GM's pages like the players'.
        page = current_page(system, state) if reveal else _page_of(lines, current)
    page = max(1, min(page, len(pages)))
    running = system.turns.round_label(state)
    status = {"setup": say("setting up"), "running": running, "ended": say("ended")}[state.status]
    embed = discord.Embed(
        title=f"{system.name} — {clean(status)}", description=pages[page - 1], colour=discord.Colour.dark_teal()
    )
    footer: Text = say("Encounter #{number}", number=encounter_id)
    if len(pages) > 1:
        footer = seq(footer, say(" · page {page}/{pages} (/encounter status page:N)", page=page, pages=len(pages)))
    if turn and state.status == "running":
        add_turn_fields(embed, system, state, system.turns.acting(state))
    if state.pending:
        waiting = words("Waiting for a choice")
        embed.add_field(name=waiting, value=fit(clean(state.pending.prompt), 1000), inline=False)
    embed.set_footer(text=plain(footer))
    return fit_embed(embed)


# --- the encounter log ---------------------------------------------------------------
SECRET_OPTIONS = ("stats",)
# Options whose value is a number, dice or cards a user entered. When a hidden combatant takes part, they
# tell its numbers as its result's "?" would (faces beside a total, the count of its cards, a damage bonus):
# each is logged as a secret, hidden or not as `bot.core` finds (`hiding_entered`).
# A sheet typed for an NPC the command does not say is hidden is one of them: a kept NPC may come back hidden.
ENTERED_OPTIONS = frozenset({"roll", "dice", "cards", "amount", "modifier", "dc", "damage", "options", "stats"})


def command_line(interaction: discord.Interaction, fallback: Text | str) -> Text | str:
    """The slash command as typed, options included, for the log (`/initiative add name:Goblin count:2`).

    Option values are the user's text, so that the log shows them literally."""
    # A slash command's data: its name, options (nested under subcommands) and resolved users.
    data: dict[str, Any] = dict(interaction.data or {})
    if interaction.type is not discord.InteractionType.application_command or "name" not in data:
        return fallback
    parts: list[Text | str] = [f"/{data['name']}"]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # subcommand (group)
        parts.append(options[0]["name"])
        options = options[0].get("options") or []
    users = (data.get("resolved") or {}).get("users") or {}
    hidden = any(option.get("name") == "hidden" and option.get("value") is True for option in options)
    for option in options:
        value = option.get("value")
        if option.get("type") == 6 and str(value) in users:
            user = users[str(value)]
            value = "@" + (user.get("global_name") or user.get("username") or str(value))
        text = str(value).replace("\n", " ")
        if isinstance(option.get("value"), str) and (not text or " " in text):
            text = f'"{text}"'
        parts.append(seq(f"{option['name']}:", _option_value(option["name"], text, hidden)))
    return joined(" ", parts)


def _option_value(name: str, text: str, hidden: bool) -> Text:
    if hidden and name in SECRET_OPTIONS:  # a hidden NPC's sheet stays out of the log that players read
        return say("(hidden)")
    if name in ENTERED_OPTIONS:
        return secret(usertext.mark(text), False)
    return usertext.mark(text)


def hiding_entered(command: Text | str) -> Text | str:
    """The logged command with the values entered in it (`ENTERED_OPTIONS`) hidden from players, shown to the GM."""
    return command if isinstance(command, str) else _hiding(command)


def _hiding(text: Text) -> Text:
    if isinstance(text, Secret):
        return Secret(text.value, True)
    if isinstance(text, Seq):
        return Seq(tuple(_hiding(part) for part in text.parts))
    if isinstance(text, Cut):
        return Cut(_hiding(text.text), text.limit)
    if isinstance(text, Phrase):
        return Phrase(text.template, tuple((name, _hiding(value)) for name, value in text.values), text.plural)
    return text


def log_cell(text: Text | str, *, typed: bool = False, command: bool = False, gm: bool = False) -> str:
    """Text for a cell of the Markdown log: user-typed parts literal, one line, pipes escaped.
    `typed`: a name; `command`: a command as it was given (see `clean_command`); `gm`: a hidden NPC's numbers shown."""
    if typed:  # a name, never looked up as words to translate
        return literal(usertext.isolated(usertext.scrub(str(text)).replace("\r", " ").replace("\n", " ")))
    parts = runs(text, gm=gm, whole=not (command and _is_command(text)))
    one_line = [(piece.replace("\r", " ").replace("\n", " "), is_typed) for piece, is_typed in parts]
    return _shown(one_line, literal, lambda part: neutralise(part.replace("|", "\\|")))


async def readable_names(interaction: discord.Interaction, user_ids) -> dict[int, str]:
    """Display names for the log's "who" column (the user id when Discord does not know them)."""
    names: dict[int, str] = {}
    guild = interaction.guild
    for user_id in user_ids:
        member = guild.get_member(user_id) if guild else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        if member is not None:
            names[user_id] = member.display_name
    return names
