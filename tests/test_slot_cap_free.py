"""The award cap with free spins (docs/slot_model.md, "Award caps"): the capped walk of
harness.slot.cap_free against an independent reference, exact without retriggers, inside the
reference's bounds with them.

The reference enumerates every stop combination of the paid spin and of one free spin
(tests/slot_support.py, brute_stage), then solves the capped play backwards: ``g(n, a)`` =
E[min(a + the win of n more free spins, cap)] satisfies ``g(0, a) = min(a, cap)``, ``g(n, a) = cap``
for ``a >= cap`` and ``g(n, a) = sum P(w, j) g(n - 1 + j, a + w)``.  Iterating that map from
``g = min(a, cap)`` (below the truth) and from ``g = cap`` (above it) gives exact fractions without
retriggers (the spins left only fall) and rigorous bounds with them; the analysis walks forwards.
"""
from __future__ import annotations

import functools
import pathlib
import re
from fractions import Fraction

import numpy as np
import pytest
from slot_support import TWO_BY_TWO, award, brute_stage, model, numpy_player_agrees, refused, round_play_simulates

from harness.slot import cap_free
from harness.slot.exact import analyse
from harness.slot.profiles import check

DOC = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "slot_model.md").read_text(encoding="utf-8")
SECTION = DOC.split("\n## Award caps\n", 1)[1].split("\n## ", 1)[0]
FRAGMENT = re.findall(r"```\n(.*?)```", SECTION, re.S)[1]  # the free spins under the cap

GAME = TWO_BY_TWO.replace('C = { kind = "scatter" }', 'C = { kind = "scatter", pays = { 2 = 2 } }') + FRAGMENT


def reference(m, *, exact: bool, n_max: int = 60, sweeps: int = 400):
    """(E[C], E[C^2], P(cap bites)) per play, C = min(the play's win, cap): exact fractions by ``n_max``
    backward steps when every play ends within ``n_max`` free spins (``exact``), otherwise floats after
    ``sweeps`` steps of the map, the spins left held at ``n_max`` (far beyond what the game reaches)."""
    tb, bpl, scat, fs = m.total_bet, m.bet_per_line, m.symbols[m.scatter].pays, m.free_spins
    cap = m.cap * tb
    one = Fraction(1) if exact else 1.0
    base = brute_stage(m, m.base_strips, with_progressive=False)
    free = brute_stage(m, m.feature_strips, with_progressive=False)
    retrigger = fs.spins if fs.retrigger is True else dict(fs.retrigger or {})
    q: dict = {}
    for total, k, _, _ in free.records:
        key = (fs.multiplier * (bpl * total + tb * award(scat, k)), award(retrigger, k))
        q[key] = q.get(key, 0) + one / free.cycle
    widest = max(w for w, _ in q)
    a = np.arange(cap + 1 + widest, dtype=object if exact else float)
    figures = []
    # per figure: its value when a play ends at a <= cap, and when its win passes the cap
    for ended, over in ((lambda x: x, cap), (lambda x: x * x, cap * cap), (lambda x: 0 * x, 1)):
        end = np.where(a > cap, over * one, ended(a * one))  # a play ending with win a (a > cap: bitten)
        g = np.tile(end[:cap + 1], (n_max + 1, 1))
        for _ in range(n_max if exact else sweeps):
            padded = np.concatenate([g, np.tile(end[cap + 1:], (n_max + 1, 1))], axis=1)
            new = np.zeros_like(g)
            new[0] = end[:cap + 1]
            for (w, j), p in q.items():
                rows = np.minimum(np.arange(n_max) + j, n_max)  # n - 1 + j for n = 1..n_max
                new[1:] += p * np.where(rows[:, None] == 0, end[w:w + cap + 1], padded[rows, w:w + cap + 1])
            g = new
        total = 0 * one
        for t, k, _, _ in base.records:
            x, n = bpl * t + tb * award(scat, k), award(fs.spins, k)
            total += end[min(x, cap + 1)] if n == 0 or x > cap else g[n, x]
        figures.append(total / base.cycle)
    return tuple(figures)


