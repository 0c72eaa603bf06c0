"""The game class shared by the player-versus-player poker games (000 別表第1 第3
9, 10): a table of customers dealt and bet through :mod:`harness.games.poker_table`.

Such a game's module holds its rules table (:class:`harness.games.poker_table.TableRules`
per variant, with the seed items) and declares a :class:`PvpGame`.  There is no
house bet: the customers play one another and the house keeps each pot's
share (9-9-イ), so the exact analysis states the table's rules and the
house's share of a pot, and a simulation deals and bets rounds through the
``deck`` device, checks every settlement conserves chips and tests the
dealt boards against their exact category probabilities.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from harness.games import poker_hands as ph
from harness.games import poker_irregular as irr
from harness.games import poker_table as pt
from harness.games._deck_game import run_whole_chunks
from harness.games.base import Analysis, Game, GameOption, Strategy, _replay
from harness.games.simulate import Simulation, goodness_of_fit

SHARE_RULE = "000 別表第1 第3 9-9-イ"
# --option irregularity: the event of every simulated round (poker_irregular.Irregularity).
IRREGULARITIES = {"none": None, "face-up-draw": irr.Irregularity(face_up=(0,)),
                  "exposed-by-dealer": irr.Irregularity(exposed=(0,)), "two-exposed": irr.Irregularity(exposed=(0, 1))}
IRREGULARITY_OPTION = GameOption.choice(
    "irregularity", "an irregularity in every simulated round and its measure (9-14-イ): the first card drawn "
    "face up (3), the first hole card turned up by the dealer (5), two turned up (5: void), or none",
    tuple(IRREGULARITIES))
OPTIONS = (
    GameOption("players", "N", "customers seated at the table (9-2-ロ: two or more)", 2, 10, 6),
    GameOption("chips", "YEN", "the chips of seat 1 when a simulated round starts; seat k starts with k times "
               "as many, so that all-ins and side pots arise (9-7)", 1, 10**9, 1000),
    GameOption("blind", "YEN", "the small blind, the big blind twice it (9-2-ロ); with posting=antes every "
               "customer's stake to take part (9-2-ハ); the amount is the operator's (not in the seed)", 1, 10**6, 50),
    GameOption("share", "BP", "the operator's r of 9-9-イ in hundredths of a percent: each pot's prize is "
               "pot x r rounded up, 0.90 <= r < 1", 9000, 9999, 9500),
    GameOption.choice("posting", "blinds (9-2-ロ) or a stake from every customer to take part (9-2-ハ)",
                      ("blinds", "antes")),
    IRREGULARITY_OPTION,
)
STRATEGIES = (
    Strategy("random", "each customer takes each legal action (9-3-ロ, 9-4-ロ, 9-7-イ) with equal chance, a bet or "
             "raise of any amount above the call up to his chips: every path of the betting and the pots"),
    Strategy("call-down", "each customer checks when he may and otherwise calls (all-in when short): every round "
             "reaches the showdown"),
)


class BoardTally:
    """The five board cards' category (3-1) of every dealt round, tested against the exact
    probabilities of all C(52, 5) hands (counted in C)."""

    def __init__(self) -> None:
        counts = ph.category_counts(5)
        self.labels = list(counts)
        self.probabilities = [Fraction(c, math.comb(52, 5)) for c in counts.values()]
        self.counts = dict.fromkeys(self.labels, 0)
        self._name = {r.code: r.name for r in ph.FIVE_CARD_RANKS}

    def count(self, boards) -> None:
        """Add the category of each of ``boards`` (five cards each), all ranked in one call."""
        if not len(boards):
            return
        codes, times = np.unique(ph.rank(boards) >> ph.CATEGORY_SHIFT, return_counts=True)
        for code, n in zip(codes.tolist(), times.tolist()):
            self.counts[self._name[code]] += n

    def fit(self, not_conserved: int):
        """The chi-square; a settlement that lost or made a chip is an impossible outcome (probability 0)."""
        return goodness_of_fit([self.counts[n] for n in self.labels] + [not_conserved],
                               self.probabilities + [Fraction(0)], self.labels + ["chips not conserved"])


class PvpGame(Game):
    """A poker game the customers play against one another (subclasses set ``tables``)."""

    devices = "deck"
    chunk = 256
    options = OPTIONS
    strategies = STRATEGIES
    tables: dict[str, tuple[int, str, bool, str]] = {}   # variant -> (hole cards, hand kind, hi-lo, seed items)

    def table(self, variant: str, blind: int, share: int, posting: str) -> pt.TableRules:
        hole, hand, hilo, _ = self.tables[variant]
        return pt.TableRules(hole, hand, hilo, blind, posting == "antes", Fraction(share, 10_000))

    def _analyse(self, variant, *, strategy, players, chips, blind, share, posting, irregularity) -> Analysis:
        rules = self.table(variant, blind, share, posting)
        hole, hand, hilo, items = self.tables[variant]
        r = rules.share
        posts = ({"ante": blind} if rules.antes else {"small_blind": blind, "big_blind": 2 * blind})
        note = (f"customers play one another ({items}); no house bet.  Each pot's prize is pot x r rounded up to "
                f"the yen ({SHARE_RULE}), so the house keeps floor(pot x (1 - r)) of a pot: at most "
                f"{float(1 - r) * 100:g} % of it")
        return Analysis(self.name, variant, {"players": players, "hole_cards": hole, "hand": hand, "hi_lo": hilo,
                                             "posting": posting, **posts, "share_r": f"{r.numerator}/{r.denominator}",
                                             "share_rule": f"0.90 <= r < 1 ({SHARE_RULE})"}, (), note=note)

    def _simulate(self, rounds, generator, variant, progress, *, strategy, players, chips, blind, share, posting,
                  irregularity):
        from rngcore.devices import device_spec

        rules = self.table(variant, blind, share, posting)
        policy = pt.call_down if strategy == "call-down" else pt.random_policy(generator)
        boards = BoardTally()
        tally = {"rounds": 0, "showdowns": 0, "all_in_pots": 0, "low_halves": 0, "staked": 0, "paid": 0, "house": 0,
                 "not_conserved": 0, "void": 0}
        event = IRREGULARITIES[irregularity]
        stacks = [chips * (k + 1) for k in range(players)]

        def step(n: int) -> None:
            decks = device_spec("deck").draw(generator, n)
            dealt = []
            for deck in decks:
                r = pt.play_round(rules, stacks, tally["rounds"] % players, deck, policy, event)
                tally["void"] += r.void is not None
                if r.void is None:
                    dealt.append(r.board)
                tally["rounds"] += 1
                tally["showdowns"] += r.showdown
                tally["all_in_pots"] += len(r.pots)
                tally["low_halves"] += bool(r.low_paid)
                tally["staked"] += sum(r.staked.values())
                tally["paid"] += sum(r.paid.values())
                tally["house"] += r.house
                tally["not_conserved"] += not r.chips_conserved()
            boards.count(dealt)

        played, interrupted, seconds = run_whole_chunks(rounds, self.chunk, step, lambda: tally["rounds"], progress)
        fit = boards.fit(tally["not_conserved"])
        lows = f", {tally['low_halves']:,} with a low half paid" if rules.hilo else ""
        if event is not None:
            lows += f"; irregularity {irregularity} in every round, {tally['void']:,} rounds void (9-14-イ)"
        note = (f"outcome chi-square: the board's category (3-1) vs its exact probability; {tally['showdowns']:,} "
                f"showdowns, {tally['all_in_pots']:,} all-in pots{lows}; staked {tally['staked']:,} yen, paid "
                f"{tally['paid']:,}, house {tally['house']:,}; rounds whose settlement lost or made a yen: "
                f"{tally['not_conserved']}")
        hole = rules.hole
        return Simulation(self.name, variant, "deck", played, rounds, seconds, fit, (),
                          procedure=f"one fresh 52-card shuffle per round; {hole} hole cards each, one at a time "
                                    "clockwise from the small blind, then burn, flop, burn, turn, burn, river; the "
                                    "small blind moves one seat left each round; seat k starts with k x --chips",
                          interrupted=interrupted, replay=_replay(generator), note=note)
