"""Ways to win (``[bet] ways = rows^reels``) against an independent brute force.

The brute force below enumerates every stop combination of a small model and
every path through the window (built here, not taken from the model), pays
each path by the line rule read straight from docs/slot_model.md
(``slot_support.reference_line``), and aggregates what the analysis reports.
"""
from __future__ import annotations

import itertools
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
from slot_support import model, reference_line

ROOT = pathlib.Path(__file__).resolve().parents[1]

# 3 reels x 2 rows = 8 ways: a paying wild that substitutes for A and K only,
# ties between a wild and a symbol combination, a scatter able to show twice.
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
    """(RTP, hit frequency, variance in credits^2, {class name: P(paid on at least one way)})."""
    paths = list(itertools.product(range(m.rows), repeat=m.reels))
    assert len(paths) == m.rows ** m.reels
    strips = m.base_strips
    names = m.symbol_names
    total = total_sq = hits = n = 0
    seen_in: dict[str, int] = {}
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        cols = [[s[(p + h) % len(s)] for h in range(m.rows)] for s, p in zip(strips, stops)]
        line_pay, seen = 0, set()
        for path in paths:
            pay, cls, _ = reference_line(m, [cols[r][path[r]] for r in range(m.reels)])
            line_pay += pay
            if cls is not None:
                seen.add(f"{cls[1]} x {names[cls[0]]}")
        k = sum(col.count(m.scatter) for col in cols)
        scatter_pay = max((v for c, v in m.symbols[m.scatter].pays.items() if c <= k), default=0)
        if scatter_pay:
            seen.add("scatter 2 x S" if k == 2 else "scatter 3+ x S")  # the analysis's count ranges
        win = m.bet_per_line * line_pay + scatter_pay * m.total_bet
        n += 1
        total += win
        total_sq += win * win
        hits += win > 0
        for name in seen:
            seen_in[name] = seen_in.get(name, 0) + 1
    mean = Fraction(total, n)
    return (mean / m.total_bet, Fraction(hits, n), Fraction(total_sq, n) - mean * mean,
            {k: Fraction(v, n) for k, v in seen_in.items()})


def test_ways_analysis_equals_brute_force_over_every_stop_combination():
    m = model(WAYS8)
    assert m.ways and len(m.paylines) == 8 and m.total_bet == 24
    rtp, hit, variance, classes = brute_force(m)
    for engine in ("python", "c"):
        a = analyse(m, engine=engine)
        assert a.rtp == rtp
        assert a.hit_frequency == hit
        assert a.variance == variance
        assert {c.name: c.probability for c in a.classes} == classes
        assert a.rarest.probability == min(classes.values())  # the rarest-outcome check reads ways


def test_ways_without_wilds_is_the_product_of_per_reel_window_counts():
    # Without wilds a way is paid for the run of its first symbol only, so the line
    # return is the sum over symbols S and run lengths n of
    # pay(S, n) x E[c_1(S) ... c_n(S) x (rows - c_{n+1}(S))], c_r(S) = S in reel r's window,
    # and the reels are independent, so the expectation is a product of per-reel means.
    text = WAYS8.replace('kind = "wild", substitutes = ["A", "K"], ', "")
    m = model(text)
    assert all(s.kind != "wild" for s in m.symbols)
    windows = [[[s[(p + h) % len(s)] for h in range(m.rows)] for p in range(len(s))] for s in m.base_strips]
    line = Fraction(0)
    for i, sym in enumerate(m.symbols):
        if sym.kind == "scatter":
            continue
        for n in range(1, m.reels + 1):
            pay = max((v for c, v in sym.pays.items() if c <= n), default=0)
            ways = Fraction(1)
            for r in range(n):
                ways *= Fraction(sum(w.count(i) for w in windows[r]), len(windows[r]))
            if n < m.reels:
                ways *= Fraction(sum(m.rows - w.count(i) for w in windows[n]), len(windows[n]))
            line += pay * ways
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
    assert f"{float(a.rtp) * 100:.2f}%" == "93.14%"
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
