"""SP 800-90B section 4.4 health tests on OS entropy (``csrc/core/health.h``):
the cutoffs against the standard's formulas and Table 2, the tests against a
straightforward reference of the standard's pseudocode, the false-positive
rate on good data over 10^6 blocks, and every engine failing closed on a
stuck, repeating or biased source injected through the fault seam."""
import subprocess
import sys

import numpy as np
import pytest
from scipy.stats import binom, poisson

import rngcore
from rngcore import ffi, lib
from rngcore.engines import engines
from rngcore.errors import EntropyHealthError
from rngcore.testing import entropy_tamper

ALPHA_LOG2 = 20
RCT, APT = lib.RNG_HEALTH_RCT, lib.RNG_HEALTH_APT

# SP 800-90B (January 2018) section 4.4.2, Table 2: APT cutoffs at alpha = 2^-20.
TABLE2_BINARY = {0.2: 941, 0.4: 840, 0.6: 748, 0.8: 664, 1: 589}   # W = 1024
TABLE2_NON_BINARY = {0.5: 410, 1: 311, 2: 177, 4: 62, 8: 13}       # W = 512


def test_the_selftest_table_is_the_standards_and_its_checks_pass():
    from rngcore import health

    assert health.TABLE2 == {1024: TABLE2_BINARY, 512: TABLE2_NON_BINARY}
    rngcore.Generator().random_bytes(1)
    checks = health.known_answers()
    assert [c.name for c in checks] == ["sp800-90b-cutoffs", "sp800-90b-tests", "sp800-90b-os-entropy"]
    assert all(c.passed for c in checks), checks


def test_the_os_entropy_check_fails_when_its_own_read_fails():
    """The check reads OS entropy itself, so a failing OS read fails it, naming why."""
    from rngcore import health
    from rngcore.testing import entropy_fault

    with entropy_fault("fail"):
        [check] = [c for c in health.known_answers() if c.name == "sp800-90b-os-entropy"]
    assert not check.passed
    assert check.detail.startswith("OS entropy: the operating system could not supply entropy"), check.detail


# --- cutoffs ----------------------------------------------------------------------------

def test_the_rct_cutoff_is_the_standards_formula():
    assert lib.rng_health_rct_cutoff(2.0, ALPHA_LOG2) == 11  # section 4.4.1's example
    assert lib.rng_health_rct_cutoff(8.0, ALPHA_LOG2) == 4   # 1 + ceil(20 / 8)
    for h in (0.5, 1, 3, 7.5, 8):
        assert lib.rng_health_rct_cutoff(h, ALPHA_LOG2) == 1 + int(np.ceil(20 / h))


@pytest.mark.parametrize("window, table", [(1024, TABLE2_BINARY), (512, TABLE2_NON_BINARY)])
def test_the_apt_cutoff_matches_table_2(window, table):
    assert {h: lib.rng_health_apt_cutoff(window, h, ALPHA_LOG2) for h in table} == table


def test_the_apt_cutoff_is_critbinom_for_every_h():
    """1 + CRITBINOM(W, 2^-H, 1 - alpha); scipy's binom.ppf is the same function."""
    for window in (512, 1024):
        for h in np.arange(0.05, 8.01, 0.05):
            want = 1 + int(binom.ppf(1 - 2.0 ** -ALPHA_LOG2, window, 2.0 ** -h))
            assert lib.rng_health_apt_cutoff(window, float(h), ALPHA_LOG2) == want, (window, h)
    assert lib.rng_health_apt_cutoff(0, 8.0, ALPHA_LOG2) == 0  # no such window


def test_the_os_entropy_tests_use_the_stated_h_and_alpha():
    assert (lib.RNG_HEALTH_H_BITS, lib.RNG_HEALTH_ALPHA_LOG2, lib.RNG_HEALTH_APT_WINDOW) == (8, 20, 512)
    rngcore.Generator().random_bytes(1)  # the process tests are set up at the first OS read
    assert lib.rng_health_cutoff(RCT) == 4 and lib.rng_health_cutoff(APT) == 13


# --- the tests against a reference of the pseudocode ------------------------------------------

