"""The bench framework: BenchCase, the timing runner, ratios, discovery and
``rngcert bench`` (with tiny fake cases, so no timing is asserted)."""
import json
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from harness.benchcases import BenchCase, SkipCase, discover_cases
from harness.benchcases import _base
from harness.benchcases import core as core_cases
from harness.cli import main

FAST = _base.Timing(repeats=3, min_seconds=0.001)


def _case(group, name, *, baseline=False, target=None, units=10, check=None, setup=None):
    return BenchCase(group, name, setup or (lambda: (lambda: sum(range(50)))), units, "values",
                     baseline=baseline, target=target, check=check)


# --- BenchCase and targets ------------------------------------------------------

def test_units_must_be_positive():
    with pytest.raises(ValueError, match="units must be > 0"):
        _case("g", "a", units=0)


@pytest.mark.parametrize("bad", ["0.9x openssl", ">= 0.9 openssl", ">= x foo", ">= 1x"])
def test_malformed_target_is_rejected_with_the_clause(bad):
    with pytest.raises(ValueError, match="bad bench target clause"):
        _case("g", "a", target=bad)


def test_parse_target_reads_every_clause():
    clauses = _base.parse_target(">= 0.9x openssl-chacha20; >= 10x os-urandom")
    assert clauses == (_base.TargetClause(0.9, "openssl-chacha20"), _base.TargetClause(10.0, "os-urandom"))
    assert _base.parse_target(None) == ()


def test_duplicate_case_names_in_a_group_raise():
    with pytest.raises(ValueError, match="duplicate bench case g/a"):
        _base.group_cases([_case("g", "a"), _case("g", "a")])
    assert list(_base.group_cases([_case("g", "a"), _case("h", "a"), _case("g", "b")])) == ["g", "h"]


# --- runner -----------------------------------------------------------------------

def test_run_group_times_checks_and_skips():
    checked = []

    def skip():
        raise SkipCase("library X is not installed")

    cases = [
        _case("g", "ours", check=lambda value: checked.append(value)),
        _case("g", "theirs", baseline=True),
        _case("g", "missing", baseline=True, setup=skip),
    ]
    results = _base.run_group(cases, FAST)
    assert [r.name for r in results] == ["ours", "theirs", "missing"]
    assert checked == [sum(range(50))]
    for r in results[:2]:
        assert len(r.seconds_per_call) == FAST.repeats and r.median > 0 and r.calls_per_repeat >= 1
        assert r.throughput == pytest.approx(r.units / r.median)
    assert results[2].skipped == "library X is not installed"
    assert "skipped" in results[2].as_dict() and "median_seconds_per_call" not in results[2].as_dict()


def test_a_failing_check_stops_the_run():
    def wrong(value):
        raise AssertionError("wrong answer")

    with pytest.raises(AssertionError, match="wrong answer"):
        _base.run_group([_case("g", "ours", check=wrong)], FAST)


def _result(name, median, *, baseline=False, target=None, skipped=None, units=10):
    return _base.CaseResult("g", name, "values", units, baseline, target,
                            seconds_per_call=() if skipped else (median,), calls_per_repeat=1, skipped=skipped)


def test_ratios_compare_throughput_and_judge_targets():
    results = [
        _result("ours", 1.0, target=">= 1.5x slow; >= 3x fast; >= 1x absent"),
        _result("slow", 2.0, baseline=True),
        _result("fast", 0.5, baseline=True),
        _result("gone", 0.0, baseline=True, skipped="not installed"),
    ]
    table = {q.baseline: q for q in _base.ratios(results)}
    assert table["slow"].ratio == pytest.approx(2.0) and table["slow"].met is True
    assert table["fast"].ratio == pytest.approx(0.5) and table["fast"].met is False
    assert table["gone"].ratio is None and table["gone"].met is None
    assert table["absent"].ratio is None and table["absent"].required == 1.0
    assert set(table) == {"slow", "fast", "gone", "absent"}


