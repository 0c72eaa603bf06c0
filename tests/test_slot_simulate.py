"""Simulation through rngcore against the exact figures, and the kernel's
draws against a reference replay of the same keystream."""
from __future__ import annotations

import dataclasses
import pathlib

import numpy as np
import pytest

from harness.slot.exact import analyse
from harness.slot.model import load_model
from harness.slot.simulate import simulate, simulate_numpy
import slot_support as sup
import ways_reference

rngcore = pytest.importorskip("rngcore")
from harness.slot.native import lib as native_lib  # noqa: E402  (the kernels need rngcore's extension)

SEED = bytes(range(32))
EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
TOTALS = ("plays", "hits", "line_win", "scatter_win", "feature_win", "features", "free_spins",
          "progressive_hits", "win_sq", "max_win")


def totals(result):
    return tuple(getattr(result, f) for f in TOTALS)


@pytest.mark.parametrize("name,spins", [("small", 400_000), ("feature", 400_000), ("compliant", 1_000_000),
                                        ("slot_ways243", 1_000_000), ("slot_two_scatters", 1_000_000)])
def test_exact_values_lie_in_the_simulated_999_intervals(name, spins):
    m = load_model(EXAMPLES / f"{name}.toml") if name.startswith("slot_") else load_model(
        EXAMPLES / "slot_compliant.toml") if name == "compliant" else sup.model(
        {"small": sup.SMALL, "feature": sup.FEATURE}[name])
    a = analyse(m)
    result = simulate(m, spins, rngcore.Generator(SEED, 3))
    assert result.plays == spins and not result.interrupted
    lo, hi = result.rtp_interval()
    assert lo <= a.rtp <= hi, (float(a.rtp), lo, hi)
    hlo, hhi = result.hit_interval()
    assert hlo <= a.hit_frequency <= hhi, (float(a.hit_frequency), hlo, hhi)
    assert result.agrees(a) == (True, True)
    if m.free_spins is not None:
        assert result.features > 0 and result.free_spins >= result.features


@pytest.mark.parametrize("name", ["feature", "slot_two_scatters"])
def test_numpy_player_agrees_with_exact_and_with_rngcore_integers(name):
    m = load_model(EXAMPLES / f"{name}.toml") if name.startswith("slot_") else sup.model(sup.FEATURE)
    a = analyse(m)
    for rng in (np.random.Generator(np.random.PCG64(12345)), rngcore.Generator(SEED, 4)):
        result = simulate_numpy(m, 200_000, rng)
        assert result.agrees(a) == (True, True)


def ways_credits(m, cols, *, with_prog: bool = True) -> tuple[int, bool]:
    """(line pay in bets per way, progressive shown) of a ways window, every way listed by the
    rule (tests/ways_reference.py)."""
    pays = sum(ways_reference.symbol_pays(m, cols, both_ways=m.both_ways).values())
    return pays, with_prog and ways_reference.progressive_won(m, cols)


