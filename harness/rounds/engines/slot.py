"""Slot plays as rounds (000 別表第1 第10): ``slot:MODEL`` names the model file, as the device does.

A round is one play of the model (:mod:`harness.slot.spin`): one customer
stakes the model's total bet on ``spin`` (2-2: the wagering operation
before the spin starts), the reel stops are drawn from the system's RNG
(3-1) and the play's award, its free spins and bonus included (4-3-ロ), is paid
(4-1).  Credits settle as yen one for one: the award is a whole number of
credits, so no rounding arises (the clauses state none).

The fault rule is 5-1: a fault between the wager and the end of settlement
voids the round for the customer, unless it came after the outcome was
determined, when the round is settled on that determination; 5-2: a
settlement that cannot be completed (the customer cannot be identified or
is missing) is recorded and kept.  The determination point is the end of
the play's draws: every spin's stops drawn, the free spins and the bonus
included, so the award is fixed.  The machine journals the outcome (every
spin's virtual stops, every feature's draws -- with reel heights per spin the
paid spin's height draws, ``heights``, and each free spin's, ``free_heights``
(journal schema 5) -- with the draws' generator position range) before it
enters ``OUTCOME_DETERMINED``; a round stopped before that is void.

The outcome record names the model file's SHA-256 beside the stops, so a
replay or a recovery that finds another file under the journaled name is
refused rather than settled on another game.

A model's meters (the combination progressive, the jackpot and mystery
levels: :mod:`harness.slot.meters`) are the engine's :attr:`ModelRounds.meters`;
a play's outcome names the meters it hits (``features["meters"]``; the
mystery levels' draw is recorded as ``mystery``), and the round machine
keeps their values from round to round (:mod:`harness.rounds.meters`).
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import pathlib
from fractions import Fraction

from harness.games.core import PayRow, Where
from harness.games.etable import Dealt, ETable
from harness.rounds.engine import RoundEngine, one_position

FAMILY = "slot"
BET = "spin"

ETABLE = ETable(
    clause="000 別表第1 第10 (電子ゲーム)",
    variants=("play",),
    permitted=(BET,),
    permitted_source="000 第10 2-2 (a slot play's one wager: the model's total bet on a spin)",
    determined_after="3-1: every draw of the play made from the RNG, free spins and bonus included "
                     "(the award is fixed)",
    fault_clause="000 第10 5-1 (5-2: an unsettleable case is recorded and kept)",
    note="credits settle as yen one for one",
)


@dataclasses.dataclass(frozen=True)
class SlotGame:
    """What the round machine reads of a game (its name and mode-B declaration), for one model file."""

    name: str
    etable: ETable = ETABLE


@dataclasses.dataclass(frozen=True)
class AwardRule:
    """The ``spin`` bet: it returns the play's award, whatever it is, on a stake of the model's total bet.

    Settled by :meth:`~harness.rounds.table.RoundRules.settle` like any pay table: the row's net is
    ``award / stake - 1`` (an award below the stake returns the award and collects the rest).
    """

    name: str
    source: str
    stake: int
    rows: tuple = ()
    otherwise: PayRow | None = None

    def classify(self, features) -> PayRow:
        award = features["award"]
        label = "lose" if award == 0 else f"award {award}"
        return PayRow(label, Where(), Fraction(award - self.stake, self.stake))


class SlotRounds(RoundEngine):
    """Rounds of the slot models (``slot:MODEL``): :meth:`rules_for` builds one model's rules."""

    name = FAMILY

    def rules_for(self, path: str, variant: str | None = None):
        """The round rules of the model file ``path`` (RoundError naming what is wrong)."""
        return _rules(path, variant or ETABLE.variants[0])


@functools.lru_cache(maxsize=16)
def _rules(path: str, variant: str):
    from harness.rounds.table import RoundError, RoundRules
    from harness.slot.errors import ModelError
    from harness.slot.model import load_model
    from harness.slot.spin import Player

    if variant not in ETABLE.variants:
        raise RoundError(f"{FAMILY}:{path}: variant {variant!r} is not a slot play; use {', '.join(ETABLE.variants)}")
    try:
        data = pathlib.Path(path).read_bytes()
        model = load_model(path)
        play = Player(model)  # the engine holds its model's player
    except OSError as exc:
        raise RoundError(f"{FAMILY}:{path}: cannot read the model ({exc.strerror or exc})") from None
    except ModelError as exc:
        raise RoundError(f"{FAMILY}:{path}: {exc}") from None
    engine = ModelRounds(play, hashlib.sha256(data).hexdigest())
    rule = AwardRule(BET, "000 第10 4-1 (the award computed by the model's program)", model.total_bet)
    return RoundRules(SlotGame(f"{FAMILY}:{path}"), variant, {BET: rule}, engine)


