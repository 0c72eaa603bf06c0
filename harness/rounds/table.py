"""A game's round rules, read through the game registry: its bets, the permitted ones, their payouts.

Nothing here is per game: the facts come from the game's module (its
``etable`` declaration, :class:`harness.games.etable.ETable`, and its round
engine, :meth:`harness.games.base.Game.round_bets`).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, Mapping

from harness.games.categorical import Family
from harness.games.core import BetRule, Split
from harness.games.registry import GAMES


class RoundError(ValueError):
    """A round asked to do what its rules refuse (an unlisted bet, a bet after betting closed, ...)."""


@dataclasses.dataclass(frozen=True)
class RoundRules:
    """One game variant's rules for rounds: what may be bet and how each bet pays."""

    game: Any
    variant: str
    bets: Mapping[str, Any]

    @property
    def etable(self):
        return self.game.etable

    @property
    def permitted(self) -> tuple[str, ...]:
        listed = self.etable.permitted
        return tuple(self.bets) if listed is None else listed

    def listed(self) -> str:
        """The permitted bets for a message (the first dozen of a long list)."""
        names = self.permitted
        if len(names) <= 12:
            return ", ".join(names)
        return f"{', '.join(names[:12])}, ... ({len(names)} in all: rngcert game {self.game.name} --json lists them)"

    def rule(self, name: str, on: str | None):
        """The bet type ``name`` (instance ``on`` of a family); RoundError naming what is wrong."""
        game = self.game.name
        if name not in self.bets:
            raise RoundError(f"{game}: no bet {name!r}; the permitted bets: {self.listed()}")
        if name not in self.permitted:
            raise RoundError(f"{game}: bet {name!r} is not permitted in an electronic table game "
                             f"({self.etable.permitted_source}); the permitted bets: {self.listed()}")
        bet = self.bets[name]
        if isinstance(bet, Family):
            members = dict(bet.members)
            if on not in members:
                raise RoundError(f"{game}: bet {name!r} needs 'on', one of {', '.join(members)}; got {on!r}")
            return members[on]
        if on is not None:
            raise RoundError(f"{game}: bet {name!r} takes no 'on' (got {on!r})")
        return bet

    def nets(self, rule) -> tuple[Fraction, ...]:
        """Every net result per unit a bet type can pay (for the whole-yen check)."""
        if isinstance(rule, Split):
            return tuple(share * n for part, share in rule.parts for n in self.nets(self.bets[part]))
        pays = [row.pays for row in rule.rows] + [rule.otherwise.pays if rule.otherwise is not None else Fraction(-1)]
        return tuple(pays)

    def net(self, rule, features: Mapping[str, Any]) -> tuple[str, Fraction]:
        """(class label, net per unit) of a bet on a round with these features."""
        if isinstance(rule, Split):
            net = Fraction(0)
            won = []
            for part, share in rule.parts:
                row = self.bets[part].classify(features)
                net += share * row.pays
                if row.pays > 0:
                    won.append(part)
            return "+".join(won) or "lose", net
        row = rule.classify(features)
        return row.label, row.pays


def rules_for(game: str, variant: str | None = None) -> RoundRules:
    """The round rules of ``game`` (its first e-table variant unless ``variant`` is given)."""
    try:
        g = GAMES.get_item(game)
    except ValueError as exc:
        raise RoundError(str(exc)) from None
    if g.etable is None:
        with_mode = ", ".join(n for n, x in GAMES.items() if x.etable is not None)
        raise RoundError(f"{game}: 000 gives no electronic table-game mode for this game; games with one: {with_mode}")
    if variant is None:
        variant = g.etable.variants[0]
    if variant not in g.etable.variants:
        raise RoundError(f"{game}: variant {variant!r} is not the e-table game; use one of {', '.join(g.etable.variants)}")
    try:
        bets = g.round_bets(variant)
    except NotImplementedError as exc:
        raise RoundError(f"{exc} (its permitted bets and determination point are declared; rounds are not played)") \
            from None
    return RoundRules(g, variant, {b.name: b for b in bets})


def markdown_table() -> str:
    """The docs' table of every game's e-table declaration (checked against the registry by the tests)."""
    lines = ["| game | mode-B clause | permitted bets | settled, not voided, if the fault comes after | "
             "fault clause | winnings below 1 yen | rounds |", "|---|---|---|---|---|---|---|"]
    for g in GAMES.values():
        e = g.etable
        if e is None:
            continue
        try:
            g.round_bets(e.variants[0])
            plays = "played"
        except NotImplementedError:
            plays = "declared only"
        permitted = "every bet of " + ", ".join(f"`{v}`" for v in e.variants) if e.permitted is None \
            else ", ".join(f"`{b}`" for b in e.permitted)
        lines.append(f"| `{g.name}` | {e.permitted_source} | {permitted} | {e.determined_after} | {e.fault_clause} | "
                     f"{'truncated (' + e.truncation + ')' if e.truncation else 'no rounding stated'} | {plays} |")
    return "\n".join(lines) + "\n"
