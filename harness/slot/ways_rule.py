"""How a ways game pays one window: the ways rule, in one place.

The rule (``docs/slot_model.md``, "Ways to win").  Pays are per paying
symbol, summed over the symbols.  For a regular symbol ``S`` a cell
*matches* when it shows ``S`` or a wild that substitutes for ``S``; for a
paying wild ``W`` only the cells showing ``W`` itself match.  The *run*
``n(S)`` is the number of reels from reel 1 on each of which some cell
matches; the combination paid is ``k x S`` for the longest count
``k <= n(S)`` that has a listed pay (none if there is no such count).  Its
*ways* are the paths of one matching cell on each of reels ``1 .. k``: the
reels after ``k`` do not multiply.  A way of a regular symbol must show
``S`` itself on at least one of its cells: a way of wilds only is the
wild's own combination (paid by the wild's pays, nothing if it has none),
so no way is paid both as a wild and as a symbol it substitutes for.  The
symbol is paid ``pay(S, k)`` times the sum over its ways of each way's
multiplier:

* ``multiply``: a way's multiplier is the product of the multipliers of
  its wilds, so the sum over the ways is ``c_1 x ... x c_k`` with ``c_r``
  the sum over reel ``r``'s matching cells of their multipliers (1 for a
  non-wild or a plain wild), less the same product over the wild cells
  only (the ways without ``S``);
* ``add``: a way's multiplier is the sum of its wilds' multipliers above 1,
  or 1 if it has none, so the sum over the ways is
  ``sum_r A_r x prod_{q != r} N_q + prod_r Z_r`` (``N_r`` matching cells,
  ``A_r`` the sum of their multipliers above 1, ``Z_r`` those without),
  less the same over the wild cells only.

Reels of any height (a Megaways window) count the rows they show.  Read
both ways, the same rule is applied to the reels in reverse order, and a
symbol whose left-to-right combination covers every reel is not paid again
from the right.  The progressive (``count x P`` on a way) is won, once,
when reels ``1 .. count`` each show ``P`` or, if its wilds count, a wild
for it (as on a payline; so a longer count is never won without a shorter
one, which jackpot levels by count rely on).

Everything that reads a ways game (the exact programme of
:mod:`harness.slot.ways`, the players of :mod:`harness.slot.spin` and
:mod:`harness.slot.window_player`, the sticky-wild and cascade chains, the
simulation's tables) gets the per-column quantities from
:meth:`WaysRule.factor` and the per-window result from :meth:`WaysRule.read`,
so none can read the rule differently.
"""
from __future__ import annotations

import dataclasses
import functools

from harness.slot.lines import line_classes
from harness.slot.model import SlotModel


@dataclasses.dataclass(frozen=True)
class SymbolWays:
    """One paying symbol as the ways rule reads it.

    ``own``: the symbol itself (its index); ``wilds``: the wilds that match
    for it (none for a paying wild); ``pays``: count -> pay (multiples of
    the bet per way); ``classes``: count -> the line class index
    (:func:`harness.slot.lines.line_classes`).
    """

    symbol: int
    wilds: frozenset[int]
    pays: dict[int, int]
    classes: dict[int, int]

    @functools.cached_property
    def paid_counts(self) -> tuple[int, ...]:
        """``paid_counts[n]``: the count paid for a run of ``n`` reels (0: none), ``n`` = 0 .. the most."""
        top = max(self.pays)
        return tuple(max((k for k in self.pays if k <= n), default=0) for n in range(top + 1))

    def paid(self, n: int) -> int:
        """The count paid for a run of ``n`` reels (the longest listed count up to ``n``; 0: none)."""
        table = self.paid_counts
        return table[min(n, len(table) - 1)]

    def matches(self, x: int) -> bool:
        return x == self.symbol or x in self.wilds


