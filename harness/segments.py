"""A long simulation played in segments: checkpoints between them, and the convergence trace.

A certification's simulation is played in partitions cut at these segments'
ends (:func:`harness.game_partitions.play_traced`, through the adapters
below); :func:`play` is how an engine without children (an SP 800-90A DRBG,
which cannot spawn) plays it instead.

A simulation of N rounds (a table game's, a slot's) is played by :func:`play` as consecutive
*segments* on one generator: each segment is one whole call of the game's
simulator (:meth:`harness.games.base.Game.simulate`,
:func:`harness.slot.simulate.simulate`), so it starts a fresh table (a new
shoe, a new shooter) and draws on where the previous segment stopped in the
generator's output.  The boundaries depend on N alone (:func:`boundaries`),
so every run of one plan plays the same segments.

After each segment but the last, the totals so far, the convergence trace and
the generator's position are written as JSON whose SHA-256 is checked on
reading (:class:`harness.certify.checkpoint.Partial`; no pickle, nothing in it
is run).  A resumed run rebuilds the generator, seeks it to that position,
and plays the remaining segments, so it ends with the totals, trace and final
position of an uninterrupted run.  An engine that cannot seek (the SP 800-90A
DRBGs) plays the simulation again from its start; in production mode (no
replay) the saved totals are kept and the remaining segments draw fresh bits:
nothing is lost or counted twice, but the run cannot be replayed anyway.

The trace has one point per segment boundary: the running return of every bet
(a slot: its RTP) with its 99.9% interval, against the exact figure.

Any game of the registry gets all of this with no code of its own: the game
adapter only needs what every game's simulation returns (a
:class:`harness.games.simulate.Simulation` of bets with their counts and an
outcome fit made by :func:`harness.games.simulate.goodness_of_fit`).
"""
from __future__ import annotations

import dataclasses
import json
import math
import re
from fractions import Fraction
from typing import Callable

#: Boundaries of the quadratic schedule: N (j / POINTS)^2, j = 1..POINTS (dense early, where the
#: running return still moves; the last segment is about 6% of N).
POINTS = 16
#: Rounds a segment has at least (a segment costs its simulator's set-up, up to about a second).
MIN_SEGMENT = 2000
FORMAT = 1


def boundaries(total: int, minimum: int | None = None) -> list[int]:
    """Cumulative rounds at the end of each segment of a run of ``total`` rounds (the last is ``total``):
    :data:`POINTS` points of the quadratic schedule (:func:`harness.partitions.schedule`, where every
    cut of a run lives), segments of at least :data:`MIN_SEGMENT` rounds.

    >>> boundaries(20_000)
    [2813, 5000, 7813, 11250, 15313, 17579, 20000]
    """
    from harness.partitions import schedule

    return [end for _, end in schedule(total, POINTS, MIN_SEGMENT if minimum is None else minimum)]


@dataclasses.dataclass
class _Run:
    total: object = None  # the merged result so far
    saved: dict | None = None  # a checkpoint's totals, merged into the next segment played
    done: int = 0
    trace: list = dataclasses.field(default_factory=list)


def play(rounds: int, adapter, generator, *, progress: Callable[[int, int], None] | None = None, partial=None):
    """Play ``rounds`` in segments through ``adapter`` (:class:`GameSegments`, :class:`SlotSegments`).

    Parameters
    ----------
    generator : rngcore.Generator
        A fresh generator (on a resumed run, built as the first run built it: it is sought to the
        checkpoint's position here).
    partial : harness.certify.checkpoint.Partial, optional
        Where the checkpoint between segments lives; None plays without one.

    Returns
    -------
    (result, trace)
        The adapter's merged result (interrupted when Ctrl-C stopped a segment: the rounds played
        are all counted) and the convergence trace (:meth:`GameSegments.point` per boundary).
    """
    run = _Run()
    state = _load(partial, rounds, generator)
    if state is not None:
        run.saved, run.done, run.trace = state["totals"], state["done"], state["trace"]
    ends = boundaries(rounds)
    for end in ends:
        if end <= run.done:
            continue
        base = run.done
        tick = None if progress is None else (lambda d, n, base=base: progress(base + d, rounds))
        part = adapter.play(end - base, generator, tick)
        if run.saved is not None:
            run.total, run.saved = adapter.merge(adapter.load(run.saved, part), part), None
        else:
            run.total = part if run.total is None else adapter.merge(run.total, part)
        run.done = adapter.rounds(run.total)
        if part.interrupted:
            break
        run.trace.append(adapter.point(run.total))
        if partial is not None and end < rounds:
            document = {"format": FORMAT, "rounds": rounds, "done": run.done, "position": generator.position,
                        "totals": adapter.dump(run.total), "trace": run.trace}
            partial.save(run.done, json.dumps(document).encode())  # key order kept: float sums follow it
    return adapter.finish(run.total, rounds), run.trace


