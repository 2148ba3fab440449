"""Value objects shared by every rule system.

An encounter is one immutable value: its combatants, its turn structure's
state, any choice it is waiting on, and its generator and deck. Rule systems
subclass `Combatant` and `Encounter` to add their own fields, so everything a
system tracks is typed, validated and serialised the same way.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .errors import UnknownCombatant
from .randomness import claim_entered
from .said import english, say
from .text import Text, from_data
from .usertext import Typed, name_key, quoted, user_text


class Value(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def but(self, **changes: Any):
        """A copy with some fields changed (like dataclasses.replace)."""
        for key, value in changes.items():
            if type(value) is str and _typed(type(self), key):
                changes[key] = user_text(value)  # a copy skips validation, which would mark it
        return self.model_copy(update=changes)


@cache
def _typed(model: type[Value], key: str) -> bool:
    """Whether `model.key` holds typed text (a `Typed` field)."""
    info = model.model_fields.get(key)
    return info is not None and any(getattr(m, "func", None) is user_text for m in info.metadata)


class Actor(Value):
    """Who sent a command: the rules check permissions against this."""

    user_id: int
    is_gm: bool = False


class Combatant(Value):
    id: str
    name: Typed  # as typed; marked for the renderer wherever the rules repost it
    controller_id: int | None = None  # the player; None means the GM runs it
    side: Typed = "threats"  # a faction may be named by the GM
    npc: bool = True
    hidden: bool = False
    character_id: int | None = None
    out: bool = False  # dead, destroyed or fled: kept for the log, skipped by turns

    @property
    def label(self) -> str:
        return self.name


class Choice(Value):
    """One option of a question: `key` is what the rules, stored answers and buttons go by;
    `label` is what the player reads (said, so it is translated; typed names stay as typed)."""

    key: str
    label: Text

    @model_validator(mode="before")
    @classmethod
    def _plain(cls, data: Any) -> Any:
        # A question stored before options had keys holds each option as its text alone.
        return {"key": english(from_data(data)), "label": data} if isinstance(data, str) else data


# How the options of questions stored before options had keys read, by question kind:
# their English → the key the same option has now (see `former_keys`).
_FORMER_KEYS: dict[str, dict[str, str]] = {}


def former_keys(kind: str, keys: dict[str, str]) -> None:
    """Declare the key of each option a question of `kind` used to offer as bare text (its
    English), so that a question stored then is answered as the same option is now."""
    _FORMER_KEYS.setdefault(kind, {}).update(keys)


# What one menu shows. A question may offer more (every ally who could guard…): the bot's menu then shows
# the first ones and says how /choose reaches the others, so the options that matter most come first.
MAX_CHOICES = 25


class Pending(Value):
    """An action waiting for a named person's decision."""

    id: int
    kind: str  # which system handler resumes it
    prompt: Text
    options: tuple[Choice, ...]
    default: str  # a key
    chooser: str | None = None  # the combatant whose controller decides
    users: tuple[int, ...] = ()  # whom to ask: its players, who may answer besides any GM (`controllers`)
    # Options (by key) only some of those users may pick (a guard is the guarding ally's call).
    owners: dict[str, tuple[int, ...]] = Field(default_factory=dict)
    context: dict[str, Any] = Field(default_factory=dict)
    # Whether an answer may roll: the question then tells its players how to enter their own dice.
    rolls: bool = True
    # Whether the default follows a hidden combatant's numbers (its best defence): players then read it as "?".
    default_secret: bool = False
    # The signature a question stored before options had keys was posted with: its buttons still answer.
    former_signature: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _bare_options(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not any(isinstance(o, str) for o in data.get("options", ())):
            return data
        options = tuple(data["options"])
        known = _FORMER_KEYS.get(data.get("kind", ""), {})
        keys = {o: known.get(english(from_data(o)), english(from_data(o))) for o in options if isinstance(o, str)}
        data = dict(data)
        if all(isinstance(o, str) for o in options) and "former_signature" not in data:
            former = repr((data.get("id"), data.get("kind"), data.get("prompt"), options))
            data["former_signature"] = hashlib.blake2s(former.encode(), digest_size=4).hexdigest()
        data["options"] = tuple(Choice(key=keys[o], label=o) if isinstance(o, str) else o for o in options)
        if isinstance(data.get("default"), str):
            data["default"] = keys.get(data["default"], english(from_data(data["default"])))
        data["owners"] = {keys.get(k, k): v for k, v in (data.get("owners") or {}).items()}
        return data

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.options)

    @property
    def labels(self) -> tuple[Text, ...]:
        return tuple(o.label for o in self.options)

    def option(self, key: str) -> Choice | None:
        return next((o for o in self.options if o.key == key), None)

    @property
    def signature(self) -> str:
        """Tells this question from any other with the same number: ids restart in
        every encounter and after an undo, buttons on old messages must not. Made of
        keys and the question's data (the attack it answers), so the same question reads alike in any
        wording or language, while another question asked under the same number after an undo does not."""
        if self.former_signature is not None:
            return self.former_signature
        data = json.dumps(self.context, sort_keys=True, default=str)
        digest = hashlib.blake2s(repr((self.id, self.kind, self.chooser, self.keys, data)).encode(), digest_size=4)
        return digest.hexdigest()


