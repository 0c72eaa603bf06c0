"""The ``slot:MODEL`` device: the reel stops of a slot model, one row per play.

A lab capturing a machine's reel stops tests them against the model with
``rngcert test slot:MODEL --input FILE``, and ``rngcert draw slot:MODEL -n N``
writes stops drawn by the model's laws.  Labels are the physical stop
positions ``1..L`` of each reel (the numbering of ``docs/slot_model.md``),
reel 1 first.

The device is the ``reels`` kind (:mod:`stats.kinds.reels`): each reel has
its own stop law (``weight / total weight`` of its stops, ``1 / L`` without
weights), and its battery (:mod:`stats.reelstops`) tests each reel against
its own law, the reels of a play against each other, and each reel against
its stop in the play before.  A reel has at most 256 physical stops (one
byte per label); weighted reels may have any number of virtual stops.

Draws: when every reel has the same law on at most 256 virtual stops, all of
a call's stops are drawn at once as bytes (``rngcore.devices.specs.reels``,
row by row, reel 1 first); otherwise play by play, reel 1 first, each stop
with the bounded integer the simulation draws a spin's stops with
(``kern_slot_stops``: ``rng_bounded32`` on the reel's virtual stops), a
virtual stop standing for the physical stop it belongs to.
"""
from __future__ import annotations

import pathlib
from fractions import Fraction

import numpy as np

from rngcore.devices import specs
from rngcore.devices.registry import Device
from rngcore.devices.specs import Drawing
from stats.kinds.reels import average_law

MAX_STOPS = 256  # one uint8 label index per physical stop
SAMPLE = str(pathlib.Path(__file__).with_name("sample_reels.toml"))  # the family's example member


def _build(name: str, path: str) -> Drawing:
    from harness.slot.errors import ModelError
    from harness.slot.model import load_model

    try:
        model = load_model(path)
    except ModelError as exc:
        raise ValueError(f"device {name!r}: {exc}") from None
    weights = model.base_weights or tuple((1,) * len(strip) for strip in model.base_strips)
    for r, w in enumerate(weights, start=1):
        if 0 in w:
            raise ValueError(f"device {name!r}: reel {r}'s stop {w.index(0) + 1} has weight 0, so it never comes "
                             "up; slot:MODEL needs every stop's weight >= 1")
        if len(w) > MAX_STOPS:
            raise ValueError(f"device {name!r}: reel {r} has {len(w):,} stops; slot:MODEL takes at most "
                             f"{MAX_STOPS} per reel (one byte per stop)")
    width = max(len(w) for w in weights)
    laws = tuple(tuple(Fraction(x, sum(w)) for x in w) + (Fraction(0),) * (width - len(w)) for w in weights)
    labels = tuple(str(p) for p in range(1, width + 1))
    if len(set(weights)) == 1 and sum(weights[0]) <= MAX_STOPS:
        draw = specs.reels(weights[0], name, model.reels).draw
    else:
        draw = _play_by_play(weights)
    return Drawing("reels", labels, average_law(laws), model.reels, None, draw, laws=laws)


def _play_by_play(weights):
    """The draw of reels with different laws (see the module docstring)."""
    bounds = np.array([sum(w) for w in weights], dtype=np.uint32)
    physical = [np.repeat(np.arange(len(w), dtype=np.uint8), w) for w in weights]  # virtual -> physical stop

    def draw(generator, n):
        from harness.kernels import ffi, lib
        from rngcore.engine import locked_call

        virtual = np.empty((n, len(weights)), dtype=np.uint32)
        if n:
            locked_call(generator, lib.kern_slot_stops, len(weights), ffi.from_buffer("uint32_t[]", bounds), n,
                        ffi.from_buffer("uint32_t[]", virtual), what=f"drawing the stops of {n} plays")
        return np.column_stack([table[virtual[:, r]] for r, table in enumerate(physical)]).astype(np.uint8)

    return draw


DEVICES = (
    Device("slot", "the base-game reel stops of a slot model file, one row per play (reel 1 first)",
           "the model file (docs/slot_model.md, Reel-stop capture)", _build, labels="stop positions 1..L",
           parameter="model", argument="path", sample=SAMPLE),
)
