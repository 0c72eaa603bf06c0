"""The exact outcome space of ``n`` fair dice (faces of :data:`rngcore.devices.dice.FACES`).

Every one of the 6**n ordered outcomes has probability 6**-n (the
equiprobability the seeds require of dice and of their electronic
equivalents, 000 第5 11-2, 第6 10-2).  Bets on dice never depend on which
die shows which face, so the space is collapsed to sorted multisets, each
carrying the number of ordered outcomes it stands for (its weight).
"""
from __future__ import annotations

import functools
import itertools
from typing import Any

from rngcore.devices.dice import FACES as FACE_LABELS

FACES = tuple(int(label) for label in FACE_LABELS)  # the faces as numbers
SIDES = len(FACES)


def dice_features(dice: tuple[int, ...]) -> dict[str, Any]:
    """Features of one roll that pay tables may test.

    ``dice`` (sorted faces), ``total``, ``count_1`` .. ``count_6`` (how many
    dice show each face), ``faces`` (frozenset of faces shown),
    ``all_same`` (a pair of 2 dice, a triple of 3) and ``distinct``
    (no two dice equal).
    """
    dice = tuple(sorted(dice))
    features: dict[str, Any] = {
        "dice": dice,
        "total": sum(dice),
        "faces": frozenset(dice),
        "all_same": len(set(dice)) == 1,
        "distinct": len(set(dice)) == len(dice),
    }
    for face in FACES:
        features[f"count_{face}"] = dice.count(face)
    return features


def ordered_index(dice: tuple[int, ...]) -> int:
    """Index of an ordered outcome in 0 .. 6**n - 1 (first die most significant)."""
    index = 0
    for face in dice:
        if face not in FACES:
            raise ValueError(f"a die shows {FACES[0]}..{FACES[-1]}, got {face}")
        index = index * SIDES + FACES.index(face)
    return index


@functools.lru_cache(maxsize=None)
def dice_space(n: int) -> tuple[tuple[tuple[dict[str, Any], int], ...], int]:
    """The outcome space of ``n`` dice: ((features, weight), ...) and 6**n.

    Weights are counts of ordered outcomes, so they are exact integers and
    sum to the returned total.
    """
    if n < 1:
        raise ValueError(f"number of dice must be >= 1, got {n}")
    weights: dict[tuple[int, ...], int] = {}
    for roll in itertools.product(FACES, repeat=n):
        key = tuple(sorted(roll))
        weights[key] = weights.get(key, 0) + 1
    space = tuple((dice_features(key), weight) for key, weight in sorted(weights.items()))
    return space, SIDES**n


@functools.lru_cache(maxsize=None)
def ordered_features(n: int) -> tuple[dict[str, Any], ...]:
    """Features of every ordered outcome, indexed by :func:`ordered_index`."""
    return tuple(dice_features(roll) for roll in itertools.product(FACES, repeat=n))
