"""Meters carried through rounds: each round's contributions and awards, journaled, in whole yen.

A game with meters (a slot model's combination progressive, jackpot and
mystery levels: :mod:`harness.slot.meters`) has state outside one round:
every meter's value.  Its round engine lists them (``engine.meters``, a
:class:`MeterSpec` each) and an outcome names the meters it hits
(``features["meters"]``).  A :class:`MeterBank` holds the values between
rounds; a round settles against it (:class:`~harness.rounds.machine.Round`)
and journals what it did to every meter as one ``meters`` record, at the
start of its settlement, so a round is metered exactly when it is settled:

* a meter starts at its reset value (funded by the house), with no carry;
* a settled round adds its contribution to every meter: ``share x stake``
  yen, an exact fraction; the whole yen of it are added to the meter
  (``contributed``) and the fraction of a yen is carried exactly to the
  next round (``carry``, in ``1/unit`` yen, ``unit`` the denominator of
  the round's contribution, or a multiple of it that also holds the carry
  brought in when the stake changed), so nothing is lost to rounding;
* a hit meter pays its value after this round's contribution
  (``awarded``: the winning round's own contribution is part of what it
  wins) and goes back to its reset, funded by the house (``seeded``); its
  carry stays with it;
* a hit may take a share of the meter (a poker progressive's straight
  flush: a tenth, :mod:`harness.rounds.progressive`): the whole yen of the
  share are awarded, and the house tops the rest up to the reset only if it
  fell below it (4-6-ハ: 累積金額をリセット金額にし);
* a meter may be funded by one bet's stakes only (``funded_by``: the
  progressive bet): a round without that bet neither funds nor hits it (and
  a round of a game whose every meter is such has no ``meters`` record);
* a void round (a fault or a stop before the determination point) adds
  nothing and wins nothing: it has no ``meters`` record.

Each entry of a ``meters`` record: ``meter``, ``before`` (its value before
the round), ``contributed``, ``carry``, ``unit``, ``awarded``, ``seeded``,
``after`` (its value after), so ``after = before + contributed - awarded +
seeded``; a meter's ``before`` is its ``after`` in the last metered round
of the game before it (:meth:`MeterBank.absorb` checks).  The awards are
paid with the settlement of the round's first bet funding the meter (its
first bet, for a meter every stake funds): ``jackpot``, part of its
``paid`` (recorded unsettled, and kept, if the customer cannot be
identified).  Money is then conserved in every round, meters included:
see :func:`conservation`.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

from harness.rounds.table import RoundError


@dataclasses.dataclass(frozen=True)
class MeterSpec:
    """A meter of a game: its name, the share of a round's stake added to it, its value after a hit (yen)."""

    name: str
    share: Fraction
    reset: int
    funded_by: str | None = None  # the bet whose stakes fund it (None: every stake of the round)


@dataclasses.dataclass
class _Value:
    value: int
    carry: int  # in 1/unit yen
    unit: int


class MeterBank:
    """The values of one game's meters between its rounds (see the module doc).

    Parameters
    ----------
    game : str
        The game the meters are of (a journal's rounds of another game do not touch them).
    specs : sequence of MeterSpec
        Its meters, each starting at its reset with no carry.
    """

    def __init__(self, game: str, specs):
        self.game, self.specs = game, tuple(specs)
        self.values = {s.name: _Value(s.reset, 0, 1) for s in self.specs}
        self.last_round = 0  # the last round metered

    def value(self, name: str) -> int:
        """Whole yen on meter ``name`` now."""
        return self.values[name].value

    def entries(self, stake: int, hits, funding=None, specs=None) -> list[dict]:
        """What a settled round staking ``stake`` and hitting the meters ``hits`` does to every meter (the
        entries of its ``meters`` record; the bank is not changed: :meth:`absorb` does that).

        ``hits``: meter names (each paid whole) or a mapping name -> the share of it paid; ``funding``:
        the round's stakes by bet name, for a meter ``funded_by`` one bet; ``specs``: the meters as the
        round's options set them (a poker progressive's rate and reset; default the bank's)."""
        shares = dict(hits) if isinstance(hits, dict) else dict.fromkeys(hits, Fraction(1))
        funding = funding or {}
        unknown = set(shares) - set(self.values)
        if unknown:
            raise RoundError(f"{self.game}: the outcome hits {sorted(unknown)[0]!r}, not a meter of the game")
        specs = self.specs if specs is None else tuple(specs)
        if [s.name for s in specs] != [s.name for s in self.specs]:
            raise RoundError(f"{self.game}: a round's meters {[s.name for s in specs]} are not the bank's "
                             f"{[s.name for s in self.specs]}")
        out = []
        for spec in specs:
            now = self.values[spec.name]
            amount = spec.share * (stake if spec.funded_by is None else funding.get(spec.funded_by, 0))
            carried = Fraction(now.carry, now.unit)
            # the unit of this round's contribution, or a multiple of it holding the carry too (the same
            # unit round after round when the stake does not change: a slot's one bet)
            unit = math.lcm(amount.denominator, carried.denominator)
            contributed, carry = divmod(int(carried * unit) + int(amount * unit), unit)
            reached = now.value + contributed
            hit = spec.name in shares and (spec.funded_by is None or spec.funded_by in funding)
            awarded = int(Fraction(shares[spec.name]) * reached) if hit else 0  # whole yen of the share
            seeded = max(0, spec.reset - (reached - awarded)) if hit else 0
            out.append({"meter": spec.name, "before": now.value, "contributed": contributed, "carry": carry,
                        "unit": unit, "awarded": awarded, "seeded": seeded, "after": reached - awarded + seeded})
        return out

    def absorb(self, round_id: int, entries: list[dict]) -> None:
        """Take a journaled ``meters`` record's entries as the meters' new values; RoundError if they do not
        continue from the values the bank holds (a round metered twice, or out of order)."""
        names = [e.get("meter") for e in entries]
        if names != [s.name for s in self.specs]:
            raise RoundError(f"round {round_id}: its meters record lists {names}, the game's meters are "
                             f"{[s.name for s in self.specs]}")
        for e in entries:
            now = self.values[e["meter"]]
            if e["before"] != now.value or e["after"] != e["before"] + e["contributed"] - e["awarded"] + e["seeded"]:
                raise RoundError(f"round {round_id}: meter {e['meter']!r} goes {e['before']} -> {e['after']} but "
                                 f"stood at {now.value} after round {self.last_round}")
            carry, unit = e.get("carry"), e.get("unit")
            if not (type(unit) is int and unit >= 1 and type(carry) is int and 0 <= carry < unit):
                raise RoundError(f"round {round_id}: meter {e['meter']!r} carries {carry!r} in 1/{unit!r} yen "
                                 "(a whole carry 0 <= carry < unit, unit >= 1, expected)")
        for e in entries:
            self.values[e["meter"]] = _Value(e["after"], e["carry"], e["unit"])
        self.last_round = round_id

    def shown(self) -> dict[str, int]:
        """Every meter's whole yen, by name."""
        return {name: v.value for name, v in self.values.items()}


