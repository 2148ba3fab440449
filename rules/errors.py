"""One family of errors for everything the rules refuse.

Every message is written for the person who typed the command: the bot shows
it verbatim in an ephemeral reply, so it must never leak internals.
"""


class RulesError(ValueError):
    """An action the rules refuse; the text is safe to show a user."""


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
