"""Many rounds of one game with one set of bets: the fast path of the round state machine.

A lab's soak test, a bench run or ``rngcert play --rounds N`` plays the same
bets round after round.  :class:`Table` draws a batch of such rounds in one
call of the round engine's ``round_batch``
(:meth:`~harness.games.base.Game.round_batch`: one C call for a wheel or
dice game, drawing exactly the bytes round-by-round play would), and plays every *distinct* outcome once through a real
:class:`~harness.rounds.machine.Round` (every bet placed and checked, every
transition of :data:`~harness.rounds.states.TRANSITIONS` taken, every bet
settled by :meth:`~harness.rounds.table.RoundRules.settle`).  That round's
events, with the round id and the draw's byte range left open
(:class:`~harness.rounds.journal.RoundTemplate`), are each round's events: a
journal written by a table is record for record the journal round-by-round
play writes (the tests compare the two files' hash chains).

A batch has no faults: a fault, an unreachable customer or a stop at a
state is a single :class:`Round` (``rngcert play`` plays its faulted or
killed round that way).  Journaled, a table appends every round's records
and tells the journal the round finished; :meth:`Table.play` returns only
after the journal committed every round it played (group commit: a round is
reported done only once its window is durable).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from harness.rounds.journal import PLACEHOLDERS, Journal, RoundTemplate, canonical
from harness.rounds.machine import Round, drawn_provenance, generator_provenance
from harness.rounds.table import RoundRules

#: The varying fields of a round's events: its id, the draw's [start, end) and, in production, its epoch range.
ROUND, START, END, EPOCH, EPOCH_START, EPOCH_END = PLACEHOLDERS[:6]
FIELDS = (ROUND, START, END, EPOCH, EPOCH_START, EPOCH_END)
VARYING = ("position", "epoch", "epoch_position")  # the generator provenance that changes from round to round
MAX_DRAW = 4096  # rounds per call of the game's batch engine (bounds memory)


@dataclasses.dataclass
class Totals:
    """What a table's rounds moved, in yen (every round of a batch ends DONE)."""

    rounds: int = 0
    done: int = 0
    staked: int = 0
    returned: int = 0
    collected: int = 0
    paid: int = 0

    def add(self, other: "Totals") -> None:
        for f in dataclasses.fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


