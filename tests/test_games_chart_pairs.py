"""A player's chart whose pair rows play a pair otherwise than the row of its total: the exact
analysis values the chart as written (harness/games/twentyone.py ``standard_hand_key``).

A pair the chart does not split is played by its pair row (``pair 5`` D where ``hard 10`` says
H); in Pontoon a split pair that may not be split again is played by its ``split pair X`` row
where there is one, not by the row of its total.  Each check here plays the chart through the
independent reference round (tests/twentyone_reference.py, tests/pontoon_reference.py) over
every way the round can go and through the C round engine on the same cards, and compares the
mean with the exact analysis in fractions.
"""
from fractions import Fraction as F
import pathlib

import numpy as np
import pytest

from harness.games import twentyone as tw
from harness.games import twentyone_pontoon as pt
from harness.games import twentyone_pontoon_chart as pc
from harness.games import twentyone_table as tt
from harness.games.registry import GAMES
from rngcore.devices import cards
from tests import pontoon_reference
from tests import twentyone_reference as reference

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHART = (ROOT / "examples" / "blackjack_chart.csv").read_text()

# Unsplit pairs played otherwise than their totals: 4-4 doubles (hard 8 hits), 5-5 doubles
# everywhere (hard 10 hits everywhere), 6-6 hits (hard 12 stands everywhere), A-A doubles or
# stands (soft 12 has no row: it hits).
PAIR_ROWS = {"pair 4": "D,D,D,D,D,D,D,D,D,D", "pair 5": "D,D,D,D,D,D,D,D,D,D", "hard 10": "H,H,H,H,H,H,H,H,H,H",
             "pair 6": "H,H,H,H,H,H,H,H,H,H", "hard 12": "S,S,S,S,S,S,S,S,S,S", "pair A": "Ds,Ds,Ds,S,S,S,S,S,S,S"}
# The same chart with each of those pairs played as its total (what a pair keyed by its total plays).
AS_TOTALS = {**PAIR_ROWS, "pair 4": "H,H,H,H,H,H,H,H,H,H", "pair 5": PAIR_ROWS["hard 10"],
             "pair 6": PAIR_ROWS["hard 12"], "pair A": "H,H,H,H,H,H,H,H,H,H"}


def edit(text: str, rows: dict[str, str]) -> str:
    """``text`` with the named rows' cells replaced (each row must be there once) or added."""
    lines = text.splitlines()
    for name, cells in rows.items():
        at = [i for i, line in enumerate(lines) if line.split(",")[0] == name]
        assert len(at) <= 1, name
        if at:
            lines[at[0]] = f"{name},{cells}"
        else:
            lines.append(f"{name},{cells}")
    return "\n".join(lines) + "\n"


def codes(values, ten: int = 10):
    """Card codes of point values (a ten-value card as rank ``ten``), spades."""
    return np.array([cards.encode(ten if v == 10 else v, 0) for v in values], dtype=np.uint16)


def ordering_draws(counts):
    """The next card's (value, probability) after a path, for every ordering of a finite shoe."""
    def draws(path):
        left = list(counts)
        for v in path:
            left[v - 1] -= 1
        n = sum(left)
        return [(v, F(c, n)) for v, c in zip(tw.VALUES, left) if c]
    return draws


def replayed(play_one, draws, table, ten: int = 10):
    """E[net] of the reference round over every path ``draws`` gives, each path replayed by the
    C ``table`` on the same cards (it must reach the same net with exactly those cards)."""
    mean, paths = F(0), 0
    for path, prob, net in reference.every_path(play_one, draws):
        assert table.round(codes(path, ten))[::2] == (net, len(path)), path
        mean += prob * net
        paths += 1
    return mean, paths


@pytest.mark.parametrize("rules", [tw.Rules(max_hands=1, surrender=True),
                                   tw.Rules(max_hands=1, hole_card=False, hit_soft_17=True)],
                         ids=["hole-card", "no-hole-card"])
def test_unsplit_pairs_are_valued_by_their_pair_rows_over_every_ordering(rules):
    # A A 4 4 5 5 6 6 T T T: every pair of the chart's changed rows can be dealt
    counts = (2, 0, 0, 2, 2, 2, 0, 0, 0, 3)
    chart = tw.read_chart(edit(CHART, PAIR_ROWS), "chart")
    shoe = tw.FiniteShoe(counts)
    hands = tw.first_round(rules, shoe, chart)
    exact = tw.expected_return(hands)
    table = tt.TwentyOneTable(rules, chart, "jp-blackjack", 4)
    mean, paths = replayed(lambda deal: reference.play(rules, deal, chart), ordering_draws(counts), table)
    assert paths > 1000 and mean == exact
    played = {(h.hand, h.up): h.action for h in hands}
    assert played[(tw.of(5, 5), 6)] == tw.DOUBLE and played[(tw.of(6, 6), 4)] == tw.HIT
    assert played[(tw.of(4, 4), 5)] == tw.DOUBLE and played[(tw.of(1, 1), 4)] == tw.DOUBLE
    # the pairs played as their totals are another strategy, with another exact value
    as_totals = tw.read_chart(edit(CHART, AS_TOTALS), "chart")
    assert tw.expected_return(tw.first_round(rules, shoe, as_totals)) != exact


