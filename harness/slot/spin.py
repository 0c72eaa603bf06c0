"""One play of a slot model: the reel stops drawn, what they show, and the award in whole credits.

A play is the paid spin and every free spin it starts (000 第10 4-3-ロ counts
a feature in the play's return).  :meth:`Player.spin` draws a play from a
generator; :meth:`Player.evaluate` computes the play its recorded stops describe,
so a journaled play is re-derived (replay) or re-shown (recall) from its
stops alone.  Both read the model's own tables, the ones the exact
analysis and the simulation read: the reel windows of
:func:`~harness.slot.reelset.base_reelset` / ``feature_reelset`` (stop
weights and expanding wilds included), a window's lines or ways read by
:func:`harness.slot.window.line_reading` (the analysis' reading, wilds and
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

Played: paylines and ways, every scatter's pays, stop weights, expanding
wilds, wild multipliers, free spins with retriggers and their multiplier,
the wheel and pick bonuses and the award cap.  Not played
(:func:`check_playable` refuses the model naming the section): the features
with a meter or a state of their own (the combination progressive, mystery
and jackpot levels), hold and spin, cascades, both-ways pays, reel heights
and sticky wilds.  The model's bet (``total_bet`` credits) is the one stake
played.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from harness.slot import bonus as bonus_rules
from harness.slot.draws import GeneratorDraws, RecordedDraws, bounded
from harness.slot.errors import ModelError
from harness.slot.exact import starting_cells
from harness.slot.limits import MAX_FREE_SPINS
from harness.slot.model import SlotModel
from harness.slot.reelset import base_reelset, feature_reelset
from harness.slot.window import line_reading


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

    @property
    def award(self) -> int:
        return self.line_win + self.scatter_win + self.feature_win - self.capped

    @property
    def stops(self) -> list[list[int]]:
        """Every spin's stops, the paid spin first (what a journal records)."""
        return [list(s.stops) for s in self.spins]


def check_playable(model: SlotModel) -> None:
    """ModelError naming the first section of ``model`` that :class:`Player` does not play (see the module doc)."""
    features = (("progressive", model.progressive), ("mystery", model.mystery), ("jackpot", model.jackpots),
                ("hold_and_spin", model.hold_and_spin), ("cascade", model.cascade),
                ("bet.both_ways", model.both_ways), ("window.heights", model.heights),
                ("sticky", any(s.sticky for s in model.symbols)))
    for section, feature in features:
        if feature:
            raise ModelError(section, f"a single play does not play the {section.replace('_', '-')} feature "
                             "(harness.slot.spin plays lines, ways, scatters, free spins, bonuses and the cap)",
                             model.source)


class _Stage:
    """One kind of spin (paid or free): its reel windows, its line automaton, its awards."""

    def __init__(self, model: SlotModel, feature: bool, read):
        self.reels = (feature_reelset if feature else base_reelset)(model)
        self.read = read  # harness.slot.window.line_reading: the analysis' rule for a window's lines or ways
        awards = model.scatter_awards
        self.awarded = awards.retrigger if feature else awards.trigger
        self.scatter = awards.pay
        self.bounds = np.array(self.reels.lengths, dtype=np.uint32)
        weights = model.feature_weights if feature else model.base_weights
        self.physical = None if weights is None else [np.repeat(np.arange(1, len(w) + 1), w) for w in weights]
        self.names = model.symbol_names
        self.multiplier = model.free_spins.multiplier if feature else 1
        self.bet_per_line, self.total_bet = model.bet_per_line, model.total_bet

    def draw(self, generator) -> tuple[int, ...]:
        return bounded(generator, self.bounds, "drawing a spin's reel stops")

    def evaluate(self, stops) -> SpinResult:
        columns = tuple(tuple(self.reels.windows[r][s].tolist()) for r, s in enumerate(stops))
        line_pay = sum(pay for pay, _ in self.read(columns))
        cell = sum(int(self.reels.scatters[r][s]) for r, s in enumerate(stops))
        scatter_pay = self.scatter[cell]
        win = self.multiplier * (line_pay * self.bet_per_line + scatter_pay * self.total_bet)
        window = tuple(tuple(self.names[x] for x in column) for column in columns)
        positions = tuple(s + 1 for s in stops) if self.physical is None else \
            tuple(int(self.physical[r][s]) for r, s in enumerate(stops))
        return SpinResult(tuple(stops), positions, window, line_pay, scatter_pay, self.awarded[cell], win, cell)

    def check(self, stops, which: str) -> tuple[int, ...]:
        if not isinstance(stops, (list, tuple)) or len(stops) != len(self.bounds) or not all(
                type(s) is int and 0 <= s < b for s, b in zip(stops, self.bounds.tolist())):
            raise ValueError(f"{which}: {stops!r} is not {len(self.bounds)} virtual stops, reel r's from 0 to "
                             f"its stops - 1 ({', '.join(str(b) for b in self.bounds.tolist())})")
        return tuple(stops)


