"""Independent brute force for the slot tests.

Nothing here uses the payline automaton, the joint dynamic programme or the
feature formulas of ``harness.slot``: line pays are evaluated directly from
the rule in docs/slot_model.md, every stop combination is enumerated, and
the free spins' value is found by first-step analysis over the number of
spins remaining.
"""
from __future__ import annotations

import dataclasses
import itertools
import textwrap
from fractions import Fraction

from harness.slot.lines import line_classes
from harness.slot.model import SlotModel, parse_model


def model(text: str) -> SlotModel:
    return parse_model(textwrap.dedent(text))


def refused(tmp_path, text: str, where: str) -> str:
    """Run ``rngcert slot`` on ``text`` saved as a file: exit 2 and ONE stderr line naming
    the file and ``where`` (no traceback); the line is returned."""
    from click.testing import CliRunner

    from harness.cli import main

    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path)])
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and str(path) in line and where in line, line
    assert "Traceback" not in result.output
    return line


def simulate_refused(tmp_path, text: str, where: str) -> None:
    """``rngcert slot --simulate`` on ``text``: exit 2 naming ``where`` (a feature the C kernel does not play)."""
    from click.testing import CliRunner

    from harness.cli import main

    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path), "--simulate", "1000", "--seed", bytes(range(32)).hex()])
    assert result.exit_code == 2 and where in result.stderr, result.output


def round_play_simulates(tmp_path, text: str, plays: int) -> dict:
    """``rngcert slot --simulate`` on ``text``, played by a round's play (harness/slot/play_player.py):
    the exact RTP and hit frequency inside the simulated 99.9% intervals; the simulation report."""
    import json

    from click.testing import CliRunner

    from harness.cli import main

    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path), "--simulate", str(plays), "--seed", bytes(range(32)).hex(),
                                       "--json"])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    report = json.loads(result.stdout)["simulation"]
    assert report["plays"] == plays and report["engine"] == "Python round play", report
    assert report["rtp_exact_inside"] and report["hit_frequency_exact_inside"], report
    return report


def numpy_player_agrees(m: SlotModel, plays: int, *, features: bool = True) -> None:
    """The numpy player's 99.9% intervals (RTP, hit frequency) hold the exact figures (and, with
    ``features``, a feature started)."""
    import numpy as np

    from harness.slot.exact import analyse
    from harness.slot.simulate import simulate_numpy

    result = simulate_numpy(m, plays, np.random.Generator(np.random.PCG64(20261201)))
    assert result.features > 0 or not features
    assert result.agrees(analyse(m)) == (True, True)


# A 2-reel, 2-row game whose scatter C starts a feature (the section is added by each test).
TWO_BY_TWO = """
name = "two by two"
window = { rows = 2, reels = 2 }
bet = { per_line = 1, paylines = [[1, 1], [2, 2]] }
[symbols]
A = { pays = { 2 = 3 } }
K = { pays = { 2 = 1 } }
C = { kind = "scatter" }
[reels]
base = ["A C K C A K", "K C A K C A C"]
"""

# TWO_BY_TWO's C as the coin of a hold-and-spin feature on its 4 positions.
HOLD_TWO_BY_TWO = TWO_BY_TWO + """
[hold_and_spin]
symbol = "C"
trigger = 2
respins = 2
land = "1/4"
values = { 1 = 5, 3 = 2, 10 = 1 }
grand = 50
"""

# A 3-reel, 3-row, 10-stop game: wild paying on its own, a second wild
# substituting for two symbols only, ties between combinations, a scatter
# that can show twice in one column, a progressive.
SMALL = """
name = "small"
[window]
rows = 3
reels = 3
[bet]
per_line = 2
paylines = [[2, 2, 2], [1, 1, 1], [3, 3, 3], [1, 2, 3], [3, 2, 1]]
[symbols.A]
pays = { 2 = 2, 3 = 10 }
[symbols.K]
pays = { 3 = 5 }
[symbols.Q]
pays = { 2 = 1, 3 = 3 }
[symbols.X]
[symbols.W]
kind = "wild"
pays = { 2 = 2, 3 = 50 }
[symbols.V]
kind = "wild"
substitutes = ["K", "Q"]
[symbols.S]
kind = "scatter"
pays = { 2 = 1, 3 = 10 }
[reels]
base = [
  "A K Q W S S K Q X V",
  "A K Q W A S K V Q K",
  "A K Q W S A K Q A X",
]
[progressive]
symbol = "A"
count = 3
wilds = true
contribution = "3/200"
reset = 500
"""