@functools.lru_cache(maxsize=None)
def float_reference(text: str):
    """:func:`reference` of a model with retriggers (floats), once per model text (it takes a while)."""
    return reference(model(text), exact=False)


def test_documented_fragment_is_valid():
    m = model(GAME)
    assert m.cap == 20 and m.free_spins.retrigger and m.free_spins.multiplier == 2


NO_RETRIGGER = GAME.replace("retrigger = { 2 = 1 }   # ... and 1 more in a free spin\n", "")
# Without scatter pays a free spin can retrigger and win nothing: a play has no longest run below the cap.
ZERO_WIN_RETRIGGER = TWO_BY_TWO + FRAGMENT


@pytest.mark.parametrize("text, cap", [(NO_RETRIGGER, 5), (NO_RETRIGGER, 8), (NO_RETRIGGER, 20), (GAME, 5)],
                         ids=["no retrigger, cap 5", "no retrigger, cap 8", "no retrigger, cap 20",
                              "every retrigger wins, cap 5"])
def test_exact_where_every_play_ends_below_the_cap(text, cap):
    """Exact without retriggers, and when every retrigger wins (a play then passes the cap within a few)."""
    m = model(text.replace("win = 20", f"win = {cap}"))
    assert text != NO_RETRIGGER or not m.free_spins.retrigger
    a = analyse(m)
    mean, second, bites = reference(m, exact=True, n_max=6)
    assert a.bounded is None and a.rtp_upper is None and a.cap_upper is None
    assert (a.cap.mean, a.cap.second, a.cap.capped) == (mean, second, bites)
    assert a.variance == second - mean * mean and a.rtp == mean / m.total_bet
    uncapped = analyse(model(text.replace("[cap]\nwin = 20", "")))
    assert a.rtp - a.parts["cap"] == uncapped.rtp and a.hit_frequency == uncapped.hit_frequency
    assert (a.parts["cap"] < 0) == (bites > 0) and bites > 0


@pytest.mark.parametrize("cap", [5, 20])
def test_retriggers_that_win_nothing_are_bounded_around_the_reference(cap):
    text = ZERO_WIN_RETRIGGER.replace("win = 20", f"win = {cap}")
    m = model(text)
    a = analyse(m)
    tb = m.total_bet
    assert a.bounded is not None and "rigorous bounds" in a.bounded
    assert 0 < a.cap_upper.mean - a.cap.mean <= Fraction(1, 10**12) * tb
    for low, high, ref in zip((a.cap.mean, a.cap.second, a.cap.capped),
                              (a.cap_upper.mean, a.cap_upper.second, a.cap_upper.capped),
                              float_reference(text)):
        assert low <= high and float(low) - 1e-9 <= ref <= float(high) + 1e-9, (low, high, ref)
    assert a.rtp == a.cap.mean / tb and a.rtp_upper == a.cap_upper.mean / tb
    assert a.parts_upper["cap"] - a.parts["cap"] == a.rtp_upper - a.rtp
    assert a.variance <= a.variance_upper
    rules = {c.rule.id: c for c in check(a, "jp")}
    assert rules["jp-4-3"].value == a.rtp and "rests on rigorous bounds" in rules["jp-4-3"].note
    assert "rests on rigorous bounds" not in rules["jp-3-3"].note  # the classes are the uncapped analysis'


PROGRESSIVE = '[progressive]\nsymbol = "A"\ncount = 2\ncontribution = "1/100"\nreset = 40\n'


@pytest.mark.parametrize("text, cap", [(NO_RETRIGGER, 8), (GAME, 5), (GAME, 20), (GAME + PROGRESSIVE, 20)],
                         ids=["no retrigger, cap 8", "every retrigger wins, cap 5", "every retrigger wins, cap 20",
                              "with a progressive, cap 20"])
