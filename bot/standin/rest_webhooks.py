"""Routes the bot uses to answer interactions: the callback and the interaction webhook
(original response, followups).  Registered on the same router as ``rest``, after it."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from . import interactions as ix
from .command_rules import STRING, choice_problems
from .form_errors import Problem, under
from .interactions import InteractionHandle
from .messages import MessageBody
from .modals import modal_problems
from .records import CHAT_INPUT_COMMAND, EPHEMERAL, RecordedMessage
from .rest import router
from .rest_core import HTTPFailure, RestCall, error, invalid_form_body, json_response, no_content, not_found
from .validation import message_problems

route = router.route

# Which callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS = {
    ix.APPLICATION_COMMAND: {ix.CHANNEL_MESSAGE, ix.DEFERRED_CHANNEL_MESSAGE, ix.MODAL},
    ix.MESSAGE_COMPONENT: {
        ix.CHANNEL_MESSAGE,
        ix.DEFERRED_CHANNEL_MESSAGE,
        ix.DEFERRED_UPDATE_MESSAGE,
        ix.UPDATE_MESSAGE,
        ix.MODAL,
    },
    ix.AUTOCOMPLETE: {ix.AUTOCOMPLETE_RESULT},
    ix.MODAL_SUBMIT: {ix.CHANNEL_MESSAGE, ix.DEFERRED_CHANNEL_MESSAGE, ix.DEFERRED_UPDATE_MESSAGE, ix.UPDATE_MESSAGE},
}


def _callback_message(call: RestCall, handle: InteractionHandle, kind: int, body: MessageBody) -> None:
    standin = call.standin
    if kind == ix.CHANNEL_MESSAGE:
        mtype = CHAT_INPUT_COMMAND if handle.type == ix.APPLICATION_COMMAND else 0
        handle.original = standin.create_bot_message(handle.channel, body, interaction=handle, type=mtype)
    elif kind == ix.DEFERRED_CHANNEL_MESSAGE:
        flags = int(body.payload.get("flags") or 0) & EPHEMERAL
        mtype = CHAT_INPUT_COMMAND if handle.type == ix.APPLICATION_COMMAND else 0
        handle.original = standin.book.create(
            handle.channel,
            standin.world.bot.id,
            MessageBody({"flags": flags}),
            interaction=handle,
            type=mtype,
            loading=True,
        )
    elif kind in (ix.DEFERRED_UPDATE_MESSAGE, ix.UPDATE_MESSAGE):
        if handle.source_message is None:
            raise HTTPFailure(error(400, 40004, "Interaction has no message to update"))
        handle.original = handle.source_message
        if kind == ix.UPDATE_MESSAGE:
            standin.edit_message(handle.source_message, body)


def _focused_type(options: list[dict[str, Any]]) -> int | None:
    """The type of the option a user is typing into, in an autocomplete interaction's options."""
    for option in options:
        if option.get("focused"):
            return option.get("type")
        found = _focused_type(option.get("options") or [])
        if found is not None:
            return found
    return None


def _callback_problems(handle: InteractionHandle, kind: int, body: MessageBody) -> list[Problem]:
    """Why Discord would refuse this answer to this interaction; [] if it would take it."""
    data: dict[str, Any] = body.payload.get("data") or {}
    if kind not in ALLOWED_CALLBACKS.get(handle.type, set()):
        return [Problem("type", f"Callback type {kind} is not allowed for interaction type {handle.type}.")]
    # A deferred answer's data is read as the message's it stands for, and held to the same limits.
    if kind in (ix.CHANNEL_MESSAGE, ix.DEFERRED_CHANNEL_MESSAGE):
        return under("data", message_problems(MessageBody(data, body.files)))
    if kind in (ix.UPDATE_MESSAGE, ix.DEFERRED_UPDATE_MESSAGE):
        shown = handle.source_message.current.flags if handle.source_message is not None else 0
        return under("data", message_problems(MessageBody(data, body.files), shown))
    if kind == ix.MODAL:
        problem = modal_problems(data)
        return [Problem("data", problem)] if problem else []
    if kind == ix.AUTOCOMPLETE_RESULT:
        option_type = _focused_type(handle.payload["data"].get("options") or []) or STRING
        return choice_problems("data.choices", data.get("choices") or [], option_type)
    return []


