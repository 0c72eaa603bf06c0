"""A straightforward reference for ways games: every stop combination, every way listed.

Written from the rule of docs/slot_model.md ("Ways to win") alone, not from
harness.slot.ways_rule: per paying symbol, the run of reels from reel 1
showing it (or a wild for it); the longest listed count k within the run;
then every path of one matching cell on each of reels 1..k is listed one by
one, a regular symbol's paths of wilds only are left out, and each path is
paid pay(S, k) times its multiplier (multiply: the product of its wilds'
multipliers; add: the sum of those above 1, or 1).  Both ways reads the
reversed window too, except for a symbol paid on every reel from the left.
"""
from __future__ import annotations

import functools
import itertools
import math
from collections import defaultdict
from fractions import Fraction


def symbol_pays(model, window, *, both_ways=False):
    """{(symbol, count): pay in bets per way} of one window (columns, reel 1 first)."""
    out = defaultdict(int)
    syms = model.symbols
    for i, s in enumerate(syms):
        if s.kind == "scatter" or not s.pays:
            continue
        if s.kind == "wild":
            match = {i}
        else:
            match = {i} | {j for j, w in enumerate(syms) if w.kind == "wild" and s.name in w.substitutes}
        left = _reading(model, window, i, match)
        if left:
            out[(i, left[0])] += left[1]
        if both_ways and (not left or left[0] != len(window)):
            right = _reading(model, list(reversed(window)), i, match)
            if right:
                out[(i, right[0])] += right[1]
    return dict(out)


def _reading(model, window, i, match):
    syms = model.symbols
    run = 0
    for col in window:
        if not any(x in match for x in col):
            break
        run += 1
    counts = [k for k in syms[i].pays if k <= run]
    if not counts:
        return None
    k = max(counts)
    total = 0
    for path in itertools.product(*[[x for x in window[r] if x in match] for r in range(k)]):
        if syms[i].kind != "wild" and i not in path:
            continue  # a way of wilds only is not this symbol's
        ms = [syms[x].multiplier for x in path if syms[x].multiplier > 1]
        if model.wild_multipliers == "add":
            mult = sum(ms) if ms else 1
        else:
            mult = math.prod(ms)
        total += mult
    return (k, syms[i].pays[k] * total) if total else None


def progressive_won(model, window):
    p = model.progressive
    if p is None:
        return False
    i = model.symbol_index(p.symbol)
    match = {i} | ({j for j, w in enumerate(model.symbols) if w.kind == "wild" and p.symbol in w.substitutes}
                   if p.wilds else set())
    cols = window[:p.count]
    return len(cols) == p.count and all(any(x in match for x in c) for c in cols)


def windows(model, *, feature=False):
    """Every (window, window before expanding wilds, weight) of the cycle: heights (if drawn) x stops."""
    strips = model.feature_strips if feature else model.base_strips
    weights = model.feature_weights if feature else model.base_weights
    per_reel = []
    for r, strip in enumerate(strips):
        heights = model.heights[r] if model.heights is not None else ((model.rows, 1),)
        options = []
        for h, hw in heights:
            if not hw:
                continue
            for p in range(len(strip)):
                w = hw * (weights[r][p] if weights else 1)
                if w:
                    shown = tuple(strip[(p + j) % len(strip)] for j in range(h))
                    options.append((shown, w))
        per_reel.append(options)
    for combo in itertools.product(*per_reel):
        raw = [c for c, _ in combo]
        window = [list(c) for c in raw]
        for col in window:  # an expanding wild covers its reel; the first listed wins
            landed = [x for x in model.expanding if x in col]
            if landed:
                col[:] = [landed[0]] * len(col)
        yield [tuple(c) for c in window], raw, math.prod(w for _, w in combo)


def window_cell(model, window):
    code = model.scatter_code
    return sum(col.count(x) * place for x, place in zip(code.symbols, code.place) for col in window)


def figures(model, *, feature=False, both_ways=False):
    """Sums over the cycle: spins, line pay, its square, by (cell, progressive); per class: spins, pays;
    spins with no line pay and no progressive by cell."""
    count = defaultdict(int)
    line_sum = defaultdict(int)
    line_sq = 0
    class_paid = defaultdict(int)
    class_pay = defaultdict(int)
    no_line = defaultdict(int)
    for window, raw, w in windows(model, feature=feature):
        cell = window_cell(model, raw)
        pays = symbol_pays(model, window, both_ways=both_ways)
        won = (not feature) and progressive_won(model, window)
        total = sum(pays.values())
        count[(cell, int(won))] += w
        line_sum[(cell, int(won))] += w * total
        line_sq += w * total * total
        for key, pay in pays.items():
            class_paid[(key, cell)] += w
            class_pay[key] += w * pay
        if not total and not won:
            no_line[cell] += w
    return dict(count=dict(count), line_sum=dict(line_sum), line_sq=line_sq, class_paid=dict(class_paid),
                class_pay=dict(class_pay), no_line=dict(no_line))


