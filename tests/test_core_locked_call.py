"""rngcore.engine.locked_call: the one way devices, games and slot hand a
generator's rng_source to C -- lock held for the whole call, status checked."""
import numpy as np
import pytest

import rngcore
from rngcore import ffi, lib
from rngcore.engine import locked_call
from rngcore.errors import ExhaustedError
from rngcore.testing import TestEngine


def test_the_generator_lock_is_held_for_the_whole_call_and_the_source_passed():
    generator = rngcore.Generator(bytes(32))
    seen = []

    def c_function(source, a, b):
        seen.append((source == generator.source, generator.lock.locked(), a, b))
        return lib.RNG_OK

    assert locked_call(generator, c_function, 1, 2, what="test") == lib.RNG_OK
    assert seen == [(True, True, 1, 2)]
    assert not generator.lock.locked()


def test_a_failure_status_raises_and_releases_the_lock():
    generator = rngcore.Generator(bytes(32))
    with pytest.raises(ValueError, match="drawing things: an argument was out of range"):
        locked_call(generator, lambda source: lib.RNG_E_ARGUMENT, what="drawing things")
    assert not generator.lock.locked()
    with pytest.raises(rngcore.EntropyError):
        locked_call(generator, lambda source: lib.RNG_E_ENTROPY, what="x")


def test_real_c_draw_on_a_generator_and_on_an_unlocked_test_engine():
    out = ffi.new("uint8_t[]", 4)
    generator = rngcore.Generator(bytes(32))
    assert locked_call(generator, lib.rng_uniform8, 6, 6, out, 4, 64, what="dice") == lib.RNG_OK
    assert all(0 <= v < 6 for v in out) and generator.position > 0
    engine = TestEngine.from_words([], 8)  # no words: the draw runs out
    with pytest.raises(ExhaustedError, match="dice"):
        locked_call(engine, lib.rng_uniform8, 6, 6, out, 4, 8, what="dice")


def test_something_without_an_rng_source_is_refused():
    with pytest.raises(TypeError, match="expected an rngcore.Generator .*, got Generator"):
        locked_call(np.random.default_rng(1), lib.rng_uniform8, what="x")


def test_a_bare_source_is_refused_so_the_lock_cannot_be_skipped():
    generator = rngcore.Generator(bytes(32))
    with pytest.raises(TypeError, match="not a bare rng_source"):
        locked_call(generator.source, lib.rng_uniform8, 6, 6, ffi.new("uint8_t[]", 4), 4, 64, what="x")
    assert generator.position == 0
