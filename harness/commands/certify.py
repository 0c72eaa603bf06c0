"""``rngcert certify PLAN.toml --out DIR``: run a certification plan into an evidence bundle.

The plan format is :mod:`harness.certify.plan` (annotated example:
``examples/plan.toml``; docs/certify.md); the bundle is
:mod:`harness.certify.bundle`.  Exit codes: 0 every section passes, 1 one
fails (or the run is incomplete without an interrupt), 2 a bad plan or
output folder, 130 interrupted (the bundle is written, marked INCOMPLETE;
``--resume`` finishes it).
"""
from __future__ import annotations

import pathlib

import click

from harness.commands._options import quiet_option, scheduler_option, workers_option

EXAMPLE = "rngcert certify examples/plan.toml --out report/"


@click.command("certify", epilog=f"Example: {EXAMPLE}")
@click.argument("plan_path", metavar="PLAN.toml",
                type=click.Path(dir_okay=False, path_type=pathlib.Path))
@click.option("--out", "out", required=True, metavar="DIR", type=click.Path(file_okay=False, path_type=pathlib.Path),
              help="Folder for the bundle (new or empty; with --resume, the stopped run's folder).")
@click.option("--resume", is_flag=True,
              help="Finish a stopped run in DIR: finished sections are kept, the rest run (same plan file).")
@click.option("--sign-key", "sign_key", metavar="KEY.pem", default=None,
              type=click.Path(dir_okay=False, path_type=pathlib.Path),
              help="Sign report.json with this Ed25519 private key (PEM, PKCS#8, unencrypted): "
                   "report.json.sig and report.json.pub.pem (needs rngcert[sign]).")
@workers_option("Run each device section's battery in the fixed partitions of `rngcert test --workers` on N "
                "processes (the report of one pass, for any N), and the game and slot simulations' partitions "
                "(played in partitions with or without it: the same figures); finished partitions are kept in "
                "DIR/checkpoints, so --resume goes on from them.", default=None)
@scheduler_option
@quiet_option
@click.pass_context
def certify_command(ctx, plan_path, out, resume, sign_key, workers, scheduler, quiet):
    """Run the certification plan PLAN.toml and write the evidence bundle into DIR.

    The plan names the jurisdiction profiles, the engine (replay seed or
    production), the devices (ours, or capture files), the games with their
    options and the slot models.  DIR receives report.json (JSON Schema in
    the package: harness/certify/report.schema.json), report.json.sha256,
    report.html (one self-contained page; its figures drawn with matplotlib
    when rngcert[report] is installed, else as inline SVG) and
    MANIFEST.sha256 (every file, for `sha256sum -c`); with --sign-key,
    report.json.sig (Ed25519).  Each finished section is checkpointed in
    DIR/checkpoints: after Ctrl-C (exit 130, report INCOMPLETE) the same
    command with --resume finishes the run.  Exit 0 every section passes, 1
    one fails, 2 bad plan or folder, 130 interrupted.
    """
    from harness.certify.checkpoint import CheckpointError
    from harness.certify.plan import PlanError, load_plan
    from harness.certify.run import certify

    try:
        plan = load_plan(plan_path)
    except PlanError as exc:
        raise click.BadParameter(str(exc), param_hint="PLAN.toml") from None
    key = None
    if sign_key is not None:
        from harness.certify.sign import SigningError, load_key

        try:
            key = load_key(sign_key)
        except SigningError as exc:
            raise click.BadParameter(str(exc), param_hint="'--sign-key'") from None
    argv = ["rngcert", "certify", str(plan_path), "--out", str(out)] + (["--resume"] if resume else [])
    partitioned = None
    if workers is not None or scheduler is not None:
        from harness.certify.sections import Partitioned

        partitioned = Partitioned(workers or 1, scheduler)
        argv += [f"--workers={partitioned.workers}"] + ([f"--scheduler={scheduler}"] if scheduler else [])
    try:
        done = certify(plan, out, argv=argv, resume=resume, quiet=quiet, signing_key=key, partitioned=partitioned)
    except CheckpointError as exc:
        raise click.BadParameter(str(exc), param_hint="'--out'") from None
    except ValueError as exc:  # a capture or model that turns out malformed while its section runs
        raise click.UsageError(str(exc)) from None
    report = done.report
    width = max(len(s["key"]) for s in report["sections"])
    lines = [f"rngcert certify {plan.path.name}: {report['plan']['title']}"]
    lines += [f"  {s['verdict'].upper():<10} {s['key']:<{width}}  {s['reason']}" for s in report["sections"]]
    covered = sum(1 for c in report["clauses"] if c["status"] == "checked")
    lines.append(f"clauses: {covered} of {len(report['clauses'])} checked by this plan (the rest listed in "
                 f"the report as not in plan or not covered)")
    lines.append(f"bundle: {out}/report.json, report.html, MANIFEST.sha256")
    if done.outcome.interrupted:
        lines.append(f"resume with: rngcert certify {plan_path} --out {out} --resume")
    click.echo("\n".join(lines + [done.outcome.line()]))
    ctx.exit(done.outcome.exit_code)


COMMANDS = [certify_command]
