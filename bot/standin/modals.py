"""Discord's forms (modals): the limits a modal callback is held to, and reading its text inputs
(https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal,
https://discord.com/developers/docs/components/reference#text-input)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ACTION_ROW, TEXT_INPUT, LABEL = 1, 4, 18
SHORT, PARAGRAPH = 1, 2
MAX_ROWS = 5
MAX_TITLE = 45
MAX_LABEL = 45
MAX_CUSTOM_ID = 100
MAX_PLACEHOLDER = 100
MAX_VALUE = 4000


@dataclass(frozen=True)
class TextInput:
    custom_id: str
    label: str
    style: int
    value: str
    placeholder: str
    min_length: int
    max_length: int
    required: bool


@dataclass(frozen=True)
class Form:
    """A modal as the user sees it: its title and text inputs, in order."""

    custom_id: str
    title: str
    inputs: tuple[TextInput, ...]

    def field(self, label: str) -> TextInput:
        for text_input in self.inputs:
            if label in (text_input.label, text_input.custom_id):
                return text_input
        raise KeyError(f"form {self.title!r} has no field {label!r} (it has {[t.label for t in self.inputs]})")


def _length(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _input_problems(where: str, comp: dict[str, Any], label: Any) -> list[str]:
    problems = []
    if comp.get("type") != TEXT_INPUT:
        return [f"{where} is not a text input"]
    custom_id = comp.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        problems.append(f"{where}.custom_id must be 1 to {MAX_CUSTOM_ID} characters")
    if comp.get("style") not in (SHORT, PARAGRAPH):
        problems.append(f"{where}.style must be 1 (short) or 2 (paragraph)")
    if not isinstance(label, str) or not 1 <= len(label) <= MAX_LABEL:
        problems.append(f"{where} label must be 1 to {MAX_LABEL} characters")
    low, high = comp.get("min_length"), comp.get("max_length")
    if low is not None and not _length(low, 0, MAX_VALUE):
        problems.append(f"{where}.min_length must be 0 to {MAX_VALUE}")
    if high is not None and not _length(high, 1, MAX_VALUE):
        problems.append(f"{where}.max_length must be 1 to {MAX_VALUE}")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        problems.append(f"{where}.min_length is more than its max_length")
    value = comp.get("value")
    if value is not None and (not isinstance(value, str) or len(value) > MAX_VALUE):
        problems.append(f"{where}.value must be a text of at most {MAX_VALUE} characters")
    elif isinstance(value, str) and isinstance(high, int) and len(value) > high:
        problems.append(f"{where}.value is longer than its max_length")
    placeholder = comp.get("placeholder")
    if placeholder is not None and (not isinstance(placeholder, str) or len(placeholder) > MAX_PLACEHOLDER):
        problems.append(f"{where}.placeholder must be a text of at most {MAX_PLACEHOLDER} characters")
    if "required" in comp and not isinstance(comp["required"], bool):
        problems.append(f"{where}.required must be true or false")
    return problems


def _inputs(data: dict[str, Any]) -> list[tuple[str, dict[str, Any], Any]]:
    """Each top-level component's text input with its label: an action row holding one text input
    (the label on the input), or a label component around one."""
    found = []
    for i, row in enumerate(data.get("components") or []):
        where = f"components[{i}]"
        if row.get("type") == ACTION_ROW:
            inner = row.get("components") or []
            if len(inner) != 1:
                raise ValueError(f"{where} must hold exactly one text input")
            found.append((f"{where}.components[0]", inner[0], inner[0].get("label")))
        elif row.get("type") == LABEL:
            found.append((f"{where}.component", row.get("component") or {}, row.get("label")))
        else:
            raise ValueError(f"{where} must be an action row or a label")
    return found


def modal_problems(data: dict[str, Any]) -> str | None:
    """None if Discord would open this modal, else the reason it would answer with a 400."""
    problems = []
    custom_id, title = data.get("custom_id"), data.get("title")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        problems.append(f"custom_id must be 1 to {MAX_CUSTOM_ID} characters")
    if not isinstance(title, str) or not 1 <= len(title) <= MAX_TITLE:
        problems.append(f"title must be 1 to {MAX_TITLE} characters")
    rows = data.get("components") or []
    if not 1 <= len(rows) <= MAX_ROWS:
        problems.append(f"a modal holds 1 to {MAX_ROWS} components, not {len(rows)}")
    try:
        inputs = _inputs(data)
    except ValueError as error:
        return "; ".join([*problems, str(error)])
    ids = [comp.get("custom_id") for _, comp, _ in inputs]
    if len(set(ids)) != len(ids):
        problems.append("two text inputs share a custom_id")
    for where, comp, label in inputs:
        problems.extend(_input_problems(where, comp, label))
    return "; ".join(problems) or None


def form_of(data: dict[str, Any]) -> Form:
    """The modal a bot opened (already held to `modal_problems`), as its fields."""
    return Form(
        custom_id=data["custom_id"],
        title=data["title"],
        inputs=tuple(
            TextInput(
                custom_id=comp["custom_id"],
                label=label,
                style=comp["style"],
                value=comp.get("value") or "",
                placeholder=comp.get("placeholder") or "",
                min_length=_or(comp.get("min_length"), 0),
                max_length=_or(comp.get("max_length"), MAX_VALUE),
                required=comp.get("required", True),
            )
            for _, comp, label in _inputs(data)
        ),
    )


def _or(value: Any, default: int) -> int:
    return default if value is None else int(value)


def refusal(form: Form, values: dict[str, str]) -> str | None:
    """Why Discord's client would not send this form filled with `values` (by label or custom id)."""
    known = {name for t in form.inputs for name in (t.label, t.custom_id)}
    unknown = [name for name in values if name not in known]
    if unknown:
        return f"form {form.title!r} has no field {unknown[0]!r}"
    for t in form.inputs:
        value = filled(t, values)
        if t.required and not value:
            return f"field {t.label!r} is required"
        if value and not t.min_length <= len(value) <= t.max_length:
            return f"field {t.label!r} takes {t.min_length} to {t.max_length} characters, not {len(value)}"
    return None


def filled(text_input: TextInput, values: dict[str, str]) -> str:
    """What a field holds when submitted: what the user typed, else what it was opened with."""
    for name in (text_input.label, text_input.custom_id):
        if name in values:
            return values[name]
    return text_input.value
