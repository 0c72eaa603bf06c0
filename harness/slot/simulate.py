"""Cross-check the exact analysis by playing spins through a generator.

Two players of the same rules (both read paylines through the automaton of
:mod:`harness.slot.lines`, and ways by the rule of :mod:`harness.slot.ways_rule`):

* :func:`simulate` -- the C kernel ``kern_slot_simulate`` (``csrc/kernels/slot.c``)
  drawing every reel stop with the unbiased ``rng_bounded32`` from an
  ``rngcore`` generator's ``rng_source``;
* :func:`simulate_numpy` -- vectorised numpy on any generator with an
  ``integers(low, high, size)`` method (numpy's ``Generator``, or
  ``rngcore.Generator``): the independent cross-check and the speed baseline;
  it also plays the hold-and-spin feature, the bonuses, the cap and mystery
  levels, which the C kernel does not.

:func:`simulate` hands a model to the fastest player that plays every feature
it has, and refuses one no player plays: the C kernel (one-way reel heights
per spin too, free spins included: each reel's height draw then its stop
draw, on every spin), the Python window player
(:mod:`harness.slot.window_player`: both-ways pays, reel heights per spin,
cascades and their mystery levels) or a round's own play
(:mod:`harness.slot.play_player`: hold and spin, bonuses, the cap, sticky
sessions the kernel does not follow, cascades with scatters and free spins,
payline jackpot levels, mystery levels, and the meters beside them).  Which
player plays which feature is the table of :mod:`harness.slot.simulate_features`.

A simulated play's return counts the progressive as the meter is funded:
the contribution (a fixed share of every bet) plus the reset value at each
hit.  Its expectation is the exact RTP of :mod:`harness.slot.progressive`, and
unlike the meter payouts it does not depend on where a run stops in a meter
cycle.

Intervals are 99.9% two-sided: the RTP's from the normal approximation with
the sample standard deviation of the per-play return; the hit frequency's
Wilson score interval.
"""
from __future__ import annotations

import dataclasses
import math
import time
from fractions import Fraction
from typing import Callable

import numpy as np

from harness.slot import bonus as bonus_rules, hold_spin, simulate_features as features
from harness.slot.draws import NumpyDraws
from harness.slot.errors import ModelError
from harness.slot.exact import Analysis, starting_cells
from harness.slot.jackpot import level_cells
from harness.slot.lines import build_line_automaton
from harness.slot.limits import MAX_FREE_SPINS, MAX_SIMULATED_PLAYS
from harness.slot.model import SlotModel
from harness.slot.mystery_draw import MysteryDraw
from harness.intervals import Z_999
from harness.slot.reelset import base_reelset, feature_reelset
from harness.slot.rounding import fixed
from harness.slot.ways_rule import WaysRule
WINDOW_PLAYER = "Python window player"  # SimulationResult.engine of harness.slot.window_player
PLAY_PLAYER = "Python round play"  # SimulationResult.engine of harness.slot.play_player
CHUNK = 1 << 20  # spins per C call: short enough for Ctrl-C and progress, long enough to be cheap


# Totals an kern_slot_tally and a SimulationResult share by name (win_sq is 128-bit in C).
_TALLY_SUMS = ("plays", "hits", "line_win", "scatter_win", "feature_win", "features", "free_spins",
               "progressive_hits", "jackpot_hits", "jackpot_win")


