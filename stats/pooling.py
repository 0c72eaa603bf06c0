"""Pooling of chi-square cells: merge cells until each expects enough items.

The rule uses only the expected counts, never the observed ones, so the
pooling cannot be tuned by the data.  Every chi-square of :mod:`stats` and
the power functions of :mod:`stats.power` pool through :func:`pool_cells`;
this module imports no test, so both can use it.
"""
from __future__ import annotations

import numpy as np

from stats._validate import check_choice

POOL_RULES = ("smallest", "adjacent", "error")


def pool_cells(expected, *, min_expected: float = 5.0, rule: str = "smallest") -> np.ndarray:
    """Group cells so every group expects at least ``min_expected`` items.

    Parameters
    ----------
    expected : array_like
        Expected count of each cell.
    min_expected : float, optional
        Smallest expected count allowed in a cell (default 5, Cochran's rule [1]_).
    rule : {"smallest", "adjacent", "error"}, optional
        ``"smallest"`` (unordered categories): cells are taken in increasing
        order of expected count and merged together until the merged cell
        reaches ``min_expected``; cells already large enough are never touched.
        ``"adjacent"`` (ordered categories such as gap or run lengths): cells
        are swept in order and merged with their neighbours until each group
        reaches ``min_expected``; an underfull last group joins the one before.
        ``"error"``: no pooling; raise if any cell is below ``min_expected``.

    Returns
    -------
    groups : numpy.ndarray of int
        Group number of every cell (0, 1, ...), usable as
        ``np.bincount(groups, weights=counts)``.

    References
    ----------
    .. [1] W. G. Cochran, "Some methods for strengthening the common χ² tests",
       Biometrics 10 (1954) 417-451.
    """
    check_choice("rule", rule, POOL_RULES)
    expected = np.asarray(expected, dtype=np.float64)
    cells = expected.size
    groups = np.arange(cells)
    if cells == 0 or min_expected <= 0 or expected.min() >= min_expected:
        return groups
    if rule == "error":
        bad = int(np.argmin(expected))
        raise ValueError(
            f"cell {bad} expects {expected[bad]:.4g} < {min_expected} items; "
            "collect more data or choose rule='smallest' or 'adjacent'"
        )
    order = np.argsort(expected, kind="stable") if rule == "smallest" else np.arange(cells)
    if rule == "smallest":
        # Only cells below the threshold are candidates; merge the smallest ones.
        groups = np.empty(cells, dtype=np.int64)
        small = [i for i in order if expected[i] < min_expected]
        large = [i for i in order if expected[i] >= min_expected]
        members: list[list[int]] = []
        current: list[int] = []
        total = 0.0
        for i in small:
            current.append(i)
            total += expected[i]
            if total >= min_expected:
                members.append(current)
                current, total = [], 0.0
        if current:
            if members:
                members[-1].extend(current)
            elif large:
                # Not enough small mass to make a cell: join the smallest large cell.
                current.append(large.pop(0))
                members.append(current)
            else:
                members.append(current)
        members.extend([i] for i in large)
        for g, cell_list in enumerate(members):
            groups[cell_list] = g
        return _renumber(groups)
    groups = np.empty(cells, dtype=np.int64)
    g, total, start = 0, 0.0, 0
    boundaries = []
    for i in range(cells):
        total += expected[i]
        if total >= min_expected:
            boundaries.append((start, i + 1))
            start, total = i + 1, 0.0
    if start < cells:
        if boundaries:
            s, _ = boundaries.pop()
            boundaries.append((s, cells))
        else:
            boundaries.append((0, cells))
    for g, (s, e) in enumerate(boundaries):
        groups[s:e] = g
    return groups


def min_items(cell_probabilities, *, min_expected: float = 5.0, rule: str = "smallest",
              min_cells: int = 2) -> int:
    """Smallest number of items for which pooling leaves at least ``min_cells``
    valid cells (each expecting >= ``min_expected``)."""
    p = np.asarray(cell_probabilities, dtype=np.float64)

    def ok(items):
        expected = items * p
        if rule == "error":
            return expected.min() >= min_expected
        groups = pool_cells(expected, min_expected=min_expected, rule=rule)
        pooled = np.bincount(groups, weights=expected)
        return pooled.size >= min_cells and pooled.min() >= min_expected

    lo, hi = 1, 2
    while not ok(hi):
        lo, hi = hi, hi * 2
        if hi > 2**62:
            raise ValueError("no sample size makes this test valid")
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi


def _renumber(groups: np.ndarray) -> np.ndarray:
    # Group numbers in order of first appearance, so pooled output keeps cell order.
    _, first = np.unique(groups, return_index=True)
    order = np.argsort(first)
    mapping = np.empty(order.size, dtype=np.int64)
    mapping[np.unique(groups)[order]] = np.arange(order.size)
    return mapping[groups]


__all__ = ["pool_cells", "min_items", "POOL_RULES"]
