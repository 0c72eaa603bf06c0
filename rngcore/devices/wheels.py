"""Wheel tables, entry by entry from the seeds: roulette, Big Six, Money Wheel.

Every table is typed from the original text (cited per table) and checked
against the rules digest; the tests re-type the expected sequences from the
rules independently.  Games import these tables; they never re-type them.

A wheel's *sections* are listed clockwise starting at the first entry the
source lists (roulette: 0; Big Six: joker; Money Wheel: 第7シンボル), so the
section index is the clockwise position.  A wheel's *symbols* are its distinct
labels; the outcome of a spin is a section index and its label.

Ambiguities (docs/devices.md lists the readings chosen):

* Double-zero colours.  000 第7 2-1-ロ-(2) says "28 black and **2 red**, red and
  black alternating" (also in the e-Gov text), which makes reds {1..10, 29..36},
  not the standard American wheel (2 black, same red set as the single-zero
  wheel).  002 § 531.1(c) says only "alternately red and black".  Both colour
  tables are kept; the default ``roulette-double`` uses the standard colours
  (it is also PA's wheel), ``ROULETTE_DOUBLE_JP_LITERAL`` the literal reading.
* 000 第7 2-1-ロ-(3): layout B puts 00 "between any of the numbers, or between
  26 and 0" - an operator choice; :func:`roulette_double_jp_b` takes it.
* Money Wheel: 000 第8 1-2 enumerates 52 sections (not the common 54).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction

from rngcore.devices import specs
from rngcore.devices.registry import Device

GREEN, RED, BLACK = "green", "red", "black"


@dataclass(frozen=True)
class WheelTable:
    """A wheel as data.

    Attributes
    ----------
    name : str
        Device name.
    sections : tuple of str
        Label of every section, clockwise, index 0 = the first entry of the source.
    symbols : tuple of str
        The distinct labels (category order of the device).
    colours : tuple of str or None
        Background colour of every section (roulette only).
    citation : str
        Seed file and section the table is typed from.
    void_section : int or None
        Section whose result voids the spin (the wheel is spun again).
    """

    name: str
    sections: tuple[str, ...]
    symbols: tuple[str, ...]
    colours: tuple[str, ...] | None
    citation: str
    void_section: int | None = None
    symbol_of_section: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self):
        kept = [s for i, s in enumerate(self.sections) if i != self.void_section]
        unknown = sorted(set(kept) - set(self.symbols))
        if unknown:
            raise ValueError(f"{self.name}: sections {unknown} are not among symbols {self.symbols}")
        if self.colours is not None and len(self.colours) != len(self.sections):
            raise ValueError(f"{self.name}: {len(self.colours)} colours for {len(self.sections)} sections")
        index = {s: i for i, s in enumerate(self.symbols)}
        # The void section maps to -1: it is never an outcome.
        object.__setattr__(
            self,
            "symbol_of_section",
            tuple(-1 if i == self.void_section else index[s] for i, s in enumerate(self.sections)),
        )

    @property
    def counts(self) -> dict[str, int]:
        """Sections per symbol (void section excluded)."""
        out = {s: 0 for s in self.symbols}
        for i, s in enumerate(self.sections):
            if i != self.void_section:
                out[s] += 1
        return out

    @property
    def probabilities(self) -> tuple[Fraction, ...]:
        """Exact probability of each symbol on one valid spin (void spins re-spun)."""
        counts = self.counts
        total = sum(counts.values())
        return tuple(Fraction(counts[s], total) for s in self.symbols)

    def colour(self, label: str) -> str:
        """Background colour of the pocket labelled ``label``."""
        if self.colours is None:
            raise ValueError(f"{self.name} has no pocket colours")
        try:
            return self.colours[self.sections.index(label)]
        except ValueError:
            raise ValueError(f"{label!r} is not a pocket of {self.name}; valid: {', '.join(self.sections)}") from None


def _roulette(name: str, order: tuple[str, ...], red: frozenset[int], citation: str,
              void: str | None = None) -> WheelTable:
    """A roulette wheel: pockets in clockwise ``order``, each pocket its own
    symbol; 0 and 00 green, the numbers in ``red`` red, the others black.
    A ``void`` pocket is no outcome (the wheel is spun again)."""
    return WheelTable(
        name=name,
        sections=order,
        symbols=tuple(p for p in order if p != void),
        colours=tuple(GREEN if p in ("0", "00") else RED if int(p) in red else BLACK for p in order),
        citation=citation,
        void_section=None if void is None else order.index(void),
    )


# 000 別表第1 第7 1-1-ロ-(1) (seed L2627) "右回りに、0、32、15、…及び26の順";
# 002 58 Pa. Code § 531.1(b) (seed L98): the same clockwise order.
SINGLE_ZERO_ORDER: tuple[str, ...] = (
    "0", "32", "15", "19", "4", "21", "2", "25", "17", "34", "6", "27", "13", "36", "11", "30",
    "8", "23", "10", "5", "24", "16", "33", "1", "20", "14", "31", "9", "22", "18", "29", "7",
    "28", "12", "35", "3", "26",
)

# 000 第7 1-1-ロ-(2),(3): 0 green; from 32 to 26 red and black alternate, 32 red.
# That alternation gives this red set (the standard wheel's); 002 § 531.1(b)
# says "alternately red and black" without a starting colour.
RED_STANDARD: frozenset[int] = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})

# 000 第7 2-1-ロ-(1) (seed L2813) and 002 § 531.1(c) (seed L99): clockwise order.
DOUBLE_ZERO_ORDER: tuple[str, ...] = (
    "0", "28", "9", "26", "30", "11", "7", "20", "32", "17", "5", "22", "34", "15", "3", "24",
    "36", "13", "1", "00", "27", "10", "25", "29", "12", "8", "19", "31", "18", "6", "21", "33",
    "16", "4", "23", "35", "14", "2",
)

# 000 第7 2-1-ロ-(2) read literally: arcs 28..1 and 27..2 alternate with 28 black
# and 2 red (rules README ambiguity 1).  The standard American wheel has 2 black
# and then the RED_STANDARD set.
RED_JP_DOUBLE_LITERAL: frozenset[int] = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 29, 30, 31, 32, 33, 34, 35, 36})

ROULETTE_NUMBERS: tuple[str, ...] = ("0", "00") + tuple(str(n) for n in range(1, 37))

ROULETTE_SINGLE = _roulette(
    "roulette-single", SINGLE_ZERO_ORDER, RED_STANDARD,
    "000 別表第1 第7 1-1-ロ (seed L2627-2633); 002 § 531.1(b)",
)

ROULETTE_DOUBLE = _roulette(
    "roulette-double", DOUBLE_ZERO_ORDER, RED_STANDARD,
    "000 別表第1 第7 2-1-ロ-(1),(5) (seed L2813-2821, layout A); 002 § 531.1(c); "
    "colours: standard American wheel (see module note)",
)

ROULETTE_DOUBLE_JP_LITERAL = _roulette(
    "roulette-double", DOUBLE_ZERO_ORDER, RED_JP_DOUBLE_LITERAL,
    "000 別表第1 第7 2-1-ロ-(1),(2),(5) read literally (28 black, 2 red)",
)

# 002 § 531.1(d): a double-zero wheel used as a single-zero wheel; a ball in
# 00 voids the spin and the wheel is re-spun (§ 531.1(d)(2)(ii), § 531.5(c)).
ROULETTE_DOUBLE_AS_SINGLE = _roulette(
    "roulette-double-as-single", DOUBLE_ZERO_ORDER, RED_STANDARD,
    "002 § 531.1(c),(d)(2)(ii); § 531.5(c)", void="00",
)


def roulette_double_jp_b(after: str = "26") -> WheelTable:
    """000 第7 2-1-ロ-(3),(4),(5): the single-zero order with 00 inserted after ``after``.

    The regulation lets the operator put 00 between any two adjacent numbers
    or between 26 and 0 (the default here).  Colours: 32 red, 26 black,
    alternating (the standard red set); 0 and 00 green.
    """
    if after not in SINGLE_ZERO_ORDER:
        raise ValueError(f"after must be a pocket of the single-zero wheel ({', '.join(SINGLE_ZERO_ORDER)}), got {after!r}")
    at = SINGLE_ZERO_ORDER.index(after) + 1
    order = SINGLE_ZERO_ORDER[:at] + ("00",) + SINGLE_ZERO_ORDER[at:]
    return _roulette("roulette-double", order, RED_STANDARD,
                     f"000 別表第1 第7 2-1-ロ-(3),(4),(5) (seed L2815-2821), 00 after {after}")


# 002 58 Pa. Code § 533.1(b) (seed L168): clockwise order, joker first;
# counts § 533.1(a): 23 x $1, 15 x $2, 8 x $5, 4 x $10, 2 x $20, 1 flag/logo, 1 joker.
BIG_SIX = WheelTable(
    name="big-six",
    sections=(
        "joker", "$1", "$2", "$1", "$5", "$2", "$1", "$10", "$1", "$5", "$1", "$2", "$1", "$20",
        "$1", "$2", "$1", "$5", "$2", "$1", "$10", "$1", "$2", "$5", "$1", "$2", "$1", "flag",
        "$2", "$5", "$2", "$1", "$2", "$1", "$10", "$1", "$5", "$1", "$2", "$1", "$20", "$1",
        "$2", "$1", "$5", "$2", "$1", "$10", "$1", "$2", "$5", "$1", "$2", "$1",
    ),
    symbols=("$1", "$2", "$5", "$10", "$20", "joker", "flag"),
    colours=None,
    citation="002 58 Pa. Code § 533.1(a),(b) (seed L167-168)",
)

# 000 別表第1 第8 1-2 (seed L2915): clockwise, 第7シンボル first; ①..⑤ = S1..S5.
# 52 sections as enumerated (counts S1 24, S2 12, S3 8, S4 4, S5 2, S6 1, S7 1).
MONEY_WHEEL = WheelTable(
    name="money-wheel",
    sections=(
        "S7", "S1", "S2", "S1", "S3", "S1", "S2", "S1", "S4", "S3", "S1", "S2", "S1",
        "S5", "S1", "S2", "S1", "S3", "S1", "S2", "S1", "S3", "S1", "S4", "S2", "S1",
        "S6", "S1", "S2", "S1", "S3", "S1", "S2", "S1", "S4", "S2", "S1", "S3", "S1",
        "S5", "S1", "S2", "S1", "S2", "S1", "S3", "S1", "S4", "S1", "S2", "S3", "S1",
    ),
    symbols=("S1", "S2", "S3", "S4", "S5", "S6", "S7"),
    colours=None,
    citation="000 別表第1 第8 1-2 (seed L2915)",
)

WHEELS: dict[str, WheelTable] = {
    w.name: w for w in (ROULETTE_SINGLE, ROULETTE_DOUBLE, ROULETTE_DOUBLE_AS_SINGLE, BIG_SIX, MONEY_WHEEL)
}


def _device(table: WheelTable, summary: str, labels: str) -> Device:
    return Device(table.name, summary, table.citation, functools.partial(specs.wheel, table), labels=labels)


DEVICES = (
    _device(ROULETTE_SINGLE, "single-zero roulette wheel, 37 pockets", "0-36"),
    _device(ROULETTE_DOUBLE, "double-zero roulette wheel, 38 pockets", "0-36 and 00"),
    _device(ROULETTE_DOUBLE_AS_SINGLE, "double-zero wheel on which 00 voids the spin (re-spun)", "0-36"),
    _device(BIG_SIX, "Big Six wheel, 54 sections", "$1 $2 $5 $10 $20 joker flag"),
    _device(MONEY_WHEEL, "Japan's money wheel, 52 sections", "S1..S7"),
)