def specs_of(rules, options=None) -> tuple[MeterSpec, ...]:
    """The meters a game's round rules keep (none for most games), as a round's ``options`` set them (an
    engine's ``meter_specs(options)``: a poker progressive's rate and reset; else its ``meters``)."""
    by_options = getattr(rules.engine, "meter_specs", None)
    if by_options is not None:
        return tuple(by_options(dict(options or {})))
    return tuple(getattr(rules.engine, "meters", ()) or ())


def bank_of(rules, journal=None, options=None) -> MeterBank | None:
    """The meters of ``rules``' game after the rounds ``journal`` holds; None for a game without meters
    (the journal is then not read).  The meters start at their resets: those of the game's first metered
    round in the journal (by its journaled options), or, with none, of ``options`` (the session's)."""
    if not specs_of(rules, options):
        return None
    bank = None
    for round_id, events in ({} if journal is None else journal.events()).items():
        if events and events[0].get("game") == rules.game.name:
            record = next((e for e in events if e["kind"] == "meters"), None)
            if record is None:
                continue
            if bank is None:  # the meters began at this round's resets
                first = rules.check_options(events[0].get("options"))
                bank = MeterBank(rules.game.name, specs_of(rules, first))
            bank.absorb(round_id, record["meters"])
    return bank if bank is not None else MeterBank(rules.game.name, specs_of(rules, options))


def conservation(events: list[dict]) -> dict[str, int]:
    """A round's money, meters included, from its journaled events (whole yen):

    ``staked`` (every stake), ``returned``, ``collected``, ``paid`` (winnings, meter awards included) and
    ``jackpot`` (the meter awards among them), over its settled and unsettled records; ``contributed``,
    ``awarded``, ``seeded`` and ``meters_before`` / ``meters_after`` (the meters' totals), over its
    ``meters`` record.  They satisfy, for every round::

        staked = returned + collected
        jackpot = awarded
        meters_after = meters_before + contributed + seeded - awarded

    The house pays the winnings (``paid - jackpot``) and the reset values (``seeded``); the meters pay
    the awards from what was contributed to them and seeded; so every yen staked is returned, collected
    or (part of what is collected) put on a meter, and the money on the meters changes only by what the
    round's record says.  Across rounds a meter's ``before`` is its previous ``after``
    (:meth:`MeterBank.absorb`), and its contributions are exact: the whole yen contributed to it plus
    its last carry are ``share x stake`` per settled round.
    """
    out = dict.fromkeys(("staked", "returned", "collected", "paid", "jackpot", "contributed", "awarded", "seeded",
                         "meters_before", "meters_after"), 0)
    for e in events:
        if e["kind"] in ("bet", "stake"):
            out["staked"] += e["stake"]
        elif e["kind"] in ("settlement", "unsettled"):
            for key in ("returned", "collected", "paid"):
                out[key] += e[key]
            out["jackpot"] += e.get("jackpot", 0)
        elif e["kind"] == "meters":
            for m in e["meters"]:
                out["contributed"] += m["contributed"]
                out["awarded"] += m["awarded"]
                out["seeded"] += m["seeded"]
                out["meters_before"] += m["before"]
                out["meters_after"] += m["after"]
    return out


__all__ = ["MeterBank", "MeterSpec", "bank_of", "conservation", "specs_of"]
