"""Sic bo and craps: exact results against computations written here.

Sic bo and the one-roll craps bets are recomputed by brute force over the
216 / 36 ordered dice outcomes with win rules typed from 000 第6 / 第5 and
002 § 537.3; the multi-roll craps bets by direct series summation (a
different method from the engine's Markov-chain elimination).
"""
import itertools
from fractions import Fraction as F

import pytest

import rngcore
from harness.games.registry import GAMES
from tests.games_support import assert_returns_agree

SEED = bytes.fromhex("5eed" * 16)
DICE3 = list(itertools.product(range(1, 7), repeat=3))
DICE2 = list(itertools.product(range(1, 7), repeat=2))


def rtp_over(outcomes, net):
    """1 + mean net over equally likely outcomes."""
    return 1 + sum(F(net(o)) for o in outcomes) / len(outcomes)


def sic_bo_nets():
    """Net payout of every sic bo bet per roll, typed from 000 第6 5-2, 6-2, 7-2, 7-3."""
    def triple(d):
        return d[0] == d[1] == d[2]

    nets = {
        "small": lambda d: 1 if 4 <= sum(d) <= 10 and not triple(d) else -1,
        "big": lambda d: 1 if 11 <= sum(d) <= 17 and not triple(d) else -1,
        "odd": lambda d: 1 if sum(d) % 2 == 1 and not triple(d) else -1,
        "even": lambda d: 1 if sum(d) % 2 == 0 and not triple(d) else -1,
        "any_triple": lambda d: 31 if triple(d) else -1,
    }
    totals = {4: 62, 5: 31, 6: 18, 7: 12, 8: 8, 9: 7, 10: 6, 11: 6, 12: 7, 13: 8, 14: 12, 15: 18, 16: 31, 17: 62}
    for t, pays in totals.items():
        nets[f"total_{t}"] = lambda d, t=t, pays=pays: pays if sum(d) == t else -1
    for n in range(1, 7):
        nets[f"single_{n}"] = lambda d, n=n: {0: -1, 1: 1, 2: 2, 3: 12}[d.count(n)]
        nets[f"double_{n}"] = lambda d, n=n: 11 if d.count(n) >= 2 else -1
        nets[f"triple_{n}"] = lambda d, n=n: 180 if d.count(n) == 3 else -1
    for a, b in itertools.combinations(range(1, 7), 2):
        nets[f"combination_{a}_{b}"] = lambda d, a=a, b=b: 6 if a in d and b in d else -1
    for four in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6), (2, 3, 5, 6)):
        name = "four_number_" + "_".join(map(str, four))
        nets[name] = lambda d, four=four: 7 if len(set(d)) == 3 and set(d) <= set(four) else -1
    for combo in itertools.combinations_with_replacement(range(1, 7), 3):
        if len(set(combo)) > 1:
            pays = 50 if len(set(combo)) == 2 else 30
            nets["three_dice_" + "_".join(map(str, combo))] = (
                lambda d, combo=combo, pays=pays: pays if tuple(sorted(d)) == combo else -1)
    return nets


def test_sic_bo_every_bet_matches_the_216_outcomes():
    analysis = GAMES["sic-bo"].analyse()
    nets = sic_bo_nets()
    assert len(analysis.bets) == len(nets) == 106
    for bet in analysis.bets:
        assert bet.rtp == rtp_over(DICE3, nets[bet.name]), bet.name
    # Spot values: small 35/36 (edge 2.78%), single number 1-2-12: 17/216 * ... = 208/216.
    assert analysis.bet("small").rtp == F(35, 36)
    assert analysis.bet("single_4").rtp == F(26, 27)
    assert analysis.bet("triple_2").rtp == F(181, 216)


