"""Shared helpers for tests/test_devices_*.py: the exhaustive enumeration driver.

The devices' C drawing functions take the source's word width ``bits`` (64 in
production).  The test engine's left-aligned layout
(``rngcore.testing.TestEngine.from_words``, csrc/testing/testengine.h) replays a list
of ``bits``-bit words, left-aligned, so the shipped compiled functions run on
narrow words and every possible word sequence can be tried.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

from rngcore import lib
from rngcore.testing import TestEngine


def enumerate_outcomes(bits: int, depth: int, run: Callable[[object], tuple[int, object]]):
    """Run ``run(source)`` on every sequence of ``depth`` words of ``bits`` bits.

    ``run`` returns (C status, outcome).  Returns (Counter: outcome -> number
    of the (2^bits)^depth sequences on which the run finished with it, number
    of sequences on which it ran out of words).

    Sequences are visited as a tree: a run that finishes after reading u
    words gives the same outcome for all (2^bits)^(depth - u) ways to continue
    its prefix, so it is run once and counted with that weight; only prefixes
    that ran out are extended.  (A finished run read exactly its whole
    prefix: its parent prefix ran out, so it needed every word of it.)
    Any status other than RNG_OK / RNG_E_EXHAUSTED fails the test.
    """
    size = 1 << bits
    outcomes: Counter = Counter()
    exhausted = 0
    pending = [()]
    while pending:
        prefix = pending.pop()
        engine = TestEngine.from_words(prefix, bits)
        status, outcome = run(engine.source)
        if status == lib.RNG_OK:
            assert engine.consumed == len(prefix), (prefix, engine.consumed)
            outcomes[outcome] += size ** (depth - len(prefix))
        elif status != lib.RNG_E_EXHAUSTED:
            raise AssertionError(f"unexpected status {status} for words {prefix}")
        elif len(prefix) < depth:
            pending.extend(prefix + (w,) for w in range(size))
        else:
            exhausted += 1
    return outcomes, exhausted


def plan_limit(bits: int) -> int:
    """The documented product limit: 2^(bits - max(1, bits // 8)) (csrc/core/shuffle.h)."""
    return 1 << (bits - max(1, bits // 8))


def shuffle_batches(n: int, bits: int) -> list[int]:
    """Batch products of an n-item shuffle: bounds n..2 taken greedily under the limit."""
    limit, products, b = plan_limit(bits), [], n
    while b > 1:
        p, k = b, 1
        while b - k > 1 and k < 24 and p * (b - k) <= limit:
            p *= b - k
            k += 1
        products.append(p)
        b -= k
    return products
