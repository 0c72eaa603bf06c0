"""numpy interop: run every ``numpy.random.Generator`` distribution on our bits.

``numpy.random.Generator(bit_generator)`` needs only two things from its
argument: ``capsule``, a PyCapsule named ``"BitGenerator"`` that points at a
``bitgen_t`` (five C function pointers and their state), and ``lock``, the
lock numpy holds while it draws.  :class:`ChaChaBitGenerator` provides both
over an :class:`rngcore.Generator`:

* the ``bitgen_t`` callbacks are C (``csrc/core/numpy_bitgen.c``) and draw through
  the generator's ``rng_source``, so numpy consumes the very keystream the
  audit contract describes: ``next_uint64`` (and ``next_raw``) is the next
  8 keystream bytes read little-endian, ``next_uint32`` the next 4, and
  ``next_double`` is ``(next_uint64 >> 11) * 2**-53``;
* ``lock`` is the generator's own lock, so numpy and rngcore's methods
  never interleave on one engine (numpy holds it around every draw).

In replay mode a third party can therefore reproduce a numpy draw from the
seed, the stream id and the keystream position alone.  numpy's algorithms
(its Ziggurat normals, its own bounded integers, its shuffle) are numpy's;
only the bits are certified here.  Games pick outcomes with rngcore's own
unbiased primitives, not through numpy.

Failure: numpy's C interface cannot report an error.  If the generator's
source fails while numpy draws (production mode, the OS refusing entropy at
a reseed or in a forked child), the C callbacks ``abort()`` the process, as
glibc's ``arc4random`` does: the alternatives are handing out words that are
not random or hanging in one of numpy's rejection loops.  A generator that
has already failed is refused at construction (``EntropyError``).

Examples
--------
>>> import rngcore.numpy_interop as ni
>>> rng = ni.numpy_generator(seed=bytes(range(32)), stream=7)
>>> rng.integers(0, 37, size=3)  # doctest: +SKIP
"""
from __future__ import annotations

import ctypes
import operator

import numpy as np

from rngcore._native import ffi, lib
from rngcore.errors import raise_for_status
from rngcore.generator import Generator

__all__ = ["ChaChaBitGenerator", "numpy_generator"]

_PyCapsule_New = ctypes.pythonapi.PyCapsule_New
_PyCapsule_New.restype = ctypes.py_object
_PyCapsule_New.argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)

# The name is a C string with static storage: a capsule keeps only the pointer.
_CAPSULE_NAME = lib.rng_numpy_capsule_name()


def _address(pointer) -> int:
    return int(ffi.cast("uintptr_t", pointer))


class ChaChaBitGenerator:
    """A numpy BitGenerator drawing from an :class:`rngcore.Generator`.

    Parameters
    ----------
    generator : rngcore.Generator
        The source of bits.  It is shared, not copied: numpy's draws and the
        generator's own methods consume one keystream, in call order.

    Attributes
    ----------
    capsule : PyCapsule
        Named ``"BitGenerator"``; points at this object's ``bitgen_t``.  Valid
        while this object lives (numpy's Generator keeps a reference).
    lock : threading.Lock
        The generator's own lock (the same object), held by numpy while it draws.

    Raises
    ------
    TypeError
        If ``generator`` is not an :class:`rngcore.Generator`.
    rngcore.errors.RNGError
        If the generator has already failed (e.g. ``EntropyError``).

    Notes
    -----
    If the source fails during a numpy draw the process is aborted (see the
    module docstring); numpy never receives words from a failed source.
    """

    def __init__(self, generator: Generator):
        if not isinstance(generator, Generator):
            raise TypeError(
                f"ChaChaBitGenerator needs an rngcore.Generator, got {type(generator).__name__}"
            )
        self._generator = generator
        self._bitgen = ffi.new("rng_numpy_bitgen *")
        with generator.lock:  # the init's zero-byte fill runs the engine's checks
            status = lib.rng_numpy_bitgen_init(self._bitgen, generator.source)
        raise_for_status(status, "ChaChaBitGenerator")
        self.lock = generator.lock
        self.capsule = _PyCapsule_New(_address(self._bitgen), _address(_CAPSULE_NAME), None)

    @property
    def generator(self) -> Generator:
        """The :class:`rngcore.Generator` this object draws from."""
        return self._generator

    def random_raw(self, size=None):
        """Values of ``next_raw`` (== ``next_uint64``), as numpy's BitGenerators offer.

        One C call per value through the ``bitgen_t`` itself, so it shows
        exactly what numpy sees; meant for audits and tests, not for speed.

        Parameters
        ----------
        size : int or None
            None for one Python int, else the length of a ``uint64`` array.
        """
        next_raw = self._bitgen.next_raw
        state = self._bitgen.state
        if size is None:
            with self.lock:
                return int(next_raw(state))
        count = operator.index(size)
        if count < 0:
            raise ValueError(f"random_raw: size must be >= 0, got {size}")
        with self.lock:
            return np.fromiter((next_raw(state) for _ in range(count)), np.uint64, count)

    def spawn(self, n_children: int) -> list["ChaChaBitGenerator"]:
        """Bit generators over ``generator.spawn(n_children)`` (what
        ``numpy.random.Generator.spawn`` calls)."""
        return [type(self)(child) for child in self._generator.spawn(n_children)]

    def __reduce__(self):
        raise TypeError(
            "ChaChaBitGenerator cannot be pickled: it shares a live engine; "
            "recreate it from the seed and stream (replay mode) instead"
        )

    def __repr__(self) -> str:
        return f"ChaChaBitGenerator({self._generator!r})"


def numpy_generator(seed=None, stream=None) -> np.random.Generator:
    """A ``numpy.random.Generator`` on a new :class:`rngcore.Generator`.

    Parameters
    ----------
    seed : bytes, str or None
        None for production mode (OS entropy); 32 bytes or 64 hex digits for
        replay mode, which makes every numpy draw reproducible.
    stream : int, optional
        Replay stream id in ``[0, 2**64)`` (default 0).
    """
    return np.random.Generator(ChaChaBitGenerator(Generator(seed, stream)))
