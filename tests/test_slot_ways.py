"""Ways to win (``[bet] ways = rows^reels``) against an independent brute force.

The brute force below enumerates every stop combination of a small model and,
per symbol, every way of matching cells (tests/ways_reference.py, read
straight from docs/slot_model.md, "Ways to win"), and aggregates what the
analysis reports.
"""
from __future__ import annotations

import json
import pathlib
from fractions import Fraction

import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.slot.exact import analyse
from harness.slot.errors import ModelError
from harness.slot.model import load_model
from harness.slot.profiles import check
import ways_reference as ref
from slot_support import model

ROOT = pathlib.Path(__file__).resolve().parents[1]

# 3 reels x 2 rows = 8 ways: a paying wild that substitutes for A and K only
# (its ways of wilds only are its own, never A's or K's), a scatter able to show twice.
WAYS8 = """
name = "ways8"
[window]
rows = 2
reels = 3
[bet]
ways = 8
per_way = 3
[symbols]
A = { pays = { 2 = 1, 3 = 6 } }
K = { pays = { 3 = 4 } }
Q = { pays = { 2 = 1, 3 = 2 } }
W = { kind = "wild", substitutes = ["A", "K"], pays = { 2 = 2, 3 = 12 } }
S = { kind = "scatter", pays = { 2 = 1, 3 = 5 } }
[reels]
base = [
  "A K W S S Q",
  "K A Q W A S K",
  "Q W A K S",
]
"""


def brute_force(m):
    """(RTP, hit frequency, variance in credits^2, {class name: P(paid)}) over every stop combination,
    every way listed one by one (tests/ways_reference.py)."""
    n = total = total_sq = hits = 0
    seen_in: dict[str, int] = {}
    names = m.symbol_names
    for window, raw, w in ref.windows(m):
        seen = {f"{k} x {names[i]}" for i, k in ref.symbol_pays(m, window)}
        k = sum(col.count(m.scatter) for col in raw)
        scatter_pay = max((v for c, v in m.symbols[m.scatter].pays.items() if c <= k), default=0)
        if scatter_pay:
            seen.add("scatter 2 x S" if k == 2 else "scatter 3+ x S")  # the analysis's count ranges
        win = m.bet_per_line * sum(ref.symbol_pays(m, window).values()) + scatter_pay * m.total_bet
        n += w
        total += w * win
        total_sq += w * win * win
        hits += w * (win > 0)
        for name in seen:
            seen_in[name] = seen_in.get(name, 0) + w
    mean = Fraction(total, n)
    return (mean / m.total_bet, Fraction(hits, n), Fraction(total_sq, n) - mean * mean,
            {k: Fraction(v, n) for k, v in seen_in.items()})


def test_ways_analysis_equals_brute_force_over_every_stop_combination():
    m = model(WAYS8)
    assert m.ways and len(m.paylines) == 8 and m.total_bet == 24
    rtp, hit, variance, classes = brute_force(m)
    a = analyse(m)
    assert a.rtp == rtp
    assert a.hit_frequency == hit
    assert a.variance == variance
    assert {c.name: c.probability for c in a.classes if c.probability} == classes
    assert a.rarest.probability == min(classes.values())  # the rarest-outcome check reads ways


def test_ways_without_wilds_is_the_product_of_per_reel_window_counts():
    # Without wilds n x S (n the run of reels from reel 1 showing S) is paid pay(S, k) x c_1(S) ... c_k(S)
    # for the longest listed k <= n, c_r(S) = S in reel r's window, so the line return is the sum over
    # symbols S and runs n of pay(S, k) x E[c_1 ... c_k] x P(reels k+1 .. n show S) x P(reel n+1 shows
    # none), and the reels are independent: a product of per-reel means.
    text = WAYS8.replace('kind = "wild", substitutes = ["A", "K"], ', "")
    m = model(text)
    assert all(s.kind != "wild" for s in m.symbols)
    windows = [[[s[(p + h) % len(s)] for h in range(m.rows)] for p in range(len(s))] for s in m.base_strips]
    line = Fraction(0)
    for i, sym in enumerate(m.symbols):
        if sym.kind == "scatter":
            continue
        for n in range(1, m.reels + 1):
            k = max((c for c in sym.pays if c <= n), default=0)
            if not k:
                continue
            term = Fraction(sym.pays[k])
            for r in range(n):
                column = windows[r]
                term *= (Fraction(sum(w.count(i) for w in column), len(column)) if r < k
                         else Fraction(sum(i in w for w in column), len(column)))
            if n < m.reels:
                term *= Fraction(sum(i not in w for w in windows[n]), len(windows[n]))
            line += term
    a = analyse(m)
    assert a.parts["lines"] == line * m.bet_per_line / m.total_bet
    assert a.rtp == brute_force(m)[0]


def run(*args):
    return CliRunner().invoke(main, ["slot", *map(str, args)])


@pytest.mark.parametrize("change,where,message", [
    ("per_way = 3", "bet", "give 'ways' or 'paylines', not both"),
    ("ways = 8", "bet.ways", "a window of 2 rows x 3 reels has 2^3 = 8 paths"),
    ("per_way = 3", "bet.per_line", "write per_way instead"),
])
def test_bad_ways_model_is_one_located_line_and_exit_2(tmp_path, change, where, message):
    replacement = {
        "bet": "per_way = 3\npaylines = [[1, 1, 1]]",
        "bet.ways": "ways = 9",
        "bet.per_line": "per_line = 3",
    }[where]
    path = tmp_path / "bad.toml"
    path.write_text(WAYS8.replace(change, replacement), encoding="utf-8")
    with pytest.raises(ModelError) as info:
        load_model(path)
    assert info.value.where == where
    result = run(path)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0] and str(path) in lines[0], result.output
    assert "Traceback" not in result.output


def test_ways243_example_is_annotated_and_passes_jp():
    path = ROOT / "examples" / "slot_ways243.toml"
    assert path.read_text(encoding="utf-8").startswith("# ")
    m = load_model(path)
    assert m.ways and len(m.paylines) == 243 and m.total_bet == 243 and m.free_spins is not None
    a = analyse(m)
    # WILD is on reels 2 to 4 only, so the paid spin's line return is the textbook product (the pin's
    # independent derivation; the free spins are those of harness.slot.feature's verified tree)
    credits, _ = ref.product_formula(m)
    assert a.parts["lines"] == sum(credits.values()) / m.total_bet
    assert f"{float(a.rtp) * 100:.2f}%" == "93.12%"
    assert a.rarest.name == "scatter 5+ x SCATTER"
    assert all(c.passed for c in check(a, "jp"))
    result = run(path, "--json")
    assert result.exit_code == 0, result.output
    assert '"ways": 243' in result.output


def test_ways_simulation_is_inside_the_exact_interval():
    path = ROOT / "examples" / "slot_ways243.toml"
    seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    result = CliRunner().invoke(main, ["slot", str(path), "--simulate", "100000", "--seed", seed, "--json"])
    assert result.exit_code == 0, result.output
    sim = json.loads(result.stdout)["simulation"]
    assert sim["plays"] == 100_000 and sim["features"] > 0
    assert sim["rtp_exact_inside"] and sim["hit_frequency_exact_inside"]


def test_ways_numpy_player_interval_holds_the_exact_rtp():
    import numpy as np

    from harness.slot.simulate import simulate_numpy
    m = model(WAYS8)
    sim = simulate_numpy(m, 50_000, np.random.default_rng(19))
    lo, hi = sim.rtp_interval()
    assert lo <= float(analyse(m).rtp) <= hi
