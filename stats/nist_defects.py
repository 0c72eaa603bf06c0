"""Bit generators with planted defects, one aimed at each test of the SP 800-22 suite.

Each entry draws ``n`` bits from numpy's PCG64 (the good bits) and plants
one real defect in them: biased bits, too many or too few changes, a short
LFSR, an over-frequent template, a drifting walk, and so on.  ``target`` is
the suite row built to catch it (its report name and label, as
:func:`stats.sp800_22_suite.run_suite` gives them), ``n`` the sequence
length it is caught at.  The tests assert two things about each:

* in the default run, on one sequence (seed 1), the target's P-value is
  below 1e-9, far in the tail, so the check never flakes;
* in the ``slow`` set, the target rejects at α = 0.01 in at least
  ``POWER_RUNS - POWER_MISSES`` of ``POWER_RUNS`` sequences (seeds 1..200):
  a power of at least 0.99 stated at that n.

Labs can run their own pipeline on the zoo: a suite that passes these is
not a suite.

>>> from stats.nist_defects import BIT_DEFECTS
>>> BIT_DEFECTS["biased-bits"].target
('Frequency', '')
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numpy as np

POWER_RUNS, POWER_MISSES = 200, 2
STATED_POWER = 0.99


@dataclass(frozen=True)
class BitDefect:
    """A bit generator with a planted defect.

    Attributes
    ----------
    name, description : str
    draw : callable
        ``draw(n, seed)`` -> uint8 array of n bits (0/1).
    target : tuple of (str, str)
        The suite row that catches it: (report name, label).
    n : int
        Bits per sequence at which it is caught (module doc).
    """

    name: str
    description: str
    draw: Callable[[int, int], np.ndarray]
    target: tuple
    n: int = 1_000_000


def _rng(seed: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(seed))


def _fair(n: int, seed: int) -> np.ndarray:
    return _rng(seed).integers(0, 2, n, dtype=np.uint8)


def _bernoulli(p, n: int, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(n) < p).astype(np.uint8)


def biased_bits(n: int, seed: int = 1, p: float = 0.505) -> np.ndarray:
    """Each bit is one with probability p (a biased comparator)."""
    return _bernoulli(p, n, _rng(seed))


def block_bias(n: int, seed: int = 1, delta: float = 0.01, stretch: int = 10_000) -> np.ndarray:
    """P(1) alternates between 1/2 + δ and 1/2 - δ every ``stretch`` bits (a slowly wandering threshold)."""
    sign = np.where((np.arange(n) // stretch) % 2 == 0, 1.0, -1.0)
    return _bernoulli(0.5 + delta * sign, n, _rng(seed))


def _markov(n: int, rng: np.random.Generator, stay: float) -> np.ndarray:
    """Bits that repeat the previous one with probability ``stay``."""
    flips = _bernoulli(1 - stay, n, rng)
    flips[0] = rng.integers(0, 2)
    return (np.cumsum(flips) & 1).astype(np.uint8)


def sticky_bits(n: int, seed: int = 1, stay: float = 0.51) -> np.ndarray:
    """Each bit repeats the previous one with probability ``stay`` (too few runs: a slow comparator)."""
    return _markov(n, _rng(seed), stay)


def capped_runs(n: int, seed: int = 1, cap: int = 12) -> np.ndarray:
    """After ``cap`` ones in a row a zero is forced (a run-length limiter left in the output path)."""
    bits = _fair(n, seed)
    run = 0
    out = bits.copy()
    for i in np.flatnonzero(bits):  # only the ones can extend a run
        run = run + 1 if i and out[i - 1] else 1
        if run > cap:
            out[i], run = 0, 0
    return out


def dependent_rows(n: int, seed: int = 1, share: float = 0.5) -> np.ndarray:
    """In a share of the 32 x 32 matrices the last row repeats the one above it (a reused word)."""
    bits = _fair(n, seed).copy()
    rng = _rng(seed + 10_000)
    matrices = n // 1024
    for j in np.flatnonzero(rng.random(matrices) < share):
        base = j * 1024
        bits[base + 992: base + 1024] = bits[base + 960: base + 992]
    return bits


def echo(n: int, seed: int = 1, lag: int = 24, share: float = 0.1) -> np.ndarray:
    """A share of the bits copy the bit ``lag`` places earlier (a periodic leak: ripples all over the spectrum)."""
    rng = _rng(seed)
    bits = rng.integers(0, 2, n, dtype=np.uint8)
    copy = rng.random(n) < share
    for start in range(lag, n, lag):  # bit i may copy bit i - lag, which may itself be a copy
        block = slice(start, min(start + lag, n))
        earlier = slice(start - lag, min(start, n - lag))
        bits[block] = np.where(copy[block], bits[earlier], bits[block])
    return bits


def _plant(n: int, seed: int, pattern: str, rate: float) -> np.ndarray:
    """Fair bits with ``pattern`` written over aligned slots of its length, each with probability ``rate``."""
    bits = _fair(n, seed).copy()
    m = len(pattern)
    slots = np.flatnonzero(_rng(seed + 20_000).random(n // m) < rate)
    template = np.frombuffer(pattern.encode("ascii"), dtype=np.uint8) - ord("0")
    bits[(slots[:, None] * m + np.arange(m)).ravel()] = np.tile(template, slots.size)
    return bits


def planted_template(n: int, seed: int = 1, rate: float = 0.004) -> np.ndarray:
    """The aperiodic template 000000001 written over 9-bit slots with probability ``rate`` (a stuck framing)."""
    return _plant(n, seed, "000000001", rate)


def long_ones(n: int, seed: int = 1, rate: float = 0.003) -> np.ndarray:
    """Ten ones written over 10-bit slots with probability ``rate`` (a source that saturates high)."""
    return _plant(n, seed, "1" * 10, rate)


def missing_words(n: int, seed: int = 1, pairs: int = 2, length: int = 7) -> np.ndarray:
    """Each 7-bit word avoids ``pairs`` values and their complements (a lookup table with holes; still balanced)."""
    rng = _rng(seed)
    holes = _rng(99).choice(1 << (length - 1), pairs, replace=False)
    allowed = np.setdiff1d(np.arange(1 << length), np.concatenate([holes, (1 << length) - 1 - holes]))
    words = allowed[rng.integers(0, allowed.size, n // length + 1)]
    bits = ((words[:, None] >> np.arange(length - 1, -1, -1)) & 1).astype(np.uint8).ravel()
    return bits[:n]


def short_lfsr(n: int, seed: int = 1, taps: tuple = (31, 28)) -> np.ndarray:
    """A maximal-length LFSR of degree 31 (s_k = s_(k-31) xor s_(k-28)) from a random nonzero state."""
    state = _rng(seed).integers(0, 2, taps[0], dtype=np.uint8)
    state[0] = 1
    out = np.empty(n + taps[0], dtype=np.uint8)
    out[: taps[0]] = state
    a, b = taps
    k = a
    while k < out.size:  # blocks of b bits depend only on bits already made
        step = min(b, out.size - k)
        out[k: k + step] = out[k - a: k - a + step] ^ out[k - b: k - b + step]
        k += step
    return out[taps[0]:]


def drift(n: int, seed: int = 1, delta: float = 0.008) -> np.ndarray:
    """P(1) = 1/2 + δ over the first half and 1/2 - δ over the second (a warming-up source): balanced overall."""
    sign = np.where(np.arange(n) < n // 2, 1.0, -1.0)
    return _bernoulli(0.5 + delta * sign, n, _rng(seed))


def reverting_walk(n: int, seed: int = 1, pull: float = 0.12, reach: int = 3) -> np.ndarray:
    """Beyond ±``reach`` the ±1 walk steps back towards zero with probability 1/2 + ``pull`` (a leaky integrator)."""
    rng = _rng(seed)
    u = rng.random(n)
    bits = np.empty(n, dtype=np.uint8)
    s = 0
    for i in range(n):
        p = 0.5 - pull if s > reach else 0.5 + pull if s < -reach else 0.5
        b = 1 if u[i] < p else 0
        bits[i] = b
        s += 1 if b else -1
    return bits


BIT_DEFECTS = {d.name: d for d in [
    BitDefect("biased-bits", "each bit is one with probability 0.505", biased_bits, ("Frequency", "")),
    BitDefect("block-bias", "P(1) alternates 0.51 / 0.49 every 10^4 bits", block_bias, ("BlockFrequency", "")),
    BitDefect("sticky-bits", "each bit repeats the last with probability 0.51", sticky_bits, ("Runs", "")),
    BitDefect("capped-runs", "no run of more than 12 ones", capped_runs, ("LongestRun", "")),
    BitDefect("dependent-rows", "half the 32 x 32 matrices repeat a row", dependent_rows, ("Rank", "")),
    BitDefect("echo", "10 % of the bits copy the bit 24 places back", echo, ("FFT", "")),
    BitDefect("planted-template", "000000001 written over 0.4 % of the 9-bit slots", planted_template,
              ("NonOverlappingTemplate", "000000001")),
    BitDefect("long-ones", "ten ones written over 0.3 % of the 10-bit slots", long_ones, ("OverlappingTemplate", "")),
    BitDefect("missing-words", "7-bit words from 124 of the 128 values (two and their complements missing)",
              missing_words, ("Universal", "")),
    BitDefect("short-lfsr", "a maximal LFSR of degree 31", short_lfsr, ("LinearComplexity", "")),
    BitDefect("sticky-pairs", "each bit repeats the last with probability 0.53", functools.partial(sticky_bits, stay=0.53),
              ("Serial", "P-value1")),
    BitDefect("sticky-entropy", "each bit repeats the last with probability 0.51", sticky_bits,
              ("ApproximateEntropy", "")),
    BitDefect("drift", "P(1) = 0.508 then 0.492 (half and half)", drift, ("CumulativeSums", "forward")),
    BitDefect("reverting-walk", "beyond ±3 the walk steps back with probability 0.62", reverting_walk,
              ("RandomExcursions", "+4")),
    BitDefect("reverting-walk-variant", "beyond ±3 the walk steps back with probability 0.62", reverting_walk,
              ("RandomExcursionsVariant", "+9")),
]}


__all__ = ["BIT_DEFECTS", "BitDefect", "POWER_RUNS", "POWER_MISSES", "STATED_POWER"]
