"""Bonus wheels and pick bonuses, solved exactly.

Rules (``docs/slot_model.md``, "Bonus wheels and pick bonuses"): ``trigger``
or more of the bonus scatter in the paid spin's window start the bonus once;
what it pays is a multiple of the total bet, independent of the paid spin
given the scatter count that started it.

* **Wheel.** One spin of a wheel: segment value ``v`` comes up with
  probability ``weight(v) / W``.  The win is that value.
* **Pick.** A board of items, each with a value, a weight and an ``end``
  flag.  The player makes up to ``picks`` picks without replacement: each
  pick takes one of the items still on the board, item ``i`` with
  probability ``w_i / (sum of the remaining weights)`` (equal weights: every
  remaining item equally likely).  Picking an ``end`` item stops the bonus
  after its value is added.  The win is the sum of the values picked.

The pick bonus is solved by dynamic programming over the *set* of items
picked so far (order does not change the sum, and the next pick depends
only on which items remain): the probability of reaching each set, exactly
in fractions, then the win distribution over the sets where picking stops.
At most :data:`MAX_PICK_ITEMS` items, so at most ``2**12`` sets.

:func:`play` plays one bonus by these rules from bounded draws
(:mod:`harness.slot.draws`): a round's play and the simulation both call it.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

MAX_PICK_ITEMS = 12  # the programme visits up to 2**12 sets of picked items
KINDS = ("wheel", "pick")


@dataclasses.dataclass(frozen=True)
class PickItem:
    """One item on a pick board: its value (x total bet), its weight, and whether it ends the bonus."""

    value: int
    weight: int = 1
    end: bool = False


@dataclasses.dataclass(frozen=True)
class Bonus:
    """A wheel or pick bonus started by ``trigger`` or more of scatter ``symbol`` (index) in the paid spin.

    ``segments`` (wheel): value -> weight.  ``items`` and ``picks`` (pick):
    the board and the most picks made.
    """

    kind: str
    symbol: int
    trigger: int
    segments: tuple[tuple[int, int], ...] = ()
    items: tuple[PickItem, ...] = ()
    picks: int = 0


@dataclasses.dataclass(frozen=True)
class BonusOutcome:
    """What one bonus pays, in multiples of the total bet.

    ``win[v]`` is P(the bonus pays v); ``prize[v]`` is P(a segment / an item
    of value v is won), the per-prize outcome classes (for a pick bonus
    several prizes are won together, so these need not sum to 1);
    ``share[v]`` is the expected amount those prizes pay (``v`` times the
    expected number of them won), so the shares sum to :attr:`mean`.
    """

    win: dict[int, Fraction]
    prize: dict[int, Fraction]
    share: dict[int, Fraction]

    @property
    def mean(self) -> Fraction:
        return sum((v * p for v, p in self.win.items()), Fraction(0))

    @property
    def second(self) -> Fraction:
        return sum((v * v * p for v, p in self.win.items()), Fraction(0))


def solve(bonus: Bonus) -> BonusOutcome:
    """The exact distribution of the bonus's win (module docstring)."""
    if bonus.kind == "wheel":
        total = sum(w for _, w in bonus.segments)
        win: dict[int, Fraction] = {}
        for v, w in bonus.segments:
            if w:
                win[v] = win.get(v, 0) + Fraction(w, total)
        prize = {v: p for v, p in sorted(win.items()) if v}
        return BonusOutcome(win=dict(sorted(win.items())), prize=prize, share={v: v * p for v, p in prize.items()})
    if bonus.kind == "pick":
        return _solve_pick(bonus.items, bonus.picks)
    raise ValueError(f"unknown bonus kind {bonus.kind!r}; valid kinds: {', '.join(KINDS)}")


def _solve_pick(items: tuple[PickItem, ...], picks: int) -> BonusOutcome:
    n = len(items)
    if not 1 <= n <= MAX_PICK_ITEMS or not 1 <= picks <= n:
        raise ValueError(f"need 1 <= items <= {MAX_PICK_ITEMS} and 1 <= picks <= items, got {n}, {picks}")
    weights = [it.weight for it in items]
    total = sum(weights)
    # reach[mask]: probability that exactly the items of mask have been picked and picking goes on
    reach: dict[int, Fraction] = {0: Fraction(1)}
    stopped: dict[int, Fraction] = {}
    for _ in range(picks):
        nxt: dict[int, Fraction] = {}
        for mask, p in reach.items():
            left = total - sum(weights[i] for i in range(n) if mask >> i & 1)
            if left == 0:  # nothing with weight is left to pick: the loader refuses such a board
                raise ValueError("a pick found every remaining item at weight 0")
            for i in range(n):
                if mask >> i & 1 or not weights[i]:
                    continue
                q = p * Fraction(weights[i], left)
                into = stopped if items[i].end else nxt
                into[mask | 1 << i] = into.get(mask | 1 << i, 0) + q
        reach = nxt
    for mask, p in reach.items():  # every pick made
        stopped[mask] = stopped.get(mask, 0) + p
    win: dict[int, Fraction] = {}
    prize: dict[int, Fraction] = {}
    share: dict[int, Fraction] = {}
    for mask, p in stopped.items():
        chosen = [items[i].value for i in range(n) if mask >> i & 1]
        s = sum(chosen)
        win[s] = win.get(s, 0) + p
        for v in set(chosen):
            if v:
                prize[v] = prize.get(v, 0) + p
                share[v] = share.get(v, 0) + p * v * chosen.count(v)
    return BonusOutcome(win=dict(sorted(win.items())), prize=dict(sorted(prize.items())),
                        share=dict(sorted(share.items())))


def play(bonus: Bonus, draws) -> int:
    """One bonus's win (x total bet) from the draw source ``draws`` (:mod:`harness.slot.draws`).

    A wheel is one draw below the segments' total weight, the segment it
    falls in paying; a pick is up to ``picks`` draws, each below the weight
    left on the board, the item it falls in paying and leaving the board, an
    ``end`` item ending the bonus.
    """
    from harness.slot.draws import falls_in

    if bonus.kind == "wheel":
        weights = [w for _, w in bonus.segments]
        return bonus.segments[falls_in(weights, draws.one(sum(weights)))][0]
    weights, win = [it.weight for it in bonus.items], 0
    for _ in range(bonus.picks):
        if not sum(weights):
            break
        i = falls_in(weights, draws.one(sum(weights)))
        win += bonus.items[i].value
        weights[i] = 0  # picked: off the board
        if bonus.items[i].end:
            break
    return win


def top_award(bonus: Bonus) -> int:
    """A bound on what one bonus can pay (x total bet): the top segment, or the ``picks`` best items."""
    if bonus.kind == "wheel":
        return max((v for v, w in bonus.segments if w), default=0)
    values = sorted((it.value for it in bonus.items if it.weight), reverse=True)
    return sum(values[:bonus.picks])
