"""The winning outcome classes of a slot model and their probabilities.

Each class is one way a play is paid: a line combination (``3 x A``), a
scatter count range sharing one award (``scatter 5+ x SCAT``) or the
progressive.  Its probability *per play* is that of being paid at least once
in the paid spin or in any free spin the play triggers (the branching
process of :mod:`harness.slot.feature`); see :mod:`harness.slot.exact` for
every figure.  One builder per kind of class; a new kind of award adds one.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from harness.slot import feature as fs
from harness.slot import jackpot as jp
from harness.slot import sticky as st
from harness.slot.model import SlotModel
from harness.slot.stage import Stage


@dataclasses.dataclass(frozen=True)
class OutcomeClass:
    """One winning outcome class and its probabilities (see :mod:`harness.slot.exact`)."""

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
class Play:
    """What every class's figures are built from: the stages of one play.

    ``free`` and ``tree`` are None without free spins; ``free_spins_per_play``
    is the expected number of free spins per play, retriggers included.
    With a sticky wild the free spins are one session of dependent spins:
    ``tree`` is None and ``session`` (:mod:`harness.slot.sticky`) gives the
    exact figures of every winning outcome ("event") over the session.
    """

    model: SlotModel
    base: Stage
    free: Stage | None
    tree: fs.TreeMoments | None
    free_spins_per_play: Fraction
    session: st.StickySession | None = None

    def session_rtp(self, event: int) -> Fraction:
        """Sticky wilds: the RTP share of ``event`` over the free-spin sessions of a play."""
        trigger, credits = self.model.scatter_awards.trigger, self.session.credits
        total = sum((w * credits[trigger[k]][event] for k, w in enumerate(self.base.scatter_counts) if trigger[k]),
                    Fraction(0))
        return total / (self.base.cycle * self.model.total_bet)

    def probability(self, base_with: list[int], free_with: list[int] | None,
                    event: int | None = None) -> tuple[Fraction, Fraction]:
        """Bounds on P(class at least once in a play).

        ``base_with[k]`` / ``free_with[k]``: stop combinations of a paid spin /
        a free spin with ``k`` scatters that pay the class; ``event``: the
        class's index among the session's events (sticky wilds: exact).
        """
        base = self.base
        if self.free is None or free_with is None:
            p = base.share(sum(base_with))
            return p, p
        if self.session is not None:
            trigger, never = self.model.scatter_awards.trigger, self.session.never
            p = sum((with_class + (w - with_class) * (1 - never[trigger[k]][event]) if trigger[k] else with_class
                     for k, (w, with_class) in enumerate(zip(base.scatter_counts, base_with))), Fraction(0))
            return p / base.cycle, p / base.cycle
        awards = self.model.scatter_awards
        no_class: dict[int, int] = {}  # spins awarded -> free-spin combinations without the class
        for k, w in enumerate(self.free.scatter_counts):
            j = awards.retrigger[k]
            no_class[j] = no_class.get(j, 0) + w - free_with[k]
        z_lo, z_hi = fs.no_occurrence_bracket(no_class, self.free.cycle)
        lo = hi = Fraction(0)
        for k, w in enumerate(base.scatter_counts):
            with_class = base_with[k]
            without = w - with_class
            lo += with_class
            hi += with_class
            spins = awards.trigger[k]
            if without and spins:
                lo += without * (1 - z_hi ** spins)
                hi += without * (1 - z_lo ** spins)
        return lo / base.cycle, hi / base.cycle


def outcome_classes(play: Play, progressive_weight: int, progressive_rtp: Fraction,
                    hold: dict | None = None, bonus: dict | None = None,
                    mystery: tuple = (), jackpots: tuple = ()) -> list[OutcomeClass]:
    """Every winning outcome class with its probabilities and RTP share.

    ``hold`` / ``bonus``: per scatter cell that starts the hold-and-spin
    feature / the wheel or pick bonus, its
    :class:`~harness.slot.hold_spin.HoldSpinOutcome` /
    :class:`~harness.slot.bonus.BonusOutcome`; ``mystery``: the
    :class:`~harness.slot.progressive.ProgressiveSummary` of every mystery level.
    """
    out = line_classes(play) + scatter_classes(play)
    if play.model.progressive is not None:
        out.append(progressive_class(play, progressive_weight, progressive_rtp))
    if hold:
        out += hold_spin_classes(play, hold)
    if bonus:
        out += bonus_classes(play, bonus)
    out += mystery_classes(play.model, mystery)
    out += jackpot_classes(play.model, jackpots)
    return out


def mystery_classes(model: SlotModel, mystery: tuple) -> list[OutcomeClass]:
    """One class per mystery progressive level: hit with its stated probability per play."""
    out = []
    for level, summary in zip(model.mystery, mystery):
        p = summary.hit_probability
        out.append(OutcomeClass(name=f"mystery progressive {level.name}", kind="progressive",
                                award=f"{level.name} meter", probability=p, probability_upper=p, base_probability=p,
                                per_line_probability=None, free_spin_probability=None, rtp=summary.rtp))
    return out


def jackpot_classes(model: SlotModel, jackpots: tuple) -> list[OutcomeClass]:
    """One class per jackpot level (harness.slot.jackpot): won by its count range of the jackpot scatter, or of
    the jackpot line symbol's run on a payline."""
    levels = model.jackpots
    out = []
    for level, summary in zip(levels, jackpots):
        line = level.on == "line"
        counts = _count_label(*jp.count_range(model, level), model.reels if line else model.max_scatter)
        p = summary.hit_probability
        where = " on a line" if line else ""
        out.append(OutcomeClass(name=f"jackpot {level.name} ({counts} x {model.symbol_names[level.symbol]}{where})",
                                kind="progressive", award=f"{level.name} meter", probability=p, probability_upper=p,
                                base_probability=p, per_line_probability=None, free_spin_probability=None,
                                rtp=summary.rtp))
    return out


