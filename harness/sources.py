"""Where the battery's outcomes come from: a device by name, rows drawn from it, the first n rows of a capture.

``rngcert test`` and ``rngcert certify`` both test a device named on the
command line or in a plan, on outcomes drawn from our own device or read
from a capture file; this is the one place that knows how.
"""
from __future__ import annotations

from typing import Iterable, Iterator

#: Values (outcomes × values per outcome) per chunk fed to the battery: bounded memory, frequent progress.
CHUNK_VALUES = 1 << 20


def device_to_test(name: str):
    """The device to test: one a kind names itself (``bytes``, ``k-of-n:K:N``) or a registry device.

    Raises
    ------
    ValueError
        Neither knows ``name`` (the message lists the registry's devices).
    """
    from stats.kinds import parse_device

    kind = parse_device(name)
    if kind is not None:
        return kind
    from rngcore.devices import device_spec

    return device_spec(name)


def rows_per_chunk(kind, values: int | None = None) -> int:
    """Outcome rows in a chunk of about ``values`` values of ``kind`` (:data:`CHUNK_VALUES` when None,
    read at each call, so that a test lowering it lowers every run's chunks)."""
    return max(1, (CHUNK_VALUES if values is None else int(values)) // int(kind.width))


def drawn(spec, generator, n: int, rows: int) -> Iterator:
    """``n`` outcomes of our device ``spec`` drawn from ``generator``, ``rows`` at a time."""
    left = n
    while left > 0:
        take = min(left, rows)
        yield spec.draw(generator, take)
        left -= take


def first(chunks: Iterable, n: int) -> Iterator:
    """The first ``n`` rows of an iterable of chunks (a capture file read in chunks)."""
    done = 0
    for part in chunks:
        take = min(len(part), n - done)
        if take <= 0:
            return
        yield part[:take]
        done += take


__all__ = ["device_to_test", "rows_per_chunk", "drawn", "first", "CHUNK_VALUES"]
