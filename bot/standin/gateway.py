"""The gateway: websocket connections, IDENTIFY/RESUME sessions, sharding and dispatch.

A *session* outlives its websocket: dispatches sent while the bot is disconnected are
kept (with their sequence numbers) and replayed when it RESUMEs, exactly what a bot
must survive in production.  Frames are plain JSON text; discord.py asks for
``compress=zlib-stream`` but also accepts uncompressed text frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .payloads import guild_payload, me_payload, member_payload
from .snowflakes import shard_of

if TYPE_CHECKING:
    from .server import StandIn

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = (
    0,
    1,
    2,
    6,
    7,
    8,
    9,
    10,
    11,
)
HEARTBEAT_INTERVAL_MS = 41250
CLOSE_AUTH_FAILED = 4004
CLOSE_INVALID_SHARD = 4010


def _payload(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame's `d`, which for every op a client sends but a heartbeat is an object."""
    data = frame.get("d")
    if not isinstance(data, dict):
        raise ValueError(f"gateway op {frame.get('op')} carries no object: {data!r}")
    return data


class GatewaySession:
    def __init__(self, session_id: str, shard_id: int, shard_count: int, intents: int) -> None:
        self.session_id = session_id
        self.shard_id = shard_id
        self.shard_count = shard_count
        self.intents = intents
        self.seq = 0
        self.sent: list[tuple[int, str, str]] = []  # (seq, event name, frame)
        self.connection: Connection | None = None
        self.ended = False  # the bot closed it cleanly (code 1000); it cannot resume
        self.resumes = 0
        self.replayed: list[str] = []  # event names re-sent on the last RESUME

    def serves(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.shard_count) == self.shard_id

    @property
    def connected(self) -> bool:
        return self.connection is not None

    @property
    def events(self) -> list[str]:
        return [name for _, name, _ in self.sent]

    def dispatch(self, event: str, data: Any) -> int:
        """Queue a dispatch; sent now if connected, otherwise on RESUME."""
        self.seq += 1
        frame = json.dumps({"op": DISPATCH, "s": self.seq, "t": event, "d": data})
        self.sent.append((self.seq, event, frame))
        if self.connection is not None:
            self.connection.send(frame)
        return self.seq


class Connection:
    """One websocket.  A single writer task keeps frames in order."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: GatewaySession | None = None
        self._queue: asyncio.Queue[tuple[str, int] | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())
        self.close_requested: int | None = None

    def send(self, frame: str) -> None:
        self._queue.put_nowait((frame, 0))

    def send_op(self, op: int, data: Any) -> None:
        self.send(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    def close(self, code: int) -> None:
        """Close after already queued frames are written."""
        self.close_requested = code
        self._queue.put_nowait(("", code))

    async def _write(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            frame, close_code = item
            try:
                if close_code:
                    await self.ws.close(code=close_code)
                    return
                await self.ws.send_str(frame)
            except (ConnectionResetError, RuntimeError):
                return  # the peer went away; the session keeps the frames for RESUME

    async def stop(self) -> None:
        self._queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self._writer, 1.0)


class Gateway:
    def __init__(self, standin: StandIn) -> None:
        self.standin = standin
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: set[Connection] = set()
        self.identify_count = 0

    # -- websocket endpoint -------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.add(conn)
        conn.send_op(HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                self._on_frame(conn, json.loads(msg.data))
        finally:
            self.connections.discard(conn)
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                # Only the bot's own clean close ends a session; anything else may RESUME.
                if conn.close_requested is None and ws.close_code == 1000:
                    session.ended = True
            await conn.stop()
            self.standin.notifier.notify()
        return ws

    def _on_frame(self, conn: Connection, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        if op == HEARTBEAT:
            conn.send_op(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            self._identify(conn, _payload(frame))
        elif op == RESUME:
            self._resume(conn, _payload(frame))
        elif op == REQUEST_MEMBERS:
            self._member_chunk(conn, _payload(frame))
        # Presence (3) and voice state (4) updates need no answer.

    def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.standin.token:
            conn.close(CLOSE_AUTH_FAILED)
            return
        shard_id, shard_count = data.get("shard") or [0, 1]
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            conn.close(CLOSE_INVALID_SHARD)
            return
        self.identify_count += 1
        session = GatewaySession(
            f"standin-session-{self.identify_count}", shard_id, shard_count, int(data.get("intents") or 0)
        )
        self.sessions[session.session_id] = session
        conn.session = session
        session.connection = conn
        world = self.standin.world
        guilds = [g for g in world.guilds.values() if session.serves(g.id)]
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": me_payload(world.bot),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.session_id,
                "session_type": "normal",
                "resume_gateway_url": self.standin.gateway_url,
                "shard": [shard_id, shard_count],
                "application": {"id": str(world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "auth": {},
            },
        )
        for guild in guilds:
            session.dispatch("GUILD_CREATE", guild_payload(guild, intents=session.intents, bot_id=world.bot.id))
        self.standin.notifier.notify()

    def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(data.get("session_id") or "")
        if session is None or session.ended or data.get("token") != self.standin.token:
            conn.send_op(INVALID_SESSION, False)
            return
        if session.connection is not None and session.connection is not conn:
            session.connection.close(4000)
        conn.session = session
        last_seen = int(data.get("seq") or 0)
        missed = [(name, frame) for seq, name, frame in session.sent if seq > last_seen]
        session.replayed = [name for name, _ in missed]
        for _, frame in missed:
            conn.send(frame)
        session.connection = conn
        session.resumes += 1
        session.dispatch("RESUMED", {})
        self.standin.notifier.notify()

    def _member_chunk(self, conn: Connection, data: dict[str, Any]) -> None:
        if conn.session is None:
            return
        guild_ids = data["guild_id"]  # one id or a list of them
        for gid in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.standin.world.guilds.get(int(gid))
            if guild is None:
                continue
            conn.session.dispatch(
                "GUILD_MEMBERS_CHUNK",
                {
                    "guild_id": str(guild.id),
                    "members": [member_payload(m) for m in guild.members.values()],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "nonce": data.get("nonce"),
                },
            )

    # -- used by the stand-in -----------------------------------------------
    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if not s.ended]

    def session_for_guild(self, guild_id: int) -> GatewaySession | None:
        """The newest live session whose shard serves this guild."""
        candidates = [s for s in self.live_sessions() if s.serves(guild_id)]
        return candidates[-1] if candidates else None

    def disconnect(self, session: GatewaySession | None = None, *, code: int = 4000) -> list[GatewaySession]:
        """Drop websockets (all live ones by default) with a resumable close code."""
        targets = [session] if session else [s for s in self.live_sessions() if s.connected]
        for s in targets:
            if s.connection is not None:
                s.connection.close(code)
        return targets

    async def shutdown(self) -> None:
        for conn in list(self.connections):
            conn.close(1001)
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.ws.close(code=1001), 1.0)