def _reference(samples, rct_cutoff, apt_cutoff, window):
    """SP 800-90B 4.4.1 and 4.4.2 as written; (tests failed, index) of the first failure."""
    a_rct, b_rct = None, 0
    a_apt, b_apt, seen = None, 0, 0
    for i, x in enumerate(samples):
        failed = 0
        if b_rct and x == a_rct:
            b_rct += 1
            if b_rct >= rct_cutoff:
                failed |= RCT
        else:
            a_rct, b_rct = x, 1
        if seen == 0:
            a_apt, b_apt, seen = x, 1, 1
        else:
            seen += 1
            if x == a_apt:
                b_apt += 1
                if b_apt >= apt_cutoff:
                    failed |= APT
            if seen == window:
                seen = 0
        if failed:
            return failed, i
    return 0, None


def _feed(samples, rct_cutoff=4, apt_cutoff=13, window=512):
    state = ffi.new("rng_health *")
    lib.rng_health_init(state, rct_cutoff, apt_cutoff, window)
    data = bytes(samples)
    failed = lib.rng_health_feed(state, data, len(data))
    return failed, (int(state.failed_at) if failed else None)


def test_known_failures():
    assert _feed([7] * 4) == (RCT, 3)            # four in a row
    assert _feed([7, 7, 7, 1] * 100) == (APT, 16)  # runs of three: only the proportion fails (the 13th 7)
    assert _feed(list(range(256)) * 8) == (0, None)  # each value twice a window, never twice in a row
    assert _feed([5, 9] * 12 + [5]) == (APT, 24)   # the window's first sample for the 13th time
    state = ffi.new("rng_health *")
    lib.rng_health_init(state, 4, 13, 512)
    assert lib.rng_health_feed(state, bytes(4), 4) == RCT
    assert lib.rng_health_feed(state, b"\x01\x02", 2) == RCT  # a failed state stays failed


def test_the_c_tests_equal_the_reference():
    rng = np.random.default_rng(2026)
    for trial in range(300):
        alphabet = int(rng.integers(2, 40))
        samples = rng.integers(0, alphabet, size=int(rng.integers(1, 3000)), dtype=np.uint8).tolist()
        rct_cutoff, apt_cutoff, window = int(rng.integers(2, 9)), int(rng.integers(2, 60)), int(rng.integers(2, 600))
        assert _feed(samples, rct_cutoff, apt_cutoff, window) == _reference(samples, rct_cutoff, apt_cutoff, window)


def test_good_data_trips_at_the_stated_rate_over_a_million_blocks():
    """10^6 blocks of 32 bytes (an engine's entropy input) of ChaCha20
    keystream, a stand-in for full-entropy data that makes the count exact
    and repeatable.  At H = 8 the RCT fails a sample with probability
    2^-24 and the APT a window with P(Binomial(511, 2^-8) >= 12) = 1.22e-6
    (1 + CRITBINOM counts the window's first sample twice, so this is 1.28
    alpha, as the standard's cutoff gives it): about 1.9 and 0.08 expected
    failures.  The counts must be what those rates give (far-tail bounds)."""
    blocks, block = 10 ** 6, 32
    data = rngcore.Generator(bytes(range(32))).random_bytes(blocks * block)
    state = ffi.new("rng_health *")
    lib.rng_health_init(state, 4, 13, 512)
    rct, apt = ffi.new("uint64_t *"), ffi.new("uint64_t *")
    lib.rng_health_count(state, data, len(data), rct, apt)
    rct_mean = len(data) * 2.0 ** -24
    apt_mean = len(data) / 512 * binom.sf(11, 511, 2.0 ** -8)
    assert rct_mean < 2 and apt_mean < 0.1
    for count, mean in ((rct[0], rct_mean), (apt[0], apt_mean)):
        assert count <= poisson.isf(1e-9, mean), (count, mean)
    # This stream's exact counts (a pin; the four runs of four were found by a plain numpy scan).
    assert (int(rct[0]), int(apt[0])) == (4, 0)