def _replay(m, plays, generator):
    """The kernel's contract, replayed in Python: stops drawn one per reel with
    integers(0, L) (the same bounded-integer primitive), reels in order, each
    paid spin then its free spins; lines (ways) paid by the rule itself."""
    fsp = m.free_spins
    scat_pay = m.symbols[m.scatter].pays if m.scatter is not None else {}
    reset = m.progressive.reset if m.progressive else 0
    out = dict.fromkeys(TOTALS, 0)

    def spin(strips, with_prog):
        cols = []
        for strip in strips:
            stop = generator.integers(0, len(strip))
            cols.append([strip[(stop + h) % len(strip)] for h in range(m.rows)])
        k = sum(col.count(m.scatter) for col in cols) if m.scatter is not None else 0
        if m.ways:
            total, prog = ways_credits(m, cols, with_prog=with_prog)
            return total, k, prog
        total, prog = 0, False
        for line in m.paylines:
            pay, _, p = sup.reference_line(m, [cols[r][line[r]] for r in range(m.reels)])
            total += pay
            prog |= p and with_prog
        return total, k, prog

    for _ in range(plays):
        total, k, prog = spin(m.base_strips, True)
        line_win = total * m.bet_per_line
        scatter_win = sup.award(scat_pay, k) * m.total_bet
        win = line_win + scatter_win
        hit = win > 0 or prog
        remaining = sup.award(fsp.spins, k) if fsp else 0
        if remaining:
            hit = True
            out["features"] += 1
            fwin = 0
            while remaining:
                remaining -= 1
                ft, fk, _ = spin(m.feature_strips, False)
                fwin += fsp.multiplier * (ft * m.bet_per_line + sup.award(scat_pay, fk) * m.total_bet)
                remaining += sup.award(fsp.retrigger, fk)
                out["free_spins"] += 1
            out["feature_win"] += fwin
            win += fwin
        if prog:
            out["progressive_hits"] += 1
            win += reset
        out["plays"] += 1
        out["hits"] += hit
        out["line_win"] += line_win
        out["scatter_win"] += scatter_win
        out["win_sq"] += win * win
        out["max_win"] = max(out["max_win"], win)
    return tuple(out[f] for f in TOTALS)


@pytest.mark.parametrize("name", ["feature", "small-uneven"])
def test_kernel_draws_and_pays_exactly_like_the_reference_replay(name):
    """Bulk-drawn stops (equal strip lengths) and one-call-per-stop draws
    (unequal lengths) both consume the keystream exactly as the replay does."""
    if name == "feature":
        m = sup.model(sup.FEATURE)
    else:
        m = sup.model(sup.SMALL.replace('"A K Q W S A K Q A X"', '"A K Q W S A K Q A X K Q"'))
        assert len({len(s) for s in m.base_strips}) == 2
    plays = 3000
    got = simulate(m, plays, rngcore.Generator(SEED, 9))
    assert totals(got) == _replay(m, plays, rngcore.Generator(SEED, 9))


def test_chunks_do_not_change_the_run():
    m = sup.model(sup.FEATURE)
    one = simulate(m, 50_000, rngcore.Generator(SEED, 1))
    chunked = simulate(m, 50_000, rngcore.Generator(SEED, 1), chunk=777)
    assert totals(one) == totals(chunked)


def test_ctrl_c_keeps_the_completed_chunks():
    m = sup.model(sup.FEATURE)

    def stop(done, total):
        if done >= 2000:
            raise KeyboardInterrupt

    result = simulate(m, 100_000, rngcore.Generator(SEED, 2), chunk=1000, progress=stop)
    assert result.interrupted and result.plays == 2000


def test_twenty_line_variant_of_the_example_simulates():
    m = load_model(EXAMPLES / "slot_compliant.toml")
    m20 = dataclasses.replace(m, paylines=m.paylines[:20])
    result = simulate(m20, 100_000, rngcore.Generator(SEED, 5))
    assert result.plays == 100_000 and 0.5 < float(result.rtp()) < 1.5


def test_large_wins_are_exact_up_to_the_64_bit_range():
    # Bet per line 2**44, beyond the model's limit (set directly): plays win
    # up to ~2**55 credits and the sum of squares needs more than 64 bits;
    # every total still equals the Python replay's (unbounded) integers.
    m = dataclasses.replace(sup.model(sup.FEATURE), bet_per_line=2**44)
    plays = 3000
    got = simulate(m, plays, rngcore.Generator(SEED, 9))
    assert totals(got) == _replay(m, plays, rngcore.Generator(SEED, 9))
    assert got.win_sq >= 2**100 and got.line_win >= 2**50


