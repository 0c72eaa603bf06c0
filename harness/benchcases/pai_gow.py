"""Pai Gow bench case: the exact enumeration of every deal of 4 + 4 tiles
from the 32 (C(32,4) C(28,4) = 736,281,000 deals; issue 13 target <= 60 s,
read from the report).

Same-run baseline with numpy: the same deals for the first customer tile
sets only (each customer set against all 20,475 dealer sets of the other 28
tiles, hand numbers looked up and hands compared as arrays), timed per deal.

Each case checks its counts: the rngcert case the exact totals of the house
way, the numpy case against the C counts of the same customer sets.
"""
from __future__ import annotations

import functools
import itertools

import numpy as np

from harness.benchcases._base import BenchCase

DEALS = 736_281_000
CUSTOMER_SETS = 24


def _setup_rngcert():
    from harness.games import pai_gow as pg

    chosen = pg.customer_settings("house-way")
    pg.hand_tables()

    def run():
        return pg.enumerate_deals(chosen)

    return run


def _check_rngcert(counts) -> None:
    assert counts == {"win": 216443600, "push": 297155836, "lose": 222681564}, counts


@functools.lru_cache(maxsize=None)
def _customer_sets() -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.islice(itertools.combinations(range(32), 4), CUSTOMER_SETS))


def _setup_numpy():
    from harness.games import pai_gow as pg

    t = pg.hand_tables()
    chosen = pg.customer_settings("house-way")
    index = pg.hand_index()
    rows = np.array([x + 1 for x in pg.TILE_SET], dtype=np.int64)
    dealer_sets = np.array(list(itertools.combinations(range(28), 4)), dtype=np.int64)

    def run():
        tally = np.zeros(3, dtype=np.int64)
        for mine in _customer_sets():
            rest = rows[[k for k in range(32) if k not in mine]]
            me = index[(((rows[mine[0]] * 22 + rows[mine[1]]) * 22 + rows[mine[2]]) * 22 + rows[mine[3]])]
            ck = t.settings[me, chosen[me]]
            r = rest[dealer_sets]  # rows nondecreasing along each dealer set
            dk = t.dealer[index[((r[:, 0] * 22 + r[:, 1]) * 22 + r[:, 2]) * 22 + r[:, 3]]]
            high, low = ck[0] > dk[:, 0], ck[1] > dk[:, 1]
            tally += np.bincount(np.where(high & low, 0, np.where(high | low, 1, 2)), minlength=3)
        return tally

    return run


def _check_numpy(tally) -> None:
    from harness.games import pai_gow as pg

    counts = pg.setting_counts()
    chosen = pg.customer_settings("house-way")
    index, rows = pg.hand_index(), [x + 1 for x in pg.TILE_SET]
    expected = np.zeros(3, dtype=np.int64)
    for mine in _customer_sets():
        a, b, c, d = (rows[k] for k in mine)
        me = index[((a * 22 + b) * 22 + c) * 22 + d]
        expected += counts[me, chosen[me]].astype(np.int64)
    assert (np.asarray(tally) == expected).all(), (tally, expected)


CASES = [
    BenchCase("pai-gow-deals", "rngcert-pai-gow-enumeration", _setup_rngcert, DEALS, "deals",
              target=">= 1x numpy-fancy-index-deals", check=_check_rngcert),
    BenchCase("pai-gow-deals", "numpy-fancy-index-deals", _setup_numpy, CUSTOMER_SETS * 20475, "deals",
              baseline=True, check=_check_numpy),
]
