"""Casino RNG controls: per-game reseeding and background cycling.

Some jurisdictions' and laboratories' rules ask for these by name (the
issue behind them names New Jersey, Oklahoma and iTech Labs); the rule
digests shipped with this project hold no such clause (their electronic
games digest leaves the RNG's technical standards out), so no clause number
is cited here.  What each control does, and what it does not add, is in
docs/drbg.md ("Casino RNG controls").

Per-game reseed
    :meth:`rngcore.Generator.reseed` puts fresh OS entropy into a
    production generator now (SP 800-90A Reseed for the DRBGs, with optional
    additional input; the ChaCha20 key XORed with 32 OS bytes), dropping any
    buffered output.  ``Generator(..., reseed_before=POLICY)`` has the
    round-level device API do it for you (:func:`before`): ``"shuffle"``
    before every shoe shuffle (:meth:`rngcore.devices.Shoe.shuffle`),
    ``"round"`` before every round (:meth:`~rngcore.devices.Shoe.start_round`,
    :func:`~rngcore.devices.spin`, each roll of
    :func:`~rngcore.devices.roll`, each wash of
    :func:`~rngcore.devices.tile_stacks`).  The bulk simulation API
    (``DeviceSpec.draw``, ``fresh_shoes``, ``spin_sections``, the game
    kernels) draws many rounds in one request and does not consult it.

Background cycling
    :class:`BackgroundCycling` discards output at a configured rate while the
    generator is idle, on a daemon thread, each discard under the generator's
    lock (so no caller can receive a discarded byte) into a scratch buffer
    wiped at once (so no discarded value is kept for later).
"""
from __future__ import annotations

import threading

import numpy as np

from rngcore._native import ffi, lib
from rngcore.engine import count_arg
from rngcore.errors import RNGError, raise_for_status

__all__ = ["BackgroundCycling", "RESEED_POLICIES", "before", "check_policy", "each_round"]

RESEED_POLICIES = {
    "never": "never reseed on device events (the engine's own reseeding only)",
    "shuffle": "reseed from the OS before every shoe shuffle",
    "round": "reseed from the OS before every round (a shoe round, a spin, a roll, a tile wash)",
}
_EVENTS = {"shuffle": ("shuffle",), "round": ("round",), "never": ()}


def check_policy(policy, bit_source) -> str:
    """``policy`` (None: ``"never"``) checked against the bit source.

    Raises
    ------
    ValueError
        For an unknown policy (listing the valid ones), or a reseeding policy
        on a replay source (replay has no entropy to reseed with).
    """
    policy = "never" if policy is None else policy
    if policy not in RESEED_POLICIES:
        raise ValueError(f"reseed_before must be one of {', '.join(RESEED_POLICIES)}, got {policy!r}")
    if policy != "never" and bit_source.mode != "production":
        raise ValueError(f"reseed_before={policy!r} needs a production generator (no seed): "
                         "a replay stream has no entropy to reseed with")
    return policy


def before(generator, event: str) -> None:
    """Called by the device API before a ``"shuffle"`` or a ``"round"``:
    reseeds the generator when its ``reseed_before`` policy asks for it.
    Anything without a policy (a test source, a bare bit source) is left alone."""
    if event in _EVENTS.get(getattr(generator, "reseed_before", "never"), ()):
        generator.reseed()


def each_round(generator, n: int, draw):
    """``draw(n)`` (n outcomes, stacked on axis 0), or, under a ``"round"``
    policy, n draws of one outcome, each after a reseed (n rounds)."""
    if n > 0 and getattr(generator, "reseed_before", "never") == "round":
        parts = []
        for _ in range(n):
            generator.reseed()
            parts.append(draw(1))
        return np.concatenate(parts)
    return draw(n)


class BackgroundCycling:
    """Discard a generator's output in the background while it is idle.

    Parameters
    ----------
    generator : rngcore.Generator or BitSource
        What to cycle (anything with ``source`` and ``lock``).
    bytes_per_second : int
        The discard rate while idle (>= 1).
    tick : float
        Seconds between discards (each discards ``bytes_per_second * tick``
        bytes, at least 1).  A tick finding the lock held (a draw in
        progress) is skipped: cycling never delays a draw.

    Use as a context manager (``with BackgroundCycling(g, 1 << 20):``), or
    :meth:`start` / :meth:`stop`.  If the generator fails (say its entropy
    fails a health test at a reseed) cycling stops and :attr:`error` holds
    the exception; the generator's next draw raises it too.
    """

    def __init__(self, generator, bytes_per_second: int, *, tick: float = 0.01):
        rate = count_arg(bytes_per_second, "BackgroundCycling", "bytes_per_second")
        if rate < 1 or not tick > 0:
            raise ValueError(f"need bytes_per_second >= 1 and tick > 0, got {rate} and {tick!r}")
        self._generator = generator
        self._chunk = max(1, int(rate * tick))
        self._tick = float(tick)
        self._scratch = ffi.new("uint8_t[]", self._chunk)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.discarded = 0
        """Bytes discarded so far."""
        self.error: RNGError | None = None

    def start(self) -> "BackgroundCycling":
        if self._thread is not None:
            raise ValueError("background cycling is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="rngcert-background-cycling", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop and wait for the thread; after this nothing more is discarded."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> "BackgroundCycling":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _discard_once(self) -> bool:
        """One discard if the generator is idle; False once it has failed."""
        lock, source = self._generator.lock, self._generator.source
        if not lock.acquire(blocking=False):
            return True  # a draw holds the lock: not idle
        try:
            status = source.fill(source.state, self._scratch, self._chunk)
            lib.rng_memzero(self._scratch, self._chunk)  # nothing discarded is kept
        finally:
            lock.release()
        try:
            raise_for_status(status, "background cycling")
        except RNGError as exc:
            self.error = exc
            return False
        self.discarded += self._chunk
        return True

    def _run(self) -> None:
        while not self._stop.wait(self._tick):
            if not self._discard_once():
                return
