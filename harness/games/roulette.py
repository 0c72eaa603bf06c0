"""Roulette bets (000 別表第1 第7; 002 ch. 531) on the device registry's wheels.

The wheels (pocket order and colours) are the device tables of
:mod:`rngcore.devices.wheels`; this module never re-types them.  What it
adds is the betting layout: the 3-column grid of 1..36 (row ``r`` holds
3r+1, 3r+2, 3r+3), the zero boxes above it, and the bets of 000 第7
1-3-ハ / 2-3-ハ and 002 § 531.4(e) with the odds of 000 1-5-ロ / 2-5-ロ and
002 § 531.5(a) (identical; 002's are minimums).

A pocket's features are ``pocket`` (its label) and ``colour`` (from the
device table).  Red and black follow the wheel's colours (000 1-3-ハ-(12),
(13); 002 § 531.4(e)(9),(10)), so a colour table from the devices decides
them.  Every bet that does not contain the winning pocket loses, 0 and 00
included (000 1-4-ロ; 002 § 531.5(b)): there is no la partage.
"""
from __future__ import annotations

import dataclasses

from rngcore.devices import WHEELS
from rngcore.devices import wheels as device_wheels
from harness.games.base import CategoricalGame
from harness.games.etable import ETable
from harness.games.categorical import Family
from harness.games.core import BetRule, Where, odds, rows

JP1 = "000 別表第1 第7 1"
JP2 = "000 別表第1 第7 2"
PA = "002 § 531.4(e)"
NUMBERS = tuple(range(1, 37))


def _row(r: int) -> tuple[int, int, int]:
    return (3 * r + 1, 3 * r + 2, 3 * r + 3)


def _wins(label: str, numbers, pays: int) -> BetRule:
    pockets = frozenset(str(n) for n in numbers)
    return BetRule(label, "", rows(("win", Where(pocket=pockets), odds(pays))))


def _family(name: str, source: str, groups, pays: int, note: str = "") -> Family:
    members = tuple(("-".join(str(n) for n in g), _wins("-".join(str(n) for n in g), g, pays)) for g in groups)
    return Family(name, source, members, note)


@dataclasses.dataclass(frozen=True)
class Layout:
    """A roulette variant: the device wheel plus the layout's zero bets.

    ``zero_splits`` / ``trios`` / ``first_four`` / ``five_number`` are the
    number groups that involve 0 or 00; everything on the 1..36 grid is the
    same on every layout.  ``sources`` cites the bet clauses.
    """

    name: str
    wheel: device_wheels.WheelTable
    device: str
    zeros: tuple[str, ...]
    zero_splits: tuple[tuple, ...]
    trios: tuple[tuple, ...]
    first_four: bool
    five_number: bool
    sources: dict
    note: str = ""


def bets(layout: Layout) -> tuple:
    """Every bet of a layout, as data (families of instances where a bet
    type has several positions)."""
    s = layout.sources
    horizontal = [(a, a + 1) for r in range(12) for a in _row(r)[:2]]
    vertical = [(n, n + 3) for n in range(1, 34)]
    corners = [(_row(r)[c], _row(r)[c + 1], _row(r + 1)[c], _row(r + 1)[c + 1]) for r in range(11) for c in range(2)]
    six_lines = [_row(r) + _row(r + 1) for r in range(11)]
    out = [
        _family("straight", s["straight"], [(z,) for z in layout.zeros] + [(n,) for n in NUMBERS], 35),
        _family("split", s["split"], list(layout.zero_splits) + horizontal + vertical, 17,
                note="layout figures are not in the seed; zero splits read from the standard layout"
                if layout.zero_splits else ""),
        _family("street", s["street"], [_row(r) for r in range(12)] + list(layout.trios), 11),
        _family("corner", s["corner"], corners, 8),
    ]
    if layout.first_four:
        out.append(_family("first_four", s["first_four"], [("0", 1, 2, 3)], 8))
    if layout.five_number:
        out.append(_family("five_number", s["five_number"], [("0", "00", 1, 2, 3)], 6))
    out += [
        _family("six_line", s["six_line"], six_lines, 5),
        _family("column", s["column"], [tuple(range(c, 37, 3)) for c in (1, 2, 3)], 2),
        _family("dozen", s["dozen"], [tuple(range(12 * d + 1, 12 * d + 13)) for d in range(3)], 2),
        BetRule("red", s["red"], rows(("win", Where(colour=device_wheels.RED), odds(1))),
                note=f"colours from the device table: {layout.wheel.citation}"),
        BetRule("black", s["black"], rows(("win", Where(colour=device_wheels.BLACK), odds(1))),
                note=f"colours from the device table: {layout.wheel.citation}"),
        dataclasses.replace(_wins("odd", range(1, 37, 2), 1), source=s["odd"]),
        dataclasses.replace(_wins("even", range(2, 37, 2), 1), source=s["even"]),
        dataclasses.replace(_wins("low", range(1, 19), 1), source=s["low"]),
        dataclasses.replace(_wins("high", range(19, 37), 1), source=s["high"]),
    ]
    return tuple(out)


