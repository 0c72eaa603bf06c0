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
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

from harness.slot import feature as fs
from harness.slot import progressive as pj
from harness.slot.errors import ModelError
from harness.slot.joint import JointMoments, joint_moments
from harness.slot.lines import LineAutomaton, build_line_automaton
from harness.slot.model import SlotModel
from harness.slot.reelset import ReelSet, base_reelset, feature_reelset

PARTS = ("lines", "scatters", "feature", "progressive")


@dataclasses.dataclass(frozen=True)
class OutcomeClass:
    """One winning outcome class and its probabilities (see module docstring)."""

    name: str               # e.g. "5 x WILD", "scatter 3 x SCAT", "progressive 5 x SEVEN"
    kind: str               # "line", "scatter" or "progressive"
    award: str              # what it pays, in words
    probability: Fraction   # per play, at least once (lower bound when not exact)
    probability_upper: Fraction  # equal to probability when exact
    base_probability: Fraction   # per paid spin, on at least one line / in the window
    per_line_probability: Fraction | None  # per payline of the base game (line classes)
    free_spin_probability: Fraction | None  # per free spin (None without free spins)
    rtp: Fraction           # its contribution to the RTP

    @property
    def exact(self) -> bool:
        return self.probability == self.probability_upper


@dataclasses.dataclass(frozen=True)
class FeatureSummary:
    trigger_probability: Fraction      # per play
    retrigger_per_spin: Fraction       # m: expected spins awarded by one free spin
    spins_per_feature: Fraction        # expected free spins per triggered feature, retriggers included
    win_per_feature: Fraction          # expected credits per triggered feature
    rtp_per_free_spin: Fraction        # expected win of one free spin ÷ total bet


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

    @property
    def sd(self) -> float:
        """Standard deviation per play, credits."""
        return math.sqrt(self.variance)

    @property
    def sd_per_bet(self) -> float:
        """Standard deviation per play in units of the total bet."""
        return math.sqrt(self.variance) / self.model.total_bet


# --- single payline, exact by products over reels ----------------------------


def single_line(automaton: LineAutomaton, reels: ReelSet, nsym: int) -> tuple[dict[int, int], int]:
    """Weights of each final state of ONE payline over the cycle, and the total line pay weight.

    Any row of a cyclic strip shows symbol x at exactly ``count(x)`` of the
    stops, so a payline's symbols are independent across reels with those
    frequencies, whatever its rows: a product over reels.
    """
    counts = reels.symbol_counts(nsym)
    delta = automaton.delta.tolist()
    dist = {0: 1}
    for r in range(reels.reels):
        nxt: dict[int, int] = {}
        for state, w in dist.items():
            row = delta[state]
            for x, c in enumerate(counts[r]):
                if c:
                    s2 = row[x]
                    nxt[s2] = nxt.get(s2, 0) + w * c
        dist = nxt
    pay_weight = sum(w * int(automaton.pay[s]) for s, w in dist.items())
    return dist, pay_weight


def _class_line_weights(automaton: LineAutomaton, dist: dict[int, int]) -> list[int]:
    out = [0] * len(automaton.classes)
    for s, w in dist.items():
        c = int(automaton.cls[s])
        if c >= 0:
            out[c] += w
    return out


# --- scatter awards ------------------------------------------------------------


def award_for(table, count: int) -> int:
    """The award listed for the largest count <= ``count`` (0 if none)."""
    best = 0
    for k, v in table.items():
        if k <= count:
            best = v
    return best


def scatter_buckets(model: SlotModel) -> list[tuple[int, int]]:
    """Scatter award classes as count ranges ``[lo, hi]`` sharing one award."""
    if model.scatter is None:
        return []
    keys = set(model.symbols[model.scatter].pays)
    if model.free_spins is not None:
        keys |= set(model.free_spins.spins) | set(model.free_spins.retrigger)
    keys = sorted(keys)
    return [(k, (keys[i + 1] - 1) if i + 1 < len(keys) else model.max_scatter) for i, k in enumerate(keys)]


# --- the analysis ---------------------------------------------------------------


