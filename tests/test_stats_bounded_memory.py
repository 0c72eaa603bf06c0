"""Memory of `rngcert test` on a capture does not grow with n: the readers stream, the battery keeps no chunk.

Once a 10^7-line CSV took 1.5 GB (every value a Python string, then two
bytes a value and eight a row), and the battery kept every chunk's derived
streams alive until the cyclic garbage collector ran (about 13 bytes per
outcome).  Here peak traced memory is measured at two sizes eight times
apart and must stay (nearly) the same; the 10^8-outcome run under an
address-space cap is in the slow tests.
"""
import gc
import os
import resource
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

from stats.battery import Battery
from stats.io import open_capture
from tests.stats_support import device_spec

ROULETTE = device_spec("roulette-single")
CHUNK = 1 << 16


def _peak(action) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _spins(n: int) -> np.ndarray:
    return np.random.default_rng(n).integers(0, 37, n).astype(np.uint8)


def _write(tmp_path, n: int, container: str):
    spins = _spins(n)
    path = tmp_path / f"spins{n}.{container}"
    if container == "csv":
        labels = np.array(ROULETTE.labels)
        path.write_text("# format: labels\n" + "\n".join(labels[spins]) + "\n")
    elif container == "npy":
        np.save(path, spins)
    else:
        path.write_bytes(spins.tobytes())
    return path


def _read_all(path):
    capture = open_capture(path, ROULETTE, format="auto" if path.suffix == ".csv" else "indices")
    total = 0
    for chunk in capture.chunks(CHUNK):
        total += len(chunk)
    assert total == capture.n


@pytest.mark.parametrize("container", ["csv", "npy", "bin"])
def test_reading_a_capture_takes_the_same_memory_at_any_n(tmp_path, container, monkeypatch):
    import stats.io

    # Blocks of the checking pass smaller than either file (as a 10^9-line capture's are): a file
    # smaller than one block is held whole, and would look like memory growing with n.
    monkeypatch.setattr(stats.io, "PROGRESS_CHUNK", 1 << 16)
    small, large = _write(tmp_path, 100_000, container), _write(tmp_path, 800_000, container)
    peaks = [_peak(lambda p=p: _read_all(p)) for p in (small, large)]
    assert peaks[1] < 1.25 * peaks[0] + (1 << 20), peaks  # 8x the outcomes, not 8x the memory


def test_the_battery_keeps_no_chunk_alive():
    """Each chunk's derived streams are freed when the update returns, not when the cyclic GC runs."""
    chunks = [_spins(CHUNK // 2 + i) for i in range(10)]

    def feed(count):
        battery = Battery(ROULETTE, count * CHUNK // 2, tests=["frequency", "spectral"])  # (bits read uniforms)
        for chunk in chunks[:count]:
            battery.update(chunk)

    gc.disable()  # as between two runs of the collector
    try:
        few, many = _peak(lambda: feed(2)), _peak(lambda: feed(10))
    finally:
        gc.enable()
    assert many < 1.1 * few + (1 << 19), (few, many)


def _capped_run(path, cap_bytes: int, *args) -> subprocess.CompletedProcess:
    """``rngcert test`` on ``path`` in a child process whose address space is capped."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (cap_bytes, cap_bytes))

    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    command = [sys.executable, "-c", "from harness.cli import main; main()", "test", "roulette-single"]
    return subprocess.run([*command, "--input", str(path), "--json", *args], capture_output=True, text=True,
                          preexec_fn=limit, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("container", ["csv", "npy"])
def test_1e8_outcomes_under_an_address_space_cap(tmp_path, container):
    """The issue's bound: 10^8 outcomes of any format tested within a 1 GiB address-space cap."""
    n = int(os.environ.get("RNGCERT_MEMORY_STUDY_N", 10**8))
    path = tmp_path / f"spins.{container}"
    rng = np.random.default_rng(8)
    if container == "npy":
        data = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint8, shape=(n,))
        for start in range(0, n, 1 << 24):
            data[start:start + (1 << 24)] = rng.integers(0, 37, min(1 << 24, n - start))
        data.flush()
        del data
    else:
        labels = np.array(ROULETTE.labels)
        with open(path, "w") as out:
            out.write("# format: labels\n")
            for start in range(0, n, 1 << 22):
                out.write("\n".join(labels[rng.integers(0, 37, min(1 << 22, n - start))]) + "\n")
    args = ["--format", "indices"] if container == "npy" else []
    done = _capped_run(path, 1 << 30, *args, "--test", "frequency", "--test", "serial-pairs", "--test", "gap",
                       "--test", "ks-subsequences", "--test", "spectral")
    assert done.returncode in (0, 1), done.stderr
    assert f'"n": {n}' in done.stdout


def test_a_chunk_reads_only_the_bytes_its_rows_span(tmp_path):
    """Reading a text capture chunk by chunk holds about one chunk's text, not a default-size block
    (8 MB, for 190 kB of rows here)."""
    capture = open_capture(_write(tmp_path, 800_000, "csv"), ROULETTE)
    peak = _peak(lambda: sum(len(chunk) for chunk in capture.chunks(CHUNK)))
    assert peak < 2 << 20, peak
