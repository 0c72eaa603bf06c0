"""Cascade chains beyond the exact limit (docs/slot_model.md, "Cascades", "Beyond 1,000 states"):
the rigorous bounds of harness.slot.chain_bounds hold the figures of the independent brute force of
test_slot_cascade (every stop, every refill stop), and a check that rests on bounds says so and
passes only if the whole interval passes."""
from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from slot_support import model
from test_slot_cascade import BASE, LINES, WAYS, brute_force

from harness.slot import cascade_stage, cascade_walk, chain, chain_bounds
from harness.slot.errors import ModelError
from harness.slot.exact import analyse
from harness.slot.profiles import Rule, _apply, check
from harness.slot.report import render, to_json


@pytest.fixture
def bounded(monkeypatch):
    """Every cascade chain is solved by bounds (as one beyond 1,000 states is)."""
    monkeypatch.setattr(cascade_stage, "MAX_CASCADE_STATES", 0)


@pytest.mark.parametrize("text", [WAYS, LINES], ids=["ways", "lines"])
def test_bounds_hold_the_brute_force(bounded, text):
    m = model(text)
    a = analyse(m)
    mean, second, hit, once = brute_force(m, depth=m.rows + 2)
    tb = m.total_bet
    assert a.bounded and not a.cascade.exact and "rigorous bounds" in a.engine
    assert a.rtp <= mean / tb <= a.rtp_upper and a.rtp_upper - a.rtp < Fraction(1, 10**15)
    assert a.variance <= second - mean * mean <= a.variance_upper
    assert a.hit_frequency == hit  # the paid spin's window: exact either way
    names = m.symbol_names
    for (symbol, count), p in once.items():
        c = next(c for c in a.classes if c.name == f"{count} x {names[symbol]}")
        assert c.probability <= p <= c.probability_upper
    assert a.parts["lines"] == a.parts_upper["lines"] and a.parts["cascade"] <= a.parts_upper["cascade"]


def test_bounds_hold_an_endless_chain(bounded):
    # test_slot_cascade's geometric chain: P(k-th window pays) = q^(k+1), ladder 1, 2, then 3 for ever.
    a = analyse(model(BASE + '[cascade]\nrefill = ["A B", "A B", "A B"]\nladder = [1, 2, 3]\n'))
    q = Fraction(1, 8)
    assert a.rtp <= 10 * q * (1 + 2 * q + 3 * q * q / (1 - q)) <= a.rtp_upper
    assert a.cascade.cascades <= q / (1 - q) <= a.cascade.cascades_upper


def test_a_check_on_bounds_passes_only_if_the_whole_interval_passes(bounded):
    a = analyse(model(WAYS))
    assert a.rtp < a.rtp_upper
    middle = (a.rtp + a.rtp_upper) / 2
    rule = Rule(id="t", kind="rtp_range", text="t", citation="t", verified="t", low=middle)
    assert not _apply(rule, a).passed  # the upper end passes, the lower does not
    assert _apply(dataclasses.replace(rule, low=a.rtp), a).passed
    assert not _apply(dataclasses.replace(rule, low=Fraction(0), high=a.rtp_upper), a).passed
    for result in check(a, "jp"):
        assert "rests on rigorous bounds" in result.note and "beyond the 0 solved exactly" in result.note


def test_bounded_report_says_so(bounded):
    a = analyse(model(WAYS))
    checks = check(a, "jp")
    text = render(a, checks, "jp")
    assert "RIGOROUS BOUNDS, not exact" in text and "bounded analysis in" in text
    out = to_json(a, checks, "jp")
    assert out["bounded"] == a.bounded and out["cascade"]["exact"] is False
    assert Fraction(out["rtp"]) <= Fraction(out["rtp_upper"]) and "rtp_gap" in out["cascade"]


def test_an_endless_refill_is_still_refused_when_bounded(bounded):
    with pytest.raises(ModelError, match="from the window A / A / A the cascades never end"):
        analyse(model(BASE + '[cascade]\nrefill = ["A", "A", "A"]\n'))


def test_a_chain_beyond_the_followed_limit_is_refused_not_cut(monkeypatch):
    monkeypatch.setattr(cascade_walk, "MAX_CASCADE_BOUND_STATES", 3)
    with pytest.raises(ModelError, match="the cascade chain reaches more than 3 windows, too many to follow"):
        analyse(model(WAYS))


def test_a_chain_too_slow_to_bound_is_refused(bounded, monkeypatch):
    monkeypatch.setattr(chain_bounds, "MAX_SWEEPS", 1)
    # each window pays again with probability 7/8 (refill B on reel 3 only ends it): slow to leave
    text = BASE + '[cascade]\nrefill = ["A", "A", "A A A A A A A B"]\n'
    with pytest.raises(ModelError, match="the cascades end too slowly to bound within 1 steps"):
        analyse(model(text))


def _random_chain(rng, n):
    edges = []
    for _ in range(n):
        targets = rng.sample(range(n), rng.randint(0, min(n, 4)))
        weights = [rng.randint(1, 5) for _ in targets]
        total = sum(weights) + rng.randint(1, 4)
        edges.append([(t, Fraction(w, total)) for t, w in zip(targets, weights)])
    return edges


