"""Hold and spin with free spins and a progressive in one model (docs/slot_model.md, "Hold and spin
with free spins and a progressive"): every figure against a brute force over every stop of the paid
spin and of each free spin, the hold-and-spin feature followed position by position.

The brute force plays the whole play: the paid spin's window (every stop combination), the free spins
it awards (every sequence of free-spin stops, no retriggers), the hold-and-spin feature it starts
(:func:`test_slot_hold_spin.reference`, which follows the positions themselves) and the progressive's
meter (its geometric moments written out here), each independent of the others given the window.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from slot_support import HOLD_TWO_BY_TWO, TWO_BY_TWO, award, brute_stage, model, round_play_simulates
from test_slot_docs import _fragment
from test_slot_hold_spin import reference

from harness.slot.exact import analyse
from harness.slot.model import parse_model
from harness.slot.profiles import check

HOLD = HOLD_TWO_BY_TWO[len(TWO_BY_TWO):]  # its [hold_and_spin] section: C, 2+ coins, 4 positions
FREE = """
[free_spins]
spins = { 1 = 1, 2 = 2 }
multiplier = 3
"""
PROGRESSIVE = """
[progressive]
symbol = "A"
count = 2
contribution = "1/50"
reset = 40
"""
FEATURE_STRIPS = 'feature = ["A K C A", "K A C K A"]\n'
# C pays on its own too, so the scatter part is not 0
GAME = TWO_BY_TWO.replace('C = { kind = "scatter" }', 'C = { kind = "scatter", pays = { 2 = 1 } }')


def game(*sections: str, feature: bool = True) -> str:
    text = GAME + (FEATURE_STRIPS if feature else "")
    return text + "".join(sections)


def brute_play(m):
    """(mean, second moment, hit frequency, {class name: P(paid at least once)}) of a play, by brute force."""
    base = brute_stage(m, m.base_strips, with_progressive=False)
    prog_hits = brute_stage(m, m.base_strips, with_progressive=m.progressive is not None)
    free = brute_stage(m, m.feature_strips, with_progressive=False) if m.free_spins is not None else None
    n, tb, bpl = base.cycle, m.total_bet, m.bet_per_line
    scat = m.symbols[m.scatter].pays
    h = m.hold_and_spin
    features = {k: reference(m.rows * m.reels, k, h.respins, h.land, dict(h.values), h.grand)
                for k in range(h.trigger, m.rows * m.reels + 1)}

    # one free spin: its win and the classes it pays, every stop combination of the feature strips
    spin_dist: dict = {}
    if free is not None:
        for total, k, _, seen in free.records:
            w = m.free_spins.multiplier * (bpl * total + tb * award(scat, k))
            key = (w, seen | ({"scatter"} if award(scat, k) else set()))
            spin_dist[key] = spin_dist.get(key, 0) + Fraction(1, free.cycle)

    def free_spins(count: int) -> dict:
        """{(credits, classes paid): probability} of ``count`` free spins (every sequence of their stops)."""
        out: dict = {}
        for seq in itertools.product(spin_dist.items(), repeat=count):
            w = sum(key[0] for key, _ in seq)
            seen = frozenset().union(*(key[1] for key, _ in seq)) if seq else frozenset()
            p = Fraction(1)
            for _, q in seq:
                p *= q
            out[(w, seen)] = out.get((w, seen), 0) + p
        return out

    hit_p = Fraction(sum(1 for r in prog_hits.records if r[2]), n)
    meter1 = meter2 = Fraction(0)
    if m.progressive is not None:  # the meter at a hit: reset + contribution x bet x G, G geometric (hit_p)
        c, r0, p = m.progressive.contribution * tb, m.progressive.reset, hit_p
        e_g, e_g2 = 1 / p, (2 - p) / p ** 2
        meter1, meter2 = r0 + c * e_g, r0 * r0 + 2 * r0 * c * e_g + c * c * e_g2
    names = {i: f"{lc.count} x {m.symbol_names[lc.symbol]}" for i, lc in enumerate(_line_classes(m))}
    s1 = s2 = hits = Fraction(0)
    once: dict[str, Fraction] = {}
    for (total, k, _, seen), (_, _, won, _) in zip(base.records, prog_hits.records):
        paid = {names[c] for c in seen} | ({"scatter"} if award(scat, k) else set())
        b = bpl * total + tb * award(scat, k)
        spins = award(m.free_spins.spins, k) if m.free_spins is not None else 0
        hold = features.get(k)
        h1, h2 = (tb * hold[1], tb * tb * hold[2]) if hold else (0, 0)
        m1, m2 = (meter1, meter2) if won else (0, 0)
        started = {"hold"} if hold else set()
        if won:
            started.add("progressive")
        for (f, seen_free), q in free_spins(spins).items():
            x1 = b + f + h1 + m1  # given the window, the hold feature and the meter are independent of the rest
            x2 = (b + f) ** 2 + h2 + m2 + 2 * (b + f) * (h1 + m1) + 2 * h1 * m1
            w = q / n
            s1 += w * x1
            s2 += w * x2
            hits += w if (b or spins or hold or won) else 0
            for name in paid | {names[c] if isinstance(c, int) else c for c in seen_free} | started:
                once[name] = once.get(name, 0) + w
        if hold:
            once["grand"] = once.get("grand", 0) + Fraction(1, n) * hold[3]
    return s1, s2, hits, once


def _line_classes(m):
    from harness.slot.lines import line_classes

    return line_classes(m)


@pytest.mark.parametrize("sections", [(FREE,), (PROGRESSIVE,), (FREE, PROGRESSIVE)],
                         ids=["free spins", "progressive", "both"])
def test_hold_and_spin_beside_free_spins_and_progressive_equals_brute_force(sections):
    m = model(game(HOLD, *sections, feature=FREE in sections))
    a = analyse(m)
    mean, second, hit, once = brute_play(m)
    tb = m.total_bet
    assert a.rtp == mean / tb
    assert a.variance == second - mean * mean
    assert a.hit_frequency == hit
    by_name = {c.name: c for c in a.classes}
    assert by_name["hold and spin 2+ x C"].probability == once["hold"]
    assert by_name["hold and spin grand (4 x C)"].probability == once["grand"]
    for name in ("2 x A", "2 x K"):
        assert by_name[name].probability == by_name[name].probability_upper == once.get(name, 0)
    assert by_name["scatter 2+ x C"].probability == once["scatter"]
    if PROGRESSIVE in sections:
        assert by_name["progressive 2 x A"].probability == once["progressive"]
        assert a.parts["progressive"] > 0
    if FREE in sections:
        assert a.feature is not None and a.feature.trigger_probability > 0
    assert sum(c.rtp for c in a.classes) == a.rtp
    assert a.parts["feature"] > 0 and a.rarest.probability == min(c.probability for c in a.classes if c.probability)


def test_free_spins_never_start_hold_and_spin():
    """Coins in a free spin start nothing: feature strips full of coins change no hold-and-spin figure."""
    plain = analyse(model(game(HOLD, FREE)))
    coins = analyse(model(game(HOLD, FREE).replace(FEATURE_STRIPS, 'feature = ["C C A", "C K C"]\n')))
    assert coins.parts["feature"] != plain.parts["feature"]  # the free spins did change
    for name in ("hold and spin 2+ x C", "hold and spin grand (4 x C)"):
        mine, theirs = ({c.name: c for c in a.classes}[name] for a in (plain, coins))
        assert (mine.probability, mine.rtp) == (theirs.probability, theirs.rtp)


def test_annotated_example_is_valid_and_passes():
    m = parse_model(_fragment("Hold and spin with free spins and a progressive"), source="docs/slot_model.md")
    assert m.hold_and_spin is not None and m.free_spins is not None and m.progressive is not None
    a = analyse(m)
    assert all(a.parts[k] > 0 for k in ("lines", "scatters", "feature", "progressive")), a.parts
    assert all(c.passed for c in check(a, "jp")), [c for c in check(a, "jp") if not c.passed]
    # the section quotes the rarest outcome
    assert a.rarest.name == "hold and spin grand (6 x C)" and f"{float(1 / a.rarest.probability):,.0f}" == "415"


def test_simulate_plays_them_together_through_a_rounds_play(tmp_path):
    assert round_play_simulates(tmp_path, game(HOLD, FREE, PROGRESSIVE), 3000)["features"] > 0

