"""Plumbing shared by the REST route modules: routing table, request wrapper, replies."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from .form_errors import INVALID_FORM_BODY, Problem, errors_tree
from .messages import MessageBody, UploadedFile

if TYPE_CHECKING:
    from .server import StandIn

API_PREFIX = "/api/v10"


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py compares Content-Type to exactly "application/json"; web.json_response
    # appends "; charset=utf-8" and the client would then treat the body as text.
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def no_content() -> web.Response:
    return web.Response(status=204)


def error(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return json_response(body, status=status)


def invalid_form_body(problems: list[Problem]) -> web.Response:
    """Discord's 400 for a body it will not take, each problem under its field."""
    return error(400, INVALID_FORM_BODY, "Invalid Form Body", errors_tree(problems))


def not_found(what: str, code: int) -> web.Response:
    return error(404, code, f"Unknown {what}")


class HTTPFailure(Exception):
    """Raised inside a handler to answer with a Discord-style error."""

    def __init__(self, response: web.Response) -> None:
        super().__init__(response.status)
        self.response = response


@dataclass
class RestCall:
    standin: StandIn
    request: web.Request
    params: dict[str, str]
    template: str

    def int_param(self, name: str) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise HTTPFailure(invalid_form_body([Problem(name, "Value is not snowflake.")])) from None

    @property
    def query(self) -> Any:
        return self.request.query

    async def json(self) -> Any:
        raw = await self.request.read()
        if not raw:
            return {}
        data = json.loads(raw)
        self.standin.check_contract(self.request.method, self.path, data)
        return data

    @property
    def path(self) -> str:
        return "/" + self.request.match_info["tail"]

    async def body(self) -> MessageBody:
        """JSON body, or multipart with ``payload_json`` and ``files[N]`` parts."""
        if not self.request.content_type.startswith("multipart/"):
            return MessageBody(await self.json())
        payload: dict[str, Any] = {}
        files = []
        reader = await self.request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue  # a multipart nested in a part: discord.py sends none
            name = part.name or ""
            data = await part.read(decode=False)
            if name == "payload_json":
                payload = json.loads(data)
            elif name.startswith("files["):
                index = int(name[len("files[") : -1])
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                files.append(UploadedFile(index, part.filename or f"file{index}", ctype, bytes(data)))
        self.standin.check_contract(self.request.method, self.path, payload, multipart=True)
        return MessageBody(payload, files)


Handler = Callable[[RestCall], Awaitable[web.Response]]


class Router:
    def __init__(self) -> None:
        self._routes: list[tuple[str, re.Pattern[str], str, Handler]] = []

    def route(self, method: str, template: str) -> Callable[[Handler], Handler]:
        regex = re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")

        def register(handler: Handler) -> Handler:
            self._routes.append((method, regex, template, handler))
            return handler

        return register

    def match(self, method: str, path: str) -> tuple[Handler | None, dict[str, str], str | None]:
        """First route whose template matches; literal segments (``@original``,
        ``pins``) are registered before ``{message_id}`` so they win."""
        for m, regex, template, handler in self._routes:
            found = regex.match(path)
            if found and m == method:
                return handler, found.groupdict(), template
        return None, {}, None
