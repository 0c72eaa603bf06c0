"""What every engine over a C engine state shares (ChaCha20, the SP 800-90A
DRBGs): the state's latched status, its OS seeding count, its position,
and writing its output under the lock.  A subclass names its C functions."""
from __future__ import annotations

from typing import Callable, ClassVar

from rngcore.engine import BitSource
from rngcore.errors import raise_for_status

__all__ = ["CEngine"]


class CEngine(BitSource):
    """A :class:`~rngcore.engine.BitSource` whose state is a C struct in
    ``self._state`` with ``status`` and ``seedings`` fields.

    Subclasses set ``_c_fill`` (``int f(state, out, nbytes)``) and
    ``_c_position`` (``uint64_t f(state)``) to their engine's functions.
    """

    _c_fill: ClassVar[Callable]
    _c_position: ClassVar[Callable]

    def _position_unlocked(self) -> int:
        return int(type(self)._c_position(self._state))

    @property
    def status(self) -> int:
        """0 (``RNG_OK``) or the latched negative ``RNG_E_*`` status."""
        return int(self._state.status)

    @property
    def seedings(self) -> int:
        """Production mode: how many times the engine took entropy from the
        OS (its first seeding, then every reseed)."""
        return int(self._state.seedings)

    def fill_pointer(self, pointer, nbytes: int, what: str = "fill") -> None:
        """Write the next ``nbytes`` of output to a cffi pointer (lock held inside)."""
        with self._lock:
            status = type(self)._c_fill(self._state, pointer, nbytes)
        raise_for_status(status, what)