def test_ratios_account_for_units_per_call():
    results = [_result("ours", 1.0, units=100), _result("base", 1.0, baseline=True, units=10)]
    assert _base.ratios(results)[0].ratio == pytest.approx(10.0)


# --- discovery and the core cases ------------------------------------------------

def test_discovery_finds_the_core_cases_and_every_target_names_a_baseline():
    cases = discover_cases()
    assert set(core_cases.CASES) <= set(cases)
    by_group = _base.group_cases(cases)  # also: names unique within a group
    for group, members in by_group.items():
        baselines = {c.name for c in members if c.baseline}
        if any(case.target for case in members):
            assert baselines, f"group {group} has a target but no baseline"
        for case in members:
            for clause in _base.parse_target(case.target):
                assert clause.baseline in baselines, f"{group}/{case.name} target names {clause.baseline}"


def test_issue_targets_are_declared():
    targets = {(c.group, c.name): c.target for c in core_cases.CASES}
    assert targets[("bytes-1MiB", "rngcert")] == ">= 0.9x openssl-chacha20; >= 10x os-urandom"
    assert targets[("integers-37", "rngcert")] == ">= 1.0x numpy-pcg64"
    assert targets[("integers-37-scalar", "rngcert")] == ">= 2x secrets-randbelow"


@pytest.mark.parametrize("case", core_cases.CASES, ids=lambda c: c.label)
def test_every_core_case_runs_and_passes_its_own_check(case):
    # A case this CPU or build cannot run (an AVX-512 path on a CPU without it) says so itself;
    # `rngcert bench` reports it as skipped, and so does this test.
    try:
        run = case.setup()
    except SkipCase as exc:
        pytest.skip(str(exc))
    case.check(run())


def test_core_checks_reject_wrong_results():
    with pytest.raises(AssertionError):
        core_cases._bytes_check(bytes(core_cases.MIB))  # all zeros
    with pytest.raises(AssertionError):
        core_cases._bytes_check(b"\x01" * 10)
    biased = np.arange(core_cases.INTEGERS_SIZE, dtype=np.int64) % 36  # never 36
    with pytest.raises(AssertionError):
        core_cases._integers_check(biased)
    with pytest.raises(AssertionError):
        core_cases._scalar_check([37] * core_cases.SCALAR_CALLS)
    with pytest.raises(AssertionError):
        core_cases._floats_check(np.full(core_cases.FLOATS_SIZE, 0.25))


def test_replay_bytes_case_is_the_openssl_keystream():
    replay = next(c for c in core_cases.CASES if c.name == "rngcert-replay")
    first = replay.setup()()
    assert first == core_cases._openssl_keystream_encryptor().update(bytes(core_cases.MIB))


def test_openssl_baseline_is_skipped_with_a_note_without_cryptography(monkeypatch):
    monkeypatch.setitem(sys.modules, "cryptography.hazmat.primitives.ciphers", None)
    openssl = [c for c in core_cases.CASES if c.name == "openssl-chacha20"]
    assert openssl
    for case in openssl:
        [result] = _base.run_group([case], FAST)
        assert "cryptography" in result.skipped


def _without_cryptography(monkeypatch):
    """As on a plain install (no extras): every ``cryptography`` import fails."""
    for name in [m for m in sys.modules if m == "cryptography" or m.startswith("cryptography.")] + ["cryptography"]:
        monkeypatch.setitem(sys.modules, name, None)


def test_a_check_that_needs_a_missing_package_skips_its_case(monkeypatch):
    """A case whose check needs an optional package (the DRBG replay references) is skipped with
    why on a plain install, and the rest of the group still runs, instead of a traceback."""
    def check(value):
        from cryptography.hazmat.primitives import hashes  # noqa: F401

    _without_cryptography(monkeypatch)
    ours, base = _base.run_group([_case("g", "ours", check=check), _case("g", "theirs", baseline=True)], FAST)
    assert ours.skipped.startswith("needs the `cryptography` package, which is not installed")
    assert base.skipped is None and len(base.seconds_per_call) == FAST.repeats