class Event(Value):
    """Something that happened, for the channel to see.

    Made with ``Event(kind=…, text=…)``; the line is kept as said (`said`, a `rules.text.Text`)
    and `text` reads it in English."""

    kind: str  # "info", "roll", "turn", "round", "choice", "warning", "end"
    said: Text
    ping: tuple[int, ...] = ()  # user ids this event means to ping
    entered: bool = False  # the result came from dice or cards entered by hand

    if TYPE_CHECKING:

        def __init__(self, *, kind: str, text: Text, ping: tuple[int, ...] = (), entered: bool = False) -> None: ...

    @model_validator(mode="before")
    @classmethod
    def _hand_entered(cls, data: Any) -> Any:
        if isinstance(data, dict) and "text" in data:
            data = {**data, "said": data["text"]}
            del data["text"]
        # A roll's result line made while its action runs learns whether it used entered values.
        if isinstance(data, dict) and data.get("kind") == "roll" and "entered" not in data and claim_entered():
            return {**data, "entered": True}
        return data

    @property
    def text(self) -> str:
        return english(self.said)


class TurnState(Value):
    structure: str


class Encounter(Value):
    system: str
    status: Literal["setup", "running", "ended"] = "setup"
    gm_id: int
    round: int = 0
    turn_no: int = 0
    combatants: tuple[Combatant, ...] = ()
    turns: TurnState
    pending: Pending | None = None
    rng_state: int
    deck: tuple[str, ...] = ()
    next_id: int = 1
    next_pending: int = 1
    options: dict[str, Any] = Field(default_factory=dict)

    # lookups ------------------------------------------------------------
    def get(self, cid: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.id == cid:
                return combatant
        raise UnknownCombatant(say("No combatant `{cid}` in this encounter.", cid=cid))

    def find(self, name: str) -> Combatant:
        key = name_key(name or "")
        for combatant in self.combatants if key else ():
            if name_key(combatant.name) == key or combatant.id == key:
                return combatant
        shown = quoted((name or "").strip(), 40)
        raise UnknownCombatant(say("There is no combatant called {name} in this encounter.", name=shown))

    def maybe(self, name: str | None) -> Combatant | None:
        if not name:
            return None
        try:
            return self.find(name)
        except UnknownCombatant:
            return None

    def with_combatant(self, combatant: Combatant):
        combatants = tuple(combatant if c.id == combatant.id else c for c in self.combatants)
        return self.but(combatants=combatants)

    def update(self, cid: str, **changes: Any):
        return self.with_combatant(self.get(cid).but(**changes))

    def active(self) -> tuple[Combatant, ...]:
        return tuple(c for c in self.combatants if not c.out)

    def controllers(self, cids) -> tuple[int, ...]:
        """Users to ping for these combatants: their players, else the GM who started the encounter.
        That GM is only an address: answering for a GM-run combatant takes a GM now (`common.choose`)."""
        users: list[int] = []
        for cid in cids:
            combatant = self.get(cid)
            user = combatant.controller_id if combatant.controller_id is not None else self.gm_id
            if user not in users:
                users.append(user)
        return tuple(users)

    def ask(self, **question: Any):
        """The encounter waiting on a new question. Each question takes the next
        number, so an answer given to an earlier one is told apart and refused."""
        pending = Pending(id=self.next_pending, **question)
        return self.but(pending=pending, next_pending=self.next_pending + 1)


E = TypeVar("E", bound=Encounter)


@dataclass(frozen=True, slots=True)
class Outcome:
    state: Encounter
    events: tuple[Event, ...]
    summary: Text


def info(text: Text, *ping: int) -> Event:
    return Event(kind="info", text=text, ping=tuple(ping))