def craps_one_roll_nets():
    """Net payouts typed from 000 第5 7-2, 8-2, 8-3 and 002 § 537.5."""
    single = {"two": (2, 30), "three": (3, 15), "eleven": (11, 15), "twelve": (12, 30)}
    nets = {name: (lambda d, t=t, p=p: p if sum(d) == t else -1) for name, (t, p) in single.items()}
    nets["any_seven"] = lambda d: 4 if sum(d) == 7 else -1
    nets["any_craps"] = lambda d: 7 if sum(d) in (2, 3, 12) else -1
    nets["field"] = lambda d: 2 if sum(d) in (2, 12) else 1 if sum(d) in (3, 4, 9, 10, 11) else -1
    # 002 § 537.5(c): half on any craps (7 to 1), half on eleven (15 to 1).
    nets["c_and_e"] = lambda d: F(1, 2) * nets["any_craps"](d) + F(1, 2) * nets["eleven"](d)
    nets["horn"] = lambda d: sum(F(1, 4) * nets[n](d) for n in single)
    for high, label in (("two", "2"), ("three", "3"), ("eleven", "11"), ("twelve", "12")):
        nets[f"horn_high_{label}"] = lambda d, high=high: sum(F(2 if n == high else 1, 5) * nets[n](d) for n in single)
    nets["whirl"] = lambda d: F(4, 5) * nets["horn"](d) + F(1, 5) * nets["any_seven"](d)
    nets["six_seven_eight"] = lambda d: 2 if sorted(d) in ([3, 3], [4, 4]) else 1 if sum(d) in (6, 7, 8) else -1
    for a, b in [(2, 2), (3, 3), (4, 4), (5, 5), (1, 3), (1, 4), (2, 3), (1, 5), (2, 4), (1, 6), (2, 5), (3, 4),
                 (2, 6), (3, 5), (3, 6), (4, 5), (4, 6)]:
        nets[f"hop_{a}_{b}"] = lambda d, a=a, b=b: (30 if a == b else 15) if sorted(d) == [a, b] else -1
    return nets


def test_craps_one_roll_bets_match_the_36_outcomes():
    analysis = GAMES["craps"].analyse("all")
    nets = craps_one_roll_nets()
    for name, net in nets.items():
        assert analysis.bet(name).rtp == rtp_over(DICE2, net), name
    assert analysis.bet("field").rtp == F(17, 18)


P = {t: F(sum(1 for d in DICE2 if sum(d) == t), 36) for t in range(2, 13)}
POINTS = (4, 5, 6, 8, 9, 10)
SEVEN = P[7]


def test_line_bets_by_series_summation():
    # Pass: win 7/11 on come-out, or the point before 7: P(p) * P(p) / (P(p) + P(7)) summed.
    win = P[7] + P[11] + sum(P[p] * P[p] / (P[p] + SEVEN) for p in POINTS)
    a = GAMES["craps"].analyse("all")
    assert a.bet("pass").rtp == 2 * win and a.bet("pass").house_edge == F(7, 495)
    assert a.bet("come").rtp == a.bet("pass").rtp
    dont_win = P[2] + P[3] + sum(P[p] * SEVEN / (P[p] + SEVEN) for p in POINTS)
    dont_lose = 1 - dont_win - P[12]
    assert a.bet("dont_pass").rtp == 1 + dont_win - dont_lose
    assert a.bet("dont_pass").house_edge == F(3, 220)                    # published 1.364 %
    assert a.bet("dont_pass").house_edge_per_resolved == F(27, 1925)     # published 1.403 %
    # Mean rolls per pass-line decision: 1 + sum P(p) / (P(p) + P(7)) = 557/165.
    assert a.bet("pass").expected_rolls == 1 + sum(P[p] / (P[p] + SEVEN) for p in POINTS) == F(557, 165)


