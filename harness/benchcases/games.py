"""Table-game bench cases: rounds played through the virtual devices (issue 6 targets).

Targets (absolute, from the issue; the report shows rounds/s):
baccarat dealt from 8-deck shoes >= 20 million rounds/s on one core; wheel
and dice games >= 50 million rounds/s.

Same-run baselines doing the same work with numpy ``Generator(PCG64)``:

* baccarat: numpy deals each round's six cards from a fresh 8-deck stack
  (six positions, rounds with a repeated position redrawn), plays the
  tableau with table lookups and tallies the 7200 round classes;
* roulette / sic bo: ``integers`` then ``bincount`` of the spin or the
  ordered dice index;
* craps: ``integers`` for both dice and ``bincount`` of the 36 rolls (less
  work than the rngcert case, which also runs the table's pass line, come
  bet and Fire Bet automaton).

Every case checks its tally: the right number of rounds, no impossible
class, and the main classes within 7 standard deviations of their exact
probabilities.
"""
from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from harness.benchcases._base import BenchCase

BACCARAT_ROUNDS = 1 << 22
SPINS = 10**7
DECKS = 8


def _generator():
    import rngcore

    return rngcore.Generator()


@functools.lru_cache(maxsize=None)
def _baccarat_exact() -> tuple[np.ndarray, int]:
    from harness.games import baccarat

    return baccarat.exact_counts(baccarat.shoe_faces(DECKS))


def _check_baccarat(rounds: int):
    def check(counts) -> None:
        counts = np.asarray(counts)
        exact, total = _baccarat_exact()
        assert int(counts.sum()) == rounds, f"{int(counts.sum())} rounds tallied, {rounds} played"
        assert int(counts[exact == 0].sum()) == 0, "an impossible round class was dealt"
        # Winner classes (player / banker / tie) against the exact 8-deck probabilities.
        totals = np.arange(counts.size) // 72
        pt, bt = totals // 10, totals % 10
        for mask in (pt > bt, bt > pt, pt == bt):
            p = float(Fraction(int(exact[mask].sum()), total))
            sd = (rounds * p * (1 - p)) ** 0.5
            assert abs(int(counts[mask].sum()) - rounds * p) < 7 * sd, "winner frequency beyond 7 sd"

    return check


def _setup_rngcert_baccarat(variant: str):
    def setup():
        from harness.games import _native, baccarat
        from rngcore.devices import cards

        g = _generator()
        table = _native.BaccaratTable(cards.fresh_stack(DECKS), baccarat.c_rules(variant, DECKS))

        def run():
            counts = np.zeros(baccarat.CLASSES, dtype=np.uint64)
            table.play(g, BACCARAT_ROUNDS, counts)
            return counts

        return run

    return setup


@functools.lru_cache(maxsize=None)
def _numpy_tableau() -> np.ndarray:
    """Class (pair state 0) of every (pt, bt, x, y), written independently of csrc/kernels/baccarat.c."""
    table = np.empty(10**4, dtype=np.int64)
    draws = {0: range(10), 1: range(10), 2: range(10), 3: [0, 1, 2, 3, 4, 5, 6, 7, 9], 4: range(2, 8),
             5: range(4, 8), 6: (6, 7), 7: ()}
    for pt in range(10):
        for bt in range(10):
            for x in range(10):
                for y in range(10):
                    pf, bf, np_, nb = pt, bt, 2, 2
                    if pt < 8 and bt < 8:
                        if pt <= 5:
                            pf, np_ = (pt + x) % 10, 3
                            if x in draws[bt]:
                                bf, nb = (bt + y) % 10, 3
                        elif bt <= 5:
                            bf, nb = (bt + x) % 10, 3
                    table[((pt * 10 + bt) * 10 + x) * 10 + y] = (((pf * 10 + bf) * 2 + np_ - 2) * 2 + nb - 2) * 18
    return table


