"""Dealing and betting of the player-versus-player poker games (000 別表第1 第3
9-2 .. 9-8, 10): blinds or antes, the four betting rounds, all-ins, and the
showdown paid by :mod:`harness.games.poker_pots`.

Source: ``000_d4cd2a3cb5c95429.txt`` L1645-1731 (Omaha 9-2 .. 9-7), L1881
(Texas Hold'em, 第3 10); digest ``rules/poker.md`` §8.1-8.3, §9.  The
original wins where they differ.  Seats are numbered clockwise: seat i + 1
is the customer to the left of seat i.

* 9-2-ロ: one customer (the small blind) posts a stake, the customer to his
  left twice that (the big blind); 9-2-ハ: or, the operator's choice, every
  customer posts a stake to take part.
* 9-3: each customer's hole cards face down; the option holders (not
  folded, not all-in) act clockwise from the customer left of the big
  blind: call, raise (more than the call) or fold; the big blind may stay
  put when nobody raised.  9-4 .. 9-6: a card burnt, then the flop (3),
  the turn (1), the river (1); the holders act clockwise from the small
  blind (two customers: from the big blind): bet, call, raise, fold or
  check.  A round goes on until every holder's stake is equal.
* 9-3-ハ, 9-4-ハ: one customer left who has not folded wins at once; when
  the all-ins leave no two customers able to bet, the rest of the board is
  dealt (each card after a burn) and the hands are shown.
* 9-7: a customer may stake everything he has (all-in), which counts as a
  full call or bet however short; each betting round is gathered by
  :func:`harness.games.poker_pots.gather`.

Readings where the seed is silent (digest §8.1, §11-5; each a parameter or
stated here): the blind amounts are the operator's (:class:`TableRules`);
the hole cards are dealt one at a time clockwise from the small blind, then
the board from the next card on (burn, flop, burn, turn, burn, river); a
bet or raise may be any amount above the call up to all the customer has
(the seed sets no minimum raise and no limit); every holder acts at least
once in each betting round and a round ends when each holder's stake equals
the highest stake placed in it (an all-in's included); with antes, the
first to act before the flop is the customer two seats left of the small
blind's place, as with blinds, and the antes are the first stakes of that
round; a betting round with fewer than two holders and nothing owed is not
played.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np

from harness.games import poker_hands as ph
from harness.games import poker_irregular as irregular
from harness.games import poker_pots as pots

SOURCE = "000 別表第1 第3 9"

# The betting rounds: cards burnt and dealt to the board before each (9-3-イ, 9-4-イ, 9-5, 9-6).
STREETS = (("pre-flop", 0, 0, f"{SOURCE} 9-3"), ("flop", 1, 3, f"{SOURCE} 9-4-イ"),
           ("turn", 1, 1, f"{SOURCE} 9-5"), ("river", 1, 1, f"{SOURCE} 9-6"))
ACTIONS = {
    "fold": f"{SOURCE} 9-3-ロ-(3), 9-4-ロ-(4)",
    "check": f"{SOURCE} 9-3-ロ proviso, 9-4-ロ-(5)",
    "call": f"{SOURCE} 9-3-ロ-(1), 9-4-ロ-(2)",
    "bet": f"{SOURCE} 9-4-ロ-(1)",
    "raise": f"{SOURCE} 9-3-ロ-(2), 9-4-ロ-(3)",
    "all-in": f"{SOURCE} 9-7-イ",
}


@dataclasses.dataclass(frozen=True)
class TableRules:
    """One table's rules: the game's cards and hand, the operator's stakes and share.

    Attributes
    ----------
    hole : int
        Hole cards per customer: 4 (Omaha, 9-3-イ) or 2 (Texas Hold'em, 第3 10).
    hand : str
        The showdown's hand (:func:`harness.games.poker_hands.rank` kind):
        ``"omaha-hi"`` (exactly two hole and three board cards, 9-8-イ-(1))
        or ``"best5"`` (the best five of seven, 第3 10).
    hilo : bool
        Hi-Lo 8 or better (9-10; Omaha only).
    blind : int
        The small blind in yen (the big blind is twice it, 9-2-ロ), or with
        ``antes`` every customer's stake to take part (9-2-ハ).
    antes : bool
        9-2-ハ instead of the blinds.
    share : Fraction or None
        The operator's r, 0.90 <= r < 1 (9-9-イ); None for a tournament's
        game, whose pots are paid whole in tournament chips (11-3-ハ).
    chip : int
        The smallest chip: shares are truncated to whole chips, the rest to
        the winner 9-9-ロ / 13-ロ names -- 1 yen, or in a tournament's game
        the smallest tournament chip's points (11-3-ハ reads "1 yen" so);
        the blind must be a whole number of chips.
    """

    hole: int
    hand: str
    hilo: bool = False
    blind: int = 50
    antes: bool = False
    share: Fraction | None = Fraction(95, 100)
    chip: int = 1

    def __post_init__(self):
        if self.hole not in (2, 4) or self.hand not in ("omaha-hi", "best5") or (self.hilo and self.hole != 4):
            raise ValueError("a table deals 4 hole cards (Omaha, omaha-hi hand, Hi-Lo allowed) or 2 (Hold'em, best5)")
        if self.blind < 1:
            raise ValueError(f"the blind must be at least 1 yen, got {self.blind}")
        if self.share is not None:
            pots.check_share(self.share)
        if self.chip < 1 or self.blind % self.chip:
            raise ValueError(f"the blind ({self.blind}) must be a whole number of the smallest chip ({self.chip})")


@dataclasses.dataclass(frozen=True)
class View:
    """What the customer to act sees and may do."""

    seat: int
    street: str
    hole: tuple[int, ...]
    board: tuple[int, ...]
    chips: int          # what he has left to stake
    to_call: int        # what a call adds (at most his chips: a shorter call is all-in)
    opened: bool        # someone has staked in this betting round (bet/raise allowed, else bet/check)
    stakes: tuple[int, ...]

    def legal(self) -> tuple[str, ...]:
        """The actions open to him (9-3-ロ, 9-4-ロ, 9-7-イ)."""
        out = ["fold"] if self.to_call else []
        out += ["call"] if self.to_call else ["check"]
        if self.chips > self.to_call:
            out.append("raise" if self.opened else "bet")
        return tuple(out) + ("all-in",)


#: A policy: the action (one of :data:`ACTIONS`) and, for a bet or raise, the yen it adds.
Policy = Callable[[View], tuple[str, int]]


@dataclasses.dataclass(frozen=True)
class Round:
    """One played round: the cards, every action, the pots and who was paid what."""

    seats: int
    small_blind: int
    holes: dict[int, tuple[int, ...]]
    board: tuple[int, ...]
    actions: tuple[tuple[str, int, str, int], ...]   # (street, seat, action, yen added)
    staked: dict[int, int]          # each customer's stakes, less what was returned to him
    returned: dict[int, int]
    pots: tuple[pots.Pot, ...]
    carried: int
    folded: frozenset[int]
    showdown: bool
    paid: dict[int, int]
    house: int
    low_paid: dict[int, int]
    measures: tuple[str, ...] = ()   # the 9-14-イ measures applied to the deal
    void: str | None = None          # the rule under which the round's result did not occur

    def chips_conserved(self) -> bool:
        """Every yen staked (less what 9-7-ロ-(4) returned) is paid out or kept by the house (9-9)."""
        return sum(self.staked.values()) == sum(self.paid.values()) + self.house


class _Betting:
    """The state of one round's betting (9-3 .. 9-7)."""

    def __init__(self, rules: TableRules, chips: Sequence[int], small_blind: int):
        self.rules, self.n, self.sb = rules, len(chips), small_blind
        self.chips = list(chips)
        self.staked = {i: 0 for i in range(self.n)}
        self.folded: set[int] = set()
        self.all_in: set[int] = set()
        self.actions: list[tuple[str, int, str, int]] = []
        self.pots: list[pots.Pot] = []
        self.carried = 0
        self.returned: dict[int, int] = {}
        self.went_all_in: set[int] = set()   # all-in in the betting round under way (9-7-ロ)

    def holders(self) -> list[int]:
        return [i for i in range(self.n) if i not in self.folded and i not in self.all_in]

    def put(self, seat: int, amount: int, stakes: list[int]) -> None:
        amount = min(amount, self.chips[seat])
        self.chips[seat] -= amount
        stakes[seat] += amount
        self.staked[seat] += amount
        if self.chips[seat] == 0 and seat not in self.all_in:
            self.all_in.add(seat)
            self.went_all_in.add(seat)

    def street(self, name: str, first: int, stakes: list[int], had_option: list[bool], policy: Policy,
               view) -> None:
        """One betting round from seat ``first`` clockwise, then its gathering (9-3-ニ, 9-4-ニ, 9-7-ロ)."""
        acted: set[int] = set()
        seat = first
        while len(set(range(self.n)) - self.folded) > 1:
            holders, top = self.holders(), max(stakes)
            pending = [i for i in holders if i not in acted or stakes[i] < top]
            if not pending or (len(holders) < 2 and all(stakes[i] == top for i in holders)):
                break   # every stake equal (9-3-ハ, 9-4-ハ), or no two customers left to bet (reading)
            if seat in pending:
                self.act(seat, name, stakes, policy(view(seat, name, stakes)), view)
                acted.add(seat)
            seat = (seat + 1) % self.n
        all_in = [i in self.went_all_in for i in range(self.n)]
        self.went_all_in = set()
        g = pots.gather(self.carried, stakes, all_in, had_option, [i in self.folded for i in range(self.n)])
        self.pots += g.pots
        self.carried = g.carried
        for i, amount in g.returned.items():   # 9-7-ロ-(4)-(一)
            self.chips[i] += amount
            self.staked[i] -= amount
            self.returned[i] = self.returned.get(i, 0) + amount

    def act(self, seat: int, street: str, stakes: list[int], choice: tuple[str, int], view) -> None:
        v = view(seat, street, stakes)
        action, amount = choice
        if action not in v.legal():
            raise ValueError(f"seat {seat} may not {action} on the {street} (may: {', '.join(v.legal())})")
        add = {"fold": 0, "check": 0, "call": v.to_call, "all-in": v.chips}.get(action, amount)
        if action in ("bet", "raise") and not v.to_call < add <= v.chips:
            raise ValueError(f"seat {seat}: a {action} adds more than the call ({v.to_call}) and at most "
                             f"his chips ({v.chips}), got {add}")
        if action == "fold":
            self.folded.add(seat)
        else:
            self.put(seat, add, stakes)
        self.actions.append((street, seat, action, add))


def play_round(rules: TableRules, chips: Sequence[int], small_blind: int, deck: Sequence[int],
               policy: Policy, irregularity: irregular.Irregularity | None = None) -> Round:
    """Play one round on a shuffled ``deck`` (52 card indices) for customers with
    ``chips`` (each at least 1 yen; two or more), the small blind at seat ``small_blind``;
    ``irregularity``: what went wrong before the gathering, the measures of 9-14-イ applied
    (a void round returns every stake and pays nothing)."""
    n = len(chips)
    if n < 2 or min(chips) < 1 or not 0 <= small_blind < n:
        raise ValueError("a round needs two or more customers with chips and a small blind among them")
    layout = irregular.deal(n, rules.hole, small_blind, irregularity)
    if layout.void is not None:   # the round's result did not occur: nothing staked stays staked
        none = dict.fromkeys(range(n), 0)
        return Round(n, small_blind, {}, (), (), none, {}, (), 0, frozenset(), False, {}, 0, {}, layout.measures,
                     layout.void)
    hole_at, board_at = layout.holes, layout.board
    holes = {s: tuple(int(deck[k]) for k in at) for s, at in hole_at.items()}
    board = tuple(int(deck[k]) for k in board_at)
    b = _Betting(rules, chips, small_blind)
    stakes = [0] * n
    big = (small_blind + 1) % n
    had_option = [True] * n        # 9-7-ロ-(3): the holders when the betting opened, before the blinds
    if rules.antes:                                    # 9-2-ハ
        for s in range(n):
            b.put(s, rules.blind, stakes)
    else:                                              # 9-2-ロ
        b.put(small_blind, rules.blind, stakes)
        b.put(big, 2 * rules.blind, stakes)
    shown = 0

    def view(seat, street, st):
        top = max(st)
        return View(seat, street, holes[seat], board[:shown], b.chips[seat], min(top - st[seat], b.chips[seat]),
                    top > 0 and not (street == "pre-flop" and rules.antes and top == rules.blind), tuple(st))

    for name, burn, dealt, _ in STREETS:
        shown += dealt
        first = (big + 1) % n if name == "pre-flop" else (big if n == 2 else small_blind)
        b.street(name, first, stakes, had_option, policy, view)
        stakes = [0] * n
        had_option = [i in b.holders() for i in range(n)]
        if len(set(range(n)) - b.folded) == 1:         # 9-3-ハ-(1): the one customer left wins
            break
    live = sorted(set(range(n)) - b.folded)
    showdown = len(live) > 1
    clockwise = [(small_blind - 1 + k) % n for k in range(n)]  # from the customer right of the small blind
    low_paid: dict[int, int] = {}
    if showdown and rules.hilo:
        shown_hands = ph.omaha_showdown({i: holes[i] for i in live}, board)
        s = pots.settle_hilo(b.pots, b.carried, shown_hands.high, shown_hands.low, shown_hands.high_first,
                             shown_hands.low_first, rules.share, rules.chip)
        paid, house, low_paid = s.paid, s.house, s.low
    else:
        if showdown:
            values = ph.rank([holes[i] + board for i in live], rules.hand)
            hands = {i: int(v) for i, v in zip(live, values)}
        else:
            hands = {live[0]: 0}
        s = pots.settle(b.pots, b.carried, hands, clockwise, rules.share, rules.chip)
        paid, house = s.paid, s.house
    return Round(n, small_blind, holes, board, tuple(b.actions), dict(b.staked), dict(b.returned), tuple(b.pots),
                 b.carried, frozenset(b.folded), showdown, paid, house, low_paid, layout.measures)


# ------------------------------------------------------------- policies --

def call_down(view: View) -> tuple[str, int]:
    """Check when he may, otherwise call (all-in when his chips fall short); never folds or bets."""
    return ("check", 0) if "check" in view.legal() else ("call", 0)


def random_policy(generator, chip: int = 1) -> Policy:
    """Each legal action with equal chance, a bet or raise of any whole number of ``chip``
    above the call up to his chips with equal chance: every path of the betting, drawn
    through the unbiased bounded integers of ``generator``.  (Every stake and stack is a
    whole number of chips when the blinds and the starting stacks are.)"""
    def policy(view: View) -> tuple[str, int]:
        legal = view.legal()
        action = legal[int(generator.integers(0, len(legal)))]
        if action in ("bet", "raise"):
            return action, chip * int(generator.integers(view.to_call // chip + 1, view.chips // chip + 1))
        return action, 0
    return policy
