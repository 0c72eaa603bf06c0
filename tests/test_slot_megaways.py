"""Large ways games (docs/slot_model.md, "Large ways games"): the programme over the reels of
harness.slot.ways against independent references.

* A small model with reel heights, two scatter symbols, a paying wild with additive multipliers and
  virtual stops, against a brute force over every height, every stop and every way listed one by one,
  paid by the ways rule read straight from the docs (``ways_reference.symbol_pays``).
* The shipped 6-reel example (heights 2..7, 117,649 ways, 100-stop reels: 2.99e18 combinations, far
  beyond any brute force): its RTP and every class's probability against the textbook ways product
  formula, which is the rule there because the wild is never on reel 1 (every way shows its symbol
  itself), computed here from per-reel counts alone.
"""
from __future__ import annotations

import itertools
import math
import pathlib
import re
from fractions import Fraction

import pytest
from slot_support import model, play_figures, refused
import ways_reference as ref
from ways_reference import symbol_pays

from harness.slot import heights, ways
from harness.slot.errors import ModelError
from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.profiles import check

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "slot_megaways.toml"

MIXED = """
name = "mixed heights"
window = { rows = 3, reels = 3, heights = [{ 1 = 1, 3 = 2 }, { 2 = 1, 3 = 1 }, { 1 = 1, 2 = 1, 3 = 1 }] }
bet = { ways = 27, per_way = 2, total = 12 }
wild_multipliers = "add"
[symbols]
A = { pays = { 2 = 1, 3 = 6 } }
K = { pays = { 3 = 3 } }
W = { kind = "wild", multiplier = 3, substitutes = ["A"], pays = { 2 = 2, 3 = 4 } }
S = { kind = "scatter", pays = { 2 = 1 } }
B = { kind = "scatter", pays = { 1 = 1, 3 = 5 } }
[reels]
base = ["A K S W B", "K W A B S A", "A B K W"]
base_weights = [[1, 2, 1, 1, 3], [2, 1, 1, 1, 1, 2], [1, 1, 2, 1]]
"""


def _scatter_pay(pays: dict[int, int], n: int) -> tuple[int, int | None]:
    """(pay, listed count reached) of ``n`` scatters: the largest listed count at most ``n``."""
    reached = max((k for k in pays if k <= n), default=None)
    return (pays[reached], reached) if reached is not None else (0, None)


def brute_force(m):
    """{(credits, outcomes paid): probability} over every height, stop and way."""
    names, strips, weights = m.symbol_names, m.base_strips, m.base_weights
    total = math.prod(sum(w for _, w in hs) * sum(ws) for hs, ws in zip(m.heights, weights))
    scatters = [i for i, s in enumerate(m.symbols) if s.kind == "scatter"]
    dist: dict = {}
    for hs in itertools.product(*m.heights):
        for stops in itertools.product(*(range(len(s)) for s in strips)):
            window = [[s[(p + i) % len(s)] for i in range(h)] for s, p, (h, _) in zip(strips, stops, hs)]
            credits, paid = 0, set()
            for (i, k), pay in symbol_pays(m, window, both_ways=m.both_ways).items():  # every way listed
                credits += pay * m.bet_per_line
                paid.add(f"{k} x {names[i]}")
            for x in scatters:
                pay, reached = _scatter_pay(m.symbols[x].pays, sum(col.count(x) for col in window))
                if pay:
                    credits += pay * m.total_bet
                    paid.add(f"scatter {reached} x {names[x]}")
            weight = math.prod(w for _, w in hs) * math.prod(ws[p] for ws, p in zip(weights, stops))
            key = (credits, frozenset(paid))
            dist[key] = dist.get(key, Fraction(0)) + Fraction(weight, total)
    return dist


def _label(name: str) -> str:
    """The analysis's class name in the brute force's words ("scatter 3+ x B" -> "scatter 3 x B")."""
    return re.sub(r"^scatter (\d+)\S* x", r"scatter \1 x", name)


@pytest.mark.parametrize("both", [False, True], ids=["left to right", "both ways"])
def test_mixed_heights_equal_brute_force(both):
    m = model(MIXED.replace("total = 12 }", "total = 12, both_ways = true }") if both else MIXED)
    assert m.both_ways == both
    a = analyse(m)
    assert a.engine.startswith("python (ways summed over the reels")
    mean, second, hit, once = play_figures(brute_force(m))
    assert a.rtp == mean / m.total_bet and a.variance == second - mean * mean and a.hit_frequency == hit
    assert {_label(c.name): c.probability for c in a.classes if c.probability} == once
    assert sum(c.rtp for c in a.classes) == a.rtp
    assert heights.solve(m) == heights.solve_by_windows(m)


# --- the shipped example at full size -------------------------------------------------


def scatter_distribution(m):
    """P(k scatters) by convolving the reels' scatter counts."""
    x = m.symbol_index("SCATTER")
    dist = {0: Fraction(1)}
    for r, strip in enumerate(m.base_strips):
        total = sum(w for _, w in ref.reel_heights(m, r)) * len(strip)
        col: dict[int, int] = {}
        for h, hw in ref.reel_heights(m, r):
            for p in range(len(strip)):
                c = sum(strip[(p + i) % len(strip)] == x for i in range(h))
                col[c] = col.get(c, 0) + hw
        new: dict[int, Fraction] = {}
        for k, pk in dist.items():
            for c, w in col.items():
                new[k + c] = new.get(k + c, 0) + pk * Fraction(w, total)
        dist = new
    return dist


