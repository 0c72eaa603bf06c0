"""What the SP 800-90A engines share: modes, seed format, streams, reseeding.

Each DRBG engine (:mod:`rngcore.engines.hmac_drbg`,
:mod:`rngcore.engines.ctr_drbg`) is a :class:`DrbgEngine` naming its C
mechanism; the engine itself is ``csrc/core/drbg.h``.

Output
------
The byte stream is ``Generate(4096) || Generate(4096) || ...``: requests of
``REQUEST_BYTES`` bytes with no additional input, whatever sizes are read.

Modes
-----
replay (``seed`` given)
    ``seed`` is ``entropy_input || nonce`` (hex or bytes; see each engine's
    ``seed_help``), the personalization string is the stream id as 8
    big-endian bytes when a stream is given (none otherwise), or
    ``personalization=`` directly.  Any SP 800-90A implementation
    instantiated with the same inputs reproduces the output
    (:meth:`DrbgEngine.instantiate` takes inputs of any allowed length).
    After ``reseed_interval`` requests (default 2**48, the standard's
    maximum) a reseed is required; replay has no entropy for it, so the
    engine refuses further output (:class:`~rngcore.errors.ExhaustedError`).
production (no seed)
    Entropy input and nonce from the OS at the 256-bit security strength's
    amounts; reseeded from the OS after ``reseed_interval`` requests (default
    2**18, 1 GiB), before every request with ``prediction_resistance=True``,
    on :meth:`DrbgEngine.reseed`, and in a forked child before its first
    output.  If the OS cannot supply entropy an
    :class:`~rngcore.errors.EntropyError` is raised; there is no fallback.

Every C call holds the engine's ``lock`` (cffi releases the GIL during it).
"""
from __future__ import annotations

import dataclasses
import weakref
from typing import ClassVar

from rngcore._native import ffi, lib
from rngcore.engine import Check, Provenance, check_u64, warn_if_trivial
from rngcore.engines._c_engine import CEngine
from rngcore.errors import raise_for_status

__all__ = ["DrbgEngine", "DrbgProvenance", "MAX_RESEED_INTERVAL", "REQUEST_BYTES"]

REQUEST_BYTES = lib.RNG_DRBG_REQUEST_BYTES
MAX_RESEED_INTERVAL = lib.RNG_DRBG_MAX_RESEED_INTERVAL  # 2**48 requests (SP 800-90A Table 2/3)
DEFAULT_RESEED_INTERVAL = lib.RNG_DRBG_DEFAULT_RESEED_INTERVAL


@dataclasses.dataclass(frozen=True)
class DrbgProvenance(Provenance):
    """:class:`~rngcore.engine.Provenance` plus the DRBG's parameters
    (mechanism, derivation function, security strength, request size,
    reseed interval, prediction resistance)."""

    parameters: dict = dataclasses.field(default_factory=dict)

    def describe(self) -> str:
        settings = ", ".join(f"{key} {value}" for key, value in self.parameters.items())
        return f"{super().describe()} ({settings})"


def _bytes(name: str, value) -> bytes:
    if isinstance(value, str):
        try:
            return bytes.fromhex(value)
        except ValueError:
            raise ValueError(f"{name} must be hex, got {value[:80]!r}") from None
    try:
        return bytes(memoryview(value))
    except TypeError:
        raise TypeError(f"{name} must be bytes-like or hex, got {type(value).__name__}") from None