@dataclasses.dataclass
class SimulationResult:
    """Totals of a simulated run (credits; see the module docstring)."""

    plays: int = 0
    hits: int = 0
    line_win: int = 0
    scatter_win: int = 0
    feature_win: int = 0
    features: int = 0
    free_spins: int = 0
    progressive_hits: int = 0
    jackpot_hits: int = 0  # plays that won a jackpot level (harness.slot.jackpot)
    jackpot_win: int = 0  # the resets of the levels won
    win_sq: int = 0  # sum over plays of (wins + reset at a hit)^2
    mystery_win: int = 0  # resets of the mystery levels hit (not the C kernel's)
    cap_cut: int = 0  # credits the award cap took off the plays' wins (not the C kernel's)
    max_win: int = 0
    total_bet: int = 1
    contribution: Fraction = Fraction(0)
    reset: int = 0
    engine: str = ""
    generator: str = ""
    seconds: float = 0.0
    interrupted: bool = False

    # -- estimates --------------------------------------------------------------

    @property
    def paid(self) -> int:
        """Credits paid, with the progressive's (or jackpot level's) reset at each hit (not its increments)."""
        return (self.line_win + self.scatter_win + self.feature_win + self.reset * self.progressive_hits
                + self.jackpot_win + self.mystery_win - self.cap_cut)

    def rtp(self) -> Fraction:
        if not self.plays:
            raise ValueError("no plays were simulated")
        return Fraction(self.paid, self.plays * self.total_bet) + self.contribution

    def rtp_interval(self, z: float = Z_999) -> tuple[float, float]:
        n = self.plays
        if n < 2:
            raise ValueError("an interval needs at least 2 plays")
        var = Fraction(self.win_sq * n - self.paid**2, n * (n - 1))  # sample variance, credits^2
        half = z * math.sqrt(var / n) / self.total_bet
        centre = float(self.rtp())
        return centre - half, centre + half

    def hit_frequency(self) -> Fraction:
        return Fraction(self.hits, self.plays)

    def hit_interval(self, z: float = Z_999) -> tuple[float, float]:
        """Wilson score interval."""
        n, p = self.plays, self.hits / self.plays
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        # at p = 0 or 1 the interval's end is exactly 0 or 1, which the floats above can miss by an ulp
        return (0.0 if self.hits == 0 else centre - half), (1.0 if self.hits == n else centre + half)

    def agrees(self, analysis: Analysis) -> tuple[bool, bool]:
        """(exact RTP inside the RTP interval, exact hit frequency inside its interval).

        A bounded analysis (``analysis.rtp_upper`` set) knows the RTP only to lie in
        ``[rtp, rtp_upper]``: the RTP agrees when that interval meets the simulated one.
        """
        lo, hi = self.rtp_interval()
        hlo, hhi = self.hit_interval()
        top = analysis.rtp if analysis.rtp_upper is None else analysis.rtp_upper
        return analysis.rtp <= hi and lo <= top, hlo <= analysis.hit_frequency <= hhi

    def add_tally(self, tally) -> None:
        """Add the totals of one C ``kern_slot_tally`` (``csrc/kernels/slot.h``) to this run's."""
        for f in _TALLY_SUMS:
            setattr(self, f, getattr(self, f) + getattr(tally, f))
        self.win_sq += int(tally.win_sq_hi) << 64 | int(tally.win_sq_lo)
        self.max_win = max(self.max_win, tally.max_win)

    def absorb(self, later: "SimulationResult") -> None:
        """Add the totals of ``later``, a run of the same model that went on from this one's last
        play (a segment of one simulation; :mod:`harness.segments`)."""
        for f in _TALLY_SUMS + ("win_sq", "mystery_win", "cap_cut", "seconds"):
            setattr(self, f, getattr(self, f) + getattr(later, f))
        self.max_win = max(self.max_win, later.max_win)
        self.interrupted = later.interrupted

    # -- reporting ----------------------------------------------------------------

    def as_dict(self, analysis: Analysis) -> dict:
        rtp_in, hit_in = self.agrees(analysis)
        lo, hi = self.rtp_interval()
        hlo, hhi = self.hit_interval()
        return {
            "plays": self.plays,
            "engine": self.engine,
            "generator": self.generator,
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "spins_per_second": self.plays / self.seconds if self.seconds else None,
            "rtp": float(self.rtp()),
            "rtp_interval_999": [lo, hi],
            "rtp_exact_inside": rtp_in,
            "hit_frequency": float(self.hit_frequency()),
            "hit_frequency_interval_999": [hlo, hhi],
            "hit_frequency_exact_inside": hit_in,
            "features": self.features,
            "free_spins": self.free_spins,
            "progressive_hits": self.progressive_hits,
            "jackpot_hits": self.jackpot_hits,
            "max_win_credits": self.max_win,
        }

    def render(self, analysis: Analysis) -> list[str]:
        rtp_in, hit_in = self.agrees(analysis)
        lo, hi = self.rtp_interval()
        hlo, hhi = self.hit_interval()
        rate = f", {self.plays / self.seconds:,.0f} spins/s" if self.seconds else ""
        player = (self.engine if self.engine in (WINDOW_PLAYER, PLAY_PLAYER) else "numpy player"
                  if self.engine == "numpy" else f"{self.engine} kernel")
        out = [f"Simulation ({self.plays:,} plays, {player}, {self.generator}{rate})"]
        if self.interrupted:
            out.append("  INTERRUPTED: figures cover the plays completed before Ctrl-C")
        # the simulated figures are estimates (~); a bounded analysis' RTP is an interval, not a value
        if analysis.rtp_upper is None:
            exact = f"exact {float(analysis.rtp):.6f} {'inside' if rtp_in else 'OUTSIDE'}"
        else:
            exact = (f"rigorous bounds [{fixed(analysis.rtp, 6, up=False)}, {fixed(analysis.rtp_upper, 6, up=True)}] "
                     + ("meet it" if rtp_in else "OUTSIDE"))
        out.append(f"  RTP            ~{float(self.rtp()):.6f}   99.9% interval [{lo:.6f}, {hi:.6f}]   {exact}")
        out.append(f"  hit frequency  ~{float(self.hit_frequency()):.6f}   99.9% interval [{hlo:.6f}, {hhi:.6f}]   "
                   f"exact {float(analysis.hit_frequency):.6f} {'inside' if hit_in else 'OUTSIDE'}")
        jackpots = f", jackpot level hits {self.jackpot_hits:,}" if self.jackpot_hits else ""
        out.append(f"  free spins features {self.features:,} ({self.free_spins:,} free spins), "
                   f"progressive hits {self.progressive_hits:,}{jackpots}, largest play win {self.max_win:,} credits")
        return out


