"""Cascades (tumbles): winning symbols removed, the window refilled, solved exactly.

This module gives a play's figures (:func:`solve`); each step has its own
module: what a window pays and removes (:mod:`harness.slot.cascade_window`),
the states the refills reach (:mod:`harness.slot.cascade_walk`), the chain's
solves (:mod:`harness.slot.cascade_stage`) and one free spin's moments
(:mod:`harness.slot.cascade_free`).

Rules (``docs/slot_model.md``, "Cascades"): the paid spin's window is paid
as usual (every payline or way).  If it pays, every cell on a paying line's
winning run (the first ``n`` cells of a line paid ``n x S``, wilds too) is
removed; on each reel the symbols left fall to the bottom, and each empty
cell at the top is refilled with an independent draw from the reel's
*refill strip* (stop ``p`` of ``L`` with probability ``1/L``, so a symbol
with probability its share of the strip).  The new window is paid again,
and so on until a window pays nothing.  The ``k``-th window of a play
(``k = 0``: the paid spin's) is paid ``ladder[k]`` times its line pays; the
ladder's last rung applies to every later window.

Reel heights per spin (``docs/slot_model.md``, "Cascades with reel heights"):
each reel draws its height on the paid spin (:mod:`harness.slot.heights`)
and keeps it through the play, a refill filling only the cells removed; the
window pays every way of the rows it shows.

Scatters and free spins (``docs/slot_model.md``, "Cascades with scatters and
free spins"): a scatter is on no line, so it is never removed; when a
sequence ends, its last window's scatters pay (x the total bet) and award
free spins, each free spin a whole sequence from the feature strips with the
ladder restarted, everything x the free-spin multiplier, its last window
awarding the retriggers.  Every such figure is a reward of the chain (see
:class:`Stage`); the free spins form the branching process of
:mod:`harness.slot.feature`.

What is exact.  After the paid spin the play is a Markov chain whose state is
the window and the rung (:mod:`harness.slot.chain` solves its reward
equations in fractions, cycles included: a refill can bring back the window
it removed).  In a ways game the order of the symbols within a column
changes no pay and no removal, so a column is kept as its sorted contents.
Every window the chain can reach is followed; the paid spin's windows are
enumerated by column contents (the strips' stops, or virtual stops, grouped
by what the column shows; with reel heights, at every height it can draw,
weighted by the height's weight).  Up to :data:`~harness.slot.limits.MAX_CASCADE_STATES` states the
mean, the second moment, the hit frequency and each combination's
probability of being paid at least once in the play are exact.

What is bounded.  A chain of more states (up to
:data:`~harness.slot.limits.MAX_CASCADE_BOUND_STATES`, every one still followed: nothing is cut)
is too large to eliminate in fractions; its figures are then bracketed by
:mod:`harness.slot.chain_bounds` (integer fixed point rounded outward, both
sides proved), and :attr:`CascadeSolution.exact` is False.  The paid spin's
own figures (its window's pays, the hit frequency, each combination's
probability in the first window) stay exact.  With free spins either chain
(the paid spin's, one free spin's) may be bounded: every figure of
:func:`_play` is then a pair of bounds, combined by formulas increasing in
each (see there).  Beyond that limit, or for a chain that ends too slowly to
bound, the model is refused (exit 2).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from harness.slot import feature as fs
from harness.slot import progressive as pj
from harness.slot.cascade_free import free_spin_moments, no_occurrence
from harness.slot.cascade_stage import Stage, end_cells, exact_pair, last_cells, never_pays, onehot
from harness.slot.cascade_walk import Walk
from harness.slot.cascade_window import window_evaluator
from harness.slot.errors import BeyondExact, ModelError
from harness.slot.jackpot import level_cells
from harness.slot.model import SlotModel

# window_evaluator: what the window player pays a cascade window with (its home: cascade_window)
__all__ = ["CascadeClass", "CascadeFree", "CascadeSolution", "solve", "window_evaluator"]


@dataclasses.dataclass(frozen=True)
class CascadeClass:
    """One winning outcome of a cascade play: a line combination (``automaton.classes[i]``) or a scatter
    count range (``model.scatter_awards.buckets[b]``); ``*_upper``: see :attr:`CascadeSolution.exact`."""

    probability: Fraction        # paid at least once in a play (a lower bound when not exact)
    first_probability: Fraction  # line: paid in the paid spin's window; scatter: shown when its cascades end
    credits: Fraction            # expected credits per play, ladder and free spins included (lower bound)
    probability_upper: Fraction
    credits_upper: Fraction
    free_spin_probability: Fraction | None = None  # paid in one free spin (its whole cascade sequence)


@dataclasses.dataclass(frozen=True)
class CascadeFree:
    """The free spins of a cascade model, each one whole cascade sequence on the feature strips (given
    only when every chain is exact)."""

    trigger_probability: Fraction  # per play
    retrigger_per_spin: Fraction   # spins awarded by one free spin
    spins_per_play: Fraction       # retriggers included
    win_per_spin: Fraction         # credits, the multiplier included
    states: int                    # the free spins' chain


@dataclasses.dataclass(frozen=True)
class CascadeSolution:
    """The figures of a cascade play (credits; see the module docstring).

    ``exact``: every figure is exact and each ``*_upper`` equals its
    figure; otherwise ``mean``, ``second``, ``scatter_mean``, ``cascades``
    and the classes' ``probability`` and ``credits`` are rigorous lower
    bounds and the ``*_upper`` fields rigorous upper bounds (``first_mean``,
    ``hit`` and the lines' ``first_probability`` are exact either way).
    """

    mean: Fraction
    second: Fraction
    first_mean: Fraction           # line credits paid by the paid spin's window
    hit: Fraction                  # the play pays or triggers
    cascades: Fraction             # expected refills per play (the paid spin's sequence)
    classes: tuple[CascadeClass, ...]
    states: int                    # windows x rungs the chain reached
    cycle: int
    exact: bool = True
    mean_upper: Fraction | None = None    # None when exact (then equal to mean), likewise below
    second_upper: Fraction | None = None
    cascades_upper: Fraction | None = None
    scatter_mean: Fraction = Fraction(0)  # the paid spin's scatter pays (its last window's count)
    scatter_upper: Fraction = Fraction(0)
    feature_mean: Fraction = Fraction(0)  # everything the free spins win
    feature_upper: Fraction = Fraction(0)
    free_states: int = 0  # the free spins' chain (0 without free spins)
    buckets: tuple[CascadeClass, ...] = ()  # per model.scatter_awards.buckets
    free: CascadeFree | None = None
    # P(the paid spin's last window starts the wheel or pick bonus): (lower, upper), equal when exact
    bonus_started: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))
    jackpots: tuple[pj.ProgressiveSummary, ...] = ()  # per jackpot level (scatter levels only), model order
    jackpot_mean: Fraction = Fraction(0)  # the meters paid, credits per play (in ``mean``)

    @property
    def rtp_gap(self) -> Fraction:
        """Width of the RTP interval, in credits per play (0 when exact)."""
        return Fraction(0) if self.exact else self.mean_upper - self.mean

def solve(model: SlotModel, bonus: dict[int, tuple[Fraction, Fraction]] | None = None) -> CascadeSolution:
    """The figures of ``model``'s cascade play: exact, or rigorously bounded (see the module docstring).

    ``bonus``: per scatter cell that starts the wheel or pick bonus, ``(E[B], E[B^2])`` (credits) of what
    the bonus wins; the paid spin's last window starts it (``docs/slot_model.md``, "Cascades with a bonus").
    Jackpot levels (scatter levels) are won by the same last window's count ("Cascades with jackpot
    levels"); their meters need the exact hit probabilities, so beside a bounded chain they raise
    :class:`~harness.slot.errors.BeyondExact`.

    Raises
    ------
    ModelError
        If the paid spin shows more than :data:`~harness.slot.limits.MAX_START_WINDOWS` different
        windows, the chain reaches more than :data:`~harness.slot.limits.MAX_CASCADE_BOUND_STATES`
        states or :data:`~harness.slot.limits.MAX_TRANSITIONS` refill outcomes, a cascade can go
        on forever with probability 1 from some window, (beyond
        :data:`~harness.slot.limits.MAX_CASCADE_STATES` states) the chain ends too slowly to
        bound, or the free spins' retriggers make their expected number
        infinite (or, bounded, may do so).
    """
    free = None
    if model.free_spins is not None:
        free = Stage(Walk(model, model.feature_strips, model.feature_weights, model.free_spins.multiplier),
                      model.scatter_awards.retrigger)
    base = Stage(Walk(model, model.base_strips, model.base_weights, 1), model.scatter_awards.trigger)
    return _play(model, base, free, bonus or {})


def _play(model: SlotModel, base: Stage, free: Stage | None,
          bonus: dict[int, tuple[Fraction, Fraction]]) -> CascadeSolution:
    """Every figure of a play: the paid spin's cascade sequence, then the free spins and the bonus its last
    window starts (given that window the two are independent of each other and of the sequence).

    Every figure is a pair ``(lower, upper)`` until the end (equal when both chains are exact): each is
    a sum or product of non-negative quantities increasing in the chains' rewards, so the lower bounds
    combined give a lower bound and the upper ones an upper bound.
    """
    awards, tb = model.scatter_awards, model.total_bet
    code, width = awards.code, base.width
    bw = base.walk
    zero_cells = exact_pair([Fraction(0)] * width)
    h = exact_pair(base.h)
    trees = None
    f1 = f2 = zero_cells
    if free is not None:
        fs_moments = free_spin_moments(model, free)
        trees = tuple(fs.tree_moments(m) for m in fs_moments)
        f1, f2 = (tuple([fs.award_moments(int(n), t)[i] for n in base.awards] for t in trees) for i in (0, 1))
    if bonus:  # F + B given the last cell: means add, E[(F + B)^2] = E[F^2] + 2 E[F] E[B] + E[B^2]
        b1, b2 = ([bonus.get(k, (Fraction(0), Fraction(0)))[i] for k in range(width)] for i in (0, 1))
        f1, f2 = (tuple([a + b for a, b in zip(f, b1)] for f in f1),
                  tuple([a2 + 2 * a1 * b + c for a1, a2, b, c in zip(g1, g2, b1, b2)] for g1, g2 in zip(f1, f2)))

    # every first-order expectation in one solve: the parts, refills, each class's credits, where it ends
    credits, n_classes = bw.credits, bw.n_classes
    reached = end_cells(bw)
    ends = [exact_pair(onehot(width, {k})) for k in reached]
    solved = base.expect([(credits, zero_cells), (base.zero, h), (base.zero, f1),
                          ([Fraction(1)] * len(bw.keys), zero_cells), (credits, h)]
                         + [(bw.class_credits[c], zero_cells) for c in range(n_classes)]
                         + [(base.zero, e) for e in ends])
    lines_x, scat_x, feat_x, count_x, alpha = solved[:5]
    class_x = solved[5:5 + n_classes]
    last = {k: base.over(x, e) for k, x, e in zip(reached, solved[5 + n_classes:], ends)}
    ends_from = dict(zip(reached, solved[5 + n_classes:]))  # per cell: P(the sequence ends on it | state)

    def p_last(cells) -> tuple[Fraction, Fraction]:
        """P(the paid spin's sequence ends on one of ``cells``), bounds."""
        return tuple(sum((last[k][i] for k in reached if k in cells), Fraction(0)) for i in (0, 1))

    lines_mean, scatter_mean = base.over(lines_x, zero_cells), base.over(scat_x, h)
    feature_mean, cascades = base.over(feat_x, f1), base.over(count_x, zero_cells)
    meters, j1, j2 = _jackpot_meters(model, base, free, p_last)
    jackpot_mean = sum((m.hit_probability * m.mean_meter for m in meters), Fraction(0))
    if meters:  # F + J given the last cell (one meter per play): E[(F + J)^2] = E[F^2] + 2 E[F] E[J] + E[J^2]
        f2 = tuple([a2 + 2 * a1 * b + c for a1, a2, b, c in zip(g1, g2, j1, j2)] for g1, g2 in zip(f1, f2))
        f1 = tuple([a + b for a, b in zip(f, j1)] for f in f1)
        feat_x = tuple([x + sum((j1[k] * ends_from[k][i][s] for k in ends_from if j1[k]), Fraction(0))
                        for s, x in enumerate(feat_x[i])] for i in (0, 1))
    hx = tuple([x * x for x in f] for f in h)
    second = list(base.over(base.square(credits, h, alpha), hx))
    if free is not None or bonus or meters:  # X + F: given the last cell, F is independent of X (fresh spins)
        cross = base.over(base.product(credits, h, f1, feat_x), tuple([a * b for a, b in zip(x, y)]
                                                                    for x, y in zip(h, f1)))
        f2_mean = base.over(base.expect([(base.zero, f2)])[0], f2)
        second = [second[i] + 2 * cross[i] + f2_mean[i] for i in (0, 1)]
    mean = [lines_mean[i] + scatter_mean[i] + feature_mean[i] + jackpot_mean for i in (0, 1)]
    start_hits = sum(n for k, n in bw.start_term.items()
                     if awards.pay[k] or awards.trigger[k] or k in bonus or j1[k])
    hit = Fraction(sum(bw.start.values()) + start_hits, bw.cycle)

    trigger_values = sorted({int(n) for n in base.awards if n})
    spins_per_play = (Fraction(0), Fraction(0))
    if free is not None:
        spins_per_play = tuple(sum((n * p_last({k for k in reached if base.awards[k] == n})[i]
                                    for n in trigger_values), Fraction(0)) * trees[i].spins for i in (0, 1))

    classes = []
    free_class = (free.expect([(free.walk.class_credits[c], exact_pair([Fraction(0)] * width))
                               for c in range(free.walk.n_classes)]) if free is not None else None)
    for c in range(bw.n_classes):
        paid = [bool(bw.pays[c][s]) for s in range(len(bw.keys))]
        lo, hi = base.over(base.solver.cut([Fraction(int(p)) for p in paid], paid, Fraction(1)), zero_cells)
        credits_c = list(base.over(class_x[c], zero_cells))
        free_p = None
        if free is not None:
            # not paid in the paid spin's sequence, which awards n free spins: then paid in one of them or not
            missed = [never_pays(base, paid, {k for k in range(width) if base.awards[k] == n}) for n in trigger_values]
            fw = free.walk
            f_paid = [bool(fw.pays[c][s]) for s in range(len(fw.keys))]
            without = {j: never_pays(free, f_paid, {k for k in range(width) if free.awards[k] == j})
                       for j in sorted(set(int(n) for n in free.awards))}  # P(a free spin never pays c, awards j)
            z_lo, z_hi = no_occurrence(without)
            lo += sum((a[0] * (1 - z_hi ** n) for a, n in zip(missed, trigger_values)), Fraction(0))
            hi += sum((a[1] * (1 - z_lo ** n) for a, n in zip(missed, trigger_values)), Fraction(0))
            free_p = max(Fraction(0), 1 - sum((w[1] for w in without.values()), Fraction(0)))  # lower bound
            per_spin = free.over(free_class[c], exact_pair([Fraction(0)] * width))
            credits_c = [credits_c[i] + spins_per_play[i] * per_spin[i] for i in (0, 1)]
        classes.append(CascadeClass(probability=lo, first_probability=Fraction(bw.first_class.get(c, 0), bw.cycle),
                                    credits=credits_c[0], probability_upper=min(hi, Fraction(1)),
                                    credits_upper=credits_c[1], free_spin_probability=free_p))

    buckets = []
    free_last = last_cells(free) if free is not None else {}
    for i, lo_k, hi_k in awards.buckets:
        pay, spins, respins = awards.awards(i, lo_k)
        shows = {k for k in range(width) if k < code.cells and lo_k <= code.count(k, i) <= hi_k}
        in_base = shows if (pay or spins) else set()
        p_lo, p_hi = p_last(in_base)
        first = p_lo
        credits_b = [pay * tb * p_lo, pay * tb * p_hi]
        free_p = None
        if free is not None:
            in_free = shows if (pay or respins) else set()
            without: dict[int, tuple[Fraction, Fraction]] = {}
            for k, pk in free_last.items():
                if k not in in_free:
                    j = int(free.awards[k])
                    got = without.get(j, (Fraction(0), Fraction(0)))
                    without[j] = (got[0] + pk[0], got[1] + pk[1])
            z_lo, z_hi = no_occurrence(without)
            for n in trigger_values:
                a = p_last({k for k in reached if base.awards[k] == n and k not in in_base})
                p_lo += a[0] * (1 - z_hi ** n)
                p_hi += a[1] * (1 - z_lo ** n)
            free_p = sum((pk[0] for k, pk in free_last.items() if k in in_free), Fraction(0))
            f_shows = [sum((pk[i] for k, pk in free_last.items() if k in shows), Fraction(0)) for i in (0, 1)]
            credits_b = [credits_b[i] + spins_per_play[i] * pay * tb * free.walk.times * f_shows[i] for i in (0, 1)]
        buckets.append(CascadeClass(probability=p_lo, first_probability=first, credits=credits_b[0],
                                    probability_upper=min(p_hi, Fraction(1)), credits_upper=credits_b[1],
                                    free_spin_probability=free_p))

    exact = base.solver.exact and (free is None or free.solver.exact)
    free_figures = None
    if free is not None and exact:
        p_trigger = p_last({k for k in reached if base.awards[k]})[0]
        free_figures = CascadeFree(trigger_probability=p_trigger, retrigger_per_spin=fs_moments[0].ej,
                                   spins_per_play=spins_per_play[0], win_per_spin=fs_moments[0].ew,
                                   states=len(free.walk.keys))
    return CascadeSolution(
        mean=mean[0], second=second[0], first_mean=bw.first_mean, hit=hit, cascades=cascades[0],
        classes=tuple(classes), states=len(bw.keys), cycle=bw.cycle, exact=exact,
        mean_upper=None if exact else mean[1], second_upper=None if exact else second[1],
        cascades_upper=None if exact else cascades[1], scatter_mean=scatter_mean[0], scatter_upper=scatter_mean[1],
        feature_mean=feature_mean[0], feature_upper=feature_mean[1], buckets=tuple(buckets), free=free_figures,
        free_states=0 if free is None else len(free.walk.keys), bonus_started=p_last(set(bonus)),
        jackpots=meters, jackpot_mean=jackpot_mean)


def _jackpot_meters(model: SlotModel, base: Stage, free: Stage | None, p_last):
    """The jackpot levels' meters, won by the paid spin's last window, and per scatter cell the moments
    ``(E[M], E[M^2])`` of the meter it wins (0 for none): ``((summary, ...), [E[M]], [E[M^2]])``.

    A meter's moments are those of the geometric law of its hit probability (harness.slot.progressive),
    so they need that probability exactly: beside a chain that is only bounded, no figure is given.
    """
    width = base.width
    j1, j2 = [Fraction(0)] * width, [Fraction(0)] * width
    if not model.jackpots:
        return (), j1, j2
    if not (base.solver.exact and (free is None or free.solver.exact)):
        raise BeyondExact("jackpot", "jackpot levels beside a cascade chain beyond the exact limit: a meter's "
                          "moments need its exact hit probability, and the chain gives only bounds "
                          "(docs/slot_model.md, Cascades with jackpot levels)", model.source)
    meters = []
    for n, (level, cells) in enumerate(zip(model.jackpots, level_cells(model)), start=1):
        p = p_last(set(cells))[0]
        if not p:
            raise ModelError(f"jackpot, level {n}", f"{level.count} x {model.symbol_names[level.symbol]} can "
                             "never show in the last window of the paid spin's cascades (below any higher "
                             f"level's count), so {level.name} can never be won", model.source)
        meter = pj.summarise(level, p, model.total_bet)
        for k in cells:
            j1[k], j2[k] = meter.mean_meter, meter.meter_second_moment
        meters.append(meter)
    return tuple(meters), j1, j2
