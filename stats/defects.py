"""A zoo of defective devices: each is a real, common mistake, and the battery must catch it.

Every entry draws outcomes in the format of its declared device (label
indices, rows for dice and shuffles) from numpy's PCG64 as the underlying
source of good bits — the defect is the algorithm, not the bits.  ``n`` is
the sample size (outcomes, rolls or shuffles) at which the default-run tests
require the battery's smallest p-value to be below 1e-9 (so the verdict is
"fail" at any sane α, never flaky); ``caught_by`` names the tests that do
it.  docs/statistics.md tabulates them.  Labs can use the zoo to check their
own pipeline: a battery that passes these is not a battery.

>>> from stats.defects import DEFECTS
>>> sorted(DEFECTS)[:3]
['biased-pocket', 'correlated-dice', 'heavy-six-die']
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

import numpy as np

ROULETTE = 37
DECK = 52


@dataclass(frozen=True)
class Defect:
    """A defective device.

    Attributes
    ----------
    name : str
    device : str
        Registry name of the device it pretends to be.
    description : str
    draw : callable
        ``draw(n, seed)`` -> outcomes in the device's format.
    n : int
        Sample size at which the battery's smallest p-value is below 1e-9.
    caught_by : tuple of str
        Battery tests that reach p < 1e-9 at ``n``.
    """

    name: str
    device: str
    description: str
    draw: Callable[[int, int], np.ndarray]
    n: int
    caught_by: tuple


def _rng(seed: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(seed))


# -- wheels --------------------------------------------------------------------------------

def modulo_roulette(n: int, seed: int = 1) -> np.ndarray:
    """Roulette pocket = byte % 37 from an 8-bit source: pockets 0..34 get 7/256, 35 and 36 get 6/256."""
    return (_rng(seed).integers(0, 256, n, dtype=np.uint16) % ROULETTE).astype(np.uint8)


def biased_pocket(n: int, seed: int = 1, delta: float = 0.1, pocket: int = 0) -> np.ndarray:
    """One pocket at (1 + δ)/37, the others scaled down to compensate (a worn or tilted wheel)."""
    p = np.full(ROULETTE, (1 - (1 + delta) / ROULETTE) / (ROULETTE - 1))
    p[pocket] = (1 + delta) / ROULETTE
    return _rng(seed).choice(ROULETTE, size=n, p=p).astype(np.uint8)


def sticky_wheel(n: int, seed: int = 1, repeat: float = 0.01) -> np.ndarray:
    """With probability ``repeat`` the wheel shows the previous pocket again (a cached outcome reused)."""
    rng = _rng(seed)
    fresh = rng.integers(0, ROULETTE, n, dtype=np.uint8)
    again = rng.random(n) < repeat
    again[0] = False
    source = np.where(again, 0, np.arange(n))
    np.maximum.accumulate(source, out=source)
    return fresh[source]


def drifting_pocket(n: int, seed: int = 1, drift: float = 0.3, period: int = 500) -> np.ndarray:
    """Pocket 0's probability drifts: (1 + 0.3)/37 for 500 spins, then (1 - 0.3)/37 for 500, and
    so on (a wheel whose tilt changes with the session), the others filling the rest equally.
    Its overall frequency is exactly right."""
    rng = _rng(seed)
    high = (np.arange(n) // period) % 2 == 0
    p0 = np.where(high, 1 + drift, 1 - drift) / ROULETTE
    zero = rng.random(n) < p0
    return np.where(zero, 0, rng.integers(1, ROULETTE, n)).astype(np.uint8)


def tilted_wheel(n: int, seed: int = 1, tilt: float = 0.05) -> np.ndarray:
    """A tilted roulette wheel: the pocket at angle θ (clockwise from 0, in the registry's
    wheel order, which is also its label order) at (1 + tilt·cos θ)/37."""
    angle = 2 * np.pi * np.arange(ROULETTE) / ROULETTE
    p = (1 + tilt * np.cos(angle)) / ROULETTE
    return _rng(seed).choice(ROULETTE, size=n, p=p / p.sum()).astype(np.uint8)


def worn_sector(n: int, seed: int = 1, excess: float = 0.05, start: int = 30, length: int = 9) -> np.ndarray:
    """A worn roulette wheel: ``length`` neighbouring pockets from wheel position ``start``
    (clockwise, wrapping past 0) at (1 + excess) times the others' probability."""
    weight = np.ones(ROULETTE)
    weight[(start + np.arange(length)) % ROULETTE] += excess
    return _rng(seed).choice(ROULETTE, size=n, p=weight / weight.sum()).astype(np.uint8)