class Table:
    """Rounds of ``rules`` (a :class:`~harness.rounds.table.RoundRules`) that all place ``bets``.

    Parameters
    ----------
    rules : RoundRules
        The game variant's round rules (``rules_for(game, variant)``).
    bets : sequence of Bet
        The bets every round places, checked now (RoundError names the first refused).
    options : dict, optional
        Keywords of the game's round engine.
    journal : Journal, optional
        Where every round's events go.
    meters : MeterBank, optional
        A game with meters: their values before the first round (default: the journal's, by
        :func:`harness.rounds.meters.bank_of`, or every meter at its reset without a journal); every
        round settles against it in order.
    """

    def __init__(self, rules: RoundRules, bets, options: dict | None = None, journal: Journal | None = None,
                 meters=None):
        from harness.rounds.meters import bank_of

        self.rules, self.bets, self.journal = rules, tuple(bets), journal
        self.options = rules.check_options(options)  # once per table: its rounds do not check again
        rules.prepare(self.options)  # and the work every round's deal shares, before any round
        if meters is None:
            meters = bank_of(rules, journal, self.options)
        self.meters = meters
        scratch = Round(rules, 0, options=self.options)
        for bet in self.bets:
            scratch.place(bet)  # refuses an unlisted bet, a bad stake, ... before anything is drawn
        self._outcomes = self._source = None  # the game's shared outcome table and the generator, once seen
        self._draw = 1  # rounds per batch-engine call: from 1, doubled while reseeds stay rare (production)
        self._shortest = None  # production: the shortest key epoch seen, in bytes
        self._plays: dict[int, tuple] = {}  # key of that table -> (amounts, template) of its outcome

    def _template_round(self, dealt, provenance: dict | None, round_id: int) -> Round:
        """The one Round every round dealing ``dealt`` repeats."""
        r = Round(self.rules, round_id, options=self.options, meters=self.meters)  # its events: r.events
        for bet in self.bets:
            r.place(bet)
        r.close()
        r.drawn(dealt, provenance)
        r.determine()
        r.settle()
        return r

    def _play_of(self, dealt, base: dict | None, templated: bool = True) -> tuple:
        """(staked, returned, collected, paid) of a round dealing ``dealt`` (staked: with the stakes its
        decisions added), and its events as a template (if asked)."""
        r = self._template_round(dealt, _placeholder_provenance(base), ROUND)
        t = r.totals()
        template = RoundTemplate(r.events, FIELDS) if templated else None
        return (t["staked"], t["returned"], t["collected"], t["paid"]), template

    def play(self, generator, rounds: int, first_round: int | None = None) -> Totals:
        """Play ``rounds`` rounds (ids from ``first_round``, default the journal's next id); their totals.

        Journaled, this returns only once every round played is committed (durable).
        """
        if first_round is None:
            first_round = 1 if self.journal is None else self.journal.next_round_id()
        totals, done = Totals(), 0
        while done < rounds:
            n = min(rounds - done, self._draw)
            totals.add(self._play_batch(generator, n, first_round + done))
            done += n
        if self.journal is not None:
            self.journal.commit()
        return totals

    def _play_batch(self, generator, rounds: int, first_round: int) -> Totals:
        base = generator_provenance(generator)
        keys, ends, outcomes = self.rules.engine.round_batch(generator, self.rules.variant, rounds,
                                                             **self.rules.dealing(self.options, self.bets))
        after = generator_provenance(generator)
        shared = isinstance(outcomes, tuple)  # the game's table of every outcome: cache per outcome
        source = None if base is None else tuple((k, v) for k, v in base.items() if k not in VARYING)
        if shared and (outcomes is not self._outcomes or source != self._source):
            self._outcomes, self._source, self._plays = outcomes, source, {}
        self._draw = MAX_DRAW if base is None or "epoch" not in base else self._next_draw(base, after, ends)
        totals = Totals(rounds, rounds)
        if self.journal is None and shared:  # every round's money from its outcome's, by count
            counts = np.bincount(keys, minlength=len(outcomes))
            for key in np.flatnonzero(counts):
                (staked, returned, collected, paid), _ = self._cached(int(key), outcomes, base)
                n = int(counts[key])
                totals.staked, totals.returned, totals.collected, totals.paid = (
                    totals.staked + n * staked, totals.returned + n * returned, totals.collected + n * collected,
                    totals.paid + n * paid)
            return totals
        starts = np.concatenate((np.zeros(1, dtype=ends.dtype), ends[:-1]))
        position = 0 if base is None else base["position"]
        epochs = _epoch_ranges(base, after, starts, ends)
        keys, starts, ends = keys.tolist(), starts.tolist(), ends.tolist()  # Python ints: cheap to index
        for i in range(rounds):
            key, round_id = keys[i], first_round + i
            epoch, start, end = epochs[i], position + starts[i], position + ends[i]
            if not shared and self.journal is not None and (epoch is None or len(epoch) == 3):
                # an outcome of its own (a slot play): its round built once with its real fields, not
                # templated for one rendering
                r = self._template_round(outcomes[key], _provenance(base, start, end, epoch), round_id)
                t = r.totals()
                amounts, template = (t["staked"], t["returned"], t["collected"], t["paid"]), None
                self.journal.append_round(round_id, [(e["kind"], canonical(e)) for e in r.events])
            else:
                amounts, template = self._cached(key, outcomes, base) if shared else \
                    self._play_of(outcomes[key], base, self.journal is not None)
            staked, returned, collected, paid = amounts
            totals.staked, totals.returned, totals.collected, totals.paid = (
                totals.staked + staked, totals.returned + returned, totals.collected + collected, totals.paid + paid)
            if self.journal is None or template is None:
                continue
            if epoch is None or len(epoch) == 3:
                values = (round_id, start, end) + (epoch or ())
                self.journal.append_text(round_id, template.kinds, template.text(*values))
            else:  # a reseed inside (or around) this round's draw: its events built as one Round's
                self.journal.append_round(round_id, [(e["kind"], canonical(e)) for e in self._events_of(
                    outcomes[key], base, after, start, end, epoch, round_id)])
        return totals

    def _next_draw(self, base: dict, after: dict, ends) -> int:
        """Production: the rounds of the next batch, so that a batch spans at most one reseed.

        Doubles from 1 while no epoch shorter than twice a batch's bytes has been seen; the shortest
        epoch seen (in bytes: exact from a batch with one reseed, an upper bound on the shortest from
        one with more) caps a batch at half of it.
        """
        reseeds, total = after["epoch"] - base["epoch"], int(ends[-1])
        if reseeds:
            shortest = (base["epoch_position"] + total - after["epoch_position"]) // reseeds
            self._shortest = shortest if self._shortest is None else min(self._shortest, shortest)
        draw = min(2 * self._draw, MAX_DRAW)
        if self._shortest is not None:
            draw = min(draw, max(1, self._shortest * len(ends) // max(2 * total, 1)))
        return draw

    def _cached(self, key: int, outcomes, base) -> tuple:
        if key not in self._plays:
            self._plays[key] = self._play_of(outcomes[key], base)
        return self._plays[key]

    def _events_of(self, dealt, base, after, start, end, epoch, round_id) -> list[dict]:
        begin = dict(base, position=start, epoch=epoch[0], epoch_position=epoch[1])
        finish = dict(after, position=end, epoch=epoch[2], epoch_position=epoch[3])
        return self._template_round(dealt, drawn_provenance(begin, finish), round_id).events


def _placeholder_provenance(base: dict | None) -> dict | None:
    """The provenance of a draw with its range (and epoch range) left as placeholders."""
    return _provenance(base, START, END, (EPOCH, EPOCH_START, EPOCH_END))


def _provenance(base: dict | None, start: int, end: int, epoch) -> dict | None:
    """The provenance of a draw of ``[start, end)`` (in one key epoch ``(epoch, start, end)`` in production),
    what a template's fields render."""
    if base is None:
        return None
    before, after = dict(base, position=start), dict(base, position=end)
    if "epoch" in base:
        before.update(epoch=epoch[0], epoch_position=epoch[1])
        after.update(epoch=epoch[0], epoch_position=epoch[2])
    return drawn_provenance(before, after)


def _epoch_ranges(base, after, starts, ends) -> list:
    """Per round: None (replay), (epoch, start, end) within one key epoch, or, for a round a reseed
    split or could not be placed, (epoch, start or None, end epoch, end or None).

    The batch began at (e0, p0) and ended at (e1, p1).  With no reseed every round is in e0 at
    p0 + its offsets.  The last reseed restarted the epoch count at batch offset ``cut = total - p1``:
    rounds after it are in e1 exactly.  With one reseed (e1 = e0 + 1) the rounds before it are in e0
    exactly; with more, where the earlier reseeds fell is unknown, so a round before ``cut`` is
    recorded as drawn somewhere in epochs e0 .. e1 - 1, its positions unknown (the table then draws
    one round per call, as round-by-round play does, so this happens at most once per batch).
    """
    n = len(ends)
    if base is None or "epoch" not in base:
        return [None] * n
    e0, p0, e1, p1 = base["epoch"], base["epoch_position"], after["epoch"], after["epoch_position"]
    cut = int(ends[-1]) - p1 if n and e1 != e0 else None
    out = []
    for s, e in zip(starts.tolist(), ends.tolist()):
        if cut is None or (e <= cut and e1 == e0 + 1):
            out.append((e0, p0 + s, p0 + e))
        elif s >= cut:
            out.append((e1, s - cut, e - cut))
        elif e1 == e0 + 1:
            out.append((e0, p0 + s, e1, e - cut))
        else:
            out.append((e0, None, e1 - 1 if e <= cut else e1, None if e <= cut else e - cut))
    return out


__all__ = ["Table", "Totals"]
