"""Both-ways ways games (docs/slot_model.md, "Both-ways pays"): the spins that pay nothing, followed
per symbol as truth tables (harness.slot.ways_both), and every other figure of the programme over the
reels, against references that share none of that code.

* Small models (wilds on the first and last reels, counts with gaps, a paying wild with additive
  multipliers, two scatter symbols, reel heights, an odd number of reels) against every window of
  every height, each way listed one by one and read from both ends (``ways_reference``).
* The shipped example ``examples/slot_megaways_both_ways.toml`` at full size (2.99e18 stop and height
  combinations): its class RTPs against the textbook ways product read from each end, and every
  figure against the same game with its reels in reverse order (both-ways pays do not change when
  the reels are mirrored; the programme reads the two in different orders).
"""
from __future__ import annotations

import math
import pathlib
from collections import defaultdict

import pytest
from slot_support import model, refused
import ways_reference as ref
from test_slot_megaways import assert_both_ways_formula

from harness.benchcases.slot_ways import BOTH_WAYS_RTP
from harness.slot import ways, ways_both
from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.profiles import check

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "slot_megaways_both_ways.toml"

END_WILDS = """
name = "both ways, wilds on the end reels"
window = { rows = 3, reels = 4, heights = [{ 1 = 1, 3 = 1 }, { 2 = 1, 3 = 2 }, { 1 = 2, 2 = 1 }, { 2 = 1, 3 = 1 }] }
bet = { ways = 81, per_way = 1, total = 10, both_ways = true }
[symbols]
A = { pays = { 2 = 1, 4 = 9 } }
K = { pays = { 3 = 2, 4 = 5 } }
Q = { pays = { 4 = 4 } }
W = { kind = "wild", multiplier = 2 }
S = { kind = "scatter", pays = { 2 = 1 } }
B = { kind = "scatter", pays = { 1 = 1 } }
[reels]
base = ["A W K S Q", "K A W B", "W Q A K S", "A K W Q B"]
"""

PAYING_WILD = """
name = "both ways, a paying wild adding"
window = { rows = 2, reels = 5 }
bet = { ways = 32, per_way = 1, both_ways = true }
wild_multipliers = "add"
[symbols]
A = { pays = { 3 = 5, 5 = 40 } }
K = { pays = { 2 = 1, 3 = 2, 4 = 6 } }
W = { kind = "wild", multiplier = 2, substitutes = ["A"], pays = { 3 = 3 } }
X = {}
[reels]
base = ["A K W X", "K X A", "A W K X", "X K A", "K A W"]
base_weights = [[1, 2, 1, 3], [1, 1, 2], [2, 1, 1, 1], [1, 1, 1], [3, 1, 1]]
"""

SEVEN_REELS = """
name = "both ways, seven reels"
window = { rows = 2, reels = 7 }
bet = { ways = 128, per_way = 1, both_ways = true }
[symbols]
A = { pays = { 3 = 2, 6 = 20, 7 = 50 } }
K = { pays = { 2 = 1, 4 = 3 } }
W = { kind = "wild" }
S = { kind = "scatter", pays = { 3 = 2 } }
X = {}
[reels]
base = ["A K X", "K W A X", "A S X", "W K X X", "A K S X", "K A X", "A W X"]
"""

SMALL = [END_WILDS, PAYING_WILD, SEVEN_REELS]


def columns(m):
    """Per reel: (column shown, scatter cell) -> weight over every height and stop, straight from the
    strips (the programme's input)."""
    out = []
    for r, strip in enumerate(m.base_strips):
        reel: dict = defaultdict(int)
        for h, hw in ref.reel_heights(m, r):
            for p in range(len(strip)):
                w = hw * (m.base_weights[r][p] if m.base_weights else 1)
                col = tuple(strip[(p + i) % len(strip)] for i in range(h))
                reel[(col, ref.window_cell(m, [col]))] += w
        out.append(dict(reel))
    return out


@pytest.mark.parametrize("text", SMALL, ids=["end wilds", "paying wild", "seven reels"])
def test_programme_equals_every_window_read_both_ways(text):
    m = model(text)
    assert m.both_ways
    f = ways.spin_figures(m, columns(m), with_progressive=False)
    want = ref.figures(m, both_ways=True)
    assert f.cycle == sum(want["count"].values())
    for k, n in enumerate(f.no_line_win):
        assert n == want["no_line"].get(k, 0), k
    assert sum(f.no_line_win) == sum(want["no_line"].values()) > 0
    assert f.line_sq == want["line_sq"]
    assert sum(map(sum, f.line_sum)) == sum(want["line_sum"].values())


@pytest.mark.parametrize("text", SMALL, ids=["end wilds", "paying wild", "seven reels"])
def test_whole_play_equals_every_window_read_both_ways(text):
    m = model(text)
    a = analyse(m)
    rtp, hit, variance, once, _ = ref.play_figures(m)
    assert (a.rtp, a.hit_frequency, a.variance) == (rtp, hit, variance)
    assert {c.name: c.probability for c in a.classes if c.kind == "line" and c.probability} == once
    assert sum(c.rtp for c in a.classes) == a.rtp


def test_a_symbol_paid_on_every_spin_leaves_no_spin_unpaid():
    m = model(PAYING_WILD.replace('base = ["A K W X", "K X A", "A W K X", "X K A", "K A W"]',
                                  'base = ["A", "A W", "A", "W A", "A"]').replace(
        "base_weights = [[1, 2, 1, 3], [1, 1, 2], [2, 1, 1, 1], [1, 1, 1], [3, 1, 1]]", ""))
    assert analyse(m).hit_frequency == 1


