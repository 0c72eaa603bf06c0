"""Spectral test: the discrete Fourier transform test of NIST SP 800-22 rev1a §2.6 on a bit stream.

The bits x_i in {0, 1} become X_i = 2 x_i - 1, the DFT f_j = Σ_k X_k e^(-2πijk/n)
is taken, and N1 counts the moduli |f_j|, j = 0..n/2-1, below the threshold
T = sqrt(n ln 20): for a random sequence about 95 % of them are.  A
sequence with periodic structure (or any broad-band spectral colouring) has
too many or too few peaks above T.

Which bits
----------
* Raw bit streams — ``rngcert stream`` output, a binary capture of an RNG's
  bytes — are tested directly (:func:`bits_from_bytes`: eight bits per
  byte, most significant first, as NIST's ``sts`` reads binary files).
* Categorical outcomes (wheels, dice, the first card of each shuffle) are
  not bits.  Writing the pocket number in binary would NOT give fair bits
  (37 pockets: the high bit is 1 for only 5 of 37 numbers), so the test
  would reject a perfect wheel.  What is valid is the binary expansion of
  the randomized PIT ``u`` (:mod:`stats.pit`): ``u`` is exactly uniform and
  independent under the null hypothesis, so its first ``b`` binary digits
  are exactly independent fair bits (:class:`OutcomeBits`; b = floor(log2 k)
  keeps the bits that the outcome mostly decides).  For k = 2^b equally
  likely outcomes (raw bytes: k = 256) these are exactly the outcome's own
  bits, without any jitter.

The reference distribution
--------------------------
SP 800-22 rev1a refers d = (N1 - N0) / sqrt(n · 0.95 · 0.05 / 4),
N0 = 0.95 n / 2, to the standard normal.  That variance was fitted by
simulation (Kim, Umeno & Hasegawa 2004) and is about 5 % too small: by
Parseval, Σ_j |f_j|² = n² exactly for ±1 sequences, so the periodogram
ordinates I_j = |f_j|²/n (asymptotically Exp(1)) have a fixed sum, and
conditioning the count N1 = Σ 1{I_j < t}, t = ln 20, on that sum gives

    Var(N1) = (n/2) [p(1 - p) - (t e^(-t))²],  p = 1 - e^(-t) = 0.95,

i.e. n · 0.012532 instead of NIST's n · 0.011875 (Pareschi, Rovatti & Setti
2012 also found NIST's reference distribution off).  Simulation agrees
(n = 1024: 12.87 ± 0.06 against 12.83 here and 12.16 in SP 800-22; tested).
With NIST's variance the test rejects a perfect generator 1.2 % of the time
at α = 1 %.  ``variance="corrected"`` (default) uses the derived variance;
``variance="sp800-22"`` reproduces the standard's statistic exactly.

References
----------
.. [1] A. Rukhin et al., "A statistical test suite for random and
   pseudorandom number generators for cryptographic applications", NIST SP
   800-22 rev1a (2010), §2.6 and §3.6.
.. [2] S.-J. Kim, K. Umeno and A. Hasegawa, "Corrections of the NIST
   statistical test suite for randomness", IACR ePrint 2004/018.
.. [3] F. Pareschi, R. Rovatti and G. Setti, "On statistical tests for
   randomness included in the NIST SP800-22 test suite and based on the
   binomial distribution", IEEE Trans. Inf. Forensics Security 7 (2012) 491-505.
.. [4] K. Hamano, "The distribution of the spectrum for the discrete Fourier
   transform test included in SP800-22", IEICE Trans. Fundamentals E88-A
   (2005) 67-73.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as _sps

from stats._accumulate import Accumulator, GroupCarry, aligned
from stats._results import NormalResult
from stats._validate import check_choice, check_int
from stats.outcome_bits import OutcomeBits, bits_from_bytes, bits_per_outcome  # noqa: F401  (re-exported)
from stats.power import normal_shift
from stats.registry import BatteryTest

VARIANCES = ("corrected", "sp800-22")
#: T² / n: the threshold T = sqrt(n ln(1/0.05)) leaves 5 % of Exp(1) ordinates above it.
LOG_TWENTY = math.log(20.0)
BELOW = 0.95
#: SP 800-22 §2.6.7: "it is recommended that each sequence to be tested consist of a minimum of 1000 bits".
MIN_BITS = 1000


_PLUS_MINUS = np.array([-1.0, 1.0])  # bit -> the ±1 the DFT transforms


def peak_count(bits):
    """N1 of SP 800-22 §2.6.4 steps 1-6: how many |f_j|, j = 0..n/2-1, are below T = sqrt(n ln 20).

    Parameters
    ----------
    bits : array_like of {0, 1}
        One sequence of n bits, or a 2-D array of sequences (one per row).

    Returns
    -------
    int, or numpy.ndarray of int (one count per row)
    """
    x = np.asarray(bits)
    n = x.shape[-1]
    f = np.fft.rfft(_PLUS_MINUS[x], axis=-1)[..., : n // 2]  # x_i = 2 bit - 1, in one pass
    power = f.real**2
    power += f.imag**2  # |f_j|² = re² + im², in place (the same sums as re² + im²)
    # |f_j| < T  <=>  |f_j|² < n ln 20: compare squares, no square roots.
    counts = np.count_nonzero(power < n * LOG_TWENTY, axis=-1)
    return int(counts) if x.ndim == 1 else counts


def peak_moments(n: int, variance: str = "corrected") -> tuple[float, float]:
    """Mean and standard deviation of N1 for n random bits (see the module doc)."""
    check_choice("variance", variance, VARIANCES)
    mean = BELOW * n / 2
    if variance == "sp800-22":
        return mean, math.sqrt(n * BELOW * (1 - BELOW) / 4)
    t_tail = LOG_TWENTY * (1 - BELOW)  # t e^(-t)
    return mean, math.sqrt(n / 2 * (BELOW * (1 - BELOW) - t_tail * t_tail))


def spectral_pvalue(count: int, n: int, variance: str = "corrected", *, blocks: int = 1) -> NormalResult:
    """d = (N1 - N0) / sd and its two-sided p-value erfc(|d| / sqrt 2), for ``blocks`` blocks of n bits.

    With ``variance="sp800-22"`` and one block this is exactly SP 800-22
    §2.6.4 steps 6-8.
    """
    mean, sd = peak_moments(n, variance)
    mean, sd = mean * blocks, sd * math.sqrt(blocks)
    d = (count - mean) / sd
    return NormalResult(float(d), float(math.erfc(abs(d) / math.sqrt(2.0))), int(n * blocks), float(count),
                        float(mean), float(sd))


class SpectralAccumulator(Accumulator):
    """Streaming core of :func:`spectral_test`: N1 of each block of ``block`` bits, summed.

    Blocks are disjoint, hence independent, so N1 summed over B blocks has
    B times the mean and variance of one block; memory is one block.
    Trailing bits that do not fill a block are not tested.
    """

    sums = ("count", "blocks")
    sync = aligned(lambda acc: acc.block)

    name = "spectral test"
    unit = "bits"
    takes = "bits"

    def __init__(self, *, block: int, variance: str = "corrected"):
        super().__init__()
        self.block = check_int("block", block, 2)
        check_choice("variance", variance, VARIANCES)
        self.variance = variance
        self.count = 0
        self.blocks = 0
        self._blocks = GroupCarry(self.block, np.uint8)

    def _check(self, chunk):
        bits = np.asarray(chunk)
        if bits.ndim != 1:
            raise ValueError(f"expected a 1-D array of bits, got shape {bits.shape}")
        if bits.size and (bits.dtype.kind not in "iub" or bits.min() < 0 or bits.max() > 1):
            raise ValueError("bits must be 0 or 1 (use bits_from_bytes for a byte stream)")
        return bits.astype(np.uint8, copy=False)

    def _update(self, bits):
        blocks = self._blocks.take(bits)
        for start in range(0, len(blocks), 64):  # 64 transforms at a time bound the work arrays
            self.count += int(peak_count(blocks[start: start + 64]).sum())
        self.blocks += len(blocks)

    def min_samples(self):
        return max(self.block, MIN_BITS)

    def _result(self):
        return spectral_pvalue(self.count, self.block, self.variance, blocks=self.blocks)


def spectral_test(bits, *, block: int | None = None, variance: str = "corrected") -> NormalResult:
    """Discrete Fourier transform (spectral) test of a bit stream (NIST SP 800-22 §2.6).

    Null hypothesis: the bits are independent and fair, so the share of
    Fourier peaks |f_j| at or above T = sqrt(n ln 20) is 5 %.

    Parameters
    ----------
    bits : array_like of {0, 1}
        The bit stream (:func:`bits_from_bytes` for bytes; :class:`OutcomeBits`
        for categorical outcomes).
    block : int, optional
        Bits per DFT.  Default: the whole sequence in one transform (the
        standard's test); an int splits the stream into disjoint blocks and
        sums their counts (what the streaming battery does).
    variance : {"corrected", "sp800-22"}, optional
        Reference variance of N1 (module doc): the derived one (default), or
        the standard's n · 0.95 · 0.05 / 4, to reproduce its statistic.

    Returns
    -------
    NormalResult
        ``statistic`` d, two-sided ``pvalue``, ``n`` bits tested,
        ``observed`` N1, ``expected`` N0 = 0.95 n/2, ``sd``.

    Raises
    ------
    InsufficientDataError
        Fewer than 1000 bits (SP 800-22 §2.6.7) or than one block.

    Notes
    -----
    The test sees broad-band changes of the spectrum (too many or too few
    peaks over a large share of frequencies).  A single periodic component
    moves N1 by one and goes unseen; the serial and serial-correlation tests
    catch those.  For a stream cut into blocks, periods longer than a block
    are not seen.
    """
    bits = np.asarray(bits)
    return SpectralAccumulator(block=max(2, bits.size) if block is None else block, variance=variance).run(bits)


def detectable_peak_share(result: NormalResult, alpha: float, power: float) -> float:
    """Smallest change δ of the share of peaks at or above T (5 % → 5 % ± δ) the test detects.

    N1 is a sum over n/2 frequencies, so a share change δ moves its mean by
    δ n/2; it is detected when that is (z_(1-α/2) + z_power) standard deviations.
    """
    return float(normal_shift(alpha, power) * result.sd / (result.n / 2))


#: Bits per DFT in the battery: 2^15 keeps the count N1 fine-grained (sd ≈ 20), 2^16 at most
#: bounds the work per transform; longer streams are cut into blocks whose counts add up.
SPECTRAL_BLOCKS = (1 << 15, 1 << 16)


def _battery_block(stream):
    """The spectral test on a bit stream (optional: needs one block of 2^15 bits)."""
    def arguments(ctx):
        return dict(block=SPECTRAL_BLOCKS[1] if ctx.items(stream) >= SPECTRAL_BLOCKS[1] else SPECTRAL_BLOCKS[0])

    return arguments


def _peaks(ctx, acc, result, alpha, power):
    from stats.power import Detectable

    return Detectable(detectable_peak_share(result, alpha, power),
                      "share of Fourier peaks at or above T at 5 % + δ", alpha, power)


BATTERY = [
    BatteryTest("spectral", ("categorical",), "bits", SpectralAccumulator, _battery_block("bits"), _peaks,
                required=False, order=280, function=spectral_test),
    BatteryTest("first-card-spectral", ("permutation",), "first-bits", SpectralAccumulator,
                _battery_block("first-bits"), _peaks, required=False, order=490),
]


__all__ = ["spectral_test", "spectral_pvalue", "peak_count", "peak_moments", "bits_from_bytes",
           "bits_per_outcome", "OutcomeBits", "SpectralAccumulator", "VARIANCES", "detectable_peak_share"]
