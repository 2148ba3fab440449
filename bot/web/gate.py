"""A bound on the connections the page server holds open, counted before aiohttp reads a byte of them.

Every open connection costs the process a file, which the bot needs for Discord and the database too; a
connection that sends nothing, or its request a byte at a time, is held as long as a page's event stream. So there
are at most so many in all, and so many from one address (an IPv6 address by its /64, as `bot.web.server` counts
requests). A reverse proxy on this machine is one address for all its visitors: it is bound by the total only, and
its visitors by their own streams (`bot.web.server`). A connection beyond a bound is answered at once, 503 or 429,
and closed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
from collections import Counter
from collections.abc import Callable
from typing import cast

from aiohttp import web

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 5000
MAX_CONNECTIONS_PER_ADDRESS = 50  # a browser holds up to six; a table's TV, stream and phones fit
# Files the bot keeps for itself beside the page's connections: Discord's gateway and HTTP, the database, logs.
FILES_OF_THE_BOT = 256
# A refused connection is closed once the client has read its answer, or after so long; past so many of them
# waiting, the next is cut without one.
REFUSED_SECONDS = 2.0
MAX_REFUSED = 100

Refusal = type[web.HTTPException]


def place(address: str) -> str:
    """An address as one place: an IPv6 address by its /64, which one household or server holds whole."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


def _local(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def within_files(most: int) -> int:
    """`most` connections, or fewer if the process may not open that many files beside the bot's own."""
    files, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if files == resource.RLIM_INFINITY or most <= files - FILES_OF_THE_BOT:
        return most
    fewer = max(1, files - FILES_OF_THE_BOT)
    log.warning(
        "the web page holds at most %s connections, not WEB_MAX_CONNECTIONS=%s: the process may open only %s "
        "files (raise it with `ulimit -n` or systemd's LimitNOFILE)",
        fewer,
        most,
        files,
    )
    return fewer


class Connections:
    """The open connections, in all and by address."""

    def __init__(self, most: int, most_per_address: int) -> None:
        self.most, self.most_per_address = most, most_per_address
        self.open = 0
        self.of: Counter[str] = Counter()
        self.refused = 0  # refused, not closed yet

    def enter(self, address: str) -> Refusal | None:
        """Counts a new connection in, or says why not."""
        if self.open >= self.most:
            return web.HTTPServiceUnavailable
        if not _local(address) and self.of[address] >= self.most_per_address:
            return web.HTTPTooManyRequests
        self.open += 1
        self.of[address] += 1
        return None

    def leave(self, address: str) -> None:
        self.open -= 1
        self.of[address] -= 1
        if not self.of[address]:
            del self.of[address]


class Gate(asyncio.Protocol):
    """One connection: handed to aiohttp's `handler` if the bounds allow it, else answered `refusal` and closed."""

    def __init__(
        self,
        connections: Connections,
        handler: Callable[[], asyncio.Protocol],
        refusal: Callable[[Refusal], bytes],
    ) -> None:
        self.connections, self.handler, self.refusal = connections, handler, refusal
        self.inner: asyncio.Protocol | None = None
        self.address = ""
        self.cut: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport = cast(asyncio.Transport, transport)  # a TCP server's
        peer = transport.get_extra_info("peername")
        self.address = place(peer[0]) if isinstance(peer, tuple) else ""
        refused = self.connections.enter(self.address)
        if refused is None:
            self.inner = self.handler()
            self.inner.connection_made(transport)
            return
        if self.connections.refused >= MAX_REFUSED:
            transport.abort()
            return
        self.connections.refused += 1
        # The answer goes before the request is read; the request is still read (and dropped) until the client
        # closes: a socket closed on unread bytes is reset, and the client could lose the answer.
        transport.write(self.refusal(refused))
        transport.write_eof()
        self.cut = asyncio.get_running_loop().call_later(REFUSED_SECONDS, transport.abort)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.connections.leave(self.address)
            self.inner.connection_lost(exc)
        elif self.cut is not None:
            self.cut.cancel()
            self.connections.refused -= 1


class GatedSite(web.BaseSite):
    """aiohttp's TCP site, each connection through a `Gate`."""

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str,
        port: int,
        connections: Connections,
        refusal: Callable[[Refusal], bytes],
    ) -> None:
        super().__init__(runner)
        self.host, self.port = host, port
        self.connections, self.refusal = connections, refusal

    @property
    def name(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        await super().start()
        handler = self._runner.server
        assert handler is not None  # the runner was set up: BaseSite insists
        self._server = await asyncio.get_running_loop().create_server(
            lambda: Gate(self.connections, handler, self.refusal), self.host, self.port, backlog=self._backlog
        )
