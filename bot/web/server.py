"""The fight's read-only page, served with aiohttp beside the bot (`WEB_PORT`).

- `GET /f/{token}`: the page (`?overlay`: the compact, transparent one for streaming software). It works without
  JavaScript: a `<noscript>` refresh reloads it every few seconds.
- `GET /f/{token}/events`: Server-Sent Events, the page's fragments again after every change.
- `GET /static/…`: the page's script and style (the Content-Security-Policy allows no inline script or style).

Connections are bounded in all and by address before any of this (`bot.web.gate`).

State is read from the database, never from this process's memory of a command: a fight changed by another shard
process reaches the page too. One poller per link watches its fight's `version` (about twice a second) for all its
open pages, and that the link still shows it (not revoked, not expired: else the pages are told and closed); each
page has a queue of one, so a slow reader skips to the latest state instead of piling up memory.
A request writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
import re
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from aiohttp import web

from rules import registry
from rules.said import N_, say

from .. import render, translation
from ..html_text import html_text
from ..repository import EncounterRecord, Repository
from ..tables import utcnow
from .gate import MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS, Connections, GatedSite, Refusal, place, within_files
from .page import LAST_RESULTS, View, view
from .shares import Share, Shares, expired

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")
POLL_SECONDS = 0.5
KEEPALIVE_SECONDS = 15.0
NO_SCRIPT_REFRESH_SECONDS = 5
# Requests per address: a burst, then so many a second.
PAGE_BURST, PAGE_RATE = 30, 1.0
STREAM_BURST, STREAM_RATE = 10, 0.2
MAX_STREAMS_PER_VISITOR = 20  # a TV, a stream, a few phones: more from one place is not a table watching
MAX_ADDRESSES = 10000
# Refusals that pass: a page refused (a TV reloading after the server restarted) asks again by itself.
PASSING = (web.HTTPTooManyRequests, web.HTTPServiceUnavailable)
# The end of a page whose link no longer shows the fight (None ends a stream quietly: the page reconnects).
GONE = N_("This link no longer shows the fight: the GM revoked it, or the fight ended more than a day ago.")

POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": POLICY,
    "Cache-Control": "no-store",
    # The link's token is in the address: no other site learns it from a Referer.
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    # A link someone posted in the open is still nobody's to find through a search engine.
    "X-Robots-Tag": "noindex, nofollow",
}


class RateLimit:
    """A token bucket per address; the least recently seen addresses are forgotten past `MAX_ADDRESSES`."""

    def __init__(self, burst: float, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, address: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1
        self._buckets[address] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > MAX_ADDRESSES:
            self._buckets.popitem(last=False)
        return allowed


def address_of(request: web.Request) -> str:
    """Who asks: behind a reverse proxy on this machine, the address it forwards (the last one it added; a
    proxy may add a header line of its own after the client's), an IPv6 address by its /64, which one
    household or server holds whole."""
    remote = request.remote or ""
    # Every line of the header: the client may have sent one of its own before the proxy's.
    forwarded = ",".join(request.headers.getall("X-Forwarded-For", []))
    try:
        local = ipaddress.ip_address(remote).is_loopback
    except ValueError:
        local = False
    address = forwarded.split(",")[-1].strip() if local and forwarded.strip() else remote
    return place(address)


Shown = View | str | None  # a state; GONE: the link is dead; None: the server stops


class Watch:
    """One link's fight as its open pages see it: the latest view, and a queue of one per page."""

    def __init__(self, share: Share) -> None:
        self.share = share
        self.pages: set[asyncio.Queue[Shown]] = set()
        self.task: asyncio.Task[None] | None = None

    def publish(self, shown: Shown) -> None:
        for queue in self.pages:
            with contextlib.suppress(asyncio.QueueEmpty):
                queue.get_nowait()  # an unread older state is not worth sending any more
            queue.put_nowait(shown)


class WebPage:
    def __init__(
        self,
        repo: Repository,
        *,
        poll: float = POLL_SECONDS,
        now: Callable[[], datetime] = utcnow,
        clock: Callable[[], float] = time.monotonic,
        connections: int = MAX_CONNECTIONS,
        connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
    ) -> None:
        self.repo = repo
        self.connections = Connections(connections, connections_per_address)
        self.shares = Shares(repo.engine)
        self.poll = poll
        self.now = now
        self.page_limit = RateLimit(PAGE_BURST, PAGE_RATE, clock)
        self.stream_limit = RateLimit(STREAM_BURST, STREAM_RATE, clock)
        self.watches: dict[str, Watch] = {}  # by link
        self.streams = 0
        self.streams_of: Counter[str] = Counter()  # open streams by visitor
        self.app = web.Application()
        self.app.router.add_get("/f/{token}", self.page)
        # No HEAD: a stream's body would follow headers that said there is none, and hold a place for nothing.
        self.app.router.add_get("/f/{token}/events", self.events, allow_head=False)
        self.app.router.add_get("/static/{name}", self.static)
        self.app.on_response_prepare.append(_secure)
        self._runner: web.AppRunner | None = None

    # --- running beside the bot ------------------------------------------------------
    async def start(self, host: str, port: int) -> None:
        # A page closed ends its stream at once (else only at its next write, the keep-alive 15 s later): it no
        # longer counts among its visitor's open pages. Cancelling a handler is safe: a request writes nothing.
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0, handler_cancellation=True)
        await self._runner.setup()
        self.connections.most = within_files(self.connections.most)
        await GatedSite(self._runner, host, port, self.connections, _refusal).start()
        log.info("the fight's web page listens on %s:%s", host, port)

    async def stop(self) -> None:
        for watch in list(self.watches.values()):
            if watch.task is not None:
                watch.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watch.task
            watch.publish(None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- reading a fight ---------------------------------------------------------------
    async def _shared(self, request: web.Request) -> tuple[Share, EncounterRecord]:
        token = request.match_info["token"]
        share = await self.shares.find(token) if TOKEN.fullmatch(token) else None
        if share is None:
            raise _refused(web.HTTPNotFound, N_("This link is unknown or was revoked by the GM."))
        record = await self.repo.get_encounter(share.encounter_id)
        if record is None or expired(record, self.now()):
            raise _refused(web.HTTPGone, N_("This fight ended more than a day ago: its page is gone."))
        return share, record

    async def _view(self, record: EncounterRecord) -> View:
        system = registry.get(record.system)
        events = await self.repo.last_events(record.id, LAST_RESULTS)
        return view(system, system.load(record.state), record.version, events)

    # --- the page ------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.Response:
        if not self.page_limit.allow(address_of(request)):
            raise _refused(web.HTTPTooManyRequests, N_("Too many requests: wait a moment."))
        share, record = await self._shared(request)
        translation.LOCALE.set(share.locale)
        shown = await self._view(record)
        overlay = "overlay" in request.query
        return web.Response(text=document(shown, share, overlay=overlay), content_type="text/html", charset="utf-8")

    async def events(self, request: web.Request) -> web.StreamResponse:
        visitor = address_of(request)
        if not self.stream_limit.allow(visitor) or self.streams_of[visitor] >= MAX_STREAMS_PER_VISITOR:
            raise _refused(web.HTTPTooManyRequests, N_("Too many requests: wait a moment."))
        share, record = await self._shared(request)
        translation.LOCALE.set(share.locale)
        shown = await self._view(record)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
        queue: asyncio.Queue[Shown] = asyncio.Queue(maxsize=1)
        watch = self._watch(share)
        watch.pages.add(queue)
        self.streams += 1
        self.streams_of[visitor] += 1
        try:
            await response.prepare(request)
            await response.write(b"retry: 1000\n\n" + _event(shown))
            while True:
                try:
                    latest = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if latest is None:
                    break  # the server stops: the page reconnects to the next one
                if isinstance(latest, str):
                    await response.write(_gone(latest))  # the page stops listening
                    break
                await response.write(_event(latest))
        except (ConnectionResetError, ConnectionError):
            pass
        finally:
            self.streams -= 1
            self.streams_of[visitor] -= 1
            if not self.streams_of[visitor]:
                del self.streams_of[visitor]
            watch.pages.discard(queue)
            if not watch.pages and watch.task is not None:
                watch.task.cancel()
                self.watches.pop(watch.share.token, None)
        return response

    def _watch(self, share: Share) -> Watch:
        watch = self.watches.get(share.token)
        if watch is None:
            watch = self.watches[share.token] = Watch(share)
            watch.task = asyncio.create_task(self._polling(watch), name=f"web page of encounter {share.encounter_id}")
        return watch

    async def _polling(self, watch: Watch) -> None:
        translation.LOCALE.set(watch.share.locale)
        seen: int | None = None
        while True:
            await asyncio.sleep(self.poll)
            try:
                # The link itself is looked up every time: a page of a revoked or expired link ends at once.
                version = await self.shares.shown(watch.share.token, self.now())
                if version is None:
                    watch.publish(render.plain(say(GONE)))
                    continue
                if version == seen:
                    continue
                record = await self.repo.get_encounter(watch.share.encounter_id)
                if record is None:
                    continue  # gone since: the next look says so
                watch.publish(await self._view(record))  # the first one too: a page may have read an older state
                seen = record.version
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup: the pages keep their last state, the next poll tries again
                log.exception("the web page of encounter %s could not be read", watch.share.encounter_id)

    async def static(self, request: web.Request) -> web.FileResponse:
        name = request.match_info["name"]
        if name not in ("page.js", "page.css"):
            raise web.HTTPNotFound()
        response = web.FileResponse(STATIC / name)
        response.headers["Cache-Control"] = "public, max-age=300"
        return response


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.popall("Set-Cookie", None)


def _refused(kind: type[web.HTTPException], said: str) -> web.HTTPException:
    text = html_text(said)
    passing = issubclass(kind, PASSING)
    again = f'<meta http-equiv="refresh" content="{NO_SCRIPT_REFRESH_SECONDS}">' if passing else ""
    body = (
        f'<!DOCTYPE html><html lang="{_lang(None)}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">{again}'
        f"<title>{text}</title></head><body><p>{text}</p></body></html>"
    )
    headers = {"Retry-After": str(NO_SCRIPT_REFRESH_SECONDS)} if passing else None
    return kind(text=body, content_type="text/html", headers=headers)


def _refusal(kind: Refusal) -> bytes:
    """The whole answer to a connection beyond a bound (`bot.web.gate`), before its request is read."""
    if kind is web.HTTPServiceUnavailable:
        error = _refused(kind, N_("Too many open pages: try again later."))
    else:
        error = _refused(kind, N_("Too many requests: wait a moment."))
    body = error.body if isinstance(error.body, bytes) else b""
    headers = {**HEADERS, **error.headers, "Content-Length": str(len(body)), "Connection": "close"}
    head = f"HTTP/1.1 {error.status} {error.reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    return (head + "\r\n").encode("latin-1") + body


def _event(shown: View) -> bytes:
    return f"event: state\ndata: {json.dumps(shown.fragments())}\n\n".encode()


def _gone(said: str) -> bytes:
    return f"event: gone\ndata: {json.dumps({'said': said})}\n\n".encode()


def _lang(locale: str | None) -> str:
    """The page's `lang`: the language its words are in, which is English where no catalog has the server's."""
    return html.escape(translation.language(locale), quote=True)


def document(shown: View, share: Share, *, overlay: bool = False) -> str:
    """The whole page; its parts are the view's fragments, filled again in place by the script on every change."""
    title = html.escape(render.plain(say("Turnkeeper — the fight")), quote=True)
    results = html_text(N_("Last results"))
    events = html.escape(f"{share.token}/events", quote=True)
    return f"""<!DOCTYPE html>
<html lang="{_lang(share.locale)}" data-events="{events}" data-again="{NO_SCRIPT_REFRESH_SECONDS}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="stylesheet" href="../static/page.css">
<script src="../static/page.js" defer></script>
<noscript><meta http-equiv="refresh" content="{NO_SCRIPT_REFRESH_SECONDS}"></noscript>
</head>
<body class="{"overlay" if overlay else "page"}">
<main>
<header><h1 id="title">{shown.title}</h1><p id="round">{shown.round}</p></header>
<p id="now" role="status" aria-live="polite">{shown.now}</p>
<section id="waiting" role="status" aria-live="polite">{shown.waiting}</section>
<div id="clock">{shown.clock}</div>
<ol id="order">{shown.order}</ol>
<section class="results"><h2>{results}</h2><ul id="results">{shown.results}</ul></section>
</main>
</body>
</html>
"""
