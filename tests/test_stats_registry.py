"""The battery's registry: a test or a device kind is ONE new module, registered through the public API.

The toy test and the toy kind below are each written as one module of a
temporary package; nothing else is edited, and both reach the battery's
plan, ``rngcert test --help`` and a run of ``rngcert test``.
"""
import json
import sys
import textwrap

import numpy as np
import pytest
from click.testing import CliRunner

from harness.cli import main
from harness.slot import device as slot_device
from stats import registry
from stats.battery import plan_tests, run_battery
from stats.kinds import Permutation, kind_names, unregister_kind
from tests.stats_support import device_spec, seed_hex

TOY_TEST = '''
"""A toy test: the mean label index of a categorical stream against its exact expectation."""
import numpy as np
from scipy import stats as sps

from stats import NormalResult
from stats.registry import Accumulator, BatteryTest


class MeanAccumulator(Accumulator):
    name = "toy-mean"

    def __init__(self, probabilities):
        super().__init__()
        p = np.array([float(q) for q in probabilities])
        k = np.arange(p.size)
        self.mean, self.var = float(p @ k), float(p @ k**2 - (p @ k) ** 2)
        self.total = 0

    def min_samples(self):
        return 30

    def _update(self, values):
        self.total += int(values.astype(np.int64).sum())

    def _result(self):
        expected, sd = self.n * self.mean, (self.n * self.var) ** 0.5
        z = (self.total - expected) / sd
        return NormalResult(z, float(2 * sps.norm.sf(abs(z))), self.n, self.total, expected, sd)


BATTERY = [BatteryTest("toy-mean", ("categorical",), "values", MeanAccumulator, lambda ctx: (ctx.probabilities,))]
'''

TOY_KIND = '''
"""A toy device kind: a blower that draws 3 distinct balls of 20."""
from stats.kinds import KOfN


class ToyBlower(KOfN):
    kind = "toy-blower"
    syntax = "toy-blower"
    summary = "a toy blower: 3 distinct balls of 20"

    def __init__(self, *args, **kwargs):
        super().__init__(balls=20, width=3, name="toy-blower")

    @classmethod
    def parse(cls, name):
        return cls() if name == "toy-blower" else None


KINDS = [ToyBlower]
'''


@pytest.fixture
def toy_package(tmp_path, monkeypatch):
    package = tmp_path / "toyext"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mean.py").write_text(textwrap.dedent(TOY_TEST))
    (package / "blower.py").write_text(textwrap.dedent(TOY_KIND))
    monkeypatch.syspath_prepend(str(tmp_path))
    found = registry.discover("toyext")
    yield found
    registry.unregister("toy-mean")
    unregister_kind("toy-blower")
    for name in [m for m in sys.modules if m.startswith("toyext")]:
        del sys.modules[name]