def scatter_pay(model, cell_window):
    """Scatter pays (x total bet) of a window before expansion: each scatter's pays for its count."""
    total = 0
    for i, s in enumerate(model.symbols):
        if s.kind == "scatter":
            n = sum(col.count(i) for col in cell_window)
            total += max((v for c, v in s.pays.items() if c <= n), default=0)
    return total


def play_figures(model):
    """A base game without features: (RTP, hit frequency, variance in credits^2,
    {line class name: P(paid)}, P(progressive won)), every stop combination read."""
    names = model.symbol_names
    n = total = total_sq = hits = won = 0
    seen = defaultdict(int)
    for window, raw, w in windows(model):
        pays = symbol_pays(model, window, both_ways=model.both_ways)
        win = model.bet_per_line * sum(pays.values()) + scatter_pay(model, raw) * model.total_bet
        n += w
        total += w * win
        total_sq += w * win * win
        hits += w * (win > 0)
        won += w * progressive_won(model, window)
        for (i, k) in pays:
            seen[f"{k} x {names[i]}"] += w
    mean = Fraction(total, n)
    return (mean / model.total_bet, Fraction(hits, n), Fraction(total_sq, n) - mean * mean,
            {k: Fraction(v, n) for k, v in seen.items()}, Fraction(won, n))


# --- the textbook product, for games too large to enumerate ------------------------------


def reel_heights(m, r: int):
    return m.heights[r] if m.heights is not None else ((m.rows, 1),)


def _reel_facts(m, r: int):
    """Per reel: per symbol set, the weighted cells showing one of them (each counted at its
    multiplier) and the weight of the columns showing at least one (every stop at every height)."""
    strip = m.base_strips[r]
    n = len(strip)
    mult = [s.multiplier for s in m.symbols]

    @functools.cache
    def facts(accepted: frozenset) -> tuple[int, int]:
        cells = shows = 0
        for h, hw in reel_heights(m, r):
            for p in range(n):
                col = [strip[(p + i) % n] for i in range(h)]
                cells += hw * sum(mult[x] for x in col if x in accepted)
                shows += hw * any(x in accepted for x in col)
        return cells, shows

    return facts


def product_formula(m, order=None):
    """(line credits per class over the cycle / cycle, P(class paid)) by the textbook ways product:
    n x S is paid pay x c1 x ... x cn (S alone on the first reel read, S or WILD on the next n - 1,
    each cell at its multiplier) when the reel after shows neither, reading the reels in ``order``
    (default: left to right).  It is the rule when WILD is never on the first reel read (every way
    then shows S itself), multipliers multiply and every count from the shortest up is listed."""
    order = list(range(m.reels)) if order is None else order
    wild = m.symbol_index("WILD")
    assert wild not in m.base_strips[order[0]] and m.wild_multipliers == "multiply"
    total = [sum(w for _, w in reel_heights(m, r)) * len(m.base_strips[r]) for r in order]
    facts = [_reel_facts(m, r) for r in order]
    credits, once = {}, {}
    for i, s in enumerate(m.symbols):
        if s.kind != "regular":
            continue
        assert sorted(s.pays) == list(range(min(s.pays), m.reels + 1))
        for n, pay in s.pays.items():
            ways_in = Fraction(1)
            at_least = Fraction(1)
            for k in range(n):
                cells, shows = facts[k](frozenset({i} if k == 0 else {i, wild}))
                ways_in *= Fraction(cells, total[k])
                at_least *= Fraction(shows, total[k])
            if n < m.reels:  # the next reel shows neither S nor WILD; the reels after it do not count
                _, shows = facts[n](frozenset({i, wild}))
                ways_in *= 1 - Fraction(shows, total[n])
                at_least *= 1 - Fraction(shows, total[n])
            credits[f"{n} x {s.name}"] = ways_in * pay * m.bet_per_line
            once[f"{n} x {s.name}"] = at_least
    return credits, once


def paid_cells(model, window):
    """(reel, row) of every cell on a paid symbol's reels 1..k that shows it or a wild for it
    (the cells a cascade removes)."""
    syms = model.symbols
    cells = set()
    for (i, k) in symbol_pays(model, window):
        match = {i} if syms[i].kind == "wild" else (
            {i} | {j for j, w in enumerate(syms) if w.kind == "wild" and syms[i].name in w.substitutes})
        cells |= {(r, h) for r in range(k) for h, x in enumerate(window[r]) if x in match}
    return cells