@dataclasses.dataclass(frozen=True)
class WaysRule:
    """The ways rule of one model (see the module docstring).

    ``symbols``: the paying symbols, in the order they are listed;
    ``multiplier[x]``: symbol ``x``'s cell multiplier (1 unless a wild has
    one); ``adding``: wild multipliers add (else they multiply).
    """

    symbols: tuple[SymbolWays, ...]
    multiplier: tuple[int, ...]
    adding: bool
    reels: int
    progressive: tuple[int, frozenset[int], int] | None  # (symbol, its matching wilds, count)

    @classmethod
    def of(cls, model: SlotModel, *, with_progressive: bool = True) -> "WaysRule":
        index = {(c.symbol, c.count): k for k, c in enumerate(line_classes(model))}
        out = []
        for i, s in enumerate(model.symbols):
            if s.kind == "scatter" or not s.pays:
                continue
            wilds = frozenset() if s.kind == "wild" else _wilds_for(model, s.name)
            out.append(SymbolWays(symbol=i, wilds=wilds, pays=dict(s.pays),
                                  classes={k: index[(i, k)] for k in s.pays}))
        prog = None
        if with_progressive and model.progressive is not None:
            p = model.progressive
            prog = (model.symbol_index(p.symbol), _wilds_for(model, p.symbol) if p.wilds else frozenset(), p.count)
        return cls(symbols=tuple(out), multiplier=tuple(s.multiplier for s in model.symbols),
                   adding=model.wild_multipliers == "add", reels=model.reels, progressive=prog)

    # --- one column ---------------------------------------------------------------

    def factor(self, s: SymbolWays, column) -> tuple[int, ...]:
        """What one column contributes to symbol ``s``'s ways: the step of :meth:`step`.

        ``multiply``: ``(c, w)``, the multipliers summed over the matching
        cells and over the matching wild cells.  ``add``: ``(N, A, Z, Nw,
        Aw, Zw)``: matching cells, the sum of their multipliers above 1, the
        cells without one; the same over the wild cells.  Every entry is 0
        when no cell matches.
        """
        m = self.multiplier
        if not self.adding:
            c = w = 0
            for x in column:
                if x == s.symbol:
                    c += m[x]
                elif x in s.wilds:
                    c += m[x]
                    w += m[x]
            return (c, w)
        out = [0] * 6
        for x in column:
            if x != s.symbol and x not in s.wilds:
                continue
            high = m[x] if m[x] > 1 else 0
            for off in (0, 3) if x != s.symbol else (0,):  # a wild counts in the wild-only sums too
                out[off] += 1
                out[off + 1] += high
                out[off + 2] += not high
        return tuple(out)

    @property
    def start(self) -> tuple[int, ...]:
        """The ways value before any reel: one empty way, multiplier not yet read."""
        return (1, 1) if not self.adding else (1, 0, 1, 1, 0, 1)

    def step(self, acc: tuple[int, ...], f: tuple[int, ...]) -> tuple[int, ...]:
        """The ways value after one more reel whose column gave ``f`` (:meth:`factor`); linear in ``acc``."""
        if not self.adding:
            return (acc[0] * f[0], acc[1] * f[1])
        n, q, z, nw, qw, zw = acc
        return (n * f[0], q * f[0] + n * f[1], z * f[2], nw * f[3], qw * f[3] + nw * f[4], zw * f[5])

    def value(self, acc: tuple[int, ...]) -> int:
        """The sum over the symbol's ways (with ``S`` on some cell) of each way's multiplier."""
        if not self.adding:
            return acc[0] - acc[1]
        return acc[1] + acc[2] - acc[4] - acc[5]

    # --- one window ---------------------------------------------------------------

    def read_symbol(self, s: SymbolWays, window) -> tuple[int, int]:
        """``(count paid, sum of way multipliers)`` of symbol ``s`` on ``window`` (columns, reel 1 first).

        ``(0, 0)`` when nothing is paid.
        """
        factors = []
        for col in window:
            f = self.factor(s, col)
            if not f[0]:
                break
            factors.append(f)
        k = s.paid(len(factors))
        if not k:
            return 0, 0
        acc = self.start
        for f in factors[:k]:
            acc = self.step(acc, f)
        v = self.value(acc)
        return (k, v) if v else (0, 0)

    def read(self, window, *, both_ways: bool = False) -> list[tuple[int, int]]:
        """Every combination the window pays: ``(pay x ways, line class)`` in bets per way.

        Left to right; with ``both_ways`` also right to left (a symbol whose
        left-to-right combination covers every reel is paid once).
        """
        out = []
        backwards = list(reversed(window)) if both_ways else None
        for s in self.symbols:
            k, v = self.read_symbol(s, window)
            if k:
                out.append((s.pays[k] * v, s.classes[k]))
            if backwards is not None and k != len(window):
                k2, v2 = self.read_symbol(s, backwards)
                if k2:
                    out.append((s.pays[k2] * v2, s.classes[k2]))
        return out

    def pays(self, window, *, both_ways: bool = False) -> int:
        """The window's total ways pay, in bets per way."""
        return sum(p for p, _ in self.read(window, both_ways=both_ways))

    def progressive_shown(self, window) -> bool:
        """Whether the window wins the progressive on a way (see the module docstring)."""
        if self.progressive is None:
            return False
        symbol, wilds, count = self.progressive
        return len(window) >= count and all(symbol in col or any(x in wilds for x in col)
                                            for col in window[:count])

    def winning_cells(self, window, *, both_ways: bool = False) -> set[tuple[int, int]]:
        """``(reel, row)`` of every cell that is part of a paid way (cascades remove them)."""
        cells: set[tuple[int, int]] = set()
        directions = [(window, False)] + ([(list(reversed(window)), True)] if both_ways else [])
        for s in self.symbols:
            for cols, backwards in directions:
                k, _ = self.read_symbol(s, cols)
                if not k or (backwards and self.read_symbol(s, window)[0] == len(window)):
                    continue
                for r in range(k):
                    reel = len(window) - 1 - r if backwards else r
                    cells.update((reel, h) for h, x in enumerate(cols[r]) if s.matches(x))
        return cells


def _wilds_for(model: SlotModel, name: str) -> frozenset[int]:
    return frozenset(j for j, w in enumerate(model.symbols) if w.kind == "wild" and name in w.substitutes)


def reader(model: SlotModel):
    """``read(window)``: the (pay, class) of every combination a ways window pays (both ways if the
    model says so, no progressive): what every window-by-window reader of a ways game pays with."""
    rule = WaysRule.of(model, with_progressive=False)
    return lambda window: rule.read(window, both_ways=model.both_ways)
