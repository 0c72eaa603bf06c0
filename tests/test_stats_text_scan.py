"""The text capture reader's C fast path (csrc/stats/tokenize.h) against a straightforward reference.

The reference reads a whole file at once with Python's own string methods:
universal newlines, ``str.isspace`` white space, commas and semicolons, quotes
stripped as the reader strips them.  The streaming reader (C for plain lines,
Python for the rest, two passes, resume points) must give the same outcomes,
row for row, and the same line for every row.
"""
import re

import numpy as np
import pytest

from stats.io import RESUME_ROWS, CaptureError, open_capture
from stats._text_scan import Vocabulary, scan
from tests.stats_support import device_spec

ROULETTE = device_spec("roulette-single")
DICE = device_spec("dice:2")
DECK = device_spec("deck")


def reference_lines(data: bytes):
    """(line number, values) of every outcome line: the whole file decoded and split at once."""
    text = data.decode("utf-8-sig")
    rows = []
    for number, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        values = [v.strip('"').strip("'") for v in re.split(r"[,;\s]+", line) if v]
        rows.append((number, values))
    if text.endswith(("\n", "\r")):
        assert re.split(r"\r\n|\r|\n", text)[-1] == ""
    return rows


def reference_read(data: bytes, spec, reading: str):
    """Label indices of a valid capture read as ``reading`` ("labels" or "indices"), and each row's line."""
    codec = spec.codec if hasattr(spec, "codec") else spec.as_kind().codec
    rows, lines = [], []
    for number, values in reference_lines(data):
        converted = [codec.index(v) if reading == "labels" else codec.as_index(v) for v in values]
        if None in converted:
            raise ValueError(f"line {number}: {values}")
        rows.append(converted)
        lines.append(number)
    return np.array(rows).reshape(len(rows), -1), lines


def _spellings(spec, reading):
    labels = list(spec.labels)
    if reading == "indices":
        return [str(i) for i in range(len(labels))] + ['"3"', "'1'"]
    return labels + [f'"{labels[0]}"', f"'{labels[-1]}'"]


def _random_file(rng, spec, reading, rows: int) -> bytes:
    width = int(spec.as_kind().width) if hasattr(spec, "as_kind") else 1
    words = _spellings(spec, reading)
    seps = [",", ";", " ", "\t", ", ", " ;", "\x1c", "\x0b"]
    ends = ["\n", "\r\n", "\r"]
    out = [f"# format: {reading}\n"]
    for _ in range(rows):
        kind = rng.integers(0, 40)
        if kind == 0:
            out.append(rng.choice(["", "   ", "# a comment, AS, 5", "\t#x"]) + rng.choice(ends))
            continue
        values = [words[int(rng.integers(0, len(words)))] for _ in range(width)]
        line = ""
        for j, v in enumerate(values):
            line += (seps[int(rng.integers(0, len(seps)))] if j else "") + v
        if kind == 1:
            line = " " + line + " \u00a0"  # a non-ASCII space: a line for the Python path
        elif kind == 2:
            line = ",;" + line + ";"
        out.append(line + ends[int(rng.integers(0, len(ends)))])
    if rng.integers(0, 2):
        out[-1] = out[-1].rstrip("\r\n")  # a last line without its terminator
    return "".join(out).encode()


def _device_shape(spec):
    return spec.as_kind() if hasattr(spec, "as_kind") else spec


@pytest.mark.parametrize("spec,reading", [(ROULETTE, "labels"), (ROULETTE, "indices"), (DICE, "labels"),
                                          (DECK, "labels")])
