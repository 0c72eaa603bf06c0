"""The SP 800-90B section 4.4 health tests on OS entropy (``csrc/core/health.h``):
their parameters, the process's readouts, and the known answers that
``rngcert selftest`` runs (docs/drbg.md, "Entropy health tests")."""
from __future__ import annotations

from rngcore._native import ffi, lib
from rngcore.engine import Check
from rngcore.errors import RNGError, raise_for_status

__all__ = ["TABLE2", "known_answers", "readouts"]

RCT, APT = lib.RNG_HEALTH_RCT, lib.RNG_HEALTH_APT
OS_SAMPLE_BYTES = 32  # what the self-test's check takes from the OS itself (one key's worth)

#: SP 800-90B (January 2018) section 4.4.2, Table 2: APT cutoffs at alpha = 2^-20,
#: {window: {H: cutoff}} (W = 1024 for binary samples, 512 otherwise).
TABLE2 = {
    1024: {0.2: 941, 0.4: 840, 0.6: 748, 0.8: 664, 1: 589},
    512: {0.5: 410, 1: 311, 2: 177, 4: 62, 8: 13},
}


def readouts() -> dict:
    """The process-wide tests: parameters, cutoffs, start-ups, alarms, samples."""
    return {
        "h_bits": lib.RNG_HEALTH_H_BITS, "alpha": f"2^-{lib.RNG_HEALTH_ALPHA_LOG2}",
        "rct_cutoff": int(lib.rng_health_cutoff(RCT)), "apt_cutoff": int(lib.rng_health_cutoff(APT)),
        "apt_window": lib.RNG_HEALTH_APT_WINDOW, "startups": int(lib.rng_health_startups()),
        "rct_alarms": int(lib.rng_health_alarms(RCT)), "apt_alarms": int(lib.rng_health_alarms(APT)),
        "samples": int(lib.rng_health_samples()),
    }


def _first_failure(samples: bytes) -> tuple[int, int | None]:
    state = ffi.new("rng_health *")
    lib.rng_health_init(state, lib.rng_health_rct_cutoff(lib.RNG_HEALTH_H_BITS, lib.RNG_HEALTH_ALPHA_LOG2),
                        lib.rng_health_apt_cutoff(lib.RNG_HEALTH_APT_WINDOW, lib.RNG_HEALTH_H_BITS,
                                                  lib.RNG_HEALTH_ALPHA_LOG2),
                        lib.RNG_HEALTH_APT_WINDOW)
    failed = int(lib.rng_health_feed(state, samples, len(samples)))
    return failed, (int(state.failed_at) if failed else None)


def _take_os_entropy() -> str | None:
    """Take OS_SAMPLE_BYTES from the OS through the process's health tests (the start-up
    test first, if due), then wipe them; the error if the read failed, else None.

    The check reads the process-wide counts, so without a read of its own its verdict
    would depend on what the process drew before: nothing, when every engine refused
    output (a failed power-on self-test), or the tests' own draws under pytest.
    """
    buf = ffi.new("uint8_t[]", OS_SAMPLE_BYTES)
    status = lib.rng_entropy_fill(buf, OS_SAMPLE_BYTES)
    lib.rng_memzero(buf, OS_SAMPLE_BYTES)
    try:
        raise_for_status(status, "OS entropy")
    except RNGError as exc:
        return str(exc)
    return None


def known_answers() -> list[Check]:
    """The cutoffs against SP 800-90B's formula example and Table 2; the
    tests firing where they must on stuck and biased samples, and not on a
    sample stream that stays within the cutoffs; and the process's tests on
    OS entropy, after a read of its own (so at least one start-up test ran)."""
    alpha = lib.RNG_HEALTH_ALPHA_LOG2
    got = {w: {h: int(lib.rng_health_apt_cutoff(w, h, 20)) for h in row} for w, row in TABLE2.items()}
    cutoffs = (got == TABLE2 and lib.rng_health_rct_cutoff(2.0, 20) == 11  # section 4.4.1's example
               and lib.rng_health_rct_cutoff(lib.RNG_HEALTH_H_BITS, alpha) == 4)
    fires = (_first_failure(bytes(4)) == (RCT, 3)                          # stuck: the 4th sample
             and _first_failure(bytes([5, 9]) * 12 + b"\x05") == (APT, 24)   # the 13th of a window's first
             and _first_failure(bytes(v for v in range(256) for _ in range(3)) * 2) == (0, None))
    error = _take_os_entropy()
    state = readouts()
    return [
        Check("sp800-90b-cutoffs", cutoffs,
              f"RCT 1 + ceil(20/H), APT 1 + CRITBINOM(W, 2^-H, 1 - 2^-20) = SP 800-90B Table 2 "
              f"({sum(map(len, TABLE2.values()))} cutoffs); at H = {state['h_bits']} bits/byte: "
              f"RCT {lib.rng_health_rct_cutoff(lib.RNG_HEALTH_H_BITS, alpha)}, "
              f"APT {lib.rng_health_apt_cutoff(lib.RNG_HEALTH_APT_WINDOW, lib.RNG_HEALTH_H_BITS, alpha)} "
              f"(W {state['apt_window']})"),
        Check("sp800-90b-tests", fires,
              "stuck samples fail the RCT at the 4th, a window's first sample fails the APT at its 13th "
              "occurrence, runs of 3 pass both"),
        Check("sp800-90b-os-entropy",
              error is None and state["startups"] > 0 and state["rct_cutoff"] == 4 and state["apt_cutoff"] == 13,
              (f"{error}; " if error else "")
              + f"{state['samples']:,} OS bytes tested in this process, start-up test passed {state['startups']} "
              f"time(s), alarms: RCT {state['rct_alarms']}, APT {state['apt_alarms']}"),
    ]
