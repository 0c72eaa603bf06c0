"""The ``slot:MODEL`` device: the reel stops of a slot model, one row per play.

A lab capturing a machine's reel stops tests them against the model with
``rngcert test slot:MODEL --input FILE`` (per-reel law, independence of the
reels within a play, serial independence across plays: the battery of the
``dice`` kind), and ``rngcert draw slot:MODEL -n N`` writes stops drawn the
same way.  Labels are the physical stop positions ``1..L`` of each reel
(the numbering of ``docs/slot_model.md``), reel 1 first.

The device is the ``dice`` kind, whose values share ONE law: a model
qualifies when every reel of its base game has the same stop law (the same
number of stops, and the same stop weights if it has any), with at most 256
(virtual) stops.  Other models are refused with the reason; a kind with a
law per reel would lift that limit.
"""
from __future__ import annotations

import pathlib

from rngcore.devices import specs
from rngcore.devices.registry import Device
from rngcore.devices.specs import Drawing

MAX_STOPS = 256  # one uint8 label index per stop
SAMPLE = str(pathlib.Path(__file__).with_name("sample_reels.toml"))  # the family's example member


def _build(name: str, path: str) -> Drawing:
    from harness.slot.errors import ModelError
    from harness.slot.model import load_model

    try:
        model = load_model(path)
    except ModelError as exc:
        raise ValueError(f"device {name!r}: {exc}") from None
    weights = model.base_weights or tuple((1,) * len(strip) for strip in model.base_strips)
    for r, w in enumerate(weights[1:], start=2):
        if w != weights[0]:
            raise ValueError(f"device {name!r}: reel {r}'s stop law (its {len(w)} stops and their weights) differs "
                             f"from reel 1's ({len(weights[0])} stops); slot:MODEL needs one law for every reel "
                             "(docs/slot_model.md, Reel-stop capture)")
    if 0 in weights[0]:
        raise ValueError(f"device {name!r}: stop {weights[0].index(0) + 1} has weight 0, so it never comes up; "
                         "slot:MODEL needs every stop's weight >= 1")
    if sum(weights[0]) > MAX_STOPS:
        raise ValueError(f"device {name!r}: {sum(weights[0]):,} (virtual) stops per reel; slot:MODEL takes at most "
                         f"{MAX_STOPS} (one byte per stop)")
    return specs.reels(weights[0], name, model.reels)


DEVICES = (
    Device("slot", "the base-game reel stops of a slot model file, one row per play (reel 1 first)",
           "the model file (docs/slot_model.md, Reel-stop capture)", _build, labels="stop positions 1..L",
           parameter="model", argument="path", sample=SAMPLE),
)