def _load(partial, rounds: int, generator) -> dict | None:
    """The checkpoint to go on from, with ``generator`` sought to its position; None to start afresh."""
    saved = None if partial is None else partial.load()
    if saved is None:
        return None
    try:
        state = json.loads(saved[1].decode("utf-8"))
        if state.get("format") != FORMAT or state.get("rounds") != rounds:
            return None
        if state["position"] is not None:
            generator.seek(state["position"])
    except ValueError:  # not ours, or an engine that cannot seek: play from the start
        return None
    return state


def trace_json(trace: list, unit: str, exact: dict) -> dict:
    """The report's ``convergence`` block: the points, the exact figure of each series
    (``{name: Fraction}``) and what they mean."""
    return {"unit": unit, "level": 0.999, "points": trace,
            "exact": {name: {"rtp": f"{x.numerator}/{x.denominator}", "rtp_float": float(x)}
                      for name, x in exact.items()},
            "note": "running return at the end of each segment of the simulation, with its 99.9% interval"}


# -- table games ----------------------------------------------------------------------------------

_TALLY = re.compile(r"(?<=: )\d[\d,]*")


def _merge_text(first: str, second: str) -> str:
    """Two segments' descriptions as one: a number right after ``": "`` is a tally and is summed
    (``shoes shuffled: 12``); texts that differ otherwise keep the first's (equal ones stay)."""
    if _TALLY.split(first) != _TALLY.split(second):
        return first
    added = iter(int(x.replace(",", "")) + int(y.replace(",", ""))
                 for x, y in zip(_TALLY.findall(first), _TALLY.findall(second)))
    return _TALLY.sub(lambda m: f"{next(added):{',' if ',' in m.group() else ''}}", first)


def _pending_fit(first: tuple, later: tuple):
    """The outcome counts of two segments, summed; the chi-square itself is left to
    :meth:`GameSegments.finish` (it costs up to a fraction of a second on thousands of classes).
    The exact probabilities and labels, one simulation's, are the first segment's (a later
    partition sends none: :mod:`harness.game_partitions`)."""
    from harness.games.simulate import FitResult

    counts = [int(a) + int(b) for a, b in zip(first[0], later[0], strict=True)]
    return FitResult(None, None, None, 0, 0, inputs=(tuple(counts), *first[1:]))


