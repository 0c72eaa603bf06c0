"""Casino War rounds in mode B (000 別表第1 第4 12): one customer position against the dealer.

Built on :mod:`harness.games.casino_war`'s public rules (its round classes
and their features).  A round deals the first four cards of a freshly
shuffled stack (12-2: each card as likely as from a shuffled stack of 4 to 8
decks; as baccarat's e-table rounds, a fresh stack every round, the reading
``docs/rounds.md`` records): the customer's card and the dealer's (5), and,
only if they are equal in strength (A high, suits ignored: 5) and the
customer goes to war, the two war cards (8-2; no burns are written).

The customer's choice on a tie (8-1) is the round option ``strategy``
(``rngcert play casino-war --option strategy=surrender``): ``"war"`` (the
default; 8-1-ロ) or ``"surrender"`` (8-1-イ).  In a round the war's
additional stake is placed with the main bet, as the bet ``additional`` of
the same stake (8-1-ロ: equal to the main stake); it is returned untouched
when there is no war.  So every bet's stake is known when betting closes,
and each bet settles on its own stake.  The rules table below is enforced
as bets are placed and as betting closes: a customer who goes to war places
the additional stake (a main bet without it is refused at the close), one
who surrenders never goes to war (an additional bet is refused), and the
additional stake equals the main one:

========== ===== ====== =========== ======== =========== ===========
bet        win   lose   war higher  war tie  war lower   surrender
========== ===== ====== =========== ======== =========== ===========
main       1:1   -1     push        push     -1          -1/2
tie        --    --     10:1 (the first comparison tied) only
additional push  push   1:1         2:1      -1          push
========== ===== ====== =========== ======== =========== ===========

(7-2, 8-1, 8-2, 8-3: a won war pushes the main stake and pays the
additional 1 to 1, a tied war pays it 2 to 1, a lost war loses both.)
The tie bet and the additional bet need the customer's main bet (4-2,
8-1-ロ), and one round has one customer position.
"""
from __future__ import annotations

import functools
from fractions import Fraction

from harness.games.base import GameOption
from harness.games.casino_war import SOURCE, class_features
from harness.games.core import BetRule, PayRow, Where, odds, rows
from harness.games.etable import Dealt
from harness.rounds.engine import RoundEngine, equal_stake, one_position
from rngcore.devices import cards

MIN_DECKS, MAX_DECKS = 4, 8  # 000 第4 12-2 (a stack of 4 to 8 decks)
STRATEGIES = ("war", "surrender")
DECKS = GameOption("decks", "N", f"decks in the stack each round is dealt from, {MIN_DECKS}..{MAX_DECKS} "
                                 f"({SOURCE} 12-2)", MIN_DECKS, MAX_DECKS, 8)
STRATEGY = GameOption.choice("strategy", f"the customer's choice on a tie ({SOURCE} 8-1): war = go to war, "
                                         "placing the additional bet of the main stake (8-1-ロ); surrender = end "
                                         "the bet, half the main stake lost (8-1-イ)", STRATEGIES)
PUSH = PayRow("push", Where(), Fraction(0))

MAIN = BetRule("main", f"{SOURCE} 4-3-イ, 6-2-イ, 7-2-イ, 8-1, 8-2",
               rows(("win", Where(first="win"), odds(1)),
                    ("war_higher", Where(war="higher"), Fraction(0)),
                    ("war_tie", Where(war="tie"), Fraction(0)),
                    ("war_lower", Where(war="lower"), Fraction(-1)),
                    ("surrender", Where(war="surrendered"), Fraction(-1, 2))),
               push_labels=frozenset({"war_higher", "war_tie"}),
               note="the main stake alone; the war's additional stake is the bet 'additional'")
TIE = BetRule("tie", f"{SOURCE} 4-3-ロ, 6-2-ロ, 7-2-ロ", rows(("win", Where(first="tie"), odds(10))),
              note="the first comparison only")
ADDITIONAL = BetRule("additional", f"{SOURCE} 8-1-ロ, 8-2, 8-3",
                     rows(("war_higher", Where(war="higher"), odds(1)),
                          ("war_tie", Where(war="tie"), odds(2)),
                          ("war_lower", Where(war="lower"), Fraction(-1))),
                     otherwise=PUSH, push_labels=frozenset({"push"}),
                     note="placed with the main bet, equal to it; returned when there is no war")