def test_a_biased_source_trips_the_proportion_test_and_not_the_repetition_test():
    rng = np.random.default_rng(7)
    samples = np.where(rng.random(20000) < 0.2, 0x5A, rng.integers(0, 256, 20000)).astype(np.uint8)
    state = ffi.new("rng_health *")
    lib.rng_health_init(state, 4, 13, 512)
    rct, apt = ffi.new("uint64_t *"), ffi.new("uint64_t *")
    lib.rng_health_count(state, samples.tobytes(), len(samples), rct, apt)
    assert apt[0] >= 5  # about a fifth of the windows start on 0x5A, and each of those fails


# --- the engines on a broken OS source ------------------------------------------------------------

ENGINES = sorted(engines())


def _health_error(test):
    return pytest.raises(EntropyHealthError, match={RCT: "Repetition Count", APT: "Adaptive Proportion"}[test])


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("kind, options, test", [
    ("stuck", {"value": 0}, RCT),
    ("repeat", {"run": 4}, RCT),
    ("biased", {"value": 0xA5}, APT),
])
def test_a_broken_source_fails_every_new_engine_and_a_new_one_works_after(name, kind, options, test):
    """The tests run on one continuous stream of OS samples: a stuck or
    repeating source fails within 4 samples; a biased one within the rest of
    the current 512-sample window and the next two (the proportion test
    looks at the window's first sample), so at most ~1,050 bytes."""
    engine = engines()[name]
    before = lib.rng_health_alarms(test), lib.rng_health_alarms(RCT + APT - test)
    with entropy_tamper(kind, **options) as tampered:
        with _health_error(test):
            for _ in range(2000):
                engine()
        assert tampered() <= (4 + 48 if test == RCT else 3 * 512 + 48)
    assert (lib.rng_health_alarms(test), lib.rng_health_alarms(RCT + APT - test)) == (before[0] + 1, before[1])
    startups = lib.rng_health_startups()
    assert len(rngcore.Generator(engine()).random_bytes(16)) == 16  # a new instance: start-up test, then works
    assert lib.rng_health_startups() == startups + 1


@pytest.mark.parametrize("name", ["hmac-drbg-sha256", "ctr-drbg-aes256", "ctr-drbg-aes256-nodf"])
def test_a_failed_reseed_latches_the_generator_closed(name):
    g = rngcore.Generator(engines()[name]())
    g.random_bytes(10)
    with entropy_tamper("stuck", value=0x33):
        with _health_error(RCT):
            g.bit_source.reseed()
    for _ in range(2):  # closed for good, though the OS is fine again
        with _health_error(RCT):
            g.random_bytes(1)
    assert len(rngcore.Generator(engines()[name]()).random_bytes(1)) == 1


def test_prediction_resistance_checks_every_request():
    engine = engines()["hmac-drbg-sha256"](prediction_resistance=True)
    g = rngcore.Generator(engine)
    g.random_bytes(5000)
    with entropy_tamper("stuck", value=1):
        with _health_error(RCT):
            g.random_bytes(8192)


def test_a_three_sample_repeat_is_within_the_cutoff():
    """A run of 3 equal samples is allowed at H = 8 (the cutoff is 4): a
    source repeating each value three times passes, one repeating it four
    times fails at the fourth."""
    threes = [v for v in range(256) for _ in range(3)] * 2
    assert _feed(threes) == (0, None)
    assert _feed([v for v in range(256) for _ in range(4)]) == (RCT, 3)


def test_the_startup_test_runs_on_1024_samples_before_the_first_read():
    code = ("from rngcore import lib; import rngcore; "
            "before = lib.rng_health_startups(), lib.rng_health_samples(); "
            "rngcore.Generator(); print(*before, lib.rng_health_startups(), lib.rng_health_samples())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert [int(v) for v in out] == [0, 0, 1, 1024 + 32]  # start-up samples, then ChaCha20's 32-byte key


def test_the_cli_fails_closed_in_one_line():
    from click.testing import CliRunner

    from harness.cli import main

    with entropy_tamper("stuck", value=0x77):
        result = CliRunner().invoke(main, ["draw", "roulette-single", "-n", "5", "--engine", "hmac-drbg-sha256"])
    assert result.exit_code == 1 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Repetition Count Test" in lines[0], result.stderr
