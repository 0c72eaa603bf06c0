"""Texas Hold'em poker (000 別表第1 第3 10): Omaha's rules (9, without the Hi-Lo
items 10-13) with two hole cards and the best hand of the seven cards.

Source: ``000_d4cd2a3cb5c95429.txt`` L1881 (digest ``rules/poker.md`` §9:
the "exactly two" wording deleted, read as the best five of seven).
"""
from __future__ import annotations

from harness.games._pvp_game import PvpGame

SOURCE = "000 別表第1 第3 10"

# variant -> (hole cards, the showdown's hand, Hi-Lo, the items)
TABLES = {
    "standard": (2, "best5", False, f"{SOURCE} applying 9 (not 9-10 .. 9-13): two hole cards, the best five of "
                                    "the seven"),
}


class TexasHoldemGame(PvpGame):
    name = "texas-holdem"
    summary = "Texas Hold'em poker: customers against one another, the house's share of each pot"
    rules = f"{SOURCE} (seed L1881)"
    tables = TABLES


GAMES = (TexasHoldemGame(),)
