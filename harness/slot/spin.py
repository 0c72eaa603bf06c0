"""One play of a slot model: the reel stops drawn, what they show, and the award in whole credits.

A play is the paid spin and every free spin it starts (000 第10 4-3-ロ counts
a feature in the play's return).  :meth:`Player.spin` draws a play from a
generator; :meth:`Player.evaluate` computes the play its recorded stops describe,
so a journaled play is re-derived (replay) or re-shown (recall) from its
stops alone.  Both read the model's own tables, the ones the exact
analysis and the simulation read: the reel windows of
:func:`~harness.slot.reelset.base_reelset` / ``feature_reelset`` (stop
weights and expanding wilds included), a window's lines or ways read by
:func:`harness.slot.reading.line_reading` (the analysis' reading, wilds and
their multipliers included) and the scatter awards of
:attr:`~harness.slot.model.SlotModel.scatter_awards`.

Stops are the reels' *virtual* stops (``0 .. W - 1``, W the reel's total
stop weight; for an unweighted reel, its physical stops from 0), each drawn
with the unbiased bounded draw the simulation and the ``slot:MODEL``
device use (``kern_slot_stops``: ``rng_bounded32``, reel 1 first, one spin
at a time).  A free spin is drawn only once the spin before it has shown
that it is owed, so a play's draws are exactly its stops.

The wheel or pick bonus the paid spin starts is played after the free
spins by :func:`harness.slot.bonus.play`, the rule the simulation plays
too, each of its draws the same bounded draw on one "reel" of that many
stops (:mod:`harness.slot.draws`); a play records them (``bonus``) beside
its stops.

With reel heights per spin, each reel's height is drawn (below its heights'
total weight) just before its stop, reel by reel, on the paid spin and again
on every free spin (``heights``: one list per spin); a cascade's
refills are drawn by the window player's rule
(:meth:`harness.slot.window_player.WindowGame.sequence`, ``refills``), each
free spin of a cascade game a whole sequence of its own whose refills follow
its stops, and a cascade spin's scatters are counted in its sequence's last
window (docs/slot_model.md, "Cascades with scatters and free spins"); sticky
wilds are laid over the free spins as :mod:`harness.slot.sticky` says (a
retrigger awarding what is left below ``free_spins.max_spins``); the
hold-and-spin feature is played by :func:`harness.slot.hold_spin.play`
(``hold``) after the free spins and before the bonus.  Every one of these
draws is recorded, so :meth:`Player.evaluate` re-derives the play.

Played: paylines, ways, both-ways pays, reel heights, cascades (with
scatters and free spins too), every scatter's pays, stop weights, expanding
wilds, wild multipliers, sticky wilds, free spins with retriggers and their
multiplier (with reel heights too), hold and spin, the wheel and pick bonuses
and the award cap.  A play says which of the model's
meters it hits (the combination progressive, the jackpot and mystery levels:
:mod:`harness.slot.meters`; the mystery draw is the play's last, ``mystery``);
what a hit pays is the meter's value, kept by whoever plays the plays in
order (:mod:`harness.rounds.meters`), outside the cap.  The model's bet
(``total_bet`` credits) is the one stake played.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from harness.slot import bonus as bonus_rules, hold_spin
from harness.slot.draws import GeneratorDraws, RecordedDraws, bounded, falls_in
from harness.slot.errors import ModelError
from harness.slot.height_reels import height_draws
from harness.slot.exact import starting_cells
from harness.slot.limits import MAX_FREE_SPINS
from harness.slot.meters import MeterHits
from harness.slot.model import SlotModel
from harness.slot.reelset import base_reelset, expand_column, feature_reelset
from harness.slot.sticky import sticky_symbols
from harness.slot.reading import line_reading
from harness.slot.window import scatter_cell


@dataclasses.dataclass(frozen=True)
class SpinResult:
    """One spin of a play (the paid one or a free one).

    Attributes
    ----------
    stops : tuple of int
        The virtual stop of each reel, reel 1 first.
    positions : tuple of int
        The physical stop each shows, numbered ``1..L`` as the model's strips are (docs/slot_model.md).
    window : tuple of tuple of str
        The symbols each reel shows, top row first (expanding wilds expanded).
    line_pay : int
        The lines' pay, a multiple of the bet per line (wild multipliers included).
    scatter_pay : int
        The scatters' pay, a multiple of the total bet.
    spins_awarded : int
        Free spins this spin awards (a trigger in the paid spin, a retrigger in a free one).
    win : int
        Credits this spin wins (a free spin's with the feature's multiplier).
    """

    stops: tuple[int, ...]
    positions: tuple[int, ...]
    window: tuple[tuple[str, ...], ...]
    line_pay: int
    scatter_pay: int
    spins_awarded: int
    win: int
    cell: int = 0  # the window's scatter cell (harness.slot.model.ScatterCode)
    heights: tuple[int, ...] = ()  # the spin's height draws, reel 1 first (reel heights per spin)


@dataclasses.dataclass(frozen=True)
class Play:
    """A whole play: its spins, its stake and its award, in credits.

    ``award = min(line_win + scatter_win + feature_win, cap)``, the cap being
    the model's ``cap`` times its total bet (none: no cap); ``capped`` is what
    the cap took.  ``feature_win`` is the free spins' wins plus ``bonus_win``,
    what the bonus paid after its draws ``bonus`` (empty: no bonus played).
    """

    spins: tuple[SpinResult, ...]
    stake: int
    line_win: int
    scatter_win: int
    feature_win: int
    capped: int
    bonus: tuple[int, ...] = ()
    bonus_win: int = 0
    hold: tuple[int, ...] = ()  # the hold-and-spin feature's draws (harness.slot.hold_spin.play)
    hold_win: int = 0
    refills: tuple[int, ...] = ()  # a cascade's refill draws, in the order the chain drew them
    mystery: tuple[int, ...] = ()  # the mystery levels' draw (harness.slot.meters), for a model with them
    meters: tuple[str, ...] = ()  # the meters the play hits (harness.slot.meters): paid their values, uncapped

    @property
    def award(self) -> int:
        return self.line_win + self.scatter_win + self.feature_win - self.capped

    @property
    def stops(self) -> list[list[int]]:
        """Every spin's stops, the paid spin first (what a journal records)."""
        return [list(s.stops) for s in self.spins]

    @property
    def heights(self) -> list[list[int]]:
        """Every spin's height draws, the paid spin first (none without reel heights per spin)."""
        return [list(s.heights) for s in self.spins] if self.spins[0].heights else []


