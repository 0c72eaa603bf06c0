"""Texas Hold'em Bonus rounds in mode B (000 別表第1 第3 6-12, applying 4-9): one customer position, the ante
with its flop, turn and river bets, and the Bonus.

Built on :mod:`harness.games.holdem_bonus`'s public rules (its stakes, its Bonus table, its ante-pay
sets, the exact fold set of its optimal strategy and the ``deck`` device procedure of its simulation): a
round shuffles a fresh deck through the ``deck`` device; the customer's cards are its cards 1-2, the
dealer's 3-4, card 5 is burnt, 6-8 are the flop, 9 burnt, 10 the turn, 11 burnt, 12 the river (6-3,
6-4-ロ, 6-5-ロ).

The bets.  6-12 applies 4-9 with 「二ハの（1）」 read as 「6二ハの（1）」 and 「それら」 as 「69のイに規定する賭け」
(seed L1493): mode B offers the bets of 6-2-ハ-(1) and (2), the ``ante`` and the ``bonus``, and no other
bet but the ``progressive`` of 6-9-イ (the game module's ``etable``).  The Bonus and the progressive are
only for a customer with an ante (6-2-ロ ただし書, as 6-9-イ reads it), refused otherwise when betting
closes.  The progressive is won by the customer's hand unless he folded or formed it without his cards
(6-9-ロ, ハ), funding and paying the game's meter (:mod:`harness.rounds.progressive`).  The flop bet (2
antes, 6-4-イ-(2)), the turn bet and the river bet (1 ante each, 6-5-イ-(2), 6-6) are additional stakes
(``flop``, ``turn``, ``river``), each announced by its ``decision`` record and taken while the round is
dealt, as Mississippi Stud's street bets are.

The decisions, in order: ``play`` or ``fold`` with the customer's two cards in view (6-4-イ), then
``bet`` or ``check`` with the flop in view (6-5-イ) and with the turn in view (6-6).  A bet script's
``actions`` give them, one list per round (``["play", "bet", "check"]``; nothing after a ``fold``); a
decision the list does not reach is made by the round option ``strategy``:

* ``simple`` (the default, :func:`simple_bets`): the flop bet unless the two cards are one of the
  starting hands the game's optimal strategy folds (:data:`harness.games.holdem_bonus.FOLDS`, from the
  exact enumeration: 2-3 to 2-7 offsuit, and 3-4 offsuit too when only a flush or better pays the ante;
  the published pre-flop rule, "fold only 2-3 thru 2-7 off-suit", is the first of these); the turn and
  river bets by the published simplified strategy of table-games-online.com ("Texas Hold 'Em Bonus
  Strategy": raise only with one of the listed hands, using at least one pocket card), read exactly in
  :data:`SIMPLE_TURN` and :data:`SIMPLE_RIVER`;
* ``optimal``: every decision by the game's exact optimal strategy
  (:func:`harness.games.holdem_bonus.decide`, the river and turn bets made unless they lose more often
  than they win with the cards in view); its tables are counted in C once per process, about a minute,
  when the session's options are checked (:meth:`HoldemBonusRounds.prepare`), before any round opens: no
  round's deal, so no stop in OUTCOME_GENERATION, waits for them.

The settlement (8-イ, 8-ロ, 7-ハ): the customer's hand (the best of his 2 cards and the 5 community cards)
against the dealer's: stronger wins the flop, turn and river bets 1 to 1, and the ante 1 to 1 when the
hand is one of the operator's chosen set (round option ``ante-pays``: straight or better, 8-ロ-(1), or
flush or better, 8-ロ-(2)), the ante otherwise returned (the game module's reading); equal returns every
stake (7-ハ-(1)); weaker, or a fold, collects them (8-イ, 6-4-イ-(1)).  The Bonus pays by the customer's two
cards alone, fold or not (7-ハ-(2), 8-ハ), 1,000 to 1 when both his and the dealer's are a pair of aces
under the round option ``aces-1000=yes`` (8-ニ).  Every odds is whole, so 8-イ's truncation of a winning
below 1 yen never acts on these bets.

The determination point: 6-13 applies 4-10-イ with its proviso read as 「67のイ」 (seed L1497): a fault
after the dealer's hand is turned face up (7-イ, after the river is dealt and every decision made)
settles, before it voids.  Every decision and additional stake is journaled before the outcome, so a
fault anywhere before it voids the round and returns them with the ante.
"""
from __future__ import annotations

import dataclasses
import functools

import numpy as np