class GameSegments:
    """A registered game's simulation, segment by segment (any game: see the module docstring)."""

    unit = "rounds"

    def __init__(self, game, variant=None, strategy=None, **options):
        self.game, self.variant, self.strategy, self.options = game, variant, strategy, options

    def play(self, n, generator, progress):
        return self.game.simulate(n, generator, self.variant, progress=progress, strategy=self.strategy,
                                  **self.options)

    @staticmethod
    def rounds(sim) -> int:
        return sim.rounds

    @staticmethod
    def merge(first, later):
        """``first`` and then ``later`` (a segment of the same game), as one simulation."""
        from harness.games.simulate import BetSimulation

        names = [b.name for b in later.bets]
        if [b.name for b in first.bets] != names:
            raise ValueError(f"{later.game}: segments of one simulation report different bets")
        bets = tuple(BetSimulation(b.exact, {k: a.counts.get(k, 0) + b.counts.get(k, 0)
                                             for k in dict.fromkeys([*a.counts, *b.counts])})
                     for a, b in zip(first.bets, later.bets))
        return dataclasses.replace(
            later, rounds=first.rounds + later.rounds, seconds=first.seconds + later.seconds, bets=bets,
            outcome_fit=_pending_fit(first.outcome_fit.inputs, later.outcome_fit.inputs),
            procedure=_merge_text(first.procedure, later.procedure))

    @staticmethod
    def dump(sim) -> dict:
        return {"rounds": sim.rounds, "seconds": sim.seconds, "procedure": sim.procedure,
                "bets": [[b.name, dict(b.counts)] for b in sim.bets], "outcome_counts": list(sim.outcome_fit.inputs[0])}

    @staticmethod
    def load(saved: dict, like):
        """A checkpoint's totals as a simulation, with the exact figures of ``like`` (a later segment)."""
        from harness.games.simulate import BetSimulation, FitResult

        _, probabilities, labels = like.outcome_fit.inputs
        bets = tuple(BetSimulation(b.exact, counts) for b, (_, counts) in zip(like.bets, saved["bets"], strict=True))
        return dataclasses.replace(like, rounds=saved["rounds"], seconds=saved["seconds"], bets=bets,
                                   procedure=saved["procedure"],
                                   outcome_fit=FitResult(None, None, None, 0, 0,
                                                         inputs=(saved["outcome_counts"], probabilities, labels)))

    @staticmethod
    def point(sim) -> dict:
        def bet(b):
            mean, interval = b.mean_return, b.interval
            return {"name": b.name, "decisions": b.decisions, "rtp": None if mean is None else float(mean),
                    "interval": None if interval is None else list(interval)}

        return {"rounds": sim.rounds, "bets": [bet(b) for b in sim.bets]}

    @staticmethod
    def prepare_finish() -> None:
        """Import what :meth:`finish` needs (the chi-square: scipy, about a second to load), so a
        partitioned run can load it while its workers play (:mod:`harness.game_partitions`)."""
        from stats import chisquare  # noqa: F401
        from stats.cells import cell_table  # noqa: F401

    @staticmethod
    def finish(sim, rounds: int):
        from harness.games.simulate import goodness_of_fit

        return dataclasses.replace(sim, requested=rounds, outcome_fit=goodness_of_fit(*sim.outcome_fit.inputs))


# -- slots ----------------------------------------------------------------------------------------

class SlotSegments:
    """A slot model's simulation (:func:`harness.slot.simulate.simulate`), segment by segment."""

    unit = "spins"

    def __init__(self, model):
        self.model = model

    def play(self, n, generator, progress):
        from harness.slot.simulate import simulate

        return simulate(self.model, n, generator, progress=progress)

    @staticmethod
    def rounds(result) -> int:
        return result.plays

    @staticmethod
    def merge(first, later):
        first.absorb(later)
        return first

    @staticmethod
    def dump(result) -> dict:
        return {f.name: (f"{v.numerator}/{v.denominator}" if isinstance(v, Fraction) else v)
                for f in dataclasses.fields(result) for v in [getattr(result, f.name)]}

    @staticmethod
    def load(saved: dict, like):
        fields = {f.name: (Fraction(saved[f.name]) if isinstance(getattr(like, f.name), Fraction) else saved[f.name])
                  for f in dataclasses.fields(like)}
        return type(like)(**fields)

    @staticmethod
    def point(result) -> dict:
        interval = result.rtp_interval() if result.plays >= 2 else None
        return {"rounds": result.plays, "bets": [{"name": "rtp", "decisions": result.plays,
                                                  "rtp": float(result.rtp()),
                                                  "interval": None if interval is None else list(interval)}]}

    @staticmethod
    def finish(result, rounds: int):
        return result


__all__ = ["play", "boundaries", "GameSegments", "SlotSegments", "trace_json", "POINTS", "MIN_SEGMENT"]