@route("POST", "/interactions/{interaction_id}/{token}/callback")
async def interaction_callback(call: RestCall) -> web.Response:
    standin = call.standin
    handle = standin.interactions_by_id.get(call.int_param("interaction_id"))
    if handle is None or handle.token != call.params["token"]:
        return not_found("interaction", 10062)
    if time.monotonic() - handle.created > standin.interaction_callback_seconds:
        # Discord waits 3 seconds for the first answer; after that the interaction is gone.
        return not_found("interaction", 10062)
    if handle.callbacks:
        return error(400, 40060, "Interaction has already been acknowledged.")
    body = await call.body()
    kind = int(body.payload.get("type", 0))
    data: dict[str, Any] = body.payload.get("data") or {}
    problems = _callback_problems(handle, kind, body)
    if problems:
        return invalid_form_body(problems)
    _callback_message(call, handle, kind, MessageBody(data, body.files))
    if kind == ix.AUTOCOMPLETE_RESULT:
        handle.choices_result = data.get("choices") or []
    elif kind == ix.MODAL:
        handle.modal = data
    handle.record_callback(kind, data)
    standin.notifier.notify()

    if call.query.get("with_response") not in ("1", "true", "True"):
        return no_content()
    summary: dict[str, Any] = {
        "id": str(handle.id),
        "type": handle.type,
        "response_message_loading": kind == ix.DEFERRED_CHANNEL_MESSAGE,
        "response_message_ephemeral": bool(handle.original and handle.original.ephemeral),
    }
    resource: dict[str, Any] = {"type": kind}
    if handle.original is not None and kind in (ix.CHANNEL_MESSAGE, ix.DEFERRED_CHANNEL_MESSAGE, ix.UPDATE_MESSAGE):
        summary["response_message_id"] = str(handle.original.id)
        resource["message"] = handle.original.payload(standin.world)
    return json_response({"interaction": summary, "resource": resource})


# -- interaction webhook ---------------------------------------------------------
def _handle(call: RestCall) -> InteractionHandle:
    handle = call.standin.interactions_by_token.get(call.params["token"])
    if handle is None or call.int_param("application_id") != call.standin.world.application_id:
        raise HTTPFailure(not_found("Webhook", 10015))
    if time.monotonic() - handle.created > call.standin.interaction_token_seconds:
        # Discord's interaction tokens last 15 minutes; after that the webhook refuses them.
        raise HTTPFailure(error(401, 50027, "Invalid Webhook Token"))
    return handle


ORIGINAL = "/webhooks/{application_id}/{token}/messages/@original"
FOLLOWUP = "/webhooks/{application_id}/{token}/messages/{message_id}"


def _webhook_message(call: RestCall) -> RecordedMessage:
    """The interaction's original response, or the followup the path names (only its own)."""
    handle = _handle(call)
    if "message_id" in call.params:
        found = call.standin.book.get(call.int_param("message_id"))
        msg = found if found in handle.messages else None
    else:
        msg = handle.original
    if msg is None or msg.deleted:
        raise HTTPFailure(not_found("Message", 10008))
    return msg


# Each route stands for the original response and the followups alike; @original is
# registered first (the inner decorator), so that it wins over {message_id}.
@route("GET", FOLLOWUP)
@route("GET", ORIGINAL)
async def get_webhook_message(call: RestCall) -> web.Response:
    return json_response(_webhook_message(call).payload(call.standin.world))


@route("PATCH", FOLLOWUP)
@route("PATCH", ORIGINAL)
async def edit_webhook_message(call: RestCall) -> web.Response:
    msg = call.standin.edit_message(_webhook_message(call), await call.body())
    return json_response(msg.payload(call.standin.world))


@route("DELETE", FOLLOWUP)
@route("DELETE", ORIGINAL)
async def delete_webhook_message(call: RestCall) -> web.Response:
    call.standin.book.delete(_webhook_message(call))
    return no_content()


@route("POST", "/webhooks/{application_id}/{token}")
async def create_followup(call: RestCall) -> web.Response:
    handle = _handle(call)
    if not handle.callbacks:
        return not_found("Webhook", 10015)
    body = await call.body()
    original = handle.original
    if handle.response_type == ix.DEFERRED_CHANNEL_MESSAGE and original is not None and original.loading:
        # Discord turns the first followup after a deferred response into the edit of
        # the "thinking…" placeholder (keeping its ephemerality).
        msg = call.standin.edit_message(original, body)
    else:
        msg = call.standin.create_bot_message(handle.channel, body, interaction=handle, followup=True)
        handle.followups.append(msg)
        call.standin.notifier.notify()
    if call.query.get("wait") in ("1", "true", "True"):
        return json_response(msg.payload(call.standin.world))
    return no_content()