class Player:
    """The plays of one model, its tables built once: whoever plays a model many times (a round
    engine, a test) builds one and keeps it."""

    def __init__(self, model: SlotModel):
        check_playable(model)
        self.model = model
        read = line_reading(model)
        self.base = _Stage(model, False, read)
        self.free = _Stage(model, True, read) if model.free_spins is not None else None
        self.starts = {} if model.bonus is None else starting_cells(model, model.bonus.symbol, model.bonus.trigger)

    def spin(self, generator) -> Play:
        """Draw a play: the paid spin, then each free spin once it is owed, then the bonus it started."""
        return self._play(lambda stage, n: stage.draw(generator), GeneratorDraws(generator, "a bonus pick"))

    def evaluate(self, stops, bonus=()) -> Play:
        """The play whose spins stopped at ``stops`` (the paid spin's, then each free spin's) and whose
        bonus drew ``bonus``; ValueError if they are not one play of this model (a stop out of range,
        too few or too many free spins or bonus draws)."""
        if not isinstance(stops, (list, tuple)) or not stops:
            raise ValueError(f"{stops!r} is not a play's stops (a list of spins, the paid spin first)")
        given, picks = iter(stops), RecordedDraws(bonus, "the bonus")

        def recorded(stage, n):
            spin = next(given, None)
            if spin is None:
                raise ValueError(f"the play owes free spin {n} but its stops end after {n} spin(s)")
            return stage.check(spin, "the paid spin" if n == 0 else f"free spin {n}")

        play = self._play(recorded, picks)
        if next(given, None) is not None:
            raise ValueError(f"the play has {len(play.spins) - 1} free spin(s) but {len(stops) - 1} are recorded")
        picks.check_used()
        return play

    def _play(self, stops_of, bonus_draws) -> Play:
        base = self.base.evaluate(stops_of(self.base, 0))
        spins, owed = [base], base.spins_awarded
        while owed:
            if len(spins) > MAX_FREE_SPINS:
                raise ModelError("free_spins.retrigger", f"one play ran more than {MAX_FREE_SPINS:,} free spins "
                                 "(runaway guard); lower the retrigger awards", self.model.source)
            free = self.free.evaluate(stops_of(self.free, len(spins)))
            spins.append(free)
            owed += free.spins_awarded - 1
        tb = self.model.total_bet
        line_win, scatter_win = base.line_pay * self.model.bet_per_line, base.scatter_pay * tb
        bonus_win = bonus_rules.play(self.model.bonus, bonus_draws) if base.cell in self.starts else 0
        bonus = tuple(bonus_draws.made if isinstance(bonus_draws, GeneratorDraws) else bonus_draws.values)
        feature_win = sum(s.win for s in spins[1:]) + bonus_win * tb
        cap = None if self.model.cap is None else self.model.cap * tb
        capped = 0 if cap is None else max(0, line_win + scatter_win + feature_win - cap)
        return Play(tuple(spins), tb, line_win, scatter_win, feature_win, capped, bonus, bonus_win * tb)


__all__ = ["Play", "Player", "SpinResult", "check_playable"]
