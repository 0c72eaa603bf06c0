"""The award cap: the most one play pays, and its exact effect on the figures.

Rule (``docs/slot_model.md``, "Award caps"): a play whose win — line and
scatter pays of the paid spin, and every feature it starts (free spins, hold and spin,
the wheel or pick bonus) — exceeds ``cap`` total bets is paid ``cap`` total
bets.  Progressive meters (the combination progressive, mystery and jackpot
levels) are paid in full, outside the cap.

Exactly how it is computed.  The capped win ``C = min(S + F, cap)`` needs the
*distribution* of the paid spin's win ``S``, not only its moments: the joint
programme of :mod:`harness.slot.joint` is run once more with every
configuration's summary a table ``(scatter cell, progressive flag, total line
pay) -> stop combinations``.  Line pays at or above ``T = ceil(cap / bet per
line)`` are kept as ``T``: such a spin reaches the cap whatever else it wins
(every other amount is >= 0), so ``C = cap`` for it and the tables stay at
most ``T + 1`` wide per cell.  Given the cell, the feature ``F`` is
independent of ``S`` and its distribution is exact (a bonus's by
:mod:`harness.slot.bonus`; hold and spin's from the chain's final count and
the coin values, convolved), so ``E[C]``, ``E[C^2]`` and ``E[C; progressive
hit]`` are finite exact sums.  A play's free spins are capped with it by
the walk of :mod:`harness.slot.cap_free`, from these tables.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from harness.slot.joint import _Programme
from harness.slot.lines import LineAutomaton
from harness.slot.reelset import ReelSet


@dataclasses.dataclass(frozen=True)
class CappedMoments:
    """Moments of the capped win ``C`` of one play (credits), progressives not included.

    ``on[label]``: ``E[C; the paid spin's label is label]`` for every non-zero label of the tables
    (:func:`line_pay_distribution`'s progressive flag, 1 when the combination progressive hits; with
    jackpot levels, the bits of the levels the paid spin wins: :func:`harness.slot.exact.labelled_pay_table`).
    """

    mean: Fraction          # E[C]
    second: Fraction        # E[C^2]
    capped: Fraction        # P(the cap bites: S + F > cap)
    on: dict[int, Fraction] = dataclasses.field(default_factory=dict)

    @property
    def on_hits(self) -> Fraction:
        """``E[C; some meter hits]`` (the combination progressive: ``E[C; it hits]``)."""
        return sum(self.on.values(), Fraction(0))

    def on_level(self, i: int) -> Fraction:
        """``E[C; jackpot level i is won]`` (bit ``i`` of the label)."""
        return sum((v for label, v in self.on.items() if label >> i & 1), Fraction(0))


class _Distribution:
    """A configuration's summary: ``(cell, progressive flag) -> {line pay (at most top): combinations}``."""

    __slots__ = ("D", "top")

    def __init__(self, top: int):
        self.D: dict[tuple[int, int], dict[int, int]] = {}
        self.top = top

    def absorb(self, child: "_Distribution", n: int, sc: int, d: int, dp: int, db: int) -> None:
        """Add ``n`` stops leading to ``child`` with ``sc`` scatter cells, line pay ``d`` and progressive ``dp``."""
        top = self.top
        for (s, p), dist in child.D.items():
            row = self.D.setdefault((s + sc, p | dp), {})
            for pay, count in dist.items():
                key = min(pay + d, top)
                row[key] = row.get(key, 0) + n * count


class _CappedProgramme(_Programme):
    """The joint programme with distributions for summaries (see the module docstring)."""

    def __init__(self, reels: ReelSet, automaton: LineAutomaton, paylines, top: int):
        self.top = top
        super().__init__(reels, automaton, paylines)

    def _new(self, width: int) -> _Distribution:
        return _Distribution(self.top)

    def _dead(self, r: int, scatter_counts: list[int]) -> _Distribution:
        s = _Distribution(self.top)
        s.D = {(k, 0): {0: n} for k, n in enumerate(scatter_counts) if n}
        return s


def line_pay_distribution(reels: ReelSet, automaton: LineAutomaton, paylines, top: int
                          ) -> dict[tuple[int, int], dict[int, int]]:
    """``(cell, progressive flag) -> {min(total line pay, top): stop combinations}`` over the cycle."""
    table = _CappedProgramme(reels, automaton, paylines, top).root().D
    counted = sum(sum(d.values()) for d in table.values())
    if counted != reels.cycle:
        raise AssertionError(f"capped enumeration counted {counted} combinations, cycle is {reels.cycle}")
    return table


def capped_moments(table: dict[tuple[int, int], dict[int, int]], cycle: int, bet_per_line: int,
                   scatter_pay: list[int], features: dict[int, dict[int, Fraction]], cap: int) -> CappedMoments:
    """Exact moments of ``C = min(S + F, cap)`` (credits); ``table`` keyed ``(cell, label)``.

    ``scatter_pay[k]``: the scatter pay of cell ``k`` in credits;
    ``features[k]``: the distribution of the feature's win (credits) a
    spin in cell ``k`` starts (absent: none).
    """
    none = {0: Fraction(1)}
    s1 = s2 = bites = Fraction(0)
    on: dict[int, Fraction] = {}
    for (k, p), dist in table.items():
        feature = features.get(k, none)
        for pay, count in dist.items():
            spin = bet_per_line * pay + scatter_pay[k]
            for f, q in feature.items():
                c = min(spin + f, cap)
                w = count * q
                s1 += w * c
                s2 += w * c * c
                if p:
                    on[p] = on.get(p, 0) + w * c
                if spin + f > cap:
                    bites += w
    return CappedMoments(mean=s1 / cycle, second=s2 / cycle, capped=bites / cycle,
                         on={label: v / cycle for label, v in on.items()})
