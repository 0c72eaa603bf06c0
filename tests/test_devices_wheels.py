"""Wheel tables against the seeds, entry by entry.

The expected sequences below are typed from the rules text (rules/roulette.md
§1, rules/wheels.md §1.2 and §2.1, themselves checked against the seeds), not
copied from the implementation; a second set of tests parses the original
seed files directly.
"""
from __future__ import annotations

import pathlib
import re
from collections import Counter
from fractions import Fraction

import pytest

from rngcore.devices import WHEELS, device_spec, wheels

SEEDS = pathlib.Path("/work/shared/seeds")

# 000 第7 1-1-ロ-(1); 002 § 531.1(b): clockwise from 0.
SINGLE = "0 32 15 19 4 21 2 25 17 34 6 27 13 36 11 30 8 23 10 5 24 16 33 1 20 14 31 9 22 18 29 7 28 12 35 3 26".split()
# 000 第7 2-1-ロ-(1); 002 § 531.1(c): clockwise from 0.
DOUBLE = ("0 28 9 26 30 11 7 20 32 17 5 22 34 15 3 24 36 13 1 00 27 10 25 29 12 8 19 31 18 6 21 33 16 4 23 35 14 2"
          .split())
# 002 § 533.1(b): clockwise from the joker.
BIG_SIX = ("joker $1 $2 $1 $5 $2 $1 $10 $1 $5 $1 $2 $1 $20 $1 $2 $1 $5 $2 $1 $10 $1 $2 $5 $1 $2 $1 flag "
           "$2 $5 $2 $1 $2 $1 $10 $1 $5 $1 $2 $1 $20 $1 $2 $1 $5 $2 $1 $10 $1 $2 $5 $1 $2 $1").split()
# 000 第8 1-2: clockwise from the seventh symbol (digits = symbol numbers).
MONEY = "7121312143121" "5121312131421" "6121312142131" "5121213141231"
STANDARD_RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}


def test_money_wheel_digest_string():
    # rules/wheels.md §2.1 table, rows of 13, position 1 = S7.
    rows = ["7 1 2 1 3 1 2 1 4 3 1 2 1", "5 1 2 1 3 1 2 1 3 1 4 2 1",
            "6 1 2 1 3 1 2 1 4 2 1 3 1", "5 1 2 1 2 1 3 1 4 1 2 3 1"]
    typed = [f"S{d}" for row in rows for d in row.split()]
    assert len(typed) == 52 and "".join(d for row in rows for d in row.split()) == MONEY
    assert wheels.MONEY_WHEEL.sections == tuple(typed)


def test_single_zero_order_and_colours():
    table = wheels.ROULETTE_SINGLE
    assert list(table.sections) == SINGLE
    assert sorted(SINGLE, key=lambda p: int(p)) == [str(n) for n in range(37)]
    colours = dict(zip(table.sections, table.colours))
    assert colours["0"] == "green"
    assert {int(p) for p, c in colours.items() if c == "red"} == STANDARD_RED
    # 000 1-1-ロ-(2): from 32 to 26 red and black alternate, 32 red.
    ring = table.colours[1:]
    assert ring[0] == "red" and all(a != b for a, b in zip(ring, ring[1:]))


def test_double_zero_order_and_both_colour_readings():
    assert list(wheels.ROULETTE_DOUBLE.sections) == DOUBLE
    assert list(wheels.ROULETTE_DOUBLE_JP_LITERAL.sections) == DOUBLE
    standard = dict(zip(DOUBLE, wheels.ROULETTE_DOUBLE.colours))
    literal = dict(zip(DOUBLE, wheels.ROULETTE_DOUBLE_JP_LITERAL.colours))
    assert standard["0"] == standard["00"] == literal["0"] == literal["00"] == "green"
    assert {int(p) for p, c in standard.items() if c == "red"} == STANDARD_RED
    # 000 2-1-ロ-(2) literally: 28 black, 2 red, alternating along 28..1 and 27..2.
    assert literal["28"] == "black" and literal["2"] == "red"
    assert {int(p) for p, c in literal.items() if c == "red"} == set(range(1, 11)) | set(range(29, 37))
    for arc in (DOUBLE[1:19], DOUBLE[20:]):
        assert all(literal[a] != literal[b] for a, b in zip(arc, arc[1:]))
    assert standard["28"] == "black" and standard["2"] == "black"  # the standard wheel


