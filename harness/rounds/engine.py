"""Round engines kept beside a game rather than in its module: one module each, found by a registry.

A game's round engine says which bets one round settles and how one round
is dealt through the devices (:class:`RoundEngine`: ``round_bets``,
``round_outcome``, ``round_dealt``).  A game may carry these methods itself
(:class:`~harness.games.base.CategoricalGame` does, and baccarat); for a game
whose module is another's to change, the engine is one module of
:mod:`harness.rounds.engines` that lists it in ``ROUND_ENGINES`` under the
game's registered name, built on the game module's public functions only.
:func:`harness.rounds.table.rules_for` reads this registry first (a
registered engine may extend the game's own: craps' multi-roll rounds), then
the game's own methods; nothing else names an engine.
"""
from __future__ import annotations

from fractions import Fraction

from rngcore.plugins import Registry
from harness.games.base import batch_by_rounds
from harness.games.etable import Dealt


class RoundEngine:
    """The round engine of the game called :attr:`name` (see the module doc).

    Subclasses give :meth:`round_bets`, :meth:`round_outcome` and
    :meth:`round_dealt` the meanings of the same methods of
    :class:`~harness.games.base.Game`; :attr:`round_options` declares the
    keywords a round takes (:class:`~harness.games.base.GameOption`, set by
    ``rngcert play --option NAME=VALUE``); :meth:`check_bet` may refuse a bet
    given those placed before it in the round, and :meth:`check_bets` the
    round's bets as a whole when betting closes.  An engine whose deal depends
    on the round's bets sets :attr:`deals_for_bets`: its ``round_outcome``
    and ``round_batch`` then also receive ``bets``, the names of the bets
    placed (:meth:`harness.rounds.table.RoundRules.dealing`).  An engine whose
    customers decide mid-round from a bet script sets :attr:`takes_actions`:
    its ``round_outcome`` then also receives ``actions`` (the round's scripted
    actions, :class:`~harness.rounds.machine.Round`), and :meth:`check_actions`
    may refuse them with the round's options before any round is played.
    :meth:`prepare` does, once per set of options, the work every round's
    deal would otherwise do the first time it needs it (exact strategy
    tables), so no round's state machine carries it.
    """

    name: str = ""
    deals_for_bets: bool = False
    takes_actions: bool = False
    round_options: tuple = ()  # GameOption declarations of the keywords round_outcome takes

    def round_bets(self, variant: str) -> tuple:
        """The bets one round settles (rules, splits, families)."""
        raise NotImplementedError

    def round_outcome(self, generator, variant: str, **options) -> Dealt:
        """Deal one round through the devices."""
        raise NotImplementedError

    def round_dealt(self, variant: str, record: dict, **options) -> Dealt:
        """The round a journaled record describes; ValueError for a record this engine does not deal."""
        raise NotImplementedError

    def prepare(self, options: dict) -> None:
        """Do the work the deals of rounds with ``options`` share (count a strategy's tables), before any
        round is opened: called when a session's options are checked
        (:meth:`harness.rounds.table.RoundRules.check_options`); default: nothing to do."""

    def round_batch(self, generator, variant: str, rounds: int, **options):
        """``rounds`` rounds, one :meth:`round_outcome` each (see :meth:`harness.games.base.Game.round_batch`)."""
        return batch_by_rounds(self, generator, variant, rounds, **options)

    def check_bet(self, bet, placed: tuple, options: dict) -> None:
        """Refuse (ValueError) ``bet`` given the round's bets ``placed`` before it and the round's
        ``options``; default: any bet goes."""

    def check_actions(self, actions, options: dict) -> None:
        """Refuse (ValueError) a bet script's ``actions`` (per-round lists) with the round's ``options``;
        default: any go (an action's legality is known only as the round is dealt)."""

    def check_bets(self, bets: tuple, options: dict) -> tuple[int, str] | None:
        """The first of a round's ``bets`` its rules refuse once betting closes, as (index, reason);
        None (the default): they all go."""
        return None


def one_position(game: str, bet, placed: tuple) -> None:
    """Refuse (ValueError) a second customer, or a second bet of one name, in a round dealing one
    customer position against the dealer (Casino War, the poker games)."""
    customers = {b.customer for b in placed}
    if customers and bet.customer not in customers:
        raise ValueError(f"{game}: a round deals one customer position; {bet.customer!r} cannot join "
                         f"{sorted(customers)[0]!r}'s round")
    if any(b.bet == bet.bet for b in placed):
        raise ValueError(f"{game}: {bet.customer!r} already has a {bet.bet!r} bet in this round")