@pytest.fixture(scope="module")
def example():
    return analyse(load_model(EXAMPLE))


def test_example_is_a_megaways_game_at_full_size(example):
    m = example.model
    assert (m.reels, m.rows, len(m.paylines)) == (6, 7, 117_649)
    assert all(len(s) == 100 for s in m.base_strips)
    assert [h for h, _ in m.heights[0]] == [2, 3, 4, 5, 6, 7]
    assert example.cycle == 100 ** 6 * 12 ** 6


def test_example_equals_the_ways_product_formula(example):
    m = example.model
    credits, once = ref.product_formula(m)
    lines = {c.name: c for c in example.classes if c.kind == "line"}
    assert set(lines) == set(credits)
    for name, c in lines.items():
        assert c.rtp == credits[name] / m.total_bet, name
        assert c.probability == once[name], name
    dist = scatter_distribution(m)
    pays = m.symbols[m.symbol_index("SCATTER")].pays
    assert example.parts["scatters"] == sum(p * _scatter_pay(pays, k)[0] for k, p in dist.items())
    assert example.parts["lines"] == sum(credits.values()) / m.total_bet
    six = next(c for c in example.classes if c.name == "scatter 6+ x SCATTER")
    assert six.probability == sum(p for k, p in dist.items() if k >= 6)


def test_example_verdict_and_docs_row(example):
    results = check(example, "jp")
    assert all(r.passed for r in results)
    assert example.rarest.name == "scatter 6+ x SCATTER"
    doc = (ROOT / "docs" / "slot_model.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `slot_megaways.toml`"))
    assert f"RTP {float(example.rtp) * 100:.2f}%" in row
    assert f"1 in {float(1 / example.rarest.probability):,.0f}" in row and "pass" in row


def _both_ways_243() -> str:
    """examples/slot_ways243.toml paid both ways, without its free spins, every strip x 5 (100 stops)."""
    text = (ROOT / "examples" / "slot_ways243.toml").read_text(encoding="utf-8")
    text = text[:text.index("[free_spins]")] + text[text.index("[reels]"):]
    text = text.replace("per_way = 1 ", "both_ways = true\nper_way = 1 ")
    return re.sub(r'"([A-Z ]+)"', lambda g: '"' + " ".join([g.group(1)] * 5) + '"', text)


def assert_both_ways_formula(m, a) -> None:
    """Each line class's RTP share is the product formula read from the left plus, unless it covers
    every reel (paid once), read from the right (the mirrored reels)."""
    left, _ = ref.product_formula(m)
    right, _ = ref.product_formula(m, order=list(range(m.reels))[::-1])
    for c in a.classes:
        if c.kind == "line":
            full = c.name.startswith(f"{m.reels} x ")
            assert c.rtp == (left[c.name] + (0 if full else right[c.name])) / m.total_bet, c.name


def test_both_ways_243_at_full_size_equals_the_product_formula():
    """5 x 100 stops, 243 ways, both ways: WILD is on reels 2 to 4 only, so a way's right-to-left
    reading is that of the mirrored reels, and a full-width win (paid once) is n = 5 either way."""
    m = model(_both_ways_243())
    assert m.both_ways and m.ways and all(len(s) == 100 for s in m.base_strips)
    a = analyse(m)
    assert a.engine.startswith("python (ways summed over the reels")
    assert_both_ways_formula(m, a)
    assert {c.rule.id: c for c in check(a, "jp")}["jp-4-3"].value == a.rtp


def test_more_ways_than_the_limit_are_refused(tmp_path):
    tall = ", ".join(["{ 8 = 1 }"] * 9)
    text = (f"window = {{ rows = 8, reels = 9, heights = [{tall}] }}\n"
            "bet = { ways = 134217728, per_way = 1, total = 10 }\n[symbols]\nA = { pays = { 3 = 1 } }\n"
            "[reels]\nbase = " + str(["A"] * 9).replace("'", '"') + "\n")
    refused(tmp_path, text, "bet.ways: 134,217,728 ways; at most 16,777,216 are supported")


def test_a_programme_beyond_its_state_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(ways, "MAX_WAYS_STATES", 3)
    with pytest.raises(ModelError, match="reels: the ways programme would follow more than 3"):
        analyse(model(MIXED))
    line = refused(tmp_path, MIXED, "the ways programme would follow more than 3")
    assert "Large ways games" in line


def test_doc_fragment_is_the_example():
    doc = (ROOT / "docs" / "slot_model.md").read_text(encoding="utf-8")
    section = doc.split("\n## Large ways games\n", 1)[1].split("\n## ", 1)[0]
    fragment = re.search(r"```\n(.*?)```", section, re.S).group(1)
    assert fragment in EXAMPLE.read_text(encoding="utf-8")