@pytest.mark.parametrize("seed", range(8))
def test_bounds_bracket_the_exact_solution(seed):
    rng = random.Random(seed)
    edges = _random_chain(rng, rng.randint(1, 14))
    reward = [Fraction(rng.randint(0, 9), rng.randint(1, 3)) for _ in edges]
    exact = chain.solve(edges, reward)
    lo, hi = chain_bounds.bounds(chain_bounds.prepare(edges), reward)
    assert all(a <= x <= b and b - a < Fraction(1, 10**12) for a, x, b in zip(lo, exact, hi))
    stop = [rng.random() < 0.3 for _ in edges]
    cut = [() if s else e for s, e in zip(stop, edges)]
    hits = [Fraction(int(s)) for s in stop]
    exact = chain.solve(cut, hits)
    lo, hi = chain_bounds.bounds(chain_bounds.prepare(edges), hits, stop=stop, cap=Fraction(1))
    assert all(a <= x <= b and b - a < Fraction(1, 10**12) for a, x, b in zip(lo, exact, hi))


def test_a_closed_component_diverges():
    edges = [[(1, Fraction(1, 2))], [(2, Fraction(1))], [(1, Fraction(1))]]
    with pytest.raises(chain.ChainDiverges):
        chain_bounds.prepare(edges)


def test_docs_fragment_is_the_bounded_example():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parent.parent
    doc = (root / "docs" / "slot_model.md").read_text(encoding="utf-8")
    section = doc.split("\n## Cascade bounds\n", 1)[1].split("\n## ", 1)[0]
    fragment = re.search(r"```\n(.*?)```", section, re.S).group(1)
    example = (root / "examples" / "slot_cascade_bounded.toml").read_text(encoding="utf-8")
    assert fragment in example
    from harness.slot.model import load_model

    m = load_model(root / "examples" / "slot_cascade_bounded.toml")
    assert m.rows == 3 and len(m.cascade.refill) == m.reels and m.cascade.ladder == (1, 2, 3, 5)


@pytest.mark.slow
def test_bounded_example_verdict():
    """examples/slot_cascade_bounded.toml: beyond the exact limit, bounded, passes jp on the whole interval."""
    import pathlib

    from harness.slot.model import load_model

    root = pathlib.Path(__file__).resolve().parent.parent
    a = analyse(load_model(root / "examples" / "slot_cascade_bounded.toml"))
    assert a.cascade.states == 2859 and not a.cascade.exact and a.rtp_upper - a.rtp < Fraction(1, 10**15)
    assert Fraction(90, 100) < a.rtp and a.rtp_upper < 1
    results = check(a, "jp")
    assert all(r.passed for r in results) and all("rests on rigorous bounds" in r.note for r in results)
    doc = (root / "docs" / "slot_model.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `slot_cascade_bounded.toml`"))
    assert f"RTP {float(a.rtp) * 100:.2f}%" in row and f"1 in {float(1 / a.rarest.probability):.3g}" in row


def _number_after(text: str, label: str) -> list[Fraction]:
    """The decimal numbers of the report line starting with ``label``, in order."""
    line = next(x for x in text.splitlines() if x.strip().startswith(label))
    return [Fraction(w.strip("(%;,")) for w in line.split() if w.strip("(%;,").replace(".", "", 1).isdigit()]


def test_bounded_report_rounds_every_end_outward(bounded):
    a = analyse(model(WAYS))
    text = render(a, check(a, "jp"), "jp")
    lo, hi, pct_lo, pct_hi = _number_after(text, "total")[:4]
    assert lo <= a.rtp and a.rtp_upper <= hi and pct_lo <= 100 * a.rtp and 100 * a.rtp_upper <= pct_hi
    c_lo, c_hi = _number_after(text, "cascade ")[:2]
    assert c_lo <= a.parts["cascade"] and a.parts_upper["cascade"] <= c_hi
    sd_lo, sd_hi = _number_after(text, "Standard deviation")[:2]
    tb = a.model.total_bet
    assert sd_lo**2 * tb**2 <= a.variance and a.variance_upper <= sd_hi**2 * tb**2
    rarest = next(x for x in text.splitlines() if "least likely winning outcome" in x)
    r_lo = Fraction(rarest.split("probability ")[1].split(" ")[0])
    r_hi = Fraction(rarest.split("between it and ")[1].split(" ")[0])
    assert r_lo <= a.rarest.probability and a.rarest.probability_upper <= r_hi
    assert "~1 in" in text  # the odds of a bounded probability are approximate too


def test_simulation_meets_bounds_not_only_the_lower_one(bounded):
    """A bounded analysis' RTP lies in [rtp, rtp_upper]: a simulated interval inside it agrees, and the
    report says 'rigorous bounds ... meet it', not 'exact'."""
    from harness.slot.simulate import SimulationResult

    a = analyse(model(WAYS))
    wide = dataclasses.replace(a, rtp_upper=a.rtp + Fraction(1, 10))  # a gap a simulation can sit inside
    tb, n = a.model.total_bet, 1000
    paid = -(-(a.rtp + Fraction(1, 20)) * tb * n // 1)  # every play pays about rtp + 1/20 bets
    sim = SimulationResult(plays=n, hits=n, line_win=paid, win_sq=-(-paid * paid // n), total_bet=tb,
                           engine="Python window player", generator="test")
    lo, hi = sim.rtp_interval()
    assert a.rtp < lo <= hi < wide.rtp_upper
    assert sim.agrees(wide)[0] and not sim.agrees(a)[0]
    shown = "\n".join(sim.render(wide))
    assert "rigorous bounds [" in shown and "meet it" in shown and "exact 0." not in shown.split("hit")[0]
    assert "RTP            ~" in shown and "OUTSIDE" in "\n".join(sim.render(a))
