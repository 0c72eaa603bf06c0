"""Casino RNG controls (rngcore.controls): Generator.reseed on every engine,
the per-shuffle / per-round reseed policy of the device API, and background
cycling that discards under the lock and never hands out a discarded byte."""
import threading
import time

import numpy as np
import pytest

import rngcore
from rngcore import lib
from rngcore.controls import RESEED_POLICIES, BackgroundCycling
from rngcore.devices import Shoe, roll, spin, tile_stacks
from rngcore.engines import engines

ENGINES = sorted(engines())
REPLAY_SEED = bytes(range(0x10, 0x40))  # 48 bytes: 32 for ChaCha20


def _replay(name):
    engine = engines()[name]
    return rngcore.Generator(engine(REPLAY_SEED[:engine.seed_bytes]))


@pytest.mark.parametrize("name", ENGINES)
def test_reseed_takes_fresh_os_entropy_and_drops_buffered_output(name):
    g = rngcore.Generator(engines()[name]())
    g.random_bytes(3)  # the rest of a block is buffered
    seedings, samples = g.bit_source.seedings, lib.rng_health_samples()
    g.reseed()
    assert g.bit_source.seedings == seedings + 1
    assert lib.rng_health_samples() - samples >= 32  # fresh OS bytes, through the health tests
    assert g.provenance().position == 3  # the dropped bytes were never handed out
    assert len(g.random_bytes(10)) == 10


def test_drbg_reseed_takes_additional_input_and_chacha_refuses_it():
    g = rngcore.Generator(engines()["hmac-drbg-sha256"]())
    g.reseed(b"round 42")
    with pytest.raises(ValueError, match="no additional input"):
        rngcore.Generator().reseed(b"round 42")


@pytest.mark.parametrize("name", ENGINES)
def test_a_replay_generator_refuses_to_reseed(name):
    with pytest.raises(ValueError, match="production mode only"):
        _replay(name).reseed()


def test_the_policy_is_checked():
    with pytest.raises(ValueError, match="reseed_before must be one of never, shuffle, round"):
        rngcore.Generator(reseed_before="hourly")
    with pytest.raises(ValueError, match="needs a production generator"):
        rngcore.Generator(bytes(range(32)), reseed_before="round")
    assert set(RESEED_POLICIES) == {"never", "shuffle", "round"}
    assert rngcore.Generator().reseed_before == "never"


def _seedings(g):
    return g.bit_source.seedings


@pytest.mark.parametrize("name", ["chacha20", "ctr-drbg-aes256"])
def test_reseed_before_every_shuffle(name):
    g = rngcore.Generator(engines()[name](), reseed_before="shuffle")
    shoe = Shoe(g, "pa-blackjack")
    start = _seedings(g)
    shoe.shuffle()
    shoe.shuffle()
    assert _seedings(g) == start + 2
    shoe.start_round()  # a round is no shuffle: no reseed
    assert _seedings(g) == start + 2


@pytest.mark.parametrize("name", ["chacha20", "hmac-drbg-sha256"])
def test_reseed_before_every_round(name):
    g = rngcore.Generator(engines()[name](), reseed_before="round")
    start = _seedings(g)
    assert roll(g, 2, 5).shape == (5, 2)
    assert _seedings(g) == start + 5  # five rolls, five rounds
    spin(g, "big-six")
    assert tile_stacks(g, 2).shape == (2, 8, 4)
    assert _seedings(g) == start + 8
    shoe = Shoe(g, "pa-blackjack")
    for _ in range(3):
        shoe.start_round()
        shoe.deal(4)
        shoe.end_round()
    assert _seedings(g) == start + 11  # the first round's shuffle adds none under "round"


def test_no_policy_no_reseed_and_the_draws_are_unchanged():
    seed = bytes(range(32))
    a, b = rngcore.Generator(seed), rngcore.Generator(seed)
    assert np.array_equal(roll(a, 2, 50), roll(b, 2, 50))
    assert np.array_equal(tile_stacks(a, 3), tile_stacks(b, 3))
    g = rngcore.Generator()
    start = _seedings(g)
    roll(g, 2, 10)
    Shoe(g, "pa-blackjack").shuffle()
    assert _seedings(g) == start


# --- background cycling -----------------------------------------------------------------------

def _wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


@pytest.mark.parametrize("name", ["chacha20", "hmac-drbg-sha256"])
def test_cycling_discards_and_never_hands_out_a_discarded_byte(name):
    """On a replay stream every byte is accounted for: what the callers got
    are disjoint pieces of the stream in order, and the gaps between them
    are exactly what cycling discarded."""
    g = _replay(name)
    reference = _replay(name).random_bytes(1 << 20)
    got = []
    with BackgroundCycling(g, 200_000, tick=0.001) as cycling:
        for _ in range(20):
            seen = cycling.discarded
            _wait_for(lambda: cycling.discarded > seen)
            got.append(g.random_bytes(97))
    handed = sum(map(len, got))
    assert g.position == handed + cycling.discarded
    at, gaps = 0, 0
    for piece in got:
        found = reference.find(piece, at)
        assert found > at, (found, at)  # after a discard, and never a byte handed out before
        gaps += found - at
        at = found + len(piece)
    assert gaps + (g.position - at) == cycling.discarded  # every discarded byte is in a gap


def test_cycling_skips_while_a_draw_holds_the_lock_and_stops_when_asked():
    g = rngcore.Generator()
    cycling = BackgroundCycling(g, 1 << 20, tick=0.001).start()
    _wait_for(lambda: cycling.discarded > 0)
    with g.lock:  # a draw in progress: the generator is not idle
        before = cycling.discarded
        time.sleep(0.05)
        assert cycling.discarded == before
    _wait_for(lambda: cycling.discarded > before)
    cycling.stop()
    stopped = cycling.discarded
    time.sleep(0.02)
    assert cycling.discarded == stopped
    assert not any(t.name == "rngcert-background-cycling" for t in threading.enumerate())


def test_cycling_stops_on_a_failed_generator():
    from rngcore.errors import EntropyHealthError
    from rngcore.testing import entropy_tamper

    g = rngcore.Generator(engines()["hmac-drbg-sha256"](prediction_resistance=True))
    with entropy_tamper("stuck", value=9):
        with BackgroundCycling(g, 1 << 20, tick=0.001) as cycling:
            _wait_for(lambda: cycling.error is not None)
    assert isinstance(cycling.error, EntropyHealthError)
    with pytest.raises(EntropyHealthError):
        g.random_bytes(1)


def test_cycling_arguments():
    with pytest.raises(ValueError, match="bytes_per_second >= 1"):
        BackgroundCycling(rngcore.Generator(), 0)
    with BackgroundCycling(rngcore.Generator(), 10) as cycling:
        with pytest.raises(ValueError, match="already running"):
            cycling.start()
