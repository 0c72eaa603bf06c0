"""The progressive jackpots of 000 別表第1 第3 (digest ``rules/poker.md`` §2):
the return of the progressive bet as a function of the meter, the
break-even meter, the seed's condition on the operator's contribution rate
and reset amount, and the meter played out through the ``deck`` device.

Source: ``000_d4cd2a3cb5c95429.txt`` L1053, L1087-1127 (Caribbean Stud
4-2-ロ, 4-6-ハ), L1303-1321 (Three Card Poker 5-8); the original wins where
the digest differs.  Each variant is one game's table of awards: a fixed
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
flush takes a tenth).  Readings: a customer who folds is excluded (4-5-ロ);
every strategy of these games plays every hand that wins the progressive
(Caribbean Stud's flush or better, Three Card Poker's straight or better,
above its Q-6-4), so the hand alone decides; one customer, one meter for
the table; amounts are kept exact (no rounding is stated for these games).
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from fractions import Fraction

import numpy as np

from harness.games import poker_hands as ph
from harness.games.base import Analysis, Game, GameOption, _replay, _run
from harness.games.core import BetRule, LOSE, Where, result_from_weights, rows
from harness.games.simulate import BetSimulation, Simulation

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
    cards: int
    awards: tuple[Award, ...]
    eligibility: str

    def classify(self, hands: np.ndarray) -> np.ndarray:
        """The award index of each hand (rows of card indices), -1 for a losing hand."""
        return _CLASSIFIERS[self.variant](hands)


TABLES = (
    ProgressiveTable("caribbean-stud", 5, (
        Award("royal_flush", f"{SOURCE} 4-6-ハ-(1)", share=Fraction(1)),
        Award("straight_flush", f"{SOURCE} 4-6-ハ-(2)", share=Fraction(1, 10)),
        Award("four_of_a_kind", f"{SOURCE} 4-6-ハ-(3)", multiple=500),
        Award("full_house", f"{SOURCE} 4-6-ハ-(4)", multiple=100),
        Award("flush", f"{SOURCE} 4-6-ハ-(5)", multiple=50),
    ), f"{SOURCE} 4-2-ロ, 4-5-ロ: with an ante; a folded customer excluded"),
    ProgressiveTable("three-card-poker", 3, (
        Award("ace_king_queen_of_spades", f"{SOURCE} 5-8-ハ-(1)-(一)", share=Fraction(1)),
        Award("ace_king_queen_suited", f"{SOURCE} 5-8-ハ-(1)-(二)", multiple=250),
        Award("straight_flush", f"{SOURCE} 5-8-ハ-(1)-(三)", multiple=35),
        Award("three_of_a_kind", f"{SOURCE} 5-8-ハ-(2)", multiple=30),
        Award("straight", f"{SOURCE} 5-8-ハ-(3)", multiple=3),
    ), f"{SOURCE} 5-8-イ, ロ: with an ante or Pair Plus"),
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
                             "stake added to the meter (4-2-ロ, 5-8-イ)", 0, RATE_SCALE, 1_500),
)


def _five_card_award(hands: np.ndarray | None) -> np.ndarray:
    """Award index of five-card hands (None: every hand, in the order of ``poker_hands.all_values``)."""
    names = [a.name for a in TABLES[0].awards]
    award_of = np.full(16, -1, dtype=np.int64)  # by category code
    for r in ph.FIVE_CARD_RANKS:
        if r.name in names:
            award_of[r.code] = names.index(r.name)
    values = ph.all_values(5) if hands is None else ph.rank(hands)
    return award_of[ph.category(values).astype(np.int64)]


def _three_card_award(hands: np.ndarray) -> np.ndarray:
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


_CLASSIFIERS = {"caribbean-stud": _five_card_award, "three-card-poker": _three_card_award}


def table(variant: str) -> ProgressiveTable:
    return next(t for t in TABLES if t.variant == variant)


@functools.lru_cache(maxsize=None)
def award_counts(variant: str) -> tuple[tuple[int, ...], int]:
    """Hands of the customer's cards winning each award, and all hands (every hand enumerated)."""
    t = table(variant)
    if t.cards == 5:
        awards = _five_card_award(None)
    else:
        awards = t.classify(np.array(list(itertools.combinations(range(52), t.cards)), dtype=np.uint8))
    return tuple(int((awards == k).sum()) for k in range(len(t.awards))), len(awards)


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


def _probabilities(variant: str) -> list[Fraction]:
    counts, hands = award_counts(variant)
    return [Fraction(c, hands) for c in counts]


def fixed_winnings(variant: str) -> Fraction:
    """Winnings per unit staked from the fixed multiples."""
    return sum((p * a.multiple for p, a in zip(_probabilities(variant), table(variant).awards)
                if a.multiple is not None), Fraction(0))


def meter_share(variant: str) -> Fraction:
    """Expected share of the meter paid per progressive stake: winnings are ``share x meter / stake``."""
    return sum((p * a.share for p, a in zip(_probabilities(variant), table(variant).awards)
                if a.share is not None), Fraction(0))


def rtp(variant: str, meter: Fraction, stake: int) -> Fraction:
    """Return per unit staked at a meter: the stake back on a win plus the winnings."""
    won = sum(_probabilities(variant), Fraction(0))
    return won + fixed_winnings(variant) + meter_share(variant) * Fraction(meter) / stake