def test_the_infinite_shoe_values_each_unsplit_pair_by_its_row():
    """The main bet's analysis (infinite shoe): each changed pair's value is the reference round's
    mean over every draw of a shoe of A, 4, 5, 6 and tens, with the pair dealt against each upcard."""
    rules = tw.Rules(surrender=True)
    weights = (1, 0, 0, 1, 1, 1, 0, 0, 0, 2)
    chart = tw.read_chart(edit(CHART, PAIR_ROWS), "chart")
    table = tt.TwentyOneTable(rules, chart, "jp-blackjack", 4)
    checked = 0
    for h in tw.first_round(rules, tw.InfiniteShoe(weights), chart):
        x = tw.pair_value(h.hand)
        if x not in (1, 5, 6) or h.up not in (1, 5, 10):
            continue
        mean, _ = replayed(lambda deal: reference.play(rules, deal, chart),
                           lambda path: [((x, h.up, x)[len(path)], F(1))] if len(path) < 3 else
                           [(v, F(w, sum(weights))) for v, w in zip(tw.VALUES, weights) if w], table)
        # first_round's values are per hand dealt; under the peek a dealer blackjack is in them
        assert mean == h.value, (h.hand, h.up)
        checked += 1
    assert checked == 9


# ------------------------------------------------------------------ pontoon --

PONTOON = GAMES["pontoon"]


def pontoon_chart_text() -> str:
    """A complete Pontoon chart: every hand of 16 or less hits, 17 or more stands, doubles are kept."""
    def total(name: str) -> int:
        if name[0].isdigit():                        # a 6-7-8 candidate, 6-7
            return sum(map(int, name.split("-")))
        word = name.split()[1]
        if name.startswith("pair"):
            return 12 if word == "A" else 2 * int(word)
        return int(word)

    lines = ["hand,2,3,4,5,6,7,8,9,10,A"]
    for name in pc.required_rows():
        code = "S" if name.startswith("doubled") or total(name) >= 17 else "H"
        lines.append(f"{name}," + ",".join([code] * 10))
    return "\n".join(lines) + "\n"


# Split 4s and 6s everywhere; a split 6-6 that may not be split again stands (its own row),
# while a split hard 12 (4-8) hits.
SPLIT_ROWS = {"pair 4": "P,P,P,P,P,P,P,P,P,P", "pair 6": "P,P,P,P,P,P,P,P,P,P",
              "hard 12": "H,H,H,H,H,H,H,H,H,H", "split pair 6": "S,S,S,S,S,S,S,S,S,S"}


def test_a_split_pair_row_of_pontoon_is_the_play_the_analysis_values():
    """Pontoon, two hands at most, an infinite shoe of 4, 6, 8 and ten-value cards: 4-4 and 6-6
    split against every upcard; the 6-6 split's value is the reference round's mean over every
    draw, the C round playing each path alike, so the split 6-6 stands by ``split pair 6`` while
    the split 4-8 of the same upcard hits (hard 12): before, the analysis valued both as one."""
    rules = PONTOON.game_rules(max_hands=2)
    text = edit(pontoon_chart_text(), SPLIT_ROWS)
    chart = pc.read_chart(text, "chart", rules)
    weights = (0, 0, 0, 1, 0, 1, 0, 1, 0, 1)
    shoe = tw.InfiniteShoe(weights)
    table = tt.TwentyOneTable(rules, chart, PONTOON.shoe_rules, 4)
    hands = tw.first_round(rules, shoe, chart, evaluator=pt.PontoonEvaluator)
    # the same chart, a split 6-6 played as hard 12: another value for every 6-6 split
    hits = pc.read_chart(edit(text, {"split pair 6": SPLIT_ROWS["hard 12"]}), "chart", rules)
    other = {(h.hand, h.up): h.value for h in tw.first_round(rules, shoe, hits, evaluator=pt.PontoonEvaluator)}

    def deal_of(deal):
        return lambda: cards.encode(11 if (v := deal()) == 10 else v, 0)

    for h in hands:
        if h.hand != tw.of(6, 6):
            continue
        assert h.action == tw.SPLIT
        mean, paths = replayed(lambda deal: pontoon_reference.play(rules, deal_of(deal), chart),
                               lambda path: [((6, h.up, 6)[len(path)], F(1))] if len(path) < 3 else
                               [(v, F(w, sum(weights))) for v, w in zip(tw.VALUES, weights) if w], table, ten=11)
        assert paths > 100 and mean == h.value != other[(h.hand, h.up)], h.up