def analyse(model: SlotModel, *, engine: str = "auto") -> Analysis:
    """Exact analysis of ``model`` (see the module docstring for every figure).

    Parameters
    ----------
    engine : {"auto", "c", "python"}
        Who runs the joint enumeration (:func:`harness.slot.joint.joint_moments`).

    Raises
    ------
    ModelError
        If the free spins' expected length diverges, or the progressive can
        never be won.
    """
    started = time.perf_counter()
    nsym = len(model.symbols)
    tb, bpl, nlines = model.total_bet, model.bet_per_line, len(model.paylines)
    kmax = model.max_scatter
    scat_table = model.symbols[model.scatter].pays if model.scatter is not None else {}
    scat_pay = [award_for(scat_table, k) for k in range(kmax + 1)]
    fsp = model.free_spins
    trigger = [award_for(fsp.spins, k) if fsp else 0 for k in range(kmax + 1)]
    retrig = [award_for(fsp.retrigger, k) if fsp else 0 for k in range(kmax + 1)]

    base = base_reelset(model)
    cycle = base.cycle
    base_scat = base.scatter_counts
    auto_base = build_line_automaton(model, with_progressive=True)
    dist_base, line_pay_weight = single_line(auto_base, base, nsym)
    per_line_w = _class_line_weights(auto_base, dist_base)

    # Free spins: check convergence before the expensive part.
    feat = auto_feat = None
    if fsp is not None:
        feat = feature_reelset(model)
        m = Fraction(sum(w * retrig[k] for k, w in enumerate(feat.scatter_counts)), feat.cycle)
        if m >= 1:
            raise ModelError(
                "free_spins.retrigger",
                f"each free spin awards on average {m} = {float(m):.6g} further free spins (>= 1), "
                "so the expected number of free spins is infinite; lower the retrigger awards or "
                "the scatters on the feature strips",
                model.source,
            )
        auto_feat = build_line_automaton(model, with_progressive=False)

    jb, jf = _joint_stages(model, base, auto_base, feat, auto_feat, engine)
    if sum(a + b for a, b in jb.line_sum) != nlines * line_pay_weight:
        raise AssertionError("joint enumeration disagrees with the per-line product on the line return")

    def win_sums(j: JointMoments, k: int, p: int, factor: int = 1) -> tuple[int, int, int]:
        """(count, sum of win, sum of win^2), credits, over the cell (k scatters, progressive p)."""
        n, s1, s2 = j.count[k][p], j.line_sum[k][p], j.line_sq[k][p]
        a, b = factor * bpl, factor * tb * scat_pay[k]  # win = a * (line pay multiple) + b
        return n, a * s1 + b * n, a * a * s2 + 2 * a * b * s1 + b * b * n

    # Free spins.
    tree = None
    feat_line_w = None
    summary_feature = None
    if fsp is not None:
        dist_feat, feat_pay_weight = single_line(auto_feat, feat, nsym)
        feat_line_w = _class_line_weights(auto_feat, dist_feat)
        if sum(a + b for a, b in jf.line_sum) != nlines * feat_pay_weight:
            raise AssertionError("joint enumeration disagrees with the per-line product on the free spins")
        sw = sw2 = swj = sj = sjj = 0
        for k in range(kmax + 1):
            j = retrig[k]
            for p in (0, 1):
                n, s1, s2 = win_sums(jf, k, p, fsp.multiplier)
                sw += s1
                sw2 += s2
                swj += j * s1
                sj += j * n
                sjj += j * (j - 1) * n
        spin = fs.SpinMoments(
            ew=Fraction(sw, feat.cycle),
            ew2=Fraction(sw2, feat.cycle),
            ewj=Fraction(swj, feat.cycle),
            ej=Fraction(sj, feat.cycle),
            ejj1=Fraction(sjj, feat.cycle),
        )
        tree = fs.tree_moments(spin)  # m < 1 was checked above
        p_trigger = Fraction(sum(w for k, w in enumerate(base_scat) if trigger[k]), cycle)
        spins_per_play = Fraction(sum(w * trigger[k] for k, w in enumerate(base_scat)), cycle)
        summary_feature = FeatureSummary(
            trigger_probability=p_trigger,
            retrigger_per_spin=spin.ej,
            spins_per_feature=(spins_per_play * tree.spins / p_trigger) if p_trigger else Fraction(0),
            win_per_feature=(spins_per_play * tree.ev / p_trigger) if p_trigger else Fraction(0),
            rtp_per_free_spin=spin.ew / tb,
        )

    # Progressive.
    prog_weight = sum(jb.count[k][1] for k in range(kmax + 1))
    summary_prog = None
    if model.progressive is not None:
        if prog_weight == 0:
            raise ModelError(
                "progressive",
                f"{model.progressive.count} x {model.progressive.symbol} can never appear on a payline "
                "of the base game, so the jackpot can never be won",
                model.source,
            )
        summary_prog = pj.summarise(model.progressive, Fraction(prog_weight, cycle), tb)

    # Moments per play of X = B + F + P (base win, free spins, progressive).
    # Given the scatter count k, F is independent of B and of P; the meter
    # paid at a hit is independent of the play's reels.
    sum_b = sum_b2 = mix_bp = 0
    e_f = e_f2 = mix_bf = mix_fp = Fraction(0)
    for k in range(kmax + 1):
        ef = ef2 = 0
        if tree is not None and trigger[k]:
            ef, ef2 = fs.award_moments(trigger[k], tree)
        for p in (0, 1):
            n, s1, s2 = win_sums(jb, k, p)
            sum_b += s1
            sum_b2 += s2
            if n and ef:
                e_f += n * ef
                e_f2 += n * ef2
                mix_bf += s1 * ef
                if p:
                    mix_fp += n * ef
            if p:
                mix_bp += s1
    e_b, e_b2 = Fraction(sum_b, cycle), Fraction(sum_b2, cycle)
    e_f, e_f2, mix_bf, mix_fp = e_f / cycle, e_f2 / cycle, mix_bf / cycle, mix_fp / cycle
    e_p = e_p2 = e_bp = e_fp = Fraction(0)
    if summary_prog is not None:
        meter = summary_prog.mean_meter
        e_p = summary_prog.hit_probability * meter
        e_p2 = summary_prog.hit_probability * summary_prog.meter_second_moment
        e_bp = Fraction(mix_bp, cycle) * meter
        e_fp = mix_fp * meter
    mean = e_b + e_f + e_p
    variance = e_b2 + e_f2 + e_p2 + 2 * (mix_bf + e_bp + e_fp) - mean * mean

    # A play is a hit unless no line pays, no scatter pays, no free spins and no progressive.
    no_hit = sum(z for k, z in enumerate(jb.no_line_win) if not scat_pay[k] and not trigger[k])

    parts = {
        "lines": Fraction(bpl * nlines * line_pay_weight, cycle * tb),
        "scatters": Fraction(sum(w * scat_pay[k] for k, w in enumerate(base_scat)), cycle),
        "feature": e_f / tb,
        "progressive": summary_prog.rtp if summary_prog else Fraction(0),
    }
    rtp = sum(parts.values(), Fraction(0))
    if rtp != mean / tb:
        raise AssertionError("RTP parts disagree with the per-play mean")

    classes = _outcome_classes(
        model, auto_base, jb, per_line_w, cycle, base_scat, trigger, retrig, scat_pay,
        feat, jf, feat_line_w, tree, prog_weight, parts["progressive"],
    )
    if not classes:
        raise ModelError("symbols", "nothing pays: no symbol has pays, no scatter award and no progressive, "
                         "so the game has no winning outcome", model.source)
    return Analysis(
        model=model,
        cycle=cycle,
        rtp=rtp,
        parts=parts,
        hit_frequency=1 - Fraction(no_hit, cycle),
        variance=variance,
        classes=tuple(classes),
        rarest=min(classes, key=lambda c: c.probability),
        feature=summary_feature,
        progressive=summary_prog,
        engine=jb.engine,
        seconds=time.perf_counter() - started,
    )


