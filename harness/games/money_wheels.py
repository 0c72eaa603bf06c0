"""Big Six (002 ch. 533) and the JP Money Wheel (000 別表第1 第8) pay tables.

The wheels themselves (sections, clockwise order, symbol counts) are the
device tables ``big-six`` and ``money-wheel`` of :mod:`rngcore.devices`;
here only the bets and odds are stated.  A bet names one symbol and wins
when the clapper's section shows it (002 § 533.2(c); 000 第8 5-2).
"""
from __future__ import annotations

import functools
from typing import Callable

from rngcore.devices import WHEELS
from harness.games.base import CategoricalGame
from harness.games.core import BetRule, Where, odds, rows
from harness.games.etable import ETable

# 002 § 533.3(a) (minimum odds): bet name, device symbol, "N to 1".
BIG_SIX_TABLE = (
    ("one", "$1", 1),
    ("two", "$2", 2),
    ("five", "$5", 5),
    ("ten", "$10", 10),
    ("twenty", "$20", 20),
    ("joker", "joker", 45),
    ("flag", "flag", 45),
)

# 000 第8 6-2 (standard) and 6-3 (alternative the operator may elect): イ..ト.
MONEY_WHEEL_TABLES = {
    "standard": ("000 別表第1 第8 3-3, 5-2, 6-2", (1, 3, 5, 10, 20, 45, 45)),
    "alternative": ("000 別表第1 第8 3-3, 5-2, 6-3", (1, 3, 5, 11, 23, 47, 47)),
}


def big_six_bets() -> tuple[BetRule, ...]:
    return tuple(
        BetRule(name, "002 § 533.2(c), § 533.3(a)", rows(("win", Where(symbol=symbol), odds(pays))),
                note="002 odds are minimums; an operator may pay more")
        for name, symbol, pays in BIG_SIX_TABLE
    )


def money_wheel_bets(variant: str) -> tuple[BetRule, ...]:
    if variant not in MONEY_WHEEL_TABLES:
        raise ValueError(f"money wheel pay table must be one of {', '.join(MONEY_WHEEL_TABLES)}, got {variant!r}")
    source, table = MONEY_WHEEL_TABLES[variant]
    return tuple(
        BetRule(f"symbol_{i}", source, rows(("win", Where(symbol=f"S{i}"), odds(pays))))
        for i, pays in enumerate(table, start=1)
    )


class SymbolWheelGame(CategoricalGame):
    """Big Six / Money Wheel: a bet names a symbol; the wheel is a device table."""

    def __init__(self, name: str, summary: str, variants: dict[str, Callable[[], tuple]], rules: str,
                 variants_help: str = "", etable: ETable | None = None):
        self.name = name
        self.etable = etable
        self.summary = summary
        self._bets = variants
        self.variants = tuple(variants)
        self.variants_help = variants_help
        self.wheel = WHEELS[name]
        self.rules = rules
        self.devices = name

    def bets(self, variant):
        return self._bets[variant]()

    def outcome_features(self, variant):
        return [{"symbol": label, "section": i} for i, label in enumerate(self.wheel.sections)]

    def device(self, variant):
        return self.name, len(self.wheel.sections), 1, self.wheel.void_section

    def parameters(self, variant):
        return {"wheel": self.wheel.citation, "sections": len(self.wheel.sections), "symbol_sections": self.wheel.counts}

    def note(self, variant):
        return self.rules

    def outcome_label(self, variant, index, features):
        return f"{features['symbol']} (section {index})"


GAMES = (
    SymbolWheelGame("big-six", "Big Six wheel: one bet per symbol", {"standard": big_six_bets}, "002 ch. 533"),
    SymbolWheelGame(
        "money-wheel", "Japan's money wheel: one bet per symbol",
        {v: functools.partial(money_wheel_bets, v) for v in MONEY_WHEEL_TABLES},
        "000 別表第1 第8 (the operator uses the 6-2 table or elects 6-3)",
        "the pay table: 000 第8 6-2 / 6-3",
        etable=ETable("000 別表第1 第8 9-3", ("standard", "alternative"), None,
                      "000 別表第1 第8 9 (L3023): the bets of 3-3 only",
                      "item 4 (the disc spun) is finished", "000 別表第1 第8 10-1")),
)
