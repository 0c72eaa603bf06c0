"""One status -> exception map (rngcore.errors.raise_for_status), with per-call details."""
import pytest


def test_one_status_map_with_call_details():
    from rngcore import lib
    from rngcore.errors import EntropyError, raise_for_status

    raise_for_status(lib.RNG_OK, "anything")
    with pytest.raises(ValueError, match="^kernel: an argument was out of range$"):
        raise_for_status(lib.RNG_E_ARGUMENT, "kernel")
    with pytest.raises(ValueError, match="^kernel: the tables are inconsistent$"):
        raise_for_status(lib.RNG_E_ARGUMENT, "kernel", details={lib.RNG_E_ARGUMENT: "the tables are inconsistent"})
    with pytest.raises(EntropyError, match="could not supply entropy"):  # details of another status change nothing
        raise_for_status(lib.RNG_E_ENTROPY, "kernel", details={lib.RNG_E_ARGUMENT: "x"})


def test_the_known_answer_paths_use_the_one_map():
    """A keystream path's failing status reaches the caller as the map's exception, not a bare RuntimeError."""
    from rngcore import lib
    from rngcore.engines._chacha20_kat import _path_keystream

    def unavailable(key, counter, stream, out, nblocks):
        return lib.RNG_E_ARGUMENT

    with pytest.raises(ValueError, match="^ChaCha20 keystream path: not available on this CPU or build$"):
        _path_keystream(unavailable, bytes(32), 0, 0, 64)
    assert len(_path_keystream(lib.rng_chacha20_blocks_portable, bytes(32), 0, 0, 64)) == 64