def _joint_stages(model, base, auto_base, feat, auto_feat, engine):
    """Joint figures of the base game and of a free spin (in two threads: the
    C kernel releases the GIL, so on two cores the stages overlap)."""
    if feat is None:
        return joint_moments(base, auto_base, model.paylines, engine=engine), None
    with ThreadPoolExecutor(max_workers=2) as pool:
        fb = pool.submit(joint_moments, base, auto_base, model.paylines, engine=engine)
        ff = pool.submit(joint_moments, feat, auto_feat, model.paylines, engine=engine)
        return fb.result(), ff.result()


def _outcome_classes(model, auto, jb: JointMoments, per_line_w, cycle, base_scat, trigger, retrig,
                     scat_pay, feat, jf: JointMoments | None, feat_line_w, tree, prog_weight, progressive_rtp):
    """Every winning outcome class with its probabilities and RTP share."""
    tb, bpl, nlines = model.total_bet, model.bet_per_line, len(model.paylines)
    fsp = model.free_spins
    mult = fsp.multiplier if fsp else 1
    kmax = model.max_scatter
    names = model.symbol_names
    # Expected free spins per play (retriggers included), for RTP shares of free-spin wins.
    spins_per_play = Fraction(0)
    if tree is not None:
        spins_per_play = Fraction(sum(w * trigger[k] for k, w in enumerate(base_scat)), cycle) * tree.spins
    feat_scat = feat.scatter_counts if feat is not None else None

    def per_play(base_with: list[int], feat_with: list[int] | None) -> tuple[Fraction, Fraction]:
        """P(class at least once in a play): base_with[k] / feat_with[k] = weight of spins
        with the class and k scatters (base game / free spin)."""
        if jf is None or feat_with is None:
            p = Fraction(sum(base_with), cycle)
            return p, p
        no_class = {}
        for k, w in enumerate(feat_scat):
            j = retrig[k]
            no_class[j] = no_class.get(j, 0) + w - feat_with[k]
        z_lo, z_hi = fs.no_occurrence_bracket(no_class, jf.cycle)
        lo = hi = Fraction(0)
        for k, w in enumerate(base_scat):
            with_c = base_with[k]
            without = w - with_c
            lo += with_c
            hi += with_c
            if without and trigger[k]:
                lo += without * (1 - z_hi ** trigger[k])
                hi += without * (1 - z_lo ** trigger[k])
        return lo / cycle, hi / cycle

    out = []
    # Line classes.
    for c, lc in enumerate(auto.classes):
        base_with = list(jb.class_scatter[c])
        feat_with = list(jf.class_scatter[c]) if jf is not None else None
        lo, hi = per_play(base_with, feat_with)
        rtp = Fraction(per_line_w[c] * lc.pay * bpl * nlines, cycle * tb)
        free_p = None
        if jf is not None:
            free_p = Fraction(sum(feat_with), jf.cycle)
            rtp += spins_per_play * mult * Fraction(feat_line_w[c] * lc.pay * bpl * nlines, jf.cycle * tb)
        out.append(OutcomeClass(
            name=f"{lc.count} x {names[lc.symbol]}",
            kind="line",
            award=f"{lc.pay} x line bet",
            probability=lo,
            probability_upper=hi,
            base_probability=Fraction(sum(base_with), cycle),
            per_line_probability=Fraction(per_line_w[c], cycle),
            free_spin_probability=free_p,
            rtp=rtp,
        ))
    # Scatter classes.
    for lo_k, hi_k in scatter_buckets(model):
        label = f"{lo_k}+" if hi_k == kmax and hi_k > lo_k else (f"{lo_k}" if hi_k == lo_k else f"{lo_k}-{hi_k}")
        # A count range is a winning outcome in a stage only if it awards something there.
        in_base = bool(scat_pay[lo_k] or trigger[lo_k])
        in_free = bool(scat_pay[lo_k] or retrig[lo_k])
        base_with = [w if in_base and lo_k <= k <= hi_k else 0 for k, w in enumerate(base_scat)]
        feat_with = ([w if in_free and lo_k <= k <= hi_k else 0 for k, w in enumerate(feat_scat)]
                     if feat_scat else None)
        lo, hi = per_play(base_with, feat_with)
        pay = scat_pay[lo_k]
        parts = []
        if pay:
            parts.append(f"{pay} x total bet")
        if trigger[lo_k]:
            parts.append(f"{trigger[lo_k]} free spins")
        if fsp and retrig[lo_k]:
            parts.append(f"+{retrig[lo_k]} in free spins")
        rtp = Fraction(sum(base_with) * pay, cycle)
        free_p = None
        if feat_with is not None:
            free_p = Fraction(sum(feat_with), jf.cycle)
            rtp += spins_per_play * mult * free_p * pay
        out.append(OutcomeClass(
            name=f"scatter {label} x {names[model.scatter]}",
            kind="scatter",
            award=", ".join(parts),
            probability=lo,
            probability_upper=hi,
            base_probability=Fraction(sum(base_with), cycle),
            per_line_probability=None,
            free_spin_probability=free_p,
            rtp=rtp,
        ))
    # The progressive.
    if model.progressive is not None:
        p = Fraction(prog_weight, cycle)
        out.append(OutcomeClass(
            name=f"progressive {model.progressive.count} x {model.progressive.symbol}",
            kind="progressive",
            award="progressive meter",
            probability=p,
            probability_upper=p,
            base_probability=p,
            per_line_probability=None,
            free_spin_probability=None,
            rtp=progressive_rtp,  # the "progressive" part of the RTP
        ))
    return out
