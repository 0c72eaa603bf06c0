"""Capture-reading bench cases (issue 18): a 10^6-line CSV capture read by the streaming reader.

The reader checks the file (C for plain lines, the reader's Python code for
the rest), then reads it chunk by chunk; the same-run baseline is the plain
Python way (split the whole text, int() every value), which holds every
value as a Python object.  Both answers are checked against the counts of
the outcomes written.
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from harness.benchcases._base import BenchCase

LINES = 10**6
K = 37


@lru_cache(maxsize=1)
def _capture() -> tuple[Path, np.ndarray]:
    """A CSV of LINES roulette label indices (declared), and its counts."""
    values = np.random.default_rng(18).integers(0, K, LINES)
    folder = Path(tempfile.mkdtemp(prefix="rngcert-bench-capture-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "spins.csv"
    path.write_text("# format: indices\n" + "\n".join(map(str, values.tolist())) + "\n")
    return path, np.bincount(values, minlength=K)


def _streamed():
    from rngcore.devices import device_spec
    from stats.io import open_capture

    path, _ = _capture()
    spec = device_spec("roulette-single")

    def read():
        counts = np.zeros(K, dtype=np.int64)
        for chunk in open_capture(path, spec).chunks(1 << 20):
            counts += np.bincount(chunk, minlength=K)
        return counts
    return read


def _python():
    path, _ = _capture()

    def read():
        text = path.read_text().split("\n", 1)[1]
        return np.bincount(np.array([int(v) for v in text.split()]), minlength=K)
    return read


def _check(counts) -> None:
    assert np.array_equal(counts, _capture()[1]), "the capture's counts differ from the outcomes written"


GROUP = "capture-csv-1e6"
CASES = [
    BenchCase(GROUP, "rngcert-stream", _streamed, LINES, "values", check=_check),
    BenchCase(GROUP, "python-split", _python, LINES, "values", baseline=True, check=_check),
]
