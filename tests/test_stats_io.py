"""Capture files: CSV labels and indices, .npy, raw binary; every error names where."""
import numpy as np
import pytest
from rngcore.devices import device_spec

from stats.io import open_capture, read_capture


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_roulette_labels_as_printed(tmp_path):
    spec = device_spec("roulette-double")
    path = _write(tmp_path, "spins.csv", "# wheel 7, table 3\n0\n00\n\n32\n")
    cap = open_capture(path, spec)
    assert cap.reading == "labels" and cap.n == 3
    assert [spec.labels[i] for i in cap.array()] == ["0", "00", "32"]


def test_indices_when_not_all_labels(tmp_path):
    spec = device_spec("dice:2")
    cap = open_capture(_write(tmp_path, "rolls.csv", "0,5\n3,2\n"), spec)
    assert cap.reading == "indices" and cap.array().tolist() == [[0, 5], [3, 2]]
    labels = read_capture(_write(tmp_path, "faces.csv", "1, 6\n4;3\n"), spec)
    assert labels.tolist() == [[0, 5], [3, 2]]
    forced = read_capture(_write(tmp_path, "idx.csv", "1,2\n"), spec, format="indices")
    assert forced.tolist() == [[1, 2]]


def test_big_six_and_cards(tmp_path):
    spec = device_spec("big-six")
    assert read_capture(_write(tmp_path, "b.csv", "$20\njoker\n$1\n"), spec).tolist() == [4, 5, 0]
    deck = device_spec("deck")
    row = ",".join(deck.labels[::-1]).lower()
    assert read_capture(_write(tmp_path, "d.csv", row + "\n"), deck)[0].tolist() == list(range(51, -1, -1))


def test_malformed_lines_name_the_line(tmp_path):
    spec = device_spec("roulette-single")
    with pytest.raises(ValueError, match=r"line 3: '00' is neither a label of roulette-single"):
        read_capture(_write(tmp_path, "r.csv", "0\n32\n00\n"), spec)
    with pytest.raises(ValueError, match=r"line 2: expected 1 value per line .* got 2"):
        read_capture(_write(tmp_path, "r2.csv", "0\n3,4\n"), spec)
    with pytest.raises(ValueError, match=r"line 1: expected 52 values per line \(one shuffle per row\)"):
        read_capture(_write(tmp_path, "d.csv", "AS,KH\n"), device_spec("deck"))
    with pytest.raises(ValueError, match=r"line 2: 'X' is not a label of big-six"):
        read_capture(_write(tmp_path, "b.csv", "$1\nX\n"), device_spec("big-six"), format="labels")


def test_npy_and_binary(tmp_path):
    spec = device_spec("dice:3")
    rolls = np.random.default_rng(1).integers(0, 6, (100, 3)).astype(np.uint8)
    np.save(tmp_path / "r.npy", rolls)
    assert np.array_equal(read_capture(tmp_path / "r.npy", spec, format="indices"), rolls)
    (tmp_path / "r.bin").write_bytes(rolls.tobytes())
    cap = open_capture(tmp_path / "r.bin", spec)
    assert cap.container == "binary" and np.array_equal(cap.array(), rolls)
    assert np.array_equal(np.concatenate(list(cap.chunks(7))), rolls)


def test_out_of_range_and_size_errors(tmp_path):
    spec = device_spec("roulette-single")
    (tmp_path / "bad.bin").write_bytes(bytes([1, 2, 40, 3]))
    with pytest.raises(ValueError, match=r"outcome 2 \(byte offset 2\): value 40 is outside the label indices 0..36"):
        read_capture(tmp_path / "bad.bin", spec)
    (tmp_path / "odd.bin").write_bytes(bytes(10))
    with pytest.raises(ValueError, match="10 bytes is not a whole number of rolls"):
        open_capture(tmp_path / "odd.bin", device_spec("dice:3"))
    np.save(tmp_path / "wide.npy", np.zeros((4, 2), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"shape \(4, 2\) does not fit roulette-single"):
        open_capture(tmp_path / "wide.npy", spec)
    with pytest.raises(ValueError, match="'auto', 'labels', 'indices'"):
        open_capture(tmp_path / "wide.npy", spec, format="guess")