def test_reading_order_and_categories():
    assert ways_both.order(6) == [0, 1, 2, 5, 4, 3] and ways_both.order(5) == [0, 1, 2, 4, 3]
    assert [ways_both.category(*c) for c in [(False, False), (True, False), (True, True)]] == [0, 1, 2]


def test_tables_beyond_the_limit_are_refused_located(tmp_path, monkeypatch):
    monkeypatch.setattr(ways_both, "MAX_BOTH_WAYS_TABLE", 100)
    line = refused(tmp_path, SEVEN_REELS, "bet.both_ways: read both ways, this game's symbols need truth tables")
    assert "Both-ways pays" in line


# --- the shipped example at full size -------------------------------------------------------------


@pytest.fixture(scope="module")
def example():
    return analyse(load_model(EXAMPLE))


def test_example_is_the_megaways_game_paid_both_ways(example):
    m = example.model
    plain = load_model(ROOT / "examples" / "slot_megaways.toml")
    assert m.both_ways and not plain.both_ways
    assert (m.base_strips, m.heights, m.total_bet) == (plain.base_strips, plain.heights, plain.total_bet)
    assert example.cycle == 100 ** 6 * 12 ** 6 and all(c.exact for c in example.classes)


def test_example_equals_the_ways_product_read_from_each_end(example):
    assert_both_ways_formula(example.model, example)
    assert sum(c.rtp for c in example.classes) == example.rtp == BOTH_WAYS_RTP  # the bench's pin


def test_example_mirrored_gives_the_same_figures(example):
    """Reversing the reels changes no both-ways pay, but every reading the programme follows."""
    text = EXAMPLE.read_text(encoding="utf-8")
    head, strips = text.split("base = [\n", 1)
    body, tail = strips.split("]\n", 1)
    mirrored = head + "base = [\n" + "\n".join(reversed(body.rstrip("\n").split("\n"))) + "\n]\n" + tail
    m = model(mirrored)
    assert m.base_strips == example.model.base_strips[::-1]
    a = analyse(m)
    assert (a.rtp, a.variance, a.hit_frequency) == (example.rtp, example.variance, example.hit_frequency)
    assert {c.name: (c.rtp, c.probability) for c in a.classes} == \
        {c.name: (c.rtp, c.probability) for c in example.classes}


def test_example_verdict_and_docs_row(example):
    assert all(r.passed for r in check(example, "jp"))
    doc = (ROOT / "docs" / "slot_model.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `slot_megaways_both_ways.toml`"))
    assert f"RTP {float(example.rtp) * 100:.2f}%" in row
    assert f"1 in {float(1 / example.rarest.probability):,.0f}" in row and "pass" in row


@pytest.mark.slow
def test_example_simulation_is_inside_the_exact_interval(tmp_path):
    """200,000 plays of the window player (about 7 s of one core) against the exact figures."""
    import json

    from click.testing import CliRunner

    from harness.cli import main

    result = CliRunner().invoke(main, ["slot", str(EXAMPLE), "--simulate", "200000", "--seed",
                                       bytes(range(32)).hex(), "--json"])
    assert result.exit_code == 0, result.output
    sim = json.loads(result.stdout)["simulation"]
    assert sim["engine"] == "Python window player" and sim["plays"] == 200_000
    assert sim["rtp_exact_inside"] and sim["hit_frequency_exact_inside"], sim


def _random_game(rng) -> str:
    """A small both-ways ways game: 3 to 5 reels, heights or fixed rows, wilds anywhere, any listed counts."""
    reels = rng.randint(3, 5)
    rows = rng.randint(1, 3)
    names = ["A", "K", "Q", "W", "S", "X"]
    pays = {}
    for s in ("A", "K", "Q"):
        counts = sorted(rng.sample(range(2, reels + 1), rng.randint(1, reels - 1)))
        pays[s] = "{ " + ", ".join(f"{k} = {rng.randint(1, 9)}" for k in counts) + " }"
    strips = ['"' + " ".join(rng.choice(names) for _ in range(rng.randint(2, 4))) + '"' for _ in range(reels)]
    heights = ", ".join("{ " + ", ".join(f"{h} = {rng.randint(1, 3)}" for h in sorted(rng.sample(range(1, rows + 1),
                                                                                                  rng.randint(1, rows))))
                        + " }" for _ in range(reels))
    window = (f"window = {{ rows = {rows}, reels = {reels}, heights = [{heights}] }}\n"
              f"bet = {{ ways = {rows ** reels}, per_way = 1, total = 5, both_ways = true }}\n")
    wild = rng.choice(['W = { kind = "wild" }', 'W = { kind = "wild", multiplier = 2 }',
                       'W = { kind = "wild", substitutes = ["A"], pays = { ' + f"{reels} = 3" + " } }"])
    return (f'name = "random both ways"\n{window}[symbols]\n'
            + "".join(f"{s} = {{ pays = {p} }}\n" for s, p in pays.items())
            + f'{wild}\nS = {{ kind = "scatter", pays = {{ 2 = 1 }} }}\nX = {{}}\n[reels]\nbase = [{", ".join(strips)}]\n')


@pytest.mark.parametrize("seed", range(12))
def test_random_small_games_pay_nothing_exactly_where_every_window_does(seed):
    import random

    m = model(_random_game(random.Random(seed)))
    f = ways.spin_figures(m, columns(m), with_progressive=False)
    want = ref.figures(m, both_ways=True)
    assert [f.no_line_win[k] for k in range(len(f.no_line_win))] == \
        [want["no_line"].get(k, 0) for k in range(len(f.no_line_win))]
    assert f.line_sq == want["line_sq"] and sum(map(sum, f.line_sum)) == sum(want["line_sum"].values())