@pytest.mark.parametrize("limit", [1, 10, 30])
def test_a_walk_stopped_at_its_limit_is_bounded_around_the_exact_walk(monkeypatch, text, cap, limit):
    """Stopped early, the open plays bounded from the moments of their remaining win: every exact figure
    of the walk that finishes lies inside the bounds, and the report says why they are bounds."""
    m = model(text.replace("win = 20", f"win = {cap}"))
    exact = analyse(m)
    assert exact.bounded is None
    monkeypatch.setattr(cap_free, "MAX_CAP_WORK", limit)
    a = analyse(m)
    assert a.bounded is not None and f"the capped walk reached its limit of {limit:,} steps" in a.bounded
    assert "bounded from the exact moments of the remaining free spins' win" in a.bounded
    for name in ("mean", "second", "on_hits", "capped"):
        low, high, value = (getattr(x, name) for x in (a.cap, a.cap_upper, exact.cap))
        assert low <= value <= high, (name, low, value, high)
    assert a.rtp <= exact.rtp <= a.rtp_upper and a.rtp < a.rtp_upper
    assert a.variance <= exact.variance <= a.variance_upper
    assert a.parts["cap"] <= exact.parts["cap"] <= a.parts_upper["cap"] <= 0
    assert a.classes == exact.classes  # the cap leaves the outcome probabilities as they are


@pytest.mark.parametrize("limit", [1, 40])
def test_zero_win_retriggers_at_the_work_limit_are_bounded_around_the_reference(monkeypatch, limit):
    """No walk finishes here: the backward reference's values lie inside the bounds of a walk stopped at
    its limit, before the stated gap is met."""
    m = model(ZERO_WIN_RETRIGGER)
    monkeypatch.setattr(cap_free, "MAX_CAP_WORK", limit)
    a = analyse(m)
    assert "reached its limit" in a.bounded and a.cap_upper.mean - a.cap.mean > Fraction(1, 10**12) * m.total_bet
    for low, high, ref in zip((a.cap.mean, a.cap.second, a.cap.capped),
                              (a.cap_upper.mean, a.cap_upper.second, a.cap_upper.capped),
                              float_reference(ZERO_WIN_RETRIGGER)):
        assert low <= high and float(low) - 1e-9 <= ref <= float(high) + 1e-9, (low, high, ref)


def test_open_weights_rounded_down_keep_every_bound_around_the_reference(monkeypatch):
    """The rounding of the open plays' weights (a zero-win retrigger keeps the walk going), forced early and
    coarse: what it takes away is counted at 0 below and at the cap above, so the reference's figures stay
    inside, and E[C; progressive hit] inside the bounds of the walk that does not round."""
    m = model(ZERO_WIN_RETRIGGER + PROGRESSIVE)  # the progressive is paid outside the cap: C as without it
    unrounded = analyse(m)
    made = []

    class Sums(cap_free._Sums):
        def __init__(self):
            super().__init__()
            made.append(self)

    monkeypatch.setattr(cap_free, "_Sums", Sums)
    monkeypatch.setattr(cap_free, "ROUND_BITS", 12)
    monkeypatch.setattr(cap_free, "ROUND_AT", 24)
    a = analyse(m)
    assert made[-1].lost > 0 and made[-1].lost_on[1] > 0  # the rounding did take some weight, with a hit too
    for low, high, ref in zip((a.cap.mean, a.cap.second, a.cap.capped),
                              (a.cap_upper.mean, a.cap_upper.second, a.cap_upper.capped),
                              float_reference(ZERO_WIN_RETRIGGER)):
        assert low <= high and float(low) - 1e-9 <= ref <= float(high) + 1e-9, (low, high, ref)
    assert a.cap.on_hits <= unrounded.cap_upper.on_hits and unrounded.cap.on_hits <= a.cap_upper.on_hits
    assert 0 < a.cap.on_hits <= a.cap_upper.on_hits <= a.cap_upper.mean


