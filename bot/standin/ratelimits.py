"""Discord's rate limits, so a client's own limiter is exercised as production would.

Two limits apply to a bot token's REST requests
(https://discord.com/developers/docs/topics/rate-limits):

* the global limit: ``global_per_second`` requests in any second, all routes together;
  interaction callbacks and interaction webhooks (followups) are exempt;
* per-route buckets: ``route_limit`` requests per ``route_window`` seconds for each route
  and its major parameter (a channel, a guild, an interaction token).

Every answer on a bucketed route carries ``X-RateLimit-Limit/Remaining/Reset/Reset-After/
Bucket``; going over either limit is answered with 429, ``Retry-After`` and Discord's JSON
body (``message``, ``retry_after``, ``global``), and recorded in ``RateLimiter.hits``.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass, field

from aiohttp import web

MAJOR_PARAMETERS = ("channel_id", "guild_id", "application_id", "token")


@dataclass(frozen=True)
class RateLimits:
    """The stand-in's limits; ``None`` switches a limit off."""

    global_per_second: int | None = 50
    route_limit: int | None = 5
    route_window: float = 5.0
    # Routes with limits of their own: "METHOD /template" -> (limit, window seconds).
    routes: dict[str, tuple[int, float]] = field(default_factory=dict)

    @classmethod
    def discord(cls) -> RateLimits:
        """Close to what Discord answers a bot today (command syncs are slow, pins too)."""
        return cls(
            routes={
                "PUT /applications/{application_id}/commands": (2, 60.0),
                "PUT /applications/{application_id}/guilds/{guild_id}/commands": (2, 60.0),
            }
        )


@dataclass
class Window:
    limit: int
    length: float
    started: float = 0.0
    used: int = 0

    def roll(self, now: float) -> None:
        if now >= self.started + self.length:
            self.started, self.used = now, 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.started + self.length - now)


@dataclass(frozen=True)
class Hit:
    method: str
    path: str
    is_global: bool
    at: float


def exempt_from_global(template: str) -> bool:
    return template.startswith("/interactions/") or template.startswith("/webhooks/")


class RateLimiter:
    def __init__(self, limits: RateLimits, *, clock=time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._global = Window(limits.global_per_second or 0, 1.0)
        self._buckets: dict[tuple[str, ...], Window] = {}
        self.hits: list[Hit] = []  # every 429 the limits answered

    def _bucket_limits(self, method: str, template: str) -> tuple[int, float] | None:
        specific = self.limits.routes.get(f"{method} {template}")
        if specific:
            return specific
        if template.startswith("/interactions/") or self.limits.route_limit is None:
            return None  # one callback per interaction: Discord gives them no bucket to watch
        return self.limits.route_limit, self.limits.route_window

    def take(
        self, method: str, path: str, template: str | None, params: dict[str, str]
    ) -> tuple[web.Response | None, dict[str, str]]:
        """(a 429 to answer instead, or None) and the headers for the answer."""
        if template is None:
            return None, {}
        now = self.clock()
        bucket_limits = self._bucket_limits(method, template)
        window = None
        if bucket_limits is not None:
            key = (method, template, *(params.get(p, "") for p in MAJOR_PARAMETERS))
            window = self._buckets.get(key)
            if window is None:
                window = self._buckets[key] = Window(*bucket_limits)
            window.roll(now)
        bucket_hash = hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:16]
        if window is not None and window.used >= window.limit:
            return self._limited(method, path, window.reset_after(now), False, window, bucket_hash, now), {}
        if self.limits.global_per_second and not exempt_from_global(template):
            self._global.roll(now)
            if self._global.used >= self._global.limit:
                return self._limited(method, path, self._global.reset_after(now), True, None, bucket_hash, now), {}
            self._global.used += 1
        if window is None:
            return None, {}
        window.used += 1
        return None, self._headers(window, bucket_hash, now)

    def _headers(self, window: Window, bucket_hash: str, now: float) -> dict[str, str]:
        after = window.reset_after(now)
        return {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(max(0, window.limit - window.used)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": bucket_hash,
        }

    def _limited(
        self,
        method: str,
        path: str,
        retry_after: float,
        is_global: bool,
        window: Window | None,
        bucket_hash: str,
        now: float,
    ) -> web.Response:
        self.hits.append(Hit(method, path, is_global, now))
        retry_after = max(retry_after, 0.001)
        body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3), "global": is_global}
        headers = {
            "Content-Type": "application/json",
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Scope": "global" if is_global else "user",
            "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        elif window is not None:
            headers.update(self._headers(window, bucket_hash, now))
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