from harness.games import holdem_bonus as thb
from harness.games import poker_hands as ph
from harness.games.base import GameOption
from harness.games.core import LOSE, PUSH, BetRule, Where, odds, rows
from harness.games.etable import Dealt
from harness.rounds import progressive
from harness.rounds.engine import DeckRounds, card_text, deck_cards

CARDS = 12  # customer 1-2, dealer 3-4, burn 5, flop 6-8, burn 9, turn 10, burn 11, river 12 (the simulation's)
HOLE, DEALER, FLOP, TURN, RIVER = slice(0, 2), slice(2, 4), slice(5, 8), 9, 11
FOLD, PLAY, BET, CHECK = "fold", "play", "bet", "check"

STRATEGY = GameOption.choice(
    "strategy", "the decisions a bet script's 'actions' leave open: simple (the optimal fold set, then the "
                "published simplified turn and river rules) or optimal (the exact tables: about a minute "
                "to count once per process)", ("simple", "optimal"))
ROUND_OPTIONS = (*thb.OPTIONS, STRATEGY)

#: The decision points, in order: (what is decided, the cards in view, the words, the additional stake and
#: its antes when made, the clause).
POINTS = (
    ("flop bet", 2, (PLAY, FOLD), ("flop", thb.FLOP_BET[0]), "000 別表第1 第3 6-4-イ"),
    ("turn bet", 5, (BET, CHECK), ("turn", thb.TURN_BET[0]), "000 別表第1 第3 6-5-イ"),
    ("river bet", 6, (BET, CHECK), ("river", thb.RIVER_BET[0]), "000 別表第1 第3 6-6 (applying 6-5-イ)"),
)

# ------------------------------------------------------------------------------- the bets --

@functools.lru_cache(maxsize=None)
def stake_rules() -> tuple[BetRule, ...]:
    """The ante, the three additional stakes and the Bonus (with 8-ニ's row: the round option decides
    whether a round reaches it)."""
    source = ", ".join(dict.fromkeys([*(src for _, _, src, _ in thb.OUTCOMES), *(src for *_, src in thb.ANTE_PAY_SETS)]))
    ante = BetRule("ante", source,
                   rows(("fold", Where(outcome="fold"), LOSE), ("win_ante_paid", Where(outcome="win_ante_paid"), odds(1)),
                        ("win_ante_push", Where(outcome="win_ante_push"), PUSH), ("tie", Where(outcome="tie"), PUSH),
                        ("lose", Where(outcome="lose"), LOSE)),
                   push_labels=frozenset({"win_ante_push", "tie"}),
                   note="the ante: paid 1 to 1 on a win with a hand of the operator's set (8-ロ), else returned")
    extra = [BetRule(name, f"{clause}, {thb.SOURCE} 8-ロ, 7-ハ-(1), 8-イ",
                     rows(("win", Where(outcome=("win_ante_paid", "win_ante_push")), odds(1)),
                          ("tie", Where(outcome="tie"), PUSH), ("lose", Where(outcome="lose"), LOSE)),
                     push_labels=frozenset({"tie"}), note=f"the {what}: {antes} ante(s), an additional stake of "
                                                          "the decision, paid 1 to 1 on every win")
             for what, _, _, (name, antes), clause in POINTS]
    return (ante, *extra, thb.bonus_rule("yes"), progressive.bet_rule("texas-holdem-bonus"))


# ----------------------------------------------------------------------- simple strategy --

def _ranks(cards) -> list[int]:
    """Ranks 1 (ace) .. 13 (king) of card indices (``card % 13``: 0 the ace)."""
    return [c % 13 + 1 for c in cards]


def _runs(ranks, length: int, among=None) -> bool:
    """Whether ``length`` consecutive ranks are all present, the ace low or high (and, given ``among``, one
    of them is one of those ranks)."""
    def high(rs):
        return set(rs) | ({14} if 1 in rs else set())

    have, wanted = high(ranks), None if among is None else high(among)
    return any(all(r + k in have for k in range(length))
               and (wanted is None or any(r + k in wanted for k in range(length))) for r in range(1, 16 - length))


def _suited(cards, count: int) -> list[list[int]]:
    """The cards of each suit holding at least ``count`` of ``cards``."""
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c // 13, []).append(c)
    return [cs for cs in by_suit.values() if len(cs) >= count]


def _hole_pair(hole, seen) -> list[int]:
    """The ranks of the customer's two cards that make a pair or more with the cards ``seen``."""
    ranks = _ranks(seen)
    return sorted({r for r in _ranks(hole) if ranks.count(r) >= 2})


def _any_pair(hole, seen) -> bool:
    return bool(_hole_pair(hole, seen))


