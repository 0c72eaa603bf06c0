"""Randomized probability integral transform: categorical outcomes → exact uniforms.

Tests built for continuous data (runs up and down, order patterns) assume no
ties; wheel, dice and card outcomes tie often.  For an outcome in category
``c`` with ``F(c-) = p_0 + ... + p_(c-1)``, the randomized PIT

    u = F(c-) + w * p_c,   w ~ U[0, 1) independent of the data,

is *exactly* uniform on [0, 1) and independent across outcomes whenever the
outcomes are independent with distribution p [1]_, so every continuous test
applies exactly.  The jitter ``w`` comes from a fixed, published stream
(numpy's PCG64 seeded with :data:`DEFAULT_JITTER_SEED`, 53-bit floats built
from its raw 64-bit output, which numpy keeps stable across versions), so the
same input always gives the same p-values.

References
----------
.. [1] P. J. Brockwell, "Universal residuals: a multivariate transformation",
   Statist. Probab. Lett. 77 (2007) 1473-1478; the randomized PIT goes back
   to E. S. Pearson (1950) and is standard for discrete data.
"""
from __future__ import annotations

import numpy as np

from stats import _sp800_22_native as _native
from stats._validate import as_float, category_array, exact_probabilities

DEFAULT_JITTER_SEED = 0x5EED_0F_C0FFEE


class JitterStream:
    """Reproducible stream of uniforms in [0, 1) for tie-breaking.

    Parameters
    ----------
    seed : int, optional
        Seed of the PCG64 stream (default :data:`DEFAULT_JITTER_SEED`).
    """

    def __init__(self, seed: int = DEFAULT_JITTER_SEED):
        self.seed = int(seed)
        self.seek(0)

    def seek(self, position: int) -> None:
        """Stand at uniform ``position`` of the stream (as if that many had been drawn): one PCG64 step each."""
        self._bits = np.random.PCG64(self.seed)
        self._bits.advance(int(position))
        # numpy's float64 draw is (raw >> 11) * 2^-53 of one raw output, the stream's uniform itself,
        # written straight into the caller's array
        self._uniforms = np.random.Generator(self._bits)

    def next(self, n: int) -> np.ndarray:
        """The next ``n`` uniforms (53-bit resolution)."""
        return self.fill(np.empty(int(n)))

    def fill(self, out: np.ndarray) -> np.ndarray:
        """Write the next ``out.size`` uniforms into ``out`` (a float64 array); returns it."""
        self._uniforms.random(out=out)
        return out


class RandomizedPIT:
    """Map category indices to exact U[0, 1) values, chunk after chunk.

    Parameters
    ----------
    probabilities : int or sequence
        The device's distribution of one outcome.
    seed : int, optional
        Jitter stream seed.
    """

    def __init__(self, probabilities, seed: int = DEFAULT_JITTER_SEED):
        self.p = as_float(exact_probabilities(probabilities))
        self.k = self.p.size
        cumulative = np.concatenate([[0.0], np.cumsum(self.p)[:-1]])
        self.lower = cumulative
        self.jitter = JitterStream(seed)

    def seek(self, position: int) -> None:
        """Stand at value ``position`` of the stream (a segment that starts there; see :meth:`JitterStream.seek`)."""
        self.jitter.seek(position)

    def __call__(self, x, out: np.ndarray | None = None) -> np.ndarray:
        """The PIT values of the category indices ``x``: a new array, or written into ``out`` (a
        float64 array of ``x``'s length) and returned, so a stream of chunks reuses one array."""
        x = _narrow(category_array(x, self.k))
        u = np.empty(x.size) if out is None else out
        if u.shape != x.shape or u.dtype != np.float64 or not u.flags.c_contiguous:
            raise ValueError(f"out must be a contiguous float64 array of {x.size} values, got {u.dtype} {u.shape}")
        self.jitter.fill(u)
        ffi, lib = _native._lib()
        # u = lower[x] + w * p[x] in one pass (csrc/stats/pit.h), bit for bit as numpy computes it
        _native._check(lib.stat_pit(ffi.from_buffer(x), x.size, x.dtype.itemsize, self.k,
                                    ffi.from_buffer("double[]", self.lower), ffi.from_buffer("double[]", self.p),
                                    ffi.from_buffer("double[]", u, require_writable=True)),
                       "randomized PIT")
        return u


def _narrow(x: np.ndarray) -> np.ndarray:
    """Category indices (checked, so in [0, k)) as contiguous unsigned values of 1, 2 or 4 bytes."""
    if x.dtype in (np.uint8, np.uint16, np.uint32):
        return np.ascontiguousarray(x)
    top = int(x.max()) if x.size else 0
    return x.astype(np.uint8 if top < 1 << 8 else np.uint16 if top < 1 << 16 else np.uint32)


def randomized_pit(x, probabilities, *, seed: int = DEFAULT_JITTER_SEED) -> np.ndarray:
    """Randomized probability integral transform of category indices.

    Parameters
    ----------
    x : array_like of int
        Category indices in [0, k).
    probabilities : int or sequence
        Exact distribution of one outcome.
    seed : int, optional
        Seed of the jitter stream.

    Returns
    -------
    numpy.ndarray of float64
        ``u_i = F(x_i - 1) + w_i p_(x_i)``: independent U[0, 1) values when the
        x_i are independent with distribution p.
    """
    return RandomizedPIT(probabilities, seed)(x)


def continuous_input(x, probabilities, seed: int) -> np.ndarray:
    """``x`` itself when continuous (probabilities None), else its randomized PIT.

    Raises ValueError when integer data with ties are given without a
    distribution: continuous tests need ties broken by the PIT.
    """
    if probabilities is not None:
        return randomized_pit(x, probabilities, seed=seed)
    array = np.asarray(x)
    if array.ndim != 1:
        raise ValueError(f"expected a 1-D array, got shape {array.shape}")
    if array.dtype.kind in "iub":
        raise ValueError(
            "integer outcomes tie; pass probabilities= (the device's distribution) so ties are "
            "broken by the randomized probability integral transform"
        )
    return np.asarray(array, dtype=np.float64)