def equal_stake(game: str, rule: str, first, bet) -> None:
    """Refuse (ValueError) ``bet`` unless its stake is the stake of ``first``, a bet placed before it that a
    game's rule makes it equal to (``rule``: the rule's words and citation).  The one check of Blackjack
    Switch's pair of areas, Deluxe Blackjack's two seats, Let It Ride's three spots and Casino War's war
    stake."""
    if bet.stake != first.stake:
        raise ValueError(f"{game}: {rule}: {first.stake} on {first.bet!r}, got {bet.stake} on {bet.bet!r}")


def deck_cards(generator, count: int) -> dict:
    """The record of a round dealing the first ``count`` cards of one shuffle of the ``deck`` device
    (card indices 0..51: the procedure of the deck games' simulations)."""
    from rngcore.devices import device_spec

    return {"cards": [int(c) for c in device_spec("deck").draw(generator, 1)[0][:count]]}


def card_text(codes) -> str:
    """Deck card indices 0..51 as shown (``"AS 10H"``)."""
    from rngcore.devices import cards

    labels = cards.face_labels()
    return " ".join(labels[c] for c in codes)


class DeckRounds(RoundEngine):
    """A round engine of one customer position dealing the first :attr:`cards` cards of one fresh shuffle
    of the ``deck`` device (:func:`deck_cards`, the deck games' simulation procedure); a subclass deals a
    round from its card indices in :meth:`deal`, with the round's keywords (its options, checked against
    :attr:`round_options` before they reach it, and ``bets`` for an engine that :attr:`deals_for_bets`)."""

    cards: int = 0

    def round_outcome(self, generator, variant: str, **options) -> Dealt:
        return self.round_dealt(variant, deck_cards(generator, self.cards), **options)

    def round_dealt(self, variant: str, record: dict, **options) -> Dealt:
        return self.deal(variant, recorded_cards(self.name, record, self.cards), **options)

    def deal(self, variant: str, codes: list[int], **options) -> Dealt:
        """The round dealt from ``codes``, the shuffle's first :attr:`cards` card indices, with the round's
        keywords ``options``."""
        raise NotImplementedError

    def check_bet(self, bet, placed: tuple, options: dict) -> None:
        one_position(self.name, bet, placed)


def recorded_cards(game: str, record, count: int) -> list[int]:
    """The ``count`` distinct card indices 0..51 of a journaled ``record``; ValueError otherwise."""
    codes = record.get("cards") if isinstance(record, dict) else None
    if not isinstance(codes, list) or len(codes) != count or len(set(codes)) != count \
            or not all(type(c) is int and 0 <= c < 52 for c in codes):
        raise ValueError(f"{game}: {record!r} is not a round of {count} distinct card indices 0..51")
    return codes


def whole_stake(rule, antes: Fraction, note: str):
    """``rule`` (a BetRule paying per unit of ante) per unit of a stake of ``antes`` antes: the ante and
    the stakes a mid-round decision adds (Play, a raise), placed together when betting closes."""
    from harness.games.core import BetRule, PayRow

    scale = 1 / Fraction(antes)
    other = rule.otherwise
    return BetRule(rule.name, rule.source, tuple(PayRow(r.label, r.when, r.pays * scale) for r in rule.rows),
                   otherwise=None if other is None else PayRow(other.label, other.when, other.pays * scale),
                   push_labels=rule.push_labels, note=note)


def _check(item) -> None:
    if not isinstance(item, RoundEngine) or not item.name:
        raise TypeError(f"{item!r} is not a named harness.rounds.engine.RoundEngine")


#: Registered round engines, by game name (discovered on first use).
ROUND_ENGINES: Registry[RoundEngine] = Registry("round engine", "ROUND_ENGINES", ["harness.rounds.engines"],
                                                check=_check, entry_points="rngcert.round_engines")

__all__ = ["DeckRounds", "ROUND_ENGINES", "RoundEngine", "card_text", "deck_cards", "one_position", "recorded_cards",
           "whole_stake"]
