"""A long answer goes out in several messages, each allowing only the pings it makes."""

from __future__ import annotations

import discord

from bot import render
from bot.interact import answer_result, post, reply


class Response:
    def __init__(self, sent: list[tuple[str, list[int]]]) -> None:
        self.sent = sent
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str, *, allowed_mentions: discord.AllowedMentions, **_) -> None:
        self.done = True
        self.sent.append((content, allowed_ids(allowed_mentions)))


class Followup:
    def __init__(self, sent: list[tuple[str, list[int]]]) -> None:
        self.sent = sent

    async def send(self, content: str, *, allowed_mentions: discord.AllowedMentions, **_) -> None:
        self.sent.append((content, allowed_ids(allowed_mentions)))


class Interaction:
    def __init__(self) -> None:
        self.sent: list[tuple[str, list[int]]] = []
        self.response = Response(self.sent)
        self.followup = Followup(self.sent)
        self.channel_id = 1


class Channel:
    def __init__(self) -> None:
        self.sent: list[tuple[str, list[int]]] = []

    async def send(self, content: str, *, allowed_mentions: discord.AllowedMentions) -> None:
        self.sent.append((content, allowed_ids(allowed_mentions)))


def allowed_ids(mentions: discord.AllowedMentions) -> list[int]:
    return [user.id for user in mentions.users] if isinstance(mentions.users, list) else []


LONG = "\n".join(f"Line {n} of a long result" for n in range(150))
CONTENT = f"<@11> {LONG}\nThe turn passes to <@22>."
MENTIONS = render.allowed([11, 22])


async def test_each_piece_of_a_long_answer_allows_only_whom_it_names():
    interaction = Interaction()
    assert await answer_result(interaction, CONTENT, MENTIONS, deferred=False)  # type: ignore[arg-type]
    assert len(interaction.sent) == 2
    assert interaction.sent[0][1] == [11] and interaction.sent[1][1] == [22]


async def test_a_private_reply_and_a_channel_post_in_pieces_allow_the_same():
    interaction = Interaction()
    await reply(interaction, CONTENT, allowed=MENTIONS)  # type: ignore[arg-type]
    assert [ids for _, ids in interaction.sent] == [[11], [22]]
    channel = Channel()
    await post(channel, CONTENT, allowed_mentions=MENTIONS)
    assert [ids for _, ids in channel.sent] == [[11], [22]]


async def test_an_answer_that_names_nobody_allows_nobody():
    interaction = Interaction()
    await answer_result(interaction, "Nothing to see.", MENTIONS, deferred=False)  # type: ignore[arg-type]
    assert interaction.sent == [("Nothing to see.", [])]