def test_bounds_narrow_as_the_walk_goes_deeper(monkeypatch):
    m = model(GAME)
    gaps = []
    for limit in (1, 30, 200):  # 0, 1 and 2 free spins deep
        monkeypatch.setattr(cap_free, "MAX_CAP_WORK", limit)
        a = analyse(m)
        gaps.append(a.rtp_upper - a.rtp)
    assert gaps[0] > gaps[1] > gaps[2] > 0, [float(g) for g in gaps]


def test_power_moments_of_the_free_spins_tree_match_its_distribution():
    """E[V^k] of one spin's tree (and of 3 trees) against the moments of its distribution, found by
    iterating V = W + V_1 + ... + V_J on probability vectors until they stop changing."""
    from harness.slot.feature import Divergent, PowerMoments

    outcomes = {(0, 0): 5, (3, 0): 2, (1, 1): 2, (0, 2): 1, (7, 1): 1}  # m = 5/11, a zero-win retrigger too
    total = sum(outcomes.values())
    order, width = 6, 400
    law = np.zeros(width)
    for _ in range(300):
        new = np.zeros(width)
        for (w, j), n in outcomes.items():
            d = np.zeros(width)
            d[0] = 1
            for _ in range(j):
                d = np.convolve(d, law)[:width]
            new[w:] += n / total * d[:width - w]
        law = new
    assert abs(law.sum() - 1) < 1e-12 and law[-50:].sum() < 1e-20  # converged, the tail beyond the grid negligible
    moments = PowerMoments(outcomes, order)
    three = np.convolve(np.convolve(law, law), law)[:width]
    for k in range(order + 1):
        for got, dist in ((moments.tree[k], law), (moments.of(3)[k], three)):
            want = float((np.arange(width, dtype=float) ** k * dist).sum())
            assert abs(float(got) - want) <= 1e-9 * want, (k, float(got), want)
    assert moments.of(0) == [1] + [0] * order and moments.of(1) == moments.tree
    with pytest.raises(Divergent):
        PowerMoments({(1, 0): 1, (1, 2): 1}, 2)


def test_tail_constant_is_the_largest_ratio():
    """c(k, s) = max over r >= t of (r - t)^s t^(k - s) / r^k, on a fine grid of r / t."""
    for k, s in ((1, 1), (2, 1), (5, 1), (2, 2), (3, 2), (8, 2), (16, 1)):
        c = float(cap_free._tail_constant(k, s))
        grid = 1 + np.arange(1, 200_000) / 1000
        ratio = (grid - 1) ** s / grid**k
        assert ratio.max() <= c * (1 + 1e-12), (k, s, c, ratio.max())
        assert k == s or ratio.max() >= c * (1 - 1e-4), (k, s, c, ratio.max())  # k = s: approached as r grows


def _two_scatters(cap: int) -> str:
    root = pathlib.Path(__file__).resolve().parent.parent
    return (root / "examples" / "slot_two_scatters.toml").read_text(encoding="utf-8") + f"\n[cap]\nwin = {cap}\n"


