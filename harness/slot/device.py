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

Reel heights per spin (``window.heights``): a row is the ``R`` stops, then
the ``R`` heights the reels drew (reel 1 first, label ``h`` for height
``h``), each height with its own law (``weight / total weight``), so the
battery tests the heights as it tests the stops: each reel's height against
its weights, every pair of values of a play (a reel's stop and its height
too) for independence, and each against the play before.  A call's heights
are drawn after its stops, play by play, reel 1 first, each with
``kern_slot_stops`` on the reel's total height weight (the heights covering
their weights' shares of it from the lowest height up).
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
    if len(set(weights)) == 1 and sum(weights[0]) <= MAX_STOPS:
        draw = specs.reels(weights[0], name, model.reels).draw
    else:
        draw = _play_by_play(weights)
    columns = [(f"reel {r}", "stop") for r in range(1, model.reels + 1)]
    if model.heights is not None:  # label h for height h: the value h - 1 covers that height's weight
        for r, hs in enumerate(model.heights, start=1):
            if sum(1 for _, w in hs if w) < 2:
                raise ValueError(f"device {name!r}: reel {r} always has the same height, so its heights cannot "
                                 "be tested; slot:MODEL needs every reel to draw at least 2 heights")
        heights = [[dict(hs).get(h, 0) for h in range(1, model.rows + 1)] for hs in model.heights]
        weights = tuple(weights) + tuple(tuple(h) for h in heights)
        draw = _then(draw, _play_by_play(heights))
        columns += [(f"reel {r}", "height") for r in range(1, model.reels + 1)]
    width = max(len(w) for w in weights)
    laws = tuple(tuple(Fraction(x, sum(w)) for x in w) + (Fraction(0),) * (width - len(w)) for w in weights)
    labels = tuple(str(p) for p in range(1, width + 1))
    return Drawing("reels", labels, average_law(laws), len(weights), None, draw, laws=laws, columns=tuple(columns))


def _then(first, second):
    """A draw of ``first``'s columns, then ``second``'s, for the same plays."""
    return lambda generator, n: np.hstack([first(generator, n), second(generator, n)])


def _play_by_play(weights):
    """The draw of reels with different laws (see the module docstring); a weight of 0 is a value
    never drawn (a height the reel cannot have)."""
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
    Device("slot", "the base-game reel stops of a slot model file, one row per play (reel 1 first; then the "
           "reels' heights, for a game with reel heights per spin)",
           "the model file (docs/slot_model.md, Reel-stop capture)", _build, labels="stop positions 1..L",
           parameter="model", argument="path", sample=SAMPLE),
)