# Free spins: retriggers, a multiplier and their own strips.
FEATURE = """
name = "feature"
[window]
rows = 3
reels = 3
[bet]
per_line = 1
paylines = [[2, 2, 2], [1, 1, 1], [3, 3, 3]]
[symbols.A]
pays = { 3 = 10 }
[symbols.K]
pays = { 2 = 1, 3 = 4 }
[symbols.W]
kind = "wild"
pays = { 3 = 25 }
[symbols.S]
kind = "scatter"
pays = { 2 = 1, 3 = 5 }
[reels]
base = [
  "A K W S K A K A K S",
  "K A S W A K K A S K",
  "A S K K W A S K A K",
]
feature = [
  "A W S K K A W K A K",
  "W A K S A K W A K K",
  "A K W K S A W K A S",
]
[free_spins]
spins = { 2 = 2, 3 = 5 }
retrigger = { 3 = 2 }
multiplier = 3
"""

# Four rows, four reels: exercises row masks wider than three rows.
TALL = """
name = "tall"
[window]
rows = 4
reels = 4
[bet]
per_line = 1
paylines = [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4], [1, 2, 3, 4], [4, 3, 2, 1], [1, 2, 2, 1], [4, 3, 3, 4]]
[symbols.A]
pays = { 2 = 1, 3 = 4, 4 = 20 }
[symbols.B]
pays = { 3 = 6, 4 = 30 }
[symbols.C]
pays = { 4 = 100 }
[symbols.W]
kind = "wild"
substitutes = ["A", "B"]
pays = { 4 = 60 }
[symbols.S]
kind = "scatter"
pays = { 3 = 2, 4 = 20 }
[reels]
base = [
  "A B C W S A B A",
  "B A S C A W B A",
  "C A B S W A B B",
  "A C B A S W A B",
]
"""


def expand(m: SlotModel, column: list[int]) -> list[int]:
    """The column the lines read: an expanding wild in it covers it (the first listed, if several)."""
    for i, sym in enumerate(m.symbols):
        if sym.expanding and i in column:
            return [i] * len(column)
    return column


def reference_line(m: SlotModel, seq) -> tuple[int, tuple[int, int] | None, bool]:
    """(pay, (symbol, count) paid or None, progressive shown), straight from the rule."""
    best = None
    for i, sym in enumerate(m.symbols):
        if sym.kind == "scatter" or not sym.pays:
            continue
        ok = {i}
        if sym.kind == "regular":
            ok |= {j for j, w in enumerate(m.symbols) if w.kind == "wild" and sym.name in w.substitutes}
        run = 0
        while run < len(seq) and seq[run] in ok:
            run += 1
        for k, pay in sym.pays.items():
            if k > run:
                continue
            # wild multipliers of the combination's k symbols: product, or sum ("add"); 1 without
            found = [m.symbols[x].multiplier for x in seq[:k] if m.symbols[x].multiplier > 1]
            times = 1
            for f in found:
                times = times + f if m.wild_multipliers == "add" else times * f
            if found and m.wild_multipliers == "add":
                times -= 1  # the sum of the multipliers alone
            if best is None or (pay * times, k, -i) > best:
                best = (pay * times, k, -i)
    prog = False
    if m.progressive is not None:
        p = m.symbol_index(m.progressive.symbol)
        ok = {p}
        if m.progressive.wilds:
            ok |= {j for j, w in enumerate(m.symbols) if w.kind == "wild" and m.progressive.symbol in w.substitutes}
        prog = all(x in ok for x in seq[: m.progressive.count])
    if best is None:
        return 0, None, prog
    return best[0], (-best[2], best[1]), prog