def test_number_bets_by_series_summation():
    a = GAMES["craps"].analyse("all")
    place = {4: F(9, 5), 5: F(7, 5), 6: F(7, 6), 8: F(7, 6), 9: F(7, 5), 10: F(9, 5)}
    lose = {4: F(5, 11), 5: F(5, 8), 6: F(4, 5), 8: F(4, 5), 9: F(5, 8), 10: F(5, 11)}
    take = {4: F(2), 5: F(3, 2), 6: F(6, 5), 8: F(6, 5), 9: F(3, 2), 10: F(2)}
    for n in POINTS:
        w = P[n] / (P[n] + SEVEN)
        assert a.bet(f"place_{n}").rtp == 1 + w * place[n] - (1 - w)
        assert a.bet(f"place_lose_{n}").rtp == 1 + (1 - w) * lose[n] - w
        assert a.bet(f"pass_odds_{n}").rtp == 1 == a.bet(f"dont_come_odds_{n}").rtp  # true odds
        assert a.bet(f"pass_odds_{n}").outcome("win").probability == w
        assert take[n] * w == 1 - w
        assert a.bet(f"buy_{n}").rtp == F(19, 20)                               # 5 % up front
        assert a.bet(f"place_{n}").expected_rolls == 1 / (P[n] + SEVEN)
    assert a.bet("place_6").house_edge == F(1, 66) and a.bet("place_4").house_edge == F(1, 15)
    hard = {4: 7, 6: 9, 8: 9, 10: 7}
    for n, pays in hard.items():
        ph = F(1, 36)
        w = ph / (P[n] + SEVEN)
        assert a.bet(f"hard_{n}").rtp == 1 + w * pays - (1 - w)
    assert a.bet("hard_6").house_edge == F(1, 11) and a.bet("hard_4").house_edge == F(1, 9)


def fire_distribution():
    """Points made by a shooter, by sums over point cycles (not roll-level chains).

    A cycle is the come-out rolls up to a point plus the point rolls: it makes
    point q with a_q = (P(q) / P(any point)) * P(q) / (P(q) + P(7)), else it is
    the seven-out (probability s).  From a set S of made points the next
    event is a new point q with a_q / (1 - A_S) or the seven-out with
    s / (1 - A_S) (geometric series over repeats of made points).
    """
    any_point = sum(P[p] for p in POINTS)
    a = {q: P[q] / any_point * P[q] / (P[q] + SEVEN) for q in POINTS}
    s = 1 - sum(a.values())
    memo = {}

    def dist(made):
        if made in memo:
            return memo[made]
        stay = 1 - sum(a[q] for q in made)
        out = {len(made): s / stay}
        for q in POINTS:
            if q not in made:
                for k, p in dist(made | {q}).items():
                    out[k] = out.get(k, 0) + a[q] / stay * p
        memo[made] = out
        return out

    cycle_rolls = 1 / any_point + sum(P[q] / any_point / (P[q] + SEVEN) for q in POINTS)
    return dist(frozenset()), cycle_rolls / s


def test_fire_bet_by_point_cycles():
    dist, rolls = fire_distribution()
    assert sum(dist.values()) == 1
    a = GAMES["craps"].analyse("all")
    for table, pays in (("a", {4: 24, 5: 249, 6: 999}), ("b", {4: 39, 5: 199, 6: 499})):
        bet = a.bet(f"fire_bet_{table}")
        for k in range(7):
            assert bet.outcome(f"points_{k}").probability == dist[k]
        assert bet.rtp == sum(p * (1 + pays.get(k, -1)) for k, p in dist.items())
        assert bet.expected_rolls == rolls
    # Published figure for Table A (24/249/999): house edge 20.76 %.
    assert f"{float(a.bet('fire_bet_a').house_edge) * 100:.2f}" == "20.76"


@pytest.mark.parametrize("game", ["sic-bo", "craps"])
def test_simulation_agrees_with_exact(game):
    sim = GAMES[game].simulate(1_000_000, rngcore.Generator(SEED))
    assert sim.rounds == 1_000_000
    assert sim.outcome_fit.pvalue > 1e-9 and sim.outcome_fit.impossible == 0
    assert_returns_agree(sim)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["sic-bo", "craps"])
def test_simulation_large(game):
    sim = GAMES[game].simulate(500_000_000, rngcore.Generator(SEED))
    assert sim.outcome_fit.pvalue > 1e-9
    assert_returns_agree(sim, misses=3)