class ModelRounds(RoundEngine):
    """The round engine of one slot model: a play per round, the stops journaled."""

    name = FAMILY

    def __init__(self, play, sha256: str):
        from harness.rounds.meters import MeterSpec

        self.play, self.sha256 = play, sha256
        # the model's meters, each funded by its share of the play's stake (harness.rounds.meters)
        self.meters = tuple(MeterSpec(m.name, m.contribution, m.reset) for m in play.meters.meters)

    def round_bets(self, variant: str) -> tuple:
        return ()

    def check_bet(self, bet, placed: tuple, options: dict) -> None:
        one_position(FAMILY, bet, placed)
        if bet.stake != self.play.model.total_bet:
            raise ValueError(f"{FAMILY}: a play stakes the model's total bet of {self.play.model.total_bet} credits "
                             f"(yen), got {bet.stake}")

    def round_outcome(self, generator, variant: str, **options) -> Dealt:
        return self._dealt(self.play.spin(generator))

    def round_dealt(self, variant: str, record: dict, **options) -> Dealt:
        if not isinstance(record, dict) or record.get("model") != self.sha256:
            raise ValueError(f"{FAMILY}: the journaled play is of the model with SHA-256 "
                             f"{record.get('model') if isinstance(record, dict) else None}, not of this file "
                             f"({self.sha256})")
        drawn = {kind: record.get(kind, []) for kind in (*_DRAWN, "heights")}
        if self.play.model.heights is not None:  # the paid spin's height draws, then each free spin's
            free = record.get("free_heights", [])
            if not isinstance(free, list):
                raise ValueError(f"{FAMILY}: the journaled free spins' height draws {free!r} are not a list per spin")
            drawn["heights"] = [drawn["heights"], *free]
        return self._dealt(self.play.evaluate(record.get("stops"), record.get("bonus", []), **drawn))

    def _dealt(self, play) -> Dealt:
        base, drawn = play.spins[0], bool(play.heights)
        shown = f"stops {'-'.join(str(s) for s in base.positions)}: {' | '.join(' '.join(c) for c in base.window)}"
        if drawn:  # reel heights per spin: the rows each reel showed
            shown = f"heights {_rows(base)}, {shown}"
        if len(play.spins) > 1:
            shown += f"; {len(play.spins) - 1} free spins"
            if drawn:
                shown += f" (heights {', '.join(_rows(s) for s in play.spins[1:])})"
        if play.hold:
            shown += f"; hold and spin {play.hold_win} credits"
        if play.bonus:
            shown += f"; bonus {play.bonus_win} credits"
        shown += f"; award {play.award} credits" + (f" (cap took {play.capped})" if play.capped else "")
        if play.meters:
            shown += f"; hits {', '.join(play.meters)}"
        features = {"award": play.award, "line_win": play.line_win, "scatter_win": play.scatter_win,
                    "feature_win": play.feature_win, "capped": play.capped, "meters": play.meters}
        record = {"model": self.sha256, "stops": play.stops}
        model = self.play.model
        if model.bonus is not None:  # the bonus's draws (none when the play did not start it)
            record["bonus"] = list(play.bonus)
        for kind, section in _DRAWN.items():  # each feature's draws, so a replay re-derives the play
            if getattr(model, section):  # None, or no mystery levels: no such draws
                record[kind] = list(getattr(play, kind))
        if model.heights is not None:  # the paid spin's height draws; each free spin's apart (schema 5)
            record["heights"] = play.heights[0]
            if model.free_spins is not None:
                record["free_heights"] = play.heights[1:]
        return Dealt(features, shown, record)


def _rows(spin) -> str:
    """The height each reel showed on a spin, reel 1 first: ``4-7-2``."""
    return "-".join(str(len(column)) for column in spin.window)


# the draws a play makes beside its stops, bonus and reel heights (recorded per spin, apart), by record
# key: the model section that makes them
_DRAWN = {"hold": "hold_and_spin", "refills": "cascade", "mystery": "mystery"}


ROUND_ENGINES = (SlotRounds(),)
