"""What each kind of plan section runs, through the registries, and the JSON it records.

Every runner returns a *section record*: the report vocabulary
(:mod:`harness.verdict`: ``verdict``, ``complete``, ``interrupted``) plus
``key``, ``kind``, ``title``, ``reason``, ``inputs`` (files read, with their
SHA-256), ``provenance`` (the generator's, None when nothing was drawn) and
``result`` (the section's figures: the same JSON ``rngcert test``, ``game``,
``slot`` and ``selftest`` print).  Times are kept only in keys ending in
``seconds`` (durations) or ``per_second`` (rates), so two runs of one plan
differ in those keys and nowhere else.

A runner interrupted by Ctrl-C or SIGTERM returns its partial record with
``interrupted`` true; the run stops there and ``--resume`` runs the section
again on its own stream (its generator rebuilt from the seed, so nothing is
counted twice): a device from its last saved accumulator state (its first
outcomes replayed to the derived streams only) or from the partitions it
kept, a game's or slot's simulation from the partitions it kept
(:func:`harness.game_partitions.play_traced`; on an engine without children,
from the end of its last finished segment: :mod:`harness.segments`), their
exact analyses anew.
"""
from __future__ import annotations

import dataclasses
import hashlib
import inspect
import pathlib

from harness import segments, sources
from harness.certify.plan import DeviceSection, GameSection, Plan, RoundsSection, SlotSection
from harness.progress import Progress
from harness.verdict import FAIL, Outcome

CHUNK_VALUES = sources.CHUNK_VALUES  # values per chunk fed to the battery (tests lower it)
CHECKPOINT_VALUES = 1 << 26  # a long device section saves its accumulators about every 64 M values


@dataclasses.dataclass(frozen=True)
class Partitioned:
    """``rngcert certify --workers N [--scheduler ADDRESS]``: where a section's partitions run.  A device
    section's battery runs in the fixed partitions of ``rngcert test --workers``
    (:mod:`harness.partitions`: the report of one pass, for any N); a game's or slot's simulation is
    always played in partitions (:func:`_simulate`), here when there is no ``Partitioned``.  Each
    finished partition is kept beside the section's checkpoint so ``--resume`` goes on from the
    partitions a stopped run finished."""

    workers: int = 1
    scheduler: str | None = None


def sha256_file(path: pathlib.Path) -> str:
    """SHA-256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _input(path: pathlib.Path, role: str, plan: Plan) -> dict:
    try:
        shown = str(path.relative_to(plan.path.parent))
    except ValueError:
        shown = str(path)
    return {"role": role, "path": shown, "sha256": sha256_file(path)}


def _record(section, kind: str, outcome: Outcome, result: dict | None, *, inputs=(), provenance=None) -> dict:
    return {**outcome.fields(), "key": section.key, "kind": kind, "title": section.title,
            "reason": outcome.reason, "inputs": list(inputs), "provenance": provenance, "result": result}


def stream_of(plan: Plan, section) -> int | None:
    """The replay stream a drawing section uses: its own ``stream``, else the plan's engine stream plus
    the section's place in the plan (so every section draws distinct bits); None for an engine
    without streams or in production mode."""
    from rngcore.engines import engines

    if not plan.engine.replay or not engines()[plan.engine.name].has_streams:
        return None
    if section.stream is not None:
        return section.stream
    return (plan.engine.stream + plan.sections.index(section)) % 2**64


def generator_for(plan: Plan, section):
    """A new generator on the plan's engine for one section (see :func:`stream_of`)."""
    import rngcore
    from rngcore.engines import create

    bits = create(plan.engine.name, plan.engine.seed, stream_of(plan, section))
    bits.show_seed = plan.engine.show_seed
    return rngcore.Generator(bits)


# -- the self-test ----------------------------------------------------------------------------

def run_selftest(plan: Plan, quiet: bool) -> dict:
    """Every registered engine's known-answer and continuous tests, and the build's identity."""
    from harness import selftest
    from harness.commands.core import _check_json

    class Section:
        key, title = "selftest", "self-test of this build (every registered engine)"

    by_engine = selftest.run_selftest()
    checks = [_check_json(name, c) for name, found in by_engine.items() for c in found]
    failed = [f"{c['engine']}/{c['name']}" for c in checks if c["verdict"] == FAIL]
    outcome = Outcome.judge(not failed, reason=f"failed: {', '.join(failed)}" if failed else "every check passes")
    return _record(Section, "selftest", outcome, {"engines": list(by_engine), "checks": checks})


