"""Readable, deterministic text for sandbox sessions.

Two halves:
* transcripts — recorded stand-in messages and events rendered as chat lines
  (mentions as ``@name``, embeds flattened, buttons as ``[End turn]``, attachments by
  filename, ephemeral and edited messages marked; never timestamps or ids);
* script lines — ``alice: /initiative join character:"Silver Star" roll:15`` parsed
  into a structured command, option types resolved against the synced schema;
  ``alice: submit "Sheet 1=dex=2 con=1"`` sends the last form (modal) shown to alice.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.standin.commands import CommandRegistry, InvalidInvocation
from bot.standin.interactions import MODAL
from bot.standin.mentions import CHANNEL_RE, ROLE_RE, USER_RE
from bot.standin.messages import Event
from bot.standin.modals import Form, form_of
from bot.standin.records import RecordedMessage, Revision, iter_components
from bot.standin.world import World

# ---------------------------------------------------------------------------
# Transcripts
# ---------------------------------------------------------------------------


def render_content(text: str, world: World) -> str:
    """Replace raw mention markup with the names people see."""

    def user(m: re.Match[str]) -> str:
        u = world.users.get(int(m.group(1)))
        return f"@{u.name}" if u else "@unknown-user"

    def role(m: re.Match[str]) -> str:
        r = world.roles.get(int(m.group(1)))
        return f"@{r.name}" if r else "@deleted-role"

    def channel(m: re.Match[str]) -> str:
        c = world.channels.get(int(m.group(1)))
        return f"#{c.name}" if c else "#unknown-channel"

    return CHANNEL_RE.sub(channel, ROLE_RE.sub(role, USER_RE.sub(user, text)))


def render_embed(embed: dict[str, Any], world: World) -> list[str]:
    lines = []
    author = (embed.get("author") or {}).get("name")
    if author:
        lines.append(author)
    if embed.get("title"):
        lines.append(f"**{render_content(embed['title'], world)}**")
    if embed.get("description"):
        lines.extend(render_content(embed["description"], world).splitlines())
    for f in embed.get("fields") or []:
        field = f"{render_content(f.get('name', ''), world)}: {render_content(f.get('value', ''), world)}"
        lines.extend(field.splitlines())
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.append(f"— {render_content(footer, world)}")
    if (embed.get("image") or {}).get("url"):
        lines.append(f"[image {embed['image']['url'].rsplit('/', 1)[-1]}]")
    return ["| " + line for line in lines] or ["| (empty embed)"]


def render_components(components: list[dict[str, Any]], world: World) -> list[str]:
    """Buttons as ``[Label]`` on one line per row; selects as ``[select: placeholder]``;
    components-v2 text displays as their text."""
    lines: list[str] = []
    row: list[str] = []
    for comp in iter_components(components):
        kind = comp.get("type")
        if kind == 2:
            label = comp.get("label") or (comp.get("emoji") or {}).get("name") or comp.get("custom_id") or "button"
            row.append(f"[{label}{' (disabled)' if comp.get('disabled') else ''}]")
        elif kind in (3, 5, 6, 7, 8):
            row.append(f"[select: {comp.get('placeholder') or comp.get('custom_id')}]")
        elif kind == 10:
            lines.extend(render_content(comp.get("content", ""), world).splitlines())
        elif kind == 1 and row:
            lines.append(" ".join(row))
            row = []
    if row:
        lines.append(" ".join(row))
    return lines


def _who_sees(msg: RecordedMessage) -> str | None:
    if msg.ephemeral and msg.interaction is not None:
        return msg.interaction.user.name
    return None


def render_message(
    msg: RecordedMessage, world: World, *, revision: Revision | None = None, edited: bool = False
) -> str:
    rev = revision or msg.current
    author = world.users[msg.author_id].name
    prefix = f"(only {_who_sees(msg)} sees this) " if rev.flags & 64 and _who_sees(msg) else ""
    tag = " (edited)" if edited else ""
    if rev.flags & 128:
        return f"{prefix}{author} is thinking…"
    body = render_content(rev.content, world).splitlines()
    first = body[0] if body else ""
    lines = [f"{prefix}{author}{tag}: {first}".rstrip()]
    extra = body[1:]
    for embed in rev.embeds:
        extra.extend(render_embed(embed, world))
    extra.extend(render_components(rev.components, world))
    extra.extend(f"[attachment: {a.filename}]" for a in rev.attachments)
    lines.extend("  " + line for line in extra)
    return "\n".join(lines)


def _snippet(msg: RecordedMessage, world: World) -> str:
    text = render_content(msg.content, world).replace("\n", " ")
    if not text and msg.embeds:
        text = render_content(msg.embeds[0].get("title") or "", world)
    return text if len(text) <= 40 else text[:39] + "…"


def _same_but_buttons(before: Revision, after: Revision) -> bool:
    return (before.content, before.embeds, [a.filename for a in before.attachments]) == (
        after.content,
        after.embeds,
        [a.filename for a in after.attachments],
    )


def render_form(form: Form, user: str) -> list[str]:
    """A form the bot opened: its title, then each field's label and what it is filled with
    (its placeholder, when empty)."""
    lines = [f'(only {user} sees this form) [form: "{form.title}"]']
    for text_input in form.inputs:
        lines.append(f"| {text_input.label}:")
        empty = f"({text_input.placeholder})" if text_input.placeholder else "(empty)"
        shown = text_input.value.splitlines() or [empty]
        lines.extend(f"|   {line}" for line in shown)
    return lines


def render_event(event: Event, world: World) -> str | None:
    msg = event.message
    if event.kind == "interaction" and event.interaction is not None:
        handle = event.interaction
        if handle.modal is None:
            return handle.label
        form = render_form(form_of(handle.modal), handle.user.name)
        return "\n".join([handle.label, *("  " + line for line in form)])
    if msg is None:
        return None
    revision = msg.revisions[event.revision]
    if event.kind == "create":
        return render_message(msg, world, revision=revision)
    if event.kind == "edit":
        before = msg.revisions[event.revision - 1] if event.revision else None
        if before is not None and _same_but_buttons(before, revision):
            what = "took the buttons off" if not revision.components else "changed the buttons of"
            return f'({world.bot.name} {what} a message: "{_snippet(msg, world)}")'
        return render_message(msg, world, revision=revision, edited=True)
    verb = {"delete": "deleted", "pin": "pinned", "unpin": "unpinned"}[event.kind]
    return f'({world.bot.name} {verb} a message: "{_snippet(msg, world)}")'


def render_transcript(events: Iterable[Event], world: World) -> str:
    """All events as text, one entry per line (multi-line entries indented)."""
    lines = [text for text in (render_event(e, world) for e in events) if text is not None]
    return "\n".join(lines)


def _event_channel(event: Event) -> int | None:
    if event.message is not None:
        return event.message.channel_id
    return event.interaction.channel.id if event.interaction is not None else None


def transcript_of(standin: Any, *, since: int = 0, in_channel: Any = None) -> str:
    """Transcript of a ``StandIn`` from event index ``since`` (``len(standin.book.events)``
    taken earlier marks a starting point), optionally limited to one channel."""
    events = standin.book.events[since:]
    if in_channel is not None:
        channel_id = standin.channel(in_channel).id
        events = [e for e in events if _event_channel(e) == channel_id]
    return render_transcript(events, standin.world)


# ---------------------------------------------------------------------------
# Script lines
# ---------------------------------------------------------------------------


class ScriptError(ValueError):
    def __init__(self, message: str, line_no: int = 0) -> None:
        super().__init__(f"line {line_no}: {message}" if line_no else message)
        self.line_no = line_no


@dataclass(frozen=True)
class RawValue:
    text: str
    quoted: bool


@dataclass
class ScriptLine:
    """``kind`` is ``"command"`` (command + options), ``"click"`` (label), ``"submit"`` (options:
    the form's fields by label) or ``"say"`` (text)."""

    user: str
    kind: str
    command: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    label: str | None = None
    text: str | None = None
    line_no: int = 0
    raw: str = ""


_TOKEN = re.compile(
    r"""\s*(?:
        (?P<name>[\w-]+):(?:"(?P<dq>(?:[^"\\]|\\.)*)"|'(?P<sq>(?:[^'\\]|\\.)*)'|(?P<bare>[^\s"']*))
        |(?P<word>[^\s:"']+)
    )""",
    re.VERBOSE,
)
_UNESCAPE = re.compile(r"\\(.)")
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_TRUE, _FALSE = {"true", "yes", "on"}, {"false", "no", "off"}


def _tokenize_command(rest: str, line_no: int) -> tuple[list[str], list[tuple[str, RawValue]]]:
    words: list[str] = []
    options: list[tuple[str, RawValue]] = []
    pos = 0
    rest = rest.rstrip()
    while pos < len(rest):
        m = _TOKEN.match(rest, pos)
        if not m or m.end() == pos:
            raise ScriptError(f"cannot parse near {rest[pos:]!r}", line_no)
        pos = m.end()
        if m.group("word"):
            if options:
                raise ScriptError(f"unexpected word {m.group('word')!r} after options", line_no)
            words.append(m.group("word"))
        else:
            quoted = m.group("dq") if m.group("dq") is not None else m.group("sq")
            value = (
                RawValue(_UNESCAPE.sub(r"\1", quoted), True) if quoted is not None else RawValue(m.group("bare"), False)
            )
            options.append((m.group("name"), value))
    return words, options


def guess_value(raw: RawValue) -> Any:
    """Typing without a schema: quoted → str, true/false → bool, numbers → int/float."""
    if raw.quoted:
        return raw.text
    low = raw.text.lower()
    if low in ("true", "false"):
        return low == "true"
    if _INT.fullmatch(raw.text):
        return int(raw.text)
    if _FLOAT.fullmatch(raw.text):
        return float(raw.text)
    return raw.text


def typed_value(opt: dict[str, Any], raw: RawValue, line_no: int = 0) -> Any:
    """Convert text to the option's schema type (integer 4, number 10, boolean 5, …)."""
    kind, text, name = opt["type"], raw.text, opt["name"]
    try:
        if kind == 4:
            return int(text)
        if kind == 10:
            return int(text) if _INT.fullmatch(text) else float(text)
    except ValueError:
        raise ScriptError(f"option {name!r} needs a number, got {text!r}", line_no) from None
    if kind == 5:
        if text.lower() in _TRUE | _FALSE:
            return text.lower() in _TRUE
        raise ScriptError(f"option {name!r} needs true/false, got {text!r}", line_no)
    if kind in (6, 8, 9):
        return text if kind == 9 or text == "@everyone" else text.lstrip("@")
    if kind == 7:
        return text.lstrip("#")
    return text  # strings (and autocomplete strings) keep the text as written


def parse_script_line(
    line: str, commands: CommandRegistry | None = None, guild_id: int | None = None, line_no: int = 0
) -> ScriptLine | None:
    """Parse one script line; blank lines and ``#`` comments give None.

    With ``commands`` (e.g. ``standin.commands``) option values get the synced schema's
    types, and unknown commands/options are reported; without it values are guessed.
    """
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    user, sep, rest = stripped.partition(":")
    if not sep or not user.strip() or " " in user.strip():
        raise ScriptError(f"expected 'user: action', got {stripped!r}", line_no)
    user, rest = user.strip().lstrip("@"), rest.strip()
    if rest.startswith("/"):
        words, raw_options = _tokenize_command(rest[1:], line_no)
        if not words:
            raise ScriptError("missing command name after '/'", line_no)
        path = "/" + " ".join(words)
        options: dict[str, Any] = {}
        cmd = None
        if commands is not None:
            try:
                cmd = commands.resolve(path, guild_id)
            except InvalidInvocation as exc:
                raise ScriptError(str(exc), line_no) from None
        for name, raw in raw_options:
            if name in options:
                raise ScriptError(f"option {name!r} given twice", line_no)
            if cmd is None:
                options[name] = guess_value(raw)
                continue
            try:
                opt = cmd.option(name)
            except InvalidInvocation as exc:
                raise ScriptError(str(exc), line_no) from None
            options[name] = typed_value(opt, raw, line_no)
        return ScriptLine(user, "command", command=path, options=options, line_no=line_no, raw=stripped)
    if rest.lower().startswith("click"):
        label = rest[5:].strip()
        if len(label) >= 2 and label[0] == label[-1] and label[0] in "\"'":
            label = label[1:-1]
        if not label:
            raise ScriptError("click needs a button label", line_no)
        return ScriptLine(user, "click", label=label, line_no=line_no, raw=stripped)
    if rest.lower().startswith("submit"):
        return ScriptLine(user, "submit", options=_form_values(rest[6:], line_no), line_no=line_no, raw=stripped)
    return ScriptLine(user, "say", text=rest, line_no=line_no, raw=stripped)


def _form_values(rest: str, line_no: int) -> dict[str, str]:
    """``"Sheet 1=dex=2 weapons='Heavy Rifle'" "Sheet 2=..."`` → each field's `key=value` lines."""
    try:
        fields = shlex.split(rest)
        values = {}
        for given in fields:
            label, sep, text = given.partition("=")
            if not sep or not label.strip():
                raise ScriptError(f'submit takes "Field label=key=value ...", got {given!r}', line_no)
            values[label.strip()] = "\n".join(shlex.split(text))
    except ValueError as error:
        raise ScriptError(f"submit: {error}", line_no) from None
    return values


def _merged(before: str, given: str) -> str:
    """A field's text with the keys `given` names set to their new values in place, the others as they were."""
    new = dict(line.partition("=")[::2] for line in given.splitlines())
    keys = [line.partition("=")[0] for line in before.splitlines()]
    lines = [f"{key}={new[key]}" if key in new else line for key, line in zip(keys, before.splitlines(), strict=True)]
    return "\n".join([*lines, *(f"{key}={value}" for key, value in new.items() if key not in keys)])


def last_form(standin: Any, user: str, line_no: int = 0) -> Any:
    """The interaction that opened the newest form shown to `user`."""
    u = standin.world.user(user)
    for handle in reversed(standin.interactions):
        if handle.modal is not None and handle.user.id == u.id:
            return handle
    raise ScriptError(f"no form was shown to {u.name}", line_no)


def parse_script(text: str, commands: CommandRegistry | None = None, guild_id: int | None = None) -> list[ScriptLine]:
    parsed = (parse_script_line(line, commands, guild_id, n) for n, line in enumerate(text.splitlines(), start=1))
    return [p for p in parsed if p is not None]


async def run_script_line(
    standin: Any, line: ScriptLine, *, in_channel: Any = None, timeout: float = 5.0
) -> Sequence[RecordedMessage]:
    """Perform one parsed line on a ``StandIn`` and wait for the bot's visible answer."""
    if line.kind == "command":
        handle = await standin.invoke(line.user, line.command, line.options, in_channel=in_channel)
    elif line.kind == "click":
        handle = await standin.click(line.user, line.label, in_channel=in_channel)
    elif line.kind == "submit":
        opened = last_form(standin, line.user, line.line_no)
        form = form_of(opened.modal)
        try:
            values = {label: _merged(form.field(label).value, text) for label, text in line.options.items()}
            handle = await standin.submit(line.user, opened, values)
        except (KeyError, InvalidInvocation) as error:
            raise ScriptError(str(error).strip("'\""), line.line_no) from None
    else:
        return [await standin.say(line.user, line.text or "", in_channel=in_channel)]
    if await handle.acknowledged(timeout=timeout) == MODAL:
        return []  # a form: the transcript shows it under the line that opened it
    await handle.response(timeout=timeout)
    return handle.messages


async def run_script(standin: Any, text: str, *, in_channel: Any = None, timeout: float = 5.0) -> str:
    """Run a whole script on a ``StandIn`` and return its transcript.

    Lines are parsed one at a time, just before they run, so option types follow the
    schema synced at that moment and errors carry their line number."""
    start = len(standin.book.events)
    channel = standin.channel(in_channel)
    guild_id = channel.guild_id
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = parse_script_line(raw, standin.commands, guild_id, line_no)
        if line is not None:
            await run_script_line(standin, line, in_channel=channel, timeout=timeout)
    return transcript_of(standin, since=start)