def test_a_missing_module_of_ours_is_not_skipped():
    def setup():
        import harness.no_such_module  # noqa: F401

    with pytest.raises(ModuleNotFoundError, match="harness.no_such_module"):
        _base.run_group([_case("g", "ours", setup=setup)], FAST)


def test_bench_runs_every_case_on_a_plain_install(monkeypatch):
    """`rngcert bench` with no `cryptography` (a plain `pip install .`): every case of the groups
    whose baselines or checks use it either runs and passes its check or is skipped with a note."""
    _without_cryptography(monkeypatch)
    needing = {"bytes-1MiB", "fill-1MiB", "ctr-drbg-1MiB", "hmac-drbg-1MiB"}
    cases = [c for c in discover_cases() if c.group in needing]
    assert {c.group for c in cases} == needing
    results = _base.run_group(cases, _base.Timing(repeats=1, min_seconds=0.0))
    skipped = {r.name for r in results if r.skipped}
    assert "openssl-chacha20" in skipped and "openssl-aes256-ctr" in skipped
    assert all("cryptography" in r.skipped for r in results if r.skipped)
    assert any(r.name == "rngcert" and r.skipped is None for r in results)


# --- the command --------------------------------------------------------------------

FAKE = [
    _case("fake-a", "rngcert", target=">= 0.01x fake-base"),
    _case("fake-a", "fake-base", baseline=True),
    _case("fake-b", "rngcert"),
    _case("fake-b", "fake-base", baseline=True),
]


@pytest.fixture
def fake_cases(monkeypatch):
    import harness.benchcases

    monkeypatch.setattr(harness.benchcases, "discover_cases", lambda: list(FAKE))
    monkeypatch.setattr(_base.Timing, "default", classmethod(lambda cls: FAST))
    monkeypatch.setattr(_base.Timing, "quick", classmethod(lambda cls: FAST))


def test_bench_text_report(fake_cases):
    result = CliRunner().invoke(main, ["bench", "--quick"])
    assert result.exit_code == 0, result.output
    assert "[fake-a]" in result.output and "[fake-b]" in result.output
    assert "rngcert / fake-base:" in result.output
    assert "target >= 0.01x: met" in result.output


