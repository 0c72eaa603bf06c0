"""The games' calls into C (csrc/kernels/baccarat.c, tablegames.c), status checked.

Draws pass ``WORD_BITS`` (64) like the devices, so the same compiled code
runs in reduced-width proofs.  Every draw goes through
:func:`rngcore.engine.locked_call`: the generator's lock is held for the
whole C call (no two callers share keystream) and the status is turned into
an exception by :func:`rngcore.errors.raise_for_status`.
"""
from __future__ import annotations

import numpy as np

from harness.kernels import ffi, lib
from rngcore.engine import locked_call
from rngcore.errors import raise_for_status

WORD_BITS = 64


def baccarat_exact(faces: np.ndarray) -> tuple[np.ndarray, int]:
    """Exact class counts (7200) and their total for a 52-face composition."""
    faces = np.ascontiguousarray(faces, dtype=np.uint32)
    out = np.zeros(lib.KERN_BAC_CLASSES, dtype=np.uint64)
    total = ffi.new("uint64_t *")
    raise_for_status(lib.kern_bac_exact(ffi.from_buffer("uint32_t[]", faces), ffi.from_buffer("uint64_t[]", out), total),
          "baccarat exact counts (composition must hold 6..1024 cards)")
    return out, int(total[0])


class BaccaratTable:
    """A C baccarat table dealing shoes by ``rules`` (the ``kern_bac_rules``
    fields, see :func:`harness.games.baccarat.c_rules`)."""

    def __init__(self, fresh_codes: np.ndarray, rules: dict) -> None:
        fresh = np.ascontiguousarray(fresh_codes, dtype=np.uint16)
        self._table = ffi.new("kern_bac_table *")
        c_rules = ffi.new("kern_bac_rules *", rules)
        status = lib.kern_bac_table_init(self._table, ffi.from_buffer("uint16_t[]", fresh), fresh.size, c_rules)
        raise_for_status(status, f"baccarat shoe rules {rules} on a stack of {fresh.size} cards", details={
            lib.RNG_E_ARGUMENT: "they do not fit: the cut card must leave room in front of it for the burn and "
                                "a round, and behind it for the shoe's last round(s)"})

    @property
    def shoes(self) -> int:
        return int(self._table.shoe.shoes)

    @property
    def position(self) -> int:
        return int(self._table.shoe.pos)

    @property
    def cut_card_index(self) -> int:
        """Cards in front of the cut card in the current shoe."""
        return int(self._table.shoe.cut_at)

    def cards(self) -> np.ndarray:
        """The current shoe order (card codes)."""
        n = int(self._table.shoe.n)
        return np.frombuffer(ffi.buffer(self._table.shoe.cards, 2 * n), dtype=np.uint16).copy()

    def round(self, cards: np.ndarray) -> tuple[int, int]:
        """(class, cards used) of the round this table deals from ``cards`` (six codes, all read)."""
        six = np.ascontiguousarray(cards, dtype=np.uint16)
        if six.shape != (6,):
            raise ValueError(f"a round is read from six cards, got shape {six.shape}")
        cls, used = ffi.new("uint32_t *"), ffi.new("uint32_t *")
        raise_for_status(lib.kern_bac_round(self._table, ffi.from_buffer("uint16_t[]", six), cls, used),
                         "baccarat round (codes must be rngcore.devices.cards codes)")
        return int(cls[0]), int(used[0])

    def play(self, generator, rounds: int, counts: np.ndarray, bits: int = WORD_BITS) -> None:
        """Play ``rounds`` rounds, adding to ``counts`` (uint64[7200])."""
        if counts.dtype != np.uint64 or counts.shape != (lib.KERN_BAC_CLASSES,) or not counts.flags.c_contiguous:
            raise ValueError("counts must be a contiguous uint64 array of 7200 classes")
        locked_call(generator, lib.kern_bac_play, self._table, rounds, ffi.from_buffer("uint64_t[]", counts), bits,
                    what=f"playing {rounds} baccarat rounds")


def tally(generator, sections: int, rounds: int, counts: np.ndarray, *, per_round: int = 1,
          void: int | None = None, bits: int = WORD_BITS) -> None:
    """Add ``rounds`` rounds of ``per_round`` outcomes on [0, sections)
    (minus ``void``) to ``counts``, indexed by the rounds' mixed-radix index."""
    indices = sections ** per_round
    if counts.dtype != np.uint64 or counts.size != indices or not counts.flags.c_contiguous:
        raise ValueError(f"counts must be a contiguous uint64 array of {indices} entries")
    locked_call(generator, lib.kern_tg_tally, sections, per_round, sections if void is None else void, rounds,
                ffi.from_buffer("uint64_t[]", counts), bits, what=f"tallying {rounds} rounds on {sections} sections")


def rounds(generator, sections: int, rounds: int, *, per_round: int = 1, void: int | None = None,
           bits: int = WORD_BITS) -> tuple[np.ndarray, np.ndarray]:
    """(index, end) of ``rounds`` rounds drawn one by one as :func:`tally` draws a single round:
    each round's mixed-radix index, and the output bytes consumed through it (so round i used
    bytes ``end[i-1]..end[i]`` after the position the call started at)."""
    idx = np.empty(rounds, dtype=np.uint32)
    ends = np.empty(rounds, dtype=np.uint64)
    locked_call(generator, lib.kern_tg_rounds, sections, per_round, sections if void is None else void, rounds,
                ffi.from_buffer("uint32_t[]", idx), ffi.from_buffer("uint64_t[]", ends), bits,
                what=f"drawing {rounds} rounds on {sections} sections")
    return idx, ends


def chain(generator, sections: int, next_state: np.ndarray, rounds: int, visits: np.ndarray, state: int, *,
          per_round: int = 1, bits: int = WORD_BITS) -> int:
    """Run an automaton ``rounds`` steps over rounds of ``per_round`` outcomes
    on [0, sections); returns the final state."""
    next_state = np.ascontiguousarray(next_state, dtype=np.uint16)
    indices = sections ** per_round
    states = next_state.size // indices
    if next_state.size != states * indices or visits.dtype != np.uint64 or visits.size != next_state.size:
        raise ValueError("next_state and visits must both hold states * sections**per_round entries (visits uint64)")
    cstate = ffi.new("uint32_t *", state)
    locked_call(generator, lib.kern_tg_chain, sections, per_round, states, ffi.from_buffer("uint16_t[]", next_state),
                rounds, ffi.from_buffer("uint64_t[]", visits), cstate, bits,
                what=f"running {rounds} steps of a {states}-state automaton")
    return int(cstate[0])