def _lcg(n: int, seed: int, a: int = 1664525, c: int = 1013904223) -> np.ndarray:
    """x_(i+1) = (a x_i + c) mod 2^32 (Numerical Recipes' constants), vectorized by block jumps."""
    mask = np.uint64(0xFFFFFFFF)
    block = 4096
    mult = np.empty(block, dtype=np.uint64)
    add = np.empty(block, dtype=np.uint64)
    m, s = 1, 0
    for k in range(block):
        mult[k], add[k] = m, s
        m, s = (m * a) % 2**32, (s * a + c) % 2**32
    jump_m, jump_s = np.uint64(m), np.uint64(s)
    out = np.empty(n + block, dtype=np.uint64)
    x = np.uint64(seed & 0xFFFFFFFF)
    for start in range(0, n, block):
        out[start: start + block] = (mult * x + add) & mask
        x = (jump_m * x + jump_s) & mask
    return out[:n]


def lcg_low_bits_wheel(n: int, seed: int = 1) -> np.ndarray:
    """Pocket from the low byte of a 32-bit LCG, with a correct rejection step (bytes >= 222
    are redrawn, then % 37 is exact): the distribution is right, but the low byte of an LCG
    modulo 2^32 has period 256, so the pockets repeat a fixed cycle."""
    out = np.empty(0, dtype=np.uint8)
    state_seed = seed
    while out.size < n:
        low = (_lcg(2 * n + 64, state_seed) & np.uint64(0xFF)).astype(np.uint16)
        out = np.concatenate([out, (low[low < 222] % ROULETTE).astype(np.uint8)])
        state_seed += 1
    return out[:n]


# -- dice --------------------------------------------------------------------------------------

def heavy_six_die(n: int, seed: int = 1, excess: float = 0.01) -> np.ndarray:
    """One die with P(6) = 1/6 + 0.01 (a shaved or loaded die); rows of 1 face index."""
    p = np.full(6, (5 / 6 - excess) / 5)
    p[5] = 1 / 6 + excess
    return _rng(seed).choice(6, size=(n, 1), p=p).astype(np.uint8)


def lcg_die(n: int, seed: int = 1) -> np.ndarray:
    """Die face = (32-bit LCG state) % 6: the lowest bit alternates, so odd and even faces alternate."""
    return (_lcg(n, seed) % np.uint64(6)).astype(np.uint8).reshape(n, 1)


def correlated_dice(n: int, seed: int = 1, copy: float = 0.05) -> np.ndarray:
    """Two dice where the second shows the first's face with probability 0.05."""
    rng = _rng(seed)
    rolls = rng.integers(0, 6, (n, 2), dtype=np.uint8)
    same = rng.random(n) < copy
    rolls[same, 1] = rolls[same, 0]
    return rolls


# -- raw bytes -----------------------------------------------------------------------------------

def sticky_bits(n: int, seed: int = 1, stick: float = 0.1) -> np.ndarray:
    """A raw byte stream whose bits repeat the previous bit with probability 0.1, else are fresh
    (a noise source with too little bandwidth): lag-one bit correlation 0.1, each bit still fair."""
    rng = _rng(seed)
    bits = rng.integers(0, 2, 8 * n, dtype=np.uint8)
    again = rng.random(8 * n) < stick
    again[0] = False
    source = np.where(again, 0, np.arange(8 * n))
    np.maximum.accumulate(source, out=source)
    return np.packbits(bits[source])


# -- shuffles ----------------------------------------------------------------------------------

def _fresh(n: int, multiset) -> np.ndarray:
    return np.tile(np.asarray(multiset, dtype=np.uint8), (n, 1))


def _swap(rows, i, j):
    r = np.arange(rows.shape[0])
    tmp = rows[r, i].copy()
    rows[r, i] = rows[r, j]
    rows[r, j] = tmp