def pocket_features(layout: Layout) -> dict[str, dict]:
    """Features of every pocket that can be an outcome (void pockets excluded)."""
    wheel = layout.wheel
    return {
        label: {"pocket": label, "colour": wheel.colours[i]}
        for i, label in enumerate(wheel.sections)
        if i != wheel.void_section
    }


def _sources(jp: str, pa_only: bool = False) -> dict:
    """Citations per bet: 000 clause (1-3-ハ / 2-3-ハ item; odds 1-5-ロ / 2-5-ロ) and 002."""
    def both(jp_item: str, pa_item: str) -> str:
        jp_part = "" if pa_only else f"{jp} {jp_item}; "
        return f"{jp_part}{PA}({pa_item}), § 531.5(a)"

    six = "1-3-ハ-" if jp == JP1 else "2-3-ハ-(6) applying 1-3-ハ-"
    return {
        "straight": both("3-ハ-(1), 5-ロ", "1"),
        "split": both("3-ハ-(2), 5-ロ", "2"),
        "street": both("3-ハ-(3), 5-ロ", "3"),
        "corner": both("3-ハ-(4), 5-ロ", "4"),
        "first_four": f"{JP1} 3-ハ-(4)-(二), 5-ロ-(4)",
        "five_number": f"{'' if pa_only else JP2 + ' 3-ハ-(5), 5-ロ-(5); '}{PA}(5), § 531.5(a)",
        "six_line": both(f"{six}(5)", "6"),
        "column": both(f"{six}(7)", "7"),
        "dozen": both(f"{six}(6)", "8"),
        "red": both(f"{six}(12)", "9"),
        "black": both(f"{six}(13)", "10"),
        "odd": both(f"{six}(11)", "11"),
        "even": both(f"{six}(10)", "12"),
        "low": both(f"{six}(8)", "13"),
        "high": both(f"{six}(9)", "14"),
    }


_DOUBLE_SPLITS = (("0", 1), ("0", 2), ("00", 2), ("00", 3), ("0", "00"))
_JP_DOUBLE_TRIOS = (("0", 1, 2), ("00", 2, 3))

