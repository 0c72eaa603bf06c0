"""The progressive jackpots of 000 別表第1 第3 (digest ``rules/poker.md`` §2):
the return of the progressive bet as a function of the meter, the
break-even meter, the seed's condition on the operator's contribution rate
and reset amount, and the meter played out through the ``deck`` device.

Source: ``000_d4cd2a3cb5c95429.txt`` L1053, L1087-1127 (Caribbean Stud
4-2-ロ, 4-6-ハ), L1303-1321 (Three Card Poker 5-8), L1427-1451 (Texas
Hold'em Bonus 6-9); the original wins where the digest differs.  Each variant is one game's table of awards: a fixed
multiple of the progressive stake ("N倍に相当する額", winnings of N x the
stake, which is kept) or a share of the accumulated amount, the meter.

The meter (4-2-ロ, 5-8-イ): every progressive stake adds ``stake x rate``,
the rate chosen by the operator so that total progressive winnings / total
progressive stakes does not exceed 1.  After a share of the meter is paid,
if what is left is below the reset amount the meter is set to the reset
amount (4-6-ハ, 5-8-ハ): the operator adds the difference.

Exact figures: at meter M the bet's expected net per unit staked is linear
in M, so its return and the meter where it breaks even are exact fractions.
In the long run the meter pays out every contribution and every amount the
resets add (a reset after a whole-meter award adds the reset amount R; one
after a share f of the meter adds at most f R), so the long-run winnings per
unit staked are exactly

    fixed awards + rate + P(whole-meter award) R / stake      (+ at most the share awards' f R / stake)

an exact value for a table whose only meter award takes the whole meter
(Three Card Poker) and exact bounds otherwise (Caribbean Stud's straight
flush takes a tenth, Hold'em Bonus's later royal flushes a quarter and a
twentieth).  Readings: a customer who folds is excluded (4-5-ロ, 6-9-ロ);
every strategy of Caribbean Stud and Three Card Poker plays every hand that
wins the progressive (a flush or better; a straight or better, above Q-6-4),
so the hand alone decides; Hold'em Bonus's customer folds the starting
hands of its optimal strategy (:data:`harness.games.holdem_bonus.FOLDS`).
A Hold'em hand "formed without the customer's cards" (6-9-ロ) is one no
stronger than the board's own five cards.  One customer, one meter for the
table; amounts are kept exact (no rounding is stated for the progressives).
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from fractions import Fraction

import numpy as np

from harness.games import holdem_bonus as thb
from harness.games import poker_hands as ph
from harness.games.base import Analysis, Game, GameOption, _replay, _run
from harness.games.core import BetRule, LOSE, Where, result_from_weights, rows
from harness.games.simulate import BetSimulation, Simulation
from harness.kernels import ffi, lib
from rngcore.errors import raise_for_status

SOURCE = "000 別表第1 第3"


@dataclasses.dataclass(frozen=True)
class Award:
    """One row of a progressive table: a fixed multiple of the stake or a share of the meter."""

    name: str
    source: str
    multiple: int | None = None
    share: Fraction | None = None

    def net(self, meter: Fraction, stake: int) -> Fraction:
        """Winnings per unit staked at this meter (the stake is kept)."""
        return Fraction(self.multiple) if self.multiple is not None else self.share * meter / stake


@dataclasses.dataclass(frozen=True)
class ProgressiveTable:
    """A game's progressive: its awards, the cards dealt to the customer, and its eligibility rule."""

    variant: str
    positions: tuple[int, ...]   # the cards of a shuffled deck that decide the award (the customer's, the board)
    awards: tuple[Award, ...]
    eligibility: str

    def classify(self, cards: np.ndarray, **options) -> np.ndarray:
        """The award index of each round (rows of the cards at ``positions``), -1 for a losing one."""
        return _CLASSIFIERS[self.variant](cards, **options)


