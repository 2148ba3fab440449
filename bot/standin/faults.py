"""Injected REST failures: rate limits (429), server errors (5xx) and Discord's coded refusals
(403 50013 Missing Permissions, 404 10015 Unknown Webhook, ...)."""

from __future__ import annotations

import fnmatch
import json
import math
import re
from dataclasses import dataclass

from aiohttp import web


def pattern_matches(pattern: str, method: str, path: str, template: str | None) -> bool:
    """``"POST /channels/*/messages"`` (glob over the concrete path) or
    ``"POST /channels/{channel_id}/messages"`` (a route template) both match."""
    want_method, _, want_path = pattern.partition(" ")
    if not want_path:  # no method given: any method
        want_method, want_path = "*", pattern
    if want_method not in ("*", method):
        return False
    if template is not None and want_path == template:
        return True
    glob = re.sub(r"\{[^}]+\}", "*", want_path)
    return fnmatch.fnmatchcase(path, glob)


@dataclass
class Fault:
    pattern: str
    remaining: int
    status: int
    retry_after: float
    is_global: bool
    hits: int = 0
    code: int = 0  # Discord's JSON error code (HTTPException.code): what tells refusals apart
    message: str | None = None

    def response(self) -> web.Response:
        if self.status == 429:
            body = {"message": "You are being rate limited.", "retry_after": self.retry_after, "global": self.is_global}
            if self.is_global:
                body["code"] = 0
            headers = {
                "Content-Type": "application/json",
                "Retry-After": str(max(1, math.ceil(self.retry_after))),
                "X-RateLimit-Scope": "global" if self.is_global else "user",
                # discord.py treats a 429 without Via as a Cloudflare ban and gives up.
                "Via": "1.1 google",
            }
            if self.is_global:
                headers["X-RateLimit-Global"] = "true"
            return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
        message = self.message or f"{self.status}: Server error (injected by the stand-in)"
        body = {"message": message, "code": self.code}
        return web.Response(
            status=self.status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )


class FaultInjector:
    def __init__(self) -> None:
        self.active: list[Fault] = []
        self.fired: list[tuple[str, str, int]] = []  # (method, path, status)

    def add(
        self,
        pattern: str,
        *,
        times: int = 1,
        status: int = 429,
        retry_after: float = 0.05,
        is_global: bool = False,
        code: int = 0,
        message: str | None = None,
    ) -> Fault:
        fault = Fault(pattern, times, status, retry_after, is_global, code=code, message=message)
        self.active.append(fault)
        return fault

    def take(self, method: str, path: str, template: str | None) -> web.Response | None:
        for fault in self.active:
            if fault.remaining > 0 and pattern_matches(fault.pattern, method, path, template):
                fault.remaining -= 1
                fault.hits += 1
                self.fired.append((method, path, fault.status))
                return fault.response()
        return None
