"""Settlement in whole yen: stakes returned, collected and winnings paid, never a float.

000 pays winnings "of the computed amount" and, where the game's settlement
clause says so (baccarat 第1 8-1, blackjack 第2 1-12-イ, craps 第5 7-1,
pai gow 第9 10-1, ...), truncates a computed winning below 1 yen
(1円未満の端数...切り捨てる).  Where the clause says nothing, no rounding is
invented: a stake whose winnings would not be whole yen is refused when the
bet is placed.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction


@dataclasses.dataclass(frozen=True)
class Amounts:
    """What one bet's settlement moves, in yen.

    ``stake == returned + collected``: the stake is either handed back (a
    win or a standoff) or collected (a loss); ``paid`` is the winning on top.
    """

    returned: int
    collected: int
    paid: int

    def as_dict(self) -> dict:
        return {"returned": self.returned, "collected": self.collected, "paid": self.paid}


def settle(stake: int, net: Fraction, truncation: str | None) -> Amounts:
    """The amounts of a ``stake`` whose outcome pays ``net`` per unit staked.

    Parameters
    ----------
    stake : int
        Whole yen, at least 1.
    net : Fraction
        Net result per unit staked: -1 a lost stake, 0 a standoff, ``odds(19, 20)`` a banker win.
    truncation : str or None
        The clause truncating winnings below 1 yen, or None (then fractional winnings are an error).

    Examples
    --------
    >>> settle(15, Fraction(19, 20), "000 第1 8-1")
    Amounts(returned=15, collected=0, paid=14)
    >>> settle(100, Fraction(-1), None)
    Amounts(returned=0, collected=100, paid=0)
    """
    if net >= 0:
        winning = stake * net
        if winning.denominator != 1 and truncation is None:
            raise ValueError(f"a winning of {winning} yen is not whole and the game's settlement clause states "
                             "no rounding")
        return Amounts(stake, 0, math.floor(winning))  # truncation toward zero of a non-negative amount
    lost = stake * -net
    if lost.denominator != 1:
        raise ValueError(f"a loss of {lost} yen of a {stake} yen stake is not whole")
    return Amounts(stake - int(lost), int(lost), 0)


def whole_payouts(stake: int, nets, truncation: str | None) -> bool:
    """Whether every outcome in ``nets`` settles ``stake`` in whole yen under the game's rounding rule."""
    for net in nets:  # the check settle() makes, in integers
        if (stake * net.numerator) % net.denominator and (net < 0 or truncation is None):
            return False
    return True
