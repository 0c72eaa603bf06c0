"""``rngcert slot``: exact PAR sheet of a slot game model, regulatory checks,
and an optional simulation cross-check through rngcore."""
from __future__ import annotations

import json
import pathlib

import click

from harness.commands._generated import GeneratedCommand
from harness.commands._generator import generator_options, provenance_block
from harness.commands._options import (checkpoint_option, emit, output_option, quiet_option, scheduler_option,
                                      workers_option)
from harness.slot.limits import MAX_SIMULATED_PLAYS
from harness.slot.profiles import PROFILE_NAMES


def _model_format() -> str:
    """The epilog, naming the installed format document (looked up when help is shown)."""
    from harness.resources import shipped

    return f"Model format: {shipped('docs/slot_model.md') or 'docs/slot_model.md'}"


@click.command("slot", cls=GeneratedCommand, epilog_text=_model_format)
@click.argument("model", type=click.Path(dir_okay=False, allow_dash=True, path_type=pathlib.Path))
@click.option("--profile", type=click.Choice(PROFILE_NAMES), default="jp", show_default=True,
              help="The regulator's rules to check; each rule in the report cites its source.")
@click.option("--simulate", "spins", type=click.IntRange(min=1, max=MAX_SIMULATED_PLAYS), default=None, metavar="N",
              help="Also play N spins through rngcore and compare with the exact figures "
                   "(N at most 2**64 - 1, what the simulation's 64-bit play counter holds).")
@workers_option("Play the simulation in fixed partitions of 2^22 spins, partition i on child i of the "
                "generator's spawn, on N processes: the same totals for any N (not those of a run "
                "without --workers, which plays one stream).", default=None)