class _Stage:
    """One kind of spin (paid or free): its reel windows, its reading of a window, its awards."""

    def __init__(self, model: SlotModel, feature: bool, read):
        self.reels = (feature_reelset if feature else base_reelset)(model)
        self.read = read  # harness.slot.reading.line_reading: the analysis' rule for a window's lines or ways
        awards = model.scatter_awards
        self.awarded = awards.retrigger if feature else awards.trigger
        self.scatter = awards.pay
        self.bounds = np.array(self.reels.lengths, dtype=np.uint32)
        weights = model.feature_weights if feature else model.base_weights
        self.physical = None if weights is None else [np.repeat(np.arange(1, len(w) + 1), w) for w in weights]
        self.names, self.code = model.symbol_names, model.scatter_code
        self.multiplier = model.free_spins.multiplier if feature else 1
        self.bet_per_line, self.total_bet = model.bet_per_line, model.total_bet
        # reel heights drawn on every spin, a free one's too: per reel, its heights and their weights
        self.heights = None if model.heights is None else [tuple(zip(*hs)) for hs in model.heights]
        self.height_draws = None if model.heights is None else height_draws(model)  # per reel: its height draw's bound
        # per reel, per stop, as Python tuples: the column shown, its symbols' names, its scatter cell
        self.shown = [[tuple(col) for col in w.tolist()] for w in self.reels.windows]
        # with reel heights a column is cut to its height before its expanding wilds expand over the rows shown
        self.expanding = model.expanding if model.heights is not None else ()
        self.raw = self.shown if not self.expanding else [
            [tuple(col) for col in w.tolist()]
            for w in (feature_reelset if feature else base_reelset)(model, expanded=False).windows]
        self.named = [[tuple(self.names[x] for x in col) for col in reel] for reel in self.shown]
        self.cells = [c.tolist() for c in self.reels.scatters]
        self.chain = None  # a cascade game's window chain (harness.slot.window_player)
        if model.cascade is not None:  # every spin a whole cascade sequence, a free spin's too
            from harness.slot.window_player import WindowGame

            self.chain = WindowGame(model)

    def draw(self, generator) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(stops, height draws) of a spin: reel by reel, its height (if drawn) then its stop, in one call."""
        if self.heights is None:
            return bounded(generator, self.bounds, "drawing a spin's reel stops"), ()
        bounds = [b for total, length in zip(self.height_draws, self.bounds.tolist()) for b in (total, length)]
        got = bounded(generator, bounds, "drawing a spin's reel heights and stops")
        return got[1::2], got[0::2]

    def columns(self, stops, heights=(), sticky=None) -> tuple[tuple[int, ...], ...]:
        """The window the stops show (symbol indices, columns top row first): each reel's drawn height
        of it, the sticky wilds ``sticky`` (per reel, per row: the wild stuck there or -1) laid over it."""
        if heights:
            columns = tuple(expand_column(col, self.expanding) for col in self.cut(stops, heights))
        else:
            columns = tuple(self.shown[r][s] for r, s in enumerate(stops))
        if sticky is not None:
            columns = tuple(tuple(x if x >= 0 else y for x, y in zip(stuck, col)) for col, stuck in zip(columns, sticky))
        return columns

    def cut(self, stops, heights) -> tuple[tuple[int, ...], ...]:
        """The cells each reel shows at the height draws ``heights``, before any wild expands."""
        return tuple(self.raw[r][s][:hs[falls_in(ws, d)]]
                     for r, (s, (hs, ws), d) in enumerate(zip(stops, self.heights, heights)))

    def evaluate(self, stops, columns, refills=None, *, laid: bool = False, heights=()) -> SpinResult:
        """The spin that stopped at ``stops`` at the height draws ``heights`` showing ``columns`` (``laid``:
        with sticky wilds laid over);
        a cascade game's chain drawn from ``refills``, its scatters counted in the sequence's last window
        (docs/slot_model.md, "Cascades with scatters and free spins")."""
        last = None
        if self.chain is not None:  # every term is a line pay x bet per line x a ladder rung
            credits, _, last = self.chain.sequence(columns, refills)
            line_pay = credits // self.bet_per_line
        else:
            line_pay = sum(pay for pay, _ in self.read(columns))
        if last is not None and self.code.symbols:  # scatters never cascade away: the last window's count
            cell = scatter_cell(self.code, last)
            window = tuple(tuple(self.names[x] for x in column) for column in columns)
        elif self.heights is None and not laid:  # the window the stops show, as the tables have it
            cell = sum(self.cells[r][s] for r, s in enumerate(stops))
            window = tuple(self.named[r][s] for r, s in enumerate(stops))
        else:  # heights drawn or wilds laid over: read the window itself (scatters before wilds expand)
            cell = scatter_cell(self.code, columns if laid or not heights else self.cut(stops, heights))
            window = tuple(tuple(self.names[x] for x in column) for column in columns)
        scatter_pay = self.scatter[cell]
        win = self.multiplier * (line_pay * self.bet_per_line + scatter_pay * self.total_bet)
        positions = tuple(s + 1 for s in stops) if self.physical is None else \
            tuple(int(self.physical[r][s]) for r, s in enumerate(stops))
        return SpinResult(tuple(stops), positions, window, line_pay, scatter_pay, self.awarded[cell], win, cell,
                          tuple(heights))

    def check(self, stops, which: str) -> tuple[int, ...]:
        if not isinstance(stops, (list, tuple)) or len(stops) != len(self.bounds) or not all(
                type(s) is int and 0 <= s < b for s, b in zip(stops, self.bounds.tolist())):
            raise ValueError(f"{which}: {stops!r} is not {len(self.bounds)} virtual stops, reel r's from 0 to "
                             f"its stops - 1 ({', '.join(str(b) for b in self.bounds.tolist())})")
        return tuple(stops)

    def check_heights(self, draws, which: str) -> tuple[int, ...]:
        recorded = RecordedDraws(draws, f"{which}'s reel heights")
        got = tuple(recorded.one(total) for total in self.height_draws)
        recorded.check_used()
        return got


_KINDS = ("bonus", "hold", "refills", "mystery")  # a play's draws besides its stops and heights, as a journal names them
_WHAT = {"bonus": "the bonus", "hold": "the hold-and-spin feature", "refills": "the cascade's refills",
         "mystery": "the mystery levels"}


class Player:
    """The plays of one model, its tables built once: whoever plays a model many times (a round
    engine, a test) builds one and keeps it."""

    def __init__(self, model: SlotModel):
        self.model = model
        read = line_reading(model)
        self.base = _Stage(model, False, read)
        self.free = _Stage(model, True, read) if model.free_spins is not None else None
        self.starts = {} if model.bonus is None else starting_cells(model, model.bonus.symbol, model.bonus.trigger)
        self.wilds = sticky_symbols(model)
        self.empty = tuple((-1,) * model.rows for _ in range(model.reels))
        self.meters = MeterHits(model)

    def spin(self, generator) -> Play:
        """Draw a play: the paid spin (and its cascade), then each free spin once it is owed, then the
        hold-and-spin feature and the bonus it started."""
        return self._play(lambda stage, n: stage.draw(generator),
                          {kind: GeneratorDraws(generator, _WHAT[kind]) for kind in _KINDS})

    def evaluate(self, stops, bonus=(), *, heights=(), hold=(), refills=(), mystery=()) -> Play:
        """The play whose spins stopped at ``stops`` (the paid spin's, then each free spin's), its reels at
        the height draws ``heights`` (one list per spin, as :attr:`Play.heights`), and whose bonus,
        hold-and-spin feature, cascade and mystery levels drew ``bonus``, ``hold``, ``refills`` and
        ``mystery``; ValueError if they are not one play of this model (a draw out of range, too few or too
        many free spins or draws)."""
        if not isinstance(stops, (list, tuple)) or not stops:
            raise ValueError(f"{stops!r} is not a play's stops (a list of spins, the paid spin first)")
        drawn = self.model.heights is not None
        if not isinstance(heights, (list, tuple)) or (heights and not drawn):
            raise ValueError(f"{heights!r} is not a play's height draws (a list per spin, the paid spin first, for "
                             "a model with reel heights per spin)")
        given, given_heights = iter(stops), iter(heights)
        draws = {kind: RecordedDraws(values, _WHAT[kind])
                 for kind, values in zip(_KINDS, (bonus, hold, refills, mystery))}

        def recorded(stage, n):
            spin, which = next(given, None), "the paid spin" if n == 0 else f"free spin {n}"
            if spin is None:
                raise ValueError(f"the play owes free spin {n} but its stops end after {n} spin(s)")
            if not drawn:
                return stage.check(spin, which), ()
            spin_heights = next(given_heights, None)
            if spin_heights is None:
                raise ValueError(f"the play owes {which}'s reel heights but its height draws end after {n} spin(s)")
            return stage.check(spin, which), stage.check_heights(spin_heights, which)

        play = self._play(recorded, draws)
        if next(given, None) is not None:
            raise ValueError(f"the play has {len(play.spins) - 1} free spin(s) but {len(stops) - 1} are recorded")
        if next(given_heights, None) is not None:
            raise ValueError(f"the play has {len(play.spins)} spin(s) but {len(heights)} spins' height draws are "
                             "recorded")
        for kind in _KINDS:
            draws[kind].check_used()
        return play

    def _play(self, stops_of, draws) -> Play:
        m = self.model
        stops, heights = stops_of(self.base, 0)
        paid = self.base.columns(stops, heights)  # the paid spin's window: the meters read it, not a free spin's
        base = self.base.evaluate(stops, paid, draws["refills"], heights=heights)
        spins, owed = [base], base.spins_awarded
        awarded, sticky = owed, self.empty if self.wilds else None  # the paid spin's wilds do not stick
        while owed:
            if len(spins) > MAX_FREE_SPINS:
                raise ModelError("free_spins.retrigger", f"one play ran more than {MAX_FREE_SPINS:,} free spins "
                                 "(runaway guard); lower the retrigger awards", m.source)
            stops, heights = stops_of(self.free, len(spins))  # each free spin draws its reels' heights again
            columns = self.free.columns(stops, heights, sticky=sticky)
            free = self.free.evaluate(stops, columns, draws["refills"], laid=sticky is not None, heights=heights)
            spins.append(free)
            more = free.spins_awarded
            if m.free_spins.max_spins is not None:  # a retrigger awards what is left below the cap
                more = min(more, m.free_spins.max_spins - awarded)
            awarded, owed = awarded + more, owed + more - 1
            if sticky is not None:  # every position showing a sticky wild keeps it from the next spin on
                sticky = tuple(tuple(x if x in self.wilds else -1 for x in col) for col in columns)
        tb = m.total_bet
        line_win, scatter_win = base.line_pay * m.bet_per_line, base.scatter_pay * tb
        hold_win = 0
        if m.hold_and_spin is not None:
            h = m.hold_and_spin
            coins = m.scatter_code.count(base.cell, m.scatter_code.symbols.index(h.symbol))
            if coins >= h.trigger:
                hold_win = hold_spin.play(h, m.rows * m.reels, coins, draws["hold"]) * tb
        bonus_win = bonus_rules.play(m.bonus, draws["bonus"]) * tb if base.cell in self.starts else 0
        meters = self.meters.hits(paid, base.cell, draws["mystery"])  # the play's last draw
        made = {kind: tuple(d.made if isinstance(d, GeneratorDraws) else d.values) for kind, d in draws.items()}
        feature_win = sum(s.win for s in spins[1:]) + hold_win + bonus_win
        cap = None if m.cap is None else m.cap * tb
        capped = 0 if cap is None else max(0, line_win + scatter_win + feature_win - cap)
        return Play(tuple(spins), tb, line_win, scatter_win, feature_win, capped, made["bonus"], bonus_win,
                    hold=made["hold"], hold_win=hold_win, refills=made["refills"],
                    mystery=made["mystery"], meters=meters)


__all__ = ["Play", "Player", "SpinResult"]