class DrbgEngine(CEngine):
    """An SP 800-90A DRBG bit source (see the module docstring).

    Parameters
    ----------
    seed : bytes-like or str, optional
        Replay mode: ``entropy_input || nonce`` (``seed_bytes`` bytes, or
        twice as many hex digits).  Omit for production mode.
    stream : int, optional
        Replay mode: the personalization string is this id as 8 big-endian bytes.
    personalization : bytes-like or str, optional
        The personalization string itself (either mode; not with ``stream``).
    reseed_interval : int, optional
        Generate requests between reseeds, 1 .. 2**48.
    prediction_resistance : bool
        Production mode: reseed from the OS before every request.
    """

    _c_fill = lib.rng_drbg_fill
    _c_position = lib.rng_drbg_position
    mechanism: ClassVar[int]
    entropy_bytes: ClassVar[int] = 32
    nonce_bytes: ClassVar[int] = 16
    kat_mechanisms: ClassVar[tuple[str, ...]] = ()
    parameters: ClassVar[dict] = {}
    has_streams = True

    def __init__(self, seed=None, stream=None, *, personalization=None, reseed_interval=None,
                 prediction_resistance=False):
        if seed is None:
            if stream is not None:
                raise ValueError("stream applies to replay mode only; pass seed= as well")
            self._start(None, b"", _bytes("personalization", personalization or b""),
                        reseed_interval, prediction_resistance)
            return
        seed = self.parse_seed(seed)
        self._start(seed[:self.entropy_bytes], seed[self.entropy_bytes:],
                    self._personalization(stream, personalization), reseed_interval, prediction_resistance,
                    stream=stream, seed=seed)

    @classmethod
    def instantiate(cls, entropy, nonce=b"", personalization=b"", *, reseed_interval=None) -> "DrbgEngine":
        """Replay mode from the SP 800-90A instantiate inputs of any allowed
        length (entropy input >= 32 bytes, nonce >= 16 bytes; without the
        df, 48 bytes of entropy, no nonce, personalization <= 48 bytes)."""
        engine = cls.__new__(cls)
        entropy, nonce = _bytes("entropy", entropy), _bytes("nonce", nonce)
        engine._start(entropy, nonce, _bytes("personalization", personalization), reseed_interval, False,
                      seed=entropy + nonce)
        return engine

    @staticmethod
    def _personalization(stream, personalization) -> bytes:
        if stream is not None and personalization is not None:
            raise ValueError("give a stream id or a personalization string, not both")
        if stream is not None:
            return check_u64("stream", stream).to_bytes(8, "big")
        return _bytes("personalization", personalization or b"")

    def _start(self, entropy, nonce, personalization, reseed_interval, prediction_resistance, *, stream=None,
               seed=None):
        self._state = ffi.new("rng_drbg *")
        self._source = ffi.new("rng_source *")
        self._init_lock()
        self._seed = seed
        self._stream = None if stream is None else check_u64("stream", stream)
        self._personalization_len = len(personalization)
        default = DEFAULT_RESEED_INTERVAL if entropy is None else MAX_RESEED_INTERVAL
        interval = default if reseed_interval is None else check_u64("reseed_interval", reseed_interval)
        if not 1 <= interval <= MAX_RESEED_INTERVAL:
            raise ValueError(f"reseed_interval must be 1 .. 2**48 requests, got {interval}")
        pers = ffi.from_buffer(personalization) if personalization else ffi.NULL
        if entropy is None:
            status = lib.rng_drbg_init_production(self._state, self.mechanism, pers, len(personalization),
                                                  interval, bool(prediction_resistance))
        else:
            if prediction_resistance:
                raise ValueError("prediction_resistance needs fresh entropy: production mode only (no seed)")
            warn_if_trivial(seed)
            status = lib.rng_drbg_init_replay(self._state, self.mechanism, entropy, len(entropy),
                                              ffi.from_buffer(nonce) if nonce else ffi.NULL, len(nonce), pers,
                                              len(personalization), interval)
        lib.rng_drbg_source(self._state, self._source)
        weakref.finalize(self, lib.rng_drbg_wipe, self._state)
        if status == lib.RNG_E_ARGUMENT:
            raise ValueError(f"{self.name}: {self._input_rules()}")
        raise_for_status(status, self.name)

    @classmethod
    def _input_rules(cls) -> str:
        return ("entropy input of at least 32 bytes, a nonce of at least 16 bytes, "
                "inputs of at most 2**32 - 1 bytes")

    @classmethod
    def known_answers(cls) -> list[Check]:
        """The CAVP cases of this engine's mechanism (on every AES path for
        CTR_DRBG), SP 800-38A for AES, the power-on self-test and the
        stability pin (:mod:`rngcore.engines._drbg_kat`)."""
        from rngcore.engines import _drbg_kat

        return _drbg_kat.known_answers(cls)

    # -- readouts -----------------------------------------------------------------

    @property
    def reseed_counter(self) -> int:
        """SP 800-90A's reseed counter: requests since the last (re)seeding, plus 1."""
        with self._lock:
            return int(lib.rng_drbg_reseed_counter(self._state))

    def epoch(self) -> tuple[int, int] | None:
        """Production mode: (OS seedings so far, bytes handed out since the last one); replay: None.

        Read from counters the C state already keeps: the mechanism's reseed
        counter is the Generate requests since the last seeding plus 1, each
        request makes ``REQUEST_BYTES`` for output, and buffered output is
        dropped at every seeding, so what is still unread in the buffer is the
        only part of those requests not yet handed out.
        """
        if self._seed is not None:
            return None
        with self._lock:
            state = self._state
            generated = (int(lib.rng_drbg_reseed_counter(state)) - 1) * REQUEST_BYTES
            return int(state.seedings), generated - (REQUEST_BYTES - int(state.pos))

    @property
    def prediction_resistance(self) -> bool:
        return bool(self._state.prediction_resistance)

    def provenance(self, *, show_seed: bool | None = None) -> DrbgProvenance:
        base = super().provenance(show_seed=show_seed)
        interval = self._state.w.ctr.reseed_interval if self.mechanism != lib.RNG_DRBG_HMAC_SHA256 \
            else self._state.w.hmac.reseed_interval
        parameters = dict(self.parameters, request_bytes=REQUEST_BYTES, reseed_interval=int(interval),
                          prediction_resistance=self.prediction_resistance,
                          personalization_bytes=self._personalization_len)
        return DrbgProvenance(**dataclasses.asdict(base), parameters=parameters)

    # -- state changes --------------------------------------------------------------

    def reseed(self, additional_input=b"") -> None:
        """Production mode: reseed from the OS now (SP 800-90A Reseed with
        ``additional_input``); buffered output is dropped, so nothing
        generated before the reseed is handed out after it (per-game reseed)."""
        if self._seed is not None:
            raise ValueError("reseed applies to production mode only (replay has no entropy to reseed with)")
        data = _bytes("additional_input", additional_input)
        with self._lock:
            status = lib.rng_drbg_reseed(self._state, ffi.from_buffer(data) if data else ffi.NULL, len(data))
        if status == lib.RNG_E_ARGUMENT:
            raise ValueError(f"{self.name}: additional_input too long")
        raise_for_status(status, "reseed")

    def seek(self, position: int) -> None:
        """Refused: SP 800-90A defines no seek (docs/drbg.md, "No seek, no spawn")."""
        raise ValueError(f"the {self.name} engine cannot seek: an SP 800-90A DRBG's state moves one way, "
                         "request by request; replay a position by instantiating again and generating up to it")

    def spawn(self, n: int) -> list["DrbgEngine"]:
        """Refused: SP 800-90A defines no children (docs/drbg.md, "No seek, no spawn")."""
        raise ValueError(f"the {self.name} engine cannot spawn children: give each instance its own "
                         "instantiate inputs (a replay seed, or a stream id as its personalization string)")

    def __repr__(self) -> str:
        if self._seed is None:
            return f"{type(self).__name__}(mode='production', seedings={self.seedings})"
        return f"{type(self).__name__}(mode='replay', stream={self._stream}, position={self._position_unlocked()})"
