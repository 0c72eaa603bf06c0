"""Exact analysis against brute force over every stop combination."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from harness.slot import feature as fs
from harness.slot.errors import ModelError
from harness.slot.exact import analyse
from harness.slot.joint import joint_moments
from harness.slot.lines import build_line_automaton, line_classes
from harness.slot.profiles import check
from harness.slot.reelset import base_reelset, feature_reelset
import slot_support as sup

MODELS = {"small": sup.SMALL, "feature": sup.FEATURE, "tall": sup.TALL}
try:
    from harness.slot import native  # noqa: F401

    ENGINES = ["python", "c"]
except ImportError:  # pragma: no cover - extension not built
    ENGINES = ["python"]


@pytest.mark.parametrize("name", sorted(MODELS))
def test_automaton_matches_the_rule_for_every_line(name):
    """The payline automaton pays every possible line exactly as the rule says."""
    m = sup.model(MODELS[name])
    classes = {(c.symbol, c.count): i for i, c in enumerate(line_classes(m))}
    auto = build_line_automaton(m, with_progressive=True)
    checked = 0
    for seq in itertools.product(range(len(m.symbols)), repeat=m.reels):
        pay, cls, prog = sup.reference_line(m, list(seq))
        assert auto.evaluate(seq) == (pay, classes[cls] if cls else -1, prog), seq
        checked += 1
    assert checked == len(m.symbols) ** m.reels


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_joint_moments_equal_brute_force(name, engine):
    m = sup.model(MODELS[name])
    stages = [(m.base_strips, base_reelset(m), True)]
    if m.free_spins is not None:
        stages.append((m.feature_strips, feature_reelset(m), False))
    for strips, reels, prog in stages:
        brute = sup.brute_stage(m, strips, with_progressive=prog)
        got = joint_moments(reels, build_line_automaton(m, with_progressive=prog), m.paylines, engine=engine)
        assert got.engine == engine
        assert got.cycle == brute.cycle
        assert got.count == brute.count
        assert got.line_sum == brute.line_sum
        assert got.line_sq == brute.line_sq
        assert got.no_line_win == brute.no_line_win
        assert got.class_scatter == brute.class_scatter


def _base_play_figures(m, brute):
    """RTP, hit frequency, E[X], E[X^2] of a model without free spins, by brute force."""
    tb, bpl = m.total_bet, m.bet_per_line
    scat = m.symbols[m.scatter].pays if m.scatter is not None else {}
    prog = m.progressive
    p_hit = Fraction(sum(1 for r in brute.records if r[2]), brute.cycle)
    mean_meter = second_meter = Fraction(0)
    if prog is not None:
        mean_meter = prog.reset + prog.contribution * tb / p_hit
        second_meter = (prog.reset**2 + 2 * prog.reset * prog.contribution * tb / p_hit
                        + (prog.contribution * tb) ** 2 * (2 - p_hit) / p_hit**2)
    s1 = s2 = Fraction(0)
    hits = 0
    for total, k, p, _ in brute.records:
        b = bpl * total + tb * sup.award(scat, k)
        # the meter paid at a hit is independent of this play's reels
        s1 += b + (mean_meter if p else 0)
        s2 += b * b + (2 * b * mean_meter + second_meter if p else 0)
        hits += b > 0 or p
    n = brute.cycle
    mean, second = s1 / n, s2 / n
    return mean / tb, Fraction(hits, n), second - mean * mean


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", ["small", "tall"])
def test_analysis_equals_brute_force_without_free_spins(name, engine):
    m = sup.model(MODELS[name])
    a = analyse(m, engine=engine)
    brute = sup.brute_stage(m, m.base_strips, with_progressive=True)
    rtp, hit, var = _base_play_figures(m, brute)
    assert a.rtp == rtp
    assert a.hit_frequency == hit
    assert a.variance == var
    assert a.cycle == brute.cycle
    # every class: probability per play that it is paid on at least one line
    for c, cls in enumerate(a.classes):
        if cls.kind != "line":
            continue
        expect = Fraction(sum(1 for r in brute.records if c in r[3]), brute.cycle)
        assert cls.exact and cls.probability == expect == cls.base_probability, cls.name
    # the rarest winning outcome: least likely of the classes that occur (probabilities checked above)
    assert a.rarest.probability == min(c.probability for c in a.classes if c.probability > 0)


def test_progressive_share_is_contribution_plus_reset_share():
    m = sup.model(sup.SMALL)
    a = analyse(m)
    brute = sup.brute_stage(m, m.base_strips, with_progressive=True)
    p = Fraction(sum(1 for r in brute.records if r[2]), brute.cycle)
    assert a.progressive.hit_probability == p
    assert a.parts["progressive"] == Fraction(3, 200) + p * 500 / m.total_bet
    # meter moments against the geometric series summed directly
    c_b = float(Fraction(3, 200) * m.total_bet)
    pf = float(p)
    mean = sum((1 - pf) ** (g - 1) * pf * (500 + c_b * g) for g in range(1, 20000))
    second = sum((1 - pf) ** (g - 1) * pf * (500 + c_b * g) ** 2 for g in range(1, 20000))
    assert float(a.progressive.mean_meter) == pytest.approx(mean, rel=1e-12)
    assert float(a.progressive.meter_second_moment) == pytest.approx(second, rel=1e-12)


def _feature_brute(m):
    """Spin distribution of a free spin and base records, by brute force."""
    fsp = m.free_spins
    scat = m.symbols[m.scatter].pays
    base = sup.brute_stage(m, m.base_strips, with_progressive=True)
    feat = sup.brute_stage(m, m.feature_strips, with_progressive=False)
    dist = {}
    for total, k, _, _ in feat.records:
        w = fsp.multiplier * (m.bet_per_line * total + m.total_bet * sup.award(scat, k))
        j = sup.award(fsp.retrigger, k)
        dist[(w, j)] = dist.get((w, j), 0) + Fraction(1, feat.cycle)
    return base, feat, dist


def test_free_spins_value_and_variance_against_first_step_analysis():
    m = sup.model(sup.FEATURE)
    a = analyse(m)
    base, feat, dist = _feature_brute(m)
    ew = sum(w * p for (w, j), p in dist.items())
    m_spins = sum(j * p for (w, j), p in dist.items())
    assert a.feature.retrigger_per_spin == m_spins
    # E[V] solves E[V] = E[W] + m E[V] exactly
    ev = ew / (1 - m_spins)
    scat = m.symbols[m.scatter].pays
    tb = m.total_bet
    rtp = Fraction(0)
    for total, k, _, _ in base.records:
        rtp += m.bet_per_line * total + tb * sup.award(scat, k) + sup.award(m.free_spins.spins, k) * ev
    rtp /= base.cycle * tb
    assert a.rtp == rtp
    assert a.parts["feature"] == sum(sup.award(m.free_spins.spins, k) * ev for _, k, _, _ in base.records) / (base.cycle * tb)
    # second moments by first-step analysis over the spins remaining (floats)
    ev_f, ev2_f = sup.feature_value_by_first_step(dist, n_max=60, sweeps=120)
    assert ev_f == pytest.approx(float(ev), rel=1e-12)
    s1 = s2 = 0.0
    for total, k, _, _ in base.records:
        b = m.bet_per_line * total + tb * sup.award(scat, k)
        n = sup.award(m.free_spins.spins, k)
        ef, ef2 = n * ev_f, n * ev2_f + n * (n - 1) * ev_f**2
        s1 += b + ef
        s2 += b * b + 2 * b * ef + ef2
    var = s2 / base.cycle - (s1 / base.cycle) ** 2
    assert float(a.variance) == pytest.approx(var, rel=1e-10)
    hits = sum(1 for total, k, p, _ in base.records
               if total or sup.award(scat, k) or sup.award(m.free_spins.spins, k) or p)
    assert a.hit_frequency == Fraction(hits, base.cycle)


def test_class_probability_per_play_with_retriggers_is_bracketed():
    """P(class at least once in a play) against the fixed point iterated in floats."""
    m = sup.model(sup.FEATURE)
    a = analyse(m)
    base, feat, _ = _feature_brute(m)
    fsp = m.free_spins
    by_name = {c.name: i for i, c in enumerate(a.classes)}
    for c, lc in enumerate(line_classes(m)):
        cls = a.classes[c]
        assert not cls.exact or cls.free_spin_probability in (0, None)
        # z = P(no class in the tree of one free spin) = sum P(no c, J=j) z^j
        weights = {}
        for total, k, _, seen in feat.records:
            if c not in seen:
                j = sup.award(fsp.retrigger, k)
                weights[j] = weights.get(j, 0) + 1.0 / feat.cycle
        z = 0.0
        for _ in range(500):
            z = sum(w * z**j for j, w in weights.items())
        expect = 0.0
        for total, k, _, seen in base.records:
            if c in seen:
                expect += 1
            else:
                expect += 1 - z ** sup.award(fsp.spins, k)
        expect /= base.cycle
        assert cls.probability <= cls.probability_upper
        assert cls.probability_upper - cls.probability <= Fraction(2 * 20, 2**192)
        assert float(cls.probability) == pytest.approx(expect, rel=1e-12), cls.name
        assert by_name[cls.name] == c


def test_class_probability_without_retriggers_is_exact():
    text = sup.FEATURE.replace("retrigger = { 3 = 2 }\n", "")
    m = sup.model(text)
    a = analyse(m)
    base, feat, _ = _feature_brute(m)
    for c, cls in enumerate(a.classes[: len(line_classes(m))]):
        p = Fraction(sum(1 for r in feat.records if c in r[3]), feat.cycle)
        expect = Fraction(0)
        for total, k, _, seen in base.records:
            expect += 1 if c in seen else 1 - (1 - p) ** sup.award(m.free_spins.spins, k)
        assert cls.exact
        assert cls.probability == expect / base.cycle, cls.name


def test_no_occurrence_bracket_contains_the_bisection_root():
    weights, d = {0: 9_000_000, 10: 40_000, 15: 3_000}, 10_000_000
    lo, hi = fs.no_occurrence_bracket(weights, d)
    assert 0 < hi - lo <= Fraction(1, 2**192)

    def h(z):
        return sum(Fraction(w, d) * z**j for j, w in weights.items()) - z

    assert h(lo) >= 0 >= h(hi)


def test_divergent_retrigger_is_a_model_error():
    text = sup.FEATURE.replace("retrigger = { 3 = 2 }", "retrigger = { 1 = 3 }")
    with pytest.raises(ModelError) as err:
        analyse(sup.model(text))
    assert err.value.where == "free_spins.retrigger"
    assert "expected number of free spins is infinite" in str(err.value)


def test_unreachable_award_has_probability_zero():
    """A wild paying less than what its run pays as another symbol is never paid."""
    text = sup.SMALL.replace('kind = "wild"\npays = { 2 = 2, 3 = 50 }', 'kind = "wild"\npays = { 2 = 2, 3 = 9 }')
    a = analyse(sup.model(text))
    by_name = {c.name: c for c in a.classes}
    assert by_name["3 x W"].probability == 0  # W W W pays 3 x A (10) instead
    assert by_name["2 x W"].probability == 0  # W W x ties with 2 x A (2): the symbol listed first wins
    # The rarest WINNING outcome is one that can occur: the least likely class of positive probability,
    # and the brute force finds it paid on some stop combination.
    assert a.rarest.probability > 0 and a.rarest.name not in ("2 x W", "3 x W")
    assert a.rarest.probability == min(c.probability for c in a.classes if c.probability > 0)
    m = sup.model(text)
    if a.rarest.kind == "line":
        index = [c.name for c in a.classes].index(a.rarest.name)
        brute = sup.brute_stage(m, m.base_strips, with_progressive=True)
        assert Fraction(sum(1 for r in brute.records if index in r[3]), brute.cycle) == a.rarest.probability
    rule = check(a, "jp")[0]
    assert rule.outcome == a.rarest.name and rule.value > 0
    assert "2 x W" in check(a, "gli11")[0].failing  # an advertised award never paid is still flagged


def test_rtp_at_or_above_one_is_analysed():
    text = sup.SMALL.replace("pays = { 3 = 5 }", "pays = { 3 = 500 }")
    a = analyse(sup.model(text))
    assert a.rtp >= 1


def _check_five(stops, n_lines, engines):
    m = sup.model(sup.five_reel_text(stops, n_lines))
    checked = 0
    for strips, reels, prog in ((m.base_strips, base_reelset(m), True), (m.feature_strips, feature_reelset(m), False)):
        brute = sup.brute_stage(m, strips, with_progressive=prog)
        for engine in engines:
            got = joint_moments(reels, build_line_automaton(m, with_progressive=prog), m.paylines, engine=engine)
            assert (got.count, got.line_sum, got.line_sq, got.no_line_win, got.class_scatter) == (
                brute.count, brute.line_sum, brute.line_sq, brute.no_line_win, brute.class_scatter), engine
            checked += 1
    assert checked == 2 * len(engines)


def test_five_reels_twenty_lines_equal_brute_force():
    """Five reels of unequal lengths, 20 lines, stacked scatters: every stop combination."""
    _check_five((6, 7, 6, 5, 6), 20, ENGINES)


@pytest.mark.slow
def test_five_reels_fifty_lines_equal_brute_force():
    """10^5 stop combinations per stage, 50 lines (a few minutes of brute force)."""
    _check_five((10, 10, 10, 10, 10), 50, ENGINES[-1:])


def test_scatter_count_awarding_only_in_free_spins():
    """A count that awards nothing in the base game is a winning outcome only in free spins."""
    text = (sup.FEATURE.replace("pays = { 2 = 1, 3 = 5 }", "pays = { 3 = 5 }")
            .replace("spins = { 2 = 2, 3 = 5 }", "spins = { 3 = 5 }")
            .replace("retrigger = { 3 = 2 }", "retrigger = { 2 = 1 }"))
    m = sup.model(text)
    a = analyse(m)
    cls = next(c for c in a.classes if c.name == "scatter 2 x S")
    assert cls.base_probability == 0 and cls.free_spin_probability > 0
    base, feat, _ = _feature_brute(m)
    p_free = sum(1 for r in feat.records if r[1] == 2) / feat.cycle
    assert float(cls.free_spin_probability) == pytest.approx(p_free, rel=1e-12)
    # per play: P(triggered) x P(at least one such spin among the free spins), by fixed-point iteration
    weights = {}
    for _, k, _, _ in feat.records:
        if k != 2:
            j = sup.award(m.free_spins.retrigger, k)
            weights[j] = weights.get(j, 0) + 1 / feat.cycle
    z = 0.0
    for _ in range(500):
        z = sum(w * z**j for j, w in weights.items())
    expect = sum(1 - z ** sup.award(m.free_spins.spins, k) for _, k, _, _ in base.records) / base.cycle
    assert float(cls.probability) == pytest.approx(expect, rel=1e-12)
