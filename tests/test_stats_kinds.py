"""Device kinds: classes carrying unit, shape, sample size, label codec and derived streams."""
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from stats.battery import Battery, run_battery
from stats.kinds import (Bytes, Categorical, Dice, KOfN, Permutation, kind_class, kind_names,
                         kind_of, parse_device, register_kind)
from tests.stats_support import device_spec, numpy_rng


def test_stats_imports_no_device_registry():
    """stats works on arrays from anywhere: importing every stats module loads nothing of rngcore."""
    code = ("import importlib, pkgutil, sys, stats\n"
            "for m in pkgutil.walk_packages(stats.__path__, 'stats.'): importlib.import_module(m.name)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('rngcore', 'harness')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_registered_kinds_and_their_words():
    assert {"categorical", "dice", "permutation", "k-of-n", "bytes"} <= set(kind_names())
    assert kind_class("dice") is Dice
    with pytest.raises(ValueError, match="valid device kinds: .*categorical"):
        kind_class("urn")
    assert (Categorical.unit, Dice.unit, Permutation.unit, KOfN.unit) == ("outcomes", "rolls", "shuffles", "draws")
    assert Dice.is_a("categorical") and Bytes.is_a("categorical") and not KOfN.is_a("categorical")


@pytest.mark.parametrize("name,kind,shape", [("roulette-single", Categorical, (5,)), ("dice:1", Dice, (5, 1)),
                                             ("dice:3", Dice, (5, 3)), ("shoe:2", Permutation, (5, 104)),
                                             ("bytes", Bytes, (5,)), ("k-of-n:3:20", KOfN, (5, 3))])
def test_devices_map_onto_kinds(name, kind, shape):
    k = kind_of(device_spec(name))
    assert type(k) is kind and k.shape(5) == shape


def test_any_number_of_faces():
    """Dice are not wired to six faces: a pair of d20 gets the dice battery with 400 combinations."""
    d20 = Dice([str(i) for i in range(1, 21)], [Fraction(1, 20)] * 20, width=2, name="2d20")
    rows = numpy_rng(1).integers(0, 20, (40_000, 2)).astype(np.uint8)
    result = run_battery(d20, rows)
    names = {t.name for t in result.tests}
    assert {"frequency", "combination", "interplay"} <= names
    combination = next(t for t in result.tests if t.name == "combination")
    assert combination.df == 399 and combination.pvalue > 1e-9
    assert d20.totals_law()[0] == Fraction(1, 400) and len(d20.totals_law()) == 39


def test_label_codec():
    deck = kind_of(device_spec("deck"))
    assert deck.codec.index("as") == deck.codec.index("AS") == 0
    assert deck.codec.as_index("51") == 51 and deck.codec.as_index("052") is None
    with pytest.raises(ValueError, match="not a label of deck"):
        deck.label_index("ZZ")


def test_k_of_n_parses_and_ranks_sets():
    k = parse_device("k-of-n:3:20")
    assert k.labels[0] == "1" and k.sets == 1140
    rows = np.array([[0, 1, 2], [19, 18, 17], [2, 0, 1]])
    derive = k.stream_table()["sets"].make(k, 0)
    assert derive(rows, None).tolist() == [0, 1139, 0]
    for bad in ("k-of-n:3", "k-of-n:21:20", "k-of-n:x:20"):
        with pytest.raises(ValueError, match="k-of-n"):
            parse_device(bad)


def test_register_kind_refuses_duplicates_and_non_kinds():
    class Other(Categorical):
        kind = "categorical"

    with pytest.raises(ValueError, match="already registered"):
        register_kind(Other)
    with pytest.raises(ValueError, match="not a DeviceKind"):
        register_kind(int)
    assert register_kind(Categorical) is Categorical  # idempotent


def test_rows_of_the_wrong_shape_name_the_device():
    battery = Battery(device_spec("dice:2"), 50_000)
    with pytest.raises(ValueError, match=r"dice:2: expected rows of 2 values, got shape \(4,\)"):
        battery.update(np.zeros(4, dtype=np.uint8))