@dataclasses.dataclass
class BruteStage:
    """Every stop combination of one stage, aggregated as the analysis reports it."""

    cycle: int
    count: list  # [k][p]
    line_sum: list
    line_sq: list
    no_line_win: list  # [k]
    class_scatter: list  # [c][k]
    # per-combination records for further sums: (line pay multiple, k, progressive, classes)
    records: list
    weights: list  # each record's weight (1 without stop weights)


def brute_stage(m: SlotModel, strips, *, with_progressive: bool, weights=None) -> BruteStage:
    """Every combination of (physical) stops; with ``weights``, each counts the product of its stop weights."""
    rows, reels = m.rows, m.reels
    kmax = rows * reels
    classes = {(c.symbol, c.count): i for i, c in enumerate(line_classes(m))}
    scatter = m.scatter
    count = [[0, 0] for _ in range(kmax + 1)]
    line_sum = [[0, 0] for _ in range(kmax + 1)]
    line_sq = [[0, 0] for _ in range(kmax + 1)]
    no_win = [0] * (kmax + 1)
    class_scatter = [[0] * (kmax + 1) for _ in classes]
    records, record_weights = [], []
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        weight = 1
        for r, p in enumerate(stops):
            weight *= weights[r][p] if weights is not None else 1
        if not weight:
            continue
        cols = [[strips[r][(stops[r] + h) % len(strips[r])] for h in range(rows)] for r in range(reels)]
        k = sum(col.count(scatter) for col in cols) if scatter is not None else 0
        cols = [expand(m, col) for col in cols]  # after the scatters are counted
        total, prog, seen = 0, False, set()
        for line in m.paylines:
            pay, cls, pr = reference_line(m, [cols[r][line[r]] for r in range(reels)])
            total += pay
            prog |= pr and with_progressive
            if cls is not None:
                seen.add(classes[cls])
        p = int(prog)
        count[k][p] += weight
        line_sum[k][p] += weight * total
        line_sq[k][p] += weight * total * total
        if total == 0 and not prog:
            no_win[k] += weight
        for c in seen:
            class_scatter[c][k] += weight
        records.append((total, k, p, frozenset(seen)))
        record_weights.append(weight)
    return BruteStage(sum(record_weights), count, line_sum, line_sq, no_win, class_scatter, records, record_weights)


def check_base_game(m: SlotModel, engine: str):
    """A model without free spins or progressive: the joint figures of the base stage and the
    play's RTP, variance and hit frequency equal the brute force; returns (analysis, brute)."""
    from harness.slot.exact import analyse
    from harness.slot.joint import joint_moments
    from harness.slot.lines import build_line_automaton
    from harness.slot.reelset import base_reelset

    brute = brute_stage(m, m.base_strips, with_progressive=False)
    got = joint_moments(base_reelset(m), build_line_automaton(m, with_progressive=False), m.paylines, engine=engine)
    assert (got.count, got.line_sum, got.line_sq, got.no_line_win, got.class_scatter) == (
        brute.count, brute.line_sum, brute.line_sq, brute.no_line_win, brute.class_scatter)
    a = analyse(m, engine=engine)
    scat = m.symbols[m.scatter].pays
    wins = [m.bet_per_line * t + m.total_bet * award(scat, k) for t, k, _, _ in brute.records]
    n = brute.cycle
    mean = Fraction(sum(wins), n)
    assert a.rtp == mean / m.total_bet
    assert a.variance == Fraction(sum(w * w for w in wins), n) - mean * mean
    assert a.hit_frequency == Fraction(sum(1 for w in wins if w), n)
    return a, brute


def award(table, k: int) -> int:
    best = 0
    for key, v in sorted(table.items()):
        if key <= k:
            best = v
    return best