def test_bench_json_report_and_group_filter(fake_cases):
    result = CliRunner().invoke(main, ["bench", "--json", "--group", "fake-b"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [g["group"] for g in report["groups"]] == ["fake-b"]
    [group] = report["groups"]
    assert {c["name"] for c in group["cases"]} == {"rngcert", "fake-base"}
    assert all(c["median_seconds_per_call"] > 0 for c in group["cases"])
    [ratio] = group["ratios"]
    assert ratio["case"] == "rngcert" and ratio["baseline"] == "fake-base" and ratio["ratio"] > 0
    assert report["build"]["core_sha256"] and report["timing"]["repeats"] == FAST.repeats
    assert report["provenance"] is None  # the benchmarks draw from no generator of the caller's
    assert (report["verdict"], report["complete"], report["interrupted"]) == ("pass", True, False)


def test_bench_missed_target_fails_the_verdict_and_exits_1_only_when_asked(monkeypatch):
    import harness.benchcases

    cases = [_case("fake-m", "rngcert", target=">= 1000x fake-base"), _case("fake-m", "fake-base", baseline=True)]
    monkeypatch.setattr(harness.benchcases, "discover_cases", lambda: cases)
    monkeypatch.setattr(_base.Timing, "quick", classmethod(lambda cls: FAST))
    result = CliRunner().invoke(main, ["bench", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["verdict"] == "fail"
    result = CliRunner().invoke(main, ["bench", "--quick", "--fail-on-missed"])
    assert result.exit_code == 1, result.output
    assert result.stdout.rstrip().splitlines()[-1] == "verdict: FAIL (target missed: rngcert / fake-base)"


def test_bench_unknown_group_is_a_usage_error(fake_cases):
    result = CliRunner().invoke(main, ["bench", "--group", "nope"])
    assert result.exit_code == 2
    assert "unknown group 'nope'" in result.output and "fake-a" in result.output
    assert "Traceback" not in result.output


def test_bench_interrupted_reports_completed_groups(monkeypatch):
    import harness.benchcases

    def interrupt():
        raise KeyboardInterrupt

    cases = FAKE[:2] + [_case("fake-c", "rngcert", setup=interrupt), _case("fake-c", "base", baseline=True)]
    monkeypatch.setattr(harness.benchcases, "discover_cases", lambda: cases)
    monkeypatch.setattr(_base.Timing, "default", classmethod(lambda cls: FAST))
    result = CliRunner().invoke(main, ["bench", "--json"])
    assert result.exit_code == 130
    report = json.loads(result.stdout)
    assert report["interrupted"] is True and [g["group"] for g in report["groups"]] == ["fake-a"]
    assert report["verdict"] == "incomplete" and report["complete"] is False
    assert "interrupted: reporting the 1 group(s) completed" in result.stderr


def test_descriptions():
    ratio = _base.Ratio("g", "ours", "theirs", 0.5, 0.9)
    assert ratio.describe() == "ours / theirs: 0.50x  (target >= 0.9x: MISSED)"
    assert _base.Ratio("g", "ours", "gone", None, 2.0).describe() == "ours / gone: not measured  (target >= 2x: not measured)"
    line = _result("ours", 0.002, units=2**20).describe()
    assert "2.00 ms/call" in line and "524.29 Mvalues/s" in line
    in_bytes = _base.CaseResult("g", "ours", "B", 2**20, False, None, seconds_per_call=(0.002,))
    assert "500.0 MiB/s" in in_bytes.describe()
    skipped = _result("theirs", 0, baseline=True, skipped="no library").describe()
    assert "baseline" in skipped and "skipped: no library" in skipped


def test_no_bench_case_draws_from_a_trivial_seed():
    """A bench run prints only its report: no case's replay seed earns the trivial-seed warning."""
    import importlib
    import pkgutil

    import harness.benchcases
    from rngcore.engine import MIN_DISTINCT_SEED_BYTES

    seeds = {}
    for info in pkgutil.iter_modules(harness.benchcases.__path__):
        module = importlib.import_module(f"harness.benchcases.{info.name}")
        if hasattr(module, "SEED"):
            seed = module.SEED
            seeds[info.name] = bytes.fromhex(seed) if isinstance(seed, str) else bytes(seed)
    assert {"stats", "sp800_22", "slot"} <= set(seeds)
    assert {name: len(set(s)) for name, s in seeds.items() if len(set(s)) < MIN_DISTINCT_SEED_BYTES} == {}


def test_smoke_runs_and_checks_every_case_exactly_once(monkeypatch):
    import harness.benchcases

    calls = []

    def counting(name):
        return lambda: (lambda: calls.append(name) or b"x")

    def failing(value):
        raise AssertionError("wrong result")

    cases = [_case("fake-a", "ours", setup=counting("ours"), target=">= 1000000x base"),
             _case("fake-a", "base", baseline=True, setup=counting("base"))]
    monkeypatch.setattr(harness.benchcases, "discover_cases", lambda: cases)
    result = CliRunner().invoke(main, ["bench", "--smoke", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert calls == ["ours", "base"] and report["timing"]["first_call_only"] is True
    assert [c["calls_per_repeat"] for c in report["groups"][0]["cases"]] == [1, 1]
    # One call cannot judge a speed target: an impossible one is not reported as missed.
    assert report["verdict"] == "pass"
    text = CliRunner().invoke(main, ["bench", "--smoke"])
    assert text.exit_code == 0
    # One pair of parentheses: the reason reads as one clause, not a parenthesis inside another.
    assert text.stdout.rstrip().splitlines()[-1] == (
        "verdict: PASS (every case ran and passed its check; --smoke judges no speed target)")
    calls.clear()
    cases[0] = _case("fake-a", "ours", setup=counting("ours"), check=failing)
    wrong = CliRunner().invoke(main, ["bench", "--smoke"])
    assert wrong.exit_code == 1 and wrong.exception.__class__ is SystemExit
    assert "error: fake-a/ours returned a wrong result: wrong result" in wrong.stderr
    both = CliRunner().invoke(main, ["bench", "--smoke", "--quick"])
    assert both.exit_code == 2 and "exclude each other" in both.output


# --- shipped files: an installed wheel may come without examples/ --------------------

def _area_modules():
    import importlib
    import pkgutil

    import harness.benchcases

    return {info.name: importlib.import_module(f"harness.benchcases.{info.name}")
            for info in pkgutil.iter_modules(harness.benchcases.__path__) if not info.name.startswith("_")}


def test_bench_cases_find_shipped_files_only_through_shipped_or_skip():
    """One way to a shipped file, called at set-up: a direct ``shipped()`` can hand a case None
    (the megaways case once called ``load_model(None)``), and one at import does file work
    for every ``rngcert bench``."""
    import inspect

    direct = {name for name, module in _area_modules().items()
              if "harness.resources" in (source := inspect.getsource(module))
              or "import resources" in source or "import shipped" in source}
    assert direct == set()


def test_every_case_needing_a_shipped_file_skips_cleanly_without_it(monkeypatch):
    """With the shipped files absent (as in a wheel without examples/), each case that needs one
    is skipped naming the file; the other cases of those areas ask for none."""
    import inspect

    from harness import resources

    asked = []
    monkeypatch.setattr(resources, "shipped", lambda relative: asked.append(relative))
    users = {name: m for name, m in _area_modules().items() if "shipped_or_skip" in inspect.getsource(m)}
    assert {"slot", "slot_ways", "rounds_slot"} <= set(users)
    for module in users.values():  # bypass caches filled while the files were there
        for attr, value in vars(module).items():
            if hasattr(value, "cache_clear") and hasattr(value, "__wrapped__"):
                monkeypatch.setattr(module, attr, value.__wrapped__)
    skipped = set()
    for module in users.values():
        for case in module.CASES:
            asked.clear()
            try:
                case.setup()
            except SkipCase as exc:
                assert len(asked) == 1 and str(exc) == f"{asked[0]} is not installed with this rngcert", case.label
                [result] = _base.run_group([case], _base.Timing.smoke())  # the runner's path: a skip, no raise
                assert result.skipped == str(exc), case.label
                skipped.add(case.label)
            else:
                assert asked == [], f"{case.label} asked for {asked} and did not skip"
    assert {c.label for c in users["slot"].CASES} | {c.label for c in users["rounds_slot"].CASES} <= skipped
    assert "slot-exact-megaways-117649/rngcert-ways-programme" in skipped


def test_bench_without_the_shipped_example_reports_a_skip_not_a_traceback(monkeypatch):
    from harness import resources

    monkeypatch.setattr(resources, "shipped", lambda relative: None)
    result = CliRunner().invoke(main, ["bench", "--smoke", "--group", "slot-exact-megaways-117649"])
    assert result.exit_code == 0 and result.exception is None, result.output
    assert "skipped: examples/slot_megaways.toml is not installed with this rngcert" in result.stdout
    assert "Traceback" not in result.output


def test_rates_are_printed_with_a_prefix_that_keeps_the_figure_short():
    """An exact slot analysis covers ~3e18 combinations a call: its rate reads 4.19 Ecombinations/s,
    not 4188567673.08 G."""
    from harness.benchcases._base import _human_rate

    assert _human_rate(4.18856767308e18, "combinations").split() == ["4.19", "Ecombinations/s"]
    assert _human_rate(2.5e13, "spins").split() == ["25.00", "Tspins/s"]
    assert _human_rate(30.63e6, "spins").split() == ["30.63", "Mspins/s"]
    assert _human_rate(12.0, "rounds").split() == ["12.00", "rounds/s"]
    assert _human_rate(2 * 2**20, "B").split() == ["2.0", "MiB/s"]