LAYOUTS: dict[str, dict[str, Layout]] = {
    "roulette-single": {
        "standard": Layout(
            "standard", WHEELS["roulette-single"], "roulette-single", ("0",),
            zero_splits=(("0", 1), ("0", 2), ("0", 3)),
            trios=(("0", 1, 2), ("0", 2, 3)), first_four=True, five_number=False,
            sources=_sources(JP1),
            note="first four (0-1-2-3) is a 000 bet; 002 lists no single-zero first four",
        ),
    },
    "roulette-double": {
        "standard": Layout(
            "standard", WHEELS["roulette-double"], "roulette-double", ("0", "00"),
            zero_splits=_DOUBLE_SPLITS, trios=_JP_DOUBLE_TRIOS + (("0", 2, "00"),),
            first_four=False, five_number=True, sources=_sources(JP2),
            note="layout A order, standard American colours (2 black); the 0-2-00 trio and the "
                 "0-00 split are 002 bets (§ 531.4(e)(3)(i), (2))",
        ),
        "jp-literal": Layout(
            "jp-literal", device_wheels.ROULETTE_DOUBLE_JP_LITERAL, "roulette-double", ("0", "00"),
            zero_splits=_DOUBLE_SPLITS, trios=_JP_DOUBLE_TRIOS, first_four=False, five_number=True,
            sources=_sources(JP2),
            note="000 第7 2-1-ロ-(2) read literally: 28 black and 2 red, so red = {1..10, 29..36}",
        ),
        "jp-layout-b": Layout(
            "jp-layout-b", device_wheels.roulette_double_jp_b(), "roulette-double", ("0", "00"),
            zero_splits=_DOUBLE_SPLITS, trios=_JP_DOUBLE_TRIOS, first_four=False, five_number=True,
            sources=_sources(JP2),
            note="000 第7 2-1-ロ-(3),(4): single-zero order with 00 after 26 (operator's choice)",
        ),
        "as-single-zero": Layout(
            "as-single-zero", WHEELS["roulette-double-as-single"], "roulette-double-as-single", ("0",),
            zero_splits=(("0", 1), ("0", 2)), trios=(("0", 1, 2),), first_four=False, five_number=False,
            sources=_sources(JP2, pa_only=True),
            note="002 § 531.1(d): 00 voids the spin and the wheel is re-spun; bets covering 00 "
                 "(00 straight, 0-00 and 00 splits, 00 trios, first five) are unavailable",
        ),
    },
}


class RouletteGame(CategoricalGame):
    """A roulette wheel's bets; the variants are its layouts (:data:`LAYOUTS`)."""

    devices = "the wheel of each layout"

    def __init__(self, name: str, summary: str, rules: str, variants_help: str = "", etable: ETable | None = None):
        self.name = name
        self.etable = etable
        self.summary = summary
        self.rules = rules
        self.variants_help = variants_help
        self.layouts = LAYOUTS[name]
        self.variants = tuple(self.layouts)

    def bets(self, variant):
        return bets(self.layouts[variant])

    def outcome_features(self, variant):
        layout = self.layouts[variant]
        pockets = pocket_features(layout)
        return [pockets.get(label) if i != layout.wheel.void_section else None
                for i, label in enumerate(layout.wheel.sections)]

    def device(self, variant):
        wheel = self.layouts[variant].wheel
        return self.layouts[variant].device, len(wheel.sections), 1, wheel.void_section

    def parameters(self, variant):
        wheel = self.layouts[variant].wheel
        return {"wheel": wheel.citation, "pockets": len(wheel.sections) - (wheel.void_section is not None)}

    def note(self, variant):
        return self.layouts[variant].note

    def outcome_label(self, variant, index, features):
        return f"{features['pocket']} {features['colour']}"


GAMES = (
    RouletteGame("roulette-single", "single-zero roulette: inside and outside bets, first four", f"{JP1}; {PA}",
                 etable=ETable("000 別表第1 第7 1-8-ハ", ("standard",), None,
                               "000 別表第1 第7 1-8 (L2791): the bets of 1-3-ハ-(1)-(13) only",
                               "1-3-ニ is finished (the ball spun, betting closed)", "000 別表第1 第7 1-9-イ")),
    RouletteGame("roulette-double", "double-zero roulette: inside and outside bets, five-number bet", f"{JP2}; {PA}",
                 "the layout: American colours, 000's colours read literally, 000's layout B, "
                 "00 voids the spin",
                 etable=ETable("000 別表第1 第7 2-8 (applying 1-8)", ("jp-literal", "jp-layout-b"), None,
                               "000 別表第1 第7 2-8: the bets of 2-3-ハ-(1)-(6) only",
                               "2-3-ニ is finished (the ball spun, betting closed)", "000 別表第1 第7 2-9")),
)