def _empty(model: SlotModel, engine: str, generator: str) -> SimulationResult:
    prog = model.progressive
    return SimulationResult(
        total_bet=model.total_bet,
        contribution=(prog.contribution if prog else Fraction(0))
        + sum((m.contribution for m in (*model.mystery, *model.jackpots)), Fraction(0)),
        reset=prog.reset if prog else 0,
        engine=engine,
        generator=generator,
    )


def describe(generator) -> str:
    provenance = getattr(generator, "provenance", None)
    if provenance is not None:  # engine, mode, seed fingerprint, stream, position
        return f"rngcore {provenance().describe()}"
    bitgen = getattr(generator, "bit_generator", None)
    return f"numpy {type(bitgen).__name__}" if bitgen is not None else type(generator).__name__


def simulate(model: SlotModel, n: int, generator, *, progress: Callable[[int, int], None] | None = None,
             chunk: int = CHUNK, reader: str = "fastest") -> SimulationResult:
    """Play ``n`` spins through the fastest player of the model (:mod:`harness.slot.simulate_features`),
    drawing from ``generator``: the C kernel (reel heights read one way included, as the virtual stops of
    :func:`harness.slot.height_reels.reelset`), the window player or a round's play.

    Parameters
    ----------
    generator : rngcore.Generator
        Its ``rng_source`` supplies every bit; its lock is held for each chunk.
    progress : callable, optional
        ``progress(done, n)`` after each chunk.
    reader : {"fastest", "cells"}
        How a ways game is paid by the ways rule (``csrc/kernels/slot_ways.h``),
        with the same draws and totals: through tables of every reel stop's
        counts (``"fastest"``, on the kernel's fastest code path), or by
        counting every cell of the window (``"cells"``: the reference the
        tables are tested and benchmarked against).  A payline game is read
        line by line either way.  The readers' tables are built once per call,
        whatever ``chunk`` is.

    Ctrl-C stops at the next chunk boundary: the result then covers the
    plays completed and has ``interrupted = True``.

    Raises
    ------
    ModelError
        If a win or a total would overflow the kernel's 64-bit integers
        (possible only through retriggered free spins for a validated
        model), or a feature runs past ``MAX_FREE_SPINS`` spins.
    """
    from harness.slot import play_player, window_player

    _check_plays(n)
    player = features.player_for(model)  # the fastest that plays every feature (harness.slot.simulate_features)
    if player == features.WINDOWS:  # read window by window: not the C kernel's tables
        return window_player.simulate_windows(model, n, generator, _empty(model, WINDOW_PLAYER, describe(generator)),
                                              progress=progress)
    if player == features.ROUNDS:  # features only a round's play plays: one play at a time
        return play_player.simulate_plays(model, n, generator, _empty(model, PLAY_PLAYER, describe(generator)),
                                          progress=progress)
    from harness.slot import native  # the C kernel: only this player needs rngcore's extension
    from rngcore.engine import locked_call

    game = native.SimGame(model, MAX_FREE_SPINS, reader=reader)
    result = _empty(model, "C", describe(generator))
    started = time.perf_counter()
    done = 0
    try:
        while done < n:
            step = min(chunk, n - done)
            tally = native.ffi.new("kern_slot_tally *")
            try:
                locked_call(generator, native.lib.kern_slot_simulate, game.ptr, step, tally, what="slot simulation")
            except ValueError:  # RNG_E_ARGUMENT: the chunk's tally is partial; say why
                raise _refusal(model, tally.refused, done, step) from None
            result.add_tally(tally)
            done += step
            if progress is not None:
                progress(done, n)
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - started
    return result


