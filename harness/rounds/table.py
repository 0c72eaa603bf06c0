"""A game's round rules, read through the game registry: its bets, the permitted ones, their payouts.

Nothing here is per game: the facts come from the game's module (its
``etable`` declaration, :class:`harness.games.etable.ETable`) and its round
engine: the registered one of :data:`harness.rounds.engine.ROUND_ENGINES`
if there is one, else the game's own :meth:`harness.games.base.Game.round_bets`
and ``round_outcome``.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, Callable, Mapping

from harness.games.categorical import Family
from harness.games.base import as_named, named_options, option_named
from harness.games.core import BetRule, Split
from harness.games.registry import GAMES
from harness.rounds import money


class RoundError(ValueError):
    """A round asked to do what its rules refuse (an unlisted bet, a bet after betting closed, ...)."""


@dataclasses.dataclass(frozen=True)
class RoundRules:
    """One game variant's rules for rounds: what may be bet and how each bet pays."""

    game: Any
    variant: str
    bets: Mapping[str, Any]
    engine: Any = None  # what deals the rounds: the game itself, or its registered RoundEngine

    @property
    def etable(self):
        """The game's mode-B declaration: its round engine's, if the engine declares it (a game whose
        module is another's to change), else the game module's."""
        return getattr(self.engine, "etable", None) or self.game.etable

    @property
    def permitted(self) -> tuple[str, ...]:
        listed = self.etable.permitted
        return tuple(self.bets) if listed is None else listed

    @property
    def options(self) -> tuple:
        """The options a round takes (:class:`~harness.games.base.GameOption`), from its engine."""
        return tuple(getattr(self.engine, "round_options", ()))

    def check_options(self, given: Mapping | None, flag: Callable[[str], str] = option_named,
                      prepare: bool = True) -> "Checked":
        """``given`` round options (typed, or text from ``--option NAME=VALUE``) checked, by keyword:
        only the options given, each in its kind; RoundError naming the option (as ``flag(name)``:
        the command line's ``--option NAME``) and its allowed values.

        Checked once per table (a session): a :class:`Round` given the result does not check it again.
        With ``prepare`` the round engine then does the work its deals share for these options
        (:meth:`harness.rounds.engine.RoundEngine.prepare`: Hold'em Bonus's exact tables), so it is done
        before any round opens; a restored round (recovery) is checked without it, as finishing a
        journaled round deals nothing new.
        """
        if isinstance(given, Checked) and given.rules is self:
            return given
        game = self.game.name
        try:
            checked = Checked(self, {option.keyword: option.check(f"{game} rounds", value)
                                     for option, value in named_options(f"{game} rounds", self.options,
                                                                        (given or {}).items())})
        except ValueError as exc:
            raise RoundError(as_named(exc, flag)) from None
        ready = getattr(self.engine, "prepare", None)  # a game's own engine may not have one
        if prepare and ready is not None:
            ready(checked)
        return checked

    def stake_rule(self, name: str):
        """The rule of an additional stake a round takes after betting closes (a double, a split hand,
        insurance): a bet of the round engine's, placed only by the procedure of a permitted bet."""
        if name not in self.bets:
            raise RoundError(f"{self.game.name}: no bet {name!r} for an additional stake; the round's bets: "
                             f"{', '.join(self.bets)}")
        return self.bets[name]

    def dealing(self, options: dict, bets) -> dict:
        """The keywords a round is dealt with: its options, plus the names of its bets for an engine that
        deals by them (``deals_for_bets``: craps rolls until every bet of the round is decided)."""
        if getattr(self.engine, "deals_for_bets", False):
            return {**options, "bets": tuple(b.bet for b in bets)}
        return options

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

    def _parts(self, rule, stake: int) -> tuple[tuple[BetRule, int], ...]:
        """The (rule, stake) parts a bet settles as: one, or a split bet's shares of the stake."""
        if not isinstance(rule, Split):
            return ((rule, stake),)
        parts = []
        for part, share in rule.parts:
            amount = stake * share
            if amount.denominator != 1:
                raise RoundError(f"{self.game.name}: {rule.name} splits the stake "
                                 f"{', '.join(f'{s} on {p}' for p, s in rule.parts)}; a stake of {stake} does not "
                                 "divide into whole yen (the rules state no rounding of split stakes)")
            parts.append((self.bets[part], int(amount)))
        return tuple(parts)

    def check_stake(self, rule, stake: int) -> None:
        """RoundError unless every outcome settles ``stake`` on ``rule`` in whole yen."""
        truncation = self.etable.truncation
        for part, amount in self._parts(rule, stake):
            nets = [row.pays for row in part.rows] + [part.otherwise.pays if part.otherwise else Fraction(-1)]
            if not money.whole_payouts(amount, nets, truncation):
                raise RoundError(f"{self.game.name}: a stake of {stake} on {rule.name!r} would settle in a "
                                 "fraction of a yen, and the game's settlement clause states no rounding")

    def settle(self, rule, stake: int, features: Mapping[str, Any]) -> tuple[str, money.Amounts]:
        """(class label, amounts) of ``stake`` on ``rule`` for a round with these features; a split bet
        settles each share as its own bet (the winning share's stake returned, the others collected)."""
        truncation = self.etable.truncation
        won, returned, collected, paid = [], 0, 0, 0
        for part, amount in self._parts(rule, stake):
            row = part.classify(features)
            a = money.settle(amount, row.pays, truncation)
            returned, collected, paid = returned + a.returned, collected + a.collected, paid + a.paid
            won.append((part.name, row))
        if isinstance(rule, Split):
            label = "+".join(name for name, row in won if row.pays > 0) or "lose"
        else:
            label = won[0][1].label
        return label, money.Amounts(returned, collected, paid)


