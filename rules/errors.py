"""One family of errors for everything the rules refuse.

Every message is written for the person who typed the command: the bot shows
it verbatim in an ephemeral reply, so it must never leak internals.
"""

from .text import Text, as_text, english


class RulesError(ValueError):
    """An action the rules refuse; the text is safe to show a user.

    `said` is the message as the rules said it (a `rules.text.Text`, or a bare str: a constant,
    its own message id), for the bot to show; `str()` reads it in English."""

    @property
    def said(self) -> Text | str:
        said = self.args[0] if self.args else ""
        return said if isinstance(said, (Text, str)) else as_text(said)

    def __str__(self) -> str:
        return english(self.said)


class UnknownAction(RulesError):
    pass


class NotRunning(RulesError):
    pass


class NotYourTurn(RulesError):
    pass


class NotAllowed(RulesError):
    pass


class InvalidInput(RulesError):
    pass


class DiceError(InvalidInput):
    pass


class Stale(InvalidInput):
    """A button or answer made for an earlier turn, choice or encounter."""


class AwaitingChoice(RulesError):
    pass


class UnknownCombatant(InvalidInput):
    pass
