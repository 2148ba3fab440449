"""One path for every command that changes an encounter.

run(): who is asking (GM or player) → the core applies the action under the
channel's lock → the answer goes back to the interaction → then the channel
sees the consequences (a new turn's ping, a choice to make, the tracker edit).
Refusals come back ephemeral and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands

from rules import registry
from rules.errors import RulesError, Stale
from rules.model import Actor, Encounter
from rules.said import N_, say, say_plural
from rules.system import System
from rules.text import Text
from rules.usertext import quoted

from . import render, translation, turn_posts
from .core import CHOICE, TURN, Result, posts_choice, posts_turn, turn_open
from .delivery import Hook, hook_of, persist  # persist: cogs import it from here
from .repository import EncounterRecord
from .stages import STAGE_CLOCK, clock

if TYPE_CHECKING:
    from .app import TurnkeeperBot

log = logging.getLogger(__name__)

BuildWithActor = Callable[[Actor, System, Encounter], object]

DISCORD_REFUSED = N_(
    "Discord refused the bot here: a server manager can check that the bot's role may View Channels, Send "
    "Messages, Embed Links, Attach Files, Read Message History and Pin Messages in this channel (README, "
    "“Creating the Discord application and inviting the bot”). Check /encounter status before trying again."
)
DISCORD_FAILED = N_("Discord did not take the bot's answer. Check /encounter status before trying again.")
# What a fight needs of the bot in its channel (README, “Creating the Discord application and inviting the bot”),
# each under the name Discord's settings give it; a permission is there when any of its flags is.
NEEDED_PERMISSIONS = (
    (("view_channel",), N_("View Channels")),
    (("send_messages",), N_("Send Messages")),
    (("embed_links",), N_("Embed Links")),
    (("attach_files",), N_("Attach Files")),
    (("read_message_history",), N_("Read Message History")),
    (("pin_messages", "manage_messages"), N_("Pin Messages")),
)
IN_THREADS = (("send_messages_in_threads",), N_("Send Messages in Threads"))
THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)

T = TypeVar("T")


async def actor_of(interaction: discord.Interaction) -> Actor:
    bot: TurnkeeperBot = interaction.client  # type: ignore[assignment]
    return Actor(user_id=interaction.user.id, is_gm=await bot.is_gm(interaction))


def manages_server(interaction: discord.Interaction) -> bool:
    """Whether the caller has Manage Server here (outside a server, nobody has)."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms is not None and perms.manage_guild)


async def reply(
    interaction: discord.Interaction,
    content: str,
    *,
    ephemeral: bool = False,
    allowed: discord.AllowedMentions = render.NOBODY,
    **kwargs,
) -> None:
    """Answer the interaction; a long answer goes out as several messages, never cut
    (embeds, files and buttons ride on the last)."""
    chunks = render.split(content)
    for number, chunk in enumerate(chunks, start=1):
        extra = kwargs if number == len(chunks) else {}
        mentions = render.named_in(allowed, chunk)
        if interaction.response.is_done():
            await interaction.followup.send(chunk, ephemeral=ephemeral, allowed_mentions=mentions, **extra)
        else:
            await interaction.response.send_message(chunk, ephemeral=ephemeral, allowed_mentions=mentions, **extra)
    let_go(kwargs.get("view"))


def let_go(view: discord.ui.View | None) -> None:
    """A view sent or edited in whose items are all DynamicItems (or that has none): those are answered by
    their custom id after any restart, so the view object needs no listening (nor the 15-minute timer
    discord.py gives a private message's view)."""
    if view is not None and all(isinstance(i, discord.ui.DynamicItem) for i in view.children):
        view.stop()


async def post(channel, content: str, *, allowed_mentions: discord.AllowedMentions = render.NOBODY) -> None:
    """A message to the channel, split like `reply` when it is long."""
    for chunk in render.split(content):
        await persist(channel.send, chunk, allowed_mentions=render.named_in(allowed_mentions, chunk))


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """The names of what the bot may not do in the interaction's channel, of what a fight needs."""
    granted = interaction.app_permissions
    needed = list(NEEDED_PERMISSIONS)
    if getattr(interaction.channel, "type", None) in THREADS:
        needed[1] = IN_THREADS
    return [name for flags, name in needed if not any(getattr(granted, flag) for flag in flags)]