TABLES = (
    ProgressiveTable("caribbean-stud", (0, 1, 2, 3, 4), (
        Award("royal_flush", f"{SOURCE} 4-6-ハ-(1)", share=Fraction(1)),
        Award("straight_flush", f"{SOURCE} 4-6-ハ-(2)", share=Fraction(1, 10)),
        Award("four_of_a_kind", f"{SOURCE} 4-6-ハ-(3)", multiple=500),
        Award("full_house", f"{SOURCE} 4-6-ハ-(4)", multiple=100),
        Award("flush", f"{SOURCE} 4-6-ハ-(5)", multiple=50),
    ), f"{SOURCE} 4-2-ロ, 4-5-ロ: with an ante; a folded customer excluded"),
    ProgressiveTable("three-card-poker", (0, 1, 2), (
        Award("ace_king_queen_of_spades", f"{SOURCE} 5-8-ハ-(1)-(一)", share=Fraction(1)),
        Award("ace_king_queen_suited", f"{SOURCE} 5-8-ハ-(1)-(二)", multiple=250),
        Award("straight_flush", f"{SOURCE} 5-8-ハ-(1)-(三)", multiple=35),
        Award("three_of_a_kind", f"{SOURCE} 5-8-ハ-(2)", multiple=30),
        Award("straight", f"{SOURCE} 5-8-ハ-(3)", multiple=3),
    ), f"{SOURCE} 5-8-イ, ロ: with an ante or Pair Plus"),
    # the customer's cards 1-2, the flop 6-8, the turn 10, the river 12 (cards 5, 9, 11 burnt: 6-4-ロ, 6-5-ロ)
    ProgressiveTable("texas-holdem-bonus", (0, 1, 5, 6, 7, 9, 11), (
        Award("royal_flush_with_the_flop", f"{SOURCE} 6-9-ハ-(1)-(一)", share=Fraction(1)),
        Award("royal_flush_with_the_turn", f"{SOURCE} 6-9-ハ-(1)-(二)", share=Fraction(1, 4)),
        Award("royal_flush_with_the_river", f"{SOURCE} 6-9-ハ-(1)-(三)", share=Fraction(1, 20)),
        Award("straight_flush", f"{SOURCE} 6-9-ハ-(2)", multiple=250),
        Award("four_of_a_kind", f"{SOURCE} 6-9-ハ-(3)", multiple=100),
        Award("full_house", f"{SOURCE} 6-9-ハ-(4)", multiple=10),
        Award("royal_flush_on_the_board", f"{SOURCE} 6-9-ニ, ホ (option; one participant)", share=Fraction(1)),
    ), f"{SOURCE} 6-9-イ, ロ: with an ante; a folded customer and hands formed without his cards excluded"),
)
RESET_RULE = f"{SOURCE} 4-6-ハ, 5-8-ハ"
RATE_RULE = f"{SOURCE} 4-2-ロ, 5-8-イ"
RATE_SCALE = 10_000  # the rate option is in hundredths of a percent

OPTIONS = (
    GameOption("stake", "YEN", "the progressive stake in yen (4-2-ロ, 5-8-イ)", 1, 10**9, 100),
    GameOption("meter", "YEN", "the accumulated amount (累積金額) in yen when the bet is placed; at least the "
                               "reset amount (4-6-ハ, 5-8-ハ)", 0, 10**15, 1_000_000),
    GameOption("reset", "YEN", "the reset amount (リセット金額) in yen, the meter after a jackpot "
                               "(4-6-ハ, 5-8-ハ)", 0, 10**15, 1_000_000),
    GameOption("rate", "BP", "the operator's contribution rate, in hundredths of a percent of each progressive "
                             "stake added to the meter (4-2-ロ, 5-8-イ, 6-9-イ)", 0, RATE_SCALE, 1_500),
    GameOption.choice("ante-pays", "texas-holdem-bonus: the operator's ante-pay set (6-8-ロ), which decides the "
                                   "hands the customer folds and so cannot win the progressive (6-9-ロ)",
                      ("straight", "flush")),
    GameOption.choice("board-royal", "texas-holdem-bonus: a royal flush of the board alone also wins the whole "
                                     "meter, shared by the participants (6-9-ニ, ホ; one customer here)", ("no", "yes")),
)


def _five_card_award(hands: np.ndarray | None, played=None, **options) -> np.ndarray:
    """Award index of five-card hands (None: every hand, in the order of ``poker_hands.all_values``);
    ``played``: whether each customer bet (a folded one is excluded, 4-5-ロ; default: every one did)."""
    names = [a.name for a in TABLES[0].awards]
    award_of = np.full(16, -1, dtype=np.int64)  # by category code
    for r in ph.FIVE_CARD_RANKS:
        if r.name in names:
            award_of[r.code] = names.index(r.name)
    values = ph.all_values(5) if hands is None else ph.rank(hands)
    out = award_of[ph.category(values).astype(np.int64)]
    if played is not None:
        out[~np.asarray(played, dtype=bool)] = -1
    return out


