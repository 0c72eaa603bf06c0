"""The one exception a bad slot model raises."""
from __future__ import annotations


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
    """

    def __init__(self, where: str, message: str, source: str | None = None):
        self.where = where
        self.message = message
        self.source = source
        super().__init__(self._text())

    def _text(self) -> str:
        place = f"{self.source}: " if self.source else ""
        return f"{place}{self.where}: {self.message}" if self.where else f"{place}{self.message}"

    def with_source(self, source: str) -> "ModelError":
        """The same error, naming the file it came from."""
        return ModelError(self.where, self.message, source)
