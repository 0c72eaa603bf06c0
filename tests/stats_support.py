"""Shared helpers for the stats tests: good draws from our devices, brute-force references."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

FAR_TAIL = 1e-9  # default-run statistical thresholds: never flaky


def seed_hex(i: int) -> str:
    return f"{i:064x}"


def device_spec(name: str):
    """A device a kind names itself (``bytes``, ``k-of-n:3:20``) or one of rngcore's registry."""
    from stats.kinds import parse_device

    kind = parse_device(name)
    if kind is not None:
        return kind
    from rngcore.devices import device_spec as registry_spec

    return registry_spec(name)


def draw(device: str, n: int, seed: int = 1):
    """n outcomes of our own virtual device (rngcore.Generator replay mode)."""
    import rngcore

    spec = device_spec(device)
    return spec, spec.draw(rngcore.Generator(seed_hex(seed)), n)


def numpy_rng(seed: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(seed))


def all_sequences(k: int, n: int):
    """Every sequence of length n over k symbols (for exact enumeration)."""
    return np.array(list(itertools.product(range(k), repeat=n)))


def enumerated_law(p, t, statistic) -> dict:
    """Exact law of ``statistic(seq)`` over every sequence of t i.i.d. outcomes with law ``p`` (Fractions)."""
    out = {}
    for seq in itertools.product(range(len(p)), repeat=t):
        prob = Fraction(1)
        for c in seq:
            prob *= p[c]
        key = statistic(seq)
        out[key] = out.get(key, Fraction(0)) + prob
    return out


def exact_moments(values, weights=None):
    """Mean vector and covariance matrix of rows of ``values`` (exact, weighted)."""
    values = np.asarray(values, dtype=np.float64)
    w = np.ones(len(values)) if weights is None else np.asarray(weights, dtype=np.float64)
    w = w / w.sum()
    mean = w @ values
    centred = values - mean
    return mean, (centred * w[:, None]).T @ centred


BIG_SIX = tuple(Fraction(c, 54) for c in (23, 15, 8, 4, 2, 1, 1))


def interrupt_rngcert_test(monkeypatch, at: int, action) -> None:
    """Make ``rngcert test`` call ``action()`` (raise, or send a signal) before its chunk ``at``."""
    import harness.commands.battery as cmd

    real = cmd._source

    def source(*args):
        n, chunks, what, *rest = real(*args)

        def gen():
            for i, part in enumerate(chunks):
                if i == at:
                    action()
                yield part
        return (n, gen(), what, *rest)

    monkeypatch.setattr(cmd, "_source", source)