def break_even_meter(variant: str, stake: int) -> Fraction:
    """The meter (yen) at which the bet returns exactly what is staked."""
    return (1 - sum(_probabilities(variant), Fraction(0)) - fixed_winnings(variant)) * stake / meter_share(variant)


def long_run_winnings(variant: str, m: Meter) -> tuple[Fraction, Fraction]:
    """Exact bounds (equal for a table whose only meter award is the whole meter) of the
    long-run progressive winnings per unit staked, for the operator's rate and reset."""
    whole = sum((p for p, a in zip(_probabilities(variant), table(variant).awards) if a.share == 1), Fraction(0))
    partial = sum((p * a.share for p, a in zip(_probabilities(variant), table(variant).awards)
                   if a.share is not None and a.share < 1), Fraction(0))
    low = fixed_winnings(variant) + m.rate + whole * m.reset / m.stake
    return low, low + partial * m.reset / m.stake


def bet_rule(variant: str, m: Meter) -> BetRule:
    t = table(variant)
    entries = [(a.name, Where(hand=a.name), a.net(Fraction(m.meter), m.stake)) for a in t.awards]
    return BetRule("progressive", ", ".join([t.eligibility] + [a.source for a in t.awards]), rows(*entries),
                   note=f"per unit of progressive stake at a meter of {m.meter} yen (stake {m.stake} yen); "
                        "shares of the meter are paid as winnings, the stake kept")


def _text(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def analyse(variant: str, stake: int, meter: int, reset: int, rate: int) -> Analysis:
    """Exact return of the progressive bet at the meter, and the meter's long-run figures."""
    m = Meter.of(stake, meter, reset, rate)
    counts, hands = award_counts(variant)
    names = [a.name for a in table(variant).awards]
    weights = dict(zip(names, counts)) | {"lose": hands - sum(counts)}
    result = result_from_weights(bet_rule(variant, m), weights, hands)
    low, high = long_run_winnings(variant, m)
    holds = True if high <= 1 else False if low > 1 else None
    even = break_even_meter(variant, stake)
    parameters = {
        "stake_yen": stake, "meter_yen": meter, "reset_yen": reset,
        "rate": _text(m.rate),
        "return_per_yen_of_meter": _text(meter_share(variant) / stake),
        "return_without_meter": _text(rtp(variant, Fraction(0), stake)),
        "break_even_meter_yen": _text(even),
        "break_even_meter_yen_float": float(even),
        "winnings_per_stake_at_meter": _text(fixed_winnings(variant) + meter_share(variant) * meter / stake),
        "long_run_winnings_per_stake": [_text(low), _text(high)],
        "long_run_winnings_per_stake_float": [float(low), float(high)],
        "seed_condition": {"rule": f"{RATE_RULE}: total progressive winnings / total progressive stakes <= 1",
                           "holds": holds},
        "hand_counts": dict(zip(names, counts)),
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
             progress=None, chunk: int = 1 << 16) -> tuple[Simulation, MeterRun]:
    """Deal ``rounds`` rounds through the ``deck`` device (one fresh shuffle each, the
    customer's cards the first ones) and play the meter along them."""
    from rngcore.devices import device_spec

    m = Meter.of(stake, meter, reset, rate)
    t = table(variant)
    exact = analyse(variant, stake, meter, reset, rate)
    run = MeterRun(Fraction(meter))
    tally: dict[str, int] = {}
    done = [0]

    def step(n: int) -> None:
        awards = t.classify(device_spec("deck").draw(generator, n)[:, :t.cards])
        for k, a in enumerate(t.awards):
            count = int((awards == k).sum())
            if count:
                tally[a.name] = tally.get(a.name, 0) + count
        tally["lose"] = tally.get("lose", 0) + int((awards < 0).sum())
        run.play(awards, t, m)
        done[0] += n

    played, interrupted, seconds = _run(rounds, chunk, step, lambda: done[0], progress)
    sim = BetSimulation(exact.bets[0], tally)
    low, high = long_run_winnings(variant, m)
    ratio = run.ratio()
    note = (f"outcome chi-square: the awards vs their exact probabilities; the meter played along: winnings per "
            f"stake {float(ratio):.6f} over {len(run.cycles)} completed jackpot cycles (long run, exact: "
            f"{float(low):.6f}" + ("" if low == high else f"..{float(high):.6f}") + ")")
    return (Simulation("poker-progressive", variant, "deck", played, rounds, seconds, sim.fit, (sim,),
                       procedure=f"one fresh 52-card shuffle per round (000 第3 2); the customer's cards: 1-{t.cards}; "
                                 "one progressive stake per round",
                       interrupted=interrupted, replay=_replay(generator), note=note), run)


class PokerProgressiveGame(Game):
    name = "poker-progressive"
    summary = ("the progressive jackpots of Caribbean Stud and Three Card Poker: return by the meter, break-even "
               "meter, the seed's winnings-to-stakes condition for the operator's rate and reset")
    rules = f"{SOURCE} 4-2-ロ, 4-6-ハ, 5-8 (seed L1053, L1087-1127, L1303-1321)"
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
