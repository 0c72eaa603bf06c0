"""stats: statistical tests for random outcomes from any source.

Every test works on plain arrays (or streams of chunks, :mod:`stats.streaming`)
of outcomes from any device — ours or a third party's — and returns a frozen
result with ``statistic`` and ``pvalue``.  Nothing here lives inside the RNG.

Layout: one module per family of tests (``chisquare``, ``serial``, ``runs``,
``gap``, ``poker``, ``coupon``, ``order``, ``correlation``, ``spacings``,
``spectral``, ``poisson``, ``interplay``, ``shuffle``, ``second_level``; the device-fault
tests ``repeats``, ``sectors`` and ``rising``),
``power`` for power analysis, ``battery`` for the per-device certification
battery, ``io`` for capture files, ``bytestream`` for raw byte streams as a
device, and ``defects`` for a zoo of broken devices used to demonstrate power.
Device kinds are classes in :mod:`stats.kinds`; each test declares its own
battery entry (:mod:`stats.registry`), and a registered test's public
function is reachable here by name even when this list does not name it.
"""
import importlib
import importlib.util
import sys
import types

# Public names and the module each lives in.  They are imported on first use
# (PEP 562), so importing a light submodule such as stats.kinds does not load
# scipy and every test: `rngcert test` can reject a bad device name at once.
_MODULES = {
    "stats._results": (
        'CheckResult', 'ChiSquareResult', 'CountResult', 'NormalResult', 'SerialCorrelationResult',
        'UniformityResult',
    ),
    "stats._validate": ('InsufficientDataError',),
    "stats.battery": ('Battery', 'BatteryResult', 'holm', 'run_battery',),
    "stats.chisquare": ('chisquare', 'frequency_test', 'pool_cells',),
    "stats.correlation": ('serial_correlation_test',),
    "stats.coupon": ('coupon_collector_test',),
    "stats.gap": ('gap_test',),
    "stats.interplay": ('interplay_test',),
    "stats.order": ('maximum_test', 'permutation_test',),
    "stats.pit": ('randomized_pit',),
    "stats.poisson": ('poisson_test',),
    "stats.poker": ('poker_test',),
    "stats.runs": ('runs_median_test', 'runs_up_test', 'runs_updown_test',),
    "stats.second_level": ('anderson_darling_test', 'ks_uniform_test',),
    "stats.serial": ('independence_test', 'serial_test',),
    "stats.shuffle": (
        'adjacency_test', 'card_position_test', 'carryover_test', 'composition_check',
        'permutation_frequency_test', 'position_test', 'relative_order_test',
    ),
    "stats.spacings": ('birthday_spacings_test', 'collision_test',),
    "stats.spectral": ('bits_from_bytes', 'spectral_test',),
}
_EXPORTS = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value  # later lookups skip this function
        return value
    # A registered test's public function, by name; never for a submodule's
    # name (``from stats import registry`` must import the submodule).
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is None:
        from stats.registry import entries

        for entry in entries():
            if entry.function is not None and entry.function.__name__ == name:
                return entry.function
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """``stats.chisquare`` is the function, as with eager imports: importing the
    submodule of that name must not rebind the package attribute to the module."""

    def __setattr__(self, name, value):
        if isinstance(value, types.ModuleType) and name in _EXPORTS:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


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

