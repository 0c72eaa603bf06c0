"""Exact analysis of a slot model: RTP and its parts, hit frequency,
variance, and the probability of every winning outcome.

What each figure is (all exact fractions unless stated):

* A *play* is one paid spin at the model's bet (bet per line × paylines)
  together with the free spins it triggers.  Figures "per play" are
  expectations or probabilities over one play.
* **RTP** = expected credits returned per play ÷ total bet, in four parts:
  ``lines`` (base game line wins), ``scatters`` (base game scatter wins),
  ``feature`` (everything won in free spins), ``progressive`` (the jackpot:
  see :mod:`harness.slot.progressive`).
* **Hit frequency** = probability that a play pays anything, triggers free
  spins or hits the progressive.
* **Variance / standard deviation per play** of the credits returned by a
  play (free spins and progressive included; the SD is the square root of
  the exact variance, shown as a decimal).
* **Winning outcome classes**: every line combination with a listed pay
  (``3 x A``), every scatter award (counts sharing the same award are one
  class: ``5+ x SCAT`` when 5 is the largest listed count), and the
  progressive.  A class's ``probability`` is the probability that it is
  paid at least once in a play: on at least one payline of the paid spin or
  of any free spin the play triggers.  Also given: the probability per paid
  spin (base game only), per payline of the base game, and per free spin.

Line figures never enumerate the full cycle: per-payline figures are
products over reels of symbol counts (every row of a cyclic strip shows each
symbol as often as the strip holds it); joint figures (total line win of a
spin, a class on *at least one* line) come from the exact dynamic programme
of :mod:`harness.slot.joint`; scatter counts from convolution over reels; free
spins from :mod:`harness.slot.feature`.
"""
from __future__ import annotations

import dataclasses
import math
import threading
import time
from fractions import Fraction
from typing import Callable

from harness.slot import bonus as bn
from harness.slot import both_ways as bw
from harness.slot import cap as cp
from harness.slot import cap_free as cf
from harness.slot import cascade as cs
from harness.slot import cascade_stage as cst
from harness.slot import feature as fs
from harness.slot import height_reels, heights as ht
from harness.slot import hold_spin as hs
from harness.slot import jackpot as jp
from harness.slot import progressive as pj
from harness.slot import sticky as st
from harness.slot import ways
from harness.slot.errors import ModelError
from harness.slot.joint import joint_moments
from harness.slot.limits import check_cost
from harness.slot.lines import line_classes as line_combinations
from harness.slot.model import SlotModel
from harness.slot.outcomes import (OutcomeClass, Play, jackpot_classes, mystery_classes, outcome_classes,
                                   scatter_class, started_bonus_classes)
from harness.slot.reelset import ReelSet, base_reelset, feature_reelset
from harness.slot.stage import Stage, build_stage

PARTS = ("lines", "scatters", "feature", "progressive")
__all__ = ["PARTS", "Analysis", "BetLevel", "FeatureSummary", "OutcomeClass", "analyse"]


@dataclasses.dataclass(frozen=True)
class FeatureSummary:
    trigger_probability: Fraction      # per play
    retrigger_per_spin: Fraction       # m: expected spins awarded by one free spin
    spins_per_feature: Fraction        # expected free spins per triggered feature, retriggers included
    win_per_feature: Fraction          # expected credits per triggered feature
    rtp_per_free_spin: Fraction        # expected win of one free spin ÷ total bet


@dataclasses.dataclass(frozen=True)
class BetLevel:
    """One bet the machine offers: ``level`` x the model's bet per line (per way)."""

    level: int
    total_bet: int
    rtp: Fraction  # a lower bound when the analysis is bounded
    rtp_upper: Fraction | None = None  # the upper bound when bounded (None: exact)


@dataclasses.dataclass(frozen=True)
class Analysis:
    """The exact figures of one model (see module docstring)."""

    model: SlotModel
    cycle: int
    rtp: Fraction
    parts: dict[str, Fraction]
    hit_frequency: Fraction
    variance: Fraction          # credits^2 per play
    classes: tuple[OutcomeClass, ...]
    rarest: OutcomeClass
    feature: FeatureSummary | None
    progressive: pj.ProgressiveSummary | None
    engine: str
    seconds: float
    bet_levels: tuple[BetLevel, ...] = ()
    mystery: tuple[pj.ProgressiveSummary, ...] = ()  # per mystery level, in the model's order
    jackpots: tuple[pj.ProgressiveSummary, ...] = ()  # per jackpot level (harness.slot.jackpot), in the model's order
    cap: cp.CappedMoments | None = None  # the award cap's figures (parts["cap"] is its RTP effect); lower bounds
    cap_upper: cp.CappedMoments | None = None  # ... their upper bounds when bounded (None: exact)
    cascade: cs.CascadeSolution | None = None  # a cascade model's chain (parts["cascade"]: wins after the first)
    sticky: st.StickySession | None = None  # sticky wilds: the free-spin session's chain
    # A bounded analysis (a cascade chain beyond the exact limit, an award cap over free spins whose walk is
    # stopped, harness.slot.cap_free): ``rtp``, ``parts`` and ``variance``
    # are then rigorous lower bounds, these their upper bounds, and ``bounded`` says why (None: exact).
    rtp_upper: Fraction | None = None
    parts_upper: dict[str, Fraction] | None = None
    variance_upper: Fraction | None = None
    bounded: str | None = None

    @property
    def classes_bounded(self) -> bool:
        """Whether the bounding reaches the outcome classes' probabilities (a bounded cascade chain; an award
        cap's bounds leave them as they are)."""
        return self.bounded is not None and self.cascade is not None

    @property
    def sd(self) -> float:
        """Standard deviation per play, credits."""
        return math.sqrt(self.variance)

    @property
    def sd_per_bet(self) -> float:
        """Standard deviation per play in units of the total bet."""
        return math.sqrt(self.variance) / self.model.total_bet


