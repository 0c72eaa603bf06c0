"""Omaha poker (000 別表第1 第3 9), high or Hi-Lo 8 or better: the customers play
one another for the pot, the house keeps its share.

Source: ``000_d4cd2a3cb5c95429.txt`` L1639-1879 (digest ``rules/poker.md``
§8; the original wins).  Dealing and betting: :mod:`harness.games.poker_table`;
the pots: :mod:`harness.games.poker_pots`; the hands:
:mod:`harness.games.poker_hands`.
"""
from __future__ import annotations

from harness.games._pvp_game import PvpGame

SOURCE = "000 別表第1 第3 9"

# variant -> (hole cards 9-3-イ, the showdown's hand 9-8-イ-(1), Hi-Lo 9-10, the items)
TABLES = {
    "high": (4, "omaha-hi", False, f"{SOURCE}-1 .. 9-9: four hole cards, exactly two of them and three board cards"),
    "hi-lo": (4, "omaha-hi", True, f"{SOURCE}-10 .. 9-13: each pot halved between the best high and the best "
                                   "eight-or-better low"),
}


class OmahaGame(PvpGame):
    name = "omaha"
    summary = "Omaha poker, high or Hi-Lo 8 or better: customers against one another, the house's share of each pot"
    rules = f"{SOURCE} (seed L1639-1879)"
    variants = tuple(TABLES)
    variants_help = "high (9-1 .. 9-9) or hi-lo (Hi-Lo 8 or better, 9-10 .. 9-13)"
    tables = TABLES


GAMES = (OmahaGame(),)