def _setup_numpy_baccarat():
    from rngcore.devices import cards

    rng = np.random.Generator(np.random.PCG64())
    codes = cards.fresh_stack(DECKS).astype(np.int64)
    rank, suit = codes & 15, (codes >> 4) & 3
    point = np.where(rank >= 10, 0, rank)
    tableau = _numpy_tableau()
    n = 1 << 20

    def run():
        pos = rng.integers(0, codes.size, size=(n + n // 16, 6))
        s = np.sort(pos, axis=1)
        pos = pos[np.all(s[:, 1:] != s[:, :-1], axis=1)][:n]  # six different cards
        r, su, pv = rank[pos], suit[pos], point[pos]
        pt, bt = (pv[:, 0] + pv[:, 2]) % 10, (pv[:, 1] + pv[:, 3]) % 10
        cls = tableau[((pt * 10 + bt) * 10 + pv[:, 4]) * 10 + pv[:, 5]]
        pp = (r[:, 0] == r[:, 2]) * (1 + (su[:, 0] == su[:, 2]))
        bp = (r[:, 1] == r[:, 3]) * (1 + (su[:, 1] == su[:, 3]))
        twin = (pp > 0) & (bp > 0) & (r[:, 0] == r[:, 1])
        return np.bincount(cls + (pp * 3 + bp) * 2 + twin, minlength=7200)

    return run


def _check_uniform(cells: int, rounds: int):
    def check(counts) -> None:
        counts = np.asarray(counts)
        assert counts.size == cells and int(counts.sum()) == rounds, "wrong number of rounds tallied"
        expected = rounds / cells
        sd = (expected * (1 - 1 / cells)) ** 0.5
        assert counts.min() > 0 and np.abs(counts - expected).max() < 7 * sd, "a count beyond 7 sd"

    return check


def _setup_rngcert_tally(sections: int, per_round: int):
    def setup():
        from harness.games import _native

        g = _generator()

        def run():
            counts = np.zeros(sections ** per_round, dtype=np.uint64)
            _native.tally(g, sections, SPINS, counts, per_round=per_round)
            return counts

        return run

    return setup


def _setup_numpy_tally(sections: int, per_round: int):
    def setup():
        rng = np.random.Generator(np.random.PCG64())
        weights = sections ** np.arange(per_round - 1, -1, -1)

        def run():
            draws = rng.integers(0, sections, size=(SPINS, per_round), dtype=np.uint8)
            index = draws[:, 0] if per_round == 1 else draws.astype(np.int64) @ weights
            return np.bincount(index, minlength=sections ** per_round)

        return run

    return setup


def _setup_rngcert_craps():
    from harness.games import _native, craps

    g = _generator()
    automaton = craps.table_automaton()
    state = [craps.table_state(0, 0, 0)]

    def run():
        visits = np.zeros(automaton.size, dtype=np.uint64)
        state[0] = _native.chain(g, 6, automaton, SPINS, visits, state[0], per_round=2)
        return visits.reshape(-1, 36).sum(axis=0)

    return run


CASES = [
    BenchCase("baccarat-8deck-dealt", "rngcert-baccarat-jp", _setup_rngcert_baccarat("jp"), BACCARAT_ROUNDS,
              "rounds", check=_check_baccarat(BACCARAT_ROUNDS)),
    BenchCase("baccarat-8deck-dealt", "numpy-pcg64-fresh-rounds", _setup_numpy_baccarat, 1 << 20, "rounds",
              baseline=True, check=_check_baccarat(1 << 20)),
    BenchCase("baccarat-8deck-fresh", "rngcert-baccarat-etable", _setup_rngcert_baccarat("etable"),
              BACCARAT_ROUNDS, "rounds", target=">= 1x numpy-pcg64-fresh-rounds",
              check=_check_baccarat(BACCARAT_ROUNDS)),
    BenchCase("baccarat-8deck-fresh", "numpy-pcg64-fresh-rounds", _setup_numpy_baccarat, 1 << 20, "rounds",
              baseline=True, check=_check_baccarat(1 << 20)),
    BenchCase("roulette-37", "rngcert-roulette-tally", _setup_rngcert_tally(37, 1), SPINS, "rounds",
              target=">= 1x numpy-pcg64-bincount", check=_check_uniform(37, SPINS)),
    BenchCase("roulette-37", "numpy-pcg64-bincount", _setup_numpy_tally(37, 1), SPINS, "rounds",
              baseline=True, check=_check_uniform(37, SPINS)),
    BenchCase("sic-bo-216", "rngcert-sic-bo-tally", _setup_rngcert_tally(6, 3), SPINS, "rounds",
              target=">= 1x numpy-pcg64-bincount", check=_check_uniform(216, SPINS)),
    BenchCase("sic-bo-216", "numpy-pcg64-bincount", _setup_numpy_tally(6, 3), SPINS, "rounds",
              baseline=True, check=_check_uniform(216, SPINS)),
    BenchCase("craps-rolls", "rngcert-craps-table", _setup_rngcert_craps, SPINS, "rounds",
              check=_check_uniform(36, SPINS)),
    BenchCase("craps-rolls", "numpy-pcg64-bincount", _setup_numpy_tally(6, 2), SPINS, "rounds",
              baseline=True, check=_check_uniform(36, SPINS)),
]