def naive_shuffle(n: int, seed: int = 1, multiset=tuple(range(DECK))) -> np.ndarray:
    """For each position i, swap with a position drawn from the WHOLE deck: n^n paths onto n! orders."""
    rng = _rng(seed)
    rows = _fresh(n, multiset)
    width = rows.shape[1]
    for i in range(width):
        _swap(rows, np.full(n, i), rng.integers(0, width, n))
    return rows


def sattolo_shuffle(n: int, seed: int = 1, multiset=tuple(range(DECK))) -> np.ndarray:
    """Sattolo's algorithm (Fisher–Yates with j drawn from [0, i) instead of [0, i]):
    only cyclic permutations, so no card ever stays in its place."""
    rng = _rng(seed)
    rows = _fresh(n, multiset)
    width = rows.shape[1]
    for i in range(width - 1, 0, -1):
        _swap(rows, np.full(n, i), rng.integers(0, i, n))
    return rows


def modulo_shuffle(n: int, seed: int = 1, multiset=tuple(range(DECK))) -> np.ndarray:
    """Fisher–Yates from the end, but j = byte % (i + 1) from an 8-bit source (modulo bias)."""
    rng = _rng(seed)
    rows = _fresh(n, multiset)
    width = rows.shape[1]
    for i in range(width - 1, 0, -1):
        _swap(rows, np.full(n, i), rng.integers(0, 256, n) % (i + 1))
    return rows


def _shoe_multiset(decks: int):
    return tuple(np.tile(np.arange(DECK), decks).tolist())


def missing_card_shoe(n: int, seed: int = 1, decks: int = 8) -> np.ndarray:
    """An 8-deck shoe with one ace of spades (label 0) lost and a second copy of label 38 (KD in
    the registry's card order) in its place, shuffled correctly."""
    stack = np.array(_shoe_multiset(decks), dtype=np.uint8)
    stack[0] = 38
    return _rng(seed).permuted(np.tile(stack, (n, 1)), axis=1)


def reused_shuffle(n: int, seed: int = 1, reuse: float = 0.05) -> np.ndarray:
    """A deck that, with probability 0.05, is dealt again in the previous round's order."""
    rng = _rng(seed)
    rows = rng.permuted(_fresh(n, range(DECK)), axis=1)
    again = rng.random(n) < reuse
    again[0] = False
    source = np.where(again, 0, np.arange(n))
    np.maximum.accumulate(source, out=source)
    return rows[source]


def riffled(rows: np.ndarray, riffles: int, rng: np.random.Generator) -> np.ndarray:
    """Each row after ``riffles`` Gilbert–Shannon–Reeds riffle shuffles.

    k riffles are one a-shuffle, a = 2^k (Bayer & Diaconis): every position
    draws a packet in [0, a) independently, and the packets' cards, each
    packet a contiguous run of the row in its order, fill the positions of
    their packet from left to right.
    """
    packets = rng.integers(0, 1 << riffles, rows.shape, dtype=np.uint64)
    order = np.argsort(packets, axis=1, kind="stable")  # positions of packet 0, then 1, ...
    out = np.empty_like(rows)
    np.put_along_axis(out, order, rows, axis=1)
    return out


def riffle_shuffle(n: int, seed: int = 1, riffles: int = 7, decks: int = 1, start: str = "fresh") -> np.ndarray:
    """A machine shuffler doing ``riffles`` GSR riffles of a ``decks``-deck stack: of the fresh
    (factory-order) stack for every shuffle (``start="fresh"``), or of the previous shuffle's
    order (``"previous"``: a continuous shuffler fed the discards)."""
    rng = _rng(seed)
    fresh = np.array(_shoe_multiset(decks), dtype=np.uint8)
    if start == "fresh":
        return riffled(np.tile(fresh, (n, 1)), riffles, rng)
    rows = np.empty((n, fresh.size), dtype=np.uint8)
    last = rng.permuted(fresh)
    for s in range(n):
        last = riffled(last[None, :], riffles, rng)[0]
        rows[s] = last
    return rows


def naive_shuffle_small(n: int, seed: int = 1) -> np.ndarray:
    """The naive shuffle of a 3-card deck: 27 paths onto 6 orders (some orders 5/27, some 4/27)."""
    return naive_shuffle(n, seed, multiset=(0, 1, 2))


