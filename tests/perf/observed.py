"""A stand-in that also notes when and from whom things arrived.

Subclassed, not edited: the stand-in itself stays the one the tests use. It adds

- ``sent_at[interaction_id]``: when INTERACTION_CREATE was queued on the gateway;
- ``callback_at[interaction_id]``: when the callback POST reached the REST handler
  (before its body is read), so a latency is exactly bot time plus transport;
- ``senders``: the ``X-Launcher`` header of every REST call, and ``session_senders``
  the one of the websocket that identified each gateway session (the name a bot
  process got from ``launcher``; empty for other clients).
"""

from __future__ import annotations

import contextvars
import re
import time
from typing import Any

from aiohttp import web

from bot.standin import StandIn
from bot.standin.gateway import Connection, Gateway
from bot.standin.interactions import InteractionHandle

_CALLBACK = re.compile(r"^/interactions/(\d+)/[^/]+/callback$")
_connecting: contextvars.ContextVar[str] = contextvars.ContextVar("connecting", default="")
SENDER = "X-Launcher"


class SenderGateway(Gateway):
    def __init__(self, standin: ObservedStandIn) -> None:
        super().__init__(standin)
        self.session_senders: dict[str, str] = {}

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        # Frames of this websocket are handled inside this task, so IDENTIFY sees it.
        _connecting.set(request.headers.get(SENDER, ""))
        return await super().handle(request)

    def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        super()._identify(conn, data)
        if conn.session is not None:
            self.session_senders[conn.session.session_id] = _connecting.get()


class ObservedStandIn(StandIn):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gateway = SenderGateway(self)
        self.sent_at: dict[int, float] = {}
        self.callback_at: dict[int, float] = {}
        self.senders: list[tuple[str, str, str]] = []  # (X-Launcher, method, path)

    def _send_interaction(self, *args: Any, **kwargs: Any) -> InteractionHandle:
        handle = super()._send_interaction(*args, **kwargs)
        self.sent_at[handle.id] = time.perf_counter()
        return handle

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        found = _CALLBACK.match(path)
        if found:
            self.callback_at.setdefault(int(found.group(1)), time.perf_counter())
        self.senders.append((request.headers.get(SENDER, ""), request.method, path))
        return await super()._rest(request)

    def latency(self, handle: InteractionHandle) -> float | None:
        """Seconds from sending the interaction to its callback arriving (None: no callback yet)."""
        done = self.callback_at.get(handle.id)
        return None if done is None else done - self.sent_at[handle.id]

    def sender_of_session(self, session_id: str) -> str:
        return self.gateway.session_senders.get(session_id, "")

    def senders_for(self, pattern: str) -> set[str]:
        """Who made the REST calls whose "METHOD /path" matches the regex."""
        rx = re.compile(pattern)
        return {sender for sender, method, path in self.senders if rx.search(f"{method} {path}")}