NEEDS_MAIN = frozenset({"tie", "additional"})


def strength(code: int) -> int:
    """Casino War strength of a card (5: A > K > ... > 2, suits ignored): 2..14."""
    rank = int(cards.rank_of(code))
    return 14 if rank == 1 else rank


def compare(customer: int, dealer: int) -> str:
    a, b = strength(customer), strength(dealer)
    return "higher" if a > b else "lower" if a < b else "tie"


class CasinoWarRounds(RoundEngine):
    name = "casino-war"
    round_options = (DECKS, STRATEGY)

    def round_bets(self, variant: str) -> tuple:
        return (MAIN, TIE, ADDITIONAL)

    def round_outcome(self, generator, variant: str, *, decks: int = 8, strategy: str = "war") -> Dealt:
        """The first four cards of a freshly shuffled stack of ``decks`` decks (two read unless a war)."""
        _check(decks, strategy)
        stack = cards.fresh_stack(decks)
        drawn = stack[generator.choice(stack.size, size=4, replace=False)]
        return self.round_dealt(variant, {"cards": [int(c) for c in drawn]}, decks=decks, strategy=strategy)

    def round_dealt(self, variant: str, record: dict, *, decks: int = 8, strategy: str = "war") -> Dealt:
        _check(decks, strategy)
        codes = record.get("cards") if isinstance(record, dict) else None
        if not isinstance(codes, list) or len(codes) != 4 or not all(type(c) is int for c in codes) \
                or not set(codes) <= _stack(decks) or len(set(codes)) != 4:
            raise ValueError(f"casino-war: {record!r} is not a round of four distinct card codes of {decks} decks")
        first = compare(codes[0], codes[1])
        label = {"higher": "win", "lower": "lose"}.get(first)
        shown = f"customer {cards.card_label(codes[0])}, dealer {cards.card_label(codes[1])}"
        if label is None and strategy == "surrender":
            label, shown = "surrender", shown + ": a tie, surrendered"
        elif label is None:
            label = "war_" + compare(codes[2], codes[3])
            shown += f"; war: customer {cards.card_label(codes[2])}, dealer {cards.card_label(codes[3])}"
        used = 4 if label.startswith("war_") else 2
        return Dealt(class_features(label), f"{shown} ({label})", {"cards": codes, "used": used, "class": label})

    def check_bet(self, bet, placed: tuple, options: dict) -> None:
        one_position(self.name, bet, placed)
        main = next((b for b in placed if b.bet == "main"), None)
        if bet.bet in NEEDS_MAIN and main is None:
            raise ValueError(f"casino-war: the {bet.bet!r} bet needs the customer's main bet placed first "
                             f"({SOURCE} 4-2, 8-1-ロ)")
        if bet.bet == "additional" and options.get("strategy", STRATEGY.default) == "surrender":
            raise ValueError(f"casino-war: the 'additional' bet is the stake of going to war ({SOURCE} 8-1-ロ); "
                             "with strategy=surrender the customer ends the bet on a tie (8-1-イ) and never "
                             "goes to war, so it is refused")
        if bet.bet == "additional":
            equal_stake("casino-war", f"the additional (war) stake equals the main stake ({SOURCE} 8-1-ロ)", main, bet)

    def check_bets(self, bets: tuple, options: dict) -> tuple[int, str] | None:
        """Going to war (the default strategy) needs the additional stake beside the main bet (8-1-ロ)."""
        if options.get("strategy", STRATEGY.default) != "war" or any(b.bet == "additional" for b in bets):
            return None
        main = next((i for i, b in enumerate(bets) if b.bet == "main"), None)
        if main is None:
            return None
        return main, (f"with strategy=war the customer goes to war on a tie, placing an additional stake equal "
                      f"to the main stake ({SOURCE} 8-1-ロ): add the bet 'additional' of stake {bets[main].stake}, "
                      "or play --option strategy=surrender (8-1-イ)")


@functools.lru_cache(maxsize=None)
def _stack(decks: int) -> frozenset:
    return frozenset(int(c) for c in cards.fresh_stack(decks))


def _check(decks, strategy) -> None:
    DECKS.check("casino-war rounds", decks)
    STRATEGY.check("casino-war rounds", strategy)


ROUND_ENGINES = (CasinoWarRounds(),)