async def warn_missing_permissions(interaction: discord.Interaction) -> None:
    """Tell whoever started a fight, privately, what the bot may not do in its channel: the interaction's own
    answers need no permission, so the fight starts, but what the bot posts by itself later would fail."""
    missing = missing_permissions(interaction)
    if not missing:
        return
    names = ", ".join(render.words(name) for name in missing)
    said = say_plural(
        "The bot lacks {permissions} in this channel, which a fight needs: what the bot posts by itself "
        "(reminders, the tracker, its pin) may fail here. A server manager can grant it to the bot's role in this "
        "channel's settings (README, “Creating the Discord application and inviting the bot”).",
        "The bot lacks {permissions} in this channel, which a fight needs: what the bot posts by itself "
        "(reminders, the tracker, its pin) may fail here. A server manager can grant them to the bot's role in "
        "this channel's settings (README, “Creating the Discord application and inviting the bot”).",
        len(missing),
        permissions=names,
    )
    try:
        await reply(interaction, f"⚠️ {render.words(said)}", ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the GM what the bot may not do in channel %s", interaction.channel_id)


async def refuse(interaction: discord.Interaction, error: Exception, *, gm: bool = False) -> None:
    """An ephemeral refusal; `gm`: it goes to the GM, who may read hidden NPCs' numbers in it."""
    await reply(interaction, f"⛔ {render.clean(said_by(error), gm=gm)}", ephemeral=True)


def said_by(error: Exception) -> Text | str:
    """What an error says: the rules' text (`RulesError.said`, or a text it was made with), else its str."""
    said = getattr(error, "said", None)
    if said:
        return said if isinstance(said, (Text, str)) else str(said)
    if error.args and isinstance(error.args[0], Text):
        return error.args[0]
    return str(error)


async def refuse_stale(interaction: discord.Interaction, error: Stale) -> None:
    """A click on a message whose turn, question or encounter is over: refused
    privately, then the message loses its buttons so nobody clicks it again. The
    refusal is the interaction's one answer, so a crash between the two steps
    leaves at worst a button that is refused again."""
    await refuse(interaction, error)
    message = interaction.message
    if message is None or message.flags.ephemeral:
        return  # a private question (confirm /encounter end) cannot be edited by the bot; it fades by itself
    try:
        await message.edit(view=None)
    except discord.HTTPException:
        log.info("could not take the buttons off a stale message in channel %s", interaction.channel_id)


async def answer_error(interaction: discord.Interaction, error: Exception) -> None:
    """The one place an error becomes an answer, always private. A refusal by the
    rules changed nothing; the GM may read hidden NPCs' numbers in theirs."""
    original = getattr(error, "original", error)
    if isinstance(original, Stale):
        await refuse_stale(interaction, original)
    elif isinstance(original, RulesError):
        await refuse(interaction, original, gm=await _is_gm(interaction))
    elif isinstance(error, app_commands.NoPrivateMessage):
        await refuse(
            interaction, ValueError(say("Turnkeeper commands work in a server's channels, not in direct messages."))
        )
    elif isinstance(error, app_commands.CheckFailure):
        await refuse(interaction, ValueError(say("You are not allowed to use this command here.")))
    elif isinstance(error, app_commands.TransformerError):
        refusal = say("{value} is not a valid value for that option.", value=quoted(error.value, 40))
        await refuse(interaction, ValueError(refusal))
    elif isinstance(original, (discord.Forbidden, discord.NotFound, discord.DiscordServerError)):
        # Discord refused or dropped the answer (a permission taken away, the interaction gone after its
        # 3 seconds, an outage): no fault of the bot's, so no traceback; the refusal may not get through either.
        log.warning("Discord refused a command's answer in channel %s (%s)", interaction.channel_id, original)
        try:
            await refuse(
                interaction, ValueError(DISCORD_REFUSED if isinstance(original, discord.Forbidden) else DISCORD_FAILED)
            )
        except discord.HTTPException:
            pass
    else:
        log.error("command failed", exc_info=original)
        try:
            await refuse(
                interaction,
                ValueError(say("Something went wrong on our side. Check /encounter status before trying again.")),
            )
        except discord.HTTPException:
            pass


async def _is_gm(interaction: discord.Interaction) -> bool:
    try:
        return (await actor_of(interaction)).is_gm
    except Exception:  # an unreadable role must not cost the refusal: it is shown as to a player
        log.warning("could not tell whether the sender is a GM in channel %s", interaction.channel_id)
        return False


async def run(
    interaction: discord.Interaction, build: BuildWithActor, command: Text | str, *, encounter_id: int | None = None
) -> Result | None:
    """Apply what `build` makes of the command; a refusal raises RulesError, which the
    command tree's error handler answers (buttons have no tree: they are answered here).
    `encounter_id`: the encounter a button was made for (clicks on any other are refused)."""
    bot: TurnkeeperBot = interaction.client  # type: ignore[assignment]
    translation.speaking(interaction)
    arrived = clock()
    async with bot.working():
        try:
            return await _run(bot, interaction, build, command, encounter_id, arrived)
        except RulesError as error:
            if interaction.type == discord.InteractionType.application_command:
                raise
            await answer_error(interaction, error)
            return None


# Discord drops an interaction not answered within 3 seconds. A command still
# waiting for its channel's lock by then (a burst of commands in one channel) is
# acknowledged first, privately, so a refusal can still be private too.
ANSWER_WITHIN_SECONDS = 2.0
# Discord's 3 seconds run from the moment its id carries, not from when the event reached this process
# (a busy event loop reads the gateway late). A host clock ahead of Discord's would make every
# interaction look old, so no more than this much of its age is believed.
TRUSTED_AGE_SECONDS = 1.5


def age_of(interaction: discord.Interaction) -> float:
    """How long ago Discord created the interaction, as far as it is believed (0 to TRUSTED_AGE_SECONDS)."""
    age = (discord.utils.utcnow() - discord.utils.snowflake_time(interaction.id)).total_seconds()
    return min(max(age, 0.0), TRUSTED_AGE_SECONDS)


async def _run(
    bot,
    interaction: discord.Interaction,
    build: BuildWithActor,
    command: Text | str,
    encounter_id: int | None,
    arrived: float,
) -> Result | None:
    async with contextlib.AsyncExitStack() as held:

        async def admitted() -> tuple[Actor, Result]:
            await held.enter_async_context(bot.admission.slot())  # held until the command is answered
            by = await actor_of(interaction)
            started = clock()
            line = render.command_line(interaction, command)
            STAGE_CLOCK.add("render", started)
            return by, await bot.core.act(
                interaction.channel_id,
                lambda system, state: build(by, system, state),
                line,
                encounter_id=encounter_id,
                by_name=interaction.user.display_name,
            )

        # The time in line counts, the wait for a slot too: Discord's 3 seconds run from the command, not
        # from its turn, so a command still waiting then is acknowledged privately first.
        (by, result), deferred = await in_time(interaction, admitted(), ANSWER_WITHIN_SECONDS - (clock() - arrived))
        started = clock()
        content, mentions = answer_content(result)
        started = STAGE_CLOCK.add("render", started)
        answered = await answer_result(interaction, content, mentions, deferred)
        STAGE_CLOCK.add("reply", started)
        if by.is_gm:
            await show_gm(interaction, result)
        await announce(bot, interaction.channel, result, interaction=interaction if answered else None)
        return result


def answer_content(result: Result) -> tuple[str, discord.AllowedMentions]:
    """A change's public answer and whom it pings: whoever its events ask for, but for those
    ``announce``'s messages right after ping anyway, so that each person is notified once."""
    return render.result_content(result.events, leave_out=announced_to(result))


def announced_to(result: Result) -> list[int]:
    """Whom ``announce``'s own messages ping: a new turn's players, a new choice's choosers."""
    users: list[int] = []
    if turn_posted(result):
        users += turn_posts.turn_users(registry.get(result.state.system), result.state)
    if choice_posted(result):
        users += turn_posts.choosers(result.state)
    return users


def turn_posted(result: Result) -> bool:
    return posts_turn(result.before, result.state, result.undone)


def turn_retired(result: Result) -> bool:
    """Whether the turn went with none after it (the fight ended, was undone to before round 1, or an undo
    reopened a question: see ``turn_held``)."""
    return result.state.status == "ended" or (result.turn_changed and not turn_posted(result))


def turn_held(result: Result) -> bool:
    """Whether the turn's message waits for the answer to the question an undo reopened."""
    return result.undone and result.state.pending is not None and turn_open(result.state)


def choice_posted(result: Result) -> bool:
    return posts_choice(result.before, result.state)


async def answer_result(
    interaction: discord.Interaction, content: str, mentions: discord.AllowedMentions, deferred: bool
) -> bool:
    """A committed change's public answer: the interaction's response, or after a private
    acknowledgement (``in_time``) a private "done" and then the answer as followups.

    Whether the interaction took it. When Discord refuses it (the token died: 404 10062
    Unknown interaction), what is left of the answer goes to the channel as the bot's own
    message, and only a warning is logged: the change is saved, and an error reply would
    have the GM retry it, skipping another turn."""
    chunks = render.split(content)
    sent = 0
    try:
        if deferred:
            # The first followup takes the place of the private "thinking…"; later ones may be
            # public, and like every followup they do not count against the global REST limit.
            await reply(interaction, f"✅ {render.words('Done: the result is in the channel.')}", ephemeral=True)
        for chunk in chunks:
            if interaction.response.is_done():
                await persist(_followup(interaction), chunk, allowed_mentions=render.named_in(mentions, chunk))
            else:
                await interaction.response.send_message(chunk, allowed_mentions=render.named_in(mentions, chunk))
            sent += 1
        return True
    except discord.HTTPException as error:
        log.warning(
            "could not answer a command in channel %s (%s): its result goes to the channel",
            interaction.channel_id,
            error,
        )
    try:
        for chunk in chunks[sent:]:
            await post(interaction.channel, chunk, allowed_mentions=mentions)
    except discord.HTTPException:
        log.warning("could not post a command's result to channel %s either", interaction.channel_id)
    return False


async def show_gm(interaction: discord.Interaction, result: Result) -> None:
    """The GM, who answered a command whose public result hides an NPC's numbers,
    reads them in a message only they see."""
    details = render.gm_view(result.events)
    if details is None:
        return
    try:
        await reply(interaction, details, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not show the GM the hidden numbers in channel %s", interaction.channel_id)


async def in_time(interaction: discord.Interaction, work: Awaitable[T], within: float | None = None) -> tuple[T, bool]:
    """``work``'s result, and whether the interaction was acknowledged privately first
    because ``work`` was not done within ``within`` seconds, nor by ANSWER_WITHIN_SECONDS after
    Discord created the interaction.

    The work runs in this task, not one of its own: a timer starts the acknowledgement only if
    it is needed. Either way the acknowledgement is over before this returns or raises, so
    the answer that follows knows whether it is the interaction's response or a followup."""
    deferring: list[asyncio.Task[bool]] = []

    def defer() -> None:
        deferring.append(asyncio.ensure_future(_defer(interaction)))

    within = min(ANSWER_WITHIN_SECONDS if within is None else within, ANSWER_WITHIN_SECONDS - age_of(interaction))
    timer = asyncio.get_running_loop().call_later(max(0.0, within), defer)
    try:
        result = await work
    finally:
        timer.cancel()
        deferred = await deferring[0] if deferring else False
    return result, deferred


async def _defer(interaction: discord.Interaction) -> bool:
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException:
        log.warning("could not acknowledge a slow command in channel %s", interaction.channel_id)
        return False
    return True


async def announce(
    bot: TurnkeeperBot, channel, result: Result, *, interaction: discord.Interaction | None = None
) -> None:
    """Turn pings, choices and the pinned tracker after a committed change.

    With the interaction that made the change, pings go out as its followups, which
    Discord does not count against the bot's global REST limit. Each is tried on its
    own: a failed ping must not also cost the tracker edit."""
    state = result.state
    if result.before is None and getattr(channel, "guild", None) is not None:
        # An encounter starts: its system's commands must be offered in this server.
        try:
            await bot.command_sets.ensure(channel.guild.id, state.system)
        except discord.HTTPException:
            log.warning("could not offer %s's commands in server %s", state.system, channel.guild.id)
    hook = hook_of(interaction)
    send = channel.send if hook is None or interaction is None else _followup(interaction)

    async def turn_message() -> None:
        await post_turn(bot, channel, send, result.encounter_id, state, hook)

    async def choice_message() -> None:
        await post_choice(bot, channel, send, result.encounter_id, state, hook)

    async def question_gone() -> None:
        await bot.turn_buttons.answered(channel, result.encounter_id)

    async def turn_gone() -> None:
        await bot.turn_buttons.ended(channel, result.encounter_id, held=turn_held(result))

    steps = []
    # The question an undo reopened is answered: the turn it held up is shown again.
    held = bot.turn_buttons.holding(result.encounter_id) and state.pending is None and turn_open(state)
    if turn_posted(result) or held:
        steps.append(turn_message)
    if choice_posted(result):
        steps.append(choice_message)  # it takes the buttons off the question it replaces
    elif result.pending_closed:
        steps.append(question_gone)
    if turn_retired(result):
        steps.append(turn_gone)
    for step in steps:
        try:
            await step()
        except discord.HTTPException as error:
            # The change is saved; a failed ping must not turn into an error reply. Discord's refusal
            # (a permission taken away) is no fault of the bot's: no traceback.
            log.warning("could not announce encounter %s in channel %s (%s)", result.encounter_id, channel.id, error)
    if result.announce is not None:
        await announced(bot, result.encounter_id, result.announce)
    update_tracker(bot, channel, result, hook)


async def post_turn(bot: TurnkeeperBot, channel, send, eid: int, state: Encounter, hook: Hook | None) -> None:
    """The turn's message, pinging its players, with its End-turn button: ``send`` posts it."""
    started = clock()
    # Drawn in a thread: tens of milliseconds that would stall every other channel.
    picture = await asyncio.to_thread(turn_posts.clock_picture, state) if turn_posts.on_clock(state) else None
    content, embed, view, mentions, picture = turn_posts.turn_message(registry.get(state.system), state, eid, picture)
    files = [picture] if picture else []
    message = await persist(send, content, embed=embed, view=view, allowed_mentions=mentions, files=files)
    await bot.turn_buttons.posted(channel, eid, message.id, hook)
    STAGE_CLOCK.add("ping", started)


async def post_choice(bot: TurnkeeperBot, channel, send, eid: int, state: Encounter, hook: Hook | None) -> None:
    """The open question's message, pinging whoever must answer, with its buttons: ``send`` posts it."""
    content, view, mentions = turn_posts.choice_message(state, eid)
    message = await persist(send, content, view=view, allowed_mentions=mentions)
    await bot.turn_buttons.asked(channel, eid, message.id, hook)


async def announced(bot: TurnkeeperBot, eid: int, due: str) -> None:
    """What a change had to post is posted (or was refused, which is not asked again): its ``announce_due``
    goes, unless a newer change wrote its own since."""
    try:
        await bot.core.repo.announced(eid, due)
    except Exception:  # the change is saved and shown: this must not turn into an error reply
        log.exception("could not note that encounter %s was announced", eid)


async def catch_up(bot: TurnkeeperBot, channel, record: EncounterRecord) -> bool:
    """Post what a process killed between a change and its ``announce`` left unposted (the record's
    ``announce_due``): the turn's message, pinging its players, and the open question's. Taken off first,
    so that however many processes try, one posts it; whether this one did. ``channel`` None: it cannot
    be posted, and is dropped."""
    due = record.announce_due
    if due is None or not await bot.core.repo.set_meta(record.id, announce_due=None, still={"announce_due": due}):
        return False
    if channel is None:
        return False
    kinds = due.partition(":")[2].split("+")
    state = registry.get(record.system).load(record.state)
    steps = []
    # What the fight shows now: a later change that moved the turn or asked anew wrote its own announce_due.
    if TURN in kinds and turn_open(state):
        steps.append(post_turn)
    if CHOICE in kinds and state.pending is not None:
        steps.append(post_choice)
    for step in steps:
        try:
            await step(bot, channel, channel.send, record.id, state, None)
        except discord.HTTPException as error:
            log.warning("could not catch up encounter %s in channel %s (%s)", record.id, channel.id, error)
    return bool(steps)


def _followup(interaction: discord.Interaction):
    async def send(content, **kwargs):
        return await interaction.followup.send(content, wait=True, **kwargs)

    return send


def update_tracker(bot: TurnkeeperBot, channel, result: Result, hook: Hook | None = None) -> None:
    """The pinned tracker shows this result soon (see ``bot.delivery``)."""
    bot.trackers.schedule(channel, result, hook)
