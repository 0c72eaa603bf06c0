"""Battery checkpoints as JSON data (stats._state): a run stopped and restored gives the uninterrupted result,
on every device kind; nothing in a checkpoint is run or imported from outside the statistics package."""
import json
import pickle

import numpy as np
import pytest

from stats import _state
from stats.battery import Battery
from tests.stats_support import draw


def _result(battery):
    return [(t.name, t.verdict, repr(t.statistic), repr(t.pvalue)) for t in battery.result().tests]  # nan == nan


@pytest.mark.parametrize("device,n", [("roulette-single", 4000), ("shoe:8", 40), ("tiles", 120), ("bytes", 10000)])
def test_restored_battery_equals_the_uninterrupted_one(device, n):
    spec, data = draw(device, n, seed=8)
    chunks = np.array_split(data, 6)
    whole = Battery(spec, n)
    for part in chunks:
        whole.update(part)
    first = Battery(spec, n)
    for part in chunks[:3]:
        first.update(part)
    state = first.state()
    assert state[:1] == b"{" and b"pickle" not in state
    again = Battery(spec, n)
    again.restore(state, chunks[:3])
    for part in chunks[3:]:
        again.update(part)
    assert _result(again) == _result(whole)
    # The objects a checkpoint restores are of classes of the statistics package only (a "static" entry
    # is a name compared with what the planned battery holds, never looked up).
    named = {entry.split(":")[0] for entry in _names(json.loads(state))}
    assert all(module == "stats" or module.startswith("stats.") for module in named), named


def _names(tree):
    if isinstance(tree, dict):
        for key, value in tree.items():
            if key == "object" and isinstance(value, str):
                yield value
            yield from _names(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from _names(value)


def test_exact_values_survive():
    from fractions import Fraction

    values = {"big": 2**130 + 1, "third": Fraction(1, 3), "nan": float("nan"), "x": 0.1 + 0.2,
              "a": np.arange(6, dtype=np.uint64).reshape(2, 3), "s": np.int64(-5), "t": (1, "a"), 3: [None, True]}
    back = _state.decode(json.loads(json.dumps(_state.encode(values))))
    assert back["big"] == 2**130 + 1 and back["third"] == Fraction(1, 3) and np.isnan(back["nan"])
    assert back["x"] == 0.1 + 0.2 and back["a"].dtype == np.uint64 and back["a"].tolist() == [[0, 1, 2], [3, 4, 5]]
    assert back["s"] == -5 and back["s"].dtype == np.int64 and back["t"] == (1, "a") and back[3] == [None, True]


def test_a_pickle_or_a_foreign_class_is_refused():
    spec, data = draw("roulette-single", 100, seed=1)
    battery = Battery(spec, 100)
    battery.update(data)
    with pytest.raises(ValueError, match="not a battery checkpoint"):
        Battery(spec, 100).restore(pickle.dumps({"n": 100, "accumulators": []}), [data])
    forged = json.loads(battery.state())
    forged["accumulators"][0]["evil"] = {"object": "os:system", "state": {}}
    with pytest.raises(ValueError, match="not a class of the statistics package"):
        Battery(spec, 100).restore(json.dumps(forged).encode(), [data])