def test_a_real_size_game_with_free_spins_under_a_cap_is_bounded_not_refused(monkeypatch):
    """examples/slot_two_scatters.toml (243 ways, 20-stop reels, retriggers) with a cap of 500 x total bet:
    its wins below the cap are far too many states to walk, so the open plays are bounded at once; the RTP is
    still known to about 1e-10, and the checks are decided (the RTP's by its bounds, the rarest exactly)."""
    monkeypatch.setattr(cap_free, "MAX_CAP_WORK", 1000)  # the stop at the start; the full walk: the slow test
    m = model(_two_scatters(500))
    a = analyse(m)
    uncapped = analyse(model(_two_scatters(500).replace("[cap]\nwin = 500\n", "")))
    assert "reached its limit of 1,000 steps" in a.bounded and "followed 0 free spins deep" in a.bounded
    assert a.rtp < a.rtp_upper <= uncapped.rtp and a.rtp_upper - a.rtp < Fraction(1, 10**9)
    assert a.parts["cap"] < 0 and a.cap.capped <= a.cap_upper.capped < Fraction(1, 10**10)
    results = {c.rule.id: c for c in check(a, "jp")}
    assert results["jp-4-3"].passed and results["jp-4-3"].decided and "rests on rigorous bounds" in results["jp-4-3"].note
    assert results["jp-3-3"].decided and "rests on rigorous bounds" not in results["jp-3-3"].note
    assert a.classes == uncapped.classes


@pytest.mark.slow
def test_a_real_size_game_walked_to_its_limit():
    """The same game walked to the full limit (about 5 s idle): narrower than at the start, and a smaller cap
    (50 x total bet, near the feature's usual wins) is bounded too, wider, with its width stated."""
    wide = analyse(model(_two_scatters(500)))
    assert "reached its limit of 5,000,000 steps" in wide.bounded and wide.rtp_upper - wide.rtp < Fraction(1, 10**9)
    low = analyse(model(_two_scatters(50)))
    assert f"RTP gap {float(low.rtp_upper - low.rtp):.3g}" in low.bounded and low.rtp_upper < wide.rtp


def test_a_check_is_decided_only_when_the_bounds_decide_it(monkeypatch, tmp_path):
    """An RTP rule whose limit falls inside the bounds is UNDECIDED (neither passed nor failed), one wholly
    past them fails; the report's verdict is then INCOMPLETE (exit 1) unless another check fails."""
    import dataclasses
    import json

    from click.testing import CliRunner

    from harness.cli import main
    from harness.slot.profiles import PROFILES, Rule, _apply
    from harness.slot.report import outcome, render

    monkeypatch.setattr(cap_free, "MAX_CAP_WORK", 30)
    a = analyse(model(GAME))
    assert a.rtp < a.rtp_upper
    middle = (a.rtp + a.rtp_upper) / 2
    rule = Rule(id="t", kind="rtp_range", text="t", citation="t", verified="t", low=middle)
    straddles = _apply(rule, a)
    assert not straddles.passed and not straddles.decided and straddles.verdict == "undecided"
    assert "UNDECIDED" in straddles.note and straddles.value == a.rtp and straddles.value_upper == a.rtp_upper
    for low, high, verdict in ((a.rtp_upper + 1, None, "fail"), (Fraction(0), a.rtp, "fail"),
                               (Fraction(0), middle, "undecided"), (a.rtp, None, "pass"),
                               (Fraction(0), a.rtp_upper, "undecided")):
        got = _apply(dataclasses.replace(rule, low=low, high=high), a)
        assert got.verdict == verdict and got.passed == (verdict == "pass"), (low, high, got)
    inclusive = _apply(dataclasses.replace(rule, low=Fraction(0), high=a.rtp_upper, high_inclusive=True), a)
    assert inclusive.verdict == "pass"
    assert outcome([straddles]).verdict == "incomplete" and outcome([straddles]).exit_code == 1
    failing = _apply(dataclasses.replace(rule, low=a.rtp_upper + 1), a)
    assert outcome([straddles, failing]).verdict == "fail"
    assert "UNDECIDED  t: t" in render(a, [straddles], "jp")
    # the same through the command line: a profile whose range the bounds straddle
    monkeypatch.setitem(PROFILES, "jp", (rule,))
    path = tmp_path / "game.toml"
    path.write_text(GAME, encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path), "--json"])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == "incomplete" and report["checks"][0]["verdict"] == "undecided"


