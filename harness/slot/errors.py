"""The one exception a bad slot model raises, and how it shows the user's values."""
from __future__ import annotations

import reprlib

MAX_SHOWN = 60  # characters of an offending value quoted in a message
MAX_LISTED = 200  # characters of a list of valid names quoted in a message
MAX_MESSAGE = 500  # characters of a whole message: one readable line, whatever the file holds

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = MAX_SHOWN
_REPR.maxother = MAX_SHOWN
_REPR.maxlong = 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxfrozenset = 6
_REPR.maxdict = 4


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.splitlines())  # one line: no line break of the file gets through
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(value) -> str:
    """``repr(value)`` for a message: nested and long values cut short with an ellipsis."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a whole number of about {int(value.bit_length() * 0.30103):,} digits"
    try:
        text = _REPR.repr(value)
    except (RecursionError, ValueError):  # nested beyond reason, or a number beyond int-string limits
        text = f"a {type(value).__name__} too large to show"
    return _cut(text, MAX_SHOWN)


def listed(names) -> str:
    """``"A, B, C"`` for a message, cut short with an ellipsis."""
    return _cut(", ".join(str(n) for n in names), MAX_LISTED)


class ModelError(ValueError):
    """A game model that cannot be analysed, with the place that is wrong.

    Parameters
    ----------
    where : str
        The place in the model, in the file's own terms, e.g.
        ``"reels.base: reel 3, position 17"`` or ``"paylines[4]"``.
    message : str
        What is wrong there and, where it helps, what would be valid.
    source : str, optional
        The file the model came from.

    The text is always one line of at most :data:`MAX_MESSAGE` characters
    (plus the file name): values from the file are quoted through
    :func:`shown`, and anything longer is cut with an ellipsis.
    """

    def __init__(self, where: str, message: str, source: str | None = None):
        self.where = where
        self.message = message
        self.source = source
        super().__init__(self._text())

    def _text(self) -> str:
        place = f"{self.source}: " if self.source else ""
        text = f"{self.where}: {self.message}" if self.where else self.message
        return place + _cut(text, MAX_MESSAGE)

    def with_source(self, source: str) -> "ModelError":
        """The same error, naming the file it came from."""
        return type(self)(self.where, self.message, source)


class BeyondExact(ModelError):
    """A valid model whose state space forbids exact figures and rigorous bounds alike.

    ``rngcert slot MODEL --simulate N`` then reports a stated-precision
    simulation instead, labelled as such in the report and in every check
    (:mod:`harness.slot.estimate`); without ``--simulate`` it is refused
    (exit 2) with that advice.
    """