@scheduler_option
@checkpoint_option
@generator_options()
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@quiet_option
@output_option
@click.pass_context
def slot_command(ctx, model, profile, spins, workers, scheduler, checkpoint, rng, as_json, quiet, output):
    """Exact analysis (PAR sheet) of the slot game in MODEL.toml (or on standard input when MODEL is -).

    Computes the RTP (lines, scatters, free spins, progressive) as exact
    fractions, the hit frequency, the standard deviation per play and the
    probability of every winning outcome, then applies the rules of
    --profile.  Exit status: 0 every check passes, 1 a check fails, 2 the
    model is malformed or impossible, 130 interrupted (Ctrl-C or SIGTERM:
    during the exact analysis the report says how far it got; during
    --simulate it covers the spins done; either way it says INCOMPLETE).
    The model format and its size limits are described in docs/slot_model.md;
    a model beyond them is refused (exit 2) before the analysis starts.  A
    model whose state space forbids exact figures and rigorous bounds (a
    cascade chain too large to follow, say) is refused too, unless --simulate
    N is given: the report is then a stated-precision simulation, labelled as
    such in its heading and in every check.
    """
    from harness.slot.errors import BeyondExact, ModelError
    from harness.slot.exact import analyse
    from harness.slot.limits import estimate
    from harness.slot.model import load_model, read_model
    from harness.slot.profiles import check
    from harness.progress import Progress
    from harness.slot.report import interrupted_json, render, render_interrupted, to_json

    if rng.seed is not None and spins is None:
        raise click.UsageError("--seed selects the simulation's replay stream and needs --simulate N")
    partitioned = workers is not None or scheduler is not None or checkpoint is not None
    if partitioned and spins is None:
        raise click.UsageError("--workers/--scheduler/--checkpoint play a simulation in partitions and need "
                               "--simulate N")
    progress = beyond = None
    try:
        game = read_model(click.open_file("-", "rb"), "stdin") if str(model) == "-" else load_model(model)
        progress = Progress("exact analysis", 2 * estimate(game).table_entries, quiet=quiet)  # analyse()'s units
        with progress:
            analysis = analyse(game, progress=progress)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (see harness.cli)
        if progress is None:
            raise  # still reading the model: nothing to report but the interrupt
        click.echo(f"\ninterrupted after {progress.done:,} of {progress.total:,} units of the exact analysis; "
                   "verdict: INCOMPLETE", err=True)
        if as_json:
            report = interrupted_json(game, profile, progress.done, progress.total)
            report.update(provenance_block(rng.provenance()))
            emit(json.dumps(report, indent=2, ensure_ascii=False), output)
        else:
            emit(render_interrupted(game, profile, progress.done, progress.total).rstrip("\n"), output)
        ctx.exit(130)
    except BeyondExact as exc:  # no exact figure and no rigorous bound: a stated-precision simulation, if asked
        if spins is None:
            raise click.BadParameter(f"{exc}; no exact figures or rigorous bounds exist for it: --simulate N "
                                     "reports a stated-precision simulation instead (labelled as such in the "
                                     "report and in every check)", param_hint="MODEL") from None
        beyond = exc
    except ModelError as exc:
        raise click.BadParameter(str(exc), param_hint="MODEL") from None
    except ValueError as exc:  # a valid model this tool cannot analyse exactly (too large)
        raise click.BadParameter(f"{model}: {exc}", param_hint="MODEL") from None
    checks = check(analysis, profile) if beyond is None else None

    simulation = None
    interrupted = False
    if spins is not None:
        from rngcore.errors import RNGError

        from harness.slot.simulate import simulate

        try:
            generator = rng.build()
            with Progress("simulating", spins, unit="spins", quiet=quiet) as progress:
                if not partitioned:
                    simulation = simulate(game, spins, generator, progress=progress)
                else:
                    from harness.game_partitions import simulate_slot

                    simulation = simulate_slot(game, spins, generator, workers=workers or 1, progress=progress,
                                               scheduler=scheduler, checkpoint=checkpoint)
        except RNGError as exc:  # fail closed
            raise click.ClickException(f"simulation stopped: {exc}") from None
        except ModelError as exc:  # wins beyond the simulation's 64-bit range, a runaway feature
            if beyond is not None:  # nor exact figures, nor bounds: say so, not "exact without it"
                raise click.BadParameter(f"{exc}; but no exact figures or rigorous bounds exist for this model "
                                         f"either ({beyond.message}), so this tool cannot report it",
                                         param_hint="MODEL") from None
            raise click.BadParameter(str(exc), param_hint="MODEL") from None
        except ValueError as exc:  # a --scheduler that cannot be reached, a --checkpoint DIR of another run
            raise click.UsageError(str(exc)) from None
        interrupted = simulation.interrupted
        if interrupted:
            click.echo(f"\ninterrupted after {simulation.plays:,} of {spins:,} spins; reporting those", err=True)
        if simulation.plays < 2:
            simulation = None

    if beyond is not None:  # a model beyond the exact analysis, from its simulation (harness.slot.estimate)
        from harness.slot.estimate import estimate, estimate_checks, estimate_json, render_estimate

        if simulation is None:  # interrupted before two plays: no interval, nothing to check
            raise click.ClickException("the simulation stopped before 2 plays: no estimate to report")
        est = estimate(game, beyond.message, simulation)
        checks = estimate_checks(est, profile)
        _report(ctx, checks, interrupted, as_json, output, rng,
                lambda: estimate_json(est, checks, profile, interrupted=interrupted),
                lambda: render_estimate(est, checks, profile, interrupted=interrupted))
        return
    _report(ctx, checks, interrupted, as_json, output, rng,
            lambda: to_json(analysis, checks, profile, simulation, interrupted=interrupted),
            lambda: render(analysis, checks, profile, simulation, interrupted=interrupted))


def _report(ctx, checks, interrupted: bool, as_json: bool, output, rng, as_dict, as_text) -> None:
    """Emit the report (``as_dict()`` with the provenance block under ``--json``, else ``as_text()``) and
    exit with the checks' status."""
    from harness.slot.report import outcome

    if as_json:
        report = as_dict()
        report.update(provenance_block(rng.provenance()))
        emit(json.dumps(report, indent=2, ensure_ascii=False), output)
    else:
        emit(as_text().rstrip("\n"), output)
    ctx.exit(outcome(checks, interrupted).exit_code)


COMMANDS = [slot_command]
