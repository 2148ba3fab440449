"""Discord's published API description as a contract every REST request must meet.

Checks a request the bot makes: the route and method exist in Discord's OpenAPI description
(``openapi.json`` beside this file), and the JSON body validates against the request schema.
``tests/conftest.py`` switches it on for every stand-in a test makes.

Liberties Discord itself takes: snowflakes may be sent as JSON numbers, a new
attachment's ``id`` is the index of its ``files[N]`` part, and channel type 16
(GUILD_MEDIA, documented but missing from the description's enum) is a channel type.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from bot.standin.contract import Operation, Violation

SPEC_PATH = Path(__file__).resolve().with_name("openapi.json")
SPEC_URI = "urn:discord-api-spec"
JSON = "application/json"
MULTIPART = "multipart/form-data"


def _lenient(spec: dict[str, Any]) -> dict[str, Any]:
    """Snowflakes as strings or non-negative integers, as Discord accepts them (changes ``spec``)."""
    schemas = spec["components"]["schemas"]
    strict = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [strict, {"type": "integer", "minimum": 0}]}
    # GUILD_MEDIA (16) is a documented channel type the description's enum lacks; discord.py
    # names it among a channel option's types and Discord accepts it.
    channel_types = schemas["ChannelTypes"]["oneOf"]
    if not any(t.get("const") == 16 for t in channel_types):
        channel_types.append({"title": "GUILD_MEDIA", "const": 16})
    return spec


@functools.lru_cache(maxsize=1)
def discord_contract() -> DiscordContract:
    """The process-wide contract (built once)."""
    return DiscordContract(json.loads(SPEC_PATH.read_text(encoding="utf-8")))


class DiscordContract:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = _lenient(spec)
        resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self._registry = Registry().with_resource(SPEC_URI, resource)
        self._routes: list[tuple[re.Pattern[str], str, set[str], int]] = []
        for template, item in self.spec["paths"].items():
            methods = {m.upper() for m in item if m in ("get", "put", "post", "patch", "delete")}
            pattern = re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template))
            literal = sum(1 for seg in template.split("/") if seg and not seg.startswith("{"))
            self._routes.append((re.compile(f"^{pattern}$"), template, methods, literal))
        # Literal segments (``@original``, ``pins``) beat a parameter in the same place.
        self._routes.sort(key=lambda r: -r[3])
        self._validators: dict[tuple[str, str, str], Any] = {}
        # Every bot that starts syncs the same few command bodies, and checking one took about 0.2 s
        # of jsonschema, most of an end-to-end test's set-up: a body's verdict depends on nothing but
        # the body, so each command sync body is checked once.
        self._command_verdicts: dict[tuple[Operation, str, bool, str], list[Violation]] = {}

    def operation(self, method: str, path: str) -> tuple[Operation | None, str | None]:
        """The documented operation for a concrete path, or why there is none."""
        found_path = None
        for regex, template, methods, literal in self._routes:
            if regex.match(path):
                if method in methods:
                    return Operation(method, template, literal), None
                found_path = found_path or template
        if found_path:
            return None, f"Discord has no {method} on {found_path}"
        return None, "Discord has no such route"

    def _validator(self, op: Operation, content_type: str) -> Any:
        key = (op.method, op.template, content_type)
        if key not in self._validators:
            self._validators[key] = self._compile(op, content_type)
        return self._validators[key]

    def _compile(self, op: Operation, content_type: str) -> Any:
        body = self.spec["paths"][op.template][op.method.lower()].get("requestBody")
        if body is None or content_type not in body["content"]:
            return None
        escaped = op.template.replace("~", "~0").replace("/", "~1")
        media = content_type.replace("/", "~1")
        pointer = f"{SPEC_URI}#/paths/{escaped}/{op.method.lower()}/requestBody/content/{media}/schema"
        return Draft202012Validator({"$ref": pointer}, registry=self._registry)

    def check(self, method: str, path: str, body: Any = None, *, multipart: bool = False) -> list[Violation]:
        """Problems with one request (``body``: parsed JSON, or a multipart's ``payload_json``)."""
        op, why = self.operation(method, path)
        if op is None:
            return [Violation(method, path, why or "unknown route")]
        return [] if body is None else self.check_body(op, path, body, multipart=multipart)

    def check_body(self, op: Operation, path: str, body: Any, *, multipart: bool = False) -> list[Violation]:
        if not op.template.endswith("/commands"):
            return self._check_body(op, path, body, multipart=multipart)
        key = (op, path, multipart, json.dumps(body, sort_keys=True))
        if key not in self._command_verdicts:
            self._command_verdicts[key] = self._check_body(op, path, body, multipart=multipart)
        return list(self._command_verdicts[key])

    def _check_body(self, op: Operation, path: str, body: Any, *, multipart: bool) -> list[Violation]:
        method = op.method
        request_body = self.spec["paths"][op.template][op.method.lower()].get("requestBody")
        if request_body is None:
            return [Violation(method, path, "Discord takes no request body here")]
        # A multipart request's JSON part has the JSON body's schema; the files are checked by the stand-in.
        validator = self._validator(op, JSON)
        if validator is None and multipart:
            validator = self._validator(op, MULTIPART)
        if validator is None:
            return [Violation(method, path, "Discord takes no JSON body here")]
        return [Violation(method, path, _describe(error)) for error in _leaves(validator.iter_errors(body))]


def _leaves(errors) -> list[Any]:
    """The most specific reason for each failure (anyOf/oneOf hide theirs in ``context``)."""
    out = []
    for error in errors:
        if error.context:
            out.append(best_match(error.context))
        else:
            out.append(error)
    return out[:5]


def _describe(error: Any) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "(body)"
    message = error.message if len(error.message) <= 200 else error.message[:100] + " … " + error.message[-80:]
    return f"{where}: {message}"
