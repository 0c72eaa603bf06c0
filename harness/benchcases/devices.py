"""Devices bench cases: 8-deck shoe shuffles, wheel spins and dice in bulk (issue 3 targets).

Same-run baselines doing the same work: numpy ``Generator(PCG64).shuffle`` of
a 416-element array and ``random.SystemRandom().shuffle`` of a 416-item list
(one shuffle per call), numpy ``integers`` for spins and dice.  Every case
checks its result: shoes are permutations of the 416 cards, spins and faces
lie in range with every outcome present and no count beyond 7 standard
deviations of its expectation.
"""
from __future__ import annotations

import functools
import random

import numpy as np

from harness.benchcases._base import BenchCase

SHOES_PER_CALL = 1000
OUTCOMES = 10**7

@functools.lru_cache(maxsize=1)
def _fresh_416():
    from rngcore.devices import cards

    return np.sort(cards.fresh_stack(8))


def _generator():
    import rngcore

    return rngcore.Generator()


# --- 8-deck shuffles -----------------------------------------------------------

def _setup_rngcert_shoes():
    from rngcore.devices import fresh_shoes

    g = _generator()
    return lambda: fresh_shoes(g, SHOES_PER_CALL, 8)


def _check_shoes(result) -> None:
    assert result.shape == (SHOES_PER_CALL, 416), result.shape
    fresh = _fresh_416()
    assert np.array_equal(np.sort(result, axis=1), np.broadcast_to(fresh, result.shape)), "a shoe lost or duplicated a card"
    assert len({row.tobytes() for row in result}) == SHOES_PER_CALL, "repeated shoe"


def _setup_numpy_shuffle():
    rng = np.random.Generator(np.random.PCG64())
    deck = np.arange(416)

    def run():
        rng.shuffle(deck)
        return deck

    return run


def _setup_systemrandom_shuffle():
    rng = random.SystemRandom()
    deck = list(range(416))

    def run():
        rng.shuffle(deck)
        return deck

    return run


def _check_one_shuffle(result) -> None:
    assert sorted(result) == list(range(416)), "the baseline shuffle lost a card"


# --- spins and dice ------------------------------------------------------------------

def _check_uniform(sections: int, low: int = 0):
    def check(result) -> None:
        values = np.asarray(result)
        assert values.size == OUTCOMES
        counts = np.bincount(values.ravel() - low, minlength=sections)
        assert counts.size == sections and counts.min() > 0, "an outcome out of range or missing"
        expected = OUTCOMES / sections
        sd = (expected * (1 - 1 / sections)) ** 0.5
        assert np.abs(counts - expected).max() < 7 * sd, "counts beyond 7 standard deviations"

    return check


def _setup_rngcert_spins():
    from rngcore.devices import device_spec

    spec, g = device_spec("roulette-single"), _generator()
    return lambda: spec.draw(g, OUTCOMES)


def _setup_numpy_spins():
    rng = np.random.Generator(np.random.PCG64())
    return lambda: rng.integers(0, 37, size=OUTCOMES, dtype=np.uint8)


def _setup_rngcert_big_six():
    from rngcore.devices import spin_sections

    g = _generator()
    return lambda: spin_sections(g, "big-six", OUTCOMES)


def _setup_numpy_big_six():
    rng = np.random.Generator(np.random.PCG64())
    return lambda: rng.integers(0, 54, size=OUTCOMES, dtype=np.uint8)


def _setup_rngcert_dice():
    from rngcore.devices import device_spec

    spec, g = device_spec("dice:2"), _generator()
    return lambda: spec.draw(g, OUTCOMES // 2)


def _setup_numpy_dice():
    rng = np.random.Generator(np.random.PCG64())
    return lambda: rng.integers(0, 6, size=(OUTCOMES // 2, 2), dtype=np.uint8)


SHUFFLE_TARGET = ">= 8x numpy-pcg64-shuffle; >= 1000x systemrandom-shuffle"

CASES = [
    BenchCase("shuffle-416", "rngcert-fresh-shoes", _setup_rngcert_shoes, SHOES_PER_CALL, "shuffles",
              target=SHUFFLE_TARGET, check=_check_shoes),
    BenchCase("shuffle-416", "numpy-pcg64-shuffle", _setup_numpy_shuffle, 1, "shuffles",
              baseline=True, check=_check_one_shuffle),
    BenchCase("shuffle-416", "systemrandom-shuffle", _setup_systemrandom_shuffle, 1, "shuffles",
              baseline=True, check=_check_one_shuffle),
    BenchCase("spins-37", "rngcert-roulette-single", _setup_rngcert_spins, OUTCOMES, "spins",
              check=_check_uniform(37)),
    BenchCase("spins-37", "numpy-pcg64-integers", _setup_numpy_spins, OUTCOMES, "spins",
              baseline=True, check=_check_uniform(37)),
    BenchCase("spins-54", "rngcert-big-six", _setup_rngcert_big_six, OUTCOMES, "spins",
              check=_check_uniform(54)),
    BenchCase("spins-54", "numpy-pcg64-integers", _setup_numpy_big_six, OUTCOMES, "spins",
              baseline=True, check=_check_uniform(54)),
    BenchCase("dice-6", "rngcert-dice-2", _setup_rngcert_dice, OUTCOMES, "values",
              check=_check_uniform(6)),
    BenchCase("dice-6", "numpy-pcg64-integers", _setup_numpy_dice, OUTCOMES, "values",
              baseline=True, check=_check_uniform(6)),
]