def _three_card_award(hands: np.ndarray, **options) -> np.ndarray:
    hands = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
    cats = ph.category(ph.rank(hands, "three"))
    suited = (hands // 13 == hands[:, :1] // 13).all(axis=1)
    akq = (np.sort(hands % 13, axis=1) == [0, 11, 12]).all(axis=1) & suited  # A (0), Q (11), K (12) of one suit
    spades = hands[:, 0] // 13 == 0
    out = np.full(len(hands), -1, dtype=np.int64)
    out[cats == ph.lib.KERN_PK3_STRAIGHT] = 4
    out[cats == ph.lib.KERN_PK3_TRIPS] = 3
    out[cats == ph.lib.KERN_PK3_STRAIGHT_FLUSH] = 2
    out[akq] = 1
    out[akq & spades] = 0
    return out


def _holdem_award(cards: np.ndarray, ante_pays: str = "straight", board_royal: str = "no", played=None,
                  **options) -> np.ndarray:
    """Rows of the customer's 2 cards, the flop's 3, the turn, the river; ``played``: whether each
    customer made the flop bet (default: the hands outside the optimal strategy's fold set)."""
    cards = np.asarray(cards, dtype=np.int64)
    folded = np.isin([thb.hand_name(int(a), int(b)) for a, b in cards[:, :2]], thb.FOLDS[ante_pays]) \
        if played is None else ~np.asarray(played, dtype=bool)
    mine, board = ph.rank(cards), ph.rank(cards[:, 2:])
    cat = ph.category(mine)
    royal = ph.lib.KERN_PK_ROYAL_FLUSH
    out = np.full(len(cards), -1, dtype=np.int64)
    for k, code in ((3, ph.lib.KERN_PK_STRAIGHT_FLUSH), (4, ph.lib.KERN_PK_QUADS), (5, ph.lib.KERN_PK_FULL_HOUSE)):
        out[cat == code] = k
    by_river = cat == royal
    out[by_river] = 2
    out[by_river & (ph.category(ph.rank(cards[:, :6])) == royal)] = 1
    out[by_river & (ph.category(ph.rank(cards[:, :5])) == royal)] = 0
    own = mine == board  # the board's own hand (9-ロ)
    out[own | folded] = -1
    if board_royal == "yes":
        out[own & (cat == royal)] = 6  # folded customers too: their stakes stay (9-ニ)
    return out


_CLASSIFIERS = {"caribbean-stud": _five_card_award, "three-card-poker": _three_card_award,
                "texas-holdem-bonus": _holdem_award}


def table(variant: str) -> ProgressiveTable:
    return next(t for t in TABLES if t.variant == variant)


@functools.lru_cache(maxsize=None)
def award_counts(variant: str, ante_pays: str = "straight", board_royal: str = "no") -> tuple[tuple[int, ...], int]:
    """Rounds winning each award, and all rounds, every deal of the cards that decide it enumerated."""
    t = table(variant)
    if variant == "texas-holdem-bonus":
        return _holdem_counts(ante_pays, board_royal)
    if len(t.positions) == 5:
        awards = _five_card_award(None)
    else:
        awards = t.classify(np.array(list(itertools.combinations(range(52), len(t.positions))), dtype=np.uint8))
    return tuple(int((awards == k).sum()) for k in range(len(t.awards))), len(awards)


# The 20 orders (flop, turn, river) of a board's 5 cards by when a royal flush with 3 or 4 of its
# cards on the board is completed: with the flop, with the turn, with the river.
_ROYAL_ORDERS = {3: (2, 6, 12), 4: (0, 4, 16)}


def _holdem_counts(ante_pays: str, board_royal: str) -> tuple[tuple[int, ...], int]:
    """Every customer hand (one of each of the 169 kinds, weighted) and every board counted
    in C (``csrc/kernels/holdem_progressive.h``), every order of the board weighed."""
    kinds: dict[str, list] = {}
    for a, b in itertools.combinations(range(52), 2):
        kinds.setdefault(thb.hand_name(a, b), []).append((a, b))
    names = list(kinds)
    holes = np.array([kinds[name][0] for name in names], dtype=np.uint8)
    out = np.zeros((len(names), lib.KERN_THBP_CLASSES), dtype=np.uint64)
    raise_for_status(lib.kern_thbp_counts(ffi.from_buffer("uint8_t[]", np.arange(52, dtype=np.uint8)), 52,
                                          ffi.from_buffer("uint8_t[]", holes), len(names),
                                          ffi.from_buffer("uint64_t[]", out)), "Hold'em progressive boards")
    counts = [0] * 7
    for name, row in zip(names, out.astype(np.int64).tolist()):
        weight = len(kinds[name])
        if name not in thb.FOLDS[ante_pays]:
            sf, quads, full, royal3, royal4, _ = row
            for when in range(3):
                counts[when] += weight * (royal3 * _ROYAL_ORDERS[3][when] + royal4 * _ROYAL_ORDERS[4][when])
            counts[3] += weight * 20 * sf
            counts[4] += weight * 20 * quads
            counts[5] += weight * 20 * full
        if board_royal == "yes":
            counts[6] += weight * 20 * row[5]
    return tuple(counts), math.comb(52, 2) * math.comb(50, 5) * 20


# ------------------------------------------------------------ exact math --

@dataclasses.dataclass(frozen=True)
class Meter:
    """The operator's parameters: stake and amounts in yen, the rate as an exact fraction."""

    stake: int
    meter: int
    reset: int
    rate: Fraction

    @classmethod
    def of(cls, stake: int, meter: int, reset: int, rate: int) -> "Meter":
        if meter < reset:
            raise ValueError(f"poker-progressive: the meter ({meter} yen) is below the reset amount ({reset} yen); "
                             "after a jackpot the meter is set to the reset amount (4-6-ハ, 5-8-ハ)")
        return cls(stake, meter, reset, Fraction(rate, RATE_SCALE))


def _probabilities(variant: str, **rules) -> list[Fraction]:
    counts, hands = award_counts(variant, **rules)
    return [Fraction(c, hands) for c in counts]


def fixed_winnings(variant: str, **rules) -> Fraction:
    """Winnings per unit staked from the fixed multiples."""
    return sum((p * a.multiple for p, a in zip(_probabilities(variant, **rules), table(variant).awards)
                if a.multiple is not None), Fraction(0))


def meter_share(variant: str, **rules) -> Fraction:
    """Expected share of the meter paid per progressive stake: winnings are ``share x meter / stake``."""
    return sum((p * a.share for p, a in zip(_probabilities(variant, **rules), table(variant).awards)
                if a.share is not None), Fraction(0))


def rtp(variant: str, meter: Fraction, stake: int, **rules) -> Fraction:
    """Return per unit staked at a meter: the stake back on a win plus the winnings."""
    won = sum(_probabilities(variant, **rules), Fraction(0))
    return won + fixed_winnings(variant, **rules) + meter_share(variant, **rules) * Fraction(meter) / stake


def break_even_meter(variant: str, stake: int, **rules) -> Fraction:
    """The meter (yen) at which the bet returns exactly what is staked."""
    fixed = sum(_probabilities(variant, **rules), Fraction(0)) + fixed_winnings(variant, **rules)
    return (1 - fixed) * stake / meter_share(variant, **rules)


def long_run_winnings(variant: str, m: Meter, **rules) -> tuple[Fraction, Fraction]:
    """Exact bounds (equal for a table whose only meter award is the whole meter) of the
    long-run progressive winnings per unit staked, for the operator's rate and reset."""
    pairs = list(zip(_probabilities(variant, **rules), table(variant).awards))
    whole = sum((p for p, a in pairs if a.share == 1), Fraction(0))
    partial = sum((p * a.share for p, a in pairs if a.share is not None and a.share < 1), Fraction(0))
    low = fixed_winnings(variant, **rules) + m.rate + whole * m.reset / m.stake
    return low, low + partial * m.reset / m.stake


def bet_rule(variant: str, m: Meter) -> BetRule:
    t = table(variant)
    entries = [(a.name, Where(hand=a.name), a.net(Fraction(m.meter), m.stake)) for a in t.awards]
    return BetRule("progressive", ", ".join([t.eligibility] + [a.source for a in t.awards]), rows(*entries),
                   note=f"per unit of progressive stake at a meter of {m.meter} yen (stake {m.stake} yen); "
                        "shares of the meter are paid as winnings, the stake kept")


def _rules(variant: str, ante_pays: str, board_royal: str) -> dict:
    """The Hold'em Bonus options that change its progressive (none for the other tables)."""
    return {"ante_pays": ante_pays, "board_royal": board_royal} if variant == "texas-holdem-bonus" else {}


def _text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def analyse(variant: str, stake: int, meter: int, reset: int, rate: int, ante_pays: str = "straight",
            board_royal: str = "no") -> Analysis:
    """Exact return of the progressive bet at the meter, and the meter's long-run figures."""
    m = Meter.of(stake, meter, reset, rate)
    rules = _rules(variant, ante_pays, board_royal)
    counts, hands = award_counts(variant, **rules)
    names = [a.name for a in table(variant).awards]
    weights = dict(zip(names, counts)) | {"lose": hands - sum(counts)}
    result = result_from_weights(bet_rule(variant, m), weights, hands)
    low, high = long_run_winnings(variant, m, **rules)
    holds = True if high <= 1 else False if low > 1 else None
    even = break_even_meter(variant, stake, **rules)
    parameters = {
        "stake_yen": stake, "meter_yen": meter, "reset_yen": reset,
        "rate": _text(m.rate),
        "return_per_yen_of_meter": _text(meter_share(variant, **rules) / stake),
        "return_without_meter": _text(rtp(variant, Fraction(0), stake, **rules)),
        "break_even_meter_yen": _text(even),
        "break_even_meter_yen_float": float(even),
        "winnings_per_stake_at_meter": _text(fixed_winnings(variant, **rules)
                                             + meter_share(variant, **rules) * meter / stake),
        "long_run_winnings_per_stake": [_text(low), _text(high)],
        "long_run_winnings_per_stake_float": [float(low), float(high)],
        "seed_condition": {"rule": f"{RATE_RULE}: total progressive winnings / total progressive stakes <= 1",
                           "holds": holds},
        "hand_counts": dict(zip(names, counts)),
        **({"texas_holdem_bonus": rules} if rules else {}),
    }
    verdict = {True: "holds", False: "is broken", None: "is undecided by the bounds (simulate the meter)"}[holds]
    note = (f"at a meter of {meter} yen the bet returns {float(result.rtp) * 100:.4f} %; it breaks even at "
            f"{float(even):,.0f} yen; the long-run winnings per stake for rate {float(m.rate):.4f} and reset "
            f"{reset} yen are {float(low):.6f}" + ("" if low == high else f"..{float(high):.6f}")
            + f": the seed's condition (<= 1) {verdict}")
    return Analysis("poker-progressive", variant, parameters, (result,), note)


# ------------------------------------------------------------ simulation --

@dataclasses.dataclass
class MeterRun:
    """The meter played round by round: winnings and stakes in yen (exact), and
    per completed cycle (from one whole-meter award to the next) their sums."""

    meter: Fraction
    winnings: Fraction = Fraction(0)
    stakes: int = 0
    cycles: list[tuple[Fraction, int]] = dataclasses.field(default_factory=list)
    _cycle: tuple[Fraction, int] = (Fraction(0), 0)

    def ratio(self) -> Fraction | None:
        return self.winnings / self.stakes if self.stakes else None

    def interval(self, z: float = 3.2905) -> tuple[float, float] | None:
        """A z-sigma interval of the long-run ratio from the completed cycles (regenerative estimate)."""
        n = len(self.cycles)
        if n < 2:
            return None
        w = np.array([float(c[0]) for c in self.cycles])
        s = np.array([float(c[1]) for c in self.cycles])
        r = w.sum() / s.sum()
        se = math.sqrt(((w - r * s) ** 2).sum() / (n * (n - 1))) / s.mean()
        return r - z * se, r + z * se

    def play(self, awards: np.ndarray, t: ProgressiveTable, m: Meter) -> None:
        """Settle rounds (award index per round, -1 loses), one progressive stake each."""
        step = m.rate * m.stake
        fixed = np.array([a.multiple or 0 for a in t.awards], dtype=np.int64)
        won_fixed = np.where(awards >= 0, fixed[np.maximum(awards, 0)], 0)
        events = np.nonzero(np.isin(awards, [k for k, a in enumerate(t.awards) if a.share is not None]))[0]
        start = 0
        for i in list(events) + [len(awards)]:
            # rounds start..i-1 (and round i's stake) add to the meter before round i is settled
            upto = min(i + 1, len(awards))
            fixed_part = int(won_fixed[start:upto].sum()) * m.stake
            self.meter += step * (upto - start)
            self._add(Fraction(fixed_part), (upto - start) * m.stake)
            if i < len(awards):
                share = t.awards[int(awards[i])].share
                paid = share * self.meter
                self.meter -= paid
                self._add(paid, 0)
                if self.meter < m.reset:
                    self.meter = Fraction(m.reset)
                if share == 1:
                    self.cycles.append(self._cycle)
                    self._cycle = (Fraction(0), 0)
            start = upto

    def _add(self, winnings: Fraction, stakes: int) -> None:
        self.winnings += winnings
        self.stakes += stakes
        self._cycle = (self._cycle[0] + winnings, self._cycle[1] + stakes)


def simulate(rounds: int, generator, variant: str, stake: int, meter: int, reset: int, rate: int,
             ante_pays: str = "straight", board_royal: str = "no", progress=None,
             chunk: int = 1 << 16) -> tuple[Simulation, MeterRun]:
    """Deal ``rounds`` rounds through the ``deck`` device (one fresh shuffle each, the
    customer's cards the first ones) and play the meter along them."""
    from rngcore.devices import device_spec

    m = Meter.of(stake, meter, reset, rate)
    t = table(variant)
    rules = _rules(variant, ante_pays, board_royal)
    exact = analyse(variant, stake, meter, reset, rate, ante_pays, board_royal)
    run = MeterRun(Fraction(meter))
    tally: dict[str, int] = {}
    done = [0]

    def step(n: int) -> None:
        awards = t.classify(device_spec("deck").draw(generator, n)[:, list(t.positions)], **rules)
        for k, a in enumerate(t.awards):
            count = int((awards == k).sum())
            if count:
                tally[a.name] = tally.get(a.name, 0) + count
        tally["lose"] = tally.get("lose", 0) + int((awards < 0).sum())
        run.play(awards, t, m)
        done[0] += n

    played, interrupted, seconds = _run(rounds, chunk, step, lambda: done[0], progress)
    sim = BetSimulation(exact.bets[0], tally)
    low, high = long_run_winnings(variant, m, **rules)
    ratio = run.ratio()
    note = (f"outcome chi-square: the awards vs their exact probabilities; the meter played along: winnings per "
            f"stake {float(ratio):.6f} over {len(run.cycles)} completed jackpot cycles (long run, exact: "
            f"{float(low):.6f}" + ("" if low == high else f"..{float(high):.6f}") + ")")
    return (Simulation("poker-progressive", variant, "deck", played, rounds, seconds, sim.fit, (sim,),
                       procedure=f"one fresh 52-card shuffle per round (000 第3 2); the cards deciding the award: "
                                 f"{', '.join(str(p + 1) for p in t.positions)}; one progressive stake per round",
                       interrupted=interrupted, replay=_replay(generator), note=note), run)


class PokerProgressiveGame(Game):
    name = "poker-progressive"
    summary = ("the progressive jackpots of Caribbean Stud, Three Card Poker and Texas Hold'em Bonus: return by the "
               "meter, break-even meter, the seed's winnings-to-stakes condition for the operator's rate and reset")
    rules = f"{SOURCE} 4-2-ロ, 4-6-ハ, 5-8, 6-9 (seed L1053, L1087-1127, L1303-1321, L1427-1451)"
    variants = tuple(t.variant for t in TABLES)
    variants_help = "the game whose progressive table is analysed"
    options = OPTIONS
    devices = "deck"
    chunk = 1 << 16

    def check_together(self, strategy, options) -> None:
        Meter.of(options["stake"], options["meter"], options["reset"], options["rate"])

    def _analyse(self, variant, **options) -> Analysis:
        return analyse(variant, **options)

    def _simulate(self, rounds, generator, variant, progress, **options) -> Simulation:
        return simulate(rounds, generator, variant, progress=progress, chunk=self.chunk, **options)[0]


GAMES = (PokerProgressiveGame(),)
