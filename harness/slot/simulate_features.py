"""Which simulation player plays which model feature: one table, the routing and every refusal.

``rngcert slot MODEL --simulate N`` hands a model to the first player that
plays every feature it has, in the order of :data:`CLI_PLAYERS`:

* ``kernel`` -- the C kernel ``kern_slot_simulate`` (:func:`harness.slot.simulate.simulate`);
* ``windows`` -- the Python window player (:mod:`harness.slot.window_player`);
* ``rounds`` -- a round's own play, one play at a time (:mod:`harness.slot.play_player`).

``numpy`` (:func:`harness.slot.simulate.simulate_numpy`, the independent
cross-check the tests run) is looked up in the same table.  Paylines, ways,
scatters, stop weights, expanding wilds and wild multipliers are played by
every player of a model that can have them, so only the features below
limit the choice.  A feature no player plays, or a
combination no one player plays, is refused naming the model's section
(exit 2); the exact analysis still covers it.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from harness.slot.errors import ModelError
from harness.slot.height_reels import height_draws
from harness.slot.limits import MAX_KERNEL_HEIGHT_STOPS
from harness.slot.model import SlotModel

KERNEL, WINDOWS, ROUNDS, NUMPY = "kernel", "windows", "rounds", "numpy"
CLI_PLAYERS = (KERNEL, WINDOWS, ROUNDS)  # --simulate's players, fastest first
PLAYER_NAMES = {KERNEL: "the C kernel", WINDOWS: "the window player", ROUNDS: "a round's play",
                NUMPY: "the numpy player"}


@dataclasses.dataclass(frozen=True)
class Feature:
    """One model feature that not every player plays.

    Attributes
    ----------
    section : str
        Where a refusal points in the model (its section or key).
    what : str
        The feature in a refusal: ``"--simulate does not play {what}"``.
    players : frozenset of str
        The players that play it.
    present : callable
        ``present(model)``: the model has the feature.
    doc : str
        The section of docs/slot_model.md that describes it.
    """

    section: str
    what: str
    players: frozenset
    present: Callable[[SlotModel], bool]
    doc: str


def _sticky(model: SlotModel) -> list:
    return [s for s in model.symbols if s.sticky]


def _sessions(model: SlotModel) -> bool:
    """Sticky-wild sessions the kernel does not follow: several sticky wilds, or one with retriggers."""
    sticky = _sticky(model)
    return len(sticky) > 1 or bool(sticky and model.free_spins is not None and model.free_spins.retrigger)


def _tall_virtual_reels(model: SlotModel) -> bool:
    """Reel heights whose virtual reels (:func:`harness.slot.height_reels.reelset`) the C kernel does not take."""
    if model.heights is None:
        return False
    draws = height_draws(model)
    stages = (False, True) if model.free_spins is not None else (False,)
    return any(d * t > MAX_KERNEL_HEIGHT_STOPS for f in stages for d, t in zip(draws, model.stop_totals(feature=f)))


def _cascade_with_scatters(model: SlotModel) -> bool:
    return model.cascade is not None and bool(model.scatters or model.free_spins is not None)


_ = frozenset
FEATURES: tuple[Feature, ...] = (
    # a refusal of a combination no one player plays names the first feature listed (the meters last)
    Feature("cascade", "cascades with scatter symbols or free spins", _({ROUNDS}),
            _cascade_with_scatters, "Cascades with scatters and free spins"),
    Feature("cascade", "cascades", _({WINDOWS, ROUNDS}), lambda m: m.cascade is not None, "Cascades"),
    Feature("bet.both_ways", "both-ways pays", _({WINDOWS, ROUNDS}), lambda m: m.both_ways, "Both-ways pays"),
    # the kernel plays a reel's (height, stop) pairs as virtual stops (harness.slot.height_reels.reelset), up to a size
    Feature("window.heights", f"reel heights on reels of more than {MAX_KERNEL_HEIGHT_STOPS:,} (height draw, "
            "stop) pairs", _({WINDOWS, ROUNDS}), _tall_virtual_reels, "Reel heights per spin"),
    Feature("window.heights", "reel heights per spin", _({KERNEL, WINDOWS, ROUNDS}), lambda m: m.heights is not None,
            "Reel heights per spin"),
    Feature("hold_and_spin", "the hold-and-spin feature", _({ROUNDS, NUMPY}),
            lambda m: m.hold_and_spin is not None, "Hold and spin"),
    Feature("bonus", "the bonus feature", _({ROUNDS, NUMPY}), lambda m: m.bonus is not None,
            "Bonus wheels and pick bonuses"),
    Feature("cap", "the award cap", _({ROUNDS, NUMPY}), lambda m: m.cap is not None, "Award caps"),
    Feature("symbols", "several sticky wilds, or sticky wilds with retriggers", _({ROUNDS}), _sessions,
            "Sticky wilds"),
    Feature("symbols", "sticky wilds", _({KERNEL, ROUNDS}), lambda m: bool(_sticky(m)), "Sticky wilds"),
    Feature("mystery", "mystery progressive levels", _({WINDOWS, ROUNDS, NUMPY}), lambda m: bool(m.mystery),
            "Mystery and multi-level progressives"),
    Feature("jackpot", "jackpot levels won on a payline", _({ROUNDS}),
            lambda m: any(level.on == "line" for level in m.jackpots), "Jackpot levels"),
    Feature("jackpot", "jackpot levels", _({KERNEL, ROUNDS, NUMPY}), lambda m: bool(m.jackpots),
            "Jackpot levels"),
    # the window player reads the games above (both ways, heights, cascades), not one the kernel's tables read
    Feature("window", "a game not read window by window", _({KERNEL, ROUNDS, NUMPY}),
            lambda m: m.cascade is None and not m.both_ways and m.heights is None, "Simulation cross-check"),
    Feature("progressive", "the combination progressive", _({KERNEL, ROUNDS, NUMPY}),
            lambda m: m.progressive is not None, "Schema"),
    Feature("free_spins", "free spins", _({KERNEL, ROUNDS, NUMPY}), lambda m: m.free_spins is not None, "Schema"),
)


def present(model: SlotModel) -> list[Feature]:
    """The features of ``model`` that limit which player plays it, in table order."""
    return [f for f in FEATURES if f.present(model)]


def player_for(model: SlotModel, players: tuple[str, ...] = CLI_PLAYERS) -> str:
    """The first of ``players`` that plays every feature of ``model``.

    Raises
    ------
    ModelError
        Naming the model's section: the first feature none of ``players``
        plays, or, when each is played by one of them but no one plays them
        all, the first feature and one its players do not play beside it.
    """
    found = present(model)
    for player in players:
        if all(player in f.players for f in found):
            return player
    alone = next((f for f in found if not f.players & set(players)), None)
    if alone is not None:
        raise ModelError(alone.section, f"--simulate does not play {alone.what}; the figures are exact (or bounded) "
                         f"without it (docs/slot_model.md, {alone.doc})", model.source)
    first = found[0]
    mine = [p for p in players if p in first.players]
    other = next(f for f in found if not all(p in f.players for p in mine))
    by = " or ".join(PLAYER_NAMES[p] for p in mine)
    raise ModelError(first.section, f"--simulate plays {first.what} only through {by}, which does not play "
                     f"{other.what} beside it; the figures are exact (or bounded) without it "
                     f"(docs/slot_model.md, {first.doc})", model.source)
