"""Fuzzing the capture reader: a seeded mutational corpus; every case is a capture or a CaptureError.

The default run mutates a few thousand files; ``-m slow`` runs 10^5 more.
"""
import io

import numpy as np
import pytest

from stats.io import CaptureError, open_capture
from tests.stats_support import device_spec

DEVICES = [device_spec(name) for name in ("roulette-single", "dice:2", "deck", "bytes", "k-of-n:3:20")]
SUFFIXES = (".npy", ".csv", ".bin", "")
FORMATS = ("auto", "labels", "indices")


def _npy(array) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def _seeds():
    rng = np.random.default_rng(0)
    roulette, dice, deck = DEVICES[0], DEVICES[1], DEVICES[2]
    spins = rng.integers(0, 37, 200)
    rolls = rng.integers(0, 6, (100, 2))
    shuffles = np.array([rng.permutation(52) for _ in range(4)])
    return [
        ("\n".join(roulette.labels[i] for i in spins) + "\n").encode(),
        ("# rolls\n" + "\n".join(f"{dice.labels[a]},{dice.labels[b]}" for a, b in rolls) + "\n").encode(),
        ("\n".join(",".join(deck.labels[i] for i in row) for row in shuffles) + "\n").encode(),
        _npy(spins.astype(np.uint8)),
        _npy(rolls.astype(np.int64)),
        _npy(shuffles.astype(np.uint16)),
        _npy(np.array([roulette.labels[i] for i in spins])),
        _npy(np.asfortranarray(rolls.astype(np.uint8))),
        spins.astype(np.uint8).tobytes(),
        bytes(range(256)) * 3,
    ]


def _mutate(data: bytes, rng) -> bytes:
    b = bytearray(data)
    for _ in range(int(rng.integers(1, 4))):
        op = int(rng.integers(0, 7))
        at = int(rng.integers(0, len(b) + 1))
        if op == 0 and b:  # flip bits of one byte
            b[min(at, len(b) - 1)] ^= int(rng.integers(1, 256))
        elif op == 1:  # truncate
            del b[at:]
        elif op == 2:  # insert random bytes
            b[at:at] = rng.integers(0, 256, int(rng.integers(1, 16)), dtype=np.uint8).tobytes()
        elif op == 3:  # insert an interesting token
            tokens = [b"00", b"-1", b"1e9", b",", b"\n", b"\r", b"\x00", b"PK\x03\x04", b"\x93NUMPY", b"'", b"(",
                      b"9" * 80, b"\xff\xfe", b"AS", b"37", b"{", b"}", b"2" * 30]
            b[at:at] = tokens[int(rng.integers(0, len(tokens)))]
        elif op == 4 and b:  # duplicate a slice
            end = min(len(b), at + int(rng.integers(1, 64)))
            b[at:at] = b[at:end]
        elif op == 5:  # overwrite the .npy header region
            pos = int(rng.integers(0, min(len(b), 128) + 1))
            b[pos:pos + 8] = rng.integers(0, 256, 8, dtype=np.uint8).tobytes()
        else:  # drop a slice
            del b[at:at + int(rng.integers(1, 32))]
    return bytes(b)


def _run(cases: int, seed: int, tmp_path) -> dict:
    rng = np.random.default_rng(seed)
    seeds = _seeds()
    outcomes = {"read": 0, "refused": 0}
    for case in range(cases):
        data = _mutate(seeds[case % len(seeds)], rng)
        path = tmp_path / f"case{SUFFIXES[int(rng.integers(0, len(SUFFIXES)))]}"
        path.write_bytes(data)
        spec = DEVICES[int(rng.integers(0, len(DEVICES)))]
        fmt = FORMATS[int(rng.integers(0, len(FORMATS)))]
        try:
            capture = open_capture(path, spec, format=fmt)
            rows = np.concatenate(list(capture.chunks(37)))
        except CaptureError as exc:
            assert str(exc).startswith(path.name + ":") or str(exc).startswith(str(path)), str(exc)
            outcomes["refused"] += 1
            continue
        except Exception as exc:  # noqa: BLE001 - the point of a fuzz test
            raise AssertionError(f"case {case} (seed {seed}, {path.name}, {spec.name}, {fmt}): "
                                 f"{type(exc).__name__}: {exc}; data {data[:120]!r}") from exc
        assert len(rows) == capture.n > 0
        assert rows.min() >= 0 and rows.max() < len(spec.labels)
        outcomes["read"] += 1
    return outcomes


def test_fuzz_capture_reader_default(tmp_path):
    outcomes = _run(3000, 1, tmp_path)
    assert outcomes["read"] > 100 and outcomes["refused"] > 1000  # both paths exercised


@pytest.mark.slow
def test_fuzz_capture_reader_slow(tmp_path):
    outcomes = _run(100_000, 2, tmp_path)
    assert outcomes["read"] > 1000 and outcomes["refused"] > 10_000
