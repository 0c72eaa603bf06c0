"""The certification run: every section of a plan in order, checkpointed, then the bundle.

A section that finished is loaded from its checkpoint instead of being run
again (``--resume``); one that did not runs from its start.  Ctrl-C or
SIGTERM stops the run after writing the bundle as it stands: the report's
verdict is ``incomplete``, the sections not yet run are listed as pending,
and a later ``--resume`` finishes it with the same ``report.json`` an
uninterrupted run gives (apart from the times: ``provenance.runs`` and keys
ending in ``seconds`` or ``per_second``).
"""
from __future__ import annotations

import dataclasses
import datetime
import pathlib

from harness.certify.bundle import SCHEMA_ID, build_provenance, write_bundle
from harness.certify.checkpoint import Checkpoints
from harness.certify.clauses import clause_table
from harness.certify.plan import Plan
from harness.certify.sections import run_section, run_selftest, stream_of
from harness.verdict import FAIL, INCOMPLETE, Outcome


def utc_now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclasses.dataclass
class Certification:
    """A finished (or stopped) run: the report written, and its outcome."""

    report: dict
    outcome: Outcome
    out: pathlib.Path


def _pending(key: str, kind: str, title: str) -> dict:
    outcome = Outcome.judge(True, complete=False, reason="not run yet")
    return {**outcome.fields(), "key": key, "kind": kind, "title": title, "reason": outcome.reason,
            "inputs": [], "provenance": None, "result": None}


def _plan_json(plan: Plan) -> dict:
    e, s = plan.engine, plan.statistics
    from rngcore.engine import seed_fingerprint

    return {
        "title": plan.title, "file": plan.path.name, "sha256": plan.sha256, "profiles": list(plan.profiles),
        "engine": {"name": e.name, "mode": "replay" if e.replay else "production",
                   "seed_fingerprint": None if e.seed is None else seed_fingerprint(e.seed),
                   **({"seed": e.seed.hex()} if e.show_seed and e.seed is not None else {}), "stream": e.stream},
        "statistics": {"alpha": s.alpha, "procedure": s.procedure, "power": s.power,
                       "low_power_delta": s.low_power_delta},
        "sections": [{"key": section.key, "stream": stream_of(plan, section)} for section in plan.sections],
    }


def _overall(records: list[dict], interrupted: bool) -> Outcome:
    failed = [r["key"] for r in records if r["verdict"] == FAIL]
    waiting = [r["key"] for r in records if r["verdict"] == INCOMPLETE]
    done = len(records) - len(waiting)
    if interrupted:
        reason = f"interrupted: {done} of {len(records)} sections finished; rerun with --resume to finish"
    elif waiting:
        reason = f"incomplete: {', '.join(waiting)}"
    elif failed:
        reason = f"failed: {', '.join(failed)}"
    else:
        reason = f"every one of the {len(records)} sections passes"
    return Outcome.judge(not failed, complete=not waiting, interrupted=interrupted, reason=reason)


def build_report(plan: Plan, records: list[dict], state: dict, interrupted: bool) -> tuple[dict, Outcome]:
    """The ``report.json`` document for ``records`` (finished, interrupted or pending sections)."""
    outcome = _overall(records, interrupted)
    counts = {v: sum(1 for r in records if r["verdict"] == v) for v in ("pass", "fail", "incomplete")}
    report = outcome.report({
        "$schema": SCHEMA_ID,
        "reason": outcome.reason,
        "plan": _plan_json(plan),
        "provenance": build_provenance(plan, state),
        "summary": counts,
        "sections": records,
        "clauses": clause_table(records, plan.engine.replay),
    })
    return report, outcome


def certify(plan: Plan, out: pathlib.Path, *, argv: list[str], resume: bool = False, quiet: bool = False,
            render=None, signing_key=None, partitioned=None) -> Certification:
    """Run ``plan`` into the folder ``out`` and write the bundle.

    Parameters
    ----------
    plan : Plan
    out : pathlib.Path
        Output folder: new or empty, or (``resume``) one holding a stopped run of the same plan.
    argv : list of str
        The command line, recorded in the provenance.
    resume : bool
        Finish a stopped run: sections already checkpointed are not run again.
    quiet : bool
        No progress bars.
    render : callable, optional
        ``render(report) -> str``, the HTML page (default :func:`harness.certify.html.render`).
    signing_key : optional
        An Ed25519 private key (:func:`harness.certify.sign.load_key`): sign ``report.json``.
    partitioned : harness.certify.sections.Partitioned, optional
        Device sections' batteries in partitions (``--workers``, ``--scheduler``).

    Raises
    ------
    harness.certify.checkpoint.CheckpointError
        ``out`` cannot be used (not empty, another plan's run, nothing to resume).
    """
    if render is None:
        from harness.certify.html import render
    checkpoints = Checkpoints(out, plan.sha256)
    state = checkpoints.open(resume=resume, invocation={"argv": argv, "started_utc": utc_now(),
                                                        "finished_utc": None})
    todo = ([("selftest", "selftest", "self-test of this build (every registered engine)", None)]
            if plan.selftest else [])
    todo += [(section.key, section.key.split(":", 1)[0], section.title, section) for section in plan.sections]
    records, interrupted = [], False
    for key, kind, title, section in todo:
        record = None if interrupted else checkpoints.load(key)
        if record is None and not interrupted:
            try:
                record = (run_selftest(plan, quiet) if section is None
                          else run_section(plan, section, quiet, checkpoints.partial(key), partitioned))
            except KeyboardInterrupt:
                interrupted, record = True, None
            if record is not None and record["interrupted"]:
                interrupted = True
            elif record is not None:
                checkpoints.save(record)
        records.append(record if record is not None else _pending(key, kind, title))
    state["runs"][-1]["finished_utc"] = utc_now()
    state["runs"][-1]["interrupted"] = interrupted
    checkpoints.save_state(state)
    report, outcome = build_report(plan, records, state, interrupted)
    write_bundle(out, report, render(report), signing_key)
    return Certification(report, outcome, out)


__all__ = ["certify", "Certification", "build_report", "utc_now"]
