"""Engine for games settled by one categorical outcome per round.

Wheels (roulette, Big Six, Money Wheel), sic bo and the one-roll craps bets
all work the same way: one round shows one outcome of a device with an exact
distribution, and each bet's pay table classifies that outcome.  A game
module supplies the outcome space (features and exact weight of every
outcome) and its bets as data; this module does the arithmetic.

A :class:`Family` groups the instances of one bet type (every straight-up
number, every split, ...): the engine evaluates each instance and checks
they share one exact result, which is reported once with the instance list.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, Mapping, Sequence, Union

from harness.games.core import BetResult, BetRule, Split, evaluate, evaluate_split

Space = Sequence[tuple[Mapping[str, Any], Union[int, Fraction]]]


@dataclasses.dataclass(frozen=True)
class Family:
    """Instances of one bet type, e.g. the 57 splits of a single-zero layout.

    ``members`` pairs an instance label (``"17-20"``) with its rule.  All
    members must have the same exact outcome distribution; the engine
    raises if they do not (then they are different bets, not one family).
    """

    name: str
    source: str
    members: tuple[tuple[str, BetRule], ...]
    note: str = ""


Bet = Union[BetRule, Split, Family]


def _total(space: Space) -> Union[int, Fraction]:
    return sum((weight for _, weight in space), 0)


def evaluate_bet(bet: Bet, space: Space, components: Mapping[str, BetRule] | None = None) -> BetResult:
    """Exact result of one bet (rule, split or family) over ``space``."""
    total = _total(space)
    if isinstance(bet, BetRule):
        return evaluate(bet, space, total)
    if isinstance(bet, Split):
        if components is None:
            raise ValueError(f"split bet {bet.name!r} needs its component rules")
        return evaluate_split(bet, components, space, total)
    results = [evaluate(rule, space, total) for _, rule in bet.members]
    first = results[0]
    signature = [(o.label, o.probability, o.net) for o in first.outcomes]
    for (label, _), result in zip(bet.members, results):
        if [(o.label, o.probability, o.net) for o in result.outcomes] != signature:
            raise ValueError(f"bet family {bet.name!r}: instance {label!r} differs from {bet.members[0][0]!r}")
    return dataclasses.replace(
        first, name=bet.name, source=bet.source, note=bet.note or first.note,
        instances=tuple(label for label, _ in bet.members),
    )


def evaluate_all(bets: Sequence[Bet], space: Space) -> tuple[BetResult, ...]:
    """Exact results of every bet of a game variant, in table order."""
    components = {b.name: b for b in bets if isinstance(b, BetRule)}
    return tuple(evaluate_bet(bet, space, components) for bet in bets)


def classify_outcomes(bet: Bet, features: Sequence[Mapping[str, Any]],
                      components: Mapping[str, BetRule] | None = None) -> tuple[tuple[str, ...], list[int]]:
    """Class of every device outcome for one bet: (class labels, index per outcome).

    Used by the simulation to turn a histogram of device outcomes into a
    histogram of the bet's outcome classes.  A family is classified by its
    first instance (all instances share one distribution).
    """
    if isinstance(bet, Family):
        bet = bet.members[0][1]
    if isinstance(bet, Split):
        comps = components or {}
        labels_of = []
        for f in features:
            winners = [part for part, _ in bet.parts if comps[part].classify(f).pays > 0]
            labels_of.append("+".join(winners) if winners else "lose")
    else:
        labels_of = [bet.classify(f).label for f in features]
    labels = tuple(dict.fromkeys(labels_of))
    index = {label: i for i, label in enumerate(labels)}
    return labels, [index[label] for label in labels_of]