def _check_plays(n: int) -> None:
    if not 1 <= n <= MAX_SIMULATED_PLAYS:
        raise ValueError(f"number of spins must be from 1 to 2**64 - 1 = {MAX_SIMULATED_PLAYS:,} "
                         f"(the simulation counts plays in 64 bits), got {n:,}")


def _refusal(model: SlotModel, reason: int, done: int, step: int) -> Exception:
    """The error for a run the C kernel refused (``tally.refused``)."""
    from harness.slot.native import lib

    after = f"within plays {done + 1:,} to {done + step:,}"
    if reason == lib.KERN_SLOT_REFUSED_OVERFLOW:
        fsp = model.free_spins
        where = "free_spins.retrigger" if fsp is not None and fsp.retrigger else "largest win of one play"
        return ModelError(
            where,
            f"simulation stopped {after}: a play's win, or a total over one chunk of plays, would pass "
            "2**63 - 1 credits, the range of the simulation's 64-bit integers (retriggered free spins "
            "have no fixed limit); lower the pays, the bet or the retrigger awards",
            model.source,
        )
    if reason == lib.KERN_SLOT_REFUSED_RUNAWAY:
        return ModelError(
            "free_spins.retrigger",
            f"simulation stopped {after}: one free-spins feature ran longer than {MAX_FREE_SPINS:,} spins "
            "(runaway guard); lower the retrigger awards",
            model.source,
        )
    return RuntimeError("slot simulation refused: inconsistent game tables (a bug in harness.slot.native)")


# --- numpy ----------------------------------------------------------------------


