"""The connections the page holds open are bounded, in all and by address: one more is answered and closed, and a
place freed is taken again (bot.web.gate)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import aiohttp
from aiohttp import web

from bot.config import Settings
from bot.web import gate
from bot.web.gate import MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS, Connections, Gate
from bot.web.server import WebPage
from tests.web.conftest import free_port

STYLE = b"GET /static/page.css HTTP/1.1\r\nHost: turnkeeper\r\nConnection: close\r\n\r\n"


@contextlib.asynccontextmanager
async def listening(repo, **options):
    page = WebPage(repo, **options)
    port = free_port()
    await page.start("127.0.0.1", port)
    try:
        yield port
    finally:
        await page.stop()


async def test_one_connection_beyond_the_bound_is_refused_and_a_place_freed_is_taken_again(repo):
    async with listening(repo, connections=3) as port:
        # Connections that never send a request hold their places all the same.
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(STYLE)
        refused = await asyncio.wait_for(reader.read(), 5)
        assert refused.startswith(b"HTTP/1.1 503 ") and b"Too many open pages" in refused
        assert b"Retry-After: 5\r\n" in refused and b"Connection: close\r\n" in refused
        writer.close()
        # An HTTP client reads the answer like any other.
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/static/page.css") as r:
            assert r.status == 503 and "Too many open pages" in await r.text()
        held[0][1].close()
        await held[0][1].wait_closed()
        await asyncio.sleep(0.1)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(STYLE)
        assert (await asyncio.wait_for(reader.read(), 5)).startswith(b"HTTP/1.1 200 ")
        writer.close()
        for _, other in held[1:]:
            other.close()


def test_one_address_holds_only_so_many_and_a_proxy_on_this_machine_only_the_total():
    connections = Connections(most=6, most_per_address=2)
    assert [connections.enter("203.0.113.9") for _ in range(3)] == [None, None, web.HTTPTooManyRequests]
    assert connections.enter("198.51.100.7") is None
    connections.leave("203.0.113.9")
    assert connections.enter("203.0.113.9") is None
    # The proxy in front, one address for all its visitors.
    assert [connections.enter("127.0.0.1") for _ in range(4)] == [None, None, None, web.HTTPServiceUnavailable]
    assert connections.enter("192.0.2.1") is web.HTTPServiceUnavailable


class Transport(asyncio.Transport):
    def __init__(self, peer: str) -> None:
        super().__init__()
        self.peer = (peer, 4321)
        self.sent = b""
        self.ended = self.aborted = False

    def get_extra_info(self, name, default=None):
        return self.peer if name == "peername" else default

    def write(self, data) -> None:
        self.sent += bytes(data)

    def write_eof(self) -> None:
        self.ended = True

    def abort(self) -> None:
        self.aborted = True


class Handler(asyncio.Protocol):
    def __init__(self) -> None:
        self.made = self.lost = 0

    def connection_made(self, transport) -> None:
        self.made += 1

    def connection_lost(self, exc) -> None:
        self.lost += 1


async def test_an_ipv6_visitor_holds_its_places_by_its_64_and_one_more_is_answered_429():
    connections = Connections(most=10, most_per_address=2)
    handlers: list[Handler] = []

    def handler() -> Handler:
        handlers.append(Handler())
        return handlers[-1]

    def refusal(kind) -> bytes:
        return f"HTTP/1.1 {kind.status_code}\r\n\r\n".encode()

    gates = [Gate(connections, handler, refusal) for _ in range(3)]
    transports = [Transport(peer) for peer in ("2001:db8:1:2::5", "2001:db8:1:2:ff::9", "2001:db8:1:2::7")]
    for one, transport in zip(gates, transports, strict=True):
        one.connection_made(transport)
    assert len(handlers) == 2 and transports[2].sent == b"HTTP/1.1 429\r\n\r\n" and transports[2].ended
    await asyncio.sleep(gate.REFUSED_SECONDS + 0.1)
    assert transports[2].aborted and not transports[0].aborted  # a refused client that never closes is cut
    gates[2].connection_lost(None)
    gates[0].connection_lost(None)
    assert handlers[0].lost == 1 and connections.of == {"2001:db8:1:2::/64": 1} and connections.refused == 0


def test_no_more_connections_than_the_process_may_open_files_beside_the_bots_own(monkeypatch, caplog):
    monkeypatch.setattr(gate.resource, "getrlimit", lambda _: (1024, 4096))
    with caplog.at_level(logging.WARNING, logger="bot.web.gate"):
        assert gate.within_files(5000) == 1024 - gate.FILES_OF_THE_BOT
    assert "ulimit -n" in caplog.text
    assert gate.within_files(500) == 500
    monkeypatch.setattr(gate.resource, "getrlimit", lambda _: (gate.resource.RLIM_INFINITY,) * 2)
    assert gate.within_files(5000) == 5000


def test_the_bounds_are_settings_with_the_pages_own_defaults(monkeypatch):
    settings = Settings(_env_file=None)
    assert settings.web_max_connections == MAX_CONNECTIONS
    assert settings.web_max_connections_per_address == MAX_CONNECTIONS_PER_ADDRESS
    monkeypatch.setenv("WEB_MAX_CONNECTIONS", "800")
    monkeypatch.setenv("WEB_MAX_CONNECTIONS_PER_ADDRESS", "12")
    settings = Settings(_env_file=None)
    assert (settings.web_max_connections, settings.web_max_connections_per_address) == (800, 12)
