"""Malformed capture files end in the reader's own error, naming the file; memory is bounded first.

Each case here failed before the reader checked it (AttributeError, MemoryError,
BadZipFile, IndexError, TokenError, EOFError read as Ctrl-C, raw numpy text).
"""
import io
import json
import tracemalloc

import numpy as np
import pytest
from click.testing import CliRunner

from harness.cli import main
from stats.io import CaptureError, open_capture, read_capture
from tests.stats_support import device_spec

ROULETTE = device_spec("roulette-single")


def _text(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def _npy_bytes(array) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def _header(shape, descr="|u1") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": descr, "fortran_order": False, "shape": shape})
    return buf.getvalue()


def _raw_header(text: bytes) -> bytes:
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text


def _npz_bytes() -> bytes:
    buf = io.BytesIO()
    np.savez(buf, a=np.zeros(10, dtype=np.uint8))
    return buf.getvalue()


CASES = {
    "npz renamed": (_npz_bytes(), "zip archive (an .npz?)"),
    "zip magic only": (b"PK\x03\x04", "zip archive"),
    "shape 2^62": (_header((2**62,)) + bytes(10), "announces 4,611,686,018,427,387,904 values"),
    "0-d array": (_npy_bytes(np.uint8(7)), "a 0-d array"),
    "truncated header": (_header((100,))[:30], "truncated .npy header"),
    "unclosed header": (_raw_header(b"{'descr': '|u1', 'shape': (1" + b" " * 40 + b"\n"), "malformed .npy header"),
    "header not a dict": (_raw_header(b"[1, 2, 3]\n"), "needs exactly descr"),
    "negative shape": (_raw_header(b"{'descr': '|u1', 'fortran_order': False, 'shape': (-1,)}\n"), "shape (-1,)"),
    "bad descr": (_raw_header(b"{'descr': 'zz9', 'fortran_order': False, 'shape': (3,)}\n") + bytes(3),
                  "dtype 'zz9' is not readable"),
    "empty": (b"", "file is empty"),
    "magic only": (b"\x93NUMPY", "unknown .npy format version"),
    "truncated data": (_npy_bytes(np.zeros(1000, dtype=np.uint8))[:-10], "file holds 990 bytes"),
    "object dtype": (_header((3,), "|O"), "integer label indices or label strings, got object"),
    "float data": (_npy_bytes(np.zeros(5)), "got float64"),
    "not npy": (b"hello world, not numpy\n", "magic bytes"),
}


@pytest.mark.parametrize("name", CASES)
def test_malformed_npy_gives_the_readers_error_with_the_file_name(tmp_path, name):
    content, message = CASES[name]
    path = tmp_path / "capture.npy"
    path.write_bytes(content)
    with pytest.raises(CaptureError, match="^capture.npy: ") as info:
        read_capture(path, ROULETTE, format="indices")
    assert message in str(info.value)


@pytest.mark.parametrize("name", ["empty", "truncated data", "npz renamed", "shape 2^62"])
def test_malformed_npy_at_the_cli_is_one_line_and_exit_2(tmp_path, name):
    path = tmp_path / "capture.npy"
    path.write_bytes(CASES[name][0])
    r = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path), "--format", "indices"])
    assert r.exit_code == 2, r.output
    assert "Aborted" not in r.output and "Traceback" not in r.output
    assert "capture.npy" in r.output and len(r.output.strip().splitlines()) == 1


def test_one_huge_token_is_refused_before_any_large_allocation(tmp_path):
    """A 220 KB CSV with one 200,000-character token once asked numpy for 7.45 GiB."""
    path = tmp_path / "spins.csv"
    path.write_text("1\n" * 10_000 + "7" * 200_000 + "\n")
    tracemalloc.start()
    try:
        with pytest.raises(CaptureError, match=r"spins.csv: line 10001: '7{20}\.\.\. "
                                               r"\(200,000 characters\)' is longer than any label"):
            read_capture(path, ROULETTE)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20


def test_overlong_line_and_token_limits(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("1," * 600_000 + "1\n")
    with pytest.raises(CaptureError, match="line 1 is longer than 1,048,576 characters"):
        read_capture(path, ROULETTE)


def test_npy_labels_and_indices_are_explicit(tmp_path):
    """Pocket numbers saved as .npy: read as indices they would be wheel-order positions, so an integer
    .npy of a numbered device needs --format; --format labels reads them as printed."""
    numbers = np.array([0, 32, 15, 36, 0], dtype=np.int64)
    path = tmp_path / "pockets.npy"
    np.save(path, numbers)
    with pytest.raises(CaptureError, match="labels are numbers too: pass format 'indices'"):
        open_capture(path, ROULETTE)
    as_labels = open_capture(path, ROULETTE, format="labels")
    assert as_labels.reading == "labels"
    assert [ROULETTE.labels[i] for i in as_labels.array()] == ["0", "32", "15", "36", "0"]
    as_indices = open_capture(path, ROULETTE, format="indices")
    assert as_indices.array().tolist() == [0, 32, 15, 36, 0]
    np.save(path, np.array([37]))
    with pytest.raises(CaptureError, match="outcome 0: 37 is not a label of roulette-single"):
        read_capture(path, ROULETTE, format="labels")
    deck = device_spec("deck")  # card labels are not numbers: an integer .npy can only be indices
    np.save(tmp_path / "deck.npy", np.tile(np.arange(52, dtype=np.uint8), (3, 1)))
    assert open_capture(tmp_path / "deck.npy", deck).reading == "indices"


def test_cli_shows_the_reading_and_says_when_samples_exceed_the_file(tmp_path):
    path = tmp_path / "spins.npy"
    np.save(path, np.random.default_rng(1).integers(0, 37, 20_000).astype(np.uint8))
    r = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path)])
    assert r.exit_code == 2 and "pass format 'indices'" in r.output
    r = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path), "--format", "indices",
                                  "--samples", "50000"])
    assert r.exit_code == 0, r.output
    assert "--samples 50,000 is more than the 20,000 outcomes in spins.npy; testing all 20,000" in r.stderr
    assert "20,000 outcomes read from" in r.stdout and "(npy, read as indices: --format indices)" in r.stdout
    assert "--samples 50,000 asked for more than the file's 20,000" in r.stdout