@pytest.mark.parametrize("bet_per_line,drawn", [(2**61, False), ((2**63 - 1) // 300, True)],
                         ids=["one spin past int64", "sums past int64"])
def test_kernel_refuses_to_wrap_past_int64(bet_per_line, drawn):
    # FEATURE's largest spin win is 270 x bet per line (3 lines x 25 + 5 x total
    # bet of 3, times the multiplier 3): 2**61 cannot be played at all (refused
    # before any draw); (2**63 - 1) // 300 can, but a thousand plays' totals
    # pass 2**63.  Either way an error, never wrapped totals (once: a
    # simulated RTP of 0.001 against an exact 0.608).
    from harness.slot.errors import ModelError

    m = dataclasses.replace(sup.model(sup.FEATURE), bet_per_line=bet_per_line)
    generator = rngcore.Generator(SEED, 9)
    with pytest.raises(ModelError, match=r"free_spins\.retrigger: simulation stopped within plays 1 to 1,000: "
                                         r"a play's win, or a total over one chunk of plays, would pass 2\*\*63 - 1"):
        simulate(m, 100_000, generator, chunk=1000)
    assert (generator.position > 0) == drawn


# --- ways games: the ways rule's readers (csrc/kernels/slot_ways.h) ----------------------------


def _as_ways(text: str, rows: int, reels: int) -> str:
    """The payline model ``text`` with its window's ways instead of its paylines."""
    import re

    bet = re.search(r"\[bet\]\nper_line = (\d+)\npaylines = \[.*\]\n", text)
    return text.replace(bet.group(0), f"[bet]\nways = {rows ** reels}\nper_way = {bet.group(1)}\n")


def _without_feature_strips(text: str) -> str:
    import re

    return re.sub(r"feature = \[\n(  \".*\",\n)+\]\n", "", text)


def _long_strips(text: str, *reels: int) -> str:
    """``text`` with the strips of ``reels`` (0-based) repeated to 264 stops (each strip of 8)."""
    import re

    strips = re.findall(r'^  "(.*)",$', text, re.M)
    for r in reels:
        text = text.replace(f'"{strips[r]}"', '"' + " ".join([strips[r]] * 33) + '"', 1)
    return text


def _mult_ways(mode: str) -> str:
    from test_slot_multipliers import texts

    return (texts()[mode].replace('bet = { per_line = 1, paylines = [[1, 1, 1, 1], [2, 2, 2, 2], [1, 2, 1, 2], '
                                  '[2, 1, 2, 1], [1, 1, 2, 2], [2, 2, 1, 1]] }', "bet = { ways = 16, per_way = 1 }"))


WAYS_MODELS = {
    "paying wilds, progressive": lambda: _as_ways(sup.SMALL, 3, 3),
    "unequal strips (one draw per stop)": lambda: _as_ways(
        sup.SMALL.replace('"A K Q W S A K Q A X"', '"A K Q W S A K Q A X K Q"'), 3, 3),
    "free spins, retriggers, multiplier": lambda: _as_ways(sup.FEATURE, 3, 3),
    "free spins on the base strips (shared tables)": lambda: _as_ways(_without_feature_strips(sup.FEATURE), 3, 3),
    "four rows": lambda: _as_ways(sup.TALL, 4, 4),
    "multiplier wilds, multiply": lambda: _mult_ways("multiply"),
    "multiplier wilds, add": lambda: _mult_ways("add"),
    # multipliers that add with a gap in the pays (a run of 3 pays the 2) and a paying wild's gap
    "multiplier wilds, add, gaps in the pays": lambda: _mult_ways("add").replace(
        "A = { pays = { 2 = 1, 3 = 5, 4 = 20 } }", "A = { pays = { 2 = 1, 4 = 20 } }").replace(
        "pays = { 3 = 30, 4 = 100 }", "pays = { 2 = 30, 4 = 100 }"),
    # several multiplier wilds a reel on five reels of three rows (their multipliers summed per way)
    "multiplier wilds, add, five reels": lambda: ADDED,
    "two reels (no pair table)": lambda: sup.TWO_BY_TWO.replace("bet = { per_line = 1, paylines = [[1, 1], [2, 2]] }",
                                                                "bet = { ways = 4, per_way = 1 }"),
    # pair entries past 16 bits (20,000 x 2 x 3 ways over the last two reels): the 32-bit tables
    "pays past 16-bit pair entries": lambda: _as_ways(
        sup.TALL.replace("pays = { 2 = 1, 3 = 4, 4 = 20 }", "pays = { 2 = 1, 3 = 4, 4 = 20000 }"), 4, 4),
    # pair tables past their size limit (4 MB: 256 stops a reel here), strips of 264 stops: the end pair
    # only (reels 1, 2 short), the start pair only (reels 3, 4 short), neither
    "no start pair": lambda: _as_ways(_long_strips(sup.TALL, 0, 1), 4, 4),
    "no end pair": lambda: _as_ways(_long_strips(sup.TALL, 2, 3), 4, 4),
    "no pair table": lambda: _as_ways(_long_strips(sup.TALL, 0, 1, 2, 3), 4, 4),
    # a gap in the pays (a run of 3 pays the 2): two blocks of counts, two lanes
    "a count without a pay": lambda: _as_ways(
        sup.TALL.replace("pays = { 4 = 100 }", "pays = { 2 = 3, 4 = 100 }"), 4, 4),
    # runs longer than the last listed count multiply no further
    "runs past the last count": lambda: _as_ways(
        sup.TALL.replace("pays = { 4 = 100 }", "pays = { 2 = 3, 3 = 7 }"), 4, 4),
    "a paying wild, ways of wilds only": lambda: PRODUCT,
    # a spin may pay past 2^32 (every window pays A 31 ways x 250,000,000): the walk in 64-bit
    # lanes, not the 32-bit one the other games take
    "pays past 32 bits a spin": lambda: PRODUCT.replace("5 = 100", "5 = 250000000"),
    # seven paying symbols: no unused lanes for the start pair's pay, which gets its own table
    "seven paying symbols": lambda: PRODUCT.replace('[reels]', 'B = { pays = { 2 = 1 } }\nC = { pays = { 3 = 2 } }\n'
                                                    'D = { pays = { 4 = 9 } }\nE = { pays = { 2 = 1, 3 = 4 } }\n[reels]')
    .replace('"A K W"', '"A K W B C D E"'),
    # nine paying symbols: 16 lanes a half (two vectors of each kind; on AVX-512 the wild-only ways
    # in a register of their own)
    "nine paying symbols": lambda: PRODUCT.replace('[reels]', ''.join(
        f'{x} = {{ pays = {{ {n} = {n + i} }} }}\n' for i, (x, n) in enumerate(zip("BCDEFG", (2, 3, 4, 2, 3, 5))))
        + '[reels]').replace('"A K W"', '"A K W B C D E F G"'),
}

# Every reader, and the tables on each code path this CPU has.
IMPLS = [("portable", native_lib.KERN_SLOT_IMPL_PORTABLE)] + [
    (name, getattr(native_lib, f"KERN_SLOT_IMPL_{name.upper()}")) for name in ("avx2", "avx512")
    if native_lib.kern_slot_cpu_has(getattr(native_lib, f"KERN_SLOT_IMPL_{name.upper()}"))]
READERS = [("cells", None)] + [("fastest", impl) for impl in IMPLS]


@pytest.fixture
def code_path():
    """Run with the tables reader's code path ``impl`` (a name, number pair), the chosen one after."""
    before = native_lib.kern_slot_get_impl()

    def use(impl):
        if impl is not None:
            assert native_lib.kern_slot_set_impl(impl[1]) == 0

    yield use
    assert native_lib.kern_slot_set_impl(before) == 0


@pytest.mark.parametrize("name", list(WAYS_MODELS))
def test_ways_readers_pay_like_the_reference_replay(name, code_path):
    """Every reader (the tables on each code path, the cells) gives the totals of the Python
    replay, which pays every way listed by the rule itself."""
    m = sup.model(WAYS_MODELS[name]())
    assert m.ways
    plays = 150 if m.rows == 4 else 500
    expect = _replay(m, plays, rngcore.Generator(SEED, 11))
    for reader, impl in READERS:
        code_path(impl)
        assert totals(simulate(m, plays, rngcore.Generator(SEED, 11), reader=reader)) == expect, (reader, impl)
    assert expect[TOTALS.index("line_win")] > 0


# multipliers that add: X2 and X3 on reels 2 to 4, X5 (paying 2 of its own) on reels 1, 2 and 5, several
# a window; a gap in K's pays
ADDED = """
name = "added"
wild_multipliers = "add"
window = { rows = 3, reels = 5 }
bet = { ways = 243, per_way = 1 }
[symbols]
A = { pays = { 3 = 5, 4 = 20, 5 = 100 } }
K = { pays = { 2 = 1, 5 = 40 } }
Q = { pays = { 4 = 6 } }
X2 = { kind = "wild", multiplier = 2 }
X3 = { kind = "wild", multiplier = 3, substitutes = ["A", "Q"] }
X5 = { kind = "wild", multiplier = 5, pays = { 2 = 50 } }
S = { kind = "scatter", pays = { 3 = 2 } }
[reels]
base = ["A X5 K Q S A K", "K X2 A X5 Q X3 K A", "X3 A X2 K Q X2 A", "Q X2 A K X3 S", "A X5 K Q X5 A"]
"""

# a paying wild, and ways of wilds only (not paid as A or K)
PRODUCT = """
name = "product"
window = { rows = 3, reels = 5 }
bet = { ways = 243, per_way = 1 }
[symbols]
A = { pays = { 3 = 5, 4 = 20, 5 = 100 } }
K = { pays = { 3 = 1 } }
W = { kind = "wild", pays = { 3 = 7 } }
[reels]
base = ["A K W", "A K W", "A K W", "A K W", "A K W"]
"""


def _spin_by_spin(model, plays: int, reader: str) -> list[tuple]:
    """Each play's figures, one kernel call per play on one game and generator."""
    from harness.slot import native
    from harness.slot.limits import MAX_FREE_SPINS
    from rngcore.engine import locked_call

    game, generator, out = native.SimGame(model, MAX_FREE_SPINS, reader=reader), rngcore.Generator(SEED, 23), []
    for _ in range(plays):
        t = native.ffi.new("kern_slot_tally *")
        locked_call(generator, native.lib.kern_slot_simulate, game.ptr, 1, t, what="slot simulation")
        out.append((t.line_win, t.scatter_win, t.feature_win, t.free_spins, t.progressive_hits, t.hits))
    return out


@pytest.mark.parametrize("name", ["paying wilds, progressive", "free spins, retriggers, multiplier",
                                  "pays past 32 bits a spin"])
def test_every_code_path_of_the_tables_pays_each_spin_as_the_portable_one(name, code_path):
    m = sup.model(WAYS_MODELS[name]())
    code_path(IMPLS[0])
    portable = _spin_by_spin(m, 1500, "fastest")
    assert portable == _spin_by_spin(m, 1500, "cells")
    assert any(p[4] for p in portable) or not m.progressive, "no progressive shown: the flag is not exercised"
    for impl in IMPLS[1:]:
        code_path(impl)
        assert _spin_by_spin(m, 1500, "fastest") == portable, impl


def test_forcing_the_portable_path_reads_ways_through_the_portable_tables():
    """RNGCERT_FORCE_PORTABLE=1: the tables reader on its portable path."""
    import os
    import subprocess
    import sys

    code = ("from harness.slot import native; from harness.slot.model import load_model; "
            "from harness.slot.limits import MAX_FREE_SPINS; from rngcore.engine import locked_call; import rngcore; "
            f"g = native.SimGame(load_model({str(EXAMPLES / 'slot_ways243.toml')!r}), MAX_FREE_SPINS); "
            "t = native.ffi.new('kern_slot_tally *'); "
            "locked_call(rngcore.Generator(bytes(32)), native.lib.kern_slot_simulate, g.ptr, 5, t, what='x'); "
            "print(native.lib.kern_slot_get_impl(), t.path_reader)")
    env = {**os.environ, "RNGCERT_FORCE_PORTABLE": "1"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(native_lib.KERN_SLOT_IMPL_PORTABLE), str(native_lib.KERN_SLOT_PAID_TABLES)]


@pytest.mark.parametrize("example,mode", [("slot_ways243.toml", None), ("slot_two_scatters.toml", None),
                                          ("slot_two_scatters.toml", "add")])
def test_ways_examples_simulate_the_same_on_every_reader_and_code_path(example, mode, code_path):
    """200,000 plays of each ways example: the tables on every code path give the cells reader's
    totals (the cells reader is the replay's, above).  The two-scatter game's multipliers adding
    take 20 lanes a spin (24 with padding: on AVX-512 a register and a half)."""
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    if mode is not None:
        text = text.replace("\n[window]\n", f'\nwild_multipliers = "{mode}"\n[window]\n', 1)
    m = sup.model(text)
    assert m.wild_multipliers == (mode or "multiply")
    expect = totals(simulate(m, 200_000, rngcore.Generator(SEED, 19), reader="cells"))
    for impl in IMPLS:
        code_path(impl)
        assert totals(simulate(m, 200_000, rngcore.Generator(SEED, 19))) == expect, impl


@pytest.mark.parametrize("text,paid", [(_as_ways(sup.FEATURE, 3, 3), "TABLES"), (_mult_ways("add"), "TABLES"),
                                       (sup.FEATURE, "LINES")],
                         ids=["ways game", "ways, multipliers add", "payline game"])
def test_the_tables_read_every_ways_game_they_can(text, paid):
    from harness.slot import native
    from harness.slot.limits import MAX_FREE_SPINS
    from rngcore.engine import locked_call

    lib = native.lib
    m = sup.model(text)
    for reader in native.READERS:
        game = native.SimGame(m, MAX_FREE_SPINS, reader=reader)
        tally = native.ffi.new("kern_slot_tally *")
        locked_call(rngcore.Generator(SEED, 1), native.lib.kern_slot_simulate, game.ptr, 10, tally,
                    what="slot simulation")
        expect = paid if reader == "fastest" or paid == "LINES" else "CELLS"
        assert tally.plays == 10 and tally.path_reader == getattr(lib, f"KERN_SLOT_PAID_{expect}"), reader


@pytest.mark.parametrize("name", ["paying wilds, progressive", "multiplier wilds, multiply",
                                  "multiplier wilds, add", "runs past the last count"])
def test_the_numpy_player_pays_ways_like_the_reference(name):
    """The numpy player's ways stage on fixed draws (per reel, every spin's stop) against the
    reference replay of each window: line pay and progressive, spin by spin."""
    from harness.slot.reelset import base_reelset
    from harness.slot.simulate import _numpy_stage

    m = sup.model(WAYS_MODELS[name]())
    spins = 400
    lines, _, prog = _numpy_stage(m, base_reelset(m), with_progressive=True).spin(spins, np.random.Generator(
        np.random.PCG64(7)))
    draws = np.random.Generator(np.random.PCG64(7))
    stops = [draws.integers(0, len(strip), size=spins) for strip in m.base_strips]
    expect = [ways_credits(m, [[strip[(int(stops[r][i]) + h) % len(strip)] for h in range(m.rows)]
                               for r, strip in enumerate(m.base_strips)]) for i in range(spins)]
    assert list(zip(lines.tolist(), prog.tolist())) == expect
    assert any(e[0] for e in expect)
