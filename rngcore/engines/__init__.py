"""The engine registry: every bit source rngcert can draw from, by name.

An engine is ONE module that lists in ``ENGINES`` its
:class:`rngcore.engine.BitSource` subclass, declaring its name, seeding,
provenance and known-answer tests (docs/architecture.md, "Adding an
engine").  The registry holds, in this order:

* every module of this package (``rngcore/engines/*.py`` that defines
  ``ENGINES``; modules whose name starts with ``_`` are helpers), found by
  :class:`rngcore.plugins.Registry` (:mod:`pkgutil`, as for games and
  devices);
* every module named by an installed distribution's ``rngcert.engines``
  entry point (a plug-in engine shipped in another package);
* every engine registered at run time with :func:`register` (a class),
  :func:`register_module` or :func:`register_package` (the public API of
  :data:`ENGINES`).

The ``--engine`` choices, ``rngcert selftest`` and the docs' engine table
are read from here, never typed again.
"""
from __future__ import annotations

from rngcore.engine import BitSource
from rngcore.plugins import Registry

__all__ = ["DEFAULT_ENGINE", "ENGINES", "create", "engine_class", "engines", "register", "register_module",
           "register_package"]

DEFAULT_ENGINE = "chacha20"


def _check(engine) -> None:
    if not (isinstance(engine, type) and issubclass(engine, BitSource)):
        raise TypeError(f"an engine must be a rngcore.engine.BitSource subclass, got {engine!r}")
    name = engine.name
    if not name or name != name.strip().lower() or " " in name:
        raise ValueError(f"engine {engine.__qualname__} needs a lower-case name without spaces, got {name!r}")


#: Every engine class, by name (a read-only mapping, discovered on first use).
ENGINES: Registry[type[BitSource]] = Registry("engine", "ENGINES", [__name__], check=_check,
                                              entry_points="rngcert.engines")

register = ENGINES.register
register_module = ENGINES.register_module
register_package = ENGINES.register_package


def engines() -> dict[str, type[BitSource]]:
    """Every registered engine, by name (the default engine first)."""
    names = sorted(ENGINES, key=lambda name: name != DEFAULT_ENGINE)  # stable: discovery order otherwise
    return {name: ENGINES[name] for name in names}


def engine_class(name: str) -> type[BitSource]:
    """The engine registered as ``name``; ValueError listing the valid names."""
    return ENGINES.get_item(name)


def create(name: str = DEFAULT_ENGINE, seed=None, stream=None) -> BitSource:
    """A new bit source of engine ``name``: replay mode if ``seed`` is given,
    else production mode (seeded from the operating system).

    Raises
    ------
    ValueError
        For an unknown engine, a malformed seed, or a stream id for an engine
        without streams (or without a seed).
    rngcore.errors.EntropyError, rngcore.errors.SelfTestError
        If the engine cannot produce output.
    """
    engine = engine_class(name)
    if stream is not None and not engine.has_streams:
        raise ValueError(f"the {name} engine has no stream ids")
    if seed is None:
        if stream is not None:
            raise ValueError("a stream id selects a replay stream and needs a seed")
        if not engine.has_production:
            raise ValueError(f"the {name} engine has no production mode; give a replay seed")
        return engine()
    return engine(engine.parse_seed(seed), stream)
