"""Serial correlation at lags 1..K (Ljung–Box portmanteau)."""
from __future__ import annotations

import numpy as np
from scipy import stats as _sps

from stats._accumulate import Accumulator, last
from stats._results import SerialCorrelationResult
from stats._validate import check_int
from stats import _detect
from stats.registry import BatteryTest


class SerialCorrelationAccumulator(Accumulator):
    """Streaming core of :func:`serial_correlation_test`.

    Keeps Σx, Σx², the lagged sums Σ x_i x_(i+j), and the first and last K
    values (to correct the lagged sums for the sample mean exactly).  Integer
    data are summed in int64, so the sums are exact.
    """

    name = "serial correlation test"
    # Integer sums add exactly (a float stream's refuse to merge); the first K values are the
    # earlier segment's, and the K values after a cut finish the lagged products across it.
    sums = ("_sum", "_sum2", "_lagged")
    firsts = ("_head",)
    sync = last(lambda acc: acc.lags)

    def __init__(self, *, lags=5):
        super().__init__()
        self.lags = check_int("lags", lags, 1, 1000)
        self._sum = 0
        self._sum2 = 0
        self._lagged = None  # Σ x_i x_(i+j), j = 1..K, in the stream's dtype (int64 or float64)
        self._head = None
        self._tail = None
        self._integer = None

    def _check(self, chunk):
        array = np.asarray(chunk)
        if array.ndim != 1:
            raise ValueError(f"expected a 1-D array of values, got shape {array.shape}")
        if self._integer is None:
            self._integer = array.dtype.kind in "iub"
        if self._integer:
            if array.dtype.kind not in "iub":
                raise ValueError("stream switched from integer to floating-point values")
            return array.astype(np.int64)
        return array.astype(np.float64)

    def _update(self, x):
        K = self.lags
        if self._lagged is None:
            self._lagged = np.zeros(K, dtype=x.dtype)
        self._sum += x.sum()
        self._sum2 += (x * x).sum()
        head = x[:K] if self._head is None else np.concatenate([self._head, x[: max(0, K - self._head.size)]])
        self._head = head[:K].copy()
        carry = self._tail if self._tail is not None else x[:0]
        data = np.concatenate([carry, x])
        c = carry.size
        for j in range(1, K + 1):
            start = max(0, c - j)  # pairs whose second element is new
            if data.size - j > start:
                self._lagged[j - 1] += np.dot(data[start: data.size - j], data[start + j:])
        self._tail = data[-K:].copy()

    def min_samples(self):
        return max(50, 10 * self.lags)

    def coefficients(self) -> np.ndarray:
        """Serial correlation coefficients r_1..r_K of the data so far."""
        n, K = self.n, self.lags
        mean = self._sum / n
        denominator = float(self._sum2 - n * mean * mean)
        r = np.zeros(K)
        if denominator <= 0:
            return r
        head, tail = self._head.astype(np.float64), self._tail.astype(np.float64)
        for j in range(1, K + 1):
            first_part = float(self._sum) - tail[tail.size - j:].sum()   # Σ_{i<=n-j} x_i
            second_part = float(self._sum) - head[:j].sum()              # Σ_{i>j} x_i
            numerator = float(self._lagged[j - 1]) - mean * (first_part + second_part) + (n - j) * mean * mean
            r[j - 1] = numerator / denominator
        return r

    def _result(self):
        n, K = self.n, self.lags
        r = self.coefficients()
        statistic = float(n * (n + 2) * np.sum(r**2 / (n - np.arange(1, K + 1))))
        pvalue = float(_sps.chi2.sf(statistic, K))
        return SerialCorrelationResult(statistic, pvalue, K, n, tuple(float(v) for v in r))


def serial_correlation_test(x, *, lags: int = 5) -> SerialCorrelationResult:
    """Serial correlation test at lags 1..K (Ljung–Box).

    Null hypothesis: the values are independent (so every serial correlation
    coefficient is zero).

    Parameters
    ----------
    x : array_like of numbers
        The outcomes as numbers (for categorical devices, the category index,
        which for wheels is the position on the wheel).
    lags : int, optional
        Largest lag K.

    Returns
    -------
    SerialCorrelationResult
        ``statistic`` Q = n (n + 2) Σ_j r_j² / (n - j), ``df`` = K and the
        coefficients r_j = Σ (x_i - x̄)(x_(i+j) - x̄) / Σ (x_i - x̄)².

    Notes
    -----
    Under independence √n r_j are asymptotically independent standard normal
    variables, so Q is asymptotically chi-square with K df [1]_, [2]_; valid
    for n >= 50 and K << n.  Knuth's single-lag coefficient [3]_ is r_1.

    References
    ----------
    .. [1] G. E. P. Box and D. A. Pierce, "Distribution of residual
       autocorrelations ...", J. Amer. Statist. Assoc. 65 (1970) 1509-1526.
    .. [2] G. M. Ljung and G. E. P. Box, "On a measure of lack of fit in time
       series models", Biometrika 65 (1978) 297-303.
    .. [3] D. E. Knuth, *The Art of Computer Programming*, Vol. 2, 3rd ed.,
       §3.3.2 K, Addison-Wesley, 1997.
    """
    return SerialCorrelationAccumulator(lags=lags).run(x)


BATTERY = [
    BatteryTest("serial-correlation", ("categorical",), "values", SerialCorrelationAccumulator,
                lambda ctx: dict(lags=5), _detect.correlation, order=220, function=serial_correlation_test),
    BatteryTest("first-card-serial-correlation", ("permutation",), "first", SerialCorrelationAccumulator,
                lambda ctx: dict(lags=5), _detect.correlation, order=470),
]


__all__ = ["serial_correlation_test", "SerialCorrelationAccumulator"]