def test_jp_layout_b_inserts_double_zero():
    table = wheels.roulette_double_jp_b()
    assert list(table.sections) == SINGLE + ["00"]
    table = wheels.roulette_double_jp_b(after="32")
    assert list(table.sections[:3]) == ["0", "32", "00"]
    with pytest.raises(ValueError, match="single-zero wheel"):
        wheels.roulette_double_jp_b(after="00")


def test_big_six_order_and_counts():
    assert list(wheels.BIG_SIX.sections) == BIG_SIX
    assert Counter(BIG_SIX) == {"$1": 23, "$2": 15, "$5": 8, "$10": 4, "$20": 2, "flag": 1, "joker": 1}
    spec = device_spec("big-six")
    assert spec.probabilities[spec.label_index("$1")] == Fraction(23, 54)
    assert spec.probabilities[spec.label_index("joker")] == Fraction(1, 54)


def test_money_wheel_counts():
    counts = Counter(wheels.MONEY_WHEEL.sections)
    assert counts == {"S1": 24, "S2": 12, "S3": 8, "S4": 4, "S5": 2, "S6": 1, "S7": 1}
    spec = device_spec("money-wheel")
    assert spec.probabilities == tuple(Fraction(c, 52) for c in (24, 12, 8, 4, 2, 1, 1))


def test_double_as_single_voids_00():
    table = wheels.ROULETTE_DOUBLE_AS_SINGLE
    assert table.sections[table.void_section] == "00"
    spec = device_spec("roulette-double-as-single")
    assert "00" not in spec.labels and len(spec.labels) == 37
    assert set(spec.probabilities) == {Fraction(1, 37)}


def test_every_wheel_spec_is_exact():
    for name, table in WHEELS.items():
        spec = device_spec(name)
        assert spec.kind == "categorical" and spec.width == 1
        assert sum(spec.probabilities) == 1
        assert spec.labels == table.symbols


# -- straight from the original seed files ------------------------------------------


def _seed_line(tag: str, needle: str) -> str:
    path = next(SEEDS.glob(f"{tag}_*.txt"))
    for line in path.read_text(encoding="utf-8").splitlines():
        if needle in line:
            return line
    raise AssertionError(f"{needle!r} not found in {path}")


@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed documents not present")
def test_roulette_orders_match_seed_000_and_002():
    jp_single = _seed_line("000", "（1） 右回りに、0、32、")
    numbers = re.findall(r"\d+", jp_single.split("右回りに、")[1])
    assert numbers == SINGLE
    jp_double = _seed_line("000", "（1） 右回りに、0、28、")
    assert re.findall(r"\d+", jp_double.split("右回りに、")[1]) == DOUBLE
    pa_double = _seed_line("002", "The numbers must be arranged clockwise around the wheel in the following order: 0, 28")
    assert re.findall(r"\d+", pa_double.split("following order:")[1])[:38] == DOUBLE


@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed documents not present")
def test_big_six_and_money_wheel_match_seeds():
    pa = _seed_line("002", "arranged clockwise around the rim of the wheel in the following order")
    body = pa.split("following order: ")[1].rstrip(".")
    tokens = ["flag" if t == "flag or logo" else t for t in re.split(r", | and ", body)]
    assert tokens == BIG_SIX
    jp = _seed_line("000", "第7シンボル、第1シンボル")
    body = re.sub(r"（以下[^）]*）", "", jp.split("に対して")[1].split("の順に")[0])
    symbol = {"①": "1", "②": "2", "③": "3", "④": "4", "⑤": "5"}
    digits = []
    for token in re.split(r"、|及び", body):
        token = token.strip()
        digits.append(symbol.get(token) or re.fullmatch(r"第(\d)シンボル", token).group(1))
    assert "".join(digits) == MONEY
    assert tuple(f"S{d}" for d in digits) == wheels.MONEY_WHEEL.sections
