"""An interaction Discord delivers twice is acted on once.

Discord may send an INTERACTION_CREATE again, e.g. when a gateway RESUME replays events the bot had
read already. Acted on twice, a command would change the fight twice (a /damage dealt twice, a note
logged twice), and its second answer, refused by Discord (40060: already acknowledged), would go to
the channel as the bot's own message."""

from __future__ import annotations

import logging
from collections import deque

log = logging.getLogger(__name__)

AUTOCOMPLETE = 4  # Discord's interaction type of an autocomplete request: answering it twice changes nothing
# A replay comes within a session's short buffer of events: the newest ids are enough, and a bounded number.
REMEMBERED = 20_000


class OnceEach:
    """Drops an interaction whose id this process has already seen. Wraps the parser of ``connection``
    (discord.py's ConnectionState keeps them by event name), before anything else reads it."""

    def __init__(self, connection, remembered: int = REMEMBERED) -> None:
        self._seen: set[int] = set()
        self._order: deque[int] = deque()
        parse = connection.parsers["INTERACTION_CREATE"]

        def once(data) -> None:
            if data.get("type") != AUTOCOMPLETE:
                interaction_id = int(data["id"])
                if interaction_id in self._seen:
                    log.info("interaction %s was delivered again: acted on once", interaction_id)
                    return
                self._seen.add(interaction_id)
                self._order.append(interaction_id)
                if len(self._order) > remembered:
                    self._seen.discard(self._order.popleft())
            parse(data)

        connection.parsers["INTERACTION_CREATE"] = once