def _pair_6_up_or_two_pair(hole, seen) -> bool:
    ranks = _ranks(seen)
    for r in _hole_pair(hole, seen):
        others = any(ranks.count(q) >= 2 for q in set(ranks) - {r})
        if r == 1 or r >= 6 or ranks.count(r) >= 3 or others:
            return True
    return False


#: The simplified strategy's turn bet (the flop in view: the two cards and the flop), read exactly: bet
#: with a pair or better formed with one of the customer's cards (his card's rank twice or more), four
#: consecutive ranks (the ace high or low) or four cards of one suit; a straight or a flush is more.
SIMPLE_TURN = (
    ("any pair, two pair, three or four of a kind or a full house with a pocket card", _any_pair),
    ("four or five consecutive cards", lambda hole, seen: _runs(_ranks(seen), 4)),
    ("four or five cards of one suit", lambda hole, seen: bool(_suited(seen, 4))),
)
#: The river bet (the turn in view, six cards): a pair of 6s or higher with a pocket card (aces high), two
#: pair, three or four of a kind or a full house with one, four consecutive cards of one suit with one, a
#: straight, a flush.  (The six cards hold four of the board's, so a straight or a flush always takes a pocket card.)
SIMPLE_RIVER = (
    ("a pair of 6s or higher, two pair, three or four of a kind or a full house with a pocket card",
     _pair_6_up_or_two_pair),
    ("four consecutive cards of one suit with a pocket card",
     lambda hole, seen: any(_runs(_ranks(cs), 4, _ranks(set(cs) & set(hole))) for cs in _suited(seen, 4))),
    ("five consecutive cards", lambda hole, seen: _runs(_ranks(seen), 5)),
    ("five cards of one suit", lambda hole, seen: bool(_suited(seen, 5))),
)

def simple_bets(codes, known: int, ante_pays: str = "straight") -> tuple[bool, str]:
    """(make the stake, the reason) of the simple strategy with the first ``known`` of the round's cards in
    view (2: the flop bet; 5: the turn bet; 6: the river bet); ``codes`` in the order of the round's record."""
    hole = list(codes[HOLE])
    if known == 2:
        name = thb.hand_name(*hole)
        folds = name in thb.FOLDS[ante_pays]
        return not folds, f"{name} {'is' if folds else 'is not'} in the optimal fold set ({ante_pays})"
    seen = in_view(codes, known)
    for reason, holds in SIMPLE_TURN if known == 5 else SIMPLE_RIVER:
        if holds(hole, seen):
            return True, reason
    return False, "none of the listed hands"


def in_view(codes, known: int) -> list[int]:
    """The customer's cards and the community cards turned up when ``known`` cards are in view."""
    board = [*codes[FLOP], codes[TURN], codes[RIVER]]
    return list(codes[HOLE]) + board[:known - 2]


# ----------------------------------------------------------------------------- the round --

@dataclasses.dataclass
class _Decider:
    """The round's decisions: the script's in order, then the strategy's."""

    actions: list
    strategy: str
    ante_pays: str
    codes: list
    optimal: list | None = None  # the exact strategy's three decisions, once looked up

    def choose(self, point: int) -> tuple[str, str, str]:
        """(word, who decided, why) at decision point ``point`` (0, 1, 2)."""
        if point < len(self.actions):
            return self.actions[point], "script", "the bet script's action"
        what, known, words, _, _ = POINTS[point]
        if self.strategy == "optimal":
            if self.optimal is None:
                cards = np.array([in_view(self.codes, 6)], dtype=np.int64)
                self.optimal = [bool(d[0]) for d in thb.decide(cards, self.ante_pays)]
            return words[0 if self.optimal[point] else 1], "optimal", "the exact expectation (holdem_bonus.decide)"
        make, why = simple_bets(self.codes, known, self.ante_pays)
        return words[0 if make else 1], "simple", why


def check_script(actions, game: str = "texas-holdem-bonus") -> None:
    """Refuse (ValueError) one round's scripted ``actions``: at most one word per decision point, each one
    of its words, nothing after a fold."""
    if len(actions) > len(POINTS):
        raise ValueError(f"{game}: a round has {len(POINTS)} decision points, the bet script gives {len(actions)} "
                         f"actions ({', '.join(map(repr, actions))})")
    for n, (word, (what, _, words, _, clause)) in enumerate(zip(actions, POINTS), 1):
        if word not in words:
            raise ValueError(f"{game}: action {n} ({what}, {clause}) must be {' or '.join(words)}, got {word!r}")
        if word == FOLD and n < len(actions):
            raise ValueError(f"{game}: action {n} folds (6-4-イ-(1)); the bet script gives "
                             f"{len(actions) - n} more for the round")


