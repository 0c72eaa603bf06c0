"""Stats bench cases (issue 4): chi-square and serial tests over wheel outcomes; the spectral test.

Target: chi-square (frequency) and serial (Good's overlapping pairs) tests
over 10^8 roulette outcomes in <= 5 s on one core, streamed in chunks.  The
same-run baseline is the naive way: ``np.unique`` counts of values and of
pair codes, then ``scipy.stats.chisquare``.  Every case checks its answer
against scipy on the same data.

The spectral group (no target) times the streamed DFT test over 2^24 bits
(2 MiB of ``rngcert stream`` bytes) in blocks of 2^16
against one whole-sequence transform (SP 800-22 as written), and checks the
summed count against a block-by-block loop of the reference count.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from harness.benchcases._base import BenchCase

K = 37
CHUNK = 1 << 20
SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # varied bytes: no trivial-seed warning in a bench run


@lru_cache(maxsize=2)
def _outcomes(n: int) -> np.ndarray:
    import rngcore
    from rngcore.devices import device_spec

    spec = device_spec("roulette-single")
    generator = rngcore.Generator(SEED)
    parts = [spec.draw(generator, min(10**7, n - i)) for i in range(0, n, 10**7)]
    return np.concatenate(parts)


def _streamed(x: np.ndarray, t: int = 2):
    from stats.streaming import FrequencyAccumulator, SerialAccumulator

    freq = FrequencyAccumulator(K)
    serial = SerialAccumulator(K, t=t, overlapping=True)
    for i in range(0, x.size, CHUNK):
        part = x[i: i + CHUNK]
        freq.update(part)
        serial.update(part)
    return freq.result(), serial.result()


def _naive(x: np.ndarray):
    import scipy.stats as ss

    values, counts = np.unique(x, return_counts=True)
    pairs, pair_counts = np.unique(x[:-1].astype(np.int64) * K + x[1:], return_counts=True)
    return ss.chisquare(counts), ss.chisquare(pair_counts)


def _check_against_scipy(n):
    def check(result):
        import scipy.stats as ss

        x = _outcomes(n)
        freq, serial = result
        ref = ss.chisquare(np.bincount(x, minlength=K))
        assert abs(freq.statistic - ref.statistic) <= 1e-9 * ref.statistic
        assert freq.n == n and serial.n == n and serial.df == K * K - K
        assert 0.0 <= serial.pvalue <= 1.0
    return check


def _check_naive(result):
    assert 0.0 <= result[0].pvalue <= 1.0 and 0.0 <= result[1].pvalue <= 1.0


def _cases(n: int, label: str) -> list[BenchCase]:
    group = f"stats-chisq-serial-{label}"
    return [
        BenchCase(group, "rngcert-stream", lambda: (lambda: _streamed(_outcomes(n))), n, "values",
                  target=">= 3x numpy-unique", check=_check_against_scipy(n)),
        BenchCase(group, "numpy-unique", lambda: (lambda: _naive(_outcomes(n))), n, "values", baseline=True,
                  check=_check_naive),
    ]


def _battery_case(n: int) -> BenchCase:
    def setup():
        from rngcore.devices import device_spec
        from stats.battery import run_battery

        spec = device_spec("roulette-single")
        x = _outcomes(n)[:n]
        return lambda: run_battery(spec, x)

    def check(result):
        assert result.n == n and len(result.tests) >= 15

    return BenchCase("stats-battery-roulette-1e6", "rngcert", setup, n, "values", check=check)


SPECTRAL_BITS = 1 << 24
SPECTRAL_BLOCK = 1 << 16


@lru_cache(maxsize=1)
def _stream_bits() -> np.ndarray:
    import rngcore
    from stats.spectral import bits_from_bytes

    return bits_from_bytes(rngcore.Generator(SEED).random_bytes(SPECTRAL_BITS // 8))


def _spectral_cases() -> list[BenchCase]:
    def streamed():
        from stats.spectral import spectral_test

        bits = _stream_bits()
        return lambda: spectral_test(bits, block=SPECTRAL_BLOCK)

    def whole():
        from stats.spectral import spectral_test

        bits = _stream_bits()
        return lambda: spectral_test(bits)

    def check_blocks(result):
        from stats.spectral import peak_count

        bits = _stream_bits()
        reference = sum(peak_count(bits[i: i + SPECTRAL_BLOCK]) for i in range(0, bits.size, SPECTRAL_BLOCK))
        assert result.n == SPECTRAL_BITS and result.observed == reference and 0 < result.pvalue <= 1

    def check_whole(result):
        assert result.n == SPECTRAL_BITS and 0 < result.pvalue <= 1

    group = "stats-spectral-16Mbit"
    return [
        BenchCase(group, "rngcert-blocks-2^16", streamed, SPECTRAL_BITS, "bits", check=check_blocks),
        BenchCase(group, "one-transform", whole, SPECTRAL_BITS, "bits", baseline=True, check=check_whole),
    ]


CASES: list[BenchCase] = (_cases(10**7, "1e7") + _cases(10**8, "1e8") + [_battery_case(10**6)]
                          + _spectral_cases())
