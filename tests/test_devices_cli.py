"""``rngcert draw`` through click's CliRunner."""
from __future__ import annotations

import io

import numpy as np
import pytest
from click.testing import CliRunner

from harness.cli import main
from rngcore import Generator
from rngcore.devices import device_spec

SEED_HEX = bytes(range(32)).hex()


def draw(*args):
    return CliRunner().invoke(main, ["draw", *args])


def test_roulette_labels_one_per_line_and_replayable():
    result = draw("roulette-double", "-n", "500", "--seed", SEED_HEX, "--stream", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 500
    spec = device_spec("roulette-double")
    expected = spec.draw(Generator(bytes(range(32)), 3), 500)
    assert lines == [spec.labels[i] for i in expected]
    assert set(lines) <= set(spec.labels) and "00" in spec.labels
    assert draw("roulette-double", "-n", "500", "--seed", SEED_HEX, "--stream", "3").output == result.output


def test_big_six_and_money_wheel_labels():
    six = draw("big-six", "-n", "2000", "--seed", SEED_HEX).output.split()
    assert set(six) == {"$1", "$2", "$5", "$10", "$20", "joker", "flag"}
    money = draw("money-wheel", "-n", "2000", "--seed", SEED_HEX).output.split()
    assert set(money) <= {f"S{i}" for i in range(1, 8)} and "S1" in money


def test_dice_rows():
    lines = draw("dice:3", "-n", "4", "--seed", SEED_HEX).output.splitlines()
    assert len(lines) == 4
    for line in lines:
        faces = line.split(",")
        assert len(faces) == 3 and set(faces) <= set("123456")


def test_shoe_rows_are_whole_shoes():
    lines = draw("shoe:2", "-n", "3", "--seed", SEED_HEX).output.splitlines()
    assert len(lines) == 3
    for line in lines:
        labels = line.split(",")
        assert len(labels) == 104 and sorted(labels) == sorted(device_spec("shoe:2").labels * 2)
    assert "10H" in lines[0].split(",")


def test_production_mode_without_seed():
    first = draw("deck", "-n", "2").output
    second = draw("deck", "-n", "2").output
    assert len(first.splitlines()) == 2 and first != second


def test_npy_is_label_indices():
    result = CliRunner().invoke(main, ["draw", "tiles", "-n", "5", "--seed", SEED_HEX, "--format", "npy"])
    assert result.exit_code == 0
    array = np.load(io.BytesIO(result.stdout_bytes))
    assert array.shape == (5, 32) and array.dtype == np.uint8
    assert np.array_equal(array, device_spec("tiles").draw(Generator(bytes(range(32)), 0), 5))
    wheel = np.load(io.BytesIO(draw("roulette-single", "-n", "7", "--seed", SEED_HEX, "--format", "npy").stdout_bytes))
    assert wheel.shape == (7,)


def test_zero_outcomes():
    assert draw("deck", "-n", "0", "--seed", SEED_HEX).output == ""


@pytest.mark.parametrize("args, message", [
    (["wheel"], "valid names: roulette-single, roulette-double"),
    (["shoe:13"], "N must be in 1..12"),
    (["shoe:0"], "N must be in 1..12"),
    (["deck", "-n", "-1"], "-n"),
    (["deck", "--format", "json"], "'csv', 'npy'"),
    (["deck", "--seed", "abc"], "64 hex digits"),
    (["deck", "--stream", "2"], "needs --seed"),
])
def test_bad_invocations_exit_2(args, message):
    result = draw(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
