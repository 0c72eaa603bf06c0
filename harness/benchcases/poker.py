"""Poker evaluator bench cases: seven-card hands ranked per second (issue 12
targets: >= 100 M random hands/s/core, all 133,784,560 hands <= 2 s).

* ``rngcert-rank-7card``: the C evaluator on random seven-card hands (the
  first 7 cards of ``deck`` device rows, drawn once in setup), on the path
  this CPU gets (AVX-512 where it has it, ``csrc/kernels/poker_eval_simd.h``).
* ``rngcert-rank-7card-portable`` (baseline): the same hands on the portable
  lookup loop, the path ``RNGCERT_FORCE_PORTABLE=1`` selects.
* ``rngcert-all-7card``: every seven-card hand, incremental enumeration in C.
* ``numpy-categories-7card`` (baseline): numpy on the same random hands,
  computing only each hand's category (rank and suit counts, straights by
  windows) -- less work than a full value, so the ratio is conservative.

Each case checks its result: the random hands' categories agree between C
and numpy, the enumeration gives the published counts.
"""
from __future__ import annotations

import functools

import numpy as np

from harness.benchcases._base import BenchCase

HANDS = 1 << 20
BASELINE_HANDS = 1 << 17
SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


@functools.lru_cache(maxsize=None)
def _hands() -> np.ndarray:
    import rngcore
    from rngcore.devices import device_spec

    g = rngcore.Generator(SEED, stream=12)
    return np.ascontiguousarray(device_spec("deck").draw(g, HANDS)[:, :7])


def _setup_rank():
    from harness.games import poker_hands as ph

    hands = _hands()
    return lambda: ph.rank(hands)


def _setup_portable():
    from harness.games import poker_hands as ph
    from harness.kernels import lib

    hands = _hands()

    def portable():
        before = lib.kern_pk_get_impl()
        lib.kern_pk_set_impl(lib.KERN_PK_IMPL_PORTABLE)
        try:
            return ph.rank(hands)
        finally:
            lib.kern_pk_set_impl(before)
    return portable


def _check_rank(values) -> None:
    from harness.games import poker_hands as ph

    expected = _numpy_categories(_hands()[:BASELINE_HANDS])
    assert (ph.category(values[:BASELINE_HANDS]) == expected).all()


def _setup_all():
    from harness.games import poker_hands as ph

    return lambda: ph.category_counts(7)


def _check_all(counts) -> None:
    assert counts["royal_flush"] == 4324 and counts["high_card"] == 23294460 and sum(counts.values()) == 133784560


def _numpy_categories(hands: np.ndarray) -> np.ndarray:
    """Category codes (poker_hands.FIVE_CARD_RANKS) of 7-card hands, in numpy."""
    n = hands.shape[0]
    rank = (hands.astype(np.int64) % 13 + 12) % 13   # 0 = 2 .. 12 = A
    suit = hands.astype(np.int64) // 13
    rows = np.arange(n)[:, None]
    counts = np.zeros((n, 13), dtype=np.int64)
    np.add.at(counts, (rows, rank), 1)
    suits = np.zeros((n, 4), dtype=np.int64)
    np.add.at(suits, (rows, suit), 1)
    flush_suit = suits.argmax(axis=1)
    flush = suits.max(axis=1) >= 5
    in_flush = np.zeros((n, 13), dtype=np.int64)
    np.add.at(in_flush, (rows, rank), (suit == flush_suit[:, None]).astype(np.int64))

    def straight(present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        low = np.concatenate([present[:, 12:13], present], axis=1)  # the ace below the 2
        windows = np.stack([low[:, j:j + 5].all(axis=1) for j in range(10)], axis=1)
        return windows.any(axis=1), windows[:, 9]

    st, _ = straight(counts > 0)
    sf, royal = straight(in_flush > 0)
    sf &= flush
    quads = (counts == 4).any(axis=1)
    trips = (counts == 3).sum(axis=1)
    pairs = (counts == 2).sum(axis=1)
    out = np.ones(n, dtype=np.int64)
    out = np.where(pairs >= 1, 2, out)
    out = np.where(pairs >= 2, 3, out)
    out = np.where(trips >= 1, 4, out)
    out = np.where(st, 5, out)
    out = np.where(flush, 6, out)
    out = np.where((trips >= 2) | ((trips == 1) & (pairs >= 1)), 7, out)
    out = np.where(quads, 8, out)
    out = np.where(sf, 9, out)
    return np.where(sf & royal, 10, out)


def _setup_numpy():
    hands = _hands()[:BASELINE_HANDS]
    return lambda: _numpy_categories(hands)


def _check_numpy(categories) -> None:
    from harness.games import poker_hands as ph

    assert (categories == ph.category(ph.rank(_hands()[:BASELINE_HANDS]))).all()


CASES = [
    BenchCase("poker-7card", "rngcert-rank-7card", _setup_rank, HANDS, "hands",
              target=">= 20x numpy-categories-7card", check=_check_rank),
    BenchCase("poker-7card", "rngcert-rank-7card-portable", _setup_portable, HANDS, "hands",
              baseline=True, check=_check_rank),
    BenchCase("poker-7card", "rngcert-all-7card", _setup_all, 133_784_560, "hands",
              target=">= 20x numpy-categories-7card", check=_check_all),
    BenchCase("poker-7card", "numpy-categories-7card", _setup_numpy, BASELINE_HANDS, "hands",
              baseline=True, check=_check_numpy),
]