DEFECTS: dict[str, Defect] = {d.name: d for d in (
    Defect("modulo-roulette", "roulette-single", "pocket = byte % 37 from an 8-bit source", modulo_roulette,
           200_000, ("frequency",)),
    Defect("biased-pocket", "roulette-single", "one pocket at (1 + 0.1)/37", biased_pocket,
           1_000_000, ("frequency",)),
    Defect("sticky-wheel", "roulette-single", "repeats the previous pocket with probability 0.01", sticky_wheel,
           300_000, ("repeats", "serial-pairs", "independence")),
    Defect("lcg-low-bits-wheel", "roulette-single", "pocket from the low byte of a 32-bit LCG (period 256)",
           lcg_low_bits_wheel, 20_000, ("serial-pairs", "independence")),
    Defect("heavy-six-die", "dice:1", "P(6) = 1/6 + 0.01", heavy_six_die, 300_000, ("frequency",)),
    Defect("lcg-die", "dice:1", "face = 32-bit LCG state % 6", lcg_die, 20_000,
           ("serial-pairs", "independence")),
    Defect("drifting-pocket", "roulette-single", "pocket 0 at (1 ± 0.3)/37 in alternate stretches of 500 spins",
           drifting_pocket, 300_000, ("poisson",)),
    Defect("sticky-bits", "bytes", "raw bytes whose bits repeat the previous bit with probability 0.1", sticky_bits,
           400_000, ("spectral",)),
    Defect("correlated-dice", "dice:2", "second die copies the first with probability 0.05", correlated_dice,
           100_000, ("combination", "interplay")),
    Defect("naive-shuffle", "deck", "swap each card with any position", naive_shuffle, 5_000,
           ("position-card",)),
    Defect("sattolo-shuffle", "deck", "Sattolo's algorithm (cyclic permutations only)", sattolo_shuffle, 2_000,
           ("position-card",)),
    Defect("modulo-shuffle", "deck", "Fisher–Yates with j = byte % (i + 1)", modulo_shuffle, 20_000,
           ("position-card",)),
    Defect("missing-card-shoe", "shoe:8", "one AS lost, a second KD in its place", missing_card_shoe, 1_000, ("composition",)),
    Defect("reused-shuffle", "deck", "previous round's order dealt again with probability 0.05", reused_shuffle,
           2_000, ("carry-over",)),
    Defect("tilted-wheel", "roulette-single", "pocket at angle θ at (1 + 0.05 cos θ)/37", tilted_wheel,
           200_000, ("wheel-harmonics", "wheel-sectors")),
    Defect("worn-sector", "roulette-single", "9 neighbouring pockets at 1.05× the others", worn_sector,
           200_000, ("wheel-sectors",)),
    Defect("riffle-shoe-3", "shoe:8", "3 GSR riffles of the fresh 8-deck shoe", partial(riffle_shuffle, riffles=3, decks=8),
           20, ("rising-sequences",)),
    Defect("riffle-shoe-5", "shoe:8", "5 GSR riffles of the fresh 8-deck shoe", partial(riffle_shuffle, riffles=5, decks=8),
           40, ("rising-sequences",)),
    Defect("riffle-deck-4", "deck", "4 GSR riffles of the fresh deck", partial(riffle_shuffle, riffles=4),
           200, ("rising-sequences",)),
    Defect("riffle-deck-carried-4", "deck", "4 GSR riffles of the previous shuffle's order",
           partial(riffle_shuffle, riffles=4, start="previous"), 200, ("rising-from-previous", "pair-carry-over")),
    Defect("riffle-shoe-carried-6", "shoe:8", "6 GSR riffles of the previous 8-deck shoe's order",
           partial(riffle_shuffle, riffles=6, decks=8, start="previous"), 200, ("pair-carry-over",)),
)}


__all__ = ["Defect", "DEFECTS", "modulo_roulette", "biased_pocket", "sticky_wheel", "drifting_pocket", "sticky_bits",
           "lcg_low_bits_wheel",
           "heavy_six_die", "lcg_die", "correlated_dice", "naive_shuffle", "sattolo_shuffle", "modulo_shuffle",
           "missing_card_shoe", "reused_shuffle", "naive_shuffle_small", "riffled", "riffle_shuffle",
           "tilted_wheel", "worn_sector"]
