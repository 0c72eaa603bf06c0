"""Pay tables as data and the exact result of a bet.

Every game module in :mod:`harness.games` states its bets as
:class:`BetRule` entries: a name, the rule it comes from (seed file and
section), and a pay table of :class:`PayRow` rows that say which outcome
class a round falls into and what it pays.  Engines (code) turn a game's
exact outcome distribution and a rule into a :class:`BetResult`.

Money is exact: a payout is a :class:`fractions.Fraction` "net win per unit
staked" -- ``odds(19, 20)`` for "19 to 20", ``LOSE`` (-1) for a lost stake,
``PUSH`` (0, stake returned) for a standoff.  Nothing here is a float; the
``*_float`` conveniences exist only for display.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, Iterable, Mapping

LOSE = Fraction(-1)
"""Net result of a lost stake."""

PUSH = Fraction(0)
"""Net result of a standoff: the stake is returned (the bet is not resolved)."""


def odds(win: int, stake: int = 1) -> Fraction:
    """Net win per unit staked for odds of "``win`` to ``stake``".

    ``odds(19, 20)`` is the 000 banker price "19対20"; ``odds(35)`` is
    "35 to 1".  Both numbers must be positive integers.
    """
    if not (isinstance(win, int) and isinstance(stake, int)) or win <= 0 or stake <= 0:
        raise ValueError(f"odds must be positive integers 'N to M', got {win!r} to {stake!r}")
    return Fraction(win, stake)


def _matches(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, (frozenset, set, range)):
        return value in wanted
    if isinstance(wanted, tuple) and not isinstance(value, tuple):
        return value in wanted  # a tuple of alternatives for a scalar feature
    return value == wanted


@dataclasses.dataclass(frozen=True)
class Where:
    """A condition on a round's features: every named feature must match.

    A wanted value matches by equality, or by membership when it is a
    ``frozenset`` / ``range`` (or a ``tuple`` of alternatives for a scalar
    feature).  ``Where(total=range(4, 11), triple=False)`` is sic bo's
    "small"; ``Where()`` matches everything.
    """

    conditions: tuple[tuple[str, Any], ...]

    def __init__(self, **conditions: Any) -> None:
        object.__setattr__(self, "conditions", tuple(sorted(conditions.items())))

    def __call__(self, features: Mapping[str, Any]) -> bool:
        for key, wanted in self.conditions:
            if key not in features:
                raise ValueError(
                    f"pay-table condition names unknown feature {key!r}; "
                    f"this game's features are {sorted(features)}"
                )
            if not _matches(features[key], wanted):
                return False
        return True

    def __repr__(self) -> str:  # pragma: no cover - documentation aid
        inner = ", ".join(f"{k}={v!r}" for k, v in self.conditions)
        return f"Where({inner})"


@dataclasses.dataclass(frozen=True)
class PayRow:
    """One line of a pay table: rounds matching ``when`` are class ``label``
    and pay ``pays`` (net per unit staked)."""

    label: str
    when: Where
    pays: Fraction


@dataclasses.dataclass(frozen=True)
class BetRule:
    """A bet as data.

    Parameters
    ----------
    name : str
        Stable snake_case name (the ``--json`` key).
    source : str
        Citation: seed tag and section, e.g. ``"000 第1 8-2-ロ"``.
    rows : tuple of PayRow
        Tried in order; the first row whose condition matches classifies the
        round.
    otherwise : PayRow or None
        Class of a round no row matches; default: ``lose``, -1.
    push_labels : frozenset of str
        Classes that are a standoff (stake returned, bet unresolved); used
        for the edge per resolved bet.
    note : str
        The reading chosen where the source is ambiguous.
    """

    name: str
    source: str
    rows: tuple[PayRow, ...]
    otherwise: PayRow | None = None
    push_labels: frozenset[str] = frozenset()
    note: str = ""

    def classify(self, features: Mapping[str, Any]) -> PayRow:
        """The pay row of a round with these features."""
        for row in self.rows:
            if row.when(features):
                return row
        return self.otherwise if self.otherwise is not None else PayRow("lose", Where(), LOSE)

    def labels(self) -> tuple[str, ...]:
        """Every class this rule can produce, in table order."""
        out = [row.label for row in self.rows]
        out.append(self.otherwise.label if self.otherwise is not None else "lose")
        return tuple(dict.fromkeys(out))


def rows(*entries: tuple[str, Where, Fraction]) -> tuple[PayRow, ...]:
    """Shorthand: ``rows(("win", Where(...), odds(1)), ...)``."""
    return tuple(PayRow(label, when, Fraction(pays)) for label, when, pays in entries)


@dataclasses.dataclass(frozen=True)
class OutcomeClass:
    """One outcome class of a bet: its exact probability and net payout."""

    label: str
    probability: Fraction
    net: Fraction
    push: bool = False


def _fraction_text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


@dataclasses.dataclass(frozen=True)
class BetResult:
    """The exact math of one bet.

    ``outcomes`` partition certainty: their probabilities sum to exactly 1
    (checked).  ``rtp`` = 1 + E[net]; ``house_edge`` = 1 - rtp.  When the
    bet can push, ``house_edge_per_resolved`` = -E[net] / P(not push).
    For multi-roll craps bets ``expected_rolls`` is the mean number of
    rolls from placing the bet to its decision.
    """

    name: str
    source: str
    outcomes: tuple[OutcomeClass, ...]
    instances: tuple[str, ...] = ()
    note: str = ""
    expected_rolls: Fraction | None = None

    def __post_init__(self) -> None:
        total = sum((o.probability for o in self.outcomes), Fraction(0))
        if total != 1:
            raise ValueError(f"bet {self.name!r}: outcome probabilities sum to {total}, not 1")

    @property
    def expected_net(self) -> Fraction:
        return sum((o.probability * o.net for o in self.outcomes), Fraction(0))

    @property
    def rtp(self) -> Fraction:
        """Return to player per unit staked (exact)."""
        return 1 + self.expected_net

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.rtp

    @property
    def push_probability(self) -> Fraction:
        return sum((o.probability for o in self.outcomes if o.push), Fraction(0))

    @property
    def house_edge_per_resolved(self) -> Fraction | None:
        """Edge per bet that is resolved (pushes left out); None if no push."""
        push = self.push_probability
        if push == 0:
            return None
        return -self.expected_net / (1 - push)

    @property
    def edge_per_roll(self) -> Fraction | None:
        """Edge divided by the mean rolls to a decision (multi-roll bets)."""
        if self.expected_rolls is None:
            return None
        return self.house_edge / self.expected_rolls

    def outcome(self, label: str) -> OutcomeClass:
        for o in self.outcomes:
            if o.label == label:
                return o
        raise ValueError(f"bet {self.name!r} has no outcome {label!r}; it has {[o.label for o in self.outcomes]}")

    def as_dict(self) -> dict:
        """The ``--json`` form (fractions as ``"num/den"`` strings)."""
        out: dict[str, Any] = {
            "name": self.name,
            "source": self.source,
            "rtp": _fraction_text(self.rtp),
            "rtp_float": float(self.rtp),
            "house_edge": _fraction_text(self.house_edge),
            "house_edge_float": float(self.house_edge),
            "outcomes": {
                o.label: {
                    "probability": _fraction_text(o.probability),
                    "probability_float": float(o.probability),
                    "net": _fraction_text(o.net),
                    **({"push": True} if o.push else {}),
                }
                for o in self.outcomes
            },
        }
        per_resolved = self.house_edge_per_resolved
        if per_resolved is not None:
            out["house_edge_per_resolved"] = _fraction_text(per_resolved)
            out["house_edge_per_resolved_float"] = float(per_resolved)
        if self.expected_rolls is not None:
            out["expected_rolls"] = _fraction_text(self.expected_rolls)
            out["edge_per_roll_float"] = float(self.edge_per_roll)
        if self.instances:
            out["instances"] = list(self.instances)
        if self.note:
            out["note"] = self.note
        return out


def result_from_weights(rule: BetRule, weights: Mapping[str, int | Fraction], total: int | Fraction,
                        **extra: Any) -> BetResult:
    """Build a :class:`BetResult` from per-class weights out of ``total``."""
    payout = {row.label: row.pays for row in rule.rows}
    if rule.otherwise is not None:
        payout[rule.otherwise.label] = rule.otherwise.pays
    payout.setdefault("lose", LOSE)
    outcomes = tuple(
        OutcomeClass(label, Fraction(weights[label]) / Fraction(total), payout[label], label in rule.push_labels)
        for label in rule.labels()
        if weights.get(label, 0)
    )
    return BetResult(rule.name, rule.source, outcomes, note=rule.note, **extra)


def evaluate(rule: BetRule, space: Iterable[tuple[Mapping[str, Any], int]], total: int, **extra: Any) -> BetResult:
    """Exact result of ``rule`` over an outcome space of (features, weight)
    pairs whose weights sum to ``total`` (integer counts: no rounding)."""
    weights: dict[str, int] = {}
    for features, weight in space:
        label = rule.classify(features).label
        weights[label] = weights.get(label, 0) + weight
    return result_from_weights(rule, weights, total, **extra)


@dataclasses.dataclass(frozen=True)
class Split:
    """A stake divided over component bets (horn, horn high, whirl).

    ``parts`` maps a component bet name to the fraction of the stake on it;
    the fractions sum to 1.  The round's net is the weighted sum of the
    components' nets; its class is the "+"-joined names of the components
    that won (``"lose"`` if none did).
    """

    name: str
    source: str
    parts: tuple[tuple[str, Fraction], ...]
    note: str = ""

    def __post_init__(self) -> None:
        if sum(share for _, share in self.parts) != 1:
            raise ValueError(f"split bet {self.name!r}: shares must sum to 1, got {self.parts}")


def evaluate_split(split: Split, components: Mapping[str, BetRule],
                   space: Iterable[tuple[Mapping[str, Any], int]], total: int) -> BetResult:
    """Exact result of a :class:`Split` bet over an outcome space."""
    classes: dict[str, list] = {}
    for features, weight in space:
        net = Fraction(0)
        winners = []
        for part, share in split.parts:
            row = components[part].classify(features)
            net += share * row.pays
            if row.pays > 0:
                winners.append(part)
        label = "+".join(winners) if winners else "lose"
        entry = classes.setdefault(label, [0, net])
        if entry[1] != net:  # one class, one payout: the label must determine the net
            raise ValueError(f"split bet {split.name!r}: class {label!r} pays both {entry[1]} and {net}")
        entry[0] += weight
    outcomes = tuple(OutcomeClass(label, Fraction(w, total), net) for label, (w, net) in classes.items())
    return BetResult(split.name, split.source, outcomes, note=split.note)


def assert_unique_names(items: Iterable[Any], game: str) -> None:
    """Raise if two bets of one game share a name (names are JSON keys)."""
    seen: set[str] = set()
    for item in items:
        if item.name in seen:
            raise ValueError(f"{game}: bet name {item.name!r} is defined twice")
        seen.add(item.name)