def test_report_says_bounded(tmp_path):
    from click.testing import CliRunner

    from harness.cli import main

    path = tmp_path / "game.toml"
    path.write_text(ZERO_WIN_RETRIGGER, encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path)])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    assert "RIGOROUS BOUNDS" in result.stdout and "why bounded: a free spin can retrigger and win nothing" in result.stdout
    assert "Award cap" in result.stdout and "(rigorous bounds)" in result.stdout
    assert "cascade" not in result.stdout  # the classes' own bounds are the retriggers' 2^-192 brackets
    assert "within rational bounds 2^-192 apart" in result.stdout or "exact" in result.stdout.split("least likely")[1]


def test_round_play_and_numpy_player_inside_the_bounds(tmp_path):
    round_play_simulates(tmp_path, ZERO_WIN_RETRIGGER, 2000)
    numpy_player_agrees(model(ZERO_WIN_RETRIGGER), 10_000)


def test_sticky_wilds_under_a_cap_are_refused(tmp_path):
    text = NO_RETRIGGER.replace("[symbols]\n", '[symbols]\nW = { kind = "wild", sticky = true }\n')
    refused(tmp_path, text, "symbols.W.sticky: an award cap with sticky wilds in the free spins is not supported")


@pytest.mark.slow
def test_a_long_simulation_inside_the_bounds():
    numpy_player_agrees(model(ZERO_WIN_RETRIGGER), 2_000_000)
    numpy_player_agrees(model(ZERO_WIN_RETRIGGER.replace("win = 20", "win = 5")), 2_000_000)


def test_hold_and_spin_beside_free_spins_under_the_cap_equals_brute_force():
    """The whole play capped: the paid spin, every sequence of its free spins' stops (no retriggers) and
    the hold-and-spin feature's win (every final count the positions reach, every assignment of values)."""
    import itertools

    from test_slot_hold_spin import reference as hold_reference
    from test_slot_hold_spin_features import FREE, HOLD, game

    m = model(game(HOLD, FREE, "[cap]\nwin = 50\n"))
    a = analyse(m)
    tb, bpl, scat, h = m.total_bet, m.bet_per_line, m.symbols[m.scatter].pays, m.hold_and_spin
    cap = m.cap * tb
    values = {v: Fraction(w, sum(h.values.values())) for v, w in h.values.items() if w}
    hold: dict = {}
    for n0 in range(h.trigger, m.rows * m.reels + 1):
        final = hold_reference(m.rows * m.reels, n0, h.respins, h.land, dict(h.values), h.grand)[0]
        dist: dict = {}
        for n, p in final.items():
            for vs in itertools.product(values, repeat=n):
                w = tb * (sum(vs) + (h.grand if n == m.rows * m.reels else 0))
                q = p
                for v in vs:
                    q *= values[v]
                dist[w] = dist.get(w, 0) + q
        hold[n0] = dist
    base = brute_stage(m, m.base_strips, with_progressive=False)
    free = brute_stage(m, m.feature_strips, with_progressive=False)
    spin = [m.free_spins.multiplier * (bpl * t + tb * award(scat, k)) for t, k, _, _ in free.records]
    sessions: dict = {}  # spins awarded -> {total won: probability}, every sequence of free-spin stops
    for count in set(m.free_spins.spins.values()) | {0}:
        dist = sessions[count] = {}
        for seq in itertools.product(spin, repeat=count):
            dist[sum(seq)] = dist.get(sum(seq), 0) + Fraction(1, free.cycle ** count)
    mean = bites = Fraction(0)
    for t, k, _, _ in base.records:
        b = bpl * t + tb * award(scat, k)
        for s, q in sessions[award(m.free_spins.spins, k)].items():
            for f, p in hold.get(k, {0: Fraction(1)}).items():
                x = b + s + f
                mean += q * p * min(x, cap) / base.cycle
                bites += q * p / base.cycle if x > cap else 0
    assert a.bounded is None and a.cap.mean == mean and a.cap.capped == bites and 0 < bites < 1
    assert a.rtp == mean / tb