def test_toy_test_and_kind_reach_plan_help_and_runs(toy_package, tmp_path):
    assert [e.name for e in toy_package] == ["toy-mean"] and "toy-blower" in kind_names()
    # the battery's plan
    names = [t.name for t in plan_tests(device_spec("roulette-single"), 10**5)]
    assert names[-1] == "toy-mean"
    assert "toy-mean" not in [t.name for t in plan_tests(device_spec("deck"), 10**4)]
    blower = device_spec("toy-blower")
    assert [t.name for t in plan_tests(blower, 10**5)] == [
        "distinct-balls", "ball-frequency", "set-frequency", "first-ball-independence",
        "first-ball-serial-correlation"]
    # rngcert test --help: the --test choices and the kinds' own devices
    help_text = CliRunner().invoke(main, ["test", "--help"]).output
    assert "toy-mean" in help_text and "toy-blower" in help_text and "3 distinct balls of 20" in help_text
    # a run of each
    r = CliRunner().invoke(main, ["test", "roulette-single", "--samples", "5000", "--seed", seed_hex(3),
                                  "--test", "toy-mean", "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert [t["name"] for t in report["tests"]] == ["toy-mean"] and report["verdict"] == "pass"
    rng = np.random.default_rng(4)
    path = tmp_path / "blower.csv"
    path.write_text("\n".join(",".join(str(b + 1) for b in rng.permutation(20)[:3]) for _ in range(8000)) + "\n")
    r = CliRunner().invoke(main, ["test", "toy-blower", "--input", str(path), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["kind"] == "toy-blower" and report["unit"] == "draws" and report["n"] == 8000
    assert report["source"]["reading"] == "labels"


def test_registration_refuses_clashes_and_lists_names():
    with pytest.raises(ValueError, match="already registered"):
        registry.register(registry.BatteryTest("frequency", ("categorical",), "values", object))
    with pytest.raises(ValueError, match="not a BatteryTest"):
        registry.register("frequency")
    with pytest.raises(ValueError, match="valid battery tests: frequency, serial-pairs"):
        registry.entry("no-such")
    assert registry.test_names()[0] == "frequency"


def test_a_registered_function_is_public_by_name():
    import stats

    assert stats.ball_frequency_test is registry.entry("ball-frequency").function
    with pytest.raises(AttributeError):
        stats.no_such_test


KIND_SAMPLES = {"categorical": ("roulette-single", 80_000), "dice": ("dice:3", 40_000), "permutation": ("tiles", 3000),
                "k-of-n": ("k-of-n:3:20", 20_000), "reels": (f"slot:{slot_device.SAMPLE}", 20_000)}


#: Tests that apply only to devices unlike the samples above (exhaustive arrangements: stacks of <= 7).
SPECIAL = {"permutation-frequencies": (Permutation(("A", "B", "C"), multiset=(0, 1, 2, 2), name="abcc"), 2000)}


#: Tests of the heights a reels device's rows carry (a game with reel heights per spin).
HEIGHTS = ("reel-heights", "reel-stop-given-height")


def _device_for(entry):
    if entry.name in SPECIAL:
        return SPECIAL[entry.name]
    if entry.name in HEIGHTS:
        from pathlib import Path

        return device_spec(f"slot:{Path(__file__).resolve().parents[1] / 'examples' / 'slot_megaways.toml'}"), 20_000
    for kind in entry.kinds:
        if kind in KIND_SAMPLES:
            device, n = KIND_SAMPLES[kind]
            return device_spec(device), n
    raise AssertionError(f"no sample device for {entry.name} ({entry.kinds})")


def _rows(spec, n):
    """n outcomes: our device's own draw, or uniform shuffles from numpy for a bare kind."""
    import rngcore

    if hasattr(spec, "draw"):
        return spec.draw(rngcore.Generator(seed_hex(9)), n)
    rng = np.random.default_rng(9)
    stack = np.array(spec.multiset if spec.multiset is not None else range(spec.balls))
    return np.array([rng.permutation(stack)[:spec.width] for _ in range(n)], dtype=np.uint8)


@pytest.mark.parametrize("name", registry.test_names())
def test_every_registered_test_is_chunk_invariant(name):
    """Generated from the registry: each test gives the same figures fed in 7 chunks as in one."""
    spec, n = _device_for(registry.entry(name))
    planned = plan_tests(spec, n, tests=[name])[0]
    n = max(n, -(-planned.acc.min_samples() // planned.scale))
    data = _rows(spec, n)
    whole = run_battery(spec, data, tests=[name]).tests[0]
    parts = run_battery(spec, data, tests=[name], chunk=-(-n // 7)).tests[0]
    assert whole.verdict != "skipped"
    assert whole.statistic == pytest.approx(parts.statistic, rel=1e-12, abs=1e-12)
    assert whole.pvalue == pytest.approx(parts.pvalue, rel=1e-9, abs=1e-300)


def test_docs_battery_table_is_the_registry():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "statistics.md").read_text()
    start = text.index("<!-- battery table:")
    start = text.index("\n", start) + 1
    end = text.index("<!-- end of battery table -->")
    assert text[start:end] == registry.markdown_table()