def test_bad_shoe_is_named_by_its_line_and_cards(tmp_path):
    """Once `shuffle 499: label 0: 9 instead of 8`; now the line of the file and the cards, by label."""
    import rngcore

    spec = device_spec("shoe:8")
    rows = spec.draw(rngcore.Generator(bytes(range(32))), 600)
    ks = spec.labels.index("KS")
    row = rows[498]
    row[np.flatnonzero(row == ks)[0]] = spec.labels.index("AS")
    path = tmp_path / "shoes.csv"
    path.write_text("# shoes of table 4\n" + "\n".join(",".join(spec.labels[i] for i in r) for r in rows) + "\n")
    r = CliRunner().invoke(main, ["test", "shoe:8", "--input", str(path)])
    assert r.exit_code == 1, r.output
    line = next(l for l in r.output.splitlines() if l.startswith("composition"))
    assert "shoes.csv, line 500: AS appears 9 times, KS appears 7 times (a fresh stack has 8 of each)" in line


def test_text_of_numbers_that_read_both_ways_is_refused_until_declared(tmp_path):
    """Pocket numbers 0..36 are also wheel-order indices 0..36: once silently read as labels (a lab's file
    of indices got another device's verdict); now the reading is asked for, declared, or proven."""
    values = "\n".join(str(i % 37) for i in range(370)) + "\n"
    path = _text(tmp_path, "spins.csv", values)
    with pytest.raises(CaptureError, match=r"spins.csv: every value is both a label of roulette-single and a "
                                           r"label index 0..36, and the two readings differ \('1' as a label "
                                           r"is 1, as an index it is 32\); pass format 'labels'"):
        open_capture(path, ROULETTE)
    as_labels = open_capture(path, ROULETTE, format="labels")
    as_indices = open_capture(path, ROULETTE, format="indices")
    assert (as_labels.reading, as_labels.basis, as_indices.reading) == ("labels", "as asked", "indices")
    assert as_indices.array()[:3].tolist() == [0, 1, 2]
    assert [ROULETTE.labels[i] for i in as_labels.array()[:3]] == ["0", "1", "2"]
    declared = open_capture(_text(tmp_path, "d.csv", "# table 3\n# Format: indices\n" + values), ROULETTE)
    assert (declared.reading, declared.basis) == ("indices", "as line 2 declares")
    assert np.array_equal(declared.array(), as_indices.array())
    assert open_capture(_text(tmp_path, "l.csv", "# format = labels\n" + values), ROULETTE).reading == "labels"
    with pytest.raises(CaptureError, match="line 1 declares format indices, but format labels was asked for"):
        open_capture(_text(tmp_path, "c.csv", "# format: indices\n" + values), ROULETTE, format="labels")
    with pytest.raises(CaptureError, match=r"line 1: '# format: pockets' declares no reading"):
        open_capture(_text(tmp_path, "u.csv", "# format: pockets\n" + values), ROULETTE)
    with pytest.raises(CaptureError, match="every value is both"):  # a declaration after the outcomes is a comment
        open_capture(_text(tmp_path, "late.csv", values + "# format: labels\n"), ROULETTE)


def test_values_that_prove_their_reading_say_so(tmp_path):
    dice = device_spec("dice:2")
    faces = open_capture(_text(tmp_path, "faces.csv", "1,6\n4,3\n"), dice)
    assert (faces.reading, faces.basis) == ("labels", "line 1's '6' is a label only")
    indices = open_capture(_text(tmp_path, "idx.csv", "1,0\n4,3\n"), dice)
    assert (indices.reading, indices.basis) == ("indices", "line 1's '0' is an index only")
    zeros = open_capture(_text(tmp_path, "zeros.csv", "0\n0\n"), ROULETTE)  # pocket 0 is at index 0
    assert zeros.reading == "labels" and zeros.array().tolist() == [0, 0]


def test_cli_reports_how_and_why_a_capture_was_read(tmp_path):
    path = _text(tmp_path, "spins.csv", "\n".join(str(i % 37) for i in range(3700)) + "\n")
    refused = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path)])
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "every value is both a label of roulette-single" in refused.stderr
    text = CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path), "--format", "indices"])
    assert text.exit_code in (0, 1), text.output
    assert "3,700 outcomes read from" in text.stdout and "(text, read as indices: --format indices)" in text.stdout
    path.write_text("# format: labels\n" + path.read_text())
    report = json.loads(CliRunner().invoke(main, ["test", "roulette-single", "--input", str(path),
                                                  "--json"]).stdout)
    assert (report["source"]["reading"], report["source"]["reading_basis"]) == ("labels", "as line 1 declares")