def test_streaming_reader_equals_the_reference(tmp_path, monkeypatch, spec, reading):
    import stats._text_scan
    import stats.io

    # tiny blocks and resume points: lines cut at every block boundary, many resume points
    monkeypatch.setattr(stats.io, "RESUME_ROWS", 7)
    monkeypatch.setattr(stats.io, "PROGRESS_CHUNK", 101)
    monkeypatch.setattr(stats._text_scan, "BLOCK", 97)
    rng = np.random.default_rng(len(spec.labels) * 31 + len(reading))
    checked = 0
    for case in range(12):
        data = _random_file(rng, spec, reading, int(rng.integers(1, 200)))
        path = tmp_path / f"c{case}.csv"
        path.write_bytes(data)
        expected, lines = reference_read(data, spec, reading)
        if not len(expected):
            continue
        capture = open_capture(path, spec)
        assert capture.reading == reading and capture.n == len(expected)
        rows = np.concatenate(list(capture.chunks(int(rng.integers(1, 30)))))
        assert np.array_equal(rows.reshape(len(expected), -1), expected), data[:200]
        for row in rng.integers(0, len(expected), 5):
            assert capture.locate(int(row)) == f"{path.name}, line {lines[row]}"
        checked += 1
    assert checked > 5


def test_kernel_stops_at_each_line_python_must_read():
    """The kernel reads a plain line itself and hands every other one back, at its start."""
    vocab = Vocabulary()
    for i, token in enumerate(["1", "2", "AS"]):
        vocab.add(token, i)
    seen = []

    def slow(number, raw, terminated, offset, rows):
        seen.append((number, raw, terminated, offset))
        return None if not raw.strip() or raw.startswith(b"#") else [0]

    data = b"1\n2\r\n\"AS\"\r7\n1\xc2\xa0\n#c\n" + b"2" * 100 + b"\n2"
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".csv") as handle:
        handle.write(data)
        handle.flush()
        batches = list(scan(handle.name, 0, 0, 1, vocab, 1000, slow, max_line=50, longest=80))
    ids = np.concatenate([b[0] for b in batches])
    # 1, 2, AS by the kernel; 7 (unknown), the non-ASCII line, the long line by Python (-> 0); 2 at the end
    assert ids.tolist() == [0, 1, 2, 0, 0, 0, 1]
    assert [(n, t) for n, _, t, _ in seen] == [(4, True), (5, True), (7, True)]
    assert seen[0][1:] == (b"7", True, data.index(b"7\n"))
    assert batches[-1][3] == 8  # lines read


def test_resume_points_are_few():
    """A text capture keeps one resume point per RESUME_ROWS rows: 10^9 rows need about 15,000."""
    assert RESUME_ROWS >= 1 << 16


def test_a_file_changed_after_it_was_checked_is_refused(tmp_path):
    path = tmp_path / "spins.csv"
    path.write_text("# format: labels\n" + "1\n" * 1000)
    capture = open_capture(path, ROULETTE)
    path.write_text("# format: labels\n" + "1\n" * 10)
    with pytest.raises(CaptureError, match="fewer outcomes than the 1,000"):
        capture.array()


@pytest.mark.parametrize("block", [1, 2, 3, 5, 8, 1 << 16])
def test_one_value_lines_of_one_two_and_more_bytes(tmp_path, block):
    """The kernel's one-value path (direct tables for 1- and 2-byte spellings, the hash for longer
    ones) reads what the general path reads, with lines and "\\r\\n" cut at any block boundary."""
    vocab = Vocabulary()
    for i, token in enumerate(["1", "12", "123", "AS"]):
        vocab.add(token, i + 1)
    handed = []

    def slow(number, raw, terminated, offset, rows):
        handed.append(raw)
        return None if not raw.strip() or raw.strip().startswith(b"#") else [99]

    data = b"1\n12\r\n123\r2\n13\n\"1\"\n12 \n#1\n 1\nAS\r\n1\r12"
    path = tmp_path / "one.csv"
    path.write_bytes(data)
    batches = list(scan(path, 0, 0, 1, vocab, 4, slow, max_line=50, longest=80, block=block))
    ids = np.concatenate([b[0] for b in batches]).tolist()
    # unknown spellings "2" and "13" (1 and 2 bytes: no entry in the direct tables) go to Python
    assert ids == [1, 2, 3, 99, 99, 1, 2, 1, 4, 1, 2]
    assert handed == [b"2", b"13"]
    assert batches[-1][3] == 12  # every line counted, the comment too