class _NumpyStage:
    def __init__(self, reels, automaton, paylines):
        self.lengths = reels.lengths
        self.windows = reels.windows
        self.scatters = reels.scatters
        self.delta = automaton.delta
        self.pay = automaton.pay
        self.prog = automaton.prog.astype(bool)
        self.rows = np.array(paylines, dtype=np.intp)  # [line, reel]

    def spin(self, m: int, rng) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(total line pay multiple, scatter count, progressive) for m spins."""
        state = np.zeros((m, self.rows.shape[0]), dtype=np.int32)
        scat = np.zeros(m, dtype=np.int64)
        for r, length in enumerate(self.lengths):
            stops = rng.integers(0, length, size=m)
            cols = self.windows[r][stops]                  # (m, rows)
            state = self.delta[state, cols[:, self.rows[:, r]]]
            scat += self.scatters[r][stops]
        return self.pay[state].sum(axis=1), scat, self.prog[state].any(axis=1)


class NumpyWaysStage:
    """A ways stage paid by the ways rule (:mod:`harness.slot.ways_rule`), vectorised over spins:
    what each reel stop's column gives every paying symbol (``WaysRule.factor``) is tabled once,
    then stepped (``WaysRule.step``) over the reels of the count paid and read (``WaysRule.value``)."""

    def __init__(self, reels, rule: WaysRule):
        self.lengths, self.scatters, self.rule = reels.lengths, reels.scatters, rule
        self.factor = [np.array([[rule.factor(s, col) for s in rule.symbols] for col in w.tolist()],
                                dtype=np.int64).reshape(len(w), len(rule.symbols), len(rule.start))
                       for w in reels.windows]
        self.paid = np.array([[s.paid(n) for n in range(reels.reels + 1)] for s in rule.symbols], dtype=np.intp)
        self.pay = np.array([[s.pays.get(k, 0) for k in range(reels.reels + 1)] for s in rule.symbols],
                            dtype=np.int64)
        self.progress = None
        if rule.progressive is not None:  # per reel stop of its first reels: shows a cell for its run
            symbol, wilds, count = rule.progressive
            self.progress = [np.isin(w, [symbol, *wilds]).any(axis=1) for w in reels.windows[:count]]

    def spin(self, m: int, rng) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(total line pay multiple, scatter count, progressive) for m spins."""
        stops = [rng.integers(0, length, size=m) for length in self.lengths]
        scat = sum(self.scatters[r][s] for r, s in enumerate(stops)).astype(np.int64)
        lines, prog = self.pays(stops)
        return lines, scat, prog

    def pays(self, stops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(total line pay multiple, progressive shown) of the spins with these stops (one array per reel)."""
        factors = [self.factor[r][s] for r, s in enumerate(stops)]  # (m, symbols, sums)
        alive = np.ones(factors[0].shape[:2], dtype=bool)
        run = np.zeros(alive.shape, dtype=np.intp)
        for f in factors:
            alive &= f[..., 0] > 0
            run += alive
        cols = np.arange(len(self.rule.symbols))
        paid = self.paid[cols, run]  # (m, symbols)
        start = self.rule.start
        acc = tuple(np.full(paid.shape, v, dtype=np.int64) for v in start)
        for r, f in enumerate(factors):  # a reel past the count paid steps by the start (the identity)
            use = r < paid
            acc = self.rule.step(acc, tuple(np.where(use, f[..., i], v) for i, v in enumerate(start)))
        lines = (self.pay[cols, paid] * self.rule.value(acc)).sum(axis=1)
        m = len(lines)
        prog = np.zeros(m, dtype=bool)
        if self.progress is not None:
            prog = np.ones(m, dtype=bool)
            for matches, s in zip(self.progress, stops):
                prog &= matches[s]
        return lines, prog


def _numpy_stage(model: SlotModel, reels, *, with_progressive: bool):
    if model.ways:
        return NumpyWaysStage(reels, WaysRule.of(model, with_progressive=with_progressive))
    return _NumpyStage(reels, build_line_automaton(model, with_progressive=with_progressive), model.paylines)


def simulate_numpy(model: SlotModel, n: int, rng, *, chunk: int = 1 << 18,
                   progress: Callable[[int, int], None] | None = None) -> SimulationResult:
    """Play ``n`` spins with vectorised numpy, stops from ``rng.integers(0, L, size)``.

    ``progress(done, n)`` after each chunk; Ctrl-C stops at the next chunk boundary (the result then
    covers the chunks completed, ``interrupted``).
    """
    _check_plays(n)
    features.player_for(model, (features.NUMPY,))
    awards = model.scatter_awards
    hold = _NumpyHoldSpin(model) if model.hold_and_spin is not None else None
    bonus = _NumpyBonus(model) if model.bonus is not None else None
    mystery = MysteryDraw(model) if model.mystery else None
    base = _numpy_stage(model, base_reelset(model), with_progressive=True)
    feat = _numpy_stage(model, feature_reelset(model), with_progressive=False) if model.free_spins else None
    jackpot = np.full(awards.width, -1, dtype=np.int64)  # the reset of the level a window cell wins, -1 none
    for level, cells in zip(model.jackpots, level_cells(model)):
        jackpot[cells] = level.reset
    result = _empty(model, "numpy", describe(rng))
    started = time.perf_counter()
    try:
        _numpy_chunks(model, n, rng, chunk, result, progress, base, feat, hold, bonus, mystery, jackpot)
    except KeyboardInterrupt:
        result.interrupted = True
    result.seconds = time.perf_counter() - started
    return result


def _numpy_chunks(model, n, rng, chunk, result, progress, base, feat, hold, bonus, mystery, jackpot) -> None:
    """The plays of :func:`simulate_numpy`, ``chunk`` at a time, each chunk added to ``result`` whole."""
    awards = model.scatter_awards
    scat_pay, trigger, retrig = (np.array(t, dtype=np.int64) for t in (awards.pay, awards.trigger, awards.retrigger))
    mult = model.free_spins.multiplier if model.free_spins else 1
    bpl, tb = model.bet_per_line, model.total_bet
    done = 0
    while done < n:
        m = min(chunk, n - done)
        part = SimulationResult()  # added to result whole: Ctrl-C leaves no chunk half-counted
        lines, scat, prog = base.spin(m, rng)
        line_win = lines * bpl
        scatter_win = scat_pay[scat] * tb
        win = line_win + scatter_win
        feature_win = np.zeros(m, dtype=np.int64)
        remaining = trigger[scat].copy()
        part.features += int(np.count_nonzero(remaining))
        active = np.flatnonzero(remaining)
        while active.size:
            if feat is None:
                raise AssertionError("free spins triggered without a feature")
            fl, fs, _ = feat.spin(active.size, rng)
            feature_win[active] += mult * (fl * bpl + scat_pay[fs] * tb)
            remaining[active] += retrig[fs] - 1
            part.free_spins += active.size
            active = active[remaining[active] > 0]
        feature_started = trigger[scat] > 0
        if hold is not None:
            held = hold.coins[scat] >= hold.trigger
            feature_started |= held
            part.features += int(np.count_nonzero(held))
            for play in np.flatnonzero(held).tolist():
                feature_win[play] += hold.play(int(hold.coins[scat[play]]), rng) * tb
        if bonus is not None:
            bonused = bonus.starts[scat]
            feature_started |= bonused
            part.features += int(np.count_nonzero(bonused))
            for play in np.flatnonzero(bonused).tolist():
                feature_win[play] += bonus.play(rng) * tb
        if model.cap is not None:  # the cap takes the excess of the capped win, progressives outside it
            over = np.maximum(line_win + scatter_win + feature_win - model.cap * tb, 0)
            part.cap_cut += int(over.sum())
            win = win - over
        level_reset = jackpot[scat]
        jackpot_hit = level_reset >= 0
        feature_started |= jackpot_hit
        part.jackpot_hits += int(np.count_nonzero(jackpot_hit))
        part.jackpot_win += int(level_reset[jackpot_hit].sum())
        win = win + feature_win + prog * model_reset(model) + np.where(jackpot_hit, level_reset, 0)
        if mystery is not None:
            hit, won = mystery.spin(m, rng)
            feature_started |= hit
            part.mystery_win += int(won.sum())
            win = win + won
        part.plays += m
        part.hits += int(np.count_nonzero((line_win + scatter_win > 0) | feature_started | prog))
        part.line_win += int(line_win.sum())
        part.scatter_win += int(scatter_win.sum())
        part.feature_win += int(feature_win.sum())
        part.progressive_hits += int(np.count_nonzero(prog))
        part.win_sq += _sum_squares(win)
        part.max_win = max(part.max_win, int(win.max(initial=0)))
        result.absorb(part)
        done += m
        if progress is not None:
            progress(done, n)


class _NumpyHoldSpin:
    """Which windows start the hold-and-spin feature, played by :func:`harness.slot.hold_spin.play`
    from ``rng.integers`` (bounded integers only)."""

    def __init__(self, model: SlotModel):
        h = model.hold_and_spin
        code = model.scatter_code
        i = code.symbols.index(h.symbol)
        self.coins = np.array([code.count(k, i) if k < code.cells else 0
                               for k in range(model.scatter_awards.width)], dtype=np.int64)
        self.trigger, self.feature = h.trigger, h
        self.positions = model.rows * model.reels

    def play(self, n: int, rng) -> int:
        """The feature's win (total bets) started with ``n`` coins."""
        return hold_spin.play(self.feature, self.positions, n, NumpyDraws(rng))


class _NumpyBonus:
    """Which windows start the wheel or pick bonus, played by :func:`harness.slot.bonus.play` from
    ``rng.integers`` (bounded integers only)."""

    def __init__(self, model: SlotModel):
        b = model.bonus
        cells = starting_cells(model, b.symbol, b.trigger)
        self.starts = np.array([k in cells for k in range(model.scatter_awards.width)], dtype=bool)
        self.bonus = b

    def play(self, rng) -> int:
        """The bonus's win (total bets)."""
        return bonus_rules.play(self.bonus, NumpyDraws(rng))


def _sum_squares(win: np.ndarray) -> int:
    """Exact sum of squares (int64 only when it cannot overflow)."""
    top = int(win.max(initial=0))
    if top * top * len(win) < 2**63:
        return int((win * win).sum())
    big = win[win > 0].tolist()
    return sum(x * x for x in big)


def model_reset(model: SlotModel) -> int:
    return model.progressive.reset if model.progressive else 0