# -- devices ----------------------------------------------------------------------------------

def samples_for_target(spec, delta: float, plan: Plan) -> int:
    """Outcomes at which the frequency of one value at (1 + δ)·p is detected with the plan's power
    at the Holm level α/m of the battery planned at that n (m settles in a step or two).

    The values are those of the kind's ``values`` stream (a roll of N dice gives N of them); a kind
    without one (a shuffle) counts one value per outcome, as its first-card test does."""
    from stats.battery import Battery
    from stats.kinds import kind_of
    from stats.power import sample_size_for_shift

    kind = kind_of(spec)
    stats_ = plan.statistics
    streams = kind.stream_table()
    per_row = int(streams["values"].scale(kind)) if "values" in streams else 1
    n = kind.default_samples
    for _ in range(4):
        m = len(Battery(spec, n, alpha=stats_.alpha).tests)
        values = sample_size_for_shift(kind.probabilities, delta, stats_.alpha / m, power=stats_.power)
        wanted = -(-values // per_row)
        if wanted == n:
            break
        n = wanted
    return max(1, min(n, (1 << 53) // int(kind.width)))


def _pvalue_uniformity(result) -> dict | None:
    """Kolmogorov-Smirnov test that the p-values of the statistical tests that ran look uniform
    (deterministic checks, whose p is 0 or 1, left out); None with fewer than 5 p-values.  The tests
    of one device are dependent, so this is a picture for the reader, not part of the verdict."""
    from scipy import stats as sps

    from stats import CheckResult

    pvalues = [t.pvalue for t in result.ran if not isinstance(t.result, CheckResult)]
    if len(pvalues) < 5:
        return None
    ks = sps.kstest(pvalues, "uniform")
    return {"n": len(pvalues), "ks_statistic": float(ks.statistic), "pvalue": float(ks.pvalue),
            "pvalues": [float(p) for p in pvalues]}


def _feed(battery, chunks, n: int, progress, partial, rows: int):
    """Feed ``chunks`` to ``battery``: from the partial checkpoint on, when there is one (its
    outcomes are replayed to the derived streams only), saving the state every
    :data:`CHECKPOINT_VALUES` values; Ctrl-C ends with the interrupted result of what was fed."""
    chunks = iter(chunks)
    saved = None if partial is None else partial.load()
    if saved is not None:
        done, state = saved

        def replayed():
            seen = 0
            while seen < done:
                part = next(chunks)
                seen += len(part)
                yield part

        battery.restore(state, replayed())
        progress(battery.n, n)
    every = max(1, CHECKPOINT_VALUES // max(1, rows * int(battery.kind.width)))
    try:
        for count, part in enumerate(chunks, 1):
            battery.update(part)
            progress(battery.n, n)
            if partial is not None and count % every == 0 and battery.n < n:
                partial.save(battery.n, battery.state())
    except KeyboardInterrupt:
        return battery.result(interrupted=True)
    return battery.result()


def _partitioned(spec, section, source, n: int, stats_, tests, progress, partitioned: Partitioned, partial):
    """The battery of a device section in partitions (:class:`Partitioned`): ``source`` the opened
    capture or the section's generator; the partitions kept in ``partial``'s folder."""
    from harness.partitions import run_drawn, run_partitioned

    common = dict(alpha=stats_.alpha, power=stats_.power, tests=tests, workers=partitioned.workers,
                  progress=progress, scheduler=partitioned.scheduler,
                  checkpoint=None if partial is None else partial.partitions())
    if section.input is not None:
        return run_partitioned(spec, section.device, source, section.format, n, **common)
    return run_drawn(spec, section.device, source, n, **common)


def run_device(plan: Plan, section: DeviceSection, quiet: bool, partial=None, partitioned=None) -> dict:
    """The battery on one device: drawn from the plan's engine, or read from a capture file (in
    partitions with ``partitioned``, a :class:`Partitioned`)."""
    from stats.battery import Battery
    from stats.kinds import kind_of

    spec = sources.device_to_test(section.device)
    kind = kind_of(spec)
    rows = sources.rows_per_chunk(kind, CHUNK_VALUES)
    inputs, provenance, locate, source = [], None, None, {}
    if section.input is not None:
        from stats.io import open_capture

        capture = open_capture(section.input, spec, format=section.format)
        n = capture.n if section.samples is None else min(section.samples, capture.n)
        inputs.append(_input(section.input, "capture", plan))
        locate = capture.locate
        source = {"capture": inputs[0]["path"], "container": capture.container, "reading": capture.reading,
                  "available": capture.n}
        chunks = sources.first(capture.chunks(rows), n)
    else:
        n = section.samples
        if n is None and section.target_delta is not None:
            n = samples_for_target(spec, section.target_delta, plan)
            source["target_delta"] = section.target_delta
        n = kind.default_samples if n is None else n
        generator = generator_for(plan, section)
        chunks = sources.drawn(spec, generator, n, rows)
    source["n"] = n
    stats_ = plan.statistics
    tests = list(section.tests) or None
    if partitioned is None and partial is not None and any(partial.partitions().glob("part-*.json")):
        partitioned = Partitioned()  # a run stopped in partitions goes on from them, here if not on workers
    with Progress(f"{section.key}", n, unit=kind.unit, quiet=quiet) as progress:
        if partitioned is not None:
            result = _partitioned(spec, section, capture if section.input is not None else generator, n,
                                  stats_, tests, progress, partitioned, partial)
        else:
            battery = Battery(spec, n, alpha=stats_.alpha, power=stats_.power, tests=tests, locate=locate)
            result = _feed(battery, chunks, n, progress, partial, rows)
    if section.input is None:
        provenance = generator.provenance().as_dict()
    body = result.to_json()
    for entry, test in zip(result.tests, body["tests"]):
        test["low_power"] = entry.low_power(stats_.low_power_delta)
    body["power_warning"] = result.power_warning(stats_.low_power_delta) or None
    body["pvalue_uniformity"] = _pvalue_uniformity(result)
    body["source"] = source
    failed = [t.name for t in result.ran if t.verdict == FAIL]
    if result.interrupted:
        reason = f"interrupted after {result.n:,} of {n:,} {result.unit}"
    elif failed:
        reason = f"{', '.join(failed)} rejected at family-wise alpha = {stats_.alpha:g}"
    else:
        reason = f"no test rejected at family-wise alpha = {stats_.alpha:g} over {len(result.ran)} tests"
    outcome = Outcome.judge(not failed, interrupted=result.interrupted, reason=reason)
    return _record(section, "device", outcome, body, inputs=inputs, provenance=provenance)


# -- simulations (games, slots) ---------------------------------------------------------------

def _simulate(plan: Plan, section, adapter, generator, progress, partial, partitioned, remote):
    """A section's simulation in the partitions of :func:`harness.game_partitions.play_traced` (the
    convergence schedule's segments, each partition on its own child of the section's generator), on
    ``partitioned``'s workers or in this process: the same figures either way.  The finished partitions
    are kept beside the section's checkpoint, so ``--resume`` (with or without ``--workers``) goes on
    from them.  An engine without children (an SP 800-90A DRBG) plays the segments one after another
    on the section's generator (:func:`harness.segments.play`), in this process.  Returns (result, trace)."""
    from harness.game_partitions import play_traced, spawns

    if not spawns(generator):
        return segments.play(section.simulate, adapter, generator, progress=progress, partial=partial)
    partitioned = partitioned or Partitioned()
    result, trace, _ = play_traced(adapter, section.simulate, generator, remote=remote,
                                   workers=partitioned.workers, scheduler=partitioned.scheduler, progress=progress,
                                   identity={"plan": plan.sha256, "section": section.key},
                                   checkpoint=None if partial is None else partial.partitions())
    return result, trace


# -- games ------------------------------------------------------------------------------------

def run_game(plan: Plan, section: GameSection, quiet: bool, partial=None, partitioned=None) -> dict:
    """A table game's exact analysis with the plan's options, and its simulation if asked for."""
    from harness.commands.game import _outcome
    from harness.games.registry import game as get_game

    game = get_game(section.game)
    options = dict(section.options)
    analysis = game.analyse(section.variant, strategy=section.strategy, **options)
    body = analysis.as_dict()
    body["options"] = {name: value for name, value in options.items() if game.option(name).kind != "file"}
    body["rules_sha256"] = sha256_file(pathlib.Path(inspect.getsourcefile(type(game))))
    simulation, provenance = None, None
    if section.simulate is not None:
        generator = generator_for(plan, section)
        adapter = segments.GameSegments(game, section.variant, section.strategy, **options)
        with Progress(section.key, section.simulate, unit="rounds", quiet=quiet) as progress:
            simulation, trace = _simulate(plan, section, adapter, generator, progress, partial, partitioned,
                                          ("game", game.name, section.variant, section.strategy, options))
        body["simulation"] = simulation.as_dict()
        body["simulation"]["convergence"] = segments.trace_json(
            trace, adapter.unit, {b.name: b.exact.rtp for b in simulation.bets})
        provenance = generator.provenance().as_dict()
    inputs = [_input(path, "option file", plan) for path in section.files()]
    return _record(section, "game", _outcome(simulation), body, inputs=inputs, provenance=provenance)


# -- slots ------------------------------------------------------------------------------------

def run_slot(plan: Plan, section: SlotSection, quiet: bool, partial=None, partitioned=None) -> dict:
    """A slot model's exact PAR sheet, checked against every profile of the plan."""
    from harness.slot.exact import analyse
    from harness.slot.limits import estimate
    from harness.slot.model import load_model
    from harness.slot.profiles import check
    from harness.slot.report import outcome, to_json

    model = load_model(section.model)
    with Progress(f"{section.key} exact analysis", 2 * estimate(model).table_entries, quiet=quiet) as progress:
        analysis = analyse(model, progress=progress)
    checks = [c for profile in plan.profiles for c in check(analysis, profile)]
    simulation, provenance, interrupted, trace = None, None, False, None
    if section.simulate is not None:
        generator = generator_for(plan, section)
        adapter = segments.SlotSegments(model)
        with Progress(f"{section.key} simulation", section.simulate, unit="spins", quiet=quiet) as progress:
            simulation, trace = _simulate(plan, section, adapter, generator, progress, partial, partitioned,
                                          ("slot", model))
        interrupted = simulation.interrupted
        provenance = generator.provenance().as_dict()
    body = to_json(analysis, checks, ",".join(plan.profiles), simulation, interrupted=interrupted)
    if trace is not None:
        body["simulation"]["convergence"] = segments.trace_json(trace, adapter.unit, {"rtp": analysis.rtp})
    body["profiles"] = list(plan.profiles)
    body["analysis_seconds"] = body.pop("analysis_seconds", None)
    result = outcome(checks, interrupted)
    return _record(section, "slot", result, body, inputs=[_input(section.model, "slot model", plan)],
                   provenance=provenance)


# -- rounds -----------------------------------------------------------------------------------

def run_rounds(plan: Plan, section: RoundsSection, quiet: bool, partial=None, partitioned=None) -> dict:
    """The scripted fault study of :mod:`harness.rounds.study` on a journal of its own (kept nowhere:
    the report records its checks, the chain's length and tip)."""
    import tempfile

    from harness.rounds import script
    from harness.rounds.study import fault_study
    from harness.rounds.table import rules_for

    rules = rules_for(section.game, section.variant)
    options = dict(section.options)
    bets = script.parse(section.bets, rules, options=options).bets
    generator = generator_for(plan, section)
    with tempfile.TemporaryDirectory(prefix="rngcert-certify-rounds-") as folder:
        body = fault_study(rules, bets, generator, pathlib.Path(folder) / "journal.sqlite", section.rounds, options)
    failed = [c["check"] for c in body["checks"] if not c["ok"]]
    outcome = Outcome.judge(not failed, reason=f"failed: {'; '.join(failed)}" if failed else
                            f"{len(body['checks'])} checks pass: faults void or settle by the rule, the restart "
                            "recovers the stopped rounds")
    inputs = [_input(section.bets, "bet script", plan)]
    family, _, model = section.game.partition(":")
    if family == "slot":
        inputs.append(_input(pathlib.Path(model), "slot model", plan))
    return _record(section, "rounds", outcome, body, inputs=inputs, provenance=generator.provenance().as_dict())


RUNNERS = {DeviceSection: run_device, GameSection: run_game, SlotSection: run_slot, RoundsSection: run_rounds}


def run_section(plan: Plan, section, quiet: bool = False, partial=None, partitioned=None) -> dict:
    """Run one section of the plan (any kind in :data:`RUNNERS`); ``partial``
    (:class:`harness.certify.checkpoint.Partial`) keeps a long section's state between runs
    (a device's accumulators, a simulation's totals between segments); ``partitioned``
    (:class:`Partitioned`): a device section's battery in partitions."""
    return RUNNERS[type(section)](plan, section, quiet, partial, partitioned)


__all__ = ["run_section", "run_selftest", "Partitioned", "RUNNERS", "sha256_file", "stream_of", "samples_for_target"]