class Checked(dict):
    """Round options :meth:`RoundRules.check_options` has checked for ``rules`` (by keyword)."""

    def __init__(self, rules: RoundRules, values: dict):
        super().__init__(values)
        self.rules = rules


def rules_for(game: str, variant: str | None = None) -> RoundRules:
    """The round rules of ``game`` (its first e-table variant unless ``variant`` is given).

    ``FAMILY:ARGUMENT`` (``slot:MODEL.toml``) is a game built from a file: the round engine
    registered under ``FAMILY`` builds its rules (``rules_for(argument, variant)``).
    """
    family, colon, argument = game.partition(":")
    if colon:
        from harness.rounds.engine import ROUND_ENGINES

        builder = getattr(ROUND_ENGINES.get(family), "rules_for", None)
        if builder is None:
            raise RoundError(f"{game}: no round engine builds games of the form {family}:...")
        return builder(argument, variant)
    try:
        g = GAMES.get_item(game)
    except ValueError as exc:
        raise RoundError(str(exc)) from None
    engine = engine_of(g)
    etable = etable_of(g)
    if etable is None:
        with_mode = ", ".join(n for n, x in GAMES.items() if etable_of(x) is not None)
        raise RoundError(f"{game}: 000 gives no electronic table-game mode for this game; games with one: {with_mode}")
    if variant is None:
        variant = etable.variants[0]
    if variant not in etable.variants:
        raise RoundError(f"{game}: variant {variant!r} is not the e-table game; use one of {', '.join(etable.variants)}")
    try:
        bets = engine.round_bets(variant)
    except NotImplementedError as exc:
        raise RoundError(f"{exc} (its permitted bets and determination point are declared; rounds are not played)") \
            from None
    return RoundRules(g, variant, {b.name: b for b in bets}, engine)


def etable_of(g):
    """Game ``g``'s mode-B declaration: its round engine's if the engine declares one (for a game whose
    module is another's to change), else the game module's (None: no e-table mode)."""
    return getattr(engine_of(g), "etable", None) or g.etable


def engine_of(g):
    """The round engine of game ``g``: its registered engine if there is one (it may extend the game's
    own, as craps' multi-roll rounds do), else ``g`` itself (whose ``round_bets`` says if it has none)."""
    from harness.rounds.engine import ROUND_ENGINES

    registered = ROUND_ENGINES.get(g.name)
    if registered is not None:  # a registered engine extends (replaces) the game's own
        return registered
    return g


def markdown_table() -> str:
    """The docs' table of every game's e-table declaration (checked against the registry by the tests)."""
    lines = ["| game | mode-B clause | permitted bets | settled, not voided, if the fault comes after | "
             "fault clause | winnings below 1 yen | rounds | round options (`--option NAME=VALUE`) |",
             "|---|---|---|---|---|---|---|---|"]
    for g in GAMES.values():
        e = etable_of(g)
        if e is None:
            continue
        engine = engine_of(g)
        try:
            engine.round_bets(e.variants[0])
            plays = "played"
        except NotImplementedError:
            plays = "declared only"
        options = ", ".join(f"`{o.name}` ({o.describe()})".replace("|", "\\|")  # a table cell holds no bare |
                            for o in getattr(engine, "round_options", ())) or "none"
        permitted = "every bet of " + ", ".join(f"`{v}`" for v in e.variants) if e.permitted is None \
            else ", ".join(f"`{b}`" for b in e.permitted)
        lines.append(f"| `{g.name}` | {e.permitted_source} | {permitted} | {e.determined_after} | {e.fault_clause} | "
                     f"{'truncated (' + e.truncation + ')' if e.truncation else 'no rounding stated'} | {plays} | "
                     f"{options} |")
    return "\n".join(lines) + "\n"