def _feature_class(name: str, award: str, p: Fraction, rtp: Fraction, upper: Fraction | None = None) -> OutcomeClass:
    """A class of a feature the paid spin starts (exact unless ``upper`` is given; no per-line or free-spin
    figure)."""
    return OutcomeClass(name=name, kind="feature", award=award, probability=p,
                        probability_upper=p if upper is None else upper, base_probability=p,
                        per_line_probability=None, free_spin_probability=None, rtp=rtp)


def bonus_classes(play: Play, bonus: dict) -> list[OutcomeClass]:
    """The bonus started (by the paid spin's window), and one class per prize value won in it."""
    base = play.base
    started = base.share(sum(base.scatter_counts[k] for k in bonus))
    return started_bonus_classes(play.model, next(iter(bonus.values())), started)


def started_bonus_classes(model: SlotModel, outcome, started: Fraction,
                          started_upper: Fraction | None = None) -> list[OutcomeClass]:
    """The bonus started with probability ``started`` per play (a lower bound, ``started_upper`` the upper,
    when bounded), and one class per prize value (a wheel segment, a pick item) won in it.

    ``outcome``: the :class:`~harness.slot.bonus.BonusOutcome`, the same whatever the count that started
    it.  A prize class's RTP share is what its prizes pay on average
    (:attr:`~harness.slot.bonus.BonusOutcome.share`); the "started" class carries none, since every
    credit a bonus pays is some prize's.
    """
    b = model.bonus
    hi = started if started_upper is None else started_upper
    scatter = model.symbol_names[b.symbol]
    out = [_feature_class(f"{b.kind} bonus {b.trigger}+ x {scatter}", f"{b.kind} prizes x total bet", started,
                          Fraction(0), hi)]
    for value, p in outcome.prize.items():
        out.append(_feature_class(f"{b.kind} bonus prize {value} x total bet", f"{value} x total bet",
                                  started * p, started * outcome.share[value], hi * p))
    return out


def hold_spin_classes(play: Play, hold: dict) -> list[OutcomeClass]:
    """The hold-and-spin feature started, and its grand award (every position locked)."""
    model, base = play.model, play.base
    h = model.hold_and_spin
    counts = base.scatter_counts
    started = base.share(sum(counts[k] for k in hold))
    total = sum(counts[k] * o.mean for k, o in hold.items()) / base.cycle  # total bets per play
    full = sum(counts[k] * o.full for k, o in hold.items()) / base.cycle
    coin = model.symbol_names[h.symbol]
    grand = full * h.grand

    out = [_feature_class(f"hold and spin {h.trigger}+ x {coin}", "coin values x total bet", started,
                          total - grand)]
    if h.grand:
        positions = model.rows * model.reels
        out.append(_feature_class(f"hold and spin grand ({positions} x {coin})", f"{h.grand} x total bet", full,
                                  grand))
    return out


