"""The spins of a both-ways ways game that pay no line, by per-symbol truth tables over the reels.

Whether a symbol pays (``docs/slot_model.md``, "Ways to win", read both
ways).  Read from the left, symbol ``S`` is paid exactly when some listed
count ``k`` has reels ``1 .. k`` all matching ``S`` with ``S`` itself on
one of them (the longest listed count within the run then covers those
reels, and its ways with ``S`` are at least one); read from the right,
likewise for reels ``R - k + 1 .. R``.  A full-width combination is paid
once, but that changes what is paid, not whether: a right-to-left reading
of every reel is a left-to-right one too.  So whether ``S`` pays depends
only on each reel's *category* for ``S``: 0 no matching cell, 1 matching
cells that are all wilds, 2 ``S`` itself shown.

Why not follow the reels left to right, as a one-way game does
(:func:`harness.slot.ways._no_line_win`). A right-to-left reading may
start on any reel, so every symbol's run from the right stays open on
every reel and the sets of open states multiply (the Megaways example
paid both ways passed the 500,000 the programme follows at one reel).
Here the reels are read in the order ``1 .. m`` then ``R .. m + 1`` (``m
= ceil(R / 2)``; they are independent, so any order gives the same
sums), which decides both ends early, and each symbol's state is its
*truth table*: one bit per pattern of categories of the reels not yet
read (only the categories each reel can show for ``S``), set when ``S``
would be paid. Reading a reel keeps the block of the table for the
category it shows. A table of 0 bits settles the symbol unpaid (it
leaves the state), one of all 1 bits means the spin pays (it is
dropped). A table is the least a state can say about the reels still to
come, so histories that agree on every symbol's table merge.
The spins left after the last reel, by scatter cell, pay no line.
"""
from __future__ import annotations

import itertools
import math
from collections import defaultdict

from harness.slot.errors import BeyondExact, ModelError
from harness.slot.limits import MAX_BOTH_WAYS_TABLE, MAX_WAYS_STATES
from harness.slot.ways_rule import SymbolWays


def category(matches: bool, own: bool) -> int:
    """A column's category for a symbol: 0 no matching cell, 1 wilds only, 2 the symbol itself shown."""
    return 0 if not matches else 2 if own else 1


def end_pays(s: SymbolWays, cats) -> bool:
    """Whether ``s`` is paid reading ``cats`` (per reel, in reading order) from their first entry."""
    run = next((i for i, c in enumerate(cats) if not c), len(cats))
    k = s.paid(run)
    return k > 0 and 2 in cats[:k]


def order(reels: int) -> list[int]:
    """The reels in the order read: the left half forwards, then the right half from the last reel."""
    m = (reels + 1) // 2
    return list(range(m)) + list(range(reels - 1, m - 1, -1))


def no_line_win(symbols: tuple[SymbolWays, ...], patterns: list[dict[tuple[int, tuple[int, ...]], int]],
                width: int, source: str | None = None) -> list[int]:
    """``[k]``: spins with scatter cell ``k`` on which no symbol is paid from either end.

    Parameters
    ----------
    symbols : tuple of SymbolWays
        The paying symbols (:class:`~harness.slot.ways_rule.WaysRule`'s).
    patterns : list of dict
        Per reel: ``(scatter cell, per symbol its category)`` -> weight.
    width : int
        Scatter cells counted (at least one more than the largest cell a spin can reach).

    Raises
    ------
    ModelError
        If the truth tables would pass :data:`MAX_BOTH_WAYS_TABLE` entries, or the states at one
        reel :data:`~harness.slot.limits.MAX_WAYS_STATES`.
    """
    reels = len(patterns)
    seq = order(reels)
    shown = [[sorted({cats[x] for (_, cats), w in patterns[r].items() if w}) for r in range(reels)]
             for x in range(len(symbols))]
    sizes = [[len(shown[x][r]) for r in seq] for x in range(len(symbols))]
    entries = sum(math.prod(row) for row in sizes)
    if entries > MAX_BOTH_WAYS_TABLE:
        raise BeyondExact("bet.both_ways", f"read both ways, this game's symbols need truth tables of {entries:,} "
                         f"entries over its {reels} reels, beyond the {MAX_BOTH_WAYS_TABLE:,} this tool builds "
                         "(docs/slot_model.md, Both-ways pays)", source)
    # block[x][t]: the table's size once the first t + 1 reels of the order are read
    block = [[math.prod(row[t + 1:]) for t in range(reels)] for row in sizes]
    digit = [[{c: i for i, c in enumerate(shown[x][r])} for r in range(reels)] for x in range(len(symbols))]
    start = []
    for x, s in enumerate(symbols):
        table = _table(s, [shown[x][r] for r in seq], seq)
        if table == (1 << math.prod(sizes[x])) - 1:
            return [0] * width  # this symbol is paid on every spin
        start.append(table or None)
    mass: dict = {tuple(start): {0: 1}}
    for t, r in enumerate(seq):
        groups: dict = {}
        nxt: dict = defaultdict(lambda: defaultdict(int))
        for tables, cells in mass.items():
            alive = tuple(x for x, tb in enumerate(tables) if tb is not None)
            got = groups.get(alive)
            if got is None:  # this reel's columns by the categories of the open symbols
                got = groups[alive] = defaultdict(lambda: defaultdict(int))
                for (cell, cats), w in patterns[r].items():
                    if w:
                        got[tuple(digit[x][r][cats[x]] for x in alive)][cell] += w
            for digits, by_cell in got.items():
                after = list(tables)
                for x, d in zip(alive, digits):
                    b = block[x][t]
                    kept = (tables[x] >> (d * b)) & ((1 << b) - 1)
                    if kept == (1 << b) - 1:
                        break  # sure to be paid
                    after[x] = kept or None
                else:
                    into = nxt[tuple(after)]
                    for k, v in cells.items():
                        for c, w in by_cell.items():
                            into[k + c] += v * w
        mass = nxt
        if sum(len(c) for c in mass.values()) > MAX_WAYS_STATES:
            raise BeyondExact("reels", f"the ways programme would follow more than {MAX_WAYS_STATES:,} (truth tables, "
                             "scatter cell) entries at one reel (docs/slot_model.md, Large ways games); use fewer "
                             "symbols or shorter strips", source)
    out = [0] * width
    for cells in mass.values():  # every symbol settled unpaid: one state
        for k, v in cells.items():
            out[k] += v
    return out


def _table(s: SymbolWays, shown: list[list[int]], seq: list[int]) -> int:
    """Bit ``i``: whether ``s`` is paid on the ``i``-th pattern of categories (reels in the order ``seq``,
    the first read the most significant digit)."""
    back = sorted(range(len(seq)), key=seq.__getitem__)  # reel -> its place in seq
    bits = []
    for pattern in itertools.product(*shown):
        cats = [pattern[back[r]] for r in range(len(seq))]
        bits.append("1" if end_pays(s, cats) or end_pays(s, cats[::-1]) else "0")
    return int("".join(reversed(bits)) or "0", 2)
