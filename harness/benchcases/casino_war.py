"""Casino War bench case: rounds dealt from 8-deck shoes (issue 13 target:
>= 20 million rounds/s on one core, read from the report).

Same-run baseline with numpy ``Generator(PCG64)``: every round's four cards
(two compared, two for a war) are drawn from a fresh 8-deck stack (four
positions, rounds with a repeated position redrawn), compared by rank and
tallied into the six round classes -- less work than the rngcert case, which
shuffles and deals down whole shoes under the cut-card procedure.

Each case checks its tally: the right number of rounds, and every class
within 7 standard deviations of its exact share (the dealt-shoe average for
rngcert, the fresh-stack figure for numpy).
"""
from __future__ import annotations

import functools

import numpy as np

from harness.benchcases._base import BenchCase

ROUNDS = 1 << 23
NUMPY_ROUNDS = 1 << 21
DECKS = 8


@functools.lru_cache(maxsize=None)
def _shares(dealt: bool) -> tuple[float, ...]:
    from harness.games import casino_war as cw

    shoe = cw.standard_shoe(DECKS)
    e = cw.dealt_shoe(shoe, cw.production_procedure(DECKS), "war") if dealt else cw.first_round(shoe, "war")
    p = e.class_probabilities()
    return tuple(float(p[c]) for c in cw.CLASSES)


def _check(rounds: int, dealt: bool):
    def check(counts) -> None:
        counts = np.asarray(counts, dtype=np.float64)
        assert int(counts.sum()) == rounds, f"{int(counts.sum())} rounds tallied, {rounds} played"
        for observed, p in zip(counts, _shares(dealt)):
            sd = (rounds * p * (1 - p)) ** 0.5
            assert abs(observed - rounds * p) <= 7 * sd + (p == 0), "a round class beyond 7 sd"

    return check


def _setup_rngcert():
    import rngcore
    from harness.games import casino_war as cw

    g = rngcore.Generator()
    table = cw.WarTable(DECKS, "war")

    def run():
        counts = np.zeros(len(cw.CLASSES), dtype=np.uint64)
        table.play(g, ROUNDS, counts)
        return counts

    return run


def _setup_numpy():
    from rngcore.devices import cards

    rng = np.random.Generator(np.random.PCG64())
    rank = cards.fresh_stack(DECKS).astype(np.int64) & 15
    strength = np.where(rank == 1, 14, rank)

    def run():
        pos = rng.integers(0, strength.size, size=(NUMPY_ROUNDS + NUMPY_ROUNDS // 16, 4))
        s = np.sort(pos, axis=1)
        pos = pos[np.all(s[:, 1:] != s[:, :-1], axis=1)][:NUMPY_ROUNDS]  # four different cards
        v = strength[pos]
        war = np.where(v[:, 2] > v[:, 3], 2, np.where(v[:, 2] == v[:, 3], 3, 4))
        cls = np.where(v[:, 0] > v[:, 1], 0, np.where(v[:, 0] < v[:, 1], 1, war))
        return np.bincount(cls, minlength=6)

    return run


CASES = [
    BenchCase("casino-war-8deck", "rngcert-casino-war-dealt", _setup_rngcert, ROUNDS, "rounds",
              target=">= 1x numpy-pcg64-fresh-rounds", check=_check(ROUNDS, True)),
    BenchCase("casino-war-8deck", "numpy-pcg64-fresh-rounds", _setup_numpy, NUMPY_ROUNDS, "rounds",
              baseline=True, check=_check(NUMPY_ROUNDS, False)),
]