class HoldemBonusRounds(DeckRounds):
    """The round engine of Texas Hold'em Bonus (see the module doc)."""

    name = "texas-holdem-bonus"
    cards = CARDS
    takes_actions = True
    round_options = ROUND_OPTIONS
    meters = (progressive.METER,)

    def round_bets(self, variant: str) -> tuple:
        return stake_rules()

    def prepare(self, options: dict) -> None:
        """``strategy=optimal``: count the exact tables and the fold set of the options' ante-pay set now,
        once per process (about a minute), so that round 1's deal only looks them up."""
        if options.get("strategy") == "optimal":
            thb.plays(options.get("ante_pays", "straight"))

    def check_actions(self, actions, options: dict) -> None:
        for n, words in enumerate(actions or ()):
            try:
                check_script(list(words), self.name)
            except ValueError as exc:
                raise ValueError(f"round {n + 1}: {exc}") from None

    def check_bets(self, bets: tuple, options: dict):
        names = [b.bet for b in bets]
        if "bonus" in names and "ante" not in names:
            return names.index("bonus"), (f"the Bonus is only for a customer with an ante ({thb.SOURCE} 6-2-ロ "
                                          "ただし書)")
        return progressive.needs(bets, with_any=("ante",), clause=f"{thb.SOURCE} 6-2-ロ ただし書, as 6-9-イ reads it")

    def round_outcome(self, generator, variant: str, *, actions=None, **options) -> Dealt:
        return self.deal(variant, deck_cards(generator, CARDS)["cards"], actions=actions, **options)

    def round_dealt(self, variant: str, record: dict, **options) -> Dealt:
        taken = record.get("actions") if isinstance(record, dict) else None
        if not isinstance(taken, list) or not taken or not all(isinstance(a, str) for a in taken):
            raise ValueError(f"{self.name}: {record!r} is not a round of cards and the decisions taken")
        check_script(taken, self.name)
        if taken[-1] != FOLD and len(taken) != len(POINTS):
            raise ValueError(f"{self.name}: the journaled decisions {taken} stop before the river bet")
        options = {k: v for k, v in options.items() if k != "actions"}
        return super().round_dealt(variant, record, actions=taken, **options)

    def deal(self, variant: str, codes: list[int], *, actions=None, strategy: str = "simple",
             **options) -> Dealt:
        ante_pays, aces = options.get("ante_pays", "straight"), options.get("aces_1000", "no")
        script = list(actions or ())
        check_script(script, self.name)
        decide = _Decider(script, strategy, ante_pays, codes)
        decisions, taken = [], []
        for point, (what, known, words, (stake, antes), clause) in enumerate(POINTS):
            word, who, why = decide.choose(point)
            taken.append(word)
            decision = {"decision": word, "at": what, "strategy": who, "reason": why, "clause": clause,
                        "cards": card_text(in_view(codes, known))}
            if word in (PLAY, BET):
                decision["adds"] = [{"bet": stake, "of": "ante", "share": str(antes)}]
            decisions.append(decision)
            if word == FOLD:
                break
        hole, dealer, board = codes[HOLE], codes[DEALER], [*codes[FLOP], codes[TURN], codes[RIVER]]
        mine, theirs = (int(v) for v in ph.rank([hole + board, dealer + board]))
        if taken[0] == FOLD:
            outcome = "fold"
        elif mine > theirs:
            paid = ph.category(mine) >= thb.paid_from(ante_pays)
            outcome = "win_ante_paid" if paid else "win_ante_push"
        else:
            outcome = "tie" if mine == theirs else "lose"
        bonus = thb.bonus_hand(hole, dealer, aces)
        hands = f"{ph.category_name(mine)} against {ph.category_name(theirs)}"
        shown = (f"customer {card_text(hole)}, dealer {card_text(dealer)}, board {card_text(board)}: "
                 f"{'folded' if outcome == 'fold' else hands + ': ' + outcome}"
                 f"{'; bonus ' + bonus if bonus else ''}")
        won = progressive.award(self.name, codes, outcome != "fold", ante_pays=ante_pays)
        shown += f"; progressive {won['progressive']}" if won["progressive"] else ""
        return Dealt({"outcome": outcome, "hand": bonus, **won}, shown,
                     {"cards": list(codes), "actions": taken, "outcome": outcome}, tuple(decisions))


ROUND_ENGINES = (HoldemBonusRounds(),)