# --- the analysis, stage by stage -----------------------------------------------


def analyse(model: SlotModel, *, engine: str = "auto",
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Exact analysis of ``model`` (see the module docstring for every figure).

    Parameters
    ----------
    engine : {"auto", "c", "python"}
        Who runs the joint enumeration (:func:`harness.slot.joint.joint_moments`).
    progress : callable, optional
        ``progress(done, total)`` as the work goes on; ``total`` is twice the
        table entries of :func:`harness.slot.limits.estimate` (the tables,
        then the joint programme of each stage), reached when the analysis ends.

    Raises
    ------
    ModelError
        If the model is too large to analyse (:func:`harness.slot.limits.check_cost`,
        before any table is built), the free spins' expected length diverges,
        or the progressive can never be won.
    """
    started = time.perf_counter()
    work = _Work(progress, 2 * check_cost(model).table_entries)
    whole = (_analyse_cascade if model.cascade is not None
             else _analyse_heights if model.heights is not None and not _staged_heights(model)
             else _analyse_both_ways if model.both_ways and model.free_spins is None else None)
    if whole is not None:  # features whose play is analysed whole, window by window
        analysis = whole(model, started)
        work.finish()
        return analysis
    # line jackpot levels ride on the joint programme's progressive flag (harness.slot.jackpot)
    stage_of = ways.build_stage if model.ways else build_stage  # a ways game's stages come summed
    base = stage_of(jp.flag_model(model), _reels(model), with_progressive=True)
    free = None
    if model.free_spins is not None:
        feature_reels = _reels(model, feature=True)
        if model.free_spins.max_spins is None:  # a capped session always ends
            _check_retriggers_converge(model, feature_reels)  # before the expensive part
        free = stage_of(model, feature_reels, with_progressive=False, multiplier=model.free_spins.multiplier)
    if not model.ways:
        try:
            _run_joint(model, base, free, engine, work.add)
        except KeyboardInterrupt:
            work.cancel()  # the stages' threads stop at their next step, and report no more progress
            raise

    tree = spin = session = None
    if free is not None:
        spin = _free_spin_moments(model, free)
        if st.sticky_symbol(model) is None:
            tree = fs.tree_moments(spin)  # m < 1 was checked above
        else:  # the spins of a session are not independent: the chain of harness.slot.sticky
            session = st.solve(model, {n for n in model.scatter_awards.trigger if n})
    progressive = _progressive_summary(model, base)
    mystery = tuple(pj.summarise(level, level.probability, model.total_bet) for level in model.mystery)
    level_stages = _line_level_stages(model, base, engine) if model.jackpots else [base]
    won = jp.groups(model, level_stages) if model.jackpots else {}
    jackpots = jp.summaries(model, won, base.cycle)
    mean_feature, mean, variance = _play_moments(model, base, _free_award(tree, session), progressive,
                                                 {i: (jackpots[i], g) for i, g in won.items()})
    pairs = jp.pair_terms(model, jackpots, won, base.cycle)
    variance += pairs
    capped = high = None  # high: the cap's upper bounds (a stopped walk over free spins, harness.slot.cap_free)
    if model.cap is not None:  # the cap replaces S + F by min(S + F, cap) (harness.slot.cap)
        capped, high = _capped_moments(model, level_stages, free)
        meters = (progressive,) if progressive else jackpots
        uncapped = mean - sum((m.hit_probability * m.mean_meter for m in meters), Fraction(0))
        if high is not None and high.high.mean > uncapped:  # C <= S + F: the exact uncapped mean bounds it too
            high = dataclasses.replace(high, high=dataclasses.replace(high.high, mean=uncapped))
        cap_part = (capped.mean - uncapped) / model.total_bet
        mean, variance = _with_meters(capped, progressive, jackpots, pairs)
        if high is not None:  # the variance's bounds: each second moment against the other end's mean
            mean_high, variance_high = _with_meters(high.high, progressive, jackpots, pairs)
            second, second_high = variance + mean * mean, variance_high + mean_high * mean_high
            variance, variance_high = max(Fraction(0), second - mean_high * mean_high), second_high - mean * mean
    q_mean, q_second = pj.mystery_moments(mystery)  # independent of the reels: the variances add
    mean, variance = mean + q_mean, variance + q_second - q_mean * q_mean
    parts = _rtp_parts(model, base, mean_feature, progressive)
    parts["progressive"] += sum((m.rtp for m in mystery + jackpots), Fraction(0))
    if capped is not None:
        parts["cap"] = cap_part
    rtp = sum(parts.values(), Fraction(0))
    if rtp != mean / model.total_bet:
        raise AssertionError("RTP parts disagree with the per-play mean")
    bounds: dict = {}
    if high is not None:
        parts_upper = dict(parts, cap=(high.high.mean - uncapped) / model.total_bet)
        rtp_upper = sum(parts_upper.values(), Fraction(0))
        if rtp_upper != (mean_high + q_mean) / model.total_bet or not rtp <= rtp_upper:
            raise AssertionError("RTP bounds disagree with the per-play mean's")
        bounds = dict(rtp_upper=rtp_upper, parts_upper=parts_upper,
                      variance_upper=variance_high + q_second - q_mean * q_mean, cap_upper=high.high,
                      bounded=_cap_bounded(high, float(rtp_upper - rtp)))

    play = Play(model=model, base=base, free=free, tree=tree, session=session,
                free_spins_per_play=(_triggered_spins_per_play(model, base) * tree.spins if tree
                                     else _session_spins_per_play(model, base, session) if session
                                     else Fraction(0)))
    hold, bonus = hold_spin_by_cell(model), bonus_by_cell(model)
    for section, feature, cells in (("hold_and_spin", model.hold_and_spin, hold), ("bonus", model.bonus, bonus)):
        if feature is not None and not any(base.scatter_counts[k] for k in cells):
            raise ModelError(f"{section}.trigger", f"{feature.trigger} x {model.symbol_names[feature.symbol]} can "
                             "never show in the window of the base game, so the feature can never start",
                             model.source)
    line_share = progressive.rtp if progressive else Fraction(0)
    classes = outcome_classes(play, _progressive_weight(base), line_share, hold=hold, bonus=bonus, mystery=mystery,
                              jackpots=jackpots)
    if not classes:
        raise ModelError("symbols", "nothing pays: no symbol has pays, no scatter award and no progressive, "
                         "so the game has no winning outcome", model.source)
    rarest = rarest_class(classes)
    if rarest is None:
        raise ModelError("symbols", "no listed award can ever be paid on these reels, so the game has "
                         "no winning outcome", model.source)
    work.finish()
    return Analysis(
        model=model,
        cycle=base.cycle,
        rtp=rtp,
        parts=parts,
        hit_frequency=1 - (1 - _hit_frequency(model, base)) * (1 - sum(m.probability for m in model.mystery)),
        variance=variance,
        classes=tuple(classes),
        rarest=rarest,
        feature=_feature_summary(model, base, spin, tree, session) if spin is not None else None,
        progressive=progressive,
        engine=base.joint.engine,
        seconds=time.perf_counter() - started,
        bet_levels=_bet_levels(model, parts, (progressive, *mystery) if progressive else mystery + jackpots,
                               bounds.get("parts_upper")),
        mystery=mystery,
        jackpots=jackpots,
        cap=capped,
        sticky=session,
        **bounds,
    )


def _bet_levels(model: SlotModel, parts: dict[str, Fraction], meters: tuple[pj.ProgressiveSummary, ...],
                parts_upper: dict[str, Fraction] | None = None) -> tuple[BetLevel, ...]:
    """The RTP at every bet level offered.

    Every pay is a multiple of the bet, so the stop combinations, the
    probabilities and every part of the RTP but one are the same at every
    level; only a progressive meter's reset (the combination progressive's,
    each mystery level's) is a fixed number of credits, so its share
    ``p R0 / B`` scales as 1 / level (the contribution is a share of every
    bet, and a mystery level's probability is per play at every level).
    With bounds (``parts_upper``) the fixed part is the same unknown at every
    level, so the difference between two levels is still exact.
    """
    def fixed(p):
        return sum((v for k, v in p.items() if k != "progressive"), Fraction(0))  # lines, ..., cap, cascade

    out = []
    for level in model.bet_levels:
        bet = model.total_bet * level
        share = sum((m.contribution + m.hit_probability * m.reset / bet for m in meters), Fraction(0))
        out.append(BetLevel(level=level, total_bet=bet, rtp=fixed(parts) + share,
                            rtp_upper=None if parts_upper is None else fixed(parts_upper) + share))
    return tuple(out)


def _analyse_cascade(model: SlotModel, started: float) -> Analysis:
    """A cascade model: the whole play is the chain of :mod:`harness.slot.cascade` (exact, or bounded)."""
    bonus = bonus_by_cell(model)  # started by the paid spin's last window
    tb = model.total_bet
    sol = cs.solve(model, {k: (tb * o.mean, tb * tb * o.second) for k, o in bonus.items()})
    lines_total = sol.mean - sol.scatter_mean - sol.feature_mean - sol.jackpot_mean  # every window's line pays
    parts = {"lines": sol.first_mean / tb, "scatters": sol.scatter_mean / tb, "feature": sol.feature_mean / tb,
             "progressive": Fraction(0), "cascade": (lines_total - sol.first_mean) / tb}
    ladder = " x the cascade ladder" if max(model.cascade.ladder) > 1 else ""
    lines, buckets = ([(c.probability, c.probability_upper, c.first_probability, c.credits / tb,
                        c.free_spin_probability) for c in got] for got in (sol.classes, sol.buckets))
    classes = _window_classes(model, lines, buckets, ladder)
    if bonus:
        if not sol.bonus_started[1]:
            raise ModelError("bonus.trigger", f"{model.bonus.trigger} x {model.symbol_names[model.bonus.symbol]} "
                             "can never show in the last window of the paid spin's cascades, so the bonus can "
                             "never start", model.source)
        classes += started_bonus_classes(model, next(iter(bonus.values())), *sol.bonus_started)
    feature = None
    if sol.free is not None:
        f = sol.free
        feature = FeatureSummary(
            trigger_probability=f.trigger_probability, retrigger_per_spin=f.retrigger_per_spin,
            spins_per_feature=f.spins_per_play / f.trigger_probability if f.trigger_probability else Fraction(0),
            win_per_feature=sol.feature_mean / f.trigger_probability if f.trigger_probability else Fraction(0),
            rtp_per_free_spin=f.win_per_spin / tb)
    # mystery levels: independent of the reels, so their moments add (harness.slot.progressive)
    mystery = tuple(pj.summarise(level, level.probability, tb) for level in model.mystery)
    q_mean, q_second = pj.mystery_moments(mystery)
    q_rtp = sum((m.rtp for m in mystery), Fraction(0))
    parts["progressive"] += q_rtp + sum((m.rtp for m in sol.jackpots), Fraction(0))
    classes += mystery_classes(model, mystery) + jackpot_classes(model, sol.jackpots)
    hit = 1 - (1 - sol.hit) * (1 - sum(level.probability for level in model.mystery))
    mean, second = sol.mean + q_mean, sol.second + 2 * sol.mean * q_mean + q_second
    if sol.exact:
        return _whole_play_analysis(model, started, parts, mean, second, hit, sol.cycle, classes,
                                    "python (exact cascade chain)", cascade=sol, feature=feature,
                                    meters=mystery + sol.jackpots, mystery=mystery, jackpots=sol.jackpots)
    lines_upper = sol.mean_upper - sol.scatter_upper - sol.feature_upper
    upper = dict(parts, scatters=sol.scatter_upper / tb, feature=sol.feature_upper / tb,
                 cascade=(lines_upper - sol.first_mean) / tb)
    chains = (f"the cascade chain has {sol.states:,} states" if model.free_spins is None else
              f"the cascade chains have {sol.states:,} (paid spin) and {sol.free_states:,} (one free spin) "
              "states, the larger")
    bounded = (f"{chains}, beyond the {cst.MAX_CASCADE_STATES:,} solved exactly: "
               f"RTP, variance and the cascades' share of each outcome are rigorous bounds "
               f"(RTP gap {float(sol.rtp_gap / tb):.3g})")
    return _whole_play_analysis(model, started, parts, mean, second, hit, sol.cycle, classes,
                                "python (cascade chain, rigorous bounds)", cascade=sol, meters=mystery,
                                mystery=mystery,
                                upper=(upper, sol.mean_upper + q_mean,
                                       sol.second_upper + 2 * sol.mean_upper * q_mean + q_second, bounded))


def _staged_heights(model: SlotModel) -> bool:
    """Reel heights analysed stage by stage (:func:`_reels`' virtual stops), as features beside them need:
    free spins, the award cap, the combination progressive, mystery levels or a bonus."""
    return any(x for x in (model.free_spins, model.cap, model.progressive, model.mystery, model.bonus, model.jackpots))


def _analyse_both_ways(model: SlotModel, started: float) -> Analysis:
    """A both-ways model: paid both ways (:mod:`harness.slot.both_ways`), a ways game summed over the reels."""
    f = bw.solve(model)
    return _analyse_windows(model, started, f, ", both ways", _SUMMED.format(f.windows) if model.ways else None)


def _analyse_heights(model: SlotModel, started: float) -> Analysis:
    """Reel heights per spin, either way (:mod:`harness.slot.heights`), summed over the reels."""
    f = ht.solve(model)
    return _analyse_windows(model, started, f, ", both ways" if model.both_ways else "", _SUMMED.format(f.windows))


_SUMMED = "python (ways summed over the reels; {:,} distinct windows never listed)"


def _analyse_windows(model: SlotModel, started: float, f, note: str, engine: str | None = None) -> Analysis:
    """The analysis of a paid spin read window by window (:class:`harness.slot.window.WindowFigures`)."""
    tb, n = model.total_bet, f.cycle
    parts = {"lines": Fraction(f.line_credits_total, n * tb), "scatters": Fraction(f.scatter_credits_total, n * tb),
             "feature": Fraction(0), "progressive": Fraction(0)}
    lines = [(Fraction(w, n),) * 3 + (Fraction(c, n * tb), None) for w, c in zip(f.line_paid, f.line_credits)]
    awards = model.scatter_awards
    buckets = [(Fraction(w, n),) * 3 + (Fraction(w * awards.awards(i, lo)[0], n), None)
               for w, (i, lo, _) in zip(f.bucket_paid, awards.buckets)]
    return _whole_play_analysis(model, started, parts, Fraction(f.win_sum, n), Fraction(f.win_sq, n),
                                1 - Fraction(f.no_win, n), n, _window_classes(model, lines, buckets, note),
                                engine or f"python (every distinct window, {f.windows:,})")


def _window_classes(model: SlotModel, lines, buckets, note: str) -> list[OutcomeClass]:
    """Classes of a play analysed whole: ``lines[c] = (per play, its upper bound, paid spin, RTP share,
    per free spin)`` per line combination, ``buckets[b]`` the same per scatter count range of
    ``model.scatter_awards.buckets`` (one that awards something)."""
    names, word = model.symbol_names, "way" if model.ways else "line"
    times = " x wild multipliers" if model.top_multiplier > 1 else ""
    out = [OutcomeClass(name=f"{lc.count} x {names[lc.symbol]}", kind="line",
                        award=f"{lc.pay} x {word} bet{times}{note}", probability=p, probability_upper=p_hi,
                        base_probability=first, per_line_probability=None, free_spin_probability=free, rtp=rtp)
           for lc, (p, p_hi, first, rtp, free) in zip(line_combinations(model), lines)]
    awards = model.scatter_awards
    for (i, lo, hi), (p, p_hi, first, rtp, free) in zip(awards.buckets, buckets):
        if any(awards.awards(i, lo)):
            out.append(scatter_class(model, i, lo, hi, p, rtp, upper=p_hi, base=first, free=free))
    return out


def _whole_play_analysis(model: SlotModel, started: float, parts: dict[str, Fraction], mean: Fraction,
                         second: Fraction, hit: Fraction, cycle: int, classes: list[OutcomeClass], engine: str,
                         upper=None, feature: FeatureSummary | None = None, meters: tuple = (),
                         **extra) -> Analysis:
    """The :class:`Analysis` of a play whose figures came whole from one module (cascades, both ways).

    ``upper``: for a bounded play, ``(parts, mean, second, why)`` upper bounds (the given figures are then
    lower bounds) and the reason the figures are bounded.
    """
    if not classes:
        raise ModelError("symbols", "nothing pays: no symbol has pays, so the game has no winning outcome",
                         model.source)
    rarest = rarest_class(classes)
    if rarest is None:
        raise ModelError("symbols", "no listed award can ever be paid on these reels, so the game has "
                         "no winning outcome", model.source)
    rtp = sum(parts.values(), Fraction(0))
    if rtp != mean / model.total_bet:
        raise AssertionError("RTP parts disagree with the per-play mean")
    if upper is None:
        if sum((c.rtp for c in classes), Fraction(0)) != rtp:
            raise AssertionError("RTP parts disagree with the classes' shares")
        return Analysis(model=model, cycle=cycle, rtp=rtp, parts=parts, hit_frequency=hit,
                        variance=second - mean * mean, classes=tuple(classes), rarest=rarest, feature=feature,
                        progressive=None, engine=engine, seconds=time.perf_counter() - started,
                        bet_levels=_bet_levels(model, parts, meters), **extra)
    parts_upper, mean_upper, second_upper, why = upper
    rtp_upper = sum(parts_upper.values(), Fraction(0))
    if rtp_upper != mean_upper / model.total_bet or not rtp <= rtp_upper:
        raise AssertionError("RTP bounds disagree with the per-play mean's")
    return Analysis(model=model, cycle=cycle, rtp=rtp, parts=parts, hit_frequency=hit,
                    variance=max(Fraction(0), second - mean_upper * mean_upper), classes=tuple(classes),
                    rarest=rarest, feature=feature, progressive=None, engine=engine,
                    seconds=time.perf_counter() - started, bet_levels=_bet_levels(model, parts, meters, parts_upper),
                    rtp_upper=rtp_upper, parts_upper=parts_upper, variance_upper=second_upper - mean * mean,
                    bounded=why, **extra)


def rarest_class(classes) -> OutcomeClass | None:
    """The least likely winning outcome among the classes that can occur (None if none can).

    A listed award that is never paid (probability 0, e.g. a wild
    combination that always ties with, and loses to, another symbol's) is
    not a winning outcome: the rarest-outcome rules are about outcomes that
    happen.  It stays in the table with probability 0, where the
    every-award rule (``gli11``) flags it.
    """
    possible = [c for c in classes if c.probability_upper > 0]
    return min(possible, key=lambda c: c.probability) if possible else None


def _reels(model: SlotModel, *, feature: bool = False) -> ReelSet:
    """A stage's reels; with reel heights per spin, every height's columns as virtual stops
    (:func:`harness.slot.height_reels.reelset`)."""
    if model.heights is not None:
        return height_reels.reelset(model, feature=feature)
    return feature_reelset(model) if feature else base_reelset(model)


def _check_retriggers_converge(model: SlotModel, feature_reels: ReelSet) -> None:
    """Refuse free spins whose expected number is infinite (``m >= 1``, see :mod:`harness.slot.feature`)."""
    retrigger = model.scatter_awards.retrigger
    m = Fraction(sum(w * retrigger[k] for k, w in enumerate(feature_reels.scatter_counts)), feature_reels.cycle)
    if m >= 1:
        raise ModelError(
            "free_spins.retrigger",
            f"each free spin awards on average {m} = {float(m):.6g} further free spins (>= 1), "
            "so the expected number of free spins is infinite; lower the retrigger awards or "
            "the scatters on the feature strips",
            model.source,
        )


class _Cancelled(Exception):
    """Raised in a stage's thread once the analysis was interrupted (it ends the thread)."""


class _Work:
    """Work done, for ``progress(done, total)``; both stages' threads add to it.

    After :meth:`cancel` (Ctrl-C in the main thread) a thread that reports
    work raises :class:`_Cancelled` instead, so it stops at its next step.
    """

    def __init__(self, progress: Callable[[int, int], None] | None, total: int):
        self.progress = progress
        self.total = total
        self.done = 0
        self.cancelled = False
        self._lock = threading.Lock()

    def add(self, n: int) -> None:
        if self.cancelled:
            raise _Cancelled
        if self.progress is None:
            return
        with self._lock:
            self.done = min(self.done + n, self.total)
            self.progress(self.done, self.total)

    def cancel(self) -> None:
        self.cancelled = True

    def finish(self) -> None:
        if self.progress is not None and self.done < self.total:
            self.add(self.total - self.done)


def _run_joint(model: SlotModel, base: Stage, free: Stage | None, engine: str,
               progress: Callable[[int], None]) -> None:
    """Joint figures of the base game and of a free spin, each stage in its own
    thread (the C kernel releases the GIL, so on two cores the stages overlap).

    The threads are daemons and the main thread only waits for them, so Ctrl-C
    or SIGTERM ends the analysis at once: :func:`analyse` cancels the work and
    no thread keeps the process alive.
    """
    stages = [base] if free is None else [base, free]
    outcomes: list = [None] * len(stages)

    def run(i: int, stage: Stage) -> None:
        try:
            outcomes[i] = joint_moments(stage.reels, stage.automaton, model.paylines, engine=engine,
                                        progress=progress)
        except BaseException as exc:  # handed to the main thread, raised there
            outcomes[i] = exc

    threads = [threading.Thread(target=run, args=(i, stage), name=f"slot-stage-{i}", daemon=True)
               for i, stage in enumerate(stages)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for stage, result in zip(stages, outcomes):
        if isinstance(result, BaseException):
            raise result
        stage.joint = result
    base.check_joint("the line return")
    if free is not None:
        free.check_joint("the free spins")


def _line_level_stages(model: SlotModel, base: Stage, engine: str) -> list[Stage]:
    """The base stage, then one per higher line jackpot level (by count), each flagged with that level's
    run and its joint programme run (:func:`harness.slot.jackpot.groups`)."""
    stages = [base]
    for level in jp.line_levels(model)[1:]:
        flagged = jp.flag_model(model, level)
        if model.ways:
            stages.append(ways.build_stage(flagged, base.reels, with_progressive=True))
            continue
        stage = build_stage(flagged, base.reels, with_progressive=True)
        stage.joint = joint_moments(stage.reels, stage.automaton, model.paylines, engine=engine)
        stages.append(stage)
    return stages


def _free_spin_moments(model: SlotModel, free: Stage) -> fs.SpinMoments:
    """Moments of one free spin's win ``W`` (credits) and the spins ``J`` it awards."""
    retrigger = model.scatter_awards.retrigger
    win = win_sq = win_times_spins = spins = spin_pairs = 0
    for k in range(model.scatter_awards.width):
        awarded = retrigger[k]
        for p in (0, 1):
            n, s1, s2 = free.cell_sums(model, k, p)
            win += s1
            win_sq += s2
            win_times_spins += awarded * s1
            spins += awarded * n
            spin_pairs += awarded * (awarded - 1) * n
    return fs.SpinMoments(
        ew=free.share(win),
        ew2=free.share(win_sq),
        ewj=free.share(win_times_spins),
        ej=free.share(spins),
        ejj1=free.share(spin_pairs),
    )


def _triggered_spins_per_play(model: SlotModel, base: Stage) -> Fraction:
    """Expected free spins awarded by the paid spin (retriggers not included)."""
    trigger = model.scatter_awards.trigger
    return base.share(sum(w * trigger[k] for k, w in enumerate(base.scatter_counts)))


def _feature_summary(model: SlotModel, base: Stage, spin: fs.SpinMoments, tree: fs.TreeMoments | None,
                     session: st.StickySession | None) -> FeatureSummary:
    """The free spins in figures; with sticky wilds a free spin's mean win is the session's over its spins."""
    trigger = model.scatter_awards.trigger
    p_trigger = base.share(sum(w for k, w in enumerate(base.scatter_counts) if trigger[k]))
    spins_per_play = _triggered_spins_per_play(model, base)
    if tree is not None:
        spins, win, per_spin = spins_per_play * tree.spins, spins_per_play * tree.ev, spin.ew
    else:
        spins = _session_spins_per_play(model, base, session)
        win = sum((w * session.mean[trigger[k]] for k, w in enumerate(base.scatter_counts) if trigger[k]),
                  Fraction(0)) / base.cycle
        per_spin = win / spins if spins else Fraction(0)
    return FeatureSummary(
        trigger_probability=p_trigger,
        # with sticky wilds: the spins retriggers awarded per spin played, over the sessions
        retrigger_per_spin=spin.ej if tree is not None else (1 - spins_per_play / spins if spins else Fraction(0)),
        spins_per_feature=(spins / p_trigger) if p_trigger else Fraction(0),
        win_per_feature=(win / p_trigger) if p_trigger else Fraction(0),
        rtp_per_free_spin=per_spin / model.total_bet,
    )


def _session_spins_per_play(model: SlotModel, base: Stage, session: st.StickySession) -> Fraction:
    """Sticky wilds: the expected free spins played per play, retriggers (up to the cap) included."""
    trigger = model.scatter_awards.trigger
    return sum((w * session.spins[trigger[k]] for k, w in enumerate(base.scatter_counts) if trigger[k]),
               Fraction(0)) / base.cycle


def _free_award(tree: fs.TreeMoments | None, session: st.StickySession | None):
    """``award(n)``: ``(E[F], E[F^2])``, credits, of ``n`` free spins awarded (None without free spins)."""
    if tree is not None:
        return lambda n: fs.award_moments(n, tree)
    if session is not None:
        return lambda n: (session.mean[n], session.second[n])
    return None


def _progressive_weight(base: Stage) -> int:
    """Paid-spin stop combinations showing the progressive combination on some payline."""
    return sum(cell[1] for cell in base.joint.count)


def _progressive_summary(model: SlotModel, base: Stage) -> pj.ProgressiveSummary | None:
    if model.progressive is None:
        return None
    weight = _progressive_weight(base)
    if weight == 0:
        raise ModelError(
            "progressive",
            f"{model.progressive.count} x {model.progressive.symbol} can never appear on a payline "
            "of the base game, so the jackpot can never be won",
            model.source,
        )
    return pj.summarise(model.progressive, base.share(weight), model.total_bet)


def starting_cells(model: SlotModel, symbol: int, trigger: int) -> dict[int, int]:
    """The scatter cells showing ``trigger`` or more of scatter ``symbol``: cell -> that count."""
    code = model.scatter_code
    i = code.symbols.index(symbol)
    cells = ((k, code.count(k, i)) for k in range(min(code.cells, model.scatter_awards.width)))
    return {k: n for k, n in cells if n >= trigger}


def hold_spin_by_cell(model: SlotModel) -> dict[int, hs.HoldSpinOutcome]:
    """Per scatter cell that starts the hold-and-spin feature: what the feature wins (total bets)."""
    hold = model.hold_and_spin
    if hold is None:
        return {}
    positions = model.rows * model.reels
    solved: dict[int, hs.HoldSpinOutcome] = {}
    out = {}
    for k, n0 in starting_cells(model, hold.symbol, hold.trigger).items():
        if n0 not in solved:
            solved[n0] = hs.solve(positions, n0, hold.respins, hold.land, dict(hold.values), hold.grand)
        out[k] = solved[n0]
    return out


def bonus_by_cell(model: SlotModel) -> dict[int, bn.BonusOutcome]:
    """Per scatter cell that starts the wheel or pick bonus: what it wins (total bets), the same for every cell."""
    if model.bonus is None:
        return {}
    outcome = bn.solve(model.bonus)
    return {k: outcome for k in starting_cells(model, model.bonus.symbol, model.bonus.trigger)}


def _feature_by_cell(model: SlotModel, award: Callable[[int], tuple[Fraction, Fraction]] | None,
                     hold: dict[int, hs.HoldSpinOutcome],
                     bonus: dict[int, bn.BonusOutcome]) -> list[tuple[Fraction, Fraction]]:
    """Per scatter cell: ``(E[F], E[F^2])``, credits, of the features the paid spin starts
    (free spins, hold and spin, the wheel or pick bonus; (0, 0) for none).

    Given the cell the features are independent of each other, so their
    means add and ``E[(F1 + F2)^2] = E[F1^2] + 2 E[F1] E[F2] + E[F2^2]``.
    """
    trigger, b = model.scatter_awards.trigger, model.total_bet
    out = []
    for k in range(model.scatter_awards.width):
        parts = []
        if award is not None and trigger[k]:
            parts.append(award(trigger[k]))
        for by_cell in (hold, bonus):
            if k in by_cell:
                parts.append((b * by_cell[k].mean, b * b * by_cell[k].second))
        mean = second = Fraction(0)
        for m1, m2 in parts:
            second += m2 + 2 * mean * m1
            mean += m1
        out.append((mean, second))
    return out


def _play_moments(model: SlotModel, base: Stage, award: Callable[[int], tuple[Fraction, Fraction]] | None,
                  progressive: pj.ProgressiveSummary | None,
                  jackpots: dict | None = None) -> tuple[Fraction, Fraction, Fraction]:
    """``(E[F], E[X], Var X)`` per play, credits, of ``X = B + F + P + J`` (base win,
    free spins, progressive, line jackpot levels).

    Given the scatter count k, F is independent of B and of P; the meter
    paid at a hit is independent of the play's reels.  ``jackpots``: per
    jackpot level, its meter and its :func:`harness.slot.jackpot.groups`
    sums (the paid spins that win it, per cell); the cross term of two
    meters won together is :func:`harness.slot.jackpot.pair_terms`'s.
    """
    base_sum = base_sq = base_on_hits = 0  # sums over the cycle: B, B^2, B on progressive hits
    free_sum = free_sq = base_free = free_on_hits = Fraction(0)  # F, F^2, B F, F on progressive hits
    features = _feature_by_cell(model, award, hold_spin_by_cell(model), bonus_by_cell(model))
    meter_mean = meter_sq = Fraction(0)  # sums over the cycle: J, and J^2 + 2 J (B + F)
    for k in range(model.scatter_awards.width):
        free_mean, free_second = features[k]
        for meter, groups in (jackpots or {}).values():
            n, s1, _ = groups[k]
            if n:
                m1 = meter.mean_meter
                meter_mean += n * m1
                meter_sq += n * meter.meter_second_moment + 2 * m1 * (s1 + n * free_mean)
        for p in (0, 1):
            n, s1, s2 = base.cell_sums(model, k, p)
            base_sum += s1
            base_sq += s2
            if n and free_mean:
                free_sum += n * free_mean
                free_sq += n * free_second
                base_free += s1 * free_mean
                if p:
                    free_on_hits += n * free_mean
            if p:
                base_on_hits += s1
    e_b, e_b2 = base.share(base_sum), base.share(base_sq)
    e_f, e_f2, e_bf, e_f_hit = (x / base.cycle for x in (free_sum, free_sq, base_free, free_on_hits))
    e_p = e_p2 = e_bp = e_fp = Fraction(0)
    if progressive is not None:
        meter = progressive.mean_meter
        e_p = progressive.hit_probability * meter
        e_p2 = progressive.hit_probability * progressive.meter_second_moment
        e_bp = base.share(base_on_hits) * meter
        e_fp = e_f_hit * meter
    mean = e_b + e_f + e_p + meter_mean / base.cycle
    variance = e_b2 + e_f2 + e_p2 + 2 * (e_bf + e_bp + e_fp) + meter_sq / base.cycle - mean * mean
    return e_f, mean, variance


def _capped_moments(model: SlotModel, stages: list[Stage], free: Stage | None
                    ) -> tuple[cp.CappedMoments, cf.CappedBounds | None]:
    """The capped win's moments: line pays by distribution, then every feature's win distribution; with free
    spins, the capped walk of :mod:`harness.slot.cap_free` (its bounds too when they are not exact).
    ``stages``: the base stage, then one per higher line jackpot level (:func:`_line_level_stages`)."""
    tb = model.total_bet
    cap = model.cap * tb
    top = cap // model.bet_per_line + 1  # a line pay this large reaches the cap whatever else the play wins
    base = stages[0]
    table = labelled_pay_table(model, stages, top)
    features: dict[int, dict[int, Fraction]] = {}
    hold = model.hold_and_spin
    for k, outcome in hold_spin_by_cell(model).items():
        win = hs.win_distribution(outcome, model.rows * model.reels, dict(hold.values), hold.grand)
        features[k] = {tb * w: p for w, p in win.items()}
    for k, outcome in bonus_by_cell(model).items():
        features[k] = {tb * w: p for w, p in outcome.win.items()}
    scatter_pay, awards = [tb * x for x in model.scatter_awards.pay], model.scatter_awards
    if free is None:
        return cp.capped_moments(table, base.cycle, model.bet_per_line, scatter_pay, features, cap), None
    multiplier = model.free_spins.multiplier
    spin = cf.spin_outcomes(_pay_table(model, free, cap // (model.bet_per_line * multiplier) + 1),
                            model.bet_per_line, scatter_pay, awards.retrigger, multiplier, cap)
    starts = cf.play_starts(table, model.bet_per_line, scatter_pay, awards.trigger, features, cap)
    bounds = cf.capped_bounds(starts, spin, cap, tb)
    return bounds.low, None if bounds.exact else bounds


def _cap_bounded(bounds: cf.CappedBounds, gap: float) -> str:
    """Why an award cap over free spins is bounded, and how far its walk went (``Analysis.bounded``)."""
    why = (f"the capped walk reached its limit of {cf.MAX_CAP_WORK:,} steps" if bounds.at_limit
           else "a free spin can retrigger and win nothing, so a play has no longest run")
    return (f"{why}: each play's capped win is followed {bounds.depth:,} free spins deep, and the "
            f"{bounds.open_states:,} states still open then (probability {float(bounds.open_probability):.3g}) "
            f"are bounded from the exact moments of the remaining free spins' win; RTP, variance and the cap's "
            f"effect are rigorous bounds (RTP gap {gap:.3g})")


def labelled_pay_table(model: SlotModel, stages: list[Stage], top: int) -> dict[tuple[int, int], dict[int, int]]:
    """The base game's ``(cell, label) -> {min(total line pay, top): stop combinations}``: the label is the
    combination progressive's flag, or with jackpot levels the bits of the levels the paid spin wins (bit
    ``i``: level ``i`` of the model; a scatter level by the cell, the highest line level reached by the
    difference of two flagged tables, as :func:`harness.slot.jackpot.groups` does with sums)."""
    if not model.jackpots:
        return _pay_table(model, stages[0], top)
    scatter_bits: dict[int, int] = {}
    for i, cells in enumerate(jp.level_cells(model)):
        for k in cells:
            scatter_bits[k] = scatter_bits.get(k, 0) | 1 << i
    order = jp.line_levels(model)
    flagged = [_pay_table(jp.flag_model(model, level), stage, top) for level, stage in zip(order, stages)]
    if not order:  # no line level: one table, its flag unused
        flagged = [_pay_table(model, stages[0], top)]
    out: dict[tuple[int, int], dict[int, int]] = {}

    def add(k: int, line_bits: int, dist: dict[int, int]) -> None:
        row = out.setdefault((k, scatter_bits.get(k, 0) | line_bits), {})
        for pay, count in dist.items():
            if count:
                row[pay] = row.get(pay, 0) + count

    for (k, p), dist in flagged[0].items():
        if not p or not order:
            add(k, 0, dist)
    for j, level in enumerate(order):  # reaching level j's run but not the next one's
        above = flagged[j + 1] if j + 1 < len(flagged) else {}
        for (k, p), dist in flagged[j].items():
            if p:
                higher = above.get((k, 1), {})
                diff = {pay: count - higher.get(pay, 0) for pay, count in dist.items()}
                if min(diff.values(), default=0) < 0 or set(higher) - set(dist):
                    raise AssertionError("line jackpot levels' runs are not nested")
                add(k, 1 << level, diff)
    return out


def _pay_table(model: SlotModel, stage: Stage, top: int) -> dict[tuple[int, int], dict[int, int]]:
    """A stage's ``(cell, progressive flag) -> {min(total line pay, top): stop combinations}``."""
    if model.ways:
        return ways.pay_distribution(model, ways.reel_columns(stage.reels), top)
    return cp.line_pay_distribution(stage.reels, stage.automaton, model.paylines, top)


def _with_meters(capped: cp.CappedMoments, progressive: pj.ProgressiveSummary | None,
                 jackpots: tuple[pj.ProgressiveSummary, ...] = (), pairs: Fraction = Fraction(0)
                 ) -> tuple[Fraction, Fraction]:
    """``(E[X], Var X)`` of ``X = C + P + J``: the capped win, the combination progressive's meter and each
    jackpot level's, paid outside the cap.  A meter is independent of the play it is paid in, so
    ``E[C M] = E[C; hit] E[M]`` (``capped.on``); ``pairs``: the jackpot meters' cross terms
    (:func:`harness.slot.jackpot.pair_terms`)."""
    mean, second = capped.mean, capped.second + pairs
    if progressive is not None:
        mean += progressive.hit_probability * progressive.mean_meter
        second += progressive.hit_probability * progressive.meter_second_moment
        second += 2 * capped.on_hits * progressive.mean_meter
    for i, level in enumerate(jackpots):
        mean += level.hit_probability * level.mean_meter
        second += level.hit_probability * level.meter_second_moment + 2 * capped.on_level(i) * level.mean_meter
    return mean, second - mean * mean


def _rtp_parts(model: SlotModel, base: Stage, mean_feature: Fraction,
               progressive: pj.ProgressiveSummary | None) -> dict[str, Fraction]:
    total_bet, pay = model.total_bet, model.scatter_awards.pay
    line_credits = model.bet_per_line * base.line_pay_weight
    return {
        "lines": Fraction(line_credits, base.cycle * total_bet),
        "scatters": base.share(sum(w * pay[k] for k, w in enumerate(base.scatter_counts))),
        "feature": mean_feature / total_bet,
        "progressive": progressive.rtp if progressive else Fraction(0),
    }


def _hit_frequency(model: SlotModel, base: Stage) -> Fraction:
    """A play is a hit unless no line pays, no scatter pays, no feature starts and no progressive.

    (A wheel or pick bonus that starts is a hit even when it pays 0, as a feature start always is.)
    """
    awards = model.scatter_awards
    starts = hold_spin_by_cell(model).keys() | bonus_by_cell(model).keys() | {k for c in jp.level_cells(model)
                                                                               for k in c}
    no_hit = sum(z for k, z in enumerate(base.joint.no_line_win)
                 if not awards.pay[k] and not awards.trigger[k] and k not in starts)
    return 1 - base.share(no_hit)