def feature_value_by_first_step(spin_dist: dict[tuple[int, int], Fraction], n_max: int = 400,
                                sweeps: int = 400) -> tuple[float, float]:
    """(E[V], E[V^2]) for one free spin and its retriggers, in floats, by
    iterating first-step equations over the spins remaining (capped at
    ``n_max``): g(r) = E[W + g(r - 1 + J)], h(r) = E[(W + F(r - 1 + J))^2].

    ``spin_dist[(w, j)]`` is the probability that a free spin wins ``w``
    credits and awards ``j`` spins.  Independent of the closed forms used by
    harness.slot.feature.
    """
    items = [(w, j, float(p)) for (w, j), p in spin_dist.items()]
    g = [0.0] * (n_max + 1)
    h = [0.0] * (n_max + 1)
    for _ in range(sweeps):
        g2 = [0.0] * (n_max + 1)
        h2 = [0.0] * (n_max + 1)
        for r in range(1, n_max + 1):
            eg = eh = 0.0
            for w, j, p in items:
                nxt = min(r - 1 + j, n_max)
                eg += p * (w + g[nxt])
                eh += p * (w * w + 2 * w * g[nxt] + h[nxt])
            g2[r] = eg
            h2[r] = eh
        g, h = g2, h2
    return g[1], h[1]


def five_reel_text(stops: tuple[int, ...], n_lines: int) -> str:
    """A 5-reel, 3-row game with wild, scatter (stackable), free spins with
    retriggers on their own strips, and ``n_lines`` paylines; strips of the
    given lengths, laid out by a fixed arithmetic rule (no randomness)."""
    import itertools as it

    lines = [p for p in it.product((1, 2, 3), repeat=5) if all(abs(a - b) <= 1 for a, b in zip(p, p[1:]))]
    lines.sort(key=lambda p: (sum(abs(a - b) for a, b in zip(p, p[1:])), p))
    assert len(lines) >= n_lines
    symbols = ["A", "K", "Q", "J", "W", "S"]

    def strip(r: int, n: int, shift: int) -> str:
        return " ".join(symbols[(3 * i + r * r + shift + (i * i) // 7) % len(symbols)] for i in range(n))

    base = ",\n  ".join(f'"{strip(r, n, 0)}"' for r, n in enumerate(stops))
    feature = ",\n  ".join(f'"{strip(r, n, 2)}"' for r, n in enumerate(stops))
    paylines = ", ".join(str(list(p)) for p in lines[:n_lines])
    return f"""
name = "five"
[window]
rows = 3
reels = 5
[bet]
per_line = 1
paylines = [{paylines}]
[symbols.A]
pays = {{ 3 = 10, 4 = 40, 5 = 200 }}
[symbols.K]
pays = {{ 2 = 1, 3 = 5, 4 = 20, 5 = 100 }}
[symbols.Q]
pays = {{ 3 = 4, 4 = 10, 5 = 50 }}
[symbols.J]
pays = {{ 3 = 2, 4 = 5, 5 = 25 }}
[symbols.W]
kind = "wild"
substitutes = ["A", "K", "Q"]
pays = {{ 4 = 100, 5 = 1000 }}
[symbols.S]
kind = "scatter"
pays = {{ 3 = 2, 4 = 10, 5 = 50 }}
[reels]
base = [
  {base},
]
feature = [
  {feature},
]
[free_spins]
spins = {{ 3 = 3, 4 = 5 }}
retrigger = {{ 4 = 2 }}
multiplier = 2
"""


def play_figures(dist: dict) -> tuple:
    """(mean, second moment, hit frequency, {outcome: P(paid at least once)}) of a play's outcome
    distribution ``{(credits, outcomes paid): probability}``."""
    mean = sum(p * w for (w, _), p in dist.items())
    second = sum(p * w * w for (w, _), p in dist.items())
    hit = sum(p for (w, _), p in dist.items() if w)
    once: dict = {}
    for (_, seen), p in dist.items():
        for c in seen:
            once[c] = once.get(c, 0) + p
    return mean, second, hit, once
