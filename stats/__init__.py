"""stats: statistical tests for random outcomes from any source.

Every test works on plain arrays (or streams of chunks, :mod:`stats.streaming`)
of outcomes from any device — ours or a third party's — and returns a frozen
result with ``statistic`` and ``pvalue``.  Nothing here lives inside the RNG.

Layout: one module per family of tests (``chisquare``, ``serial``, ``runs``,
``gap``, ``poker``, ``coupon``, ``order``, ``correlation``, ``spacings``,
``spectral``, ``poisson``, ``interplay``, ``shuffle``, ``second_level``),
``power`` for power analysis, ``battery`` for the per-device certification
battery, ``io`` for capture files, ``bytestream`` for raw byte streams as a
device, and ``defects`` for a zoo of broken devices used to demonstrate power.
Device kinds are classes in :mod:`stats.kinds`; each test declares its own
battery entry (:mod:`stats.registry`), and a registered test's public
function is reachable here by name even when this list does not name it.
"""
from stats._results import (
    CheckResult,
    ChiSquareResult,
    CountResult,
    NormalResult,
    SerialCorrelationResult,
    UniformityResult,
)
from stats._validate import InsufficientDataError
from stats.battery import Battery, BatteryResult, holm, run_battery
from stats.chisquare import chisquare, frequency_test, pool_cells
from stats.correlation import serial_correlation_test
from stats.coupon import coupon_collector_test
from stats.gap import gap_test
from stats.interplay import interplay_test
from stats.order import maximum_test, permutation_test
from stats.pit import randomized_pit
from stats.poisson import poisson_test
from stats.poker import poker_test
from stats.runs import runs_median_test, runs_up_test, runs_updown_test
from stats.second_level import anderson_darling_test, ks_uniform_test
from stats.serial import independence_test, serial_test
from stats.shuffle import (
    adjacency_test,
    card_position_test,
    carryover_test,
    composition_check,
    permutation_frequency_test,
    position_test,
    relative_order_test,
)
from stats.spacings import birthday_spacings_test, collision_test
from stats.spectral import bits_from_bytes, spectral_test

__all__ = [
    "chisquare", "frequency_test", "pool_cells", "serial_test", "independence_test", "runs_up_test",
    "runs_updown_test", "runs_median_test", "gap_test", "poker_test", "coupon_collector_test",
    "permutation_test", "maximum_test", "serial_correlation_test", "birthday_spacings_test", "collision_test",
    "position_test", "card_position_test", "adjacency_test", "carryover_test", "composition_check",
    "permutation_frequency_test", "relative_order_test", "ks_uniform_test", "anderson_darling_test",
    "randomized_pit", "spectral_test", "bits_from_bytes", "poisson_test", "interplay_test", "Battery", "BatteryResult", "run_battery", "holm", "InsufficientDataError",
    "ChiSquareResult", "NormalResult", "SerialCorrelationResult", "CountResult", "UniformityResult",
    "CheckResult",
]


def __getattr__(name: str):
    if not name.startswith("_"):
        from stats.registry import entries

        for entry in entries():
            if entry.function is not None and entry.function.__name__ == name:
                return entry.function
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
