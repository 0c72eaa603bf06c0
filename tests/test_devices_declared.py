"""Devices declared once: a toy device in ONE module appears in the CLI; generated docs match the registry."""
import functools

import numpy as np
import pytest
from click.testing import CliRunner

from harness.cli import main
from rngcore import Generator
from rngcore.devices import DEVICES, device_names, device_spec, registry, specs
from registry_support import generated_block, registered_package

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

# A whole new device in ONE module: three distinct balls of twenty, drawn without replacement.
TOY_DEVICE = '''
    """A toy blower: one new module, registered through the public API."""
    import functools

    from rngcore.devices import specs
    from rngcore.devices.registry import Device

    DEVICES = (
        Device("toy-blower", "three distinct balls of twenty per draw", "toy rules 7",
               functools.partial(specs.balls, 20, drawn=3), labels="1..20"),
    )
'''


@pytest.fixture
def toy_devices(tmp_path, monkeypatch):
    yield from registered_package(tmp_path, monkeypatch, DEVICES, "toy_devices_pkg", {"blower": TOY_DEVICE})


def draw(*args):
    return CliRunner().invoke(main, ["draw", *args])


def test_toy_device_in_one_module_appears_in_the_cli(toy_devices):
    assert [d.name for d in toy_devices] == ["toy-blower"]
    assert "toy-blower" in device_names()
    help_text = draw("--help").output
    assert "toy-blower" in help_text and "three distinct balls of twenty" in help_text
    result = draw("toy-blower", "-n", "2000", "--seed", SEED)
    assert result.exit_code == 0, result.output
    rows = [line.split(",") for line in result.stdout.splitlines()]
    assert len(rows) == 2000
    assert all(len(row) == 3 == len(set(row)) and {int(b) for b in row} <= set(range(1, 21)) for row in rows)
    # Every ball turns up, in every position (2000 draws: 1/20 each, far from zero).
    for position in range(3):
        assert {row[position] for row in rows} == {str(b) for b in range(1, 21)}
    result = draw("toy-blower", "-n", "5", "--seed", SEED, "--format", "npy")
    assert result.exit_code == 0
    assert np.load(__import__("io").BytesIO(result.stdout_bytes)).shape == (5, 3)


def test_toy_device_listed_in_the_battery_help(toy_devices):
    help_text = CliRunner().invoke(main, ["test", "--help"]).output
    assert "toy-blower" in help_text and "three distinct balls of twenty" in help_text
    # the help names no device by hand: each one it lists comes from the registry
    assert "..." not in help_text.split("Options:")[0]


def test_toy_device_goes_through_the_battery(toy_devices):
    result = CliRunner().invoke(main, ["test", "toy-blower", "--samples", "5000", "--seed", SEED])
    assert result.exit_code == 0, result.output
    assert "ball-frequency" in result.stdout and "verdict: PASS" in result.stdout


def test_toy_device_spec_and_kind(toy_devices):
    spec = device_spec("toy-blower")
    assert spec.kind == "k-of-n" and spec.width == 3 and spec.labels == tuple(str(i) for i in range(1, 21))
    assert spec.as_kind().unit == "draws" and spec.citation == "toy rules 7"
    a = spec.draw(Generator(SEED, 4), 100)
    assert np.array_equal(a, spec.draw(Generator(SEED, 4), 100))
    assert all(len(set(row)) == 3 for row in a.tolist())


def test_unregistered_device_is_gone(toy_devices):
    DEVICES.unregister("toy-blower")
    with pytest.raises(ValueError, match="unknown device 'toy-blower'"):
        device_spec("toy-blower")
    result = draw("toy-blower")
    assert result.exit_code == 2 and "roulette-single" in result.output
    DEVICES.register(toy_devices[0])  # the fixture removes it again


def test_declarations_are_checked():
    with pytest.raises(TypeError, match="is not a rngcore.devices.registry.Device"):
        DEVICES.register("dice")
    with pytest.raises(ValueError, match="already registered"):
        DEVICES.register(registry.Device("deck", "another deck", "x", functools.partial(specs.balls, 5, drawn=1)))
    with pytest.raises(ValueError, match="declared by its prefix"):
        registry.Device("shoe:8", "x", "x", functools.partial(specs.balls, 5, drawn=1))
    with pytest.raises(ValueError, match="cannot draw 6 distinct balls of 5"):
        specs.balls(5, "five", 6)


def test_dice_faces_have_one_home():
    from rngcore.devices import dice, roll
    from harness.games import dice as game_dice

    assert device_spec("dice:2").labels == dice.FACES
    assert game_dice.FACES == tuple(int(f) for f in dice.FACES) and game_dice.SIDES == len(dice.FACES)
    rolled = roll(Generator(SEED), 3, 1000)
    assert rolled.min() == 1 and rolled.max() == len(dice.FACES)


def test_docs_table_of_devices_is_generated():
    assert generated_block("docs/devices.md", "devices") == registry.markdown_table(), (
        "regenerate: cd tests && python -c \"import registry_support as r; from rngcore.devices.registry import "
        "markdown_table as t; r.regenerate('docs/devices.md', 'devices', t())\"")


def test_architecture_recipe_for_a_device_runs(tmp_path, monkeypatch):
    """The snippet of docs/architecture.md "Adding a device" is a working device module."""
    import re

    from registry_support import ROOT

    text = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    start = text.index("## Adding a device\n")
    section = text[start:text.index("\n## ", start + 1)]
    snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    for added in registered_package(tmp_path, monkeypatch, DEVICES, "doc_devices_pkg", {"recipe": snippet}):
        assert [d.name for d in added] == ["blower-3-20"]
        result = draw("blower-3-20", "-n", "3", "--seed", SEED)
        assert result.exit_code == 0 and len(result.stdout.splitlines()) == 3
        assert "blower-3-20" in draw("--help").output

