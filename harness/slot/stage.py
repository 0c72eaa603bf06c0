"""One kind of spin (the paid base-game spin, or a free spin) and its exact figures.

A *stage* is a set of reel strips read through one payline automaton, with
a multiplier on every win.  Its figures come in two layers: those of each
payline on its own, summed over the played lines (:func:`single_line`,
products over reels) and those of all paylines together (the :class:`~harness.slot.joint.JointMoments` of the
joint dynamic programme).  The analysis (:mod:`harness.slot.exact`) and the
outcome classes (:mod:`harness.slot.outcomes`) both read stages.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from harness.slot.joint import JointMoments
from harness.slot.lines import LineAutomaton, build_line_automaton
from harness.slot.model import SlotModel
from harness.slot.reelset import ReelSet


@dataclasses.dataclass
class Stage:
    """The exact figures of one stage over its full cycle.

    Attributes
    ----------
    reels : ReelSet
    automaton : LineAutomaton
    final_weights : dict[int, int]
        Weight of each final automaton state, summed over the played paylines.
    line_pay_weight : int
        Sum over the cycle and the played paylines of each line's pay
        (multiples of the bet per line).
    class_line_weights : list[int]
        Per line class: (stop combination, payline) pairs in which the line pays it.
    class_pay_weights : list[int]
        Per line class: the pay (multiples of the bet per line, wild
        multipliers included) summed over those pairs.
    multiplier : int
        Every win of the stage is multiplied by it.
    joint : JointMoments or None
        All paylines together; set by the analysis once the joint programme ran (a
        ways game's by :func:`harness.slot.ways.build_stage`, whose ``line_sq`` is
        whole at cell 0: every user sums it over the cells).
    """

    reels: ReelSet
    automaton: LineAutomaton
    final_weights: dict[int, int]
    line_pay_weight: int
    class_line_weights: list[int]
    class_pay_weights: list[int]
    multiplier: int = 1
    joint: JointMoments | None = None

    @property
    def cycle(self) -> int:
        return self.reels.cycle

    @property
    def scatter_counts(self) -> list[int]:
        return self.reels.scatter_counts

    def check_joint(self, what: str) -> None:
        """The joint programme's line return must equal the sum of the single paylines'."""
        if sum(a + b for a, b in self.joint.line_sum) != self.line_pay_weight:
            raise AssertionError(f"joint enumeration disagrees with the per-line product on {what}")

    def cell_sums(self, model: SlotModel, k: int, p: int) -> tuple[int, int, int]:
        """``(spins, sum of win, sum of win**2)`` in credits over the cell of ``k``
        scatters and progressive flag ``p`` (line pays, scatter pay, multiplier)."""
        joint = self.joint
        n, s1, s2 = joint.count[k][p], joint.line_sum[k][p], joint.line_sq[k][p]
        # win = a * (total line pay multiple) + b on every spin of the cell
        a = self.multiplier * model.bet_per_line
        b = self.multiplier * model.total_bet * model.scatter_awards.pay[k]
        return n, a * s1 + b * n, a * a * s2 + 2 * a * b * s1 + b * b * n

    def share(self, weight: int) -> Fraction:
        """``weight`` stop combinations as a probability per spin."""
        return Fraction(weight, self.cycle)


def build_stage(model: SlotModel, reels: ReelSet, *, with_progressive: bool, multiplier: int = 1) -> Stage:
    """The single-payline figures of one stage (the joint ones come later)."""
    automaton = build_line_automaton(model, with_progressive=with_progressive)
    weights, pay_weight = single_line(automaton, reels, len(model.symbols), model.paylines)
    return Stage(
        reels=reels,
        automaton=automaton,
        final_weights=weights,
        line_pay_weight=pay_weight,
        class_line_weights=class_weights(automaton, weights),
        class_pay_weights=class_weights(automaton, weights, paid=True),
        multiplier=multiplier,
    )


def single_line(automaton: LineAutomaton, reels: ReelSet, nsym: int, paylines) -> tuple[dict[int, int], int]:
    """Weights of each final state over the cycle, summed over ``paylines``, and the total line pay weight.

    Row ``h`` of reel ``r`` shows symbol x at ``counts[r][h][x]`` of the
    stops, independently across reels, so a payline's symbols are a product
    over reels.  On a cyclic strip every row has the same counts, so the
    rows of such a reel do not matter: lines are grouped by the rows they
    read on the reels whose rows differ (all lines are one group when no
    reel is weighted).
    """
    counts = reels.row_counts(nsym)
    uniform = [all(c == rows[0] for c in rows) for rows in counts]
    groups: dict[tuple[int, ...], int] = {}
    for line in paylines:
        key = tuple(0 if uniform[r] else h for r, h in enumerate(line))
        groups[key] = groups.get(key, 0) + 1
    delta = automaton.delta.tolist()
    total: dict[int, int] = {}
    for key, lines in groups.items():
        dist = {0: 1}
        for r, h in enumerate(key):
            nxt: dict[int, int] = {}
            for state, w in dist.items():
                row = delta[state]
                for x, c in enumerate(counts[r][h]):
                    if c:
                        s2 = row[x]
                        nxt[s2] = nxt.get(s2, 0) + w * c
            dist = nxt
        for state, w in dist.items():
            total[state] = total.get(state, 0) + lines * w
    pay_weight = sum(w * int(automaton.pay[s]) for s, w in total.items())
    return total, pay_weight


def class_weights(automaton: LineAutomaton, dist: dict[int, int], *, paid: bool = False) -> list[int]:
    """Per line class: the weight of the final states that pay it (``paid``: times their pay)."""
    out = [0] * len(automaton.classes)
    for s, w in dist.items():
        c = int(automaton.cls[s])
        if c >= 0:
            out[c] += w * int(automaton.pay[s]) if paid else w
    return out
