"""Virtual gaming equipment that behaves exactly like the seeds' physical devices.

Card shoes and decks, dice, wheels and the pai gow tile set, drawing only
through unbiased batched bounded indices (csrc/core/shuffle.h, csrc/core/devices.h).

* :func:`device_spec` / :data:`DEVICES`: the registry the statistics
  battery and the games read (labels, exact probabilities, bulk draws); each
  device is declared once, in its own module's ``DEVICES``
  (:class:`~rngcore.devices.registry.Device`, drawn by a builder of
  :mod:`rngcore.devices.specs`).
* :class:`Shoe`: a shoe dealt round by round under a :class:`RuleSet`
  (cut, cut card, burn, continuous shuffle); :func:`fresh_shoes` in bulk.
* :func:`spin`, :func:`roll`, :func:`tile_stacks`: outcomes with their meaning.
* Tables: :mod:`rngcore.devices.wheels`, :mod:`rngcore.devices.tiles`,
  :mod:`rngcore.devices.cards`, :mod:`rngcore.devices.rulesets`.

>>> from rngcore.devices import device_spec
>>> spec = device_spec("big-six")
>>> spec.labels[0], spec.probabilities[0]
('$1', Fraction(23, 54))
"""
from rngcore.devices.outcomes import Spin, roll, spin, spin_sections, tile_stacks
from rngcore.devices.registry import DEVICES, Device, DeviceSpec, device_names, device_spec
from rngcore.devices.wheels import WHEELS
from rngcore.devices.rulesets import RULE_SETS, Burn, Cut, RuleSet, rule_set
from rngcore.devices.shoe import Shoe, ShoeExhaustedError, fresh_shoes

__all__ = [
    "DEVICES", "DEVICE_NAMES", "WHEELS", "Device", "DeviceSpec", "device_names", "device_spec",
    "Shoe", "ShoeExhaustedError", "fresh_shoes",
    "RULE_SETS", "Burn", "Cut", "RuleSet", "rule_set",
    "Spin", "roll", "spin", "spin_sections", "tile_stacks",
]


def __getattr__(name: str):
    if name == "DEVICE_NAMES":  # every device name as written on the command line (read from DEVICES)
        return device_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