# ------------------------------------------------ the key is all a chart reads --

def hands_up_to(most: int):
    """Every hand (multiset of values) of 2..``most`` cards with a hard total of 21 or less."""
    layer = {tw.of(a, b) for a in tw.VALUES for b in tw.VALUES}
    for _ in range(2, most + 1):
        yield from layer
        layer = {tw.add(h, v) for h in layer for v in tw.VALUES if tw.hard_total(h) + v <= 21 and tw.cards(h) < most}


def random_blackjack_chart(rng) -> str:
    names = ([f"hard {t}" for t in range(5, 20)] + [f"soft {t}" for t in range(13, 21)]
             + [f"pair {x}" for x in list(range(2, 11)) + ["A"]])
    lines = ["hand,2,3,4,5,6,7,8,9,10,A"]
    for name in names:
        codes = ["H", "S", "D", "Ds", "R", "Rs"] + (["P"] * 3 if name.startswith("pair") else [])
        lines.append(f"{name}," + ",".join(rng.choice(codes) for _ in range(10)))
    return "\n".join(lines) + "\n"


def random_pontoon_chart(rng, rules) -> str:
    """Every cell a random code the reader accepts there, the optional rows and a ``split`` row of
    every row in half the charts' rows."""
    lines = ["hand,2,3,4,5,6,7,8,9,10,A"]
    names = pc.required_rows() + pc.optional_rows()
    names += [f"split {n}" for n in names if rng.random() < 0.5]
    for name in names:
        base = name.removeprefix("split ")
        cells = []
        for up in tw.CHART_UPCARDS:
            if base.startswith("doubled"):
                codes = ["S", "W"]
            else:
                codes = ["H", "S", "D", "Ds"]
                if not name.startswith("split ") and " x" not in base and rules.may_surrender(up):
                    codes += ["R", "Rs"]
                if base.startswith("pair") and not name.startswith("split "):
                    codes += ["P"] * 2
            cells.append(rng.choice(codes))
        lines.append(f"{name}," + ",".join(cells))
    return "\n".join(lines) + "\n"


def answers_by_key(rules, chart, key, most: int) -> int:
    """Ask ``chart`` every decision the analysis memoises (every hand of up to ``most`` cards, in
    every context, against every upcard, with the actions the analysis opens) and check that hands
    of one memo key get one answer: the analysis values one play per key.  Returns the questions."""
    asked, seen = 0, {}
    for hand in hands_up_to(most):
        for ctx in tt.CONTEXTS:
            if ctx.split_aces and not hand[0]:
                continue
            for up in tw.VALUES:
                ev = tw.Evaluator(rules, None, up, None)
                allowed = ev.allowed(hand, ctx)
                act = chart(hand, up, ctx, allowed)
                found = seen.setdefault((key(hand), ctx, up), (act, hand))
                assert found[0] == act, (hand, found[1], up, ctx)
                asked += 1
    return asked


@pytest.mark.parametrize("seed", range(3))
def test_a_blackjack_chart_plays_one_action_per_memo_key(seed):
    import random
    rng = random.Random(seed)
    rules = tw.Rules(surrender=True, double_after_split=bool(seed % 2))
    chart = tw.read_chart(random_blackjack_chart(rng), "chart")
    assert answers_by_key(rules, chart, tw.standard_hand_key, 6) > 10_000


@pytest.mark.parametrize("seed", range(3))
def test_a_pontoon_chart_plays_one_action_per_memo_key(seed):
    import random
    rng = random.Random(seed)
    rules = PONTOON.game_rules(double_cards="any")
    chart = pc.read_chart(random_pontoon_chart(rng, rules), "chart", rules)
    assert answers_by_key(rules, chart, pt.hand_key, 8) > 10_000


# --------------------------------------------------------------- simulation --

@pytest.mark.slow
@pytest.mark.parametrize("name", ["blackjack", "pontoon"])
def test_the_simulated_return_of_such_a_chart_contains_its_exact_return(tmp_path, name):
    import rngcore
    from harness.games import twentyone_game as tg

    game = GAMES[name]
    rules = game.game_rules()
    if name == "pontoon":
        text = edit(tw.chart_csv(pc.chart(rules, tg.infinite(rules)[1])), SPLIT_ROWS)
    else:
        text = edit(CHART, PAIR_ROWS)
    path = tmp_path / "chart.csv"
    path.write_text(text)
    sim = game.simulate(1_000_000, rngcore.Generator(bytes(range(32)).hex(), 21), strategy=str(path))
    main_bet = sim.bets[0]
    low, high = main_bet.interval
    assert main_bet.exact.rtp == game.analyse(strategy=str(path)).bet("main").rtp
    assert low <= float(main_bet.exact.rtp) <= high
    assert sim.outcome_fit.impossible == 0 and sim.outcome_fit.pvalue > 1e-9