def line_classes(play: Play) -> list[OutcomeClass]:
    """One class per line combination with a listed pay."""
    model, base, free = play.model, play.base, play.free
    n_lines = len(model.paylines)
    times = " x wild multipliers" if model.top_multiplier > 1 else ""
    names = model.symbol_names
    out = []
    for c, combination in enumerate(base.automaton.classes):
        base_with = list(base.joint.class_scatter[c])
        free_with = list(free.joint.class_scatter[c]) if free is not None else None
        lo, hi = play.probability(base_with, free_with, event=c)
        # class_pay_weights: its pays (wild multipliers included) summed over the played lines
        rtp = Fraction(base.class_pay_weights[c] * model.bet_per_line, base.cycle * model.total_bet)
        free_p = None
        if play.session is not None:  # no single "per free spin" figure: the spins of a session differ
            rtp += play.session_rtp(c)
        elif free is not None:
            free_p = free.share(sum(free_with))
            rtp += play.free_spins_per_play * free.multiplier * Fraction(
                free.class_pay_weights[c] * model.bet_per_line, free.cycle * model.total_bet)
        out.append(OutcomeClass(
            name=f"{combination.count} x {names[combination.symbol]}",
            kind="line",
            award=f"{combination.pay} x {'way' if model.ways else 'line'} bet{times}",
            probability=lo,
            probability_upper=hi,
            base_probability=base.share(sum(base_with)),
            # mean over lines; a way is not a payline (ways rule: harness.slot.ways_rule), so none for ways
            per_line_probability=None if model.ways else Fraction(base.class_line_weights[c], n_lines * base.cycle),
            free_spin_probability=free_p,
            rtp=rtp,
        ))
    return out


def scatter_classes(play: Play) -> list[OutcomeClass]:
    """One class per count range of one scatter symbol sharing one award."""
    model, base, free = play.model, play.base, play.free
    awards = model.scatter_awards
    code = awards.code
    out = []
    n_lines = len(base.automaton.classes)  # the session's events: line classes, then these count ranges
    for b, (i, lo_k, hi_k) in enumerate(awards.buckets):
        # A count range is a winning outcome in a stage only if it awards something there.
        pay, spins, respins = awards.awards(i, lo_k)
        in_base, in_free = bool(pay or spins), bool(pay or respins)

        def shows(k: int) -> bool:  # the cell shows lo_k .. hi_k of this scatter
            return k < code.cells and lo_k <= code.count(k, i) <= hi_k

        base_with = [w if in_base and shows(k) else 0 for k, w in enumerate(base.scatter_counts)]
        free_with = ([w if in_free and shows(k) else 0 for k, w in enumerate(free.scatter_counts)]
                     if free is not None else None)
        lo, hi = play.probability(base_with, free_with, event=n_lines + b)
        rtp = base.share(sum(base_with) * pay)
        free_p = None
        if play.session is not None:
            rtp += play.session_rtp(n_lines + b)
        elif free_with is not None:
            free_p = free.share(sum(free_with))
            rtp += play.free_spins_per_play * free.multiplier * free_p * pay
        out.append(scatter_class(model, i, lo_k, hi_k, lo, rtp, upper=hi, base=base.share(sum(base_with)),
                                 free=free_p))
    return out


def scatter_class(model: SlotModel, i: int, lo_k: int, hi_k: int, probability: Fraction, rtp: Fraction, *,
                  upper: Fraction | None = None, base: Fraction | None = None,
                  free: Fraction | None = None) -> OutcomeClass:
    """The class of counts ``lo_k .. hi_k`` of scatter ``i`` (its place in the scatter code): exact unless
    ``upper`` is given; ``base`` (per paid spin) defaults to ``probability``."""
    return OutcomeClass(
        name=f"scatter {_count_label(lo_k, hi_k, model.max_scatter)} x {model.symbol_names[model.scatter_code.symbols[i]]}",
        kind="scatter",
        award=_scatter_award_words(model, i, lo_k),
        probability=probability,
        probability_upper=probability if upper is None else upper,
        base_probability=probability if base is None else base,
        per_line_probability=None,
        free_spin_probability=free,
        rtp=rtp,
    )


def _count_label(lo_k: int, hi_k: int, max_scatter: int) -> str:
    if hi_k == max_scatter and hi_k > lo_k:
        return f"{lo_k}+"
    return f"{lo_k}" if hi_k == lo_k else f"{lo_k}-{hi_k}"


def _scatter_award_words(model: SlotModel, i: int, count: int) -> str:
    pay, spins, respins = model.scatter_awards.awards(i, count)
    words = []
    if pay:
        words.append(f"{pay} x total bet")
    if spins:
        words.append(f"{spins} free spins")
    if model.free_spins and respins:
        words.append(f"+{respins} in free spins")
    return ", ".join(words)


def progressive_class(play: Play, weight: int, rtp: Fraction) -> OutcomeClass:
    """The progressive: won on a payline of the paid spin only."""
    progressive = play.model.progressive
    p = play.base.share(weight)
    return OutcomeClass(
        name=f"progressive {progressive.count} x {progressive.symbol}",
        kind="progressive",
        award="progressive meter",
        probability=p,
        probability_upper=p,
        base_probability=p,
        per_line_probability=None,
        free_spin_probability=None,
        rtp=rtp,  # the "progressive" part of the RTP
    )
